import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText, encoding } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, inlineTag, restoreTags } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';

/**
 * GNU gettext PO and POT files (`.po`, `.pot`); docs/formats/gettext-and-properties.md.
 *
 * Each entry gives one unit for `msgid` (target `msgstr`, or `msgstr[0]` for a plural entry) and,
 * for a plural entry, one more for `msgid_plural` (target `msgstr[1]`). The locator is the line
 * number of the entry's `msgid` keyword (`<line>`, `<line>:plural`). The header entry, obsolete
 * `#~` entries and comments are no units and are copied byte for byte. Write-back replaces only the
 * `msgstr` lines (and the `#,` flags line when `fuzzy` changes) of the entries it translates, and the
 * header's `Language`, `Plural-Forms` and charset when it writes any translation.
 */

/** An entry (comments and strings) longer than this is refused: it is held in memory whole. */
export const MAX_PO_ENTRY_CHARS = 10_000_000;
/** How much of the file's start is searched for the header's `charset=`. */
const CHARSET_HEAD_BYTES = 64 * 1024;
/** Characters of decoded text per batch of pieces. */
const BATCH_CHARS = 16 * 1024;

// ---------------------------------------------------------------------------------------------
// Lines

export interface SourceLine {
  /** 1-based line number. */
  number: number;
  content: string;
  /** `\r\n`, `\n`, `\r`, or '' for a last line without a terminator. */
  eol: string;
}

/** Cuts decoded text into lines as it comes, each character looked at once; `maxChars` bounds a line. */
export class LineSplitter {
  private pending: string[] = [];
  private pendingChars = 0;
  private carriageReturn = false;
  private number = 0;

  constructor(private readonly maxChars: number) {}

  push(text: string, into: SourceLine[]): void {
    let start = 0;
    if (this.carriageReturn) {
      this.carriageReturn = false;
      const crlf = text.charCodeAt(0) === 0x0a;
      this.emit('', crlf ? '\r\n' : '\r', into);
      start = crlf ? 1 : 0;
    }
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 0x0a && code !== 0x0d) continue;
      if (code === 0x0d && i === text.length - 1) {
        this.keep(text.slice(start, i));
        this.carriageReturn = true;
        return;
      }
      const eol = code === 0x0a ? '\n' : text.charCodeAt(i + 1) === 0x0a ? '\r\n' : '\r';
      this.emit(text.slice(start, i), eol, into);
      i += eol.length - 1;
      start = i + 1;
    }
    this.keep(text.slice(start));
  }

  end(into: SourceLine[]): void {
    if (this.carriageReturn) this.emit('', '\r', into);
    else if (this.pendingChars > 0) this.emit('', '', into);
  }

  private keep(part: string): void {
    if (part !== '') this.pending.push(part);
    this.pendingChars += part.length;
    if (this.pendingChars > this.maxChars) {
      throw new FormatError(`a line is longer than ${this.maxChars} characters`, { line: this.number + 1 });
    }
  }

  private emit(last: string, eol: string, into: SourceLine[]): void {
    const content = this.pending.length === 0 ? last : this.pending.join('') + last;
    this.pending = [];
    this.pendingChars = 0;
    into.push({ number: ++this.number, content, eol });
  }
}

/** The decoded text's lines in batches (one per slice of a chunk), then the last line. */
export async function* lineBatches(chunks: AsyncIterable<string>, maxChars: number): AsyncGenerator<SourceLine[]> {
  const splitter = new LineSplitter(maxChars);
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += BATCH_CHARS) {
      const lines: SourceLine[] = [];
      splitter.push(chunk.length <= BATCH_CHARS ? chunk : chunk.slice(at, at + BATCH_CHARS), lines);
      if (lines.length > 0) yield lines;
    }
  }
  const lines: SourceLine[] = [];
  splitter.end(lines);
  if (lines.length > 0) yield lines;
}

// ---------------------------------------------------------------------------------------------
// PO strings

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0c || code === 0x0b;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '?': '?',
};

function isOctal(code: number): boolean {
  return code >= 0x30 && code <= 0x37;
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/**
 * The value of the quoted string starting at `at` in `line` (C escapes decoded); nothing but white
 * space may follow it. `column0` is the column of `line`'s first character (for messages).
 */
function quotedString(line: string, at: number, lineNumber: number, column0 = 1): string {
  if (line.charCodeAt(at) !== 0x22) throw new FormatError('a quoted string was expected', { line: lineNumber, column: column0 + at });
  let out = '';
  let runStart = at + 1;
  let i = at + 1;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22) break;
    if (c !== 0x5c) continue;
    out += line.slice(runStart, i);
    const next = line[i + 1];
    if (next === undefined) throw new FormatError('a backslash ends the line inside a string', { line: lineNumber, column: column0 + i });
    const simple = SIMPLE_ESCAPES[next];
    let value: number;
    if (simple !== undefined) {
      out += simple;
      i += 1;
      runStart = i + 1;
      continue;
    }
    let j = i + 1;
    if (isOctal(line.charCodeAt(j))) {
      value = 0;
      for (; j < i + 4 && isOctal(line.charCodeAt(j)); j++) value = value * 8 + (line.charCodeAt(j) - 0x30);
    } else if (next === 'x' && isHex(line.charCodeAt(i + 2))) {
      value = 0;
      for (j = i + 2; j < line.length && isHex(line.charCodeAt(j)); j++) {
        value = value * 16 + parseInt(line[j]!, 16);
        if (value > 0xff) break;
      }
    } else {
      throw new FormatError(`unknown escape sequence \\${next}`, { line: lineNumber, column: column0 + i });
    }
    if (value === 0 || value > 0x7f) {
      throw new FormatError('a numeric escape of a NUL or non-ASCII byte is not supported', { line: lineNumber, column: column0 + i });
    }
    out += String.fromCharCode(value);
    i = j - 1;
    runStart = j;
  }
  if (i >= line.length) throw new FormatError('a string is not closed on its line', { line: lineNumber, column: column0 + at });
  out += line.slice(runStart, i);
  for (let k = i + 1; k < line.length; k++) {
    if (!isSpace(line.charCodeAt(k))) {
      throw new FormatError('unexpected text after a string', { line: lineNumber, column: column0 + k });
    }
  }
  return out;
}

