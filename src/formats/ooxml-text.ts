import type { SaxesTagPlain } from 'saxes';
import { decodeStream, encodeText } from './encoding.js';
import { compileTagRegexp, inlineTag, splitTokens } from './inline-tags.js';
import { FormatError } from './types.js';
import type { Writable } from 'node:stream';
import type { FilterOptions, InlineTag, TextUnit, UnitTranslation } from './types.js';
import { chooseXmlEncoding, RawWindow } from './xliff-stream.js';
import { DEFAULT_MAX_XML_DEPTH, escapeXmlText, hasNonXmlCharacter, shapedSaxesParser } from './xml.js';
import type { EntryRewrite, ZipEntry, ZipPackage } from './zip-package.js';

/**
 * The paragraph/run model shared by the Office Open XML filters (DOCX `w:p`/`w:r`/`w:t`, PPTX
 * `a:p`/`a:r`/`a:t`, XLSX `si`/`r`/`t`), and the streaming splice scanner they run parts through.
 *
 * A part streams through saxes (never a whole-part DOM); the raw decoded text is kept only from
 * the start of the outermost paragraph being read. When a paragraph closes, its raw markup (a
 * well-formed fragment by then) is turned into a `ParagraphModel`: the unit's text with inline
 * tags, and what each tag stands for. Writing splices each translated paragraph's rebuilt markup
 * into the part and copies everything else as it was. Paragraphs nested in paragraphs (text boxes
 * in a drawing) are their own units; they close first, so the outer paragraph is read (and on
 * write rebuilt) with the inner one's new markup inside its drawing tag.
 */

/** A paragraph larger than this (raw characters) is refused: paragraphs are held in memory whole. */
export const MAX_PARAGRAPH_CHARS = 10_000_000;

// ---------------------------------------------------------------------------------------------
// Raw text window and the splice scanner
// ---------------------------------------------------------------------------------------------

/** What the scanner calls as elements stream by. */
export interface SpliceHandler {
  /**
   * A start tag (`path` holds the names of its ancestors, root first). Return something (not
   * null) to capture the element: `captured` gets it back with the element's raw markup.
   */
  open(tag: SaxesTagPlain, path: readonly string[]): unknown;
  close?(name: string, path: readonly string[]): void;
  text?(text: string, path: readonly string[]): void;
  /** A captured element closed; returns its replacement markup, or null to keep it. */
  captured(raw: string, data: unknown): string | null;
  /** Writing: new markup for a start tag (not of a captured element), or null to keep it. */
  replaceStartTag?(tag: SaxesTagPlain, raw: string, path: readonly string[]): string | null;
  /** Writing: markup to insert just before an end tag, or null. */
  insertBeforeEnd?(name: string, path: readonly string[]): string | null;
}

interface Capture {
  start: number;
  data: unknown;
  /** Nested captures already replaced: raw offsets and new text, in order. */
  replacements: { start: number; end: number; text: string }[];
}

interface Frame {
  name: string;
  capture: Capture | null;
}

/**
 * Streams one XML part through saxes, hands captured elements to the handler and (when
 * `writing`) produces the part with the replacements spliced in, everything else copied as it
 * was. A DOCTYPE is refused outright (Office parts never have one; it is where XXE and entity
 * bombs live); nesting beyond `maxDepth` and captured elements beyond MAX_PARAGRAPH_CHARS are
 * refused too.
 */
export class SpliceScanner {
  private readonly parser = shapedSaxesParser();
  private readonly raw = new RawWindow();
  private readonly stack: Frame[] = [];
  private readonly path: string[] = [];
  private readonly open: Capture[] = [];
  private failure: FormatError | null = null;
  private flushed = 0;
  private output: string[] = [];
  private sawRoot = false;
  private readonly maxDepth: number;
  private readonly writing: boolean;
  /** Replacements of top-level captures waiting to be emitted. */
  private pending: { start: number; end: number; text: string }[] = [];

  constructor(
    private readonly handler: SpliceHandler,
    private readonly partName: string,
    options: { maxDepth?: number | undefined; writing?: boolean } = {},
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_XML_DEPTH;
    this.writing = options.writing ?? false;
    const parser = this.parser;
    parser.on('error', (error) => {
      const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
      this.fail(`malformed XML in ${partName}: ${message}`);
    });
    parser.on('doctype', () => this.fail(`${partName} has a DOCTYPE, which Office documents never have (refused)`));
    parser.on('opentag', (tag) => {
      if (!this.failure) this.onOpen(tag);
    });
    parser.on('closetag', (tag) => {
      if (!this.failure) this.onClose(tag.name);
    });
    if (handler.text) {
      const onText = (text: string): void => {
        if (!this.failure) handler.text!(text, this.path);
      };
      parser.on('text', onText);
      parser.on('cdata', onText);
    }
  }

  private fail(message: string): void {
    this.failure ??= new FormatError(message, { line: this.parser.line, column: this.parser.column + 1 });
  }

