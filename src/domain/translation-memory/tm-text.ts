/**
 * Translation-memory texts travel and are stored with inline tags as Phrase display tokens
 * (`{1>` opens a pair, `<1}` closes it, `{1}` stands alone). The score compares each tag as ONE
 * placeholder character (normalize.ts): the kind gives the range and the tag's number the code
 * unit within it, so that `{1}` and `{2}` are different tags of the same kind. Linear.
 */
import { DEFAULT_TAG_RANGES } from '../segmentation/segmenter.js';

const TOKENS = /\{(\d{1,9})>|<(\d{1,9})\}|\{(\d{1,9})\}/g;

function placeholder(first: number, last: number, n: string): string {
  return String.fromCharCode(first + Math.min(Number(n), last - first));
}

/** The text with each display token as one tag placeholder. */
export function withTagPlaceholders(text: string): string {
  if (text.indexOf('{') < 0 && text.indexOf('<') < 0) return text;
  return text.replace(TOKENS, (_token, open?: string, close?: string, standalone?: string) => {
    if (open !== undefined) return placeholder(DEFAULT_TAG_RANGES.opening.first, DEFAULT_TAG_RANGES.opening.last, open);
    if (close !== undefined) return placeholder(DEFAULT_TAG_RANGES.closing.first, DEFAULT_TAG_RANGES.closing.last, close);
    return placeholder(DEFAULT_TAG_RANGES.standalone.first, DEFAULT_TAG_RANGES.standalone.last, standalone!);
  });
}

/** The display tokens of a text, in order (what a unit's tag metadata lines up with). */
export function displayTokensOf(text: string): string[] {
  return text.match(TOKENS) ?? [];
}

/**
 * A wildcard pattern (`*` any run, `?` one character) as a whole-text test, case-insensitive.
 * Linear: the pattern's literal pieces are found left to right with `indexOf` (greedy matching is
 * exact for patterns of this form, because a `*` can absorb whatever lies between two pieces),
 * and a `?` run only fixes a length.
 */
export function wildcardMatcher(pattern: string): (text: string) => boolean {
  const folded = pattern.toLowerCase();
  const pieces = folded.split('*');
  const anchoredStart = !folded.startsWith('*');
  const anchoredEnd = !folded.endsWith('*');
  const matchAt = (text: string, piece: string, at: number): boolean => {
    if (at + piece.length > text.length) return false;
    for (let i = 0; i < piece.length; i++) if (piece[i] !== '?' && piece[i] !== text[at + i]) return false;
    return true;
  };
  const find = (text: string, piece: string, from: number): number => {
    if (!piece.includes('?')) return text.indexOf(piece, from);
    for (let at = from; at + piece.length <= text.length; at++) if (matchAt(text, piece, at)) return at;
    return -1;
  };
  return (original: string) => {
    const text = original.toLowerCase();
    if (pieces.length === 1) return text.length === folded.length && matchAt(text, folded, 0);
    let at = 0;
    const first = pieces[0]!;
    if (anchoredStart) {
      if (!matchAt(text, first, 0)) return false;
      at = first.length;
    }
    const last = pieces[pieces.length - 1]!;
    const end = anchoredEnd ? text.length - last.length : text.length;
    if (end < at) return false;
    for (let i = anchoredStart ? 1 : 0; i < pieces.length - (anchoredEnd ? 1 : 0); i++) {
      const piece = pieces[i]!;
      if (piece === '') continue;
      const found = find(text, piece, at);
      if (found < 0 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return !anchoredEnd || matchAt(text, last, end);
  };
}