/** A PO string literal's content (without quotes) for `value`. */
export function escapePoString(value: string): string {
  let out = '';
  let runStart = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += value.slice(runStart, i);
    runStart = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x07:
        out += '\\a';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0b:
        out += '\\v';
        break;
      case 0:
        throw new FormatError('a translation contains a NUL character, which a PO string cannot hold');
      default:
        out += '\\' + c.toString(8).padStart(3, '0');
    }
  }
  return out + value.slice(runStart);
}

/** Display columns of a character as msgcat counts them (wide East Asian 2, combining marks 0). */
function columns(code: number): number {
  if (code >= 0x300 && code <= 0x36f) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Characters before which a line may not break even after a space (UAX #14 classes CL, CP, EX, IS, SY). */
function noBreakBefore(code: number): boolean {
  return (
    code === 0x29 || // )
    code === 0x5d || // ]
    code === 0x7d || // }
    code === 0x21 || // !
    code === 0x3f || // ?
    code === 0x2c || // ,
    code === 0x2e || // .
    code === 0x3a || // :
    code === 0x3b || // ;
    code === 0x2f || // /
    code === 0x20
  );
}

/** Letters (as an approximation of UAX #14 class AL). */
function isLetter(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0xc0 && code !== 0xd7 && code !== 0xf7 && code < 0x2000)
  );
}

/**
 * Whether msgcat may break a line between `before` and `code` (a subset of the Unicode line breaking
 * rules it applies): after spaces, after a hyphen before a letter, between a closing and an opening bracket.
 */
function breakBetween(before: number, code: number): boolean {
  if (before === 0x20) return !noBreakBefore(code);
  if (before === 0x2d || before === 0x2f || before === 0x2e || before === 0x3a || before === 0x7c) return isLetter(code);
  if (before === 0x29 || before === 0x5d || before === 0x7d) return code === 0x28 || code === 0x5b || code === 0x7b;
  return false;
}

/** Page width of msgcat (its default `--width`). */
const PAGE_WIDTH = 79;

/**
 * The lines of `keyword "value"` as msgcat writes them: a new line after each `\n`, and lines
 * broken after spaces so that none is wider than 79 columns; with `wrap` false, one line.
 */
export function poStringLines(keyword: string, value: string, wrap: boolean): string[] {
  if (!wrap) return [`${keyword} "${escapePoString(value)}"`];
  const lines: string[] = [];
  // Like msgcat: the width less the closing quote, counted from after the opening quote of a
  // continuation line.
  const width = PAGE_WIDTH - 1 - 1;
  let first = true;
  let s = 0;
  do {
    let es = value.indexOf('\n', s);
    es = es === -1 ? value.length : es + 1;
    const portion = escapePoString(value.slice(s, es));
    const endsWithNewline = es > s && value.charCodeAt(es - 1) === 0x0a;
    // Break opportunities (indexes in `portion` before which a line may break), chosen greedily.
    const breaks = (startColumn: number): number[] => {
      const chosen: number[] = [];
      let lastBreak = -1;
      let lastColumn = startColumn;
      let pieceWidth = 0;
      for (let i = 0; i < portion.length; i++) {
        const code = portion.codePointAt(i)!;
        const possible = i > 0 && breakBetween(portion.charCodeAt(i - 1), code) && !(endsWithNewline && i === portion.length - 2);
        if (possible) {
          if (lastBreak !== -1 && lastColumn + pieceWidth > width) {
            chosen.push(lastBreak);
            lastColumn = 0;
          }
          lastBreak = i;
          lastColumn += pieceWidth;
          pieceWidth = 0;
        }
        pieceWidth += columns(code);
        if (code > 0xffff) i++;
      }
      if (lastBreak !== -1 && lastColumn + pieceWidth > width) chosen.push(lastBreak);
      return chosen;
    };
    let startColumn = first ? keyword.length + 1 : 0;
    let chosen = breaks(startColumn);
    if (first && portion.length > 0 && (es < value.length || startColumn > width || chosen.length > 0)) {
      lines.push(`${keyword} ""`);
      first = false;
      startColumn = 0;
      chosen = breaks(startColumn);
    }
    const prefix = first ? `${keyword} ` : '';
    first = false;
    let from = 0;
    let line = prefix;
    for (const at of chosen) {
      lines.push(`${line}"${portion.slice(from, at)}"`);
      line = '';
      from = at;
    }
    lines.push(`${line}"${portion.slice(from)}"`);
    s = es;
  } while (s < value.length);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Plural forms

/** gettext's plural rules per language (the gettext manual, "Plural forms"; CLDR where it has none). */
const PLURAL_ONE = 'nplurals=1; plural=0;';
const PLURAL_GERMANIC = 'nplurals=2; plural=(n != 1);';
const PLURAL_FRENCH = 'nplurals=2; plural=(n > 1);';
const PLURAL_SLAVIC_EAST = 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);';
const PLURAL_RULES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(['ja', 'ko', 'zh', 'vi', 'th', 'id', 'ms', 'lo', 'km', 'my', 'jv', 'su'].map((l) => [l, PLURAL_ONE])),
  ...Object.fromEntries(
    [
      'en',
      'de',
      'nl',
      'sv',
      'da',
      'no',
      'nb',
      'nn',
      'fo',
      'es',
      'pt',
      'it',
      'bg',
      'el',
      'fi',
      'et',
      'he',
      'eo',
      'hu',
      'tr',
      'ca',
      'eu',
      'gl',
      'af',
      'sq',
      'az',
      'ka',
      'hi',
      'bn',
      'ur',
      'ta',
      'te',
      'ml',
      'mr',
      'kn',
      'gu',
      'pa',
      'sw',
      'kk',
      'ky',
      'mn',
      'uz',
      'hy',
      'fy',
      'lb',
      'rm',
      'ne',
      'si',
      'so',
      'ps',
      'zu',
      'xh',
      'nso',
      'ast',
      'fur',
      'it',
      'et',
      'tk',
      'fa',
    ].map((l) => [l, PLURAL_GERMANIC]),
  ),
  ...Object.fromEntries(['fr', 'pt_BR', 'oc', 'br', 'ln', 'ti', 'wa', 'am', 'fil', 'tl', 'tg'].map((l) => [l, PLURAL_FRENCH])),
  ...Object.fromEntries(['ru', 'uk', 'be', 'sr', 'hr', 'bs'].map((l) => [l, PLURAL_SLAVIC_EAST])),
  pl: 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  cs: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
  sk: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
  lt: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);',
  lv: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);',
  ro: 'nplurals=3; plural=n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2;',
  ga: 'nplurals=5; plural=n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4;',
  sl: 'nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);',
  cy: 'nplurals=4; plural=(n==1) ? 0 : (n==2) ? 1 : (n != 8 && n != 11) ? 2 : 3;',
  is: 'nplurals=2; plural=(n%10!=1 || n%100==11);',
  mk: 'nplurals=2; plural= n==1 || n%10==1 ? 0 : 1;',
  mt: 'nplurals=4; plural=(n==1 ? 0 : n==0 || ( n%100>1 && n%100<11) ? 1 : (n%100>10 && n%100<20 ) ? 2 : 3);',
  ar: 'nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;',
};

