import { countText } from '../../../domain/counting/word-count.js';
import { segmentGaps, segmentText } from '../../../domain/segmentation/segmenter.js';
import { splitTokens } from '../../../formats/inline-tags.js';
import type { InlineTag, TextUnit } from '../../../formats/types.js';

/**
 * One translatable unit of a file (a filter's TextUnit) cut into the segments a job shows, pure.
 *
 * - Inline tags travel as display tokens (`{1>`, `<1}`, `{1}`); for segmentation each becomes one
 *   placeholder character of the ranges the segmenter knows (opening U+E000+n, closing U+E800+n,
 *   standalone U+F000+n), so tags are transparent to the rules and count no words.
 * - The whitespace between segments is kept as `gapBefore` (and `gapAfter` on the unit's last
 *   segment), so gaps and segment texts put together give the unit's source back exactly.
 * - A unit that already has a translation (XLIFF `<target>`) is left whole: one segment holding the
 *   unit, with the target as its `importedTarget`, so source and translation stay aligned.
 *   So is a unit whose own text holds private-use characters (they would read as tags) or more
 *   tags than the placeholder ranges hold.
 */
export interface UnitSegment {
  unitLocator: string;
  unitIndex: number;
  key: string | null;
  source: string;
  /** The tags occurring in this segment (and in its imported target). */
  tags: InlineTag[];
  gapBefore: string;
  gapAfter: string | null;
  importedTarget: string | null;
  note: string | null;
  /** Exact (fractional for logographic scripts); the import rounds per segment. */
  words: number;
}

const OPEN_BASE = 0xe000;
const CLOSE_BASE = 0xe800;
const STANDALONE_BASE = 0xf000;
const MAX_PAIRED_ID = CLOSE_BASE - OPEN_BASE - 1;
const MAX_STANDALONE_ID = 0xf8ff - STANDALONE_BASE;
const PRIVATE_USE = /[\uE000-\uF8FF]/;

function placeholderOf(tag: InlineTag): string {
  const base = tag.kind === 'open' ? OPEN_BASE : tag.kind === 'close' ? CLOSE_BASE : STANDALONE_BASE;
  return String.fromCharCode(base + tag.id);
}

function tagsFit(tags: readonly InlineTag[]): boolean {
  return tags.every((tag) => tag.id >= 0 && tag.id <= (tag.kind === 'standalone' ? MAX_STANDALONE_ID : MAX_PAIRED_ID));
}

/** The unit's source with each tag token as one placeholder character. */
export function toPlaceholders(text: string, tags: readonly InlineTag[]): string {
  let out = '';
  for (const piece of splitTokens(text, tags)) out += 'tag' in piece ? placeholderOf(piece.tag) : piece.text;
  return out;
}

/** Placeholder characters back to display tokens, and the tags that occurred. */
function fromPlaceholders(text: string, byPlaceholder: ReadonlyMap<string, InlineTag>): { text: string; tags: InlineTag[] } {
  let out = '';
  const tags: InlineTag[] = [];
  for (const char of text) {
    const tag = byPlaceholder.get(char);
    if (tag) {
      out += tag.display;
      tags.push(tag);
    } else out += char;
  }
  return { text: out, tags };
}

/** Tags of `tags` whose token occurs in `text`. */
function tagsIn(text: string, tags: readonly InlineTag[]): InlineTag[] {
  return splitTokens(text, tags).flatMap((piece) => ('tag' in piece ? [piece.tag] : []));
}

function uniqueTags(tags: readonly InlineTag[]): InlineTag[] {
  const seen = new Set<string>();
  return tags.filter((tag) => !seen.has(tag.display) && seen.add(tag.display));
}

function wholeUnit(unit: TextUnit, language: string): UnitSegment[] {
  const leading = /^\s*/.exec(unit.source)![0];
  const body = unit.source.slice(leading.length).trimEnd();
  if (body === '') return [];
  const trailing = unit.source.slice(leading.length + body.length);
  const target = unit.target === null || unit.target.trim() === '' ? null : unit.target.trim();
  const words = countText(toPlaceholders(body, unit.tags), language).words;
  const tags = uniqueTags([...tagsIn(body, unit.tags), ...(target === null ? [] : tagsIn(target, unit.tags))]);
  return [
    {
      unitLocator: unit.locator,
      unitIndex: unit.index,
      key: unit.key,
      source: body,
      tags,
      gapBefore: leading,
      gapAfter: trailing,
      importedTarget: target,
      note: unit.note,
      words,
    },
  ];
}

/** The segments of one unit, in order; none for a unit without text. */
export function segmentUnit(unit: TextUnit, language: string): UnitSegment[] {
  const hasTarget = unit.target !== null && unit.target.trim() !== '';
  if (hasTarget || PRIVATE_USE.test(unit.source) || !tagsFit(unit.tags)) return wholeUnit(unit, language);
  const text = toPlaceholders(unit.source, unit.tags);
  const byPlaceholder = new Map(unit.tags.map((tag) => [placeholderOf(tag), tag]));
  const pieces = segmentText(text, language);
  const gaps = segmentGaps(text, pieces);
  return pieces.map((piece, i) => {
    const restored = fromPlaceholders(piece.text, byPlaceholder);
    return {
      unitLocator: unit.locator,
      unitIndex: unit.index,
      key: unit.key,
      source: restored.text,
      tags: uniqueTags(restored.tags),
      gapBefore: gaps[i]!,
      gapAfter: i === pieces.length - 1 ? gaps[pieces.length]! : null,
      importedTarget: null,
      note: i === 0 ? unit.note : null,
      words: countText(piece.text, language).words,
    };
  });
}
