import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { inlineTag } from './inline-tags.js';
import type { Piece } from './inline-tags.js';
import { FormatError } from './types.js';
import type { InlineTag, InlineTagKind } from './types.js';
import { chooseXmlEncoding } from './xliff12.js';
import { DEFAULT_MAX_XML_DEPTH, MAX_PROLOG_CHARS, escapeXmlText, hasNonXmlCharacter, shapedSaxesParser } from './xml.js';

/**
 * Shared ground of the XML resource-file filters (Android `strings.xml`, .NET RESX, Qt Linguist
 * TS, iOS `.stringsdict`): the document is read whole (bounded by `maxXmlResourceBytes`, default
 * 50 MiB), parsed once by saxes, and the elements a filter cares about are handed to it as small
 * trees that know where their markup and content sit in the decoded text (UTF-16 offsets). The
 * writer then splices new content into those ranges and copies every other character as it was,
 * so the XML declaration, comments, attribute order and quoting, white space, CRLF, BOM and
 * encoding stay byte for byte.
 *
 * Security as for XLIFF: saxes reads no DTD and resolves no external entity; a DOCTYPE with an
 * internal subset is refused; the prolog is at most 64 KiB; elements nested deeper than
 * `maxDepth` (default 512) are refused.
 */

export const DEFAULT_MAX_XML_RESOURCE_BYTES = 50 * 1024 * 1024;

export interface XmlText {
  kind: 'text';
  /** The decoded text (entities resolved; CDATA content as it is). */
  text: string;
  cdata: boolean;
}

export interface XmlOther {
  kind: 'comment' | 'pi';
  /** The raw markup (`<!--…-->`, `<?…?>`). */
  raw: string;
  start: number;
  end: number;
}

export interface XmlElement {
  kind: 'element';
  name: string;
  attributes: Record<string, string>;
  /** `<` of the start tag. */
  start: number;
  /** Just after the start tag's `>`. */
  openEnd: number;
  /** `<` of the end tag (`openEnd` for an empty-element tag). */
  closeStart: number;
  /** Just after the end tag's `>`. */
  end: number;
  selfClosing: boolean;
  children: XmlNode[];
}

export type XmlNode = XmlElement | XmlText | XmlOther;

/** What a filter does with the document's events; `path` holds the names of the open ancestors, root first. */
export interface XmlResourceHandler {
  /** The root element: throw a FormatError (via `fail`) when it is not the filter's. */
  root(name: string, attributes: Record<string, string>, scan: XmlResourceScan, range: { start: number; end: number }): void;
  /** Whether to capture this (non-root) element as a tree, handed to `captured` when it closes. */
  capture(name: string, attributes: Record<string, string>, path: readonly string[]): boolean;
  captured(element: XmlElement, path: readonly string[], scan: XmlResourceScan): void;
  /** A comment outside captured elements (Android uses the one before a string as its note). */
  comment?(comment: XmlOther, path: readonly string[]): void;
}

export interface XmlResourceScan {
  readonly text: string;
  /** Throws a FormatError at the parser's current line and column. */
  fail(message: string): never;
}

/**
 * Parses `text` once, calling `handler`. Linear in the text: every event costs O(1) plus the
 * markup it covers; captured trees hold their own text only.
 */
