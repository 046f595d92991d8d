/**
 * OpenTMS's own checks (CUSTOM_CHECK_NAMES), reported as CustomQA warnings whose subType is the
 * check's name, with a message in English and tgtPosition / srcPosition where one place is at fault
 * (docs/quality-assurance.md):
 * - unbalancedBrackets: ( ) [ ] { } (and their full-width forms) balance differently in the target than in the source;
 * - unbalancedQuotes: the target's quotation marks, as its language pairs them, do not balance while the source's do;
 * - capitalization: the first letter is upper case on one side and lower case on the other;
 * - urlsAndEmails: a URL or e-mail address of the source is not in the target, character for character;
 * - placeholders: a placeholder of the source is missing from the target, or the target has one the source lacks.
 */
import type { Placeholder, QaText } from '../text.js';
import { isWhitespace, position, primaryLanguage, regionOf, warning } from '../text.js';
import type { CustomCheckName, QaPosition, QaWarning } from '../types.js';

function custom(
  subType: CustomCheckName,
  key: string,
  ignorable: boolean,
  message: string,
  places: { srcPosition?: QaPosition; tgtPosition?: QaPosition },
): QaWarning {
  return warning('CustomQA', `${subType}:${key}`, ignorable, { subType, message, ...places });
}

// ---------------------------------------------------------------------------------------------
// Brackets

/** Bracket characters: kind 0 ( ), 1 [ ], 2 { }; +1 = open, -1 = close. */
const BRACKETS = new Map<number, [number, number]>([
  [0x28, [0, 1]],
  [0x29, [0, -1]],
  [0xff08, [0, 1]],
  [0xff09, [0, -1]],
  [0x5b, [1, 1]],
  [0x5d, [1, -1]],
  [0xff3b, [1, 1]],
  [0xff3d, [1, -1]],
  [0x7b, [2, 1]],
  [0x7d, [2, -1]],
  [0xff5b, [2, 1]],
  [0xff5d, [2, -1]],
]);
const BRACKET_NAMES = ['()', '[]', '{}'];
const HAS_BRACKET = /[()[\]{}\uff08\uff09\uff3b\uff3d\uff5b\uff5d]/;

interface BracketBalance {
  /** opens minus closes per kind */
  balance: number[];
  /** The first close without an open, or the last open without a close, per kind (-1: none). */
  culprit: number[];
}

function bracketBalance(text: QaText): BracketBalance | null {
  const value = text.text;
  if (!HAS_BRACKET.test(value)) return null;
  const spans = text.spans;
  const balance = [0, 0, 0];
  const culprit = [-1, -1, -1];
  const stacks: number[][] = [[], [], []];
  let s = 0;
  for (let i = 0; i < value.length; i++) {
    while (s < spans.length && spans[s + 1]! <= i) s += 2;
    if (s < spans.length && spans[s]! <= i) {
      i = spans[s + 1]! - 1;
      continue;
    }
    const bracket = BRACKETS.get(value.charCodeAt(i));
    if (!bracket) continue;
    const kind = bracket[0];
    const delta = bracket[1];
    balance[kind] = balance[kind]! + delta;
    if (delta > 0) stacks[kind]!.push(i);
    else if (stacks[kind]!.length > 0) stacks[kind]!.pop();
    else if (culprit[kind]! < 0) culprit[kind] = i;
  }
  for (let kind = 0; kind < 3; kind++) {
    const stack = stacks[kind]!;
    if (culprit[kind]! < 0 && stack.length > 0) culprit[kind] = stack[stack.length - 1]!;
  }
  return { balance, culprit };
}

