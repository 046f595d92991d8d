/**
 * Word and character counting, GMX-V-like (docs/segmentation-and-counting.md).
 *
 * Rules, in the order they apply to a text:
 * 1. Inline tag placeholders (U+E000..U+F8FF, the segmentation contract) are removed first: they
 *    count zero words and zero characters, and a tag inside a word does not split it.
 * 2. Characters are user-perceived characters (extended grapheme clusters, UAX #29): "é" written
 *    as e + combining accent is one, an emoji sequence is one. `charactersNoSpaces` leaves out
 *    whitespace.
 * 3. A URL (`scheme://...`, `www....`) or an e-mail address counts as ONE word, whatever dots,
 *    slashes and hyphens it holds. Trailing sentence punctuation is not part of it, nor is any
 *    logographic character (LINK_STOPS): a URL ends at the first one, and an e-mail address holds
 *    none, so `詳細はhttp://example.com/を参照` counts as `詳細は http://example.com/ を参照`.
 * 4. Logographic scripts (Han, Hiragana, Katakana, Hangul, Thai) count characters divided by a
 *    factor (LOGOGRAPHIC_FACTORS, data): the factor of the text's language when the table has
 *    one (all logographic characters of a Japanese text count /3.0, kanji included), otherwise
 *    the factor of the script's own language (Han in an English text counts /2.8). A factor of 1
 *    reproduces Phrase's "a CJK character is a word".
 * 5. Everything else: words by Unicode word boundaries (`Intl.Segmenter`, granularity 'word',
 *    segments that are `isWordLike`), so numbers ("3.14", "1,000", "42") are words and "don't",
 *    "l'homme" are one word each; words joined by a hyphen with no space ("e-mail",
 *    "state-of-the-art", "Max-Planck-Institut", "20-30") count as ONE word.
 *
 * Words are fractional where rule 4 applies; `countText` rounds each text's words to 2 decimals
 * and `sumWords` adds such counts into the whole number the API reports (spec: wordsCount int32),
 * rounding half up once, at the end.
 *
 * Cost: linear in the text's length. V8's Intl.Segmenter is not: every step of its iterator costs
 * time proportional to the whole string (a 200,000-character text took 23 s). So the segmenters
 * only ever see windows of at most MAX_WINDOW characters (`windowedSegments`), cut where a
 * boundary is certain whatever surrounds it (before white space for words; between two plain
 * letters, digits or punctuation for grapheme clusters). Only a run of more than MAX_WINDOW
 * characters without any such place (no white space, no punctuation, e.g. thousands of Lao
 * letters) is cut at MAX_WINDOW, which may count one word or character more there.
 */
export interface TextCounts {
  words: number;
  characters: number;
  charactersNoSpaces: number;
}

/** Characters per word (GMX-V). Keys are language codes without region. */
export const LOGOGRAPHIC_FACTORS: Readonly<Record<string, number>> = { zh: 2.8, ja: 3.0, ko: 3.3, th: 6.0 };

/** Which language's factor a logographic script uses in a text of another language. */
export const SCRIPT_FACTOR_LANGUAGE: Readonly<Record<LogographicScript, string>> = {
  Han: 'zh',
  Hiragana: 'ja',
  Katakana: 'ja',
  Hangul: 'ko',
  Thai: 'th',
};

export type LogographicScript = 'Han' | 'Hiragana' | 'Katakana' | 'Hangul' | 'Thai';

export interface CountOptions {
  /** Replaces LOGOGRAPHIC_FACTORS (e.g. `{ zh: 1, ja: 1, ko: 1 }` to count like Phrase). */
  factors?: Readonly<Record<string, number>>;
}

const TAG_PLACEHOLDERS = /[\uE000-\uF8FF]/g;
/**
 * Quantifiers are bounded: V8 runs `+` over a long run of Thai or Han letters out of stack. A URL
 * longer than MAX_LINK counts as more than one word; an e-mail local part longer than it is not
 * recognized as one.
 */