export function scanXmlResource(text: string, handler: XmlResourceHandler, maxDepth = DEFAULT_MAX_XML_DEPTH): void {
  const parser = shapedSaxesParser();
  const path: string[] = [];
  /** The captured trees being built (innermost last); empty outside a capture. */
  const building: XmlElement[] = [];
  let sawRoot = false;
  let lastMarkupEnd = 0;
  const scan: XmlResourceScan = {
    text,
    fail(message: string): never {
      throw new FormatError(message, { line: parser.line, column: parser.column + 1 });
    },
  };
  parser.on('error', (error) => {
    const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
    throw new FormatError(`malformed XML: ${message}`, { line: parser.line, column: parser.column + 1 });
  });
  parser.on('doctype', (doctype) => {
    lastMarkupEnd = parser.position;
    if (doctype.includes('[')) scan.fail('a DOCTYPE with an internal subset (entity declarations) is refused');
  });
  parser.on('xmldecl', () => (lastMarkupEnd = parser.position));
  const other = (kind: 'comment' | 'pi', opening: string, closing: string): void => {
    // saxes reports these before their last character; the markup is found from the last one's end.
    const start = text.indexOf(opening, lastMarkupEnd);
    const close = text.indexOf(closing, start + opening.length);
    const end = close < 0 ? parser.position : close + closing.length;
    lastMarkupEnd = end;
    const node: XmlOther = { kind, raw: text.slice(start, end), start, end };
    const parent = building[building.length - 1];
    if (parent) parent.children.push(node);
    else if (kind === 'comment') handler.comment?.(node, path);
  };
  parser.on('comment', () => other('comment', '<!--', '-->'));
  parser.on('processinginstruction', () => other('pi', '<?', '?>'));
  parser.on('text', (value) => {
    const parent = building[building.length - 1];
    if (parent && value !== '') parent.children.push({ kind: 'text', text: value, cdata: false });
  });
  parser.on('cdata', (value) => {
    const start = text.indexOf('<![CDATA[', lastMarkupEnd);
    const close = text.indexOf(']]>', start + 9);
    lastMarkupEnd = close < 0 ? parser.position : close + 3;
    const parent = building[building.length - 1];
    if (parent) parent.children.push({ kind: 'text', text: value, cdata: true });
  });
  parser.on('opentag', (tag) => {
    const openEnd = parser.position;
    lastMarkupEnd = openEnd;
    if (path.length >= maxDepth) scan.fail(`elements are nested deeper than ${maxDepth} levels (the import's nesting limit)`);
    const attributes = tag.attributes as Record<string, string>;
    if (!sawRoot) {
      sawRoot = true;
      handler.root(tag.name, attributes, scan, { start: text.lastIndexOf('<', openEnd - 1), end: openEnd });
    } else if (building.length > 0 || handler.capture(tag.name, attributes, path)) {
      const start = text.lastIndexOf('<', openEnd - 1);
      const element: XmlElement = {
        kind: 'element',
        name: tag.name,
        attributes,
        start,
        openEnd,
        closeStart: openEnd,
        end: openEnd,
        selfClosing: tag.isSelfClosing,
        children: [],
      };
      building[building.length - 1]?.children.push(element);
      building.push(element);
    }
    path.push(tag.name);
  });
  parser.on('closetag', () => {
    const end = parser.position;
    lastMarkupEnd = end;
    path.pop();
    // Every element opened inside a capture is part of it: the trees mirror the open elements.
    const element = building.pop();
    if (!element) return;
    element.end = end;
    element.closeStart = element.selfClosing ? element.openEnd : text.lastIndexOf('<', end - 1);
    if (building.length === 0) handler.captured(element, path, scan);
  });
  const step = 1 << 16;
  for (let at = 0; at < text.length; at += step) {
    parser.write(text.slice(at, at + step));
    if (!sawRoot && parser.position > MAX_PROLOG_CHARS) {
      throw new FormatError(`no root element in the first ${MAX_PROLOG_CHARS} characters`);
    }
  }
  parser.close();
  if (!sawRoot) throw new FormatError('the file has no root element');
}

/** Reads the whole document (bounded), decoded by its BOM, first bytes or XML declaration. */
export async function readXmlResource(input: Readable, what: string, maxBytes?: number): Promise<{ enc: TextEncoding; text: string }> {
  const limit = maxBytes ?? DEFAULT_MAX_XML_RESOURCE_BYTES;
  const { encoding: enc, chunks } = await decodeStream(input, chooseXmlEncoding, {
    limitBytes: limit,
    tooLarge: `the ${what} file is larger than ${limit} bytes`,
  });
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { enc, text: parts.join('') };
}

/** A replacement of `text.slice(start, end)`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Writes `text` with the edits applied (they must not overlap), encoded as it was read, BOM first; ends `output`. */
export async function writeEdited(text: string, edits: Edit[], enc: TextEncoding, output: Writable): Promise<void> {
  const sorted = edits.slice().sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.start < sorted[i - 1]!.end) throw new Error('overlapping edits');
  }
  async function* pieces(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    let copied = 0;
    let pending: string[] = [];
    let pendingLength = 0;
    const flush = (): Buffer => {
      const buffer = encodeText(pending.join(''), enc);
      pending = [];
      pendingLength = 0;
      return buffer;
    };
    for (const edit of sorted) {
      pending.push(text.slice(copied, edit.start), edit.text);
      pendingLength += edit.start - copied + edit.text.length;
      copied = edit.end;
      if (pendingLength > 1 << 16) yield flush();
    }
    pending.push(text.slice(copied));
    yield flush();
  }
  await pipeline(pieces(), output);
}

