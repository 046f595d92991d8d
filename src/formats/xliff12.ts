import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SaxesTagPlain } from 'saxes';
import { escapeXmlAttribute, shapedSaxesParser } from './xml.js';
import { decodeStream, encodeText } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { restoreTags } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';
import {
  assertWellFormed,
  attribute,
  chooseXmlEncoding,
  Content,
  NamespaceScope,
  RawWindow,
  TagNumbering,
  xmlEscaper,
} from './xliff-stream.js';
import type { Tag } from './xliff-stream.js';

export { chooseXmlEncoding } from './xliff-stream.js';

/**
 * XLIFF 1.2 (`.xlf`, `.xliff`) through the saxes streaming parser: one `<trans-unit>` at a time is
 * held in memory, never the document. saxes does not read DTDs or resolve external entities;
 * on top of that a DOCTYPE with an internal subset (where entity bombs live) is refused.
 *
 * Namespaces are resolved here, not by saxes: saxes' own resolution walks the whole element stack
 * for every element, which made deeply nested files quadratic (100,000 nested `<g>` took
 * minutes). `NamespaceScope` keeps one stack of bindings per prefix, so a lookup is O(1) and
 * everything the scanner does per element is constant time: the work is linear in the file.
 *
 * Write-back streams the original and copies it through as raw text; only the `<target>` of a
 * translated unit is replaced (or inserted after `<source>`/`<seg-source>`), so everything else
 * stays byte for byte.
 */

const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:1.2';
/** Elements whose whole markup (content included) becomes one tag. */
const CODE_ELEMENTS = new Set(['x', 'bx', 'ex', 'bpt', 'ept', 'ph', 'it']);
/** Elements whose start and end tags become a tag pair around translatable text. */
const PAIR_ELEMENTS = new Set(['g', 'mrk']);
/** Before the root element at most this much text is accepted (a DOCTYPE cannot grow unbounded). */
const MAX_PROLOG_CHARS = 64 * 1024;
/** One trans-unit larger than this is refused: units are held in memory whole. */
export const MAX_TRANS_UNIT_CHARS = 10_000_000;
/** Default for FilterOptions.maxDepth: elements nested deeper than this are refused. */
export const DEFAULT_MAX_XML_DEPTH = 512;

interface Frame {
  local: string;
  /** In the XLIFF namespace (or in none). */
  xliff: boolean;
  start: number;
  end: number;
  selfClosing: boolean;
  translate: boolean;
  /** Namespace prefixes this element declared (unbound when it closes). */
  declared: string[] | null;
  /** Its `id` attribute. */
  id: string | undefined;
  /** What closing this element means inside captured content. */
  role?: 'code' | 'pair' | 'skip';
  tagId?: number;
  /** For bpt/ept and bx/ex: the pairing key (`bpt` or `bx`, and the rid or id). */
  pairKind?: 'bpt' | 'bx';
  pairRef?: string;
}

export interface ScannedUnit {
  unit: TextUnit;
  /** Offsets in the decoded text: `<trans-unit` start and `</trans-unit>` end. */
  start: number;
  end: number;
  /** Where a new `<target>` goes: after `</source>` (or `</seg-source>`). */
  insertAt: number;
  /** White space before `<source>`, repeated before an inserted target. */
  indent: string;
  /** Qualified name for the target element (the existing one's, else `target` with the source's prefix). */
  targetName: string;
  target: { start: number; end: number; attributes: [string, string][] } | null;
}

interface UnitState {
  id: string;
  key: string;
  locator: string;
  translatable: boolean;
  depth: number;
  start: number;
  lastChildEnd: number;
  insertAt: number | null;
  indent: string;
  targetName: string;
  numbering: TagNumbering;
  source: Content | null;
  target: Content | null;
  targetRange: ScannedUnit['target'];
  notes: string[];
  note: string | null;
  capture: { kind: 'source' | 'target' | 'note'; content: Content | null; depth: number } | null;
}

/**
 * Feeds decoded text to saxes and reports each complete trans-unit with the offsets the writer
 * needs. Callers append every chunk with `push`, then take `units`.
 */