  private onOpen(tag: SaxesTagPlain): void {
    this.sawRoot = true;
    if (this.stack.length >= this.maxDepth) {
      this.fail(`${this.partName} nests elements deeper than ${this.maxDepth} levels`);
      return;
    }
    const data = this.handler.open(tag, this.path);
    let capture: Capture | null = null;
    if (data !== null && data !== undefined) {
      const start = this.raw.lastIndexOf('<', this.parser.position);
      capture = { start, data, replacements: [] };
      this.open.push(capture);
    } else if (this.writing && this.handler.replaceStartTag) {
      const end = this.parser.position;
      const start = this.raw.lastIndexOf('<', end);
      const replacement = this.handler.replaceStartTag(tag, this.raw.slice(start, end), this.path);
      if (replacement !== null) this.replace(start, end, replacement);
    }
    this.stack.push({ name: tag.name, capture });
    this.path.push(tag.name);
    if (tag.isSelfClosing) return; // saxes reports the close right away
  }

  private onClose(name: string): void {
    const frame = this.stack.pop();
    this.path.pop();
    this.handler.close?.(name, this.path);
    if (this.writing && this.handler.insertBeforeEnd) {
      const insert = this.handler.insertBeforeEnd(name, this.path);
      if (insert !== null) {
        const at = this.raw.lastIndexOf('<', this.parser.position);
        this.replace(at, at, insert);
      }
    }
    const capture = frame?.capture;
    if (!capture) return;
    this.open.pop();
    const end = this.parser.position;
    if (end - capture.start > MAX_PARAGRAPH_CHARS) {
      this.fail(`${this.partName} has a paragraph of more than ${MAX_PARAGRAPH_CHARS} characters`);
      return;
    }
    let raw: string;
    if (capture.replacements.length === 0) raw = this.raw.slice(capture.start, end);
    else {
      const parts: string[] = [];
      let at = capture.start;
      for (const replacement of capture.replacements) {
        parts.push(this.raw.slice(at, replacement.start), replacement.text);
        at = replacement.end;
      }
      parts.push(this.raw.slice(at, end));
      raw = parts.join('');
    }
    let replacement: string | null;
    try {
      replacement = this.handler.captured(raw, capture.data);
    } catch (error) {
      if (error instanceof FormatError) {
        this.failure ??= error;
        return;
      }
      throw error;
    }
    // A nested element keeps its new text for its parent's raw even when unchanged (the parent may hold replacements of its own).
    const parent = this.open[this.open.length - 1];
    if (parent) {
      if (replacement !== null || capture.replacements.length > 0) {
        parent.replacements.push({ start: capture.start, end, text: replacement ?? raw });
      }
    } else if (replacement !== null || capture.replacements.length > 0) {
      this.pending.push({ start: capture.start, end, text: replacement ?? raw });
    }
  }

  /** Records a replacement of raw text: in the innermost open capture, else for output. */
  private replace(start: number, end: number, text: string): void {
    const parent = this.open[this.open.length - 1];
    if (parent) parent.replacements.push({ start, end, text });
    else this.pending.push({ start, end, text });
  }

  /** Feeds decoded text; returns the output ready so far (writing). */
  push(chunk: string): string {
    this.raw.append(chunk);
    this.parser.write(chunk);
    if (this.failure) throw this.failure;
    return this.drain(false);
  }

  end(): string {
    this.parser.close();
    if (this.failure) throw this.failure;
    if (!this.sawRoot) throw new FormatError(`${this.partName} has no root element`);
    return this.drain(true);
  }

  private drain(final: boolean): string {
    if (!this.writing) {
      this.pending = [];
      const keepFrom = this.open.length > 0 ? this.open[0]!.start : this.raw.lastIndexOf('<', this.raw.end);
      if (keepFrom > this.flushed) this.flushed = keepFrom;
      this.raw.dropBefore(this.flushed);
      return '';
    }
    const out = this.output;
    for (const replacement of this.pending) {
      out.push(this.raw.slice(this.flushed, replacement.start), replacement.text);
      this.flushed = replacement.end;
    }
    this.pending = [];
    let keepFrom: number;
    if (final) keepFrom = this.raw.end;
    else if (this.open.length > 0) keepFrom = this.open[0]!.start;
    else {
      const lastTag = this.raw.lastIndexOf('<', this.raw.end);
      keepFrom = lastTag < 0 ? this.raw.end : lastTag;
    }
    if (keepFrom > this.flushed) {
      out.push(this.raw.slice(this.flushed, keepFrom));
      this.flushed = keepFrom;
    }
    this.raw.dropBefore(this.flushed);
    this.output = [];
    return out.length === 1 ? out[0]! : out.join('');
  }
}

/** The part with replacements spliced in, as bytes in the part's own encoding. */
export async function* splicePart(
  zip: ZipPackage,
  entry: ZipEntry,
  handler: SpliceHandler,
  options: FilterOptions,
): AsyncGenerator<Buffer> {
  const { encoding, chunks } = await decodeStream(zip.read(entry), chooseXmlEncoding);
  const scanner = new SpliceScanner(handler, entry.name, { maxDepth: options.maxDepth, writing: true });
  if (encoding.bom.length > 0) yield encoding.bom;
  for await (const chunk of chunks) {
    const out = scanner.push(chunk);
    if (out) yield encodeText(out, encoding);
  }
  const rest = scanner.end();
  if (rest) yield encodeText(rest, encoding);
}