/**
 * XML text escaping for the file's encoding: `&`, `<`, `>` escaped, characters above what the
 * encoding holds as character references; characters XML cannot hold are a FormatError naming `what`.
 */
export function xmlTextEscaper(enc: TextEncoding, what: string): (text: string) => string {
  return (text) => {
    if (hasNonXmlCharacter(text)) throw new FormatError(`${what} contains a character XML cannot hold`);
    return beyondEncoding(escapeXmlText(text), enc);
  };
}

/** Characters above the encoding's range as character references. */
export function beyondEncoding(text: string, enc: TextEncoding): string {
  if (enc.maxCodePoint >= 0x10ffff) return text;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code > enc.maxCodePoint ? `&#x${code.toString(16).toUpperCase()};` : char;
  }
  return out;
}

/**
 * Throws a FormatError unless the paired tags of a translation nest (each `{n>` closed by its
 * `<n}`, innermost first; a pair left out entirely is fine). Their originals are a start tag and
 * its end tag, so restored markup is then well-formed; standalone tags are complete by themselves.
 */
export function assertPairsNest(pieces: readonly Piece[], what: string): void {
  const open: number[] = [];
  for (const piece of pieces) {
    if (!('tag' in piece) || piece.tag.kind === 'standalone') continue;
    if (piece.tag.kind === 'open') open.push(piece.tag.id);
    else if (open.pop() !== piece.tag.id) throw new FormatError(`${what} has misplaced or unbalanced tags`);
  }
  if (open.length > 0) throw new FormatError(`${what} has misplaced or unbalanced tags`);
}

/** The text of an element's text nodes (elements and comments inside are skipped). */
export function textOf(element: XmlElement): string {
  let out = '';
  for (const child of element.children) {
    if (child.kind === 'text') out += child.text;
    else if (child.kind === 'element') out += textOf(child);
  }
  return out;
}

export function childElements(element: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of element.children) if (child.kind === 'element' && (name === undefined || child.name === name)) out.push(child);
  return out;
}

/** The white space right before `offset` (back to the previous non-space character). */
export function whitespaceBefore(text: string, offset: number): string {
  let at = offset;
  while (at > 0 && isXmlSpace(text.charCodeAt(at - 1))) at--;
  return text.slice(at, offset);
}

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The indentation of the line `offset` is on: the spaces and tabs after the last line break before it. */
export function indentBefore(text: string, offset: number): string {
  const space = whitespaceBefore(text, offset);
  const lineBreak = Math.max(space.lastIndexOf('\n'), space.lastIndexOf('\r'));
  return space.slice(lineBreak + 1);
}

interface RawAttribute {
  name: string;
  /** From the white space before the name to the closing quote. */
  start: number;
  end: number;
}

/** The attributes of a raw start tag, with their ranges in it (a linear scan, no regular expression). */
function rawAttributes(tag: string): { attributes: RawAttribute[]; insertAt: number } {
  const attributes: RawAttribute[] = [];
  let i = 1;
  while (i < tag.length && !isXmlSpace(tag.charCodeAt(i)) && tag[i] !== '>' && tag[i] !== '/') i++;
  let insertAt = i;
  for (;;) {
    const spaceStart = i;
    while (i < tag.length && isXmlSpace(tag.charCodeAt(i))) i++;
    if (i >= tag.length || tag[i] === '>' || tag[i] === '/') break;
    const nameStart = i;
    while (i < tag.length && tag[i] !== '=' && !isXmlSpace(tag.charCodeAt(i))) i++;
    const name = tag.slice(nameStart, i);
    while (i < tag.length && tag[i] !== '"' && tag[i] !== "'") i++;
    const quote = tag[i];
    const close = quote === undefined ? -1 : tag.indexOf(quote, i + 1);
    if (close < 0) break;
    i = close + 1;
    attributes.push({ name, start: spaceStart, end: i });
    insertAt = i;
  }
  return { attributes, insertAt };
}