/** unbalancedBrackets: per kind, the target's opens minus closes differ from the source's (key: the kind, `()`). */
export function checkBrackets(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const tgt = bracketBalance(target);
  const src = bracketBalance(source);
  if (!tgt && !src) return;
  for (let kind = 0; kind < 3; kind++) {
    const s = src?.balance[kind] ?? 0;
    const t = tgt?.balance[kind] ?? 0;
    if (s === t) continue;
    const name = BRACKET_NAMES[kind]!;
    const at = tgt?.culprit[kind] ?? -1;
    out.push(
      custom(
        'unbalancedBrackets',
        name,
        ignorable,
        `The brackets ${name[0]} ${name[1]} do not balance in the target as in the source.`,
        at >= 0 ? { tgtPosition: position(at, at + 1) } : {},
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Quotes

interface QuoteSet {
  /** char code -> group index; opening and closing marks of a group */
  open: Map<number, number>;
  close: Map<number, number>;
  /** marks that open and close alike (counted for parity), each its own group after the pairs */
  same: Map<number, number>;
  names: string[];
}

function quoteSet(pairs: string[], same: string[]): QuoteSet {
  const set: QuoteSet = { open: new Map(), close: new Map(), same: new Map(), names: [] };
  for (const pair of pairs) {
    set.open.set(pair.charCodeAt(0), set.names.length);
    set.close.set(pair.charCodeAt(1), set.names.length);
    set.names.push(pair);
  }
  for (const mark of same) {
    set.same.set(mark.charCodeAt(0), set.names.length);
    set.names.push(mark);
  }
  return set;
}

const QUOTE_SETS = new Map<string, QuoteSet>();

/** The quotation marks of a language: the pairs it uses (opening, closing) and the marks that both open and close. */
export function quotesOf(lang: string): QuoteSet {
  const cached = QUOTE_SETS.get(lang);
  if (cached) return cached;
  const primary = primaryLanguage(lang);
  const region = regionOf(lang);
  let set: QuoteSet;
  if ((primary === 'de' || primary === 'it' || primary === 'fr') && (region === 'CH' || region === 'LI'))
    set = quoteSet(['«»', '‹›'], ['"']);
  else if (['de', 'cs', 'sk', 'sl', 'is', 'et', 'lt', 'bg', 'ka', 'lb'].includes(primary)) set = quoteSet(['„“', '»«', '‚‘'], ['"']);
  else if (['pl', 'hu', 'ro', 'hr', 'sr', 'bs', 'mk'].includes(primary)) set = quoteSet(['„”', '«»'], ['"']);
  else if (['sv', 'fi'].includes(primary)) set = quoteSet([], ['"', '”', '»']);
  else if (primary === 'da') set = quoteSet(['»«', '„“'], ['"']);
  else if (
    [
      'fr',
      'es',
      'it',
      'pt',
      'ca',
      'ru',
      'uk',
      'be',
      'el',
      'nb',
      'no',
      'nn',
      'tr',
      'ar',
      'fa',
      'eu',
      'gl',
      'hy',
      'az',
      'kk',
      'uz',
      'ky',
      'ps',
      'ur',
    ].includes(primary)
  )
    set = quoteSet(['«»', '“”', '‹›'], ['"']);
  else if (primary === 'ja') set = quoteSet(['「」', '『』', '“”'], ['"']);
  else if (primary === 'zh') set = quoteSet(['“”', '「」', '『』', '《》'], ['"']);
  else set = quoteSet(['“”', '«»'], ['"']);
  QUOTE_SETS.set(lang, set);
  return set;
}

const HAS_QUOTE = /["\u201c\u201d\u201e\u00ab\u00bb\u2039\u203a\u201a\u2018\u300c\u300d\u300e\u300f\u300a\u300b]/;

/** Unbalanced groups of a text: group index -> the position of a mark of it. */
function unbalancedQuotes(text: string, set: QuoteSet): Map<number, number> | null {
  if (!HAS_QUOTE.test(text)) return null;
  const depth = new Array<number>(set.names.length).fill(0);
  const where = new Array<number>(set.names.length).fill(-1);
  let bad: Map<number, number> | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let group = set.open.get(c);
    if (group !== undefined) {
      depth[group]!++;
      where[group] = i;
      continue;
    }
    group = set.close.get(c);
    if (group !== undefined) {
      if (depth[group] === 0) (bad ??= new Map()).set(group, i);
      else depth[group]!--;
      continue;
    }
    group = set.same.get(c);
    if (group !== undefined) {
      depth[group] = depth[group] === 0 ? 1 : 0;
      where[group] = i;
    }
  }
  for (let group = 0; group < depth.length; group++)
    if (depth[group] !== 0 && !bad?.has(group)) (bad ??= new Map()).set(group, where[group]!);
  return bad;
}

function countMarks(text: string, marks: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (marks.includes(text[i]!)) count++;
  return count;
}

/**
 * unbalancedQuotes: fires per unbalanced group of the target (key: its marks) when the source's
 * quotes balance, unless the target has that group's marks exactly as often as the source (kept as written).
 */
export function checkQuotes(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const tgtSet = quotesOf(target.lang);
  const tgt = unbalancedQuotes(target.text, tgtSet);
  if (!tgt) return;
  if (unbalancedQuotes(source.text, quotesOf(source.lang))) return;
  for (const [group, at] of tgt) {
    const name = tgtSet.names[group]!;
    // Marks kept exactly as the source has them are the source's (a name like ‘Adan, an ʻokina).
    if (countMarks(target.text, name) === countMarks(source.text, name)) continue;
    out.push(
      custom('unbalancedQuotes', name, ignorable, `The quotation marks ${[...name].join(' ')} do not balance in the target.`, {
        tgtPosition: position(at, at + 1),
      }),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Capitalization

const LETTER_AT = /\p{L}/u;

/**
 * The first character after whitespace and tag tokens, when it is a letter: its position and case
 * (1 upper, -1 lower, 0 uncased); null when the text starts otherwise (a placeholder, a quote, a digit).
 */
function firstLetter(text: QaText): { at: number; end: number; case: number } | null {
  const value = text.text;
  const tags = text.tags;
  let t = 0;
  for (let i = 0; i < value.length; i++) {
    while (t < tags.length && tags[t]!.end <= i) t++;
    if (t < tags.length && tags[t]!.start === i) {
      i = tags[t]!.end - 1;
      continue;
    }
    const c = value.charCodeAt(i);
    if (isWhitespace(c)) continue;
    const char = String.fromCodePoint(value.codePointAt(i)!);
    if (!LETTER_AT.test(char)) return null;
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    return { at: i, end: i + char.length, case: lower === upper ? 0 : char === upper ? 1 : char === lower ? -1 : 0 };
  }
  return null;
}

/** Languages that capitalize nouns, where a lower-case source may well start with an upper-case target. */
const NOUN_CAPITALS = new Set(['de', 'lb', 'gsw', 'nds']);

/**
 * capitalization: both texts begin (after whitespace and tag tokens) with a letter, and it is upper
 * case in the source and lower case in the target, or lower case in the source and upper case in the
 * target (not for German and Luxembourgish targets, whose nouns are capitalized). A side that begins
 * with a placeholder, a quotation mark, a digit or other punctuation, or with a letter without case
 * (CJK, Arabic...), is not checked: its first word need not be the other's.
 */
export function checkCapitalization(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const src = firstLetter(source);
  if (!src || src.case === 0) return;
  const tgt = firstLetter(target);
  if (!tgt || tgt.case === 0 || tgt.case === src.case) return;
  if (src.case < 0 && NOUN_CAPITALS.has(primaryLanguage(target.lang))) return;
  out.push(
    custom(
      'capitalization',
      src.case > 0 ? 'lower' : 'upper',
      ignorable,
      src.case > 0
        ? 'The source begins with a capital letter, the target does not.'
        : 'The target begins with a capital letter, the source does not.',
      { srcPosition: position(src.at, src.end), tgtPosition: position(tgt.at, tgt.end) },
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// URLs and e-mail addresses

const URL_OR_EMAIL =
  /\b(?:(?:https?|ftps?|file|sftp|ssh|git|mailto):\/\/?|www\.)[^\s<>"'{}|\\^`[\]]+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/giu;
const TRAILING = /[.,;:!?)'’]+$/;

/** urlsAndEmails: each URL (scheme:// or www.) and e-mail address of the source must be in the target as written (key: the address). */
export function checkUrlsAndEmails(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const text = source.text;
  if (text.indexOf('@') < 0 && text.indexOf('://') < 0 && text.indexOf(':/') < 0 && text.indexOf('www.') < 0 && text.indexOf('WWW.') < 0)
    return;
  URL_OR_EMAIL.lastIndex = 0;
  const reported = new Set<string>();
  for (let match = URL_OR_EMAIL.exec(text); match; match = URL_OR_EMAIL.exec(text)) {
    const address = match[0].replace(TRAILING, '');
    if (address === '' || reported.has(address) || target.text.includes(address)) continue;
    reported.add(address);
    out.push(
      custom(
        'urlsAndEmails',
        address,
        ignorable,
        `The target does not have ${address.includes('@') && !address.includes('/') ? 'the e-mail address' : 'the URL'} ${address} of the source.`,
        {
          srcPosition: position(match.index, match.index + address.length),
        },
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Placeholders

const PRINTF = /^%(?:(\d+)\$)?/;

/** Placeholders with a comparable form: printf directives numbered (`%s %d` = `%1$s %2$d`), the rest as written. */
function placeholderForms(placeholders: readonly Placeholder[]): string[] {
  const out: string[] = [];
  let ordinal = 0;
  for (const placeholder of placeholders) {
    const text = placeholder.text;
    if (text.charCodeAt(0) === 37 && text.charCodeAt(1) !== 40) {
      ordinal++;
      const match = PRINTF.exec(text)!;
      out.push(match[1] ? text : `%${ordinal}$${text.slice(1)}`);
    } else out.push(text);
  }
  return out;
}

/**
 * placeholders: printf (`%s`, `%1$d`, `%-5.2f`), Python (`%(name)s`), `{name}`, `{0,number}`, `${x}`
 * and `{{x}}`. printf directives without a position are numbered in order, so reordering with
 * positions (`%2$s ... %1$s`) is fine and swapping unnumbered ones is not. Every placeholder of the
 * source must be in the target as many times (key `-` and the form, srcPosition), and the target
 * must have none the source lacks (key `+` and the form, tgtPosition). `{1}` alone is a tag token
 * (the tag checks look at it).
 */
export function checkPlaceholders(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const src = source.placeholders;
  const tgt = target.placeholders;
  if (src.length === 0 && tgt.length === 0) return;
  const srcForms = placeholderForms(src);
  const tgtForms = placeholderForms(tgt);
  const counts = new Map<string, number>();
  for (const form of tgtForms) counts.set(form, (counts.get(form) ?? 0) + 1);
  const reported = new Set<string>();
  for (let i = 0; i < src.length; i++) {
    const form = srcForms[i]!;
    const left = counts.get(form) ?? 0;
    if (left > 0) {
      counts.set(form, left - 1);
      continue;
    }
    if (reported.has(`-${form}`)) continue;
    reported.add(`-${form}`);
    out.push(
      custom('placeholders', `-${form}`, ignorable, `The placeholder ${src[i]!.text} of the source is not in the target.`, {
        srcPosition: position(src[i]!.start, src[i]!.end),
      }),
    );
  }
  for (let i = 0; i < tgt.length; i++) {
    const form = tgtForms[i]!;
    const left = counts.get(form) ?? 0;
    if (left === 0) continue;
    counts.set(form, left - 1);
    if (reported.has(`+${form}`)) continue;
    reported.add(`+${form}`);
    out.push(
      custom('placeholders', `+${form}`, ignorable, `The target has the placeholder ${tgt[i]!.text}, which the source does not.`, {
        tgtPosition: position(tgt[i]!.start, tgt[i]!.end),
      }),
    );
  }
}
