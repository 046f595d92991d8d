import { describe, expect, it } from 'vitest';
import { countText } from './word-count.js';

/**
 * Where our word count differs from translate-toolkit's `pocount` (3.8), on purpose
 * (docs/segmentation-and-counting.md, "Compared with translate-toolkit's pocount"). Each case is
 * taken from, or shaped like, a string of the gettext catalogs that bench/word-count-vs-pocount.ts
 * compares; the pocount column is what pocount itself counts for the string, and the port below
 * reproduces it (the bench checks the port against pocount on every catalog string).
 */

/** `translate.lang.common.Common.punctuation`: the characters pocount strips from both ends of a word. */
const POCOUNT_PUNCTUATION = new Set([
  ...'.,;:!?-@#$%^*_()[]{}/\\\'`"<>\u2018\u2019\u201b\u201c\u201d\u201e\u201f\u2032\u2033\u2034\u2035\u2036\u2037\u2039\u203a\u00ab\u00bb\u00bf\u00a1\u060c\u061f\u061b\u00f7\u3002\u3001\uff0c\uff1b\uff01\uff1f\u300c\u300d\u300e\u300f\u3010\u3011\u0964\u0965\u0970\u1362\u1364\u1363\u2026\u00b1\u00b0\u00b9\u00b2\u00b3\u00b7\u00a9\u00ae\u00d7\u00a3\u00a5\u20ac',
]);
const W = '[\\p{L}\\p{N}\\p{Mn}\\p{Mc}_]';
const XML_TAG = new RegExp(`<(?:${W}|[.:])+(?:\\s(?:(?:${W}|[.:])+=(?:(?:".*?")|(?:'.*?')))?)*\\/?>|<\\/(?:${W}|\\.)+>`, 'gu');

/**
 * pocount's `wordcount()` (translate/tools/pocount.py): `<br>` becomes a line break, tag-shaped
 * text is removed, every non-digit + "." + non-digit becomes one space, then words are the
 * whitespace-separated tokens that keep something once POCOUNT_PUNCTUATION is stripped from both ends.
 */
