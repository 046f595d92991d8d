/**
 * missingNumber -> MissingNumbersV3 and extraNumbers -> ExtraNumbersV3 (docs/quality-assurance.md).
 *
 * Numbers are read in each side's own language: `1,234.5` (en), `1.234,5` (de), `1 234,5` (fr, with
 * a space, NBSP or narrow NBSP) and `1'234.5` (de-CH) are all 1234.5. A number with one separator
 * followed by exactly three digits (`1,234`, `1.234`) is a group in languages whose decimal mark is
 * the other one and a decimal in languages whose decimal mark it is. Several separators that do not
 * make one number (`31.12.2024`, `1.2.3`, `192.168.0.1`) are read as their parts, so a date or version
 * compares by its numbers whatever the order. A minus (`-`, `−`, `–`) counts when it begins a word,
 * `%` is not part of the number, ordinals keep their number (`1st` = `1.` = 1), leading zeros are
 * dropped (`09` = 9), digits of other scripts (Arabic-Indic, Devanagari, full-width...) are digits.
 * Numbers inside tag tokens and placeholders (`{1}`, `%1$s`, `{0,number}`) are not numbers.
 *
 * A source number is matched first by its exact text, then by its value; what is left of the source
 * is missing, what is left of the target is extra. One warning per value (key: the value), with the
 * positions of every unmatched occurrence: in the source for a missing number, in the target for an
 * extra one.
 */
import type { QaText } from '../text.js';
import { isWhitespace, position, primaryLanguage, regionOf, warning } from '../text.js';
import type { QaPosition, QaWarning } from '../types.js';

export interface NumberToken {
  /** The number as written (with its minus sign). */
  raw: string;
  /** The value: optional `-`, integer digits without leading zeros, optional `.` and the fraction as written. */
  value: string;
  begin: number;
  end: number;
}

const DECIMAL_POINT = new Set([
  'en',
  'ja',
  'zh',
  'ko',
  'he',
  'th',
  'hi',
  'ms',
  'tl',
  'fil',
  'ga',
  'cy',
  'mt',
  'sw',
  'ur',
  'bn',
  'ta',
  'te',
  'mr',
  'gu',
  'kn',
  'ml',
  'pa',
  'my',
  'km',
  'lo',
  'ne',
  'si',
  'am',
  'zu',
  'xh',
  'yo',
  'ig',
  'ha',
]);
const SPACE_GROUPING = new Set([
  'fr',
  'ru',
  'uk',
  'pl',
  'cs',
  'sk',
  'sv',
  'nb',
  'nn',
  'no',
  'fi',
  'et',
  'lv',
  'lt',
  'bg',
  'hu',
  'be',
  'kk',
  'pt',
  'sl',
  'hr',
  'sr',
  'bs',
  'mk',
  'uz',
  'ky',
  'hy',
  'ka',
  'az',
]);

interface NumberLocale {
  decimal: string;
  spaceGroups: boolean;
}

const LOCALES = new Map<string, NumberLocale>();

export function numberLocale(lang: string): NumberLocale {
  let locale = LOCALES.get(lang);
  if (locale) return locale;
  const primary = primaryLanguage(lang);
  const region = regionOf(lang);
  let decimal = DECIMAL_POINT.has(primary) ? '.' : ',';
  if ((primary === 'de' || primary === 'it' || primary === 'fr') && (region === 'CH' || region === 'LI')) decimal = '.';
  if (primary === 'es' && ['MX', 'US', 'GT', 'HN', 'NI', 'PA', 'PR', 'SV', 'DO', 'PE'].includes(region)) decimal = '.';
  if (primary === 'ar' || primary === 'fa') decimal = '\u066b';
  if (primary === 'en' && region === 'ZA') decimal = ',';
  locale = { decimal, spaceGroups: SPACE_GROUPING.has(primary) };
  LOCALES.set(lang, locale);
  return locale;
}

/** The value of a decimal digit of any common script, or -1. */
function digitValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c < 0x660) return -1;
  if (c >= 0x660 && c <= 0x669) return c - 0x660;
  if (c >= 0x6f0 && c <= 0x6f9) return c - 0x6f0;
  if (c >= 0x966 && c <= 0x96f) return c - 0x966;
  if (c >= 0x9e6 && c <= 0x9ef) return c - 0x9e6;
  if (c >= 0xe50 && c <= 0xe59) return c - 0xe50;
  if (c >= 0xff10 && c <= 0xff19) return c - 0xff10;
  return -1;
}

