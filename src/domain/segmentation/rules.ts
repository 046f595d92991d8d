/**
 * Segmentation rule sets, SRX 2.0-like (docs/segmentation-and-counting.md).
 *
 * A rule says whether a text may be split at a position: `before` must match the text ending at
 * the position and `after` the text starting there. At each position the FIRST rule whose two
 * expressions match decides (break or no break); where no rule matches, the text is not split.
 * Rules are grouped into named language rules; the map rules choose which language rules apply
 * to a language: with `cascade` every map entry whose language pattern matches contributes its
 * rules, in map order (language-specific rules first, the default ones last); without it only
 * the first matching entry does. These are SRX's `<languagerule>`, `<maprule>` and `cascade`.
 *
 * Expressions are JavaScript regular expression SOURCES, compiled with the `u` flag (so `\p{Lu}`
 * works; identity escapes such as `\'` do not). Published SRX files are written in Java syntax;
 * `javaRegexToJs` (java-regex.ts) translates the common subset.
 */
export interface SegmentationRule {
  /** true: split here; false: an exception that keeps the text together. */
  break: boolean;
  /** Must match the text that ENDS at the position ('' matches everywhere). */
  before: string;
  /** Must match the text that STARTS at the position ('' matches everywhere). */
  after: string;
  /** Compile both expressions case-insensitively (Java's leading `(?i)`). */
  ignoreCase?: boolean;
}

export interface LanguageRule {
  name: string;
  rules: readonly SegmentationRule[];
}

export interface LanguageMapEntry {
  /** A regular expression that must match the WHOLE language code, case-insensitively. */
  languagePattern: string;
  languageRuleName: string;
}

export interface RuleSet {
  cascade: boolean;
  languageRules: readonly LanguageRule[];
  maps: readonly LanguageMapEntry[];
}

/** `en_US`, `EN-us` -> `en-us` (Phrase uses underscores, SRX patterns usually hyphens). */
export function normalizeLanguageCode(language: string): string {
  return language.trim().replace(/_/g, '-').toLowerCase();
}

/** The ordered rules that apply to `language` under `ruleSet` (SRX map rules and cascade). */
export function rulesForLanguage(ruleSet: RuleSet, language: string): SegmentationRule[] {
  const code = normalizeLanguageCode(language);
  const byName = new Map(ruleSet.languageRules.map((languageRule) => [languageRule.name, languageRule.rules]));
  const rules: SegmentationRule[] = [];
  for (const entry of ruleSet.maps) {
    if (!new RegExp(`^(?:${entry.languagePattern})$`, 'iu').test(code)) continue;
    const named = byName.get(entry.languageRuleName);
    if (!named) throw new Error(`Segmentation map names an unknown language rule "${entry.languageRuleName}"`);
    rules.push(...named);
    if (!ruleSet.cascade) break;
  }
  return rules;
}

// ---------------------------------------------------------------------------------------------
// Our default rules.

/** Characters that end a sentence when followed by whitespace and a sentence start. */
const TERMINAL = '[.!?\u2026\u203C\u2047\u2048\u2049\u061F\u06D4\u0964\u0965\u0589\u1362]';
/** Closing quotes and brackets that may follow the terminal punctuation. */
const CLOSERS = `[\\p{Pe}\\p{Pf}"'\u201D\u2019\u00BB]`;
/** What a sentence starts with: a capital, a letter of a caseless script, a quote, an opening bracket. */
const SENTENCE_START = `[\\p{Lu}\\p{Lt}\\p{Lo}\\p{Ps}\\p{Pi}"'\u00BF\u00A1]`;
/** Full-stops of Chinese and Japanese; they end a sentence without a following space. */
const CJK_TERMINAL = '[\u3002\uFF01\uFF1F\uFF61]';
/** Not preceded by a letter or digit: the start of a word. */
const WORD_START = '(?<![\\p{L}\\p{N}])';

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `např` -> `[Nn]ap\u0159`: an abbreviation may open a sentence with a capital. */
function eitherCaseFirst(word: string): string {
  const first = word[0] ?? '';
  const rest = escapeRegex(word.slice(1));
  if (first.toLowerCase() === first.toUpperCase() || first !== first.toLowerCase()) return escapeRegex(first) + rest;
  return `[${first}${first.toUpperCase()}]${rest}`;
}

