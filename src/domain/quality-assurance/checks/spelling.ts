/**
 * spellCheck -> SpellCheck (docs/quality-assurance.md, docs/spelling.md): the target's words the
 * speller of the target language does not know. One warning per distinct misspelled word (key: the
 * word), misspelledWords listing each occurrence with its offset in the target. Without a speller
 * the engine reports spelling as unchecked instead of calling this.
 */
import type { QaText } from '../text.js';
import { warning } from '../text.js';
import type { QaSpeller, QaWarning } from '../types.js';

export function checkSpelling(target: QaText, speller: QaSpeller, out: QaWarning[], ignorable: boolean): void {
  const words = speller.misspelled(target.text);
  if (words.length === 0) return;
  const byWord = new Map<string, { word: string; offset: number }[]>();
  for (const { word, offset } of words) {
    const list = byWord.get(word);
    if (list) list.push({ word, offset });
    else byWord.set(word, [{ word, offset }]);
  }
  for (const [word, misspelledWords] of byWord) out.push(warning('SpellCheck', word, ignorable, { misspelledWords }));
}
