/**
 * The match score, exactly as docs/translation-memory.md ("The score") publishes it. Pure; the
 * cost is one bounded bit-parallel edit distance plus linear passes.
 *
 * 1. Base: `⌊100 × (max − d) / max⌋` where `d` is the edit distance between the two `compared`
 *    forms (normalize.ts) and `max` the longer one's length in UTF-16 code units; 100 when both
 *    are empty. Integer arithmetic only.
 * 2. Penalties, each kind at most once, subtracted from the base:
 *    tags (the tag placeholders differ: −1 per differing tag, at least −1), numbers (the numbers
 *    as written differ: −1 per differing number, at least −1), punctuation (−1), whitespace (the
 *    runs of whitespace as written differ: −1), case (the compared forms are equal but not
 *    without case folding: −1). "Differing" counts a multiset difference, the larger side:
 *    `{1} {2}` against `{1} {3}` is one differing tag, a reordering alone is one; each half of a
 *    paired tag is a tag.
 * 3. A pair whose normalized texts differ never keeps 100: when the penalties leave 100, it is 99.
 * 4. In context: 100 becomes 101 (`isInContext`).
 * 5. The per-TM penalty is subtracted last; a score never goes below 0; below the minimum score
 *    the match is dropped (`null`).
 */
import { levenshtein } from './levenshtein.js';
import type { NormalizedText } from './normalize.js';

export const PENALTIES = { tag: 1, number: 1, punctuation: 1, whitespace: 1, case: 1 } as const;
export const EXACT = 100;
export const IN_CONTEXT = 101;

export interface ScoreOptions {
  /** Whether the unit's context is the query's (`isInContext`). */
  inContext?: boolean;
  /** The TM's penalty from the project's settings (0 to 100). */
  tmPenalty?: number;
  /** Scores below this are dropped: `scoreMatch` returns null (and bounds the edit distance accordingly). */
  minScore?: number;
}

/** Where a segment or unit stands: hashes of the previous and next sources, and the key of key-value formats. */
export interface MatchContext {
  previousHash: string | null;
  nextHash: string | null;
  key: string | null;
}

/**
 * In context: when both have a key, the keys are equal (neighbours then do not matter); otherwise
 * the previous and the next source are both the same (a missing neighbour, at the start or end of
 * a file, is the same only as a missing one).
 */
export function isInContext(query: MatchContext, unit: MatchContext): boolean {
  if (query.key !== null && unit.key !== null) return query.key === unit.key;
  return query.previousHash === unit.previousHash && query.nextHash === unit.nextHash;
}

/**
 * The base score, ⌊100 × (max − d) / max⌋. With `atLeast`, the edit distance stops as soon as the
 * base must fall below it, and any value below `atLeast` may then be returned in place of the
 * exact one.
 */
export function baseScore(a: NormalizedText, b: NormalizedText, atLeast = 0): number {
  const max = Math.max(a.compared.length, b.compared.length);
  if (max === 0) return EXACT;
  // base ≥ s ⇔ 100 × (max − d) ≥ s × max ⇔ d ≤ ⌊(100 − s) × max / 100⌋.
  const need = Math.min(Math.max(atLeast, 0), EXACT);
  const maxDistance = Math.floor(((EXACT - need) * max) / 100);
  const d = Math.min(levenshtein(a.compared, b.compared, maxDistance), max);
  const kept = EXACT * (max - d);
  return (kept - (kept % max)) / max;
}

/** The fixed penalties of `a` against `b` (step 2). */
export function penalties(a: NormalizedText, b: NormalizedText): number {
  let total = 0;
  if (a.tags !== b.tags) total += PENALTIES.tag * Math.max(1, differing([...a.tags], [...b.tags]));
  if (!sameList(a.numbers, b.numbers)) total += PENALTIES.number * Math.max(1, differing(a.numbers, b.numbers));
  if (a.punctuation !== b.punctuation) total += PENALTIES.punctuation;
  if (a.text === b.text && a.spacing !== b.spacing) total += PENALTIES.whitespace;
  if (a.compared === b.compared && a.cased !== b.cased) total += PENALTIES.case;
  return total;
}

/**
 * The score of a TM unit's source for a query (both normalized), 0..101, or null when it is below
 * `minScore`.
 */
export function scoreMatch(query: NormalizedText, unit: NormalizedText, options: ScoreOptions = {}): number | null {
  const tmPenalty = options.tmPenalty ?? 0;
  const minScore = options.minScore ?? 0;
  // The base must reach minScore + tmPenalty, less one when a 100 could still become 101.
  const base = baseScore(query, unit, minScore + tmPenalty - (options.inContext ? 1 : 0));
  let score = base - penalties(query, unit);
  if (score >= EXACT && query.text !== unit.text) score = EXACT - 1;
  if (score === EXACT && options.inContext) score = IN_CONTEXT;
  score = Math.max(0, score - tmPenalty);
  return score < minScore ? null : score;
}

/** A scored match as search ranks it. */
export interface RankedMatch {
  score: number;
  /** The TM's position in the project's TM settings (lower first). */
  tmOrder: number;
  /** When the unit last changed, ISO 8601 UTC (more recent first). */
  modifiedAt: string;
  /** The unit's id (by code units, ascending). */
  id: string;
}

/** Best first: by score, then TM order, then most recent change, then id; a total order, so sorting is stable across runs. */
export function compareMatches(a: RankedMatch, b: RankedMatch): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.tmOrder !== b.tmOrder) return a.tmOrder - b.tmOrder;
  if (a.modifiedAt !== b.modifiedAt) return a.modifiedAt < b.modifiedAt ? 1 : -1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** The matches at or above `minScore`, best first (a new array). */
export function rankMatches<T extends RankedMatch>(matches: readonly T[], minScore: number): T[] {
  return matches.filter((match) => match.score >= minScore).sort(compareMatches);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** How many items differ between two multisets: the larger of "in a, not in b" and "in b, not in a". */
function differing(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const item of a) counts.set(item, (counts.get(item) ?? 0) + 1);
  for (const item of b) counts.set(item, (counts.get(item) ?? 0) - 1);
  let onlyA = 0;
  let onlyB = 0;
  for (const count of counts.values()) {
    if (count > 0) onlyA += count;
    else onlyB -= count;
  }
  return Math.max(onlyA, onlyB);
}