/** Separators that may join digit groups: . , ' ’ NBSP narrow-NBSP thin-space Arabic ٬ ٫, and a space where the language groups with it. */
function isSeparator(c: number, spaceGroups: boolean): boolean {
  return (
    c === 46 ||
    c === 44 ||
    c === 39 ||
    c === 0x2019 ||
    c === 0xa0 ||
    c === 0x202f ||
    c === 0x2009 ||
    c === 0x66c ||
    c === 0x66b ||
    (c === 32 && spaceGroups)
  );
}

function isGroupOnly(sep: number): boolean {
  return sep === 39 || sep === 0x2019 || sep === 0xa0 || sep === 0x202f || sep === 0x2009 || sep === 0x66c || sep === 32;
}

function isDecimalMark(sep: number): boolean {
  return sep === 46 || sep === 44 || sep === 0x66b;
}

function isMinus(c: number): boolean {
  return c === 45 || c === 0x2212 || c === 0x2013;
}

/** Digits of text[begin, end) as ASCII. */
function digitsOf(text: string, begin: number, end: number): string {
  const slice = text.slice(begin, end);
  for (let i = 0; i < slice.length; i++) {
    const c = slice.charCodeAt(i);
    if (c < 48 || c > 57) {
      let out = '';
      for (let k = 0; k < slice.length; k++) out += String(digitValue(slice.charCodeAt(k)));
      return out;
    }
  }
  return slice;
}

function stripZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return i === 0 ? digits : digits.slice(i);
}

/** The numbers of a text, in order, read in its language. */
export function numbersOf(text: QaText): NumberToken[] {
  const value = text.text;
  const out: NumberToken[] = [];
  const length = value.length;
  // A fast exit: no digit at all.
  let first = -1;
  for (let i = 0; i < length; i++) {
    const c = value.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 0x660 && digitValue(c) >= 0)) {
      first = i;
      break;
    }
  }
  if (first < 0) return out;
  const spans = text.spans;
  const locale = numberLocale(text.lang);
  const decimal = locale.decimal.charCodeAt(0);
  let s = 0;
  // Run boundaries of the current number: starts[k], ends[k]; separators between runs.
  const starts: number[] = [];
  const ends: number[] = [];
  const seps: number[] = [];
  let i = first;
  while (i < length) {
    while (s < spans.length && spans[s + 1]! <= i) s += 2;
    if (s < spans.length && spans[s]! <= i) {
      i = spans[s + 1]!;
      continue;
    }
    if (digitValue(value.charCodeAt(i)) < 0) {
      i++;
      continue;
    }
    const nextSpan = s < spans.length ? spans[s]! : length;
    starts.length = 0;
    ends.length = 0;
    seps.length = 0;
    let j = i;
    for (;;) {
      const runStart = j;
      while (j < nextSpan && digitValue(value.charCodeAt(j)) >= 0) j++;
      starts.push(runStart);
      ends.push(j);
      if (j + 1 < nextSpan && isSeparator(value.charCodeAt(j), locale.spaceGroups) && digitValue(value.charCodeAt(j + 1)) >= 0) {
        seps.push(value.charCodeAt(j));
        j++;
        continue;
      }
      break;
    }
    const negative =
      i > 0 &&
      isMinus(value.charCodeAt(i - 1)) &&
      (i === 1 || isWhitespace(value.charCodeAt(i - 2)) || '([{=:/'.includes(value[i - 2]!) || (s > 0 && spans[s - 1] === i - 1));
    interpret(value, starts, ends, seps, decimal, negative ? i - 1 : i, out);
    i = j;
  }
  return out;
}

function push(text: string, begin: number, end: number, value: string, out: NumberToken[]): void {
  out.push({ raw: text.slice(begin, end), value, begin, end });
}