/** No break after any of these abbreviations (written without their final period) before a space. */
export function noBreakAfterAbbreviations(abbreviations: readonly string[]): SegmentationRule {
  const alternatives = [...abbreviations]
    .sort((a, b) => b.length - a.length)
    .map(eitherCaseFirst)
    .join('|');
  return { break: false, before: `${WORD_START}(?:${alternatives})\\.`, after: '\\s' };
}

/** Used in every language: titles that travel across languages. */
export const UNIVERSAL_ABBREVIATIONS = ['Dr', 'Prof', 'Mr', 'Mrs', 'Ms', 'vs', 'cf', 'Nr', 'Mgr', 'Ing', 'Dipl', 'Ph.D', 'PhD'] as const;

export const ENGLISH_ABBREVIATIONS = [
  'Messrs',
  'Mmes',
  'Sr',
  'Jr',
  'St',
  'Mt',
  'Gen',
  'Col',
  'Capt',
  'Lt',
  'Sgt',
  'Rev',
  'Hon',
  'Gov',
  'Sen',
  'Rep',
  'Inc',
  'Ltd',
  'Co',
  'Corp',
  'Bros',
  'approx',
  'dept',
  'fig',
  'vol',
  'pp',
] as const;

export const GERMAN_ABBREVIATIONS = [
  'bzw',
  'ca',
  'Hr',
  'Hrn',
  'Fr',
  'vgl',
  'ggf',
  'inkl',
  'exkl',
  'evtl',
  'sog',
  'Str',
  'Tel',
  'Abb',
  'Abs',
  'Art',
  'Bd',
  'Kap',
  'Jh',
  'Mio',
  'Mrd',
  'geb',
  'gest',
  'zzgl',
] as const;

export const FRENCH_ABBREVIATIONS = [
  'MM',
  'Mme',
  'Mmes',
  'Mlle',
  'Mlles',
  'Me',
  'Pr',
  'env',
  'chap',
  'art',
  'av',
  'apr',
  'ex',
  'cf',
] as const;

export const CZECH_ABBREVIATIONS = [
  'např',
  'tzv',
  'tj',
  'tzn',
  'resp',
  'popř',
  'příp',
  'mj',
  'př',
  'č',
  'str',
  'odst',
  'písm',
  'Bc',
  'PhDr',
  'MUDr',
  'JUDr',
  'RNDr',
  'doc',
  'prof',
  'Ing',
  'Mgr',
  'ul',
  'nám',
  'cca',
  'sv',
  'roč',
] as const;

const GERMAN_MONTHS = 'Januar|J\u00E4nner|Februar|Feber|M\u00E4rz|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember';
const GERMAN_ORDINAL_NOUNS = 'Jahrhunderts?|Jahrtausends?|Mal|Platz|Stock|Stockwerk|Klasse|Auflage|Lebensjahr|Geburtstag|Kapitel|Weltkrieg';

/** Exceptions every language shares; they precede the break rules in DEFAULT_RULES. */
const DEFAULT_EXCEPTIONS: SegmentationRule[] = [
  // Initials and one-letter abbreviations: "J. R. R. Tolkien", "M. Dupont", "U.S. Army", "z. B." (its "B.").
  { break: false, before: `${WORD_START}\\p{Lu}\\.`, after: '\\s' },
  // Dotted abbreviations: "e.g.", "i.e.", "a.m.", "p.m.", "U.S.A.", "z.B.", and "z. B.", "d. h.", "u. a.".
  { break: false, before: `${WORD_START}(?:\\p{L}\\.\\s?){1,3}\\p{L}\\.`, after: '\\s' },
  // The first part of a spaced abbreviation: the "z." of "z. B.", the "d." of "d. h.".
  { break: false, before: `${WORD_START}\\p{L}\\.`, after: '\\s\\p{L}\\.(?![\\p{L}\\p{N}])' },
  // Numbered and lettered list markers at the start of the text or of a line: "1. Introduction", "2.3. Scope", "IV. Teil".
  { break: false, before: '(?:^|\\n)[^\\S\\n]*(?:(?:\\d{1,3}\\.)+|\\p{L}\\.|[IVXLC]{1,6}\\.)', after: '\\s' },
  // An omission inside brackets: "(...) The" and "[…] The" continue the sentence.
  { break: false, before: '[(\\[](?:\\.{3}|\u2026)[)\\]]', after: '\\s' },
  // "No. 5", "Nr. 7", "č. 12", "p. 3": an abbreviation before a number.
  { break: false, before: `${WORD_START}(?:[Nn]o|[Nn]r|[Nn]um|[Pp]p?|\u010D|[Aa]rt|[Ss]ec|[Cc]h|[Ff]ig|[Vv]ol)\\.`, after: '\\s*\\d' },
  noBreakAfterAbbreviations(UNIVERSAL_ABBREVIATIONS),
];

