import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { encoding, encodeText } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { LineSplitter } from './gettext-po.js';
import type { SourceLine } from './gettext-po.js';
import { compileTagRegexp, restoreTags, tagsByPattern } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';

/**
 * Java properties files (`.properties`); docs/formats/gettext-and-properties.md.
 *
 * The syntax of `java.util.Properties.load`: `key=value`, `key: value` or `key value`, logical lines
 * continued by an odd number of backslashes at the end, `#` and `!` comment lines, `\uXXXX` and
 * the other escapes. Every key with a value that is not blank is a unit: key = the key
 * (unescaped), locator = the line number where the entry starts, source = the value (unescaped),
 * note = the comment lines right above it. Write-back replaces only the value of a translated
 * entry (from its first character to the end of its last line); everything else stays byte for
 * byte, and a translation equal to the value leaves the entry as it was.
 *
 * Encoding: a UTF-8 BOM, or bytes that are valid UTF-8 with some non-ASCII character, make a
 * UTF-8 file (what Java 9+ `PropertyResourceBundle` reads); other non-ASCII bytes make an
 * ISO-8859-1 file (what `Properties.load(InputStream)` reads); an all-ASCII file stays ASCII on
 * write (anything beyond is written `\uXXXX`, as `Properties.store` does).
 */

/** The largest file accepted (it is read whole to tell UTF-8 from ISO-8859-1). */
export const MAX_PROPERTIES_BYTES = 50 * 1024 * 1024;
/** A logical line (an entry with its continuation lines) longer than this is refused. */
export const MAX_PROPERTIES_ENTRY_CHARS = 10_000_000;
/** Characters of decoded text per batch of units. */
const BATCH_CHARS = 16 * 1024;

type PropertiesCharset = 'utf-8' | 'latin1' | 'ascii';

function isJavaSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0c;
}

/** One logical line: an entry (key and value) or a run of lines kept as they are. */
interface Entry {
  lines: SourceLine[];
  /** The logical line's text (continuations joined, their leading white space and backslashes removed). */
  logical: string;
  /** Per line: where its part starts in `logical`, and in the line's own content. */
  logicalStarts: number[];
  rawStarts: number[];
  key: string;
  value: string;
  /** Where the value starts in `logical`. */
  valueStart: number;
  /** The comment lines right above (markers removed). */
  comments: string[];
}

type Piece = { kind: 'verbatim'; line: SourceLine } | { kind: 'entry'; entry: Entry };

function trailingBackslashes(text: string): number {
  let count = 0;
  for (let i = text.length - 1; i >= 0 && text.charCodeAt(i) === 0x5c; i--) count++;
  return count;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

/** `text[from, to)` with the escapes of Properties.load decoded. */
function unescape(text: string, from: number, to: number, line: number): string {
  if (text.indexOf('\\', from) === -1 || text.indexOf('\\', from) >= to) return text.slice(from, to);
  let out = '';
  let runStart = from;
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) !== 0x5c) continue;
    out += text.slice(runStart, i);
    i++;
    if (i >= to) {
      runStart = to;
      break;
    }
    const c = text[i]!;
    if (c === 'u') {
      let value = 0;
      for (let k = 1; k <= 4; k++) {
        const digit = i + k < to ? hexValue(text.charCodeAt(i + k)) : -1;
        if (digit < 0) throw new FormatError('malformed \\uxxxx escape', { line });
        value = value * 16 + digit;
      }
      out += String.fromCharCode(value);
      i += 4;
    } else out += c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'f' ? '\f' : c;
    runStart = i + 1;
  }
  return out + text.slice(runStart, to);
}

/** Splits a logical line into key and value as Properties.load does. */
function keyAndValue(logical: string, line: number): { key: string; value: string; valueStart: number } {
  let i = 0;
  while (i < logical.length && isJavaSpace(logical.charCodeAt(i))) i++;
  const keyStart = i;
  let keyEnd = logical.length;
  for (; i < logical.length; i++) {
    const c = logical.charCodeAt(i);
    if (c === 0x5c) {
      i++;
      continue;
    }
    if (c === 0x3d || c === 0x3a || isJavaSpace(c)) {
      keyEnd = i;
      break;
    }
  }
  let v = Math.min(keyEnd, logical.length);
  while (v < logical.length && isJavaSpace(logical.charCodeAt(v))) v++;
  if (v < logical.length && (logical.charCodeAt(v) === 0x3d || logical.charCodeAt(v) === 0x3a)) {
    v++;
    while (v < logical.length && isJavaSpace(logical.charCodeAt(v))) v++;
  }
  return {
    key: unescape(logical, keyStart, Math.min(keyEnd, logical.length), line),
    value: unescape(logical, v, logical.length, line),
    valueStart: v,
  };
}