/** A job language code (`pt_br`, `pt-BR`, `sr_Latn_RS`) as gettext writes it (`pt_BR`). */
export function gettextLanguage(code: string): string {
  const parts = code.split(/[-_]/).filter((part) => part !== '');
  if (parts.length === 0) return code;
  return parts
    .map((part, i) => {
      if (i === 0) return part.toLowerCase();
      if (/^[A-Za-z]{2}$|^\d{3}$/.test(part)) return part.toUpperCase();
      if (/^[A-Za-z]{4}$/.test(part)) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      return part;
    })
    .join('_');
}

/** The `Plural-Forms` value gettext uses for a language (by `xx_YY`, then `xx`), or null when the table has none. */
export function pluralFormsFor(language: string | undefined): string | null {
  if (!language) return null;
  const code = gettextLanguage(language);
  const parts = code.split('_');
  return (
    PLURAL_RULES[code] ??
    (parts.length > 1 ? PLURAL_RULES[`${parts[0]}_${parts[parts.length - 1]}`] : undefined) ??
    PLURAL_RULES[parts[0]!] ??
    null
  );
}

/** `nplurals` of a Plural-Forms value, or null when it has none that is a positive number. */
export function nplurals(pluralForms: string | null | undefined): number | null {
  if (!pluralForms) return null;
  const match = /nplurals\s*=\s*(\d{1,3})/.exec(pluralForms);
  const n = match ? Number(match[1]) : 0;
  return n >= 1 ? n : null;
}

// ---------------------------------------------------------------------------------------------
// Format directives (placeholders)

/** What kind of placeholders an entry's flags say its strings hold. */
type DirectiveSyntax = 'c' | 'objc' | 'python' | 'brace' | null;

function directiveSyntax(flags: readonly string[]): DirectiveSyntax {
  for (const flag of flags) {
    switch (flag) {
      case 'c-format':
      case 'php-format':
      case 'gcc-internal-format':
        return 'c';
      case 'objc-format':
        return 'objc';
      case 'python-format':
        return 'python';
      case 'python-brace-format':
      case 'java-format':
      case 'csharp-format':
        return 'brace';
    }
  }
  return null;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

const C_FLAGS = "-+ #0'I";
const C_LENGTHS = 'hlLqjzZt';
const C_CONVERSIONS = 'diouxXeEfFgGaAcspnCSm';

/** Length of a printf directive at `at` (a `%`), or 0. `extra` adds conversions (`@` for Objective-C, `r` for Python). */
function printfDirective(text: string, at: number, extra: string, named: boolean): number {
  let i = at + 1;
  const n = text.length;
  if (i >= n) return 0;
  if (text.charCodeAt(i) === 0x25) return 2; // %%
  if (named && text.charCodeAt(i) === 0x28) {
    // %(name)s: the name ends at ')', never past a '%' or a line break (keeps the scan linear).
    let j = i + 1;
    for (; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x29 || c === 0x25 || c === 0x0a) break;
    }
    if (j >= n || text.charCodeAt(j) !== 0x29) return 0;
    i = j + 1;
  } else {
    // An argument number: digits and '$'.
    let j = i;
    while (j < n && isDigit(text.charCodeAt(j))) j++;
    if (j > i && j < n && text.charCodeAt(j) === 0x24) i = j + 1;
  }
  while (i < n && C_FLAGS.includes(text[i]!)) i++;
  const count = (): void => {
    if (i < n && text.charCodeAt(i) === 0x2a) {
      i++;
      let j = i;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      if (j > i && j < n && text.charCodeAt(j) === 0x24) i = j + 1;
    } else {
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
  };
  count();
  if (i < n && text.charCodeAt(i) === 0x2e) {
    i++;
    count();
  }
  for (let k = 0; k < 2 && i < n && C_LENGTHS.includes(text[i]!); k++) i++;
  if (i < n && text[i] === '<') {
    // ISO C 99 <inttypes.h> macros in gettext notation: %<PRId64>.
    let j = i + 1;
    while (j < n && /[A-Za-z0-9_]/.test(text[j]!) && j - i < 32) j++;
    return j < n && text[j] === '>' && text.startsWith('PRI', i + 1) ? j + 1 - at : 0;
  }
  if (i < n && (C_CONVERSIONS.includes(text[i]!) || extra.includes(text[i]!))) return i + 1 - at;
  return 0;
}

/** Length of a brace placeholder at `at` (a `{`): `{0}`, `{name}`, `{0:>10}`, `{0,number}`; `{{` is no placeholder. */
function braceDirective(text: string, at: number): number {
  const n = text.length;
  if (at + 1 < n && text.charCodeAt(at + 1) === 0x7b) return 0;
  for (let j = at + 1; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x7d) return j > at + 1 ? j + 1 - at : 0;
    if (c === 0x7b || c === 0x0a) return 0;
  }
  return 0;
}

/** Spans [start, end) of the format directives of `text`, in order. */
function directiveSpans(text: string, syntax: DirectiveSyntax): number[] {
  const spans: number[] = [];
  if (syntax === null) return spans;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let length = 0;
    if (syntax === 'brace') {
      if (c === 0x7b) {
        length = braceDirective(text, i);
        if (length === 0 && text.charCodeAt(i + 1) === 0x7b) i++;
      } else if (c === 0x7d && text.charCodeAt(i + 1) === 0x7d) i++;
    } else if (c === 0x25) {
      length = printfDirective(text, i, syntax === 'objc' ? '@' : syntax === 'python' ? 'ra' : '', syntax === 'python');
      if (length === 0) continue;
    }
    if (length > 0) {
      spans.push(i, i + length);
      i += length - 1;
    }
  }
  return spans;
}

