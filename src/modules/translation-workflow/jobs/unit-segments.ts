import { countText } from '../../../domain/counting/word-count.js';
import { DEFAULT_RULE_SET } from '../../../domain/segmentation/rules.js';
import type { RuleSet } from '../../../domain/segmentation/rules.js';
import { isTagPlaceholder, segmentGaps, segmentText } from '../../../domain/segmentation/segmenter.js';
import { TagTokens } from '../../../formats/inline-tags.js';
import { FormatError } from '../../../formats/types.js';
import type { InlineTag, TextUnit } from '../../../formats/types.js';

/**
 * One translatable unit of a file (a filter's TextUnit) cut into the segments a job shows, pure.
 *
 * - Inline tags travel as display tokens (`{1>`, `<1}`, `{1}`); for segmentation and counting each
 *   becomes ONE placeholder character that says only its kind (opening U+E000, closing U+E800,
 *   standalone U+F000, in the ranges the segmenter and the counter know), so tags are transparent
 *   to the rules and count no words and no characters, however many a unit holds. Which tag a
 *   placeholder stands for is its position: the n-th placeholder of the text is the n-th tag token
 *   of the source, and segments are cut in order, so one walk restores them.
 * - The whitespace between segments is kept as `gapBefore` (and `gapAfter` on the unit's last
 *   segment), so gaps and segment texts put together give the unit's source back exactly.
 * - A unit that already has a translation (XLIFF `<target>`) is left whole: one segment holding the
 *   unit, with the target as its `importedTarget`, so source and translation stay aligned.
 *   So is a unit whose own text holds private-use characters (they would read as tags).
 * - Limits (`SegmentLimits`, from OPENTMS_IMPORT_MAX_* through the import): a segment longer than
 *   `maxSegmentChars` or with more than `maxTagsPerSegment` tags is a FormatError naming the unit,
 *   raised before the segment is counted; the import records it as the job's import error.
 *   A NUL character (U+0000) anywhere in the unit is refused the same way: PostgreSQL text cannot
 *   hold it, and both databases must import a file alike.
 * - Cost: linear in the unit's length and tag count (every step is one pass).
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

export interface SegmentLimits {
  /** Characters (UTF-16 code units) of one segment's text, tags left out. */
  maxSegmentChars: number;
  /** Inline tags in one segment (each half of a pair counts). */
  maxTagsPerSegment: number;
}

/** The defaults of OPENTMS_IMPORT_MAX_SEGMENT_CHARS and OPENTMS_IMPORT_MAX_TAGS_PER_SEGMENT (src/config.ts). */
export const DEFAULT_SEGMENT_LIMITS: SegmentLimits = { maxSegmentChars: 100_000, maxTagsPerSegment: 50_000 };

const OPEN_PLACEHOLDER = '\uE000';
const CLOSE_PLACEHOLDER = '\uE800';
const STANDALONE_PLACEHOLDER = '\uF000';
const PRIVATE_USE = /[\uE000-\uF8FF]/;

function placeholderOf(tag: InlineTag): string {
  return tag.kind === 'open' ? OPEN_PLACEHOLDER : tag.kind === 'close' ? CLOSE_PLACEHOLDER : STANDALONE_PLACEHOLDER;
}

/**
 * The text with each tag token as one placeholder character, and the tags in the order they occur;
 * `repeated` when some tag occurs more than once.
 */
function withPlaceholders(text: string, tags: readonly InlineTag[]): { text: string; order: InlineTag[]; repeated: boolean } {
  const parts: string[] = [];
  const order: InlineTag[] = [];
  const tokens = new TagTokens(text, tags);
  let last = 0;
  while (tokens.next()) {
    if (tokens.start > last) parts.push(text.slice(last, tokens.start));
    parts.push(placeholderOf(tokens.tag));
    order.push(tokens.tag);
    last = tokens.end;
  }
  if (last < text.length) parts.push(text.slice(last));
  return { text: parts.join(''), order, repeated: tokens.repeated };
}

