/**
 * spellCheck -> SpellCheck (docs/quality-assurance.md, docs/spelling.md): the target's words the
 * speller of the target language does not know. One warning per distinct misspelled word (key: the
 * word), misspelledWords listing each occurrence with its offset in the target. A word that the
 * source has too (compared in lower case: `git`, `Commit` for `commit`, a product name) is copied,
 * not misspelled, and is not reported, as the Spell Check API's `referenceTexts` do. Without a
 * speller the engine reports spelling as unchecked instead of calling this.
 */
import { spellingTokens } from '../../spelling/tokenize.js';
import type { QaText } from '../text.js';
import { warning } from '../text.js';
import type { QaSpeller, QaWarning } from '../types.js';

export function checkSpelling(source: QaText, target: QaText, speller: QaSpeller, out: QaWarning[], ignorable: boolean): void {
  const words = speller.misspelled(target.text);
  if (words.length === 0) return;
  const inSource = wordsOf(source.text);
  const byWord = new Map<string, { word: string; offset: number }[]>();
  for (const { word, offset } of words) {
    if (inSource.has(word.toLowerCase())) continue;
    const list = byWord.get(word);
    if (list) list.push({ word, offset });
    else byWord.set(word, [{ word, offset }]);
  }
  for (const [word, misspelledWords] of byWord) out.push(warning('SpellCheck', word, ignorable, { misspelledWords }));
}

/** The words of a text in lower case (the tokens a speller reads). */
function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const { word } of spellingTokens(text)) words.add(word.toLowerCase());
  return words;
}