/** Spans of the directives plus the `tagRegexp` matches that do not overlap them, sorted. */
function tagSpans(text: string, syntax: DirectiveSyntax, pattern: RegExp | null): number[] {
  const spans = directiveSpans(text, syntax);
  if (!pattern) return spans;
  const merged: number[] = [];
  let d = 0;
  for (const match of text.matchAll(pattern)) {
    if (match[0] === '') continue;
    const start = match.index;
    const end = start + match[0].length;
    while (d < spans.length && spans[d + 1]! <= start) {
      merged.push(spans[d]!, spans[d + 1]!);
      d += 2;
    }
    if (d < spans.length && spans[d]! < end) continue; // overlaps a directive
    merged.push(start, end);
  }
  for (; d < spans.length; d += 2) merged.push(spans[d]!, spans[d + 1]!);
  return merged;
}

/** Source text with its spans as standalone tags numbered from 1. */
function sourceWithTags(text: string, spans: readonly number[]): { source: string; tags: InlineTag[] } {
  if (spans.length === 0) return { source: text, tags: [] };
  const tags: InlineTag[] = [];
  let source = '';
  let last = 0;
  for (let s = 0; s < spans.length; s += 2) {
    const tag = inlineTag(tags.length + 1, 'standalone', text.slice(spans[s]!, spans[s + 1]!));
    tags.push(tag);
    source += text.slice(last, spans[s]) + tag.display;
    last = spans[s + 1]!;
  }
  return { source: source + text.slice(last), tags };
}

/**
 * Target text with its spans as tags: a placeholder that the source has takes the source tag's
 * number (first unused one with the same text), others numbers after all tags so far (added to `tags`).
 */
function targetWithTags(text: string, spans: readonly number[], sourceTagCount: number, tags: InlineTag[]): string {
  if (spans.length === 0) return text;
  const used = new Set<number>();
  let out = '';
  let last = 0;
  for (let s = 0; s < spans.length; s += 2) {
    const original = text.slice(spans[s]!, spans[s + 1]!);
    let tag: InlineTag | undefined;
    for (let t = 0; t < sourceTagCount; t++) {
      const candidate = tags[t]!;
      if (candidate.original === original && !used.has(candidate.id)) {
        tag = candidate;
        break;
      }
    }
    tag ??= tags.slice(0, sourceTagCount).find((candidate) => candidate.original === original);
    if (!tag) {
      tag = tags.slice(sourceTagCount).find((candidate) => candidate.original === original);
      if (!tag) {
        tag = inlineTag(tags.length + 1, 'standalone', original);
        tags.push(tag);
      }
    }
    used.add(tag.id);
    out += text.slice(last, spans[s]) + tag.display;
    last = spans[s + 1]!;
  }
  return out + text.slice(last);
}

// ---------------------------------------------------------------------------------------------
// Entries

type StringField = 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr';

/** One entry as read: its raw lines and what they say. */
interface Entry {
  lines: SourceLine[];
  chars: number;
  /** Flags of the `#,` lines (after the last `#~` line). */
  flags: string[];
  /** Indexes in `lines` of the `#,` and `#|` lines that belong to the entry. */
  flagLines: number[];
  previousLines: number[];
  /** Translator, extracted and reference comments, in order. */
  notes: string[];
  /** Index in `lines` of the first keyword line, -1 while there is none. */
  firstKeyword: number;
  msgctxt: string | null;
  msgid: string | null;
  msgidPlural: string | null;
  /** File line number of the `msgid` keyword. */
  msgidLine: number;
  /** msgstr (one) or msgstr[0..n-1]. */
  msgstr: string[];
  plural: boolean | null;
  /** Index in `lines` of the first msgstr line. */
  msgstrStart: number;
  /** The field continuation lines append to. */
  field: StringField | null;
}

type Piece = { kind: 'verbatim'; lines: SourceLine[] } | { kind: 'entry'; entry: Entry };

function newEntry(): Entry {
  return {
    lines: [],
    chars: 0,
    flags: [],
    flagLines: [],
    previousLines: [],
    notes: [],
    firstKeyword: -1,
    msgctxt: null,
    msgid: null,
    msgidPlural: null,
    msgidLine: 0,
    msgstr: [],
    plural: null,
    msgstrStart: -1,
    field: null,
  };
}

/** Groups lines into entries and verbatim runs (blank lines, comment blocks with no entry). */
class EntryReader {
  private entry = newEntry();

  add(line: SourceLine, into: Piece[]): void {
    const text = line.content;
    let at = 0;
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
    const entry = this.entry;
    if (at === text.length) {
      // A blank line ends an entry that has its msgstr, and a comment block; inside an entry it stays.
      if (entry.msgstrStart >= 0 || entry.firstKeyword < 0) {
        this.flush(into);
        into.push({ kind: 'verbatim', lines: [line] });
      } else this.keep(line);
      return;
    }
    const first = text.charCodeAt(at);
    if (first === 0x23) {
      // # comment
      if (entry.msgstrStart >= 0) this.flush(into);
      else if (entry.firstKeyword >= 0)
        throw new FormatError('a comment inside an entry, before its msgstr', { line: line.number, column: at + 1 });
      this.comment(line, at);
      return;
    }
    if (first === 0x22) {
      if (this.entry.field === null) throw new FormatError('a string continues nothing', { line: line.number, column: at + 1 });
      this.keep(line);
      this.append(quotedString(text, at, line.number));
      return;
    }
    this.keyword(line, at, into);
  }

  end(into: Piece[]): void {
    const entry = this.entry;
    if (entry.firstKeyword >= 0 && entry.msgstrStart < 0) {
      throw new FormatError('the file ends inside an entry (no msgstr)', {
        line: entry.msgidLine || entry.lines[entry.lines.length - 1]?.number,
      });
    }
    this.flush(into);
  }

