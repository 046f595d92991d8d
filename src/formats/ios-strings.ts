import type { Readable, Writable } from 'node:stream';
import { decodeStream, encoding, encodingFromBom, writeEdits } from './encoding.js';
import type { TextEdit, TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags, tagsByPattern } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';

/**
 * Apple `.strings` files (iOS, macOS): `"key" = "value";` entries in the old-style property list
 * syntax, with `/* … *\/` and `//` comments. Every entry with a non-blank value is a unit: key =
 * the entry's key, locator = the key (a repeated key's later entries get `key#2`, `key#3`, … —
 * numbers no key of the file takes), note = the comments between the previous entry and this one
 * (Xcode's "No comment provided by engineer." left out). printf-style format specifiers (`%@`,
 * `%d`, `%1$@`, `%.2f`, `%lld`, `%%`, `%#@var@`) are standalone tags.
 *
 * Encoding: UTF-8 or UTF-16 (by BOM, or without one by the zero bytes of the first characters);
 * Xcode used to write UTF-16LE with a BOM. Write-back splices the translated values (always
 * double-quoted, escaped) and keeps every other byte, the BOM and the encoding.
 */

export const DEFAULT_MAX_STRINGS_BYTES = 50 * 1024 * 1024;

export interface IosStringsFilterOptions extends FilterOptions {
  maxStringsBytes?: number;
}

/** printf / NSString format specifiers, and stringsdict variables (`%#@files@`). */
const FORMAT_SPECIFIER = String.raw`%#@[A-Za-z_][A-Za-z0-9_]{0,100}@|%(?:\d{1,3}\$)?[-+0#]{0,4}(?:\d{1,5}|\*(?:\d{1,3}\$)?)?(?:\.(?:\d{1,5}|\*(?:\d{1,3}\$)?))?(?:hh|h|ll|l|q|L|z|t|j)?[@dDiuUxXoOfFeEgGcCsSaAp%]`;

const XCODE_NO_COMMENT = 'No comment provided by engineer.';

interface StringsEntry {
  key: string;
  locator: string;
  value: string;
  note: string | null;
  /** Raw range of the value literal (quotes included). */
  start: number;
  end: number;
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** UTF-16 without a BOM shows as zero bytes in every other place of ASCII text. */
export function chooseStringsEncoding(head: Buffer): TextEncoding {
  const bom = encodingFromBom(head);
  if (bom) return bom;
  if (head.length >= 4) {
    if (head[0] !== 0 && head[1] === 0 && head[2] !== 0 && head[3] === 0) return encoding('utf-16le');
    if (head[0] === 0 && head[1] !== 0 && head[2] === 0 && head[3] !== 0) return encoding('utf-16be');
  }
  return encoding('utf-8');
}

const UNQUOTED = /[A-Za-z0-9_$+/:.-]/;
const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '"': '"',
  "'": "'",
  '\\': '\\',
};

/** Reads the entries of a `.strings` file; throws FormatError with line and column. */
export class StringsScanner {
  private at = 0;
  private comments: string[] = [];
  /** Where the previous entry's `;` ended: a comment starting on its line belongs to it. */
  private lastEntryLineEnd = -1;

  constructor(private readonly text: string) {}

  private fail(message: string, at = this.at): never {
    throw new FormatError(`malformed .strings file: ${message}`, positionOf(this.text, at));
  }

  /**
   * Skips white space and comments, keeping the comments that may describe the next entry: those
   * not separated from it by a blank line (a file's header comment is not the first entry's note).
   */
  private skip(): void {
    const text = this.text;
    let breaks = 0;
    for (;;) {
      const code = text.charCodeAt(this.at);
      if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0xfeff) {
        if (code === 0x0a && ++breaks === 2) this.comments = [];
        this.at += 1;
        continue;
      }
      breaks = 0;
      if (code !== 0x2f) return;
      const next = text.charCodeAt(this.at + 1);
      let content: string;
      const start = this.at;
      if (next === 0x2a) {
        const end = text.indexOf('*/', this.at + 2);
        if (end === -1) this.fail('unterminated comment');
        content = text.slice(this.at + 2, end);
        this.at = end + 2;
      } else if (next === 0x2f) {
        let end = text.indexOf('\n', this.at + 2);
        if (end === -1) end = text.length;
        content = text.slice(this.at + 2, end);
        this.at = end;
      } else return;
      if (start < this.lastEntryLineEnd) continue; // a trailing comment of the previous entry
      const trimmed = content.trim();
      if (trimmed !== '' && trimmed !== XCODE_NO_COMMENT) this.comments.push(trimmed);
    }
  }

  private readString(): { value: string; start: number; end: number } {
    const text = this.text;
    const start = this.at;
    if (text[start] !== '"') {
      let end = start;
      while (end < text.length && UNQUOTED.test(text[end]!)) end += 1;
      if (end === start) this.fail(start >= text.length ? 'unexpected end of file' : `unexpected character "${text[start]}"`);
      this.at = end;
      return { value: text.slice(start, end), start, end };
    }
    let value = '';
    let last = start + 1;
    let i = start + 1;
    for (;;) {
      const code = text.charCodeAt(i);
      if (Number.isNaN(code)) this.fail('unterminated string', start);
      if (code === 0x22) break;
      if (code !== 0x5c) {
        i += 1;
        continue;
      }
      value += text.slice(last, i);
      const escape = text[i + 1];
      if (escape === undefined) this.fail('unterminated string', start);
      if (escape === 'U' || escape === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\U escape', i);
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (escape >= '0' && escape <= '7') {
        let digits = 1;
        while (digits < 3 && /[0-7]/.test(text[i + 1 + digits] ?? '')) digits += 1;
        value += String.fromCharCode(parseInt(text.slice(i + 1, i + 1 + digits), 8));
        i += 1 + digits;
      } else {
        value += SIMPLE_ESCAPES[escape] ?? escape;
        i += 2;
      }
      last = i;
    }
    value += text.slice(last, i);
    this.at = i + 1;
    return { value, start, end: this.at };
  }

  /** The next entry (key, value, the comments before it), or null at the end of the file. */
  next(): { key: string; value: string; start: number; end: number; note: string | null; keyAt: number } | null {
    this.skip();
    if (this.at >= this.text.length) return null;
    const keyAt = this.at;
    const key = this.readString().value;
    const note = this.comments.length ? this.comments.join('\n') : null;
    this.comments = [];
    this.skip();
    let value: { value: string; start: number; end: number };
    if (this.text[this.at] === ';') value = { value: key, start: -1, end: -1 };
    else {
      if (this.text[this.at] !== '=') this.fail('expected "=" or ";"');
      this.at += 1;
      this.skip();
      value = this.readString();
      this.skip();
      if (this.text[this.at] !== ';') this.fail('expected ";"');
    }
    this.comments = [];
    this.at += 1;
    const lineEnd = this.text.indexOf('\n', this.at);
    this.lastEntryLineEnd = lineEnd === -1 ? this.text.length : lineEnd;
    return { key, ...value, note, keyAt };
  }
}