export class XliffScanner {
  readonly raw = new RawWindow();
  readonly units: ScannedUnit[] = [];
  private readonly parser = shapedSaxesParser();
  private readonly namespaces = new NamespaceScope();
  private readonly maxDepth: number;
  /** Twice the tags-per-segment limit: a longer run of tags in a translatable source is refused. */
  private readonly maxTagRun: number;
  private readonly stack: Frame[] = [];
  private unit: UnitState | null = null;
  private sawRoot = false;
  private fileNumber = 0;
  private idsInFile = new Set<string>();
  private lastMarkupEnd = 0;
  private index = 0;
  private failure: FormatError | null = null;
  /** Whether the element being opened has an attribute named `xmlns…` (only then are its attributes looked through). */
  private xmlnsAttribute = false;

  constructor(private readonly options: FilterOptions = {}) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_XML_DEPTH;
    this.maxTagRun = options.maxTagsPerSegment === undefined ? Infinity : 2 * options.maxTagsPerSegment;
    const parser = this.parser;
    parser.on('error', (error) => {
      // saxes prefixes its messages with line:column; we report those separately.
      const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
      this.failure ??= new FormatError(`malformed XML: ${message}`, { line: parser.line, column: parser.column + 1 });
    });
    parser.on('doctype', (doctype) => {
      this.lastMarkupEnd = parser.position;
      if (doctype.includes('[')) {
        this.fail('a DOCTYPE with an internal subset (entity declarations) is refused');
      }
    });
    parser.on('xmldecl', () => (this.lastMarkupEnd = parser.position));
    parser.on('comment', () => (this.lastMarkupEnd = parser.position));
    parser.on('processinginstruction', () => (this.lastMarkupEnd = parser.position));
    parser.on('cdata', (text) => {
      this.lastMarkupEnd = parser.position;
      this.onText(text);
    });
    parser.on('text', (text) => this.onText(text));
    parser.on('attribute', (attribute) => {
      if (attribute.name.startsWith('xmlns')) this.xmlnsAttribute = true;
    });
    parser.on('opentag', (tag) => {
      if (!this.failure) this.onOpen(tag);
    });
    parser.on('closetag', () => {
      if (!this.failure) this.onClose();
    });
  }

  private fail(message: string): void {
    this.failure ??= new FormatError(message, { line: this.parser.line, column: this.parser.column + 1 });
  }

  /**
   * A translatable unit's source with more than twice the tags-per-segment limit in a row: some
   * segment will be over the limit whatever the text around (segmentation cuts a run of tags at
   * most once), so the unit is refused now rather than read to its end. Named as the import names
   * units (unit-segments.ts).
   */
  private failTagRun(unit: UnitState, content: Content): void {
    if (content.isTarget || !unit.translatable) return;
    const where = unit.key !== unit.locator ? `unit ${unit.locator} ("${unit.key}")` : `unit ${unit.locator}`;
    const limit = this.maxTagRun / 2;
    this.fail(
      `${where} has ${content.run} inline tags in a row, more than twice the import's limit of ${limit} tags per segment ` +
        '(a segment would hold at least half of them)',
    );
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  push(chunk: string): void {
    this.raw.append(chunk);
    this.parser.write(chunk);
    this.throwIfFailed();
    if (!this.sawRoot && this.parser.position > MAX_PROLOG_CHARS) {
      throw new FormatError(`no root element in the first ${MAX_PROLOG_CHARS} characters`);
    }
    if (this.unit && this.raw.end - this.unit.start > MAX_TRANS_UNIT_CHARS) {
      throw new FormatError(`trans-unit "${this.unit.id}" is larger than ${MAX_TRANS_UNIT_CHARS} characters`);
    }
  }

  end(): void {
    this.parser.close();
    this.throwIfFailed();
    if (!this.sawRoot) throw new FormatError('the file has no root element');
  }

  /** Everything before this offset is no longer needed by the scanner. */
  get retainFrom(): number {
    if (this.unit) return this.unit.start;
    const lt = this.raw.lastIndexOf('<', this.raw.end);
    // A '<' after the last complete markup is the start of a tag not read in full yet.
    if (lt >= this.lastMarkupEnd) return lt;
    return Math.min(this.parser.position, this.raw.end);
  }

  private onText(text: string): void {
    const capture = this.unit?.capture;
    if (!capture) return;
    if (capture.kind === 'note') {
      if (this.unit) this.unit.note = (this.unit.note ?? '') + text;
      return;
    }
    if (capture.content && capture.content.codeDepth === 0 && text !== '') {
      capture.content.append(text);
      capture.content.run = 0;
    }
  }

  /** saxes' plain tag with its namespace resolved in the current scope (declarations on the tag included). */
  private resolveTag(plain: SaxesTagPlain, declared: string[] | null): Tag | null {
    const { name } = plain;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const uri = this.namespaces.resolve(prefix);
    if (uri === undefined || (prefix !== '' && uri === '')) {
      if (declared) this.namespaces.undeclare(declared);
      this.fail(`malformed XML: unbound namespace prefix "${prefix}"`);
      return null;
    }
    const attributes = plain.attributes as Record<string, string>;
    return { name, prefix, local: colon < 0 ? name : name.slice(colon + 1), uri, attributes, isSelfClosing: plain.isSelfClosing };
  }

  private onOpen(plain: SaxesTagPlain): void {
    const end = this.parser.position;
    this.lastMarkupEnd = end;
    const xmlnsAttribute = this.xmlnsAttribute;
    this.xmlnsAttribute = false;
    if (this.stack.length >= this.maxDepth) {
      return this.fail(`elements are nested deeper than ${this.maxDepth} levels (the import's nesting limit)`);
    }
    const declared = xmlnsAttribute ? this.namespaces.declare(plain.attributes as Record<string, string>) : null;
    const tag = this.resolveTag(plain, declared);
    if (!tag) return;
    const start = this.raw.lastIndexOf('<', end);
    const parent = this.stack[this.stack.length - 1];
    const xliff = tag.uri === XLIFF_NS || tag.uri === '';
    const frame: Frame = {
      local: tag.local,
      xliff,
      start,
      end,
      selfClosing: tag.isSelfClosing,
      translate: parent?.translate ?? true,
      declared,
      id: attribute(tag, 'id'),
      // Set later for elements inside captured content; listed here so that every frame has one shape.
      role: undefined,
      tagId: undefined,
      pairKind: undefined,
      pairRef: undefined,
    };
    this.stack.push(frame);

    if (!this.sawRoot) {
      this.sawRoot = true;
      if (tag.local !== 'xliff') return this.fail(`not an XLIFF document: the root element is <${tag.name}>`);
      const version = attribute(tag, 'version') ?? '';
      if (!xliff || version.startsWith('2')) return this.fail(`only XLIFF 1.2 is supported (version "${version || tag.uri}")`);
      return;
    }

    const unit = this.unit;
    if (unit?.capture) return this.openInCapture(unit, frame, tag);
    if (unit && this.stack.length === unit.depth + 1 && xliff) return this.openUnitChild(unit, frame, tag);
    if (!xliff) return;
    if (tag.local === 'file') {
      this.fileNumber += 1;
      this.idsInFile = new Set();
    } else if (tag.local === 'group') {
      frame.translate = attribute(tag, 'translate') === 'no' ? false : frame.translate;
    } else if (tag.local === 'trans-unit') {
      if (unit) return this.fail('a trans-unit inside a trans-unit');
      const id = attribute(tag, 'id');
      if (id === undefined || id === '') return this.fail('a trans-unit without an id');
      if (this.idsInFile.has(id)) return this.fail(`trans-unit id "${id}" is used twice in one <file>`);
      this.idsInFile.add(id);
      const translate = attribute(tag, 'translate');
      this.unit = {
        id,
        key: attribute(tag, 'resname') || id,
        locator: `${this.fileNumber}:${id}`,
        translatable: translate === 'no' ? false : translate === 'yes' ? true : frame.translate,
        depth: this.stack.length,
        start,
        lastChildEnd: end,
        insertAt: null,
        indent: '',
        targetName: 'target',
        numbering: new TagNumbering(),
        source: null,
        target: null,
        targetRange: null,
        notes: [],
        note: null,
        capture: null,
      };
    }
  }

  private openUnitChild(unit: UnitState, frame: Frame, tag: Tag): void {
    const depth = this.stack.length;
    if (tag.local === 'source' || tag.local === 'target') {
      if (tag.local === 'source') {
        if (unit.source) return this.fail(`trans-unit "${unit.id}" has two <source> elements`);
        const before = this.raw.slice(unit.lastChildEnd, frame.start);
        unit.indent = /^\s*$/.test(before) ? before : '';
        unit.targetName = tag.prefix ? `${tag.prefix}:target` : 'target';
        unit.source = new Content(false);
        unit.capture = { kind: 'source', content: unit.source, depth };
      } else {
        if (unit.target) return this.fail(`trans-unit "${unit.id}" has two <target> elements`);
        if (!unit.source) return this.fail(`trans-unit "${unit.id}" has a <target> before its <source>`);
        unit.target = new Content(true);
        unit.targetName = tag.name;
        unit.targetRange = { start: frame.start, end: frame.end, attributes: Object.entries(tag.attributes) };
        unit.capture = { kind: 'target', content: unit.target, depth };
      }
    } else if (tag.local === 'note') {
      unit.note = null;
      unit.capture = { kind: 'note', content: null, depth };
    }
  }

  private openInCapture(unit: UnitState, frame: Frame, tag: Tag): void {
    const capture = unit.capture;
    const content = capture?.content;
    if (!capture || !content) {
      frame.role = 'skip';
      return;
    }
    if (content.codeDepth > 0) {
      content.codeDepth += 1;
      frame.role = 'skip';
      return;
    }
    const known = frame.xliff && (CODE_ELEMENTS.has(tag.local) || PAIR_ELEMENTS.has(tag.local));
    if (known && PAIR_ELEMENTS.has(tag.local) && !frame.selfClosing) {
      frame.role = 'pair';
      frame.tagId = unit.numbering.number(content, tag.local, attribute(tag, tag.local === 'mrk' ? 'mid' : 'id') ?? '');
      content.add(frame.tagId, 'open', this.raw.slice(frame.start, frame.end));
      if (content.run > this.maxTagRun) this.failTagRun(unit, content);
      return;
    }
    // Code elements, empty pair elements and foreign elements: the whole element is one tag.
    frame.role = 'code';
    // The key is `local:id`; a foreign element's local is `foreign:name`, kept as kind `foreign`.
    const local = known ? tag.local : 'foreign';
    const id = attribute(tag, 'id') ?? '';
    if (local === 'bpt' || local === 'ept' || local === 'bx' || local === 'ex') {
      frame.pairKind = local === 'bpt' || local === 'ept' ? 'bpt' : 'bx';
      frame.pairRef = attribute(tag, 'rid') ?? attribute(tag, 'id') ?? '';
    }
    frame.tagId = local === 'ept' || local === 'ex' ? undefined : unit.numbering.number(content, local, known ? id : `${tag.name}:${id}`);
    content.codeStart = frame.start;
    content.codeDepth = 1;
  }

  private onClose(): void {
    const end = this.parser.position;
    this.lastMarkupEnd = end;
    const frame = this.stack.pop();
    if (frame?.declared) this.namespaces.undeclare(frame.declared);
    const unit = this.unit;
    if (!frame || !unit) return;
    const tag = { local: frame.local };
    const depth = this.stack.length + 1;
    const capture = unit.capture;

    if (capture && depth > capture.depth) {
      const content = capture.content;
      if (!content || frame.role === 'skip') {
        if (content && content.codeDepth > 0) content.codeDepth -= 1;
        return;
      }
      if (frame.role === 'pair' && frame.tagId !== undefined) {
        content.add(frame.tagId, 'close', this.raw.slice(this.raw.lastIndexOf('<', end), end));
      } else if (frame.role === 'code') {
        content.codeDepth = 0;
        const original = this.raw.slice(content.codeStart, end);
        if (frame.pairKind !== undefined && frame.pairRef !== undefined) {
          if (tag.local === 'bpt' || tag.local === 'bx') {
            const id = frame.tagId ?? unit.numbering.number(content, frame.pairKind, frame.pairRef);
            content.openPairs.set(frame.pairKind, frame.pairRef, id);
            content.add(id, 'open', original);
          } else {
            const id = content.openPairs.get(frame.pairKind, frame.pairRef);
            content.openPairs.delete(frame.pairKind, frame.pairRef);
            if (id !== undefined) content.add(id, 'close', original);
            else content.add(unit.numbering.number(content, tag.local, frame.id ?? ''), 'standalone', original);
          }
        } else if (frame.tagId !== undefined) {
          content.add(frame.tagId, 'standalone', original);
        }
      }
      if (content.run > this.maxTagRun) this.failTagRun(unit, content);
      return;
    }

    if (capture && depth === capture.depth) {
      unit.capture = null;
      unit.lastChildEnd = end;
      if (capture.kind === 'source') unit.insertAt = end;
      if (capture.kind === 'target' && unit.targetRange) unit.targetRange.end = end;
      if (capture.kind === 'note' && unit.note !== null && this.options.importNotes !== false) unit.notes.push(unit.note);
      return;
    }

    if (depth === unit.depth + 1) {
      unit.lastChildEnd = end;
      if (frame.xliff && tag.local === 'seg-source') unit.insertAt = end;
      return;
    }

    if (depth === unit.depth) this.finishUnit(unit, end);
  }

  private finishUnit(unit: UnitState, end: number): void {
    this.unit = null;
    if (!unit.source) return this.fail(`trans-unit "${unit.id}" has no <source>`);
    // A Set, not a search per tag: a unit may hold tens of thousands of tags (only needed with a target).
    const sourceTags = unit.source.tags;
    const sourceDisplays = unit.target ? new Set(sourceTags.map((tag) => tag.display)) : null;
    const tags = sourceDisplays ? [...sourceTags, ...unit.target!.tags.filter((tag) => !sourceDisplays.has(tag.display))] : sourceTags;
    this.units.push({
      unit: {
        index: this.index++,
        key: unit.key,
        locator: unit.locator,
        source: unit.source.text,
        tags,
        target: unit.target ? unit.target.text : null,
        translatable: unit.translatable,
        note: unit.notes.length ? unit.notes.join('\n') : null,
      },
      start: unit.start,
      end,
      insertAt: unit.insertAt ?? end,
      indent: unit.indent,
      targetName: unit.targetName,
      target: unit.targetRange,
    });
  }
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const { chunks } = await decodeStream(input, chooseXmlEncoding);
  const scanner = new XliffScanner(options);
  for await (const chunk of chunks) {
    scanner.push(chunk);
    if (scanner.units.length > 0) yield scanner.units.splice(0).map((scanned) => scanned.unit);
    scanner.raw.dropBefore(scanner.retainFrom);
  }
  scanner.end();
  if (scanner.units.length > 0) yield scanner.units.splice(0).map((scanned) => scanned.unit);
}

