import { FormatError } from './types.js';
import type { InlineTag, InlineTagKind } from './types.js';

/**
 * Phrase TMS display tokens for inline tags: `{1>` opens a pair, `<1}` closes it, `{1}` stands
 * alone. Numbers start at 1 in each unit, in order of first appearance.
 */
export function displayToken(kind: InlineTagKind, id: number): string {
  if (kind === 'open') return `{${id}>`;
  if (kind === 'close') return `<${id}}`;
  return `{${id}}`;
}

export function inlineTag(id: number, kind: InlineTagKind, original: string): InlineTag {
  return { id, kind, original, display: displayToken(kind, id) };
}

const TOKEN = /\{(\d+)>|<(\d+)\}|\{(\d+)\}/g;

export type Piece = { text: string } | { tag: InlineTag };

/**
 * Splits a translation into text and tags. Only tokens naming a tag of the unit (same number and
 * kind) are tags; anything else that looks like a token stays literal text.
 */
export function splitTokens(text: string, tags: readonly InlineTag[]): Piece[] {
  const byDisplay = new Map(tags.map((tag) => [tag.display, tag]));
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const tag = byDisplay.get(match[0]);
    if (!tag) continue;
    if (match.index > last) pieces.push({ text: text.slice(last, match.index) });
    pieces.push({ tag });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}

/** A translation with its tags put back: text through `escape`, tags as their original markup. */
export function restoreTags(text: string, tags: readonly InlineTag[], escape: (text: string) => string = (t) => t): string {
  let out = '';
  for (const piece of splitTokens(text, tags)) out += 'tag' in piece ? piece.tag.original : escape(piece.text);
  return out;
}

/** Compiles Phrase's `tagRegexp` setting; a bad expression is the file settings' fault, reported as such. */
export function compileTagRegexp(tagRegexp: string | undefined): RegExp | null {
  if (tagRegexp === undefined || tagRegexp === '') return null;
  try {
    return new RegExp(tagRegexp, 'gu');
  } catch {
    throw new FormatError(`tagRegexp is not a valid regular expression: ${tagRegexp}`);
  }
}

/** Text with every match of `pattern` turned into a standalone tag (empty matches are ignored). */
export function tagsByPattern(text: string, pattern: RegExp | null): { source: string; tags: InlineTag[] } {
  if (!pattern) return { source: text, tags: [] };
  const tags: InlineTag[] = [];
  let source = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match[0] === '') continue;
    const tag = inlineTag(tags.length + 1, 'standalone', match[0]);
    tags.push(tag);
    source += text.slice(last, match.index) + tag.display;
    last = match.index + match[0].length;
  }
  return { source: source + text.slice(last), tags };
}