// ---------------------------------------------------------------------------------------------
// Small whole parts (relationships, content types, workbook): elements with attributes
// ---------------------------------------------------------------------------------------------

/** Every start tag of a small XML part, with its ancestors' names. DOCTYPE refused. */
export function readElements(
  text: string,
  partName: string,
  onOpen: (tag: SaxesTagPlain, path: readonly string[]) => void,
  maxDepth?: number,
): void {
  const handler: SpliceHandler = {
    open(tag, path) {
      onOpen(tag, path);
      return null;
    },
    captured: () => null,
  };
  const scanner = new SpliceScanner(handler, partName, { maxDepth });
  scanner.push(text);
  scanner.end();
}

export interface Relationship {
  id: string;
  type: string;
  /** The target part's name (resolved against the source part), or the raw target for external ones. */
  target: string;
  external: boolean;
}

/** The `.rels` part of a part name: `word/document.xml` → `word/_rels/document.xml.rels`. */
export function relsPartOf(partName: string): string {
  const slash = partName.lastIndexOf('/');
  return `${partName.slice(0, slash + 1)}_rels/${partName.slice(slash + 1)}.rels`;
}

/** Resolves a relationship target against its source part (leading `/` = package root). */
export function resolvePartName(sourcePart: string, target: string): string {
  let path: string;
  if (target.startsWith('/')) path = target.slice(1);
  else {
    const slash = sourcePart.lastIndexOf('/');
    path = sourcePart.slice(0, slash + 1) + target;
  }
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  let name = parts.join('/');
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep as written
  }
  return name;
}

/** The relationships of `sourcePart` ('' for the package), empty when it has no `.rels` part. */
export async function readRelationships(zip: ZipPackage, sourcePart: string): Promise<Relationship[]> {
  const relsName = sourcePart === '' ? '_rels/.rels' : relsPartOf(sourcePart);
  const entry = zip.entry(relsName);
  if (!entry) return [];
  const text = await zip.readText(entry, 16 * 1024 * 1024);
  const relationships: Relationship[] = [];
  readElements(text, relsName, (tag) => {
    if (tag.name !== 'Relationship' && !tag.name.endsWith(':Relationship')) return;
    const { Id, Type, Target, TargetMode } = tag.attributes;
    if (Id === undefined || Type === undefined || Target === undefined) return;
    const external = TargetMode === 'External';
    relationships.push({ id: Id, type: Type, target: external ? Target : resolvePartName(sourcePart, Target), external });
  });
  return relationships;
}

/** The relationship type's last path segment (`…/relationships/header` → `header`). */
export function relationshipKind(type: string): string {
  return type.slice(type.lastIndexOf('/') + 1);
}

/** The package's main part (officeDocument relationship of `_rels/.rels`). */
export async function mainPart(zip: ZipPackage, what: string, fallback: string): Promise<string> {
  const rels = await readRelationships(zip, '');
  const main = rels.find((rel) => !rel.external && relationshipKind(rel.type) === 'officeDocument');
  const name = main?.target ?? fallback;
  if (!zip.entry(name)) throw new FormatError(`the file is not ${what} (it has no ${name})`);
  return name;
}