/** Groups natural lines into logical lines: entries, comments and blank lines. */
class EntryReader {
  private lines: SourceLine[] = [];
  private parts: string[] = [];
  private logicalLength = 0;
  private logicalStarts: number[] = [];
  private rawStarts: number[] = [];
  private comments: string[] = [];

  add(line: SourceLine, into: Piece[]): void {
    const text = line.content;
    let at = 0;
    while (at < text.length && isJavaSpace(text.charCodeAt(at))) at++;
    if (this.lines.length === 0) {
      if (at === text.length) {
        this.comments = [];
        into.push({ kind: 'verbatim', line });
        return;
      }
      const first = text.charCodeAt(at);
      if (first === 0x23 || first === 0x21) {
        const body = text.slice(at + 1);
        this.comments.push(body.startsWith(' ') ? body.slice(1) : body);
        into.push({ kind: 'verbatim', line });
        return;
      }
    }
    const continued = trailingBackslashes(text) % 2 === 1;
    const part = text.slice(at, continued ? text.length - 1 : text.length);
    this.lines.push(line);
    this.logicalStarts.push(this.logicalLength);
    this.rawStarts.push(at);
    this.parts.push(part);
    this.logicalLength += part.length;
    if (this.logicalLength > MAX_PROPERTIES_ENTRY_CHARS) {
      throw new FormatError(`an entry is longer than ${MAX_PROPERTIES_ENTRY_CHARS} characters`, { line: this.lines[0]!.number });
    }
    if (!continued) this.flush(into);
  }

  end(into: Piece[]): void {
    // A backslash at the very end continues nothing: the entry ends with the file.
    if (this.lines.length > 0) this.flush(into);
  }

  private flush(into: Piece[]): void {
    const logical = this.parts.join('');
    const number = this.lines[0]!.number;
    const { key, value, valueStart } = keyAndValue(logical, number);
    into.push({
      kind: 'entry',
      entry: {
        lines: this.lines,
        logical,
        logicalStarts: this.logicalStarts,
        rawStarts: this.rawStarts,
        key,
        value,
        valueStart,
        comments: this.comments,
      },
    });
    this.lines = [];
    this.parts = [];
    this.logicalLength = 0;
    this.logicalStarts = [];
    this.rawStarts = [];
    this.comments = [];
  }
}

/** Reads the whole file (bounded), and tells its charset. */
async function readWhole(input: Readable): Promise<{ text: string; charset: PropertiesCharset; enc: TextEncoding }> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of input as AsyncIterable<unknown>) {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.from(chunk as Uint8Array);
    total += bytes.length;
    if (total > MAX_PROPERTIES_BYTES) throw new FormatError(`the file is larger than ${MAX_PROPERTIES_BYTES} bytes`);
    parts.push(bytes);
  }
  const bytes = Buffer.concat(parts);
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw new FormatError('properties files in UTF-16 are not supported');
  }
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  let ascii = true;
  for (let i = 0; i < body.length; i++) {
    if (body[i]! > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii)
    return {
      text: body.toString('latin1'),
      charset: bom ? 'utf-8' : 'ascii',
      enc: bom ? encoding('utf-8', bytes.subarray(0, 3)) : encoding('latin1'),
    };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    return { text, charset: 'utf-8', enc: encoding('utf-8', bom ? bytes.subarray(0, 3) : Buffer.alloc(0)) };
  } catch {
    if (bom) throw new FormatError('the file starts with a UTF-8 byte order mark but is not valid UTF-8');
    return { text: body.toString('latin1'), charset: 'latin1', enc: encoding('latin1') };
  }
}

