import type { CandidateIndex, IndexMatch } from './candidate-index.js';

/**
 * The band of the best match, for analyses (docs/analysis.md, "Performance"). An analysis needs
 * the band of the best match, not the match itself, so the index is searched from the top band
 * down (`stages`: descending minimum scores):
 *
 * 1. the narrow stages (down to `ONE_PASS_FROM`), one search each that stops at the first match
 *    it verifies (`any`): once a stage above found nothing, any match of this stage decides the
 *    band. Below 95, where searches get wide, a cheap search with a small budget goes first and
 *    the full one runs only when it found nothing (the cheap one can miss, never err: what it
 *    returns is verified by the score);
 * 2. the wide stages (`ONE_PASS_FROM` and below) together, with the stages as band floors (a
 *    match only raises what the next candidate must reach to the floor of the band above): a
 *    cheap search at the lowest of them first; when its band is not the top one, a full search
 *    for the bands above it, at the lowest of those, over the lengths that could reach the
 *    second-lowest (the posting lists of that length range are read once, instead of once a
 *    stage); only when it finds nothing, a last full search for the lowest band over the other
 *    lengths (no text among them can reach a higher band). Each full search examines its
 *    candidates best promise first, at most `WIDE_SEARCH`'s. Measured on 7,218 of the analysis
 *    bench's distinct texts against one full search over the whole range: the same time (0.98),
 *    and 61 texts in another band, 56 of them higher (53 found a 50 where none was found) and 5
 *    lower (50 → 0): each part has the whole budget of postings and examined candidates.
 *
 * Recall is measured against the full scan by bench/band-search.bench.ts.
 */

/** The net band floors an analysis reports (101 is decided by context, outside the index). */
export const BAND_FLOORS = [100, 95, 85, 75, 50] as const;

/** Budget of the cheap first search of a wide stage. */
const CHEAP_SEARCH = { maxPostingsRead: 3000, maxVerified: 30 } as const;

/**
 * The full search of the wide stages: the index's postings budget and verification cap, and at
 * most this many candidates examined (measured on 1,200 texts without a match of 95: against no
 * cap, 30 % less time and the same bands; with 200, 12 bands lower).
 */
const WIDE_SEARCH = { maxExamined: 400 } as const;

/** Stages at or below this are searched in one pass. */
const ONE_PASS_FROM = 85;
/** Stages below this are wide enough to try the cheap search first. */
const WIDE_BELOW = 95;

/**
 * The index's minimum scores for the net band floors of a TM whose penalty is `penalty` (0 when
 * it applies to 101 only): each floor plus the penalty, up to 100; the exact stage always.
 */
export function bandStages(penalty: number, floors: readonly number[] = BAND_FLOORS): number[] {
  const stages = new Set<number>([100]);
  for (const floor of floors) if (floor + penalty <= 100) stages.add(floor + penalty);
  return [...stages].sort((a, b) => b - a);
}

/** A match of the highest stage any match reaches, or null. */
export function bandMatch(
  index: CandidateIndex,
  query: string,
  stages: readonly number[],
  langs: readonly string[] | null,
): IndexMatch | null {
  for (let i = 0; i < stages.length; i++) {
    const minScore = stages[i]!;
    if (minScore <= ONE_PASS_FROM) {
      const floors = stages.slice(i);
      const cheap = index.search(query, { minScore: floors[floors.length - 1]!, limit: 1, langs, floors, ...CHEAP_SEARCH })[0];
      if (cheap && cheap.score >= floors[0]!) return cheap;
      // Only a better band than the cheap search's is worth the full search.
      const above = cheap ? floors.filter((floor) => floor > cheap.score) : floors;
      const lowest = above[above.length - 1]!;
      if (above.length === 1)
        return index.search(query, { minScore: lowest, limit: 1, langs, floors: above, ...WIDE_SEARCH })[0] ?? cheap ?? null;
      // The bands above the lowest need texts of close length: those first, for every band; the
      // other lengths only when they found nothing, and only for the lowest band.
      const near = above[above.length - 2]!;
      const close = index.search(query, { minScore: lowest, limit: 1, langs, floors: above, lengthsFor: near, ...WIDE_SEARCH })[0];
      if (close) return close;
      const far = index.search(query, { minScore: lowest, limit: 1, langs, floors: [lowest], skipLengthsFor: near, ...WIDE_SEARCH })[0];
      return far ?? cheap ?? null;
    }
    if (minScore < WIDE_BELOW) {
      const cheap = index.search(query, { minScore, limit: 1, langs, any: true, ...CHEAP_SEARCH })[0];
      if (cheap) return cheap;
    }
    const match = index.search(query, { minScore, limit: 1, langs, any: true })[0];
    if (match) return match;
  }
  return null;
}