const MAX_LINK = 65_536;
/**
 * Characters no URL or e-mail address contains (rule 3), so that one written against CJK, Hangul
 * or Thai text without a space leaves that text to rule 4: the logographic scripts, the kana marks
 * that are not of a kana script (spacing voicing marks, `・`, `ー`), CJK punctuation (U+3000..U+303F:
 * `。`, `、`, `「`...) and the halfwidth and fullwidth forms (U+FF00..U+FFEF: `：`, `（`, `Ａ`...).
 */
const LINK_STOPS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\u3000-\\u303F\\u309B\\u309C\\u30FB\\u30FC\\uFF00-\\uFFEF';
/** Characters of an e-mail address's local part and of its domain (the `v` flag's `--` subtracts LINK_STOPS). */
const EMAIL_LOCAL = `[[\\p{L}\\p{N}._%+\\-]--[${LINK_STOPS}]]`;
const EMAIL_DOMAIN = `[[\\p{L}\\p{N}\\-]--[${LINK_STOPS}]]`;
/**
 * An e-mail address starts at an EMAIL_LOCAL character that follows none. The expression tries
 * every position of the text, so the start is tested cheaply first: not after an ASCII local-part
 * character (rejects the inside of Latin words with one small class), then on an EMAIL_LOCAL
 * character (rejects CJK and Thai text), and only then not after one. Testing `(?<!EMAIL_LOCAL)`
 * alone first made counting CJK text 1.5 times slower.
 */
const EMAIL_START = `(?<![A-Za-z0-9._%+\\-])(?=${EMAIL_LOCAL})(?<!${EMAIL_LOCAL})`;
const URLS_AND_EMAILS = new RegExp(
  `(?:(?:https?|ftps?|file|mailto)://|www\\.)[^\\s<>"${LINK_STOPS}]{1,${MAX_LINK}}` +
    `|${EMAIL_START}${EMAIL_LOCAL}{1,${MAX_LINK}}@${EMAIL_DOMAIN}{1,${MAX_LINK}}(?:\\.${EMAIL_DOMAIN}{1,${MAX_LINK}}){1,${MAX_LINK}}`,
  'gv',
);
// U+30FC/U+FF70 (prolonged sound marks) are Common script but belong to the kana words they extend.
// Runs come in pieces of at most MAX_LINK code points (see URLS_AND_EMAILS); countText joins adjacent pieces.
const LOGOGRAPHIC_RUNS = new RegExp(
  `[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\u30FC\\uFF70\\u3005\\u3006]{1,${MAX_LINK}}`,
  'gu',
);
const HYPHENS = new Set(['-', '\u2010', '\u2011']);
const WHITESPACE_ONLY = /^\s+$/u;
/** Sentence punctuation that may trail a URL or an e-mail address without belonging to it. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', "'", '"', '\u00BB', '\u201D', '\u2019']);

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
const wordSegmenters = new Map<string, Intl.Segmenter>();

/** `zh_TW` -> `zh`. */
export function baseLanguage(language: string): string {
  return language.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

function wordSegmenter(language: string): Intl.Segmenter {
  const tag = language.trim().replace(/_/g, '-');
  let segmenter = wordSegmenters.get(tag);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(tag === '' ? 'und' : tag, { granularity: 'word' });
    } catch {
      segmenter = new Intl.Segmenter('und', { granularity: 'word' });
    }
    wordSegmenters.set(tag, segmenter);
  }
  return segmenter;
}

function roundTo2(value: number): number {
  return Math.round(value * 100) / 100;
}

// ---------------------------------------------------------------------------------------------
// Windows for Intl.Segmenter (linear time; see the header)