/** Every entry with a non-blank value, with unique locators. */
function scanStrings(text: string): StringsEntry[] {
  const scanner = new StringsScanner(text);
  const raw: Array<NonNullable<ReturnType<StringsScanner['next']>>> = [];
  for (let entry = scanner.next(); entry; entry = scanner.next()) raw.push(entry);
  const keys = new Set(raw.map((entry) => entry.key));
  const used = new Set<string>();
  const counts = new Map<string, number>();
  const entries: StringsEntry[] = [];
  for (const entry of raw) {
    let locator = entry.key;
    if (used.has(locator)) {
      let n = counts.get(entry.key) ?? 1;
      do n += 1;
      while (keys.has(`${entry.key}#${n}`) || used.has(`${entry.key}#${n}`));
      counts.set(entry.key, n);
      locator = `${entry.key}#${n}`;
    }
    used.add(locator);
    if (entry.start === -1 || entry.value.trim() === '') continue;
    entries.push({ key: entry.key, locator, value: entry.value, note: entry.note, start: entry.start, end: entry.end });
  }
  return entries;
}

/** A value as a double-quoted .strings literal. */
export function quoteStrings(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    const code = value.charCodeAt(i);
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\U${code.toString(16).padStart(4, '0').toUpperCase()}`;
    else out += char;
  }
  return `${out}"`;
}

async function readWhole(input: Readable, options: IosStringsFilterOptions): Promise<{ enc: TextEncoding; text: string }> {
  const limit = options.maxStringsBytes ?? DEFAULT_MAX_STRINGS_BYTES;
  const { encoding: enc, chunks } = await decodeStream(input, chooseStringsEncoding, {
    limitBytes: limit,
    tooLarge: `the .strings file is larger than ${limit} bytes`,
  });
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { enc, text: parts.join('') };
}

function tagPatternOf(options: FilterOptions): RegExp {
  const setting = options.formatSettings?.tagRegexp;
  const custom = compileTagRegexp(options.tagRegexp ?? (typeof setting === 'string' ? setting : undefined));
  return new RegExp(custom ? `${FORMAT_SPECIFIER}|(?:${custom.source})` : FORMAT_SPECIFIER, 'gu');
}

const BATCH_UNITS = 1024;

async function* parseBatches(input: Readable, options: IosStringsFilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const pattern = tagPatternOf(options);
  const { text } = await readWhole(input, options);
  const entries = scanStrings(text);
  for (let at = 0; at < entries.length; at += BATCH_UNITS) {
    yield entries.slice(at, at + BATCH_UNITS).map((entry, i) => {
      const { source, tags } = tagsByPattern(entry.value, pattern);
      return { index: at + i, key: entry.key, locator: entry.locator, source, tags, target: null, translatable: true, note: entry.note };
    });
  }
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: IosStringsFilterOptions = {},
): Promise<void> {
  const pattern = tagPatternOf(options);
  const { enc, text } = await readWhole(original, options);
  const entries = scanStrings(text);
  function* edits(): Generator<TextEdit> {
    for (const entry of entries) {
      const translation = translations.get(entry.locator);
      if (!translation) continue;
      const value = restoreTags(translation.text, tagsByPattern(entry.value, pattern).tags);
      if (value === entry.value) continue;
      yield { start: entry.start, end: entry.end, text: quoteStrings(value) };
    }
  }
  await writeEdits(text, edits(), enc, output);
}

/** `"key" = "` after comments and white space. */
const DETECT = /^(?:\s+|\/\*[^]*?\*\/|\/\/[^\n]*\n)*"(?:[^"\\\n]|\\.)*"\s*=\s*"/;

export const iosStringsFilter: FormatFilter = {
  name: 'ios-strings',
  extensions: ['strings'],
  detect(firstBytes) {
    const enc = chooseStringsEncoding(firstBytes);
    const body = firstBytes.subarray(enc.bom.length);
    let head: string;
    if (enc.name === 'utf-16le') head = body.subarray(0, body.length & ~1).toString('utf16le');
    else if (enc.name === 'utf-16be')
      head = Buffer.from(body.subarray(0, body.length & ~1))
        .swap16()
        .toString('utf16le');
    else head = body.toString('utf8');
    return DETECT.test(head);
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};
