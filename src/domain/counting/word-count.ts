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
 *    slashes and hyphens it holds. Trailing sentence punctuation is not part of it.
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
const URLS_AND_EMAILS =
  /(?:(?:https?|ftps?|file|mailto):\/\/|www\.)[^\s<>"\u3000-\u303F\uFF01-\uFF0F]+|(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"\u00BB\u201D\u2019]+$/u;
// U+30FC/U+FF70 (prolonged sound marks) are Common script but belong to the kana words they extend.
const LOGOGRAPHIC_RUNS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\u30FC\uFF70\u3005\u3006]+/gu;
const SCRIPT_TESTS: readonly [LogographicScript, RegExp][] = [
  ['Han', /^[\p{Script=Han}\u3005\u3006]/u],
  ['Hiragana', /^\p{Script=Hiragana}/u],
  ['Katakana', /^[\p{Script=Katakana}\u30FC\uFF70]/u],
  ['Hangul', /^\p{Script=Hangul}/u],
  ['Thai', /^\p{Script=Thai}/u],
];
const HYPHENS = new Set(['-', '\u2010', '\u2011']);
const WHITESPACE_ONLY = /^\s+$/u;

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

/** Words by Unicode word boundaries, hyphenated compounds as one. */
function countBoundaryWords(text: string, language: string): number {
  let words = 0;
  let lastWordEnd = -1;
  let hyphenEnd = -1;
  for (const { segment, index, isWordLike } of wordSegmenter(language).segment(text)) {
    if (isWordLike) {
      if (index !== hyphenEnd) words += 1;
      lastWordEnd = index + segment.length;
      hyphenEnd = -1;
    } else if (HYPHENS.has(segment) && index === lastWordEnd) {
      hyphenEnd = index + segment.length;
    } else {
      hyphenEnd = -1;
    }
  }
  return words;
}

function scriptOf(grapheme: string): LogographicScript | undefined {
  for (const [script, test] of SCRIPT_TESTS) if (test.test(grapheme)) return script;
  return undefined;
}

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
const LOW_SURROGATES = /[\uDC00-\uDFFF]/g;
const WHITESPACE = /\s/g;

/** Grapheme clusters, with and without whitespace; a fast path for text that needs no segmenter. */
export function countCharacters(text: string): { characters: number; charactersNoSpaces: number } {
  if (!JOINS_GRAPHEMES.test(text)) {
    const characters = text.length - (text.match(LOW_SURROGATES)?.length ?? 0);
    return { characters, charactersNoSpaces: characters - (text.match(WHITESPACE)?.length ?? 0) };
  }
  let characters = 0;
  let charactersNoSpaces = 0;
  for (const { segment } of graphemes.segment(text)) {
    characters += 1;
    if (!WHITESPACE_ONLY.test(segment)) charactersNoSpaces += 1;
  }
  return { characters, charactersNoSpaces };
}

/** Counts one text (typically a segment) in `language`. */
export function countText(text: string, language: string, options: CountOptions = {}): TextCounts {
  const factors = options.factors ?? LOGOGRAPHIC_FACTORS;
  const clean = text.replace(TAG_PLACEHOLDERS, '');

  const { characters, charactersNoSpaces } = countCharacters(clean);

  let words = 0;
  const withoutLinks = clean.replace(URLS_AND_EMAILS, (match) => {
    const trailing = TRAILING_PUNCTUATION.exec(match)?.[0] ?? '';
    if (trailing.length === match.length) return match;
    words += 1;
    return ` ${trailing}`;
  });

  const languageFactor = factors[baseLanguage(language)];
  let logographicWords = 0;
  const rest = withoutLinks.replace(LOGOGRAPHIC_RUNS, (run) => {
    if (languageFactor !== undefined) {
      logographicWords += countCharacters(run).characters / languageFactor;
      return ' ';
    }
    for (const { segment } of graphemes.segment(run)) {
      const script = scriptOf(segment);
      const factor = languageFactor ?? (script ? factors[SCRIPT_FACTOR_LANGUAGE[script]] : undefined) ?? 1;
      logographicWords += 1 / factor;
    }
    return ' ';
  });

  words += countBoundaryWords(rest, language);
  return { words: roundTo2(words + logographicWords), characters, charactersNoSpaces };
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