/**
 * A raw start tag with one attribute set (`value` escaped here) or removed (null); the other
 * attributes, their order and quoting stay as they were. A new attribute goes after the last one.
 */
export function withAttribute(tag: string, name: string, value: string | null): string {
  const { attributes, insertAt } = rawAttributes(tag);
  const found = attributes.find((attribute) => attribute.name === name);
  if (value === null) return found ? tag.slice(0, found.start) + tag.slice(found.end) : tag;
  const escaped = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  if (found) {
    const raw = tag.slice(found.start, found.end);
    const eq = raw.indexOf('=');
    let q = eq + 1;
    while (raw[q] !== '"' && raw[q] !== "'") q++;
    const quote = raw[q]!;
    const inner = quote === "'" ? escaped.replace(/'/g, '&apos;') : escaped;
    return tag.slice(0, found.start) + raw.slice(0, q + 1) + inner + quote + tag.slice(found.end);
  }
  return `${tag.slice(0, insertAt)} ${name}="${escaped}"${tag.slice(insertAt)}`;
}

/** The start tag of an empty-element tag as a start tag (`<a b="c"/>` → `<a b="c">`). */
export function openingOf(selfClosingTag: string): string {
  let end = selfClosingTag.length - 2;
  while (end > 0 && isXmlSpace(selfClosingTag.charCodeAt(end - 1))) end--;
  return `${selfClosingTag.slice(0, end)}>`;
}

/**
 * Builds a unit's text with display tokens and its tags, numbering from 1 in order of appearance.
 */
export class UnitBuilder {
  private readonly parts: string[] = [];
  readonly tags: InlineTag[] = [];
  private next = 1;
  /** Whether any text (not a tag) was added that is not white space. */
  hasText = false;

  text(text: string): void {
    if (text === '') return;
    this.parts.push(text);
    if (!this.hasText && text.trim() !== '') this.hasText = true;
  }

  private add(id: number, kind: InlineTagKind, original: string): void {
    const tag = inlineTag(id, kind, original);
    this.tags.push(tag);
    this.parts.push(tag.display);
  }

  standalone(original: string): void {
    this.add(this.next++, 'standalone', original);
  }

  open(original: string): number {
    const id = this.next++;
    this.add(id, 'open', original);
    return id;
  }

  close(id: number, original: string): void {
    this.add(id, 'close', original);
  }

  /**
   * Decoded text in which matches of `patterns` (in priority order: the first pattern's matches
   * first, the next one's in the text between) become standalone tags whose original is the
   * match through `escape` (the markup the file holds or would hold); `keepAsText` matches stay text.
   */
  textWithCodes(
    text: string,
    patterns: readonly (RegExp | null)[],
    escape: (text: string) => string,
    keepAsText?: (match: string) => boolean,
  ): void {
    this.codesFrom(text, patterns, 0, escape, keepAsText);
  }

  private codesFrom(
    text: string,
    patterns: readonly (RegExp | null)[],
    from: number,
    escape: (text: string) => string,
    keepAsText: ((match: string) => boolean) | undefined,
  ): void {
    if (text === '') return;
    let k = from;
    while (k < patterns.length && patterns[k] === null) k++;
    const pattern = patterns[k];
    if (!pattern) return this.text(text);
    let last = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const found = match[0];
      if (found === '') {
        pattern.lastIndex += 1;
        continue;
      }
      if (keepAsText?.(found)) continue;
      const at = match.index;
      const end = at + found.length;
      this.codesFrom(text.slice(last, at), patterns, k + 1, escape, keepAsText);
      this.standalone(escape(found));
      last = end;
      pattern.lastIndex = end;
    }
    this.codesFrom(last === 0 ? text : text.slice(last), patterns, k + 1, escape, keepAsText);
  }

  get source(): string {
    return this.parts.join('');
  }
}

/** The settings section of the filter (`options.formatSettings`), with `tagRegexp` from there or from the option. */
export function tagRegexpSetting(options: { tagRegexp?: string; formatSettings?: Readonly<Record<string, unknown>> }): string | undefined {
  const fromSettings = options.formatSettings?.['tagRegexp'];
  if (typeof fromSettings === 'string' && fromSettings !== '') return fromSettings;
  return options.tagRegexp;
}