  private keep(line: SourceLine): void {
    const entry = this.entry;
    entry.lines.push(line);
    entry.chars += line.content.length + line.eol.length;
    if (entry.chars > MAX_PO_ENTRY_CHARS) {
      throw new FormatError(`an entry is longer than ${MAX_PO_ENTRY_CHARS} characters`, { line: entry.lines[0]?.number });
    }
  }

  private comment(line: SourceLine, at: number): void {
    const entry = this.entry;
    const text = line.content;
    const kind = text[at + 1];
    const index = entry.lines.length;
    this.keep(line);
    if (kind === '~') {
      // An obsolete entry: what came before belongs to it, not to the next entry.
      entry.flags = [];
      entry.flagLines = [];
      entry.previousLines = [];
      entry.notes = [];
      return;
    }
    if (kind === ',') {
      entry.flagLines.push(index);
      for (const flag of text.slice(at + 2).split(',')) {
        const trimmed = flag.trim();
        if (trimmed !== '') entry.flags.push(trimmed);
      }
      return;
    }
    if (kind === '|') {
      entry.previousLines.push(index);
      return;
    }
    const body = kind === '.' || kind === ':' ? text.slice(at + 2) : text.slice(at + 1);
    const note = body.startsWith(' ') ? body.slice(1) : body;
    if (note.trim() !== '') entry.notes.push(note.trimEnd());
  }

  private keyword(line: SourceLine, at: number, into: Piece[]): void {
    const text = line.content;
    let end = at;
    while (end < text.length && !isSpace(text.charCodeAt(end)) && text.charCodeAt(end) !== 0x22) end++;
    const word = text.slice(at, end);
    let field: StringField;
    let form = -1;
    if (word === 'msgctxt' || word === 'msgid' || word === 'msgid_plural' || word === 'msgstr') field = word;
    else if (word.startsWith('msgstr[') && word.endsWith(']') && /^msgstr\[\d{1,3}\]$/.test(word)) {
      field = 'msgstr';
      form = Number(word.slice(7, -1));
    } else {
      throw new FormatError(`unexpected text "${word.slice(0, 40)}"`, { line: line.number, column: at + 1 });
    }
    if ((field === 'msgctxt' || field === 'msgid') && this.entry.msgstrStart >= 0) this.flush(into);
    const entry = this.entry;
    const misplaced = (): never => {
      throw new FormatError(`${word} is out of place`, { line: line.number, column: at + 1 });
    };
    switch (field) {
      case 'msgctxt':
        if (entry.firstKeyword >= 0) misplaced();
        break;
      case 'msgid':
        if (entry.msgid !== null) misplaced();
        entry.msgidLine = line.number;
        break;
      case 'msgid_plural':
        if (entry.msgid === null || entry.msgidPlural !== null || entry.msgstrStart >= 0) misplaced();
        break;
      case 'msgstr':
        if (entry.msgid === null) misplaced();
        if (form < 0 ? entry.msgidPlural !== null || entry.msgstrStart >= 0 : entry.msgidPlural === null || form !== entry.msgstr.length) {
          misplaced();
        }
        break;
    }
    let value = at + word.length;
    while (value < text.length && isSpace(text.charCodeAt(value))) value++;
    const index = entry.lines.length;
    this.keep(line);
    if (entry.firstKeyword < 0) entry.firstKeyword = index;
    if (field === 'msgstr' && entry.msgstrStart < 0) {
      entry.msgstrStart = index;
      entry.plural = form >= 0;
    }
    entry.field = field;
    const string = quotedString(text, value, line.number);
    if (field === 'msgstr') entry.msgstr.push(string);
    else if (field === 'msgctxt') entry.msgctxt = string;
    else if (field === 'msgid') entry.msgid = string;
    else entry.msgidPlural = string;
  }

  private append(value: string): void {
    const entry = this.entry;
    switch (entry.field) {
      case 'msgctxt':
        entry.msgctxt += value;
        break;
      case 'msgid':
        entry.msgid += value;
        break;
      case 'msgid_plural':
        entry.msgidPlural += value;
        break;
      case 'msgstr':
        entry.msgstr[entry.msgstr.length - 1] += value;
        break;
    }
  }

  private flush(into: Piece[]): void {
    const entry = this.entry;
    if (entry.lines.length === 0) return;
    if (entry.firstKeyword < 0) into.push({ kind: 'verbatim', lines: entry.lines });
    else {
      if (entry.msgid === null) throw new FormatError('an entry has no msgid', { line: entry.lines[entry.firstKeyword]?.number });
      into.push({ kind: 'entry', entry });
    }
    this.entry = newEntry();
  }
}

/** The file's entries and verbatim runs, in batches. */
async function* pieceBatches(chunks: AsyncIterable<string>): AsyncGenerator<Piece[]> {
  const reader = new EntryReader();
  for await (const lines of lineBatches(chunks, MAX_PO_ENTRY_CHARS)) {
    const batch: Piece[] = [];
    for (const line of lines) reader.add(line, batch);
    if (batch.length > 0) yield batch;
  }
  const last: Piece[] = [];
  reader.end(last);
  if (last.length > 0) yield last;
}

// ---------------------------------------------------------------------------------------------
// Settings

type FuzzyState = 'FUZZY' | 'NONFUZZY';

export interface PoSettings {
  tagRegexp: string | undefined;
  /** exportMultiline: wrap written strings like msgcat (default) or write each on one line. */
  exportMultiline: boolean;
  contextKeySuffixType: 'MSGCTXT' | 'MSGID' | 'MSGCTXT_AND_MSGID' | 'MSGCTXT_OR_MSGID';
  importSetSegmentConfirmedWhen: FuzzyState;
  importSetSegmentLockedWhen: FuzzyState | null;
  exportConfirmedLocked: FuzzyState;
  exportConfirmedNotLocked: FuzzyState;
  exportNotConfirmedLocked: FuzzyState;
  exportNotConfirmedNotLocked: FuzzyState;
}

function fuzzyState(value: unknown, fallback: FuzzyState): FuzzyState;
function fuzzyState(value: unknown, fallback: null): FuzzyState | null;
function fuzzyState(value: unknown, fallback: FuzzyState | null): FuzzyState | null {
  return value === 'FUZZY' || value === 'NONFUZZY' ? value : fallback;
}

