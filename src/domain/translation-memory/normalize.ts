/**
 * What a text is compared as (docs/translation-memory.md, "The score"). Pure, linear in the
 * text's length.
 *
 * Input: a segment text whose inline tags are already ONE placeholder character each, in the
 * private-use area U+E000..U+F8FF (the segmentation contract, src/domain/segmentation): the range
 * says the kind (DEFAULT_TAG_RANGES: opening, closing, standalone) and the caller may use the code
 * unit within the range to tell tags apart (the penalty for differing tags compares the exact code
 * units; the base compares kinds only).
 *
 * Forms:
 * - `text`: runs of whitespace (JavaScript `\s`, so no-break and ideographic spaces too) folded to
 *   one space, trimmed. The form shown and the one the identity hash is of is the caller's.
 * - `compared`: what the base score's edit distance runs over: `text` case-folded
 *   (`toLowerCase`, locale-independent), punctuation (Unicode `\p{P}`) left out, each number one
 *   NUMBER_CHARACTER, each tag one character of its kind, whitespace folded again where leaving
 *   out punctuation joined two runs.
 * - `cased`: `compared` without the case folding (to tell a case-only difference).
 * - `tags`, `numbers`, `punctuation`: what the penalties compare, in order of
 *   occurrence: the tag placeholders as given; the numbers as written (a number is a run of
 *   decimal digits `\p{Nd}`, with single `.`, `,` or `'` between digits inside it, so `1,000.50`
 *   is one number and its separators are not punctuation); the punctuation characters outside
 *   numbers.
 * - `spacing`: the original text with each run of non-whitespace as one U+0000, so that two texts
 *   with the same `text` were written alike exactly when their `spacing` is the same.
 */
import { defaultTagKind, isTagPlaceholder } from '../segmentation/segmenter.js';

/** Stands for a number in `compared`: a Unicode noncharacter, so no text or tag placeholder collides with it. */
export const NUMBER_CHARACTER = '\uFDD0';
/** Stand for a tag in `compared`, by kind (the first code unit of each default range). */
export const TAG_CHARACTERS = { opening: '\uE000', closing: '\uE800', standalone: '\uF000' } as const;

export interface NormalizedText {
  text: string;
  compared: string;
  cased: string;
  tags: string;
  numbers: string[];
  punctuation: string;
  spacing: string;
}

const WHITESPACE_RUNS = /\s+/gu;
const NON_WHITESPACE_RUNS = /\S+/gu;
const DIGIT = /\p{Nd}/u;
const PUNCTUATION = /\p{P}/u;
const NUMBER_SEPARATORS = new Set(['.', ',', "'"]);

/** Runs of whitespace to one space, trimmed. */
export function foldWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUNS, ' ').trim();
}

/** Case folding for comparison: locale-independent lower case. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

export function normalize(original: string): NormalizedText {
  const spacing = original.replace(NON_WHITESPACE_RUNS, '\u0000');
  const text = foldWhitespace(original);
  const numbers: string[] = [];
  let tags = '';
  let punctuation = '';
  let cased = '';
  // One walk by code point (digits and punctuation may be astral).
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const code = c.charCodeAt(0);
    if (c.length === 1 && isTagPlaceholder(code)) {
      tags += c;
      cased += TAG_CHARACTERS[defaultTagKind(code)];
    } else if (DIGIT.test(c)) {
      let number = c;
      while (i + 1 < chars.length) {
        const after = chars[i + 1]!;
        if (DIGIT.test(after)) number += after;
        else if (NUMBER_SEPARATORS.has(after) && i + 2 < chars.length && DIGIT.test(chars[i + 2]!)) number += after + chars[i + 2]!;
        else break;
        i += after.length === 1 && NUMBER_SEPARATORS.has(after) ? 2 : 1;
      }
      numbers.push(number);
      cased += NUMBER_CHARACTER;
    } else if (PUNCTUATION.test(c)) punctuation += c;
    else cased += c;
  }
  cased = foldWhitespace(cased);
  return { text, compared: foldCase(cased), cased, tags, numbers, punctuation, spacing };
}