export function booleanSetting(settings: Readonly<Record<string, unknown>> | undefined, ...names: string[]): boolean | undefined {
  for (const name of names) {
    const value = settings?.[name];
    if (typeof value === 'boolean') return value;
  }
  return undefined;
}

/**
 * Markup inside decoded text (an HTML sub-filter): start, end and empty tags. Linear: `[^<>]`
 * cannot run past the next `<`, so no start position is scanned twice beyond it.
 */
const HTML_TAG = /<\/?[A-Za-z][\w:.-]*(?:\s[^<>]*)?\/?>/g;

/**
 * Adds decoded text whose HTML-like tags become tag pairs (a start tag and its matching end tag)
 * or standalone tags (empty tags, unmatched ones); the text between goes through `codes`.
 */
export function addHtmlText(builder: UnitBuilder, text: string, escape: (text: string) => string, codes: (text: string) => void): void {
  interface Piece {
    raw: string;
    name: string;
    kind: 'open' | 'close' | 'empty';
    pair: number;
  }
  const markup: { index: number; piece: Piece }[] = [];
  const openStack: number[] = [];
  for (const match of text.matchAll(HTML_TAG)) {
    const raw = match[0];
    const closing = raw.startsWith('</');
    const empty = !closing && raw.endsWith('/>');
    const nameEnd = raw.slice(closing ? 2 : 1).search(/[\s/>]/);
    const name = raw
      .slice(closing ? 2 : 1)
      .slice(0, nameEnd)
      .toLowerCase();
    const piece: Piece = { raw, name, kind: closing ? 'close' : empty ? 'empty' : 'open', pair: -1 };
    const at = markup.length;
    markup.push({ index: match.index, piece });
    if (piece.kind === 'open') openStack.push(at);
    else if (piece.kind === 'close') {
      for (let s = openStack.length - 1; s >= 0; s--) {
        const open = markup[openStack[s]!]!.piece;
        if (open.name === name) {
          open.pair = at;
          piece.pair = openStack[s]!;
          openStack.length = s;
          break;
        }
      }
    }
  }
  let last = 0;
  const ids = new Map<number, number>();
  markup.forEach(({ index, piece }, at) => {
    codes(text.slice(last, index));
    last = index + piece.raw.length;
    if (piece.kind === 'open' && piece.pair >= 0) ids.set(at, builder.open(escape(piece.raw)));
    else if (piece.kind === 'close' && piece.pair >= 0) builder.close(ids.get(piece.pair)!, escape(piece.raw));
    else builder.standalone(escape(piece.raw));
  });
  codes(text.slice(last));
}

/**
 * CLDR cardinal plural categories per language (CLDR 44 `plurals.xml`, the languages most
 * resource files are translated into; keyed by the primary language subtag, Android's old codes
 * `iw`, `in`, `ji` included). A language not listed returns null: the writer then keeps the
 * source's categories.
 */
const PLURAL_CATEGORY_GROUPS: readonly [string, string][] = [
  ['bm bo dz id in ig ii ja jbo jv kde kea km ko lkt lo ms my nqo osa sah ses sg su th to vi wo yo yue zh', 'other'],
  [
    'af ak am an as ast az bal bem bez bg bho bn brx ce ceb cgg chr ckb csw da de doa dv ee el en eo et eu fa ff fi fil fo fur fy ' +
      'gl gsw gu guw ha haw hi hu hy ia io is jgo jmc ka kab kaj kcg kk kkj kl kn ks ksb ku ky lb lg lij ln mas mg mgo mk ml mn ' +
      'mr nah nb nd ne nl nn nnh no nr nso ny nyn om or os pa pap pcm ps rm rof rwk saq sd sdh seh sn so sq ss ssy st sv sw syr ' +
      'ta te teo ti tig tk tl tn tr ts ug ur uz ve vo vun wa wae xh xog yi ji zu',
    'one other',
  ],
  ['ca es fr it lld pt vec', 'one many other'],
  ['be cs lt pl ru sk uk', 'one few many other'],
  ['lv prg', 'zero one other'],
  ['ksh lag blo', 'zero one other'],
  ['bs hr mo ro sh sr', 'one few other'],
  ['shi', 'one few other'],
  ['sl', 'one two few other'],
  ['dsb gd hsb', 'one two few other'],
  ['he iw iu naq sat se sma smi smj smn sms', 'one two other'],
  ['br ga gv mt', 'one two few many other'],
  ['ar ars cy kw', 'zero one two few many other'],
];

