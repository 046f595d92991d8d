import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SaxesParser } from 'saxes';
import type { SaxesTagPlain } from 'saxes';
import { decodeStream, encodeText, encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { escapeXmlAttribute, escapeXmlText, hasNonXmlCharacter, shapedSaxesParser } from './xml.js';
import { inlineTag } from './inline-tags.js';
import { FormatError } from './types.js';
import type { InlineTag, InlineTagKind } from './types.js';

/**
 * The pieces of the streaming, byte-faithful XLIFF readers and writers (xliff12.ts, xliff2.ts,
 * tmx-job.ts): the raw text window kept from the start of the current unit, namespace scopes that
 * stay O(1) per element whatever the nesting, tag numbering per unit, encodings, escaping.
 */

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** An element as the scanner sees it: saxes' plain tag plus the namespace we resolved. */
export interface Tag {
  name: string;
  prefix: string;
  local: string;
  uri: string;
  attributes: Record<string, string>;
  isSelfClosing: boolean;
}

/**
 * In-scope namespace declarations: a stack of URIs per prefix, pushed by the element declaring
 * them and popped when it closes. Lookup and update are O(1) whatever the nesting depth.
 */
export class NamespaceScope {
  private readonly bindings = new Map<string, string[]>([
    ['', ['']],
    ['xml', [XML_NS]],
  ]);

  /** Binds the element's `xmlns` / `xmlns:p` attributes; returns the prefixes to unbind on close. */
  declare(attributes: Record<string, string>): string[] | null {
    let declared: string[] | null = null;
    for (const name in attributes) {
      let prefix: string;
      if (name === 'xmlns') prefix = '';
      else if (name.startsWith('xmlns:')) prefix = name.slice(6);
      else continue;
      const uri = attributes[name]!.trim();
      let stack = this.bindings.get(prefix);
      if (!stack) this.bindings.set(prefix, (stack = []));
      stack.push(uri);
      (declared ??= []).push(prefix);
    }
    return declared;
  }

  undeclare(prefixes: readonly string[]): void {
    for (const prefix of prefixes) this.bindings.get(prefix)?.pop();
  }

  resolve(prefix: string): string | undefined {
    const stack = this.bindings.get(prefix);
    return stack && stack.length > 0 ? stack[stack.length - 1] : undefined;
  }
}

/**
 * Numbers keyed by a tag key, the key given in two parts: a kind without a colon (an element's
 * local name, `bpt`, `bx` or `foreign`) and the rest, so that (kind, rest) pairs are equal exactly
 * when the strings `kind:rest` are. No key string is built per tag (a unit may hold hundreds of
 * thousands), and each kind has a map of its own.
 */
export class KeyedNumbers {
  private readonly byKind = new Map<string, Map<string, number>>();

  get(kind: string, rest: string): number | undefined {
    return this.byKind.get(kind)?.get(rest);
  }

  set(kind: string, rest: string, value: number): void {
    let byRest = this.byKind.get(kind);
    if (!byRest) this.byKind.set(kind, (byRest = new Map()));
    byRest.set(rest, value);
  }

  delete(kind: string, rest: string): void {
    this.byKind.get(kind)?.delete(rest);
  }
}

/** A source or target being read: text with display tokens, and its tags. */
export class Content {
  /** The text so far, in pieces (one per tag token: a growing string would be one object per piece too, and live longer). */
  private readonly parts: string[] = [];
  readonly tags: InlineTag[] = [];
  /** Open bpt/bx occurrences waiting for their ept/ex, by pairing key. */
  readonly openPairs = new KeyedNumbers();
  /** Target: keys already numbered in it (a second use gets a fresh number); the source's are TagNumbering's. */
  readonly usedKeys = new KeyedNumbers();
  /** Tags added since the last text (a run of back-to-back tags). */
  run = 0;
  /** Depth of nested elements inside a code element (their markup is part of the code). */
  codeDepth = 0;
  codeStart = 0;

  constructor(readonly isTarget: boolean) {}

  get text(): string {
    if (this.parts.length > 1) this.parts.splice(0, this.parts.length, this.parts.join(''));
    return this.parts.length === 0 ? '' : this.parts[0]!;
  }

  append(text: string): void {
    this.parts.push(text);
  }

  add(id: number, kind: InlineTagKind, original: string): void {
    const tag = inlineTag(id, kind, original);
    this.tags.push(tag);
    this.parts.push(tag.display);
    this.run += 1;
  }

  /** How many pieces the text has so far (the next `add` puts its token at this index). */
  get partCount(): number {
    return this.parts.length;
  }

  /**
   * Turns the tag `tags[tagIndex]`, whose token is piece `partIndex`, into a standalone tag (an
   * opening code whose partner never came). Only before `text` was read.
   */
  demote(tagIndex: number, partIndex: number): void {
    const old = this.tags[tagIndex];
    if (!old) return;
    const tag = inlineTag(old.id, 'standalone', old.original);
    this.tags[tagIndex] = tag;
    this.parts[partIndex] = tag.display;
  }
}

/** Numbers tags within one unit: source tags first, target tags reuse the number of the matching source tag. */
export class TagNumbering {
  private next = 1;
  /**
   * The source's keys in order (source tag n has number n + 1: every source tag gets a fresh
   * number). Only a target needs them looked up: the map from key to the number of its first use
   * is built when the target numbers its first tag (the source is complete by then).
   */
  private readonly sourceKinds: string[] = [];
  private readonly sourceRests: string[] = [];
  private sourceKeys: KeyedNumbers | null = null;

  /** The number of the tag keyed `kind:rest` (see KeyedNumbers). */
  number(content: Content, kind: string, rest: string): number {
    if (!content.isTarget) {
      this.sourceKinds.push(kind);
      this.sourceRests.push(rest);
      return this.next++;
    }
    const reused = content.usedKeys.get(kind, rest) !== undefined;
    if (!reused) {
      content.usedKeys.set(kind, rest, 0);
      const fromSource = this.sourceNumbers().get(kind, rest);
      if (fromSource !== undefined) return fromSource;
    }
    return this.next++;
  }

  private sourceNumbers(): KeyedNumbers {
    if (this.sourceKeys) return this.sourceKeys;
    const keys = new KeyedNumbers();
    for (let i = 0; i < this.sourceKinds.length; i++) {
      const kind = this.sourceKinds[i]!;
      const rest = this.sourceRests[i]!;
      if (keys.get(kind, rest) === undefined) keys.set(kind, rest, i + 1);
    }
    this.sourceKinds.length = 0;
    this.sourceRests.length = 0;
    return (this.sourceKeys = keys);
  }
}

/**
 * The raw decoded text from some offset on; the part nobody needs any more is dropped. Kept as
 * the chunks that came in, not one growing string: appending to a string and then searching it
 * copies the whole window each time (quadratic over a large trans-unit).
 */
export class RawWindow {
  private chunks: string[] = [];
  /** Offset of each chunk's first character. */
  private starts: number[] = [];
  private base = 0;
  private total = 0;

  get end(): number {
    return this.total;
  }
  append(chunk: string): void {
    if (chunk === '') return;
    this.chunks.push(chunk);
    this.starts.push(this.total);
    this.total += chunk.length;
  }
  /** Index of the chunk holding `offset` (base <= offset < end). */
  private chunkAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
  slice(start: number, end: number): string {
    if (start < this.base) throw new Error(`raw text before ${this.base} was already dropped`);
    if (end <= start) return '';
    // Mostly within the last chunk (a tag just read): no search, no parts.
    const lastIndex = this.chunks.length - 1;
    const lastStart = lastIndex >= 0 ? this.starts[lastIndex]! : 0;
    if (lastIndex >= 0 && start >= lastStart) return this.chunks[lastIndex]!.slice(start - lastStart, end - lastStart);
    let index = this.chunkAt(start);
    const parts: string[] = [];
    for (let at = start; at < end && index < this.chunks.length; index++) {
      const chunkStart = this.starts[index]!;
      const chunk = this.chunks[index]!;
      const to = Math.min(end, chunkStart + chunk.length);
      parts.push(chunk.slice(at - chunkStart, to - chunkStart));
      at = to;
    }
    return parts.length === 1 ? parts[0]! : parts.join('');
  }
  lastIndexOf(char: string, before: number): number {
    if (before <= this.base || this.chunks.length === 0) return -1;
    for (let index = this.chunkAt(Math.min(before, this.total) - 1); index >= 0; index--) {
      const chunkStart = this.starts[index]!;
      const at = this.chunks[index]!.lastIndexOf(char, before - chunkStart - 1);
      if (at >= 0) return chunkStart + at;
    }
    return -1;
  }
  dropBefore(offset: number): void {
    if (offset <= this.base) return;
    let drop = 0;
    while (drop < this.chunks.length && this.starts[drop]! + this.chunks[drop]!.length <= offset) drop++;
    if (drop > 0) {
      this.chunks = this.chunks.slice(drop);
      this.starts = this.starts.slice(drop);
    }
    if (this.chunks.length > 0 && this.starts[0]! < offset) {
      this.chunks[0] = this.chunks[0]!.slice(offset - this.starts[0]!);
      this.starts[0] = offset;
    }
    this.base = offset;
  }
}

/** An attribute without a prefix (saxes keys attributes by qualified name). */
export function attribute(tag: Tag, local: string): string | undefined {
  return tag.attributes[local];
}

/** Encoding of an XML file: BOM, else the first bytes' pattern, else the declaration (XML 1.0, appendix F). */
export function chooseXmlEncoding(head: Buffer): TextEncoding {
  const fromBom = encodingFromBom(head);
  if (fromBom) return fromBom;
  if (head[0] === 0x3c && head[1] === 0x00) return encoding('utf-16le');
  if (head[0] === 0x00 && head[1] === 0x3c) return encoding('utf-16be');
  const declared = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head.toString('latin1'))?.[1]?.toLowerCase();
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8') return encoding('utf-8');
  if (declared === 'us-ascii' || declared === 'ascii') return encoding('utf-8', undefined, 0x7f);
  if (declared === 'iso-8859-1' || declared === 'latin1' || declared === 'latin-1') return encoding('latin1');
  throw new FormatError(`unsupported XML encoding "${declared}" (UTF-8, UTF-16 and ISO-8859-1 are)`);
}