/** The namespace prefix the root element binds to one of `uris` ('' for the default namespace), or null. */
export function prefixFor(attributes: Record<string, string>, uris: readonly string[]): string | null {
  for (const name in attributes) {
    if (!uris.includes(attributes[name]!)) continue;
    if (name === 'xmlns') return '';
    if (name.startsWith('xmlns:')) return name.slice(6);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Fragment tokenizer: a paragraph's raw markup (already known well-formed) as a tree
// ---------------------------------------------------------------------------------------------

export interface XElement {
  kind: 'element';
  name: string;
  start: number;
  /** End of the start tag. */
  openEnd: number;
  /** Start of the end tag (= end for an empty element). */
  closeStart: number;
  end: number;
  children: XNode[];
}
export interface XText {
  kind: 'text';
  text: string;
  start: number;
  end: number;
}
/** Comments and processing instructions. */
export interface XOther {
  kind: 'other';
  start: number;
  end: number;
}
export type XNode = XElement | XText | XOther;

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeXmlText(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(ENTITY, (_match, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
    if (named !== undefined) return NAMED[named]!;
    return String.fromCodePoint(parseInt(hex ?? dec!, hex !== undefined ? 16 : 10));
  });
}

/** The element starting at 0 of `raw` (a well-formed element, as saxes checked it). */
export function parseFragment(raw: string): XElement {
  const root: XElement = { kind: 'element', name: '#root', start: 0, openEnd: 0, closeStart: raw.length, end: raw.length, children: [] };
  const stack: XElement[] = [root];
  let i = 0;
  const n = raw.length;
  while (i < n) {
    const top = stack[stack.length - 1]!;
    if (raw.charCodeAt(i) !== 0x3c) {
      let next = raw.indexOf('<', i);
      if (next < 0) next = n;
      top.children.push({ kind: 'text', text: decodeXmlText(raw.slice(i, next)), start: i, end: next });
      i = next;
      continue;
    }
    if (raw.startsWith('<!--', i)) {
      const end = raw.indexOf('-->', i + 4);
      const to = end < 0 ? n : end + 3;
      top.children.push({ kind: 'other', start: i, end: to });
      i = to;
    } else if (raw.startsWith('<![CDATA[', i)) {
      const end = raw.indexOf(']]>', i + 9);
      const to = end < 0 ? n : end + 3;
      top.children.push({ kind: 'text', text: raw.slice(i + 9, end < 0 ? n : end), start: i, end: to });
      i = to;
    } else if (raw.startsWith('<?', i)) {
      const end = raw.indexOf('?>', i + 2);
      const to = end < 0 ? n : end + 2;
      top.children.push({ kind: 'other', start: i, end: to });
      i = to;
    } else if (raw.charCodeAt(i + 1) === 0x2f) {
      const end = raw.indexOf('>', i);
      const to = end < 0 ? n : end + 1;
      top.closeStart = i;
      top.end = to;
      stack.pop();
      i = to;
    } else {
      // Start tag: to the `>` outside quotes.
      let j = i + 1;
      let quote = 0;
      for (; j < n; j++) {
        const c = raw.charCodeAt(j);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === 0x22 || c === 0x27) quote = c;
        else if (c === 0x3e) break;
      }
      let nameEnd = i + 1;
      while (nameEnd < j) {
        const c = raw.charCodeAt(nameEnd);
        if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f || c === 0x3e) break;
        nameEnd++;
      }
      const selfClosing = raw.charCodeAt(j - 1) === 0x2f;
      const element: XElement = {
        kind: 'element',
        name: raw.slice(i + 1, nameEnd),
        start: i,
        openEnd: j + 1,
        closeStart: j + 1,
        end: j + 1,
        children: [],
      };
      top.children.push(element);
      if (!selfClosing) stack.push(element);
      i = j + 1;
    }
  }
  const first = root.children.find((child): child is XElement => child.kind === 'element');
  if (!first) throw new FormatError('internal: empty paragraph fragment');
  return first;
}

// ---------------------------------------------------------------------------------------------
// Paragraph model
// ---------------------------------------------------------------------------------------------

/** The element names of one vocabulary (qualified with the part's own prefix). */
export interface Dialect {
  paragraph: string;
  paragraphProperties: string | null;
  run: string;
  runProperties: string;
  text: string;
  /** Elements whose start and end tags pair around runs (hyperlinks, fields, content controls). */
  containers: ReadonlySet<string>;
  /** `w:sdt`: its start tag, properties and `w:sdtContent` start tag open the pair. */
  contentControl: string | null;
  contentControlContent: string | null;
  /** Noise dropped when a paragraph is rebuilt (proofing marks, rendering hints). */
  dropped: ReadonlySet<string>;
  /** Attribute and element patterns removed from run properties before comparing them. */
  normalize(runProperties: string, joinSimilar: boolean): string;
  /** Whether run properties make the run hidden text. */
  isHidden(runProperties: string): boolean;
  /** `<w:t xml:space="preserve">` (DOCX, XLSX) or `<a:t>` (DrawingML, whose schema has no xml:space). */
  textStartTag: string;
  /** SpreadsheetML: text may stand bare in the paragraph (`<si><t>…</t></si>`). */
  bareText: boolean;
}

/** A qualified name: `prefix:local`, or `local` for the default namespace. */
export function qualify(prefix: string, local: string): string {
  return prefix === '' ? local : `${prefix}:${local}`;
}

type Item =
  /** Text of a run; `rpr` its run properties markup ('' none; null bare SpreadsheetML text). */
  | { k: 'text'; text: string; rpr: string | null; key: string; runStart: string }
  /** Markup kept as it is; `rpr` not null: it sits in a run with these properties. */
  | { k: 'code'; markup: string; rpr: string | null; key: string | null }
  | { k: 'open'; markup: string; pair: number }
  | { k: 'close'; markup: string; pair: number };

/** What a tag of a unit stands for when a translation is written. */
type TagPlan =
  | { k: 'span'; rpr: string | null }
  | { k: 'container'; markup: string }
  | { k: 'codes'; items: Item[] }
  | { k: 'literal'; text: string; rpr: string | null };

export interface ParagraphModel {
  source: string;
  tags: InlineTag[];
  /** Markup of the paragraph before the unit's content (start tag, properties, leading codes). */
  private: {
    start: string;
    head: Item[];
    body: Piece[];
    tail: Item[];
    end: string;
    plans: Map<string, TagPlan>;
    baseRpr: string | null;
  };
}

type Piece = { k: 'text'; text: string; rpr: string | null } | { k: 'tag'; tag: InlineTag };

export interface ParagraphOptions {
  joinSimilarRuns: boolean;
  /** Hidden runs are text (true) or kept as codes (false). */
  hidden: boolean;
  tagRegexp: RegExp | null;
}