const PLURAL_CATEGORIES = new Map<string, readonly string[]>(
  PLURAL_CATEGORY_GROUPS.flatMap(([languages, categories]) => {
    const list = categories.split(' ');
    return languages.split(' ').map((language): [string, readonly string[]] => [language, list]);
  }),
);

/** All categories in CLDR order. */
export const PLURAL_ORDER = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;

/** The CLDR plural categories of a language code (`pl`, `pt-BR`, `sr_Latn`, `b+sr+Latn`), or null when unknown. */
export function pluralCategories(language: string | undefined): readonly string[] | null {
  if (!language) return null;
  const primary = language.replace(/^b\+/, '').split(/[-_+]/)[0]!.toLowerCase();
  return PLURAL_CATEGORIES.get(primary) ?? null;
}

/** One plural variant as it sits in the file: the whole markup to remove (element, or key and value), and where to insert before it. */
export interface PluralSlot {
  category: string;
  start: number;
  end: number;
}

/**
 * The plural variants a target language needs, against those the source file has: `remove` the
 * source's categories the target does not use (not `keep` ones), `insert` the target's missing
 * ones. Null target categories (language unknown or not given): nothing changes.
 */
export function planPlurals(
  present: readonly string[],
  target: readonly string[] | null,
  keep: (category: string) => boolean = () => false,
): { remove: Set<string>; insert: string[] } {
  if (!target) return { remove: new Set(), insert: [] };
  const remove = new Set(present.filter((category) => !target.includes(category) && !keep(category)));
  const insert = PLURAL_ORDER.filter((category) => target.includes(category) && !present.includes(category));
  return { remove, insert };
}

/**
 * Edits that remove and insert plural variants: a removed slot goes with the white space before
 * it; inserted ones (`markup(category)`) go before the `other` slot (else after the last slot),
 * separated as the slots around are.
 */
export function pluralEdits(
  text: string,
  slots: readonly PluralSlot[],
  plan: { remove: Set<string>; insert: string[] },
  markup: (category: string) => string,
): Edit[] {
  const edits: Edit[] = [];
  for (const slot of slots) {
    if (plan.remove.has(slot.category))
      edits.push({ start: slot.start - whitespaceBefore(text, slot.start).length, end: slot.end, text: '' });
  }
  if (plan.insert.length === 0 || slots.length === 0) return edits;
  const other = slots.find((slot) => slot.category === 'other' && !plan.remove.has(slot.category));
  if (other) {
    const space = whitespaceBefore(text, other.start);
    edits.push({ start: other.start, end: other.start, text: plan.insert.map((category) => markup(category) + space).join('') });
  } else {
    const lastSlot = slots[slots.length - 1]!;
    const space = whitespaceBefore(text, lastSlot.start);
    edits.push({ start: lastSlot.end, end: lastSlot.end, text: plan.insert.map((category) => space + markup(category)).join('') });
  }
  return edits;
}

/** Decodes the first bytes of a file and returns its root element's name and the decoded head, or null. */
export function sniffXmlRoot(firstBytes: Buffer): { root: string; head: string } | null {
  let head: string;
  try {
    const enc = chooseXmlEncoding(firstBytes);
    const body = firstBytes.subarray(enc.bom.length);
    head = enc.name === 'latin1' ? body.toString('latin1') : new TextDecoder(enc.name).decode(body);
  } catch {
    return null;
  }
  let at = 0;
  for (;;) {
    while (at < head.length && isXmlSpace(head.charCodeAt(at))) at++;
    if (head.startsWith('<?', at)) at = head.indexOf('?>', at) + 2;
    else if (head.startsWith('<!--', at)) at = head.indexOf('-->', at) + 3;
    else if (head.startsWith('<!DOCTYPE', at)) {
      const close = head.indexOf('>', at);
      if (close < 0 || head.slice(at, close).includes('[')) return null;
      at = close + 1;
    } else break;
    if (at < 2) return null;
  }
  if (head[at] !== '<') return null;
  const match = /^<([A-Za-z_][\w:.-]*)/.exec(head.slice(at, at + 200));
  return match ? { root: match[1]!, head } : null;
}