export function xmlEscaper(maxCodePoint: number, what: string): (text: string) => string {
  return (text) => {
    if (hasNonXmlCharacter(text)) throw new FormatError(`${what} contains a character XML cannot hold`);
    let out = escapeXmlText(text);
    if (maxCodePoint < 0x10ffff) {
      out = Array.from(out, (char) =>
        (char.codePointAt(0) ?? 0) > maxCodePoint ? `&#x${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()};` : char,
      ).join('');
    }
    return out;
  };
}

/** Throws unless `fragment` is well-formed XML content (tags restored in a wrong order are not). */
export function assertWellFormed(fragment: string, locator: string): void {
  const parser = new SaxesParser({ fragment: true, xmlns: false });
  let error: Error | null = null;
  parser.on('error', (e) => (error ??= e));
  parser.write(`<t>${fragment}</t>`).close();
  if (error) throw new FormatError(`the translation of unit ${locator} has misplaced or unbalanced tags`);
}

/** Before the root element at most this much text is accepted (a DOCTYPE cannot grow unbounded). */
export const MAX_PROLOG_CHARS = 64 * 1024;

/**
 * The shell of a streaming scanner that keeps the raw text of the unit being read (for
 * byte-faithful write-back): saxes with its namespace handling off (resolved here in O(1) per
 * element), malformed XML as FormatError with line and column, DOCTYPE internal subsets refused,
 * the prolog and each unit bounded, nesting limited. Subclasses see elements with their offsets in
 * the decoded text, push what they read to `units`, and set `holdFrom` to the start of the unit
 * being read (-1 between units) so that the raw text from there on is kept.
 */