/** Segmenter windows: about WINDOW code units, cut at a certain boundary within MAX_WINDOW. */
const WINDOW = 256;
const MAX_WINDOW = 1024;
/** Boundaries found within this many code units of a forced cut are not trusted (rules look ahead). */
const LOOKAHEAD = 16;
const SPACE = /\s/;
/**
 * ASCII characters of Word_Break class "Other" (UAX #29): no rule joins them to what precedes,
 * so a word boundary before one is certain.
 */
const ALWAYS_BREAKS_BEFORE = new Set('!#$%&()*+-/<=>?@[\\]^`{|}~'.split(''));
/** Code units that begin or end a grapheme cluster only by themselves (letters, digits, punctuation, spaces)... */
const PLAIN_GRAPHEME = /^[\p{L}\p{N}\p{P}\p{Zs}]$/u;
/** ... except Hangul jamo, Prepend letters, letters that are spacing or extending marks, and emoji. */
const JOINING_LETTER = /^[\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\u0D4E\u0E33\u0EB3\uFF9E\uFF9F\p{Extended_Pictographic}]$/u;

/** A word boundary before `at` that no context can remove: white space after something else, or a "break always" character. */
function certainWordBoundary(text: string, at: number): boolean {
  const char = text[at]!;
  if (SPACE.test(char)) return !SPACE.test(text[at - 1]!);
  return ALWAYS_BREAKS_BEFORE.has(char) && text.charCodeAt(at - 1) !== 0x200d;
}

function plainGrapheme(char: string): boolean {
  return PLAIN_GRAPHEME.test(char) && !JOINING_LETTER.test(char);
}

const EMOJI = /^\p{Extended_Pictographic}/u;
const PREPEND =
  /[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u0D4E\u{110BD}\u{110CD}\u{111C2}\u{111C3}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}]$/u;

/**
 * A grapheme cluster boundary before `at` that no context can remove: between two plain
 * characters, or before an emoji that follows neither a ZWJ (GB11) nor a Prepend character (GB9b).
 */
function certainGraphemeBoundary(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code >= 0xdc00 && code <= 0xdfff) return false;
  if (plainGrapheme(text[at]!) && plainGrapheme(text[at - 1]!)) return true;
  if (!EMOJI.test(text.slice(at, at + 2))) return false;
  return text.charCodeAt(at - 1) !== 0x200d && !PREPEND.test(text.slice(Math.max(0, at - 2), at));
}

interface Piece {
  segment: string;
  /** Offset in the whole text. */
  index: number;
  isWordLike: boolean | undefined;
}

/** What `windowedSegments` hands out: a segment, or a whole window `fast` matched (the caller reads it itself). */
type WindowItem = Piece | { fastText: string; start: number };

/**
 * `segmenter.segment(text)`, run window by window, so that the work stays linear however long
 * the text is. A window ends where `certain` says a boundary cannot move. Where no such place
 * comes within MAX_WINDOW code units, the window is cut, and only its segments that end at least
 * LOOKAHEAD code units before the cut are taken; the next window starts after them (a single
 * segment longer than the window doubles the window until it fits). A window that `fast`
 * matches is handed out whole instead of segmented.
 */