/** The unit's source with each tag token as one placeholder character (any number of tags). */
export function toPlaceholders(text: string, tags: readonly InlineTag[]): string {
  return withPlaceholders(text, tags).text;
}

/**
 * Walks the placeholders of consecutive pieces of one text (gaps and segments, in order) back to
 * the tags they stand for. The text is the unit's source with each tag token as one placeholder
 * and nothing else changed (a source holding private-use characters is never cut), so a piece's
 * restored text is the source between the piece's offsets shifted by the tokens' extra length:
 * a slice, not a rebuild token by token.
 */
class PlaceholderReader {
  private next = 0;
  /** Offset in the source minus offset in the placeholder text, at the current position. */
  private shift = 0;
  constructor(
    private readonly order: readonly InlineTag[],
    private readonly source: string,
  ) {}

  /** The piece at `start` with its placeholders as display tokens, and the tags that occurred (in order). */
  restore(text: string, start: number): { text: string; tags: InlineTag[] } {
    const first = this.next;
    const from = start + this.shift;
    for (let i = 0; i < text.length; i++) {
      if (!isTagPlaceholder(text.charCodeAt(i))) continue;
      const tag = this.order[this.next++];
      if (!tag) throw new Error('more placeholders than tags: the unit was cut inconsistently');
      this.shift += tag.display.length - 1;
    }
    return { text: this.source.slice(from, start + text.length + this.shift), tags: this.order.slice(first, this.next) };
  }

  /** Skips the placeholders of a piece of text that is not restored (none in gaps, by the segmenter's contract). */
  skip(text: string): void {
    for (let i = 0; i < text.length; i++) {
      if (isTagPlaceholder(text.charCodeAt(i))) this.shift += (this.order[this.next++]?.display.length ?? 1) - 1;
    }
  }
}

/** Tags of `tags` whose token occurs in `text`. */
function tagsIn(text: string, tags: readonly InlineTag[]): InlineTag[] {
  const found: InlineTag[] = [];
  const tokens = new TagTokens(text, tags);
  while (tokens.next()) found.push(tokens.tag);
  return found;
}

function uniqueTags(tags: InlineTag[]): InlineTag[] {
  if (tags.length < 2) return tags;
  const seen = new Set<string>();
  return tags.filter((tag) => !seen.has(tag.display) && seen.add(tag.display));
}

function where(unit: TextUnit): string {
  if (unit.key === null || unit.key === unit.locator) return `unit ${unit.locator}`;
  // A key can be the whole source text (a PO msgid): the message names it, it does not repeat it.
  const key = unit.key.length > 80 ? `${unit.key.slice(0, 77)}…` : unit.key;
  return `unit ${unit.locator} ("${key}")`;
}

/** Throws FormatError when a segment of `unit` is over a limit; `chars` leaves the tags out. */
function checkLimits(unit: TextUnit, chars: number, tagCount: number, limits: SegmentLimits): void {
  if (chars > limits.maxSegmentChars) {
    throw new FormatError(
      `${where(unit)} has a segment of ${chars} characters; the import's limit is ${limits.maxSegmentChars} characters per segment`,
    );
  }
  if (tagCount > limits.maxTagsPerSegment) {
    throw new FormatError(
      `${where(unit)} has a segment with ${tagCount} inline tags; the import's limit is ${limits.maxTagsPerSegment} tags per segment`,
    );
  }
}

function hasNul(field: string | null): boolean {
  return field !== null && field.includes('\0');
}

function tagsHoldNul(tags: readonly InlineTag[]): boolean {
  for (let i = 0; i < tags.length; i++) if (tags[i]!.original.includes('\0')) return true;
  return false;
}

/** A NUL anywhere in what the unit would store is refused, on every database alike. */
function checkNul(unit: TextUnit): void {
  const holdsNul =
    hasNul(unit.source) || hasNul(unit.target) || hasNul(unit.key) || hasNul(unit.note) || hasNul(unit.locator) || tagsHoldNul(unit.tags);
  if (holdsNul) throw new FormatError(`${where(unit)} contains a NUL character (U+0000), which cannot be imported`);
}