/** PoSettingsDto fields from `options.formatSettings` (the `po` section), with defaults for the rest. */
export function poSettings(options: FilterOptions): PoSettings {
  const s = options.formatSettings ?? {};
  const keyType = s.contextKeySuffixType;
  const tagRegexp = typeof s.tagRegexp === 'string' && s.tagRegexp !== '' ? s.tagRegexp : options.tagRegexp;
  return {
    tagRegexp,
    exportMultiline: typeof s.exportMultiline === 'boolean' ? s.exportMultiline : true,
    contextKeySuffixType:
      keyType === 'MSGCTXT' || keyType === 'MSGID' || keyType === 'MSGCTXT_AND_MSGID' || keyType === 'MSGCTXT_OR_MSGID'
        ? keyType
        : 'MSGCTXT_AND_MSGID',
    importSetSegmentConfirmedWhen: fuzzyState(s.importSetSegmentConfirmedWhen, 'NONFUZZY'),
    importSetSegmentLockedWhen: fuzzyState(s.importSetSegmentLockedWhen, null),
    exportConfirmedLocked: fuzzyState(s.exportConfirmedLocked, 'NONFUZZY'),
    exportConfirmedNotLocked: fuzzyState(s.exportConfirmedNotLocked, 'NONFUZZY'),
    exportNotConfirmedLocked: fuzzyState(s.exportNotConfirmedLocked, 'FUZZY'),
    exportNotConfirmedNotLocked: fuzzyState(s.exportNotConfirmedNotLocked, 'FUZZY'),
  };
}

/** The unit key the settings ask for; `::` joins context and msgid. */
function keyOf(msgctxt: string | null, msgid: string, type: PoSettings['contextKeySuffixType']): string {
  switch (type) {
    case 'MSGID':
      return msgid;
    case 'MSGCTXT':
      return msgctxt ?? '';
    case 'MSGCTXT_OR_MSGID':
      return msgctxt ?? msgid;
    case 'MSGCTXT_AND_MSGID':
      return msgctxt === null ? msgid : `${msgctxt}::${msgid}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Units

interface EntryUnit {
  locator: string;
  key: string;
  source: string;
  /** The raw (unescaped) source and target strings. */
  sourceText: string;
  targetText: string;
  tags: InlineTag[];
  target: string | null;
  /** Tags of the source only (for write-back). */
  sourceTagCount: number;
}

function isHeader(entry: Entry): boolean {
  return entry.msgid === '' && entry.msgctxt === null;
}

function entryUnits(entry: Entry, settings: PoSettings, pattern: RegExp | null): EntryUnit[] {
  const syntax = directiveSyntax(entry.flags);
  const make = (locator: string, sourceText: string, targetText: string): EntryUnit => {
    const { source, tags } = sourceWithTags(sourceText, tagSpans(sourceText, syntax, pattern));
    const sourceTagCount = tags.length;
    const target = targetText === '' ? null : targetWithTags(targetText, tagSpans(targetText, syntax, pattern), sourceTagCount, tags);
    return {
      locator,
      key: keyOf(entry.msgctxt, sourceText, settings.contextKeySuffixType),
      source,
      sourceText,
      targetText,
      tags,
      target,
      sourceTagCount,
    };
  };
  const line = String(entry.msgidLine);
  const units = [make(line, entry.msgid!, entry.msgstr[0] ?? '')];
  if (entry.msgidPlural !== null) {
    const pluralTarget = entry.msgstr.length === 1 ? entry.msgstr[0]! : (entry.msgstr[1] ?? '');
    units.push(make(`${line}:plural`, entry.msgidPlural, pluralTarget));
  }
  return units;
}

// ---------------------------------------------------------------------------------------------
// Encoding

type Charset = 'utf-8' | 'ascii' | 'latin1' | 'placeholder';

function charsetName(name: string): Charset | null {
  const n = name.toLowerCase().replace(/_/g, '-');
  if (n === 'utf-8' || n === 'utf8') return 'utf-8';
  if (n === 'ascii' || n === 'us-ascii' || n === 'ansi-x3.4-1968') return 'ascii';
  if (n === 'iso-8859-1' || n === 'iso8859-1' || n === 'latin1' || n === 'latin-1' || n === 'l1') return 'latin1';
  if (name === 'CHARSET') return 'placeholder';
  return null;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The header's `charset=` in the file's first bytes, or null when there is none there. */
function charsetInHead(head: Buffer): { name: string; charset: Charset | null } | null {
  const text = head.subarray(0, CHARSET_HEAD_BYTES).toString('latin1');
  const at = text.indexOf('charset=');
  if (at < 0) return null;
  let end = at + 8;
  while (end < text.length && /[A-Za-z0-9_.:-]/.test(text[end]!)) end++;
  const name = text.slice(at + 8, end);
  return { name, charset: charsetName(name) };
}

function chooseEncoding(head: Buffer): TextEncoding {
  if (head.subarray(0, 2).equals(Buffer.from([0xff, 0xfe])) || head.subarray(0, 2).equals(Buffer.from([0xfe, 0xff]))) {
    throw new FormatError('PO files in UTF-16 are not supported (gettext reads none)');
  }
  const bom = head.subarray(0, 3).equals(UTF8_BOM) ? UTF8_BOM : Buffer.alloc(0);
  const found = charsetInHead(head);
  if (found && found.charset === null) {
    throw new FormatError(`the PO file's charset ${found.name} is not supported (UTF-8 and ISO-8859-1 are)`);
  }
  if (found?.charset === 'latin1' && bom.length === 0) return encoding('latin1');
  return encoding('utf-8', bom);
}

/** The charset a header entry declares (null when it names none). */
function headerCharset(header: string): string | null {
  const at = header.indexOf('charset=');
  if (at < 0) return null;
  let end = at + 8;
  while (end < header.length && !/[\s;]/.test(header[end]!)) end++;
  return header.slice(at + 8, end);
}

/** A header that names another charset than the one the file was decoded with (it came after the first bytes). */
function checkHeaderCharset(entry: Entry, enc: TextEncoding): void {
  const name = headerCharset(entry.msgstr[0] ?? '');
  if (name === null) return;
  const charset = charsetName(name);
  if (charset === null)
    throw new FormatError(`the PO file's charset ${name} is not supported (UTF-8 and ISO-8859-1 are)`, { line: entry.msgidLine });
  if ((charset === 'latin1') !== (enc.name === 'latin1')) {
    throw new FormatError(`the header's charset ${name} comes too late in the file to be read`, { line: entry.msgidLine });
  }
}