/** The file's pieces in batches (one per slice of the text). */
function* pieceBatches(text: string): Generator<Piece[]> {
  const splitter = new LineSplitter(MAX_PROPERTIES_ENTRY_CHARS);
  const reader = new EntryReader();
  for (let at = 0; at < text.length; at += BATCH_CHARS) {
    const lines: SourceLine[] = [];
    splitter.push(text.slice(at, at + BATCH_CHARS), lines);
    const batch: Piece[] = [];
    for (const line of lines) reader.add(line, batch);
    if (batch.length > 0) yield batch;
  }
  const lines: SourceLine[] = [];
  splitter.end(lines);
  const last: Piece[] = [];
  for (const line of lines) reader.add(line, last);
  reader.end(last);
  if (last.length > 0) yield last;
}

function isUnit(entry: Entry): boolean {
  return entry.value.trim() !== '';
}

function tagRegexpOf(options: FilterOptions): string | undefined {
  const fromSettings = options.formatSettings?.tagRegexp;
  return typeof fromSettings === 'string' && fromSettings !== '' ? fromSettings : options.tagRegexp;
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const pattern = compileTagRegexp(tagRegexpOf(options));
  const { text } = await readWhole(input);
  let index = 0;
  for (const batch of pieceBatches(text)) {
    const units: TextUnit[] = [];
    for (const piece of batch) {
      if (piece.kind !== 'entry' || !isUnit(piece.entry)) continue;
      const { entry } = piece;
      const { source, tags } = tagsByPattern(entry.value, pattern);
      units.push({
        index: index++,
        key: entry.key,
        locator: String(entry.lines[0]!.number),
        source,
        tags,
        target: null,
        translatable: true,
        note: entry.comments.length > 0 ? entry.comments.join('\n') : null,
      });
    }
    if (units.length > 0) yield units;
  }
}

function hex4(code: number): string {
  return '\\u' + code.toString(16).toUpperCase().padStart(4, '0');
}

/** A value as a properties file holds it: escapes for `\`, line breaks, tabs, a leading space, and characters the charset lacks. */
export function escapePropertiesValue(value: string, charset: PropertiesCharset): string {
  const highest = charset === 'ascii' ? 0x7e : charset === 'latin1' ? 0xff : Infinity;
  let out = '';
  let runStart = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const leadingSpace = c === 0x20 && i === 0;
    if (c >= 0x20 && c !== 0x5c && c <= highest && c !== 0x7f && !leadingSpace) continue;
    out += value.slice(runStart, i);
    runStart = i + 1;
    if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0c) out += '\\f';
    else if (leadingSpace) out += '\\ ';
    else out += hex4(c);
  }
  return out + value.slice(runStart);
}

/** Where the value starts in the entry's raw lines: line index and column. */
function valuePosition(entry: Entry): { line: number; column: number } {
  let line = 0;
  for (let i = entry.logicalStarts.length - 1; i >= 0; i--) {
    if (entry.logicalStarts[i]! <= entry.valueStart) {
      line = i;
      break;
    }
  }
  return { line, column: entry.rawStarts[line]! + (entry.valueStart - entry.logicalStarts[line]!) };
}

function rawText(entry: Entry): string {
  let out = '';
  for (const line of entry.lines) out += line.content + line.eol;
  return out;
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const pattern = compileTagRegexp(tagRegexpOf(options));
  const { text, charset, enc } = await readWhole(original);
  function* rewritten(): Generator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    for (const batch of pieceBatches(text)) {
      let out = '';
      for (const piece of batch) {
        if (piece.kind === 'verbatim') {
          out += piece.line.content + piece.line.eol;
          continue;
        }
        const { entry } = piece;
        const translation = isUnit(entry) ? translations.get(String(entry.lines[0]!.number)) : undefined;
        if (translation === undefined) {
          out += rawText(entry);
          continue;
        }
        const value = restoreTags(translation.text, tagsByPattern(entry.value, pattern).tags);
        if (value === entry.value) {
          out += rawText(entry);
          continue;
        }
        const { line, column } = valuePosition(entry);
        for (let i = 0; i < line; i++) out += entry.lines[i]!.content + entry.lines[i]!.eol;
        const last = entry.lines[entry.lines.length - 1]!;
        out += entry.lines[line]!.content.slice(0, column) + escapePropertiesValue(value, charset) + last.eol;
      }
      if (out !== '') yield encodeText(out, enc);
    }
  }
  await pipeline(rewritten(), output);
}

export const javaPropertiesFilter: FormatFilter = {
  name: 'java-properties',
  extensions: ['properties'],
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};