function wholeUnit(unit: TextUnit, language: string, limits: SegmentLimits): UnitSegment[] {
  const leading = /^\s*/.exec(unit.source)![0];
  const body = unit.source.slice(leading.length).trimEnd();
  if (body === '') return [];
  const trailing = unit.source.slice(leading.length + body.length);
  const target = unit.target === null || unit.target.trim() === '' ? null : unit.target.trim();
  const tags = uniqueTags([...tagsIn(body, unit.tags), ...(target === null ? [] : tagsIn(target, unit.tags))]);
  const placeheld = withPlaceholders(body, unit.tags);
  checkLimits(unit, placeheld.text.length - placeheld.order.length, Math.max(placeheld.order.length, tags.length), limits);
  const words = countText(placeheld.text, language).words;
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

/**
 * The segments of one unit, in order; none for a unit without text. Throws FormatError when a
 * segment is over `limits` or the unit holds a NUL. `rules`: the segmentation rules (a custom SRX
 * rule set of the organization; docs/segmentation-rules.md), the built-in ones by default.
 */
export function segmentUnit(
  unit: TextUnit,
  language: string,
  limits: SegmentLimits = DEFAULT_SEGMENT_LIMITS,
  rules: RuleSet = DEFAULT_RULE_SET,
): UnitSegment[] {
  checkNul(unit);
  const hasTarget = unit.target !== null && unit.target.trim() !== '';
  if (hasTarget || PRIVATE_USE.test(unit.source)) return wholeUnit(unit, language, limits);
  if (unit.tags.length === 0) return untaggedSegments(unit, language, limits, rules);
  const { text, order, repeated } = withPlaceholders(unit.source, unit.tags);
  const pieces = segmentText(text, language, rules);
  const gaps = segmentGaps(text, pieces);
  const reader = new PlaceholderReader(order, unit.source);
  return pieces.map((piece, i) => {
    reader.skip(gaps[i]!);
    const restored = reader.restore(piece.text, piece.start);
    checkLimits(unit, piece.text.length - restored.tags.length, restored.tags.length, limits);
    return {
      unitLocator: unit.locator,
      unitIndex: unit.index,
      key: unit.key,
      source: restored.text,
      // Each tag occurs once in the unit unless `repeated`: then there is nothing to drop.
      tags: repeated ? uniqueTags(restored.tags) : restored.tags,
      gapBefore: gaps[i]!,
      gapAfter: i === pieces.length - 1 ? gaps[pieces.length]! : null,
      importedTarget: null,
      note: i === 0 ? unit.note : null,
      words: countText(piece.text, language).words,
    };
  });
}

/**
 * `segmentUnit` for a unit without tags: its source holds no token (and, tested before, no
 * private-use character), so it is its own placeholder text and every segment is its piece as it
 * is. The same segments as the general path, without its per-segment work for tags (one-character
 * units by the million are a file shape the import must take; the tests compare both paths).
 */
function untaggedSegments(unit: TextUnit, language: string, limits: SegmentLimits, rules: RuleSet): UnitSegment[] {
  const text = unit.source;
  const pieces = segmentText(text, language, rules);
  const segments: UnitSegment[] = [];
  let previousEnd = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    checkLimits(unit, piece.text.length, 0, limits);
    const last = i === pieces.length - 1;
    segments.push({
      unitLocator: unit.locator,
      unitIndex: unit.index,
      key: unit.key,
      source: piece.text,
      tags: [],
      gapBefore: text.slice(previousEnd, piece.start),
      gapAfter: last ? text.slice(piece.end) : null,
      importedTarget: null,
      note: i === 0 ? unit.note : null,
      words: countText(piece.text, language).words,
    });
    previousEnd = piece.end;
  }
  return segments;
}