export function paragraphOptions(options: FilterOptions, settings: Readonly<Record<string, unknown>>): ParagraphOptions {
  const tagRegexp = typeof settings['tagRegexp'] === 'string' ? settings['tagRegexp'] : options.tagRegexp;
  return {
    joinSimilarRuns: settings['joinSimilarRuns'] === true,
    hidden: settings['hidden'] === true,
    tagRegexp: compileTagRegexp(tagRegexp),
  };
}

/** Normalized run properties and hidden flags by raw markup (the dialects' functions are pure). */
const exactKeys = new Map<string, { key: string; hidden: boolean }>();
const similarKeys = new Map<string, { key: string; hidden: boolean }>();

/** Builds the items of a paragraph's content. */
class ItemBuilder {
  readonly items: Item[] = [];
  private pairs = 0;

  constructor(
    private readonly raw: string,
    private readonly dialect: Dialect,
    private readonly options: ParagraphOptions,
  ) {}

  markup(node: XNode): string {
    return this.raw.slice(node.start, node.end);
  }

  content(nodes: readonly XNode[]): void {
    const d = this.dialect;
    for (const node of nodes) {
      if (node.kind === 'text') {
        if (node.text.trim() !== '') this.items.push({ k: 'code', markup: this.markup(node), rpr: null, key: null });
        continue;
      }
      if (node.kind === 'other') continue; // comments and PIs inside a paragraph are dropped on rebuild
      const name = node.name;
      if (name === d.run) this.run(node);
      else if (d.bareText && name === d.text) {
        this.items.push({ k: 'text', text: textOf(node), rpr: null, key: '', runStart: this.raw.slice(node.start, node.openEnd) });
      } else if (d.dropped.has(name)) continue;
      else if (name === d.contentControl && node.children.length > 0) this.contentControl(node);
      else if (d.containers.has(name) && node.closeStart !== node.end) {
        const pair = ++this.pairs;
        // Property children right after the start tag belong to the opening markup.
        let openEnd = node.openEnd;
        let first = 0;
        for (; first < node.children.length; first++) {
          const child = node.children[first]!;
          if (child.kind === 'text' && child.text.trim() === '') continue;
          if (child.kind === 'element' && child.name.endsWith('Pr')) {
            openEnd = child.end;
            continue;
          }
          break;
        }
        this.items.push({ k: 'open', markup: this.raw.slice(node.start, openEnd), pair });
        this.content(node.children.slice(first));
        this.items.push({ k: 'close', markup: this.raw.slice(node.closeStart, node.end), pair });
      } else this.items.push({ k: 'code', markup: this.markup(node), rpr: null, key: null });
    }
  }

  private contentControl(node: XElement): void {
    const d = this.dialect;
    const content = node.children.find((child): child is XElement => child.kind === 'element' && child.name === d.contentControlContent);
    if (!content || content.closeStart === content.end) {
      this.items.push({ k: 'code', markup: this.markup(node), rpr: null, key: null });
      return;
    }
    const pair = ++this.pairs;
    this.items.push({ k: 'open', markup: this.raw.slice(node.start, content.openEnd), pair });
    this.content(content.children);
    this.items.push({ k: 'close', markup: this.raw.slice(content.closeStart, node.end), pair });
  }

  private run(node: XElement): void {
    const d = this.dialect;
    let rpr = '';
    for (const child of node.children) {
      if (child.kind === 'element' && child.name === d.runProperties) {
        rpr = this.markup(child);
        break;
      }
    }
    let key = '';
    if (rpr !== '') {
      // Run properties repeat throughout a document: normalized once per distinct markup.
      const cache = this.options.joinSimilarRuns ? similarKeys : exactKeys;
      let known = cache.get(rpr);
      if (known === undefined) {
        if (cache.size >= 10_000) cache.clear();
        known = { key: d.normalize(rpr, this.options.joinSimilarRuns), hidden: d.isHidden(rpr) };
        cache.set(rpr, known);
      }
      if (!this.options.hidden && known.hidden) {
        this.items.push({ k: 'code', markup: this.markup(node), rpr: null, key: null });
        return;
      }
      key = known.key;
    }
    const runOpen = this.raw.slice(node.start, node.openEnd);
    for (const child of node.children) {
      if (child.kind === 'text') continue; // white space between a run's children
      if (child.kind === 'other') continue;
      if (child.name === d.runProperties) continue;
      if (child.name === d.text) {
        this.items.push({ k: 'text', text: textOf(child), rpr, key, runStart: runOpen + rpr + this.raw.slice(child.start, child.openEnd) });
      } else if (d.dropped.has(child.name)) continue;
      else this.items.push({ k: 'code', markup: this.markup(child), rpr, key });
    }
  }
}

function textOf(element: XElement): string {
  let text = '';
  for (const child of element.children) if (child.kind === 'text') text += child.text;
  return text;
}

/**
 * The unit of a paragraph, or null when it holds no translatable text. `raw` is the paragraph
 * element's markup.
 */