export abstract class RawXmlScanner<S> {
  readonly raw = new RawWindow();
  readonly units: S[] = [];
  protected readonly parser = shapedSaxesParser();
  private readonly namespaces = new NamespaceScope();
  /** Per open element, the prefixes it declared (its depth is this stack's length). */
  private readonly declaredStack: (string[] | null)[] = [];
  protected readonly maxDepth: number;
  protected sawRoot = false;
  protected failure: FormatError | null = null;
  /** Start of the unit being read (its raw text is kept from there on), -1 between units. */
  protected holdFrom = -1;
  private lastMarkupEnd = 0;
  private xmlnsAttribute = false;

  constructor(
    maxDepth: number | undefined,
    private readonly maxUnitChars: number,
  ) {
    this.maxDepth = maxDepth ?? DEFAULT_MAX_DEPTH;
    const parser = this.parser;
    parser.on('error', (error) => {
      // saxes prefixes its messages with line:column; we report those separately.
      const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
      this.failure ??= new FormatError(`malformed XML: ${message}`, { line: parser.line, column: parser.column + 1 });
    });
    parser.on('doctype', (doctype) => {
      this.lastMarkupEnd = parser.position;
      if (doctype.includes('[')) this.fail('a DOCTYPE with an internal subset (entity declarations) is refused');
    });
    parser.on('xmldecl', () => (this.lastMarkupEnd = parser.position));
    parser.on('comment', () => (this.lastMarkupEnd = parser.position));
    parser.on('processinginstruction', () => (this.lastMarkupEnd = parser.position));
    parser.on('cdata', (text) => {
      this.lastMarkupEnd = parser.position;
      if (!this.failure) this.onText(text);
    });
    parser.on('text', (text) => {
      if (!this.failure) this.onText(text);
    });
    parser.on('attribute', (attribute) => {
      if (attribute.name.startsWith('xmlns')) this.xmlnsAttribute = true;
    });
    parser.on('opentag', (plain) => {
      if (!this.failure) this.open(plain);
    });
    parser.on('closetag', () => {
      if (!this.failure) this.close();
    });
  }

