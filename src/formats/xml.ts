import { SaxesParser } from 'saxes';
import type { SaxesTagPlain } from 'saxes';
import { FormatError } from './types.js';

/**
 * saxes' parser with its event handler slots added up front. saxes stores a handler as a
 * property named at run time (`on()`), so each one registered adds a property by computed name,
 * and after the seventh V8 turns the parser object into a dictionary: every field saxes reads per
 * character is then a hash lookup, and parsing took four times as long (0.8 s instead of 0.2 s for
 * 720,000 inline tags). Added here by name, the slots are part of the object's shape from the
 * start and `on()` only assigns them (bench/hostile-import.bench.ts, tags-40k-per-unit).
 */
export function shapedSaxesParser(): SaxesParser<{ xmlns: false; position: true }> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  // saxes' (private) handler slots, one assignment each by a name known in advance.
  const slots = parser as unknown as Record<string, unknown>;
  slots['xmldeclHandler'] = undefined;
  slots['textHandler'] = undefined;
  slots['piHandler'] = undefined;
  slots['doctypeHandler'] = undefined;
  slots['commentHandler'] = undefined;
  slots['openTagStartHandler'] = undefined;
  slots['attributeHandler'] = undefined;
  slots['openTagHandler'] = undefined;
  slots['closeTagHandler'] = undefined;
  slots['cdataHandler'] = undefined;
  slots['errorHandler'] = undefined;
  slots['endHandler'] = undefined;
  slots['readyHandler'] = undefined;
  return parser;
}

/** XML 1.0 forbids these characters outright; they cannot be written even as references. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

/** Whether `text` holds a character XML 1.0 cannot hold, not even as a reference. */
export function hasNonXmlCharacter(text: string): boolean {
  return NOT_XML.test(text);
}

/** Text content with `&`, `<` and `>` escaped. */
export function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value for double quotes, with the whitespace XML would normalize kept as references. */
export function escapeXmlAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** A message about input that was read past (not fatal), with its line. */
export interface XmlScanWarning {
  message: string;
  line?: number;
}

export interface XmlScanOptions {
  warnings?: XmlScanWarning[] | undefined;
  maxWarnings?: number | undefined;
  maxDepth?: number | undefined;
}

/** Element nesting beyond this is refused (a hostile file cannot grow the stack without bound). */
export const DEFAULT_MAX_XML_DEPTH = 512;
/** A file whose root element does not start within this many characters is refused. */
export const MAX_PROLOG_CHARS = 64 * 1024;

/**
 * The shell of a streaming reader over saxes, shared by the TMX and XLIFF translation-memory
 * readers: it feeds decoded text in, turns malformed XML into a FormatError with line and column,
 * refuses DOCTYPEs with an internal subset (entity expansion), caps the warnings kept and the
 * prolog's length, and hands elements and text to the subclass.
 */
export abstract class XmlScanner {
  protected readonly parser = shapedSaxesParser();
  protected readonly maxDepth: number;
  private readonly maxWarnings: number;
  private warningCount = 0;
  /** Set by the subclass when it meets the root element. */
  protected sawRoot = false;
  protected failure: FormatError | null = null;

  constructor(private readonly scanOptions: XmlScanOptions) {
    this.maxDepth = scanOptions.maxDepth ?? DEFAULT_MAX_XML_DEPTH;
    this.maxWarnings = scanOptions.maxWarnings ?? 1000;
    const parser = this.parser;
    parser.on('error', (error) => {
      const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
      this.failure ??= new FormatError(`malformed XML: ${message}`, { line: parser.line, column: parser.column + 1 });
    });
    parser.on('doctype', (doctype) => {
      if (doctype.includes('[')) this.fail('a DOCTYPE with an internal subset (entity declarations) is refused');
    });
    parser.on('text', (text) => this.onText(text));
    parser.on('cdata', (text) => this.onText(text));
    parser.on('opentag', (tag) => {
      if (!this.failure) this.onOpen(tag);
    });
    parser.on('closetag', () => {
      if (!this.failure) this.onClose();
    });
  }

  protected abstract onText(text: string): void;
  protected abstract onOpen(tag: SaxesTagPlain): void;
  protected abstract onClose(): void;

  protected fail(message: string): void {
    this.failure ??= new FormatError(message, { line: this.parser.line, column: this.parser.column + 1 });
  }

  protected warn(message: string): void {
    const warnings = this.scanOptions.warnings;
    if (!warnings) return;
    this.warningCount += 1;
    if (this.warningCount <= this.maxWarnings) warnings.push({ message, line: this.parser.line });
  }

  push(chunk: string): void {
    this.parser.write(chunk);
    if (this.failure) throw this.failure;
    if (!this.sawRoot && this.parser.position > MAX_PROLOG_CHARS) {
      throw new FormatError(`no root element in the first ${MAX_PROLOG_CHARS} characters`);
    }
  }

  end(): void {
    this.parser.close();
    if (this.failure) throw this.failure;
    if (!this.sawRoot) throw new FormatError('the file has no root element');
    if (this.warningCount > this.maxWarnings) {
      this.scanOptions.warnings?.push({ message: `${this.warningCount - this.maxWarnings} more warnings not listed` });
    }
  }
}