function interpret(
  text: string,
  starts: number[],
  ends: number[],
  seps: number[],
  decimal: number,
  begin: number,
  out: NumberToken[],
): void {
  const n = seps.length;
  const sign = begin < starts[0]! ? '-' : '';
  const end = ends[n]!;
  if (n === 0) return push(text, begin, end, sign + stripZeros(digitsOf(text, starts[0]!, ends[0]!)), out);
  const firstLength = ends[0]! - starts[0]!;
  let k = 0;
  if (firstLength <= 3) while (k < n && seps[k] === seps[0] && ends[k + 1]! - starts[k + 1]! === 3) k++;
  const integer = (upTo: number): string => {
    let digits = '';
    for (let r = 0; r <= upTo; r++) digits += digitsOf(text, starts[r]!, ends[r]!);
    return stripZeros(digits);
  };
  if (k === n) {
    const sep = seps[0]!;
    const grouping = n >= 2 || isGroupOnly(sep) || sep !== decimal;
    if (grouping) return push(text, begin, end, sign + integer(n), out);
    return push(text, begin, end, `${sign}${integer(0)}.${digitsOf(text, starts[1]!, ends[1]!)}`, out);
  }
  if (k === n - 1 && k >= 1 && seps[n - 1] !== seps[0] && isDecimalMark(seps[n - 1]!) && !isGroupOnly(seps[n - 1]!)) {
    return push(text, begin, end, `${sign}${integer(n - 1)}.${digitsOf(text, starts[n]!, ends[n]!)}`, out);
  }
  if (n === 1 && isDecimalMark(seps[0]!)) {
    return push(text, begin, end, `${sign}${integer(0)}.${digitsOf(text, starts[1]!, ends[1]!)}`, out);
  }
  // Not one number: its parts, each on its own (a date, a version, an address).
  for (let r = 0; r <= n; r++) {
    const partBegin = r === 0 ? begin : starts[r]!;
    push(text, partBegin, ends[r]!, (r === 0 ? sign : '') + stripZeros(digitsOf(text, starts[r]!, ends[r]!)), out);
  }
}

interface NumberDifference {
  missing: NumberToken[];
  extra: NumberToken[];
}

/** Source numbers the target lacks and target numbers the source lacks (exact text first, then value). */
export function compareNumbers(source: QaText, target: QaText): NumberDifference {
  const src = numbersOf(source);
  const tgt = numbersOf(target);
  if (src.length === 0 && tgt.length === 0) return { missing: src, extra: tgt };
  const matched = new Uint8Array(tgt.length);
  const byRaw = matcher(tgt, matched, 'raw');
  const left: NumberToken[] = [];
  for (const number of src) if (!byRaw(number.raw)) left.push(number);
  if (left.length === 0) return { missing: left, extra: unmatched(tgt, matched) };
  const byValue = matcher(tgt, matched, 'value');
  const missing: NumberToken[] = [];
  for (const number of left) if (!byValue(number.value)) missing.push(number);
  return { missing, extra: unmatched(tgt, matched) };
}

function unmatched(tokens: NumberToken[], matched: Uint8Array): NumberToken[] {
  const out: NumberToken[] = [];
  for (let t = 0; t < tokens.length; t++) if (!matched[t]) out.push(tokens[t]!);
  return out;
}

/**
 * A function that marks the first unmatched target token whose `field` equals a wanted string and
 * says whether there was one: a scan for a few numbers, an index (linear time) for many.
 */
function matcher(tokens: NumberToken[], matched: Uint8Array, field: 'raw' | 'value'): (wanted: string) => boolean {
  if (tokens.length <= 16) {
    return (wanted) => {
      for (let t = 0; t < tokens.length; t++)
        if (!matched[t] && tokens[t]![field] === wanted) {
          matched[t] = 1;
          return true;
        }
      return false;
    };
  }
  const index = new Map<string, number[]>();
  for (let t = tokens.length - 1; t >= 0; t--) {
    if (matched[t]) continue;
    const key = tokens[t]![field];
    const list = index.get(key);
    if (list) list.push(t);
    else index.set(key, [t]);
  }
  return (wanted) => {
    const list = index.get(wanted);
    const t = list?.pop();
    if (t === undefined) return false;
    matched[t] = 1;
    return true;
  };
}

function grouped(tokens: NumberToken[]): Map<string, { raw: string; positions: QaPosition[] }> {
  const groups = new Map<string, { raw: string; positions: QaPosition[] }>();
  for (const token of tokens) {
    const group = groups.get(token.value);
    if (group) group.positions.push(position(token.begin, token.end));
    else groups.set(token.value, { raw: token.raw, positions: [position(token.begin, token.end)] });
  }
  return groups;
}

/** Both number checks in one pass; `missingIgnorable`/`extraIgnorable` null = that check is off. */
export function checkNumbers(
  source: QaText,
  target: QaText,
  out: QaWarning[],
  missingIgnorable: boolean | null,
  extraIgnorable: boolean | null,
): void {
  const { missing, extra } = compareNumbers(source, target);
  if (missingIgnorable !== null && missing.length > 0) {
    for (const [value, group] of grouped(missing))
      out.push(warning('MissingNumbersV3', value, missingIgnorable, { number: group.raw, positions: group.positions }));
  }
  if (extraIgnorable !== null && extra.length > 0) {
    for (const [value, group] of grouped(extra))
      out.push(warning('ExtraNumbersV3', value, extraIgnorable, { number: group.raw, positions: group.positions }));
  }
}