  /** Text or CDATA content (entity references decoded). */
  protected abstract onText(text: string): void;
  /** An element opened: `start` is the offset of its `<`, `end` the offset after its start tag; `depth` counts from 1 (the root). */
  protected abstract onOpen(tag: Tag, start: number, end: number, depth: number): void;
  /** The element at `depth` closed; `end` is the offset after its end tag (after `/>` when self-closing). */
  protected abstract onClose(end: number, depth: number): void;
  /** What the unit being read is called in the size-limit message, e.g. `unit "u1"`. */
  protected abstract heldUnitName(): string;

  protected fail(message: string): void {
    this.failure ??= new FormatError(message, { line: this.parser.line, column: this.parser.column + 1 });
  }

  /** The unit being held ends at `end`: refused when it was over the size limit (else only checked per chunk). */
  protected releaseHold(end: number): void {
    if (this.holdFrom >= 0 && end - this.holdFrom > this.maxUnitChars) {
      this.fail(`${this.heldUnitName()} is larger than ${this.maxUnitChars} characters`);
    }
    this.holdFrom = -1;
  }

  /** Offset of the `<` starting the markup that ends at `end`. */
  protected markupStart(end: number): number {
    return this.raw.lastIndexOf('<', end);
  }

  private open(plain: SaxesTagPlain): void {
    const end = this.parser.position;
    this.lastMarkupEnd = end;
    const xmlnsAttribute = this.xmlnsAttribute;
    this.xmlnsAttribute = false;
    if (this.declaredStack.length >= this.maxDepth) {
      return this.fail(`elements are nested deeper than ${this.maxDepth} levels (the import's nesting limit)`);
    }
    const attributes = plain.attributes as Record<string, string>;
    const declared = xmlnsAttribute ? this.namespaces.declare(attributes) : null;
    const { name } = plain;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const uri = this.namespaces.resolve(prefix);
    if (uri === undefined || (prefix !== '' && uri === '')) {
      if (declared) this.namespaces.undeclare(declared);
      return this.fail(`malformed XML: unbound namespace prefix "${prefix}"`);
    }
    this.declaredStack.push(declared);
    const tag: Tag = { name, prefix, local: colon < 0 ? name : name.slice(colon + 1), uri, attributes, isSelfClosing: plain.isSelfClosing };
    this.onOpen(tag, this.markupStart(end), end, this.declaredStack.length);
  }

