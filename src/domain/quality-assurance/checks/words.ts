/**
 * repeatedWords -> RepeatedWord (docs/quality-assurance.md): the same word twice in a row in the
 * target, case-insensitively, with only whitespace between (a tag, a placeholder or punctuation
 * between the two is no repetition). Words are Unicode letters, marks and digits (joined by an
 * apostrophe or hyphen); a repeated number (`1 1`) is no repeated word.
 */
import type { QaText } from '../text.js';
import { isWhitespace, position, warning } from '../text.js';
import type { QaPosition, QaWarning } from '../types.js';

const WORD = /[\p{L}\p{M}\p{N}]+(?:['\u2019-][\p{L}\p{M}\p{N}]+)*/gu;
const HAS_LETTER = /\p{L}/u;

function onlyWhitespace(text: string, from: number, to: number): boolean {
  if (from === to) return false;
  for (let i = from; i < to; i++) if (!isWhitespace(text.charCodeAt(i))) return false;
  return true;
}

export function checkRepeatedWords(target: QaText, out: QaWarning[], ignorable: boolean): void {
  const text = target.text;
  if (text.indexOf(' ') < 0 && !/\s/.test(text)) return;
  let previous = '';
  let previousStart = -1;
  let previousEnd = -1;
  let found: Map<string, QaPosition[]> | null = null;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    const word = match[0];
    const start = match.index;
    if (
      previousEnd >= 0 &&
      word.length === previous.length &&
      onlyWhitespace(text, previousEnd, start) &&
      (word === previous || word.toLowerCase() === previous.toLowerCase()) &&
      HAS_LETTER.test(word)
    ) {
      const key = word.toLowerCase();
      found ??= new Map();
      let positions = found.get(key);
      if (!positions) found.set(key, (positions = []));
      const last = positions[positions.length - 1];
      if (!last || last.beginIndex !== previousStart) positions.push(position(previousStart, previousEnd));
      positions.push(position(start, start + word.length));
    }
    previous = word;
    previousStart = start;
    previousEnd = start + word.length;
  }
  if (!found) return;
  for (const [key, positions] of found as Map<string, QaPosition[]>) {
    const first = positions[0]!;
    out.push(warning('RepeatedWord', key, ignorable, { word: text.slice(first.beginIndex, first.endIndex), positions }));
  }
}