function targetElement(scanned: ScannedUnit, translation: UnitTranslation, enc: TextEncoding, options: FilterOptions): string {
  const { locator } = scanned.unit;
  const body = restoreTags(translation.text, scanned.unit.tags, xmlEscaper(enc.maxCodePoint, `the translation of unit ${locator}`));
  assertWellFormed(body, locator);
  const attributes: [string, string][] =
    scanned.target?.attributes.map(([name, value]) => [name, value]) ??
    (options.targetLanguage ? [['xml:lang', options.targetLanguage]] : []);
  const state = attributes.find(([name]) => name === 'state');
  if (state) state[1] = 'translated';
  else attributes.push(['state', 'translated']);
  const attrs = attributes.map(([name, value]) => ` ${name}="${escapeXmlAttribute(value)}"`).join('');
  return `<${scanned.targetName}${attrs}>${body}</${scanned.targetName}>`;
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const { encoding: enc, chunks } = await decodeStream(original, chooseXmlEncoding);
  const scanner = new XliffScanner(options);
  let flushed = 0;

  function* emit(upTo: number): Generator<Buffer> {
    if (upTo <= flushed) return;
    yield encodeText(scanner.raw.slice(flushed, upTo), enc);
    flushed = upTo;
  }

  function* rewriteUnits(): Generator<Buffer> {
    for (const scanned of scanner.units.splice(0)) {
      const translation = translations.get(scanned.unit.locator);
      if (!translation || !scanned.unit.translatable) continue;
      yield* emit(scanned.start);
      const target = targetElement(scanned, translation, enc, options);
      const rewritten = scanned.target
        ? scanner.raw.slice(scanned.start, scanned.target.start) + target + scanner.raw.slice(scanned.target.end, scanned.end)
        : scanner.raw.slice(scanned.start, scanned.insertAt) + scanned.indent + target + scanner.raw.slice(scanned.insertAt, scanned.end);
      yield encodeText(rewritten, enc);
      flushed = scanned.end;
    }
  }

  async function* rewritten(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    for await (const chunk of chunks) {
      scanner.push(chunk);
      yield* rewriteUnits();
      yield* emit(scanner.retainFrom);
      scanner.raw.dropBefore(flushed);
    }
    scanner.end();
    yield* rewriteUnits();
    yield* emit(scanner.raw.end);
  }
  await pipeline(rewritten(), output);
}

export const xliff12Filter: FormatFilter = {
  name: 'xliff12',
  extensions: ['xlf', 'xliff'],
  detect(firstBytes) {
    let head: string;
    try {
      const enc = chooseXmlEncoding(firstBytes);
      const body = firstBytes.subarray(enc.bom.length);
      head = enc.name === 'latin1' ? body.toString('latin1') : new TextDecoder(enc.name).decode(body);
    } catch {
      return false;
    }
    return /<(?:[\w.-]+:)?xliff\b[^>]*\bversion\s*=\s*["']1\.[0-2]["']/.test(head) || head.includes(XLIFF_NS);
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};