// ---------------------------------------------------------------------------------------------
// Parse

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const settings = poSettings(options);
  const pattern = compileTagRegexp(settings.tagRegexp);
  const { encoding: enc, chunks } = await decodeStream(input, chooseEncoding, { headBytes: CHARSET_HEAD_BYTES });
  let index = 0;
  let first = true;
  for await (const batch of pieceBatches(chunks)) {
    const units: TextUnit[] = [];
    for (const piece of batch) {
      if (piece.kind !== 'entry') continue;
      const entry = piece.entry;
      const header = first && isHeader(entry);
      first = false;
      if (header) checkHeaderCharset(entry, enc);
      if (isHeader(entry)) continue;
      const fuzzy = entry.flags.includes('fuzzy');
      for (const unit of entryUnits(entry, settings, pattern)) {
        const textUnit: TextUnit = {
          index: index++,
          key: unit.key,
          locator: unit.locator,
          source: unit.source,
          tags: unit.tags,
          target: unit.target,
          translatable: true,
          note: entry.notes.length > 0 ? entry.notes.join('\n') : null,
        };
        if (entry.msgctxt !== null) textUnit.context = entry.msgctxt;
        if (unit.target !== null) {
          const state: FuzzyState = fuzzy ? 'FUZZY' : 'NONFUZZY';
          textUnit.targetConfirmed = state === settings.importSetSegmentConfirmedWhen;
          if (settings.importSetSegmentLockedWhen !== null) textUnit.locked = state === settings.importSetSegmentLockedWhen;
        }
        units.push(textUnit);
      }
    }
    if (units.length > 0) yield units;
  }
}

// ---------------------------------------------------------------------------------------------
// Write

interface WriteContext {
  settings: PoSettings;
  pattern: RegExp | null;
  translations: ReadonlyMap<string, UnitTranslation>;
  targetLanguage: string | undefined;
  /** Whether anything is written at all (else the file is copied as it is). */
  active: boolean;
  /** The number of plural forms entries get (set by the header). */
  forms: number;
  /** Switch the file to UTF-8 (its charset cannot hold a translation). */
  toUtf8: boolean;
  /** Some translation holds a character beyond ASCII (an `ASCII` charset becomes UTF-8). */
  nonAscii: boolean;
}

function headerFields(value: string): string[] {
  const fields = value.split('\n');
  if (fields[fields.length - 1] === '') fields.pop();
  return fields;
}

function setField(fields: string[], name: string, value: string, after: string | null): void {
  const prefix = `${name.toLowerCase()}:`;
  const at = fields.findIndex((field) => field.toLowerCase().startsWith(prefix));
  if (at >= 0) {
    fields[at] = `${fields[at]!.slice(0, name.length)}: ${value}`;
    return;
  }
  const afterAt = after === null ? -1 : fields.findIndex((field) => field.toLowerCase().startsWith(`${after.toLowerCase()}:`));
  if (afterAt >= 0) fields.splice(afterAt + 1, 0, `${name}: ${value}`);
  else fields.push(`${name}: ${value}`);
}

function fieldValue(fields: readonly string[], name: string): string | null {
  const prefix = `${name.toLowerCase()}:`;
  const field = fields.find((f) => f.toLowerCase().startsWith(prefix));
  return field === undefined ? null : field.slice(prefix.length).trim();
}

/** The header's new msgstr (or null when it stays), and the number of plural forms entries get. */
function rewriteHeader(entry: Entry, ctx: WriteContext): string | null {
  const original = entry.msgstr[0] ?? '';
  const fields = headerFields(original);
  const current = fieldValue(fields, 'Plural-Forms');
  const currentForms = nplurals(current);
  const table = pluralFormsFor(ctx.targetLanguage);
  if (ctx.targetLanguage) setField(fields, 'Language', gettextLanguage(ctx.targetLanguage), 'Language-Team');
  let forms = currentForms ?? 2;
  if (table !== null && nplurals(table) !== currentForms) {
    setField(fields, 'Plural-Forms', table, null);
    forms = nplurals(table)!;
  } else if (currentForms === null && current !== null) {
    // A template's `nplurals=INTEGER; plural=EXPRESSION;` with no language to go by.
    setField(fields, 'Plural-Forms', PLURAL_GERMANIC, null);
    forms = 2;
  }
  ctx.forms = forms;
  const contentType = fields.findIndex((field) => field.toLowerCase().startsWith('content-type:'));
  const charset = headerCharset(original);
  if (contentType >= 0 && charset !== null) {
    const kind = charsetName(charset);
    const wanted = kind === 'placeholder' || ctx.toUtf8 || (kind === 'ascii' && ctx.nonAscii) ? 'UTF-8' : charset;
    if (wanted !== charset) fields[contentType] = fields[contentType]!.replace(`charset=${charset}`, `charset=${wanted}`);
  }
  let value = fields.map((field) => `${field}\n`).join('');
  if (original !== '' && !original.endsWith('\n')) value = value.slice(0, -1);
  return value === original ? null : value;
}

function eolOf(entry: Entry): string {
  const line = entry.lines[entry.msgstrStart] ?? entry.lines[0];
  return line?.eol || '\n';
}