export function buildParagraph(raw: string, dialect: Dialect, options: ParagraphOptions): ParagraphModel | null {
  const root = parseFragment(raw);
  let contentNodes = root.children;
  let start = raw.slice(0, root.openEnd);
  if (dialect.paragraphProperties !== null) {
    const index = contentNodes.findIndex((node) => node.kind === 'element' && node.name === dialect.paragraphProperties);
    if (index >= 0 && contentNodes.slice(0, index).every((node) => node.kind === 'text' && node.text.trim() === '')) {
      start = raw.slice(0, contentNodes[index]!.end);
      contentNodes = contentNodes.slice(index + 1);
    }
  }
  const end = raw.slice(root.closeStart, root.end);
  const builder = new ItemBuilder(raw, dialect, options);
  builder.content(contentNodes);
  let items = builder.items;

  // Adjacent text of identical (normalized) formatting is one piece: joined runs.
  const joined: Item[] = [];
  for (const item of items) {
    const last = joined[joined.length - 1];
    if (item.k === 'text' && last?.k === 'text' && last.key === item.key && (last.rpr === null) === (item.rpr === null)) {
      joined[joined.length - 1] = { ...last, text: last.text + item.text };
    } else joined.push(item);
  }
  items = joined;

  // Codes and pairs around all the text stay outside the unit.
  const head: Item[] = [];
  const tail: Item[] = [];
  let from = 0;
  let to = items.length;
  for (;;) {
    while (from < to && items[from]!.k === 'code') head.push(items[from++]!);
    while (to > from && items[to - 1]!.k === 'code') tail.unshift(items[--to]!);
    const first = items[from];
    const last = items[to - 1];
    if (to - from >= 2 && first?.k === 'open' && last?.k === 'close' && first.pair === last.pair) {
      head.push(first);
      tail.unshift(last);
      from++;
      to--;
      continue;
    }
    break;
  }
  const body = items.slice(from, to);
  if (!body.some((item) => item.k === 'text' && item.text.trim() !== '')) return null;

  // The formatting of most of the text is the base; other formatting becomes tag pairs.
  const weight = new Map<string, number>();
  for (const item of body) if (item.k === 'text') weight.set(item.key, (weight.get(item.key) ?? 0) + item.text.length);
  let baseKey = '';
  let best = -1;
  for (const [key, count] of weight) {
    if (count > best) {
      best = count;
      baseKey = key;
    }
  }
  const baseItem = body.find((item): item is Extract<Item, { k: 'text' }> => item.k === 'text' && item.key === baseKey)!;

  const pieces: Piece[] = [];
  const tags: InlineTag[] = [];
  const plans = new Map<string, TagPlan>();
  let nextId = 1;
  const pairIds = new Map<number, number>();
  let pendingCodes: Item[] = [];
  const flushCodes = (): void => {
    if (pendingCodes.length === 0) return;
    const tag = inlineTag(nextId++, 'standalone', pendingCodes.map((item) => codeMarkup(item, dialect)).join(''));
    tags.push(tag);
    plans.set(tag.display, { k: 'codes', items: pendingCodes });
    pieces.push({ k: 'tag', tag });
    pendingCodes = [];
  };
  const pushText = (text: string, rpr: string | null): void => {
    if (!options.tagRegexp) {
      pieces.push({ k: 'text', text, rpr });
      return;
    }
    let last = 0;
    for (const match of text.matchAll(options.tagRegexp)) {
      if (match[0] === '') continue;
      if (match.index > last) pieces.push({ k: 'text', text: text.slice(last, match.index), rpr });
      const tag = inlineTag(nextId++, 'standalone', match[0]);
      tags.push(tag);
      plans.set(tag.display, { k: 'literal', text: match[0], rpr });
      pieces.push({ k: 'tag', tag });
      last = match.index + match[0].length;
    }
    if (last < text.length) pieces.push({ k: 'text', text: text.slice(last), rpr });
  };

  for (let i = 0; i < body.length; i++) {
    const item = body[i]!;
    if (item.k === 'text' && item.key !== baseKey) {
      // A span: consecutive run content of the same other formatting.
      let j = i;
      while (j < body.length) {
        const next = body[j]!;
        if ((next.k === 'text' || (next.k === 'code' && next.rpr !== null)) && next.key === item.key) j++;
        else break;
      }
      flushCodes();
      const id = nextId++;
      const open = inlineTag(id, 'open', item.runStart);
      const close = inlineTag(id, 'close', closingOfRun(item, dialect));
      tags.push(open, close);
      plans.set(open.display, { k: 'span', rpr: item.rpr });
      plans.set(close.display, { k: 'span', rpr: item.rpr });
      pieces.push({ k: 'tag', tag: open });
      for (let s = i; s < j; s++) {
        const inner = body[s]!;
        if (inner.k === 'text') {
          flushCodes();
          pushText(inner.text, inner.rpr);
        } else pendingCodes.push(inner);
      }
      flushCodes();
      pieces.push({ k: 'tag', tag: close });
      i = j - 1;
      continue;
    }
    if (item.k === 'text') {
      flushCodes();
      pushText(item.text, item.rpr);
    } else if (item.k === 'code') pendingCodes.push(item);
    else {
      flushCodes();
      let id = pairIds.get(item.pair);
      if (id === undefined) pairIds.set(item.pair, (id = nextId++));
      const tag = inlineTag(id, item.k === 'open' ? 'open' : 'close', item.markup);
      tags.push(tag);
      plans.set(tag.display, { k: 'container', markup: item.markup });
      pieces.push({ k: 'tag', tag });
    }
  }
  flushCodes();

  let source = '';
  for (const piece of pieces) source += piece.k === 'text' ? piece.text : piece.tag.display;
  return { source, tags, private: { start, head, body: pieces, tail, end, plans, baseRpr: baseItem.rpr } };
}