  private close(): void {
    const end = this.parser.position;
    this.lastMarkupEnd = end;
    const depth = this.declaredStack.length;
    const declared = this.declaredStack.pop();
    if (declared) this.namespaces.undeclare(declared);
    this.onClose(end, depth);
  }

  push(chunk: string): void {
    this.raw.append(chunk);
    this.parser.write(chunk);
    if (this.failure) throw this.failure;
    if (!this.sawRoot && this.parser.position > MAX_PROLOG_CHARS) {
      throw new FormatError(`no root element in the first ${MAX_PROLOG_CHARS} characters`);
    }
    if (this.holdFrom >= 0 && this.raw.end - this.holdFrom > this.maxUnitChars) {
      throw new FormatError(`${this.heldUnitName()} is larger than ${this.maxUnitChars} characters`);
    }
  }

  end(): void {
    this.parser.close();
    if (this.failure) throw this.failure;
    if (!this.sawRoot) throw new FormatError('the file has no root element');
  }

  /** Everything before this offset is no longer needed by the scanner. */
  get retainFrom(): number {
    if (this.holdFrom >= 0) return this.holdFrom;
    const lt = this.raw.lastIndexOf('<', this.raw.end);
    // A '<' after the last complete markup is the start of a tag not read in full yet.
    if (lt >= this.lastMarkupEnd) return lt;
    return Math.min(this.parser.position, this.raw.end);
  }
}

/** Default nesting limit (FilterOptions.maxDepth). */
export const DEFAULT_MAX_DEPTH = 512;

/** A change to the original text: the decoded characters [start, end) become `text`. */
export interface RawEdit {
  start: number;
  end: number;
  text: string;
}

/** The units of a scanner over `input`, in batches (one per chunk of the file or so). */
export async function* scanBatches<S, U>(input: Readable, scanner: RawXmlScanner<S>, unitOf: (scanned: S) => U | U[]): AsyncGenerator<U[]> {
  const { chunks } = await decodeStream(input, chooseXmlEncoding);
  const take = (): U[] => scanner.units.splice(0).flatMap((scanned) => unitOf(scanned));
  for await (const chunk of chunks) {
    scanner.push(chunk);
    if (scanner.units.length > 0) {
      const batch = take();
      if (batch.length > 0) yield batch;
    }
    scanner.raw.dropBefore(scanner.retainFrom);
  }
  scanner.end();
  const batch = take();
  if (batch.length > 0) yield batch;
}

/**
 * Streams `original` to `output` through `scanner`, applying the edits `editsOf` returns after
 * each chunk (in increasing order of offset, within text the scanner still holds: a unit's edits
 * when the unit is complete, a root attribute as soon as its start tag was read). Everything else
 * is copied as it was, in the file's encoding and with its BOM. Ends `output`.
 */
