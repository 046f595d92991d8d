/**
 * The words of a segment text that a spelling check reads (docs/spelling.md, "Which words are
 * checked"). One left-to-right scan with one regular expression whose alternatives cannot
 * backtrack over each other, so the time is linear in the text's length.
 *
 * Skipped, never reported: inline tag display tokens (`{1>`, `<1}`, `{1}`), placeholders
 * (`%s`, `%1$d`, `%(name)s`, `%@`, `{0}`, `{name}`, `${x}`, `{{x}}`), markup tags and entities
 * (`<br/>`, `&amp;`), URLs, e-mail addresses, and the word-like runs that are not words:
 * numbers and anything with a digit, identifiers (an underscore, camelCase, an inner dot such as
 * `file.txt` or `z.B`), acronyms in capitals (`HTML`) and single letters.
 *
 * A word is a run of Unicode letters and marks joined by inner apostrophes (`l'homme`, `don't`,
 * `aujourd’hui`) and hyphens (`E-Mail-Adresse`); a hyphen that ends a truncated compound
 * (`Lese- und Schreibrechte`) stays on the word, as the dictionaries spell it.
 */

export interface SpellingToken {
  word: string;
  /** Where the word starts, in code units of the text. */
  offset: number;
}

const TAG = String.raw`\{\d{1,9}>|<\d{1,9}\}`;
const BRACES = String.raw`\$\{[^{}\s]{0,200}\}|\{\{[^{}]{0,200}\}\}|\{[^{}\s]{0,200}\}`;
const PRINTF = String.raw`%(?:\d{1,3}\$|\([\w.-]{1,100}\))?[-+#0]{0,5}(?:\d{1,4}|\*)?(?:\.(?:\d{1,4}|\*))?(?:hh|ll|[hlLqjzt])?[diouxXeEfFgGaAcspn@%]`;
const MARKUP = String.raw`<\/?[A-Za-z][^<>\n]{0,500}>|&(?:[A-Za-z]{1,30}|#\d{1,7}|#x[\dA-Fa-f]{1,6});`;
const URL = String.raw`\b(?:https?|ftps?|sftp|file|mailto|tel|ssh|git):\/{0,3}[^\s<>"{}]+|\bwww\.[^\s<>"{}]+`;
const EMAIL_PART = String.raw`[\p{L}\p{N}._%+\-]`;
const DOMAIN_PART = String.raw`[\p{L}\p{N}\-]`;
const EMAIL = String.raw`(?<!${EMAIL_PART})${EMAIL_PART}+@${DOMAIN_PART}+(?:\.${DOMAIN_PART}+)+`;
const WORD_CHAR = String.raw`[\p{L}\p{M}\p{N}_]`;
const WORD = String.raw`(?<!${WORD_CHAR})${WORD_CHAR}+(?:['’ʼ.\-]${WORD_CHAR}+)*`;

/** Skipped spans first (named group `skip`), then a word candidate. */
const SCAN = new RegExp(`(?<skip>${TAG}|${BRACES}|${PRINTF}|${MARKUP}|${URL}|${EMAIL})|${WORD}`, 'gu');

const HAS_DIGIT_OR_UNDERSCORE = /[\p{N}_]/u;
const HAS_LOWER = /\p{Ll}/u;
const CAMEL_CASE = /\p{Ll}\p{M}*\p{Lu}/u;
const LETTER = /\p{L}/gu;

/** Whether a word-like run is a word to check (see the header). */
function isWord(run: string): boolean {
  if (HAS_DIGIT_OR_UNDERSCORE.test(run)) return false;
  if (run.includes('.')) return false;
  if (!HAS_LOWER.test(run)) {
    // No lower-case letter: an acronym (HTML, PDF) or a script without case (日本, עברית).
    if (/\p{Lu}/u.test(run)) return false;
  }
  if (CAMEL_CASE.test(run)) return false;
  const letters = run.match(LETTER);
  return letters !== null && letters.length > 1;
}

/** The words of `text` to check, in order, each with its offset. */
export function spellingTokens(text: string): SpellingToken[] {
  const tokens: SpellingToken[] = [];
  SCAN.lastIndex = 0;
  for (let m = SCAN.exec(text); m !== null; m = SCAN.exec(text)) {
    if (m.groups?.skip !== undefined) continue;
    let word = m[0];
    if (!isWord(word)) continue;
    const end = m.index + word.length;
    // A truncated compound: "Lese- und", "Ein-/Ausgabe", "Haupt-, Neben-".
    if (text.charCodeAt(end) === 0x2d) {
      const after = text.charAt(end + 1);
      if (after === '' || after === '/' || after === ',' || /\s/u.test(after)) word += '-';
    }
    tokens.push({ word, offset: m.index });
  }
  return tokens;
}