/** Breaks every language shares; they come last. */
const DEFAULT_BREAKS: SegmentationRule[] = [
  // ". ! ? …" (and the Arabic, Devanagari, Armenian, Ethiopic full stops), closing quotes/brackets,
  // then whitespace and a sentence start.
  // French sets a (narrow) no-break space before the closing guillemet: "« Bien. » Fin."
  // (One terminal character suffices: a lookbehind only needs to exist, and `+` would make it
  // scan back over a whole run of dots at every position. Closers are bounded for the same reason.)
  { break: true, before: `${TERMINAL}(?:${CLOSERS}|[ \u00A0\u202F]\u00BB){0,8}`, after: `\\s+${SENTENCE_START}` },
  // Chinese and Japanese full stops need no space; never split before further closing punctuation.
  { break: true, before: `${CJK_TERMINAL}${CLOSERS}{0,8}`, after: `(?![\\p{Pe}\\p{Pf}"'${CJK_TERMINAL.slice(1, -1)}])` },
  // A blank line or a paragraph separator always ends a segment.
  { break: true, before: '\\n[^\\S\\n]*\\n|\u2029', after: '' },
];

export const DEFAULT_RULES: readonly SegmentationRule[] = [...DEFAULT_EXCEPTIONS, ...DEFAULT_BREAKS];

export const ENGLISH_RULES: readonly SegmentationRule[] = [noBreakAfterAbbreviations(ENGLISH_ABBREVIATIONS)];

export const GERMAN_RULES: readonly SegmentationRule[] = [
  noBreakAfterAbbreviations(GERMAN_ABBREVIATIONS),
  // Ordinal numbers: "am 1. Januar", "im 19. Jahrhundert", "der 2. Weltkrieg".
  { break: false, before: `${WORD_START}\\d{1,4}\\.`, after: `\\s+(?:${GERMAN_MONTHS}|${GERMAN_ORDINAL_NOUNS})(?![\\p{L}])` },
];

export const FRENCH_RULES: readonly SegmentationRule[] = [noBreakAfterAbbreviations(FRENCH_ABBREVIATIONS)];

export const CZECH_RULES: readonly SegmentationRule[] = [noBreakAfterAbbreviations(CZECH_ABBREVIATIONS)];

/**
 * Thai (and Lao) write no sentence punctuation: a space separates phrases and sentences alike, so
 * no rule can tell them apart. We split only on the text's own line breaks.
 */
export const THAI_RULES: readonly SegmentationRule[] = [{ break: true, before: '\\n', after: '' }];

export const DEFAULT_RULE_SET: RuleSet = {
  cascade: true,
  languageRules: [
    { name: 'English', rules: ENGLISH_RULES },
    { name: 'German', rules: GERMAN_RULES },
    { name: 'French', rules: FRENCH_RULES },
    { name: 'Czech', rules: CZECH_RULES },
    { name: 'Thai', rules: THAI_RULES },
    { name: 'Default', rules: DEFAULT_RULES },
  ],
  maps: [
    { languagePattern: 'en(-.*)?', languageRuleName: 'English' },
    { languagePattern: 'de(-.*)?', languageRuleName: 'German' },
    { languagePattern: 'fr(-.*)?', languageRuleName: 'French' },
    { languagePattern: 'cs(-.*)?', languageRuleName: 'Czech' },
    { languagePattern: '(th|lo)(-.*)?', languageRuleName: 'Thai' },
    { languagePattern: '.*', languageRuleName: 'Default' },
  ],
};