function closingOfRun(item: Extract<Item, { k: 'text' }>, dialect: Dialect): string {
  return item.rpr === null ? `</${dialect.text}>` : `</${dialect.text}></${dialect.run}>`;
}

function codeMarkup(item: Item, dialect: Dialect): string {
  if (item.k !== 'code') return '';
  return item.rpr === null ? item.markup : `<${dialect.run}>${item.rpr}${item.markup}</${dialect.run}>`;
}

/** Writes runs: consecutive content with the same run properties shares one run. */
class RunWriter {
  private readonly out: string[] = [];
  /** The open run's properties (undefined: none open). */
  private rpr: string | null | undefined = undefined;
  private inner: string[] = [];
  private text = '';
  private readonly runs: { rpr: string | null; inner: string }[] = [];
  /** Output slots: a string, or an index into `runs`. */
  private readonly slots: (string | number)[] = [];

  constructor(
    private readonly dialect: Dialect,
    private readonly what: string,
  ) {}

  private flushText(): void {
    if (this.text === '') return;
    if (hasNonXmlCharacter(this.text)) throw new FormatError(`the translation of ${this.what} contains a character XML cannot hold`);
    this.inner.push(`${this.dialect.textStartTag}${escapeXmlText(this.text)}</${this.dialect.text}>`);
    this.text = '';
  }

  private closeRun(): void {
    this.flushText();
    if (this.rpr !== undefined && this.inner.length > 0) {
      this.slots.push(this.runs.length);
      this.runs.push({ rpr: this.rpr, inner: this.inner.join('') });
    }
    this.rpr = undefined;
    this.inner = [];
  }

  private enter(rpr: string | null): void {
    if (this.rpr !== rpr) {
      this.closeRun();
      this.rpr = rpr;
    }
  }

  addText(text: string, rpr: string | null): void {
    if (text === '') return;
    this.enter(rpr);
    this.text += text;
  }

  addItem(item: Item): void {
    if (item.k === 'text') this.addText(item.text, item.rpr);
    else if (item.k === 'code' && item.rpr !== null) {
      this.enter(item.rpr);
      this.flushText();
      this.inner.push(item.markup);
    } else this.addMarkup(item.markup);
  }

  addMarkup(markup: string): void {
    this.closeRun();
    this.slots.push(markup);
  }

  finish(): string {
    this.closeRun();
    const d = this.dialect;
    const bare = d.bareText && this.runs.every((run) => run.rpr === null);
    return this.slots
      .map((slot) => {
        if (typeof slot === 'string') return slot;
        const run = this.runs[slot]!;
        return bare ? run.inner : `<${d.run}>${run.rpr ?? ''}${run.inner}</${d.run}>`;
      })
      .join('');
  }
}

/**
 * The paragraph's markup with `translation` in place of its text. The paragraph start tag,
 * properties and the codes around the unit are kept; runs are rebuilt (their rsid attributes and
 * proofing marks dropped). Tags must be balanced and nested (a pair may be left out entirely).
 */
export function rebuildParagraph(model: ParagraphModel, translation: string, dialect: Dialect, what: string): string {
  const { start, head, tail, end, plans, baseRpr } = model.private;
  const writer = new RunWriter(dialect, what);
  for (const item of head) writer.addItem(item);
  const spans: (string | null)[] = [];
  const openPairs: number[] = [];
  const current = (): string | null => (spans.length > 0 ? spans[spans.length - 1]! : baseRpr);
  for (const piece of splitTokens(translation, model.tags)) {
    if (!('tag' in piece)) {
      writer.addText(piece.text, current());
      continue;
    }
    const tag = piece.tag;
    const plan = plans.get(tag.display)!;
    if (tag.kind === 'open') openPairs.push(tag.id);
    else if (tag.kind === 'close') {
      if (openPairs.pop() !== tag.id) throw new FormatError(`the translation of ${what} has misplaced or unbalanced tags`);
    }
    switch (plan.k) {
      case 'span':
        if (tag.kind === 'open') spans.push(plan.rpr);
        else spans.pop();
        break;
      case 'container':
        writer.addMarkup(plan.markup);
        break;
      case 'codes':
        for (const item of plan.items) writer.addItem(item);
        break;
      case 'literal':
        writer.addText(plan.text, current());
        break;
    }
  }
  if (openPairs.length > 0) throw new FormatError(`the translation of ${what} has misplaced or unbalanced tags`);
  for (const item of tail) writer.addItem(item);
  return start + writer.finish() + end;
}