function* windowedSegments(
  segmenter: Intl.Segmenter,
  text: string,
  certain: (text: string, at: number) => boolean,
  fast?: RegExp,
): Generator<WindowItem> {
  let start = 0;
  while (start < text.length) {
    let end = text.length;
    if (end - start > MAX_WINDOW) {
      // Back from WINDOW to half of it, then forward up to MAX_WINDOW: each window advances at
      // least WINDOW / 2, and each code unit is looked at a bounded number of times.
      end = start + WINDOW;
      while (end > start + WINDOW / 2 && !certain(text, end)) end--;
      if (end === start + WINDOW / 2) {
        end = start + WINDOW + 1;
        while (end <= start + MAX_WINDOW && !certain(text, end)) end++;
      }
    }
    if (end <= start + MAX_WINDOW) {
      const window = start === 0 && end === text.length ? text : text.slice(start, end);
      if (fast?.test(window)) yield { fastText: window, start };
      else for (const { segment, index, isWordLike } of segmenter.segment(window)) yield { segment, index: start + index, isWordLike };
      start = end;
      continue;
    }
    for (let size = WINDOW; ; size *= 2) {
      const cut = Math.min(text.length, start + size);
      const pieces = [...segmenter.segment(text.slice(start, cut))];
      let keep = pieces.length;
      if (cut < text.length) {
        while (keep > 0 && pieces[keep - 1]!.index + pieces[keep - 1]!.segment.length > cut - start - LOOKAHEAD) keep--;
        if (keep === 0) continue;
      }
      for (let i = 0; i < keep; i++) {
        const { segment, index, isWordLike } = pieces[i]!;
        yield { segment, index: start + index, isWordLike };
      }
      const last = pieces[keep - 1]!;
      start += last.index + last.segment.length;
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Words

/**
 * Text the fast path reads exactly as Intl.Segmenter does: ASCII but the underscore (whose word
 * status ICU decides oddly), Latin letters (Latin-1, Extended-A and -B), Cyrillic letters,
 * Latin-1 punctuation and symbols but the soft hyphen and the middle dot, general punctuation
 * (dashes, quotes, ellipsis), CJK punctuation and ideographic space. The tests compare both on
 * random text of these characters in several languages.
 */
const FAST_WORDS =
  /^[\t\n\v\f\r\x20-\x5E\x60-\x7E\u00A0-\u00AC\u00AE-\u00B6\u00B8-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0400-\u0481\u048A-\u052F\u2010-\u2017\u2018\u2019\u201A-\u2023\u2026\u3000-\u3004\u3008-\u3011\u3014-\u301F\uFF01\uFF08\uFF09\uFF1F]*$/;

/** Letters of FAST_WORDS text (Word_Break ALetter). */
function isLetterCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0xc0 && code <= 0x052f && code !== 0xd7 && code !== 0xf7) ||
    code === 0xaa ||
    code === 0xb5 ||
    code === 0xba
  );
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** `:` (MidLetter) and `.` `'` `‘` `’` (MidNumLetQ): inside a word between letters (WB6-7). */
function isMidLetter(code: number): boolean {
  return code === 0x2e || code === 0x27 || code === 0x3a || code === 0x2018 || code === 0x2019;
}

/** `,` `;` (MidNum) and `.` `'` `‘` `’` (MidNumLetQ): inside a number between digits (WB11-12). */
function isMidNumber(code: number): boolean {
  return code === 0x2e || code === 0x27 || code === 0x2c || code === 0x3b || code === 0x2018 || code === 0x2019;
}

function isHyphenCode(code: number): boolean {
  return code === 0x2d || code === 0x2010 || code === 0x2011;
}

/** Words counted so far; offsets are in the whole text, so that windows continue each other. */
interface WordTally {
  words: number;
  lastWordEnd: number;
  /** A word starting here continues a hyphenated compound (not counted again). */
  hyphenEnd: number;
}

/**
 * UAX #29 word boundaries for FAST_WORDS text in one pass: letters and digits join (WB5, WB8-10),
 * MidLetter / MidNumLet characters between two letters (WB6-7) or two digits (WB11-12) stay inside
 * the word, everything else separates. Hyphenated compounds count once.
 */
function tallySimpleWords(text: string, offset: number, tally: WordTally): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (!isLetterCode(code) && !isDigitCode(code)) {
      tally.hyphenEnd = isHyphenCode(code) && offset + i === tally.lastWordEnd ? offset + i + 1 : -1;
      i += 1;
      continue;
    }
    const start = i;
    i += 1;
    while (i < length) {
      const next = text.charCodeAt(i);
      if (isLetterCode(next) || isDigitCode(next)) {
        i += 1;
        continue;
      }
      const before = text.charCodeAt(i - 1);
      const after = i + 1 < length ? text.charCodeAt(i + 1) : -1;
      const inWord = isMidLetter(next) && isLetterCode(before) && isLetterCode(after);
      const inNumber = isMidNumber(next) && isDigitCode(before) && isDigitCode(after);
      if (!inWord && !inNumber) break;
      i += 2;
    }
    if (offset + start !== tally.hyphenEnd) tally.words += 1;
    tally.lastWordEnd = offset + i;
    tally.hyphenEnd = -1;
  }
}