export async function rewriteXml<S>(
  original: Readable,
  output: Writable,
  scanner: RawXmlScanner<S>,
  editsOf: (enc: TextEncoding) => RawEdit[],
): Promise<void> {
  const { encoding: enc, chunks } = await decodeStream(original, chooseXmlEncoding);
  let flushed = 0;
  /** What goes out for the current chunk, encoded and written at once (one buffer per chunk, not per edit). */
  let pending: string[] = [];
  const emit = (upTo: number): void => {
    if (upTo <= flushed) return;
    pending.push(scanner.raw.slice(flushed, upTo));
    flushed = upTo;
  };
  const apply = (): void => {
    for (const edit of editsOf(enc)) {
      emit(edit.start);
      if (edit.text !== '') pending.push(edit.text);
      flushed = Math.max(flushed, edit.end);
    }
  };
  const take = (): Buffer | null => {
    if (pending.length === 0) return null;
    const text = pending.length === 1 ? pending[0]! : pending.join('');
    pending = [];
    return text === '' ? null : encodeText(text, enc);
  };
  async function* rewritten(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    for await (const chunk of chunks) {
      scanner.push(chunk);
      apply();
      emit(scanner.retainFrom);
      scanner.raw.dropBefore(flushed);
      const out = take();
      if (out) yield out;
    }
    scanner.end();
    apply();
    emit(scanner.raw.end);
    const out = take();
    if (out) yield out;
  }
  await pipeline(rewritten(), output);
}

/** One attribute in a start tag's raw text: where its name starts and its value lies (quotes excluded). */
interface RawAttribute {
  name: string;
  start: number;
  valueStart: number;
  valueEnd: number;
  quote: string;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** The attributes of a well-formed start tag (`<name a="1" b='2'>` or `/>`), in order; one linear pass. */
function rawAttributes(tag: string): { attributes: RawAttribute[]; lastEnd: number } {
  const attributes: RawAttribute[] = [];
  let i = 1;
  while (i < tag.length && !isSpace(tag.charCodeAt(i)) && tag[i] !== '>' && tag[i] !== '/') i++;
  let lastEnd = i;
  for (;;) {
    while (i < tag.length && isSpace(tag.charCodeAt(i))) i++;
    if (i >= tag.length || tag[i] === '>' || tag[i] === '/') break;
    const start = i;
    while (i < tag.length && tag[i] !== '=' && !isSpace(tag.charCodeAt(i))) i++;
    const name = tag.slice(start, i);
    while (i < tag.length && tag[i] !== '"' && tag[i] !== "'") i++;
    const quote = tag[i] ?? '"';
    const valueStart = i + 1;
    const valueEnd = tag.indexOf(quote, valueStart);
    if (valueEnd < 0) break;
    attributes.push({ name, start, valueStart, valueEnd, quote });
    i = valueEnd + 1;
    lastEnd = i;
  }
  return { attributes, lastEnd };
}

/** An attribute value escaped for the quote it sits in. */
function quotedValue(value: string, quote: string): string {
  const escaped = escapeXmlAttribute(value);
  return quote === "'" ? escaped.replace(/'/g, '&apos;') : escaped;
}

/**
 * A start tag's raw text with attributes set: an existing attribute's value is replaced where it
 * stands (its quotes kept), a new one is added after the last attribute as ` name="value"`.
 * Everything else (spacing, line breaks, quoting, order) stays as it was.
 */
export function setRawAttributes(tag: string, values: readonly (readonly [string, string])[]): string {
  if (values.length === 0) return tag;
  const { attributes, lastEnd } = rawAttributes(tag);
  const replacements: { at: number; end: number; text: string }[] = [];
  let added = '';
  for (const [name, value] of values) {
    const existing = attributes.find((attribute) => attribute.name === name);
    if (existing) replacements.push({ at: existing.valueStart, end: existing.valueEnd, text: quotedValue(value, existing.quote) });
    else added += ` ${name}="${quotedValue(value, '"')}"`;
  }
  if (added) replacements.push({ at: lastEnd, end: lastEnd, text: added });
  replacements.sort((a, b) => a.at - b.at);
  let out = '';
  let at = 0;
  for (const r of replacements) {
    out += tag.slice(at, r.at) + r.text;
    at = r.end;
  }
  return out + tag.slice(at);
}

/** Whether `text` is only XML white space (an empty string is). */
export function isXmlSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}