/** Settings section as a record (unknown or mistyped: empty). */
export function settingsOf(options: FilterOptions): Readonly<Record<string, unknown>> {
  const settings = options.formatSettings;
  return settings && typeof settings === 'object' ? settings : {};
}

/** A boolean setting with its Phrase default. */
export function flag(settings: Readonly<Record<string, unknown>>, name: string, fallback: boolean): boolean {
  const value = settings[name];
  return typeof value === 'boolean' ? value : fallback;
}

// ---------------------------------------------------------------------------------------------
// Paragraph parts (DOCX, PPTX): units in, translations out
// ---------------------------------------------------------------------------------------------

/** A part whose paragraphs are units. */
export interface TextPart {
  name: string;
  /** The vocabulary, from the root element (null: the part has no paragraphs of this kind). */
  dialect(root: SaxesTagPlain): Dialect | null;
  /** Whether the whole part is left out (a hidden slide), judged by its root element. */
  skip?(root: SaxesTagPlain): boolean;
  /** A note for every unit of the part (e.g. "slide notes"). */
  note?: string | null;
}

/** Markup-compatibility fallbacks repeat the content of their `mc:Choice`: their paragraphs are not units. */
function isFallback(name: string): boolean {
  return name === 'mc:Fallback' || name.endsWith(':Fallback');
}

/** Reads and rewrites the paragraphs of one part. */
export class ParagraphHandler implements SpliceHandler {
  dialect: Dialect | null = null;
  ordinal = 0;
  changed = false;
  readonly units: TextUnit[] = [];
  private skipAll = false;
  private fallbackDepth = 0;

  constructor(
    private readonly part: TextPart,
    private readonly options: ParagraphOptions,
    private readonly nextIndex: () => number,
    private readonly translations: ReadonlyMap<string, UnitTranslation> | null,
  ) {}

  open(tag: SaxesTagPlain, path: readonly string[]): unknown {
    if (path.length === 0) {
      this.dialect = this.part.dialect(tag);
      this.skipAll = this.part.skip?.(tag) ?? false;
      return null;
    }
    if (isFallback(tag.name)) this.fallbackDepth++;
    if (this.dialect !== null && tag.name === this.dialect.paragraph) return { skip: this.skipAll || this.fallbackDepth > 0 };
    return null;
  }

  close(name: string): void {
    if (isFallback(name)) this.fallbackDepth--;
  }

  captured(raw: string, data: unknown): string | null {
    this.ordinal += 1;
    if ((data as { skip: boolean }).skip) return null;
    const locator = `${this.part.name}#${this.ordinal}`;
    if (this.translations) {
      const translation = this.translations.get(locator);
      if (!translation) return null;
      const model = buildParagraph(raw, this.dialect!, this.options);
      if (!model || translation.text === model.source) return null;
      this.changed = true;
      return rebuildParagraph(model, translation.text, this.dialect!, `unit ${locator}`);
    }
    const model = buildParagraph(raw, this.dialect!, this.options);
    if (!model) return null;
    this.units.push({
      index: this.nextIndex(),
      key: null,
      locator,
      source: model.source,
      tags: model.tags,
      target: null,
      translatable: true,
      note: this.part.note ?? null,
    });
    return null;
  }
}

/** The units of the parts, a batch per chunk of each part. */
export async function* paragraphUnits(
  zip: ZipPackage,
  parts: readonly TextPart[],
  options: FilterOptions,
  paragraph: ParagraphOptions,
): AsyncGenerator<TextUnit[]> {
  let index = 0;
  const nextIndex = (): number => index++;
  for (const part of parts) {
    const entry = zip.entry(part.name);
    if (!entry) continue;
    const handler = new ParagraphHandler(part, paragraph, nextIndex, null);
    const { chunks } = await decodeStream(zip.read(entry), chooseXmlEncoding);
    const scanner = new SpliceScanner(handler, entry.name, { maxDepth: options.maxDepth });
    for await (const chunk of chunks) {
      scanner.push(chunk);
      if (handler.units.length > 0) yield handler.units.splice(0);
    }
    scanner.end();
    if (handler.units.length > 0) yield handler.units.splice(0);
  }
}

/** Writes the package with the translated paragraphs spliced into their parts. */
export async function writeParagraphParts(
  zip: ZipPackage,
  parts: readonly TextPart[],
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions,
  paragraph: ParagraphOptions,
): Promise<void> {
  // Only parts some translation names are rewritten.
  const wanted = new Set<string>();
  for (const locator of translations.keys()) {
    const hash = locator.lastIndexOf('#');
    if (hash > 0) wanted.add(locator.slice(0, hash));
  }
  const byName = new Map(parts.filter((part) => wanted.has(part.name)).map((part) => [part.name, part]));
  await zip.write(output, (entry): EntryRewrite | null => {
    const part = byName.get(entry.name);
    if (!part) return null;
    const handler = new ParagraphHandler(part, paragraph, () => 0, translations);
    return { content: splicePart(zip, entry, handler, options), unchanged: () => !handler.changed };
  });
}