/** Words by Unicode word boundaries, hyphenated compounds as one. */
function countBoundaryWords(text: string, language: string): number {
  const tally: WordTally = { words: 0, lastWordEnd: -1, hyphenEnd: -1 };
  if (FAST_WORDS.test(text)) {
    tallySimpleWords(text, 0, tally);
    return tally.words;
  }
  for (const item of windowedSegments(wordSegmenter(language), text, certainWordBoundary, FAST_WORDS)) {
    if ('fastText' in item) {
      tallySimpleWords(item.fastText, item.start, tally);
      continue;
    }
    const { segment, index, isWordLike } = item;
    if (isWordLike) {
      if (index !== tally.hyphenEnd) tally.words += 1;
      tally.lastWordEnd = index + segment.length;
      tally.hyphenEnd = -1;
    } else if (HYPHENS.has(segment) && index === tally.lastWordEnd) {
      tally.hyphenEnd = index + segment.length;
    } else {
      tally.hyphenEnd = -1;
    }
  }
  return tally.words;
}

// ---------------------------------------------------------------------------------------------
// Characters

/**
 * Anything that may join code points into one grapheme cluster (UAX #29): CR (CR LF), marks,
 * format characters (ZWJ, ZWNJ), emoji and their modifiers, regional indicators, prepended
 * marks, Hangul jamo, halfwidth voicing marks, Thai and Lao (SARA AM), Brahmic scripts beyond the BMP.
 * Text without any of them has one grapheme per code point; `characterCountsAgreeWithIntl` in the
 * tests checks that against Intl.Segmenter.
 */
const JOINS_GRAPHEMES =
  // eslint-disable-next-line no-misleading-character-class -- lists joining characters on purpose
  /[\r\p{M}\p{Cf}\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\p{Script=Thai}\p{Script=Lao}\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\uFF9E\uFF9F\u0D4E\u{11000}-\u{11FFF}]/u;
const WHITESPACE = /\s/g;

function countMatches(text: string, pattern: RegExp): number {
  let count = 0;
  pattern.lastIndex = 0;
  while (pattern.exec(text) !== null) count += 1;
  return count;
}

/**
 * JOINS_GRAPHEMES but for Thai and Lao. In Thai and Lao text the only joining is of a mark (or
 * SARA AM) to the character before it: no Prepend, no conjuncts, no Hangul.
 */
const JOINS_GRAPHEMES_BEYOND_THAI_LAO =
  // eslint-disable-next-line no-misleading-character-class -- lists joining characters on purpose
  /[\r\p{Cf}\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\uFF9E\uFF9F\u0D4E\u{11000}-\u{11FFF}]|(?![\u0E00-\u0EFF])\p{M}/u;
/** Thai and Lao characters that join the character before them (Extend and SpacingMark). */
const THAI_LAO_JOINER = /[\u0E31\u0E33-\u0E3A\u0E47-\u0E4E\u0EB1\u0EB3-\u0EBC\u0EC8-\u0ECE]/g;

const THAI_LAO_JOINS_BEFORE = /^[\u0E31\u0E33-\u0E3A\u0E47-\u0E4E\u0EB1\u0EB3-\u0EBC\u0EC8-\u0ECE]$/;

function isControl(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/** Code points of `text`; `joiners` (when given) count only where they cannot join (at the start, after a control). */
function countCodePoints(text: string, joiners?: RegExp): number {
  let lowSurrogates = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) lowSurrogates += 1;
  }
  let joined = 0;
  if (joiners) {
    joiners.lastIndex = 0;
    for (let match = joiners.exec(text); match; match = joiners.exec(text)) {
      if (match.index > 0 && !isControl(text.charCodeAt(match.index - 1))) joined += 1;
    }
  }
  return text.length - lowSurrogates - joined;
}