function pocountWords(text: string): number {
  const prepared = text
    .replace(/<br\s*?\/?>/gu, '\n')
    .replace(XML_TAG, '')
    .replace(/\P{Nd}\.\P{Nd}/gu, ' ');
  // eslint-disable-next-line no-control-regex -- Python's str.split() splits at U+001C..U+001F too
  const tokens = prepared.split(/[\t\n\v\f\r\x1C-\x1F \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/u);
  return tokens.filter((token) => [...token].some((char) => !POCOUNT_PUNCTUATION.has(char))).length;
}

// [language, text, our words, pocount's words, why]
const differences: [string, string, number, number, string][] = [
  // pocount's "\D\.\D" rule (meant to keep "3.14" whole) replaces letter + "." + letter by ONE space.
  [
    'en',
    'The file.txt was saved',
    4,
    5,
    'pocount splits a file name at the dot (and drops the letters beside it); UAX #29 keeps it one word',
  ],
  ['en', 'e.g. this one', 3, 2, 'the same rule turns "e.g." into " ." and the abbreviation vanishes'],
  ['de', 'z. B. eine Maus', 4, 2, 'across a space, the rule eats a one-letter word before ". ": "z." and "B." vanish'],
  ['de', ' %A, den %d. %B %Y', 5, 4, 'the rule eats "d. " of "%d. %B"'],
  // Symbols outside pocount's punctuation list are words for pocount.
  ['en', 'Hello = world', 2, 3, 'a free-standing "=" is a word for pocount, no word for UAX #29'],
  ['en', 'A | B', 2, 3, 'a free-standing "|"'],
  ['fr', 'attendez — vraiment', 2, 3, 'an em dash standing alone'],
  ['de', 'warten – wirklich', 2, 3, 'an en dash standing alone'],
  ['en', '• item', 1, 2, 'a bullet'],
  ['en', 'x + y', 2, 3, 'a plus sign standing alone'],
  // Tokens without spaces: pocount counts whitespace-separated tokens, UAX #29 splits at symbols.
  ['en', 'read and/or write', 4, 3, 'a slash separates two words'],
  ['en', 'I/O error', 3, 2, 'a slash separates two words, "I/O" included'],
  ['en', '--port=PORT', 2, 1, '"=" separates option and argument'],
  ['en', 'Remove the file(s)', 4, 3, 'brackets separate "file" and "s"'],
  ['en', 'N in [0..1]', 4, 3, 'two dots separate two numbers'],
  ['en', 'X.509 certificate', 3, 2, 'UAX #29 joins letters across a dot and digits across a dot, never a letter and a digit'],
  ['en', 'at 10:30', 3, 2, 'a colon is no number separator in UAX #29'],
  ['en', 'inplace::begin failed', 3, 2, 'a double colon separates'],
  ['en', 'git bisect--helper', 3, 2, 'only a single hyphen joins a compound'],
  ['en', 'AT&T syntax', 3, 2, '"&" separates'],
  ['en', 'Press Ctrl+Alt+Del', 4, 2, '"+" separates the keys'],
  ['en', 'PKCS#12 object', 3, 2, '"#" separates'],
  // Placeholders: plain text for countText (formats turn them into tags when told to: tagRegexp).
  ['en', 'Argument %2$s too big', 5, 4, 'a positional printf placeholder is two words for UAX #29 ("2", "s")'],
  ['en', 'Address 0x%<PRIx64> is invalid', 5, 4, 'pocount removes the gettext macro <PRIx64> as if it were a tag'],
  // URLs and e-mail addresses: one word for us; pocount splits them at dots and counts angle brackets off.
  ['en', 'See <http://gnu.org/licenses/gpl.html>.', 2, 4, 'a URL is one word'],
  ['en', 'Visit https://www.gnu.org/software/ today', 3, 5, 'a URL is one word'],
  ['en', 'Report bugs to <bug@gnu.org>.', 4, 5, 'an e-mail address is one word'],
  // Markup: pocount removes tag-shaped text; countText counts raw markup as text (formats replace
  // tags by placeholders before counting, which count nothing).
  ['en', '<b>Bold</b> text', 4, 2, 'raw tags: "b" and "b" are words for countText'],
  ['en', '\uE000Bold\uE800 text', 2, 2, 'the same text as a format delivers it: tag placeholders count nothing'],
  ['en', 'Usage: git add [<options>]', 4, 3, 'pocount removes "<options>", an argument name translators translate ("<Optionen>")'],
  ['en', 'Ctrl+Alt+&lt;key&gt;', 5, 1, 'escaped markup: entity names "lt" and "gt" are words for countText'],
  // Logographic scripts: characters divided by a factor (GMX-V); pocount counts whitespace-separated runs.
  ['zh_CN', '文件不存在', 1.79, 1, 'five Han characters / 2.8'],
  ['ja', 'ファイルが見つかりません', 4, 1, 'twelve kana and kanji / 3.0'],
];

const agreements: [string, string, number][] = [
  ['en', 'A state-of-the-art e-mail client', 4],
  ['en', "Don't stop", 2],
  ['en', 'Open _File', 2],
  ['en', '%s files', 2],
  ['en', '1,000 files', 2],
  ['en', 'Version 3.14', 2],
  ['en', 'Loading...', 1],
];

describe('word counts compared with translate-toolkit pocount', () => {
  it.each(differences)('%s %j: ours %d, pocount %d (%s)', (language, text, ours, pocount) => {
    expect(countText(text, language).words).toBe(ours);
    expect(pocountWords(text)).toBe(pocount);
  });

  it.each(agreements)('%s %j: %d words for both', (language, text, words) => {
    expect(countText(text, language).words).toBe(words);
    expect(pocountWords(text)).toBe(words);
  });
});
