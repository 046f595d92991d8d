import { countText } from '../counting/word-count.js';

/**
 * What an analysis counts of one segment's text (docs/analysis.md, "Counting"). Pure, linear.
 * Texts come with inline tags as placeholder characters (U+E000..U+F8FF), which count nothing.
 */

/**
 * Placeholders of software strings, which a translator copies and is not paid to translate:
 * printf (`%s`, `%1$d`, `%-5.2f`, `%%`), Python named (`%(name)s`), `${name}`, `{{name}}`,
 * `{0}` / `{name}` / ICU argument names, and character references (`&amp;`, `&#160;`). Bounded
 * quantifiers only, so matching stays linear.
 */
const PLACEHOLDERS = new RegExp(
  [
    String.raw`%\([^()\s]{1,64}\)[-+ 0#]{0,5}\d{0,3}(?:\.\d{1,3})?[diouxXeEfFgGcrsa%]`,
    String.raw`%(?:\d{1,3}\$)?[-+ 0#']{0,5}\d{0,3}(?:\.\d{1,3})?(?:hh|h|ll|l|L|q|j|z|t|I64|I32)?[diouxXeEfFgGaAcCsSpn@%]`,
    String.raw`\$\{[^{}\s]{1,64}\}`,
    String.raw`\{\{[^{}]{1,64}\}\}`,
    String.raw`\{[\p{L}\p{N}_.:,\-]{1,64}\}`,
    String.raw`&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#x[0-9A-Fa-f]{1,6});`,
  ].join('|'),
  'gu',
);
const TAGS = /[\uE000-\uF8FF]/gu;
const LETTER = /\p{L}/u;
/** A number as written: digits with single `.` `,` `'` or thin spaces between digit groups. */
const NUMBERS = /\p{Nd}{1,64}(?:[.,'\u2009\u202F]\p{Nd}{1,64}){0,64}/gu;

/** The text without inline tags and software placeholders. */
export function withoutPlaceholders(text: string): string {
  return text.replace(TAGS, ' ').replace(PLACEHOLDERS, ' ');
}

/**
 * A non-translatable segment: once inline tags and placeholders are taken out, no letter is left
 * (only numbers, punctuation, symbols and spaces, or nothing). A translator copies it as it is.
 */
export function isNonTranslatable(text: string): boolean {
  return !LETTER.test(withoutPlaceholders(text));
}

export interface CountedText {
  /** Words in hundredths (logographic scripts count fractional words). */
  wordHundredths: number;
  /** User-perceived characters, spaces included, inline tags left out. */
  characters: number;
}

/**
 * Words and characters of a text in `language` by the documented counter (domain/counting).
 * Without `includeNumbers`, numbers are taken out before words are counted (characters still
 * count them: they are typed all the same).
 */
export function countSegmentText(text: string, language: string, includeNumbers: boolean): CountedText {
  if (text === '') return { wordHundredths: 0, characters: 0 };
  const counts = countText(text, language);
  const words = includeNumbers ? counts.words : countText(text.replace(NUMBERS, ' '), language).words;
  return { wordHundredths: Math.round(words * 100), characters: counts.characters };
}