/** Grapheme clusters, with and without whitespace; fast paths for text that needs no segmenter. */
export function countCharacters(text: string): { characters: number; charactersNoSpaces: number } {
  if (!JOINS_GRAPHEMES.test(text)) {
    const characters = countCodePoints(text);
    return { characters, charactersNoSpaces: characters - countMatches(text, WHITESPACE) };
  }
  if (!JOINS_GRAPHEMES_BEYOND_THAI_LAO.test(text)) {
    const characters = countCodePoints(text, THAI_LAO_JOINER);
    // A joiner after white space joins it: that cluster is not white space any more.
    let spaces = 0;
    WHITESPACE.lastIndex = 0;
    for (let match = WHITESPACE.exec(text); match; match = WHITESPACE.exec(text)) {
      const joinedByNext = !isControl(match[0].charCodeAt(0)) && THAI_LAO_JOINS_BEFORE.test(text.slice(match.index + 1, match.index + 2));
      if (!joinedByNext) spaces += 1;
    }
    return { characters, charactersNoSpaces: characters - spaces };
  }
  let characters = 0;
  let charactersNoSpaces = 0;
  for (const item of windowedSegments(graphemes, text, certainGraphemeBoundary)) {
    if (!('segment' in item)) continue;
    characters += 1;
    if (!WHITESPACE_ONLY.test(item.segment)) charactersNoSpaces += 1;
  }
  return { characters, charactersNoSpaces };
}

/** One script's stretch of a logographic run: the group that matched names the script. */
const SCRIPT_STRETCHES = new RegExp(
  `([\\p{Script=Han}\\u3005\\u3006]{1,${MAX_LINK}})|(\\p{Script=Hiragana}{1,${MAX_LINK}})|([\\p{Script=Katakana}\\u30FC\\uFF70]{1,${MAX_LINK}})|(\\p{Script=Hangul}{1,${MAX_LINK}})|(\\p{Script=Thai}{1,${MAX_LINK}})`,
  'gu',
);
const STRETCH_SCRIPTS: readonly LogographicScript[] = ['Han', 'Hiragana', 'Katakana', 'Hangul', 'Thai'];

/** Logographic words of one run of logographic characters (rule 4): characters by script, divided by the factor. */
function logographicWords(run: string, languageFactor: number | undefined, factors: Readonly<Record<string, number>>): number {
  if (languageFactor !== undefined) return countCharacters(run).characters / languageFactor;
  let words = 0;
  let pieces: string[] = [];
  let pieceScript: LogographicScript | undefined;
  let pieceEnd = -1;
  const flush = () => {
    const factor = (pieceScript ? factors[SCRIPT_FACTOR_LANGUAGE[pieceScript]] : undefined) ?? 1;
    if (pieces.length > 0) words += countCharacters(pieces.join('')).characters / factor;
    pieces = [];
  };
  SCRIPT_STRETCHES.lastIndex = 0;
  for (let match = SCRIPT_STRETCHES.exec(run); match; match = SCRIPT_STRETCHES.exec(run)) {
    const script = STRETCH_SCRIPTS[match.slice(1).findIndex((group) => group !== undefined)];
    // Pieces of one stretch (bounded quantifier) are counted together.
    if (script !== pieceScript || match.index !== pieceEnd) flush();
    pieceScript = script;
    pieces.push(match[0]);
    pieceEnd = match.index + match[0].length;
  }
  flush();
  return words;
}

/**
 * Text `countText` counts without the general path: ASCII but carriage return (which joins a
 * grapheme with a line feed), other control characters and the underscore, so one character per
 * code unit, no tag placeholder, no logographic script, and words as `tallySimpleWords` reads
 * them. URLs and e-mail addresses are ruled out apart (SIMPLE_TEXT_LINKS).
 */