/** The entry's lines with new msgstr values (and the fuzzy flag set as asked). */
function rewrittenEntry(entry: Entry, msgstr: readonly string[], plural: boolean, fuzzy: boolean, wrap: boolean): string {
  const eol = eolOf(entry);
  const lastEol = entry.lines[entry.lines.length - 1]!.eol;
  const before = entry.lines.slice(0, entry.msgstrStart);
  const wasFuzzy = entry.flags.includes('fuzzy');
  let out = '';
  if (fuzzy === wasFuzzy) {
    for (const line of before) out += line.content + line.eol;
  } else {
    const flagLines = new Set(entry.flagLines);
    const previous = new Set(entry.previousLines);
    let inserted = false;
    for (let i = 0; i < before.length; i++) {
      const line = before[i]!;
      if (fuzzy && !inserted && (i === entry.firstKeyword || previous.has(i) || flagLines.has(i))) {
        inserted = true;
        if (flagLines.has(i)) {
          const hash = line.content.indexOf('#,');
          const rest = line.content.slice(hash + 2).trim();
          out += `${line.content.slice(0, hash)}#, fuzzy${rest === '' ? '' : `, ${rest}`}${line.eol}`;
          continue;
        }
        out += `#, fuzzy${eol}`;
      }
      if (!fuzzy && flagLines.has(i)) {
        const hash = line.content.indexOf('#,');
        const kept = line.content
          .slice(hash + 2)
          .split(',')
          .map((flag) => flag.trim())
          .filter((flag) => flag !== '' && flag !== 'fuzzy');
        if (kept.length > 0) out += `${line.content.slice(0, hash)}#, ${kept.join(', ')}${line.eol}`;
        continue;
      }
      // The previous msgid (`#|`) only explains a fuzzy translation: it goes with the flag.
      if (!fuzzy && previous.has(i)) continue;
      out += line.content + line.eol;
    }
  }
  const lines: string[] = [];
  msgstr.forEach((value, form) => lines.push(...poStringLines(plural ? `msgstr[${form}]` : 'msgstr', value, wrap)));
  out += lines.join(eol) + lastEol;
  return out;
}

function writeEntry(entry: Entry, ctx: WriteContext): string | null {
  const units = entryUnits(entry, ctx.settings, ctx.pattern);
  const plural = entry.msgidPlural !== null;
  const translated = units.map((unit) => ctx.translations.get(unit.locator));
  const forms = plural ? ctx.forms : 1;
  const existing = entry.msgstr;
  if (translated.every((t) => t === undefined) && (!plural || existing.length === forms)) return null;
  const values = units.map((unit, i) => {
    const translation = translated[i];
    return translation === undefined ? null : restoreTags(translation.text, unit.tags);
  });
  const msgstr: string[] = [];
  let copiedForm = false;
  if (!plural) msgstr.push(values[0] ?? existing[0] ?? '');
  else if (forms === 1) msgstr.push(values[1] ?? values[0] ?? existing[0] ?? '');
  else {
    msgstr.push(values[0] ?? existing[0] ?? '');
    for (let form = 1; form < forms; form++) {
      let value = values[1] ?? existing[form];
      if (value === undefined) {
        value = existing[existing.length - 1] ?? '';
        if (form >= existing.length && value !== '') copiedForm = true;
      }
      msgstr.push(value);
    }
  }
  // Fuzzy: as the settings say for each translated unit's state; kept for the others.
  const wasFuzzy = entry.flags.includes('fuzzy');
  let fuzzy = false;
  let decided = false;
  units.forEach((unit, i) => {
    const translation = translated[i];
    if (translation === undefined) return;
    decided = true;
    const confirmed = translation.confirmed ?? true;
    const fileState: FuzzyState = wasFuzzy ? 'FUZZY' : 'NONFUZZY';
    const locked =
      ctx.settings.importSetSegmentLockedWhen !== null && unit.targetText !== '' && fileState === ctx.settings.importSetSegmentLockedWhen;
    const s = ctx.settings;
    const state = confirmed
      ? locked
        ? s.exportConfirmedLocked
        : s.exportConfirmedNotLocked
      : locked
        ? s.exportNotConfirmedLocked
        : s.exportNotConfirmedNotLocked;
    if (state === 'FUZZY') fuzzy = true;
  });
  if (!decided) fuzzy = wasFuzzy;
  if (copiedForm) fuzzy = true;
  const same = msgstr.length === existing.length && msgstr.every((value, i) => value === existing[i]);
  if (same && fuzzy === wasFuzzy) return null;
  return rewrittenEntry(entry, msgstr, plural, fuzzy, ctx.settings.exportMultiline);
}

function highestCode(text: string): number {
  let highest = 0;
  for (let i = 0; i < text.length; i++) highest = Math.max(highest, text.charCodeAt(i));
  return highest;
}

function linesText(lines: readonly SourceLine[]): string {
  let out = '';
  for (const line of lines) out += line.content + line.eol;
  return out;
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const settings = poSettings(options);
  const pattern = compileTagRegexp(settings.tagRegexp);
  const { encoding: enc, chunks } = await decodeStream(original, chooseEncoding, { headBytes: CHARSET_HEAD_BYTES });
  const ctx: WriteContext = {
    settings,
    pattern,
    translations,
    targetLanguage: options.targetLanguage,
    active: translations.size > 0,
    forms: 2,
    toUtf8: false,
    nonAscii: false,
  };
  for (const translation of translations.values()) {
    const highest = highestCode(translation.text);
    if (highest > 0x7f) ctx.nonAscii = true;
    if (highest > 0xff && enc.name === 'latin1') ctx.toUtf8 = true;
  }
  const out: TextEncoding = ctx.toUtf8 ? encoding('utf-8') : enc;
  async function* rewritten(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    let first = true;
    for await (const batch of pieceBatches(chunks)) {
      let text = '';
      for (const piece of batch) {
        if (piece.kind === 'verbatim') {
          text += linesText(piece.lines);
          continue;
        }
        const entry = piece.entry;
        const header = first && isHeader(entry);
        first = false;
        if (header) checkHeaderCharset(entry, enc);
        let written: string | null = null;
        if (ctx.active && header) {
          const value = rewriteHeader(entry, ctx);
          if (value !== null) written = rewrittenEntry(entry, [value], false, entry.flags.includes('fuzzy'), true);
        } else if (ctx.active && !isHeader(entry)) written = writeEntry(entry, ctx);
        text += written ?? linesText(entry.lines);
      }
      if (text !== '') yield encodeText(text, out);
    }
  }
  await pipeline(rewritten(), output);
}

/** A PO or POT file: optional comments, then `msgid "` or `msgctxt "` at the start of a line. */
function detect(firstBytes: Buffer): boolean {
  let text = firstBytes.toString('latin1');
  if (text.startsWith('\xef\xbb\xbf')) text = text.slice(3);
  const lines = text.split(/\r\n|\n|\r/);
  // The last line may be cut off by the sniffing limit.
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimStart();
    if (line === '' || line.startsWith('#')) continue;
    return /^(msgid|msgctxt)[ \t]+"/.test(line) && (i < lines.length - 1 || line.length > 8);
  }
  return false;
}

export const gettextPoFilter: FormatFilter = {
  name: 'gettext-po',
  extensions: ['po', 'pot'],
  detect,
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};