const SIMPLE_TEXT = /^[\t\n\v\f\x20-\x5E\x60-\x7E]*$/;
/** What every URL or e-mail address URLS_AND_EMAILS finds contains. */
const SIMPLE_TEXT_LINKS = /:\/\/|www\.|@/;
const ASCII_WHITESPACE = /[\t\n\v\f ]/g;

/**
 * Counts one text (typically a segment) in `language`. Linear in the text's length. Short plain
 * ASCII text (SIMPLE_TEXT) takes a shortcut that gives what `countTextInFull` gives (the tests
 * compare both on generated text).
 */
export function countText(text: string, language: string, options: CountOptions = {}): TextCounts {
  if (SIMPLE_TEXT.test(text) && !SIMPLE_TEXT_LINKS.test(text)) {
    const tally: WordTally = { words: 0, lastWordEnd: -1, hyphenEnd: -1 };
    tallySimpleWords(text, 0, tally);
    const characters = text.length;
    return { words: tally.words, characters, charactersNoSpaces: characters - countMatches(text, ASCII_WHITESPACE) };
  }
  return countTextInFull(text, language, options);
}

/** `countText` without its shortcut for plain ASCII text: every rule of the header, in order. */
export function countTextInFull(text: string, language: string, options: CountOptions = {}): TextCounts {
  const factors = options.factors ?? LOGOGRAPHIC_FACTORS;
  const clean = text.replace(TAG_PLACEHOLDERS, '');

  const { characters, charactersNoSpaces } = countCharacters(clean);

  let words = 0;
  const withoutLinks = clean.replace(URLS_AND_EMAILS, (match) => {
    // A loop, not /[...]+$/: that expression retries from every character of a long run.
    let keep = match.length;
    while (keep > 0 && TRAILING.has(match[keep - 1]!)) keep -= 1;
    if (keep === 0) return match;
    words += 1;
    return ` ${match.slice(keep)}`;
  });

  const languageFactor = factors[baseLanguage(language)];
  let logographic = 0;
  const rest: string[] = [];
  let copied = 0;
  let run: string[] = [];
  let runEnd = -1;
  LOGOGRAPHIC_RUNS.lastIndex = 0;
  for (let match = LOGOGRAPHIC_RUNS.exec(withoutLinks); match; match = LOGOGRAPHIC_RUNS.exec(withoutLinks)) {
    // Pieces of one run (bounded quantifier) are joined again before counting.
    if (match.index !== runEnd && run.length > 0) {
      logographic += logographicWords(run.join(''), languageFactor, factors);
      run = [];
    }
    if (match.index !== runEnd) rest.push(withoutLinks.slice(copied, match.index), ' ');
    run.push(match[0]);
    runEnd = match.index + match[0].length;
    copied = runEnd;
  }
  if (run.length > 0) logographic += logographicWords(run.join(''), languageFactor, factors);
  rest.push(withoutLinks.slice(copied));

  words += countBoundaryWords(rest.join(''), language);
  return { words: roundTo2(words + logographic), characters, charactersNoSpaces };
}

/**
 * The whole number of words of many counted texts (a job, an analysis): the exact sum of the
 * 2-decimal counts, rounded half up once.
 */
export function sumWords(words: readonly number[]): number {
  let hundredths = 0;
  for (const value of words) hundredths += Math.round(value * 100);
  return Math.floor((hundredths + 50) / 100);
}

/** Adds counts: words as `sumWords` does, characters as they are. */
export function sumCounts(counts: readonly TextCounts[]): TextCounts {
  return {
    words: sumWords(counts.map((count) => count.words)),
    characters: counts.reduce((total, count) => total + count.characters, 0),
    charactersNoSpaces: counts.reduce((total, count) => total + count.charactersNoSpaces, 0),
  };
}
