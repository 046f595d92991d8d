import type { CandidateIndex, IndexMatch } from './candidate-index.js';

/**
 * The band of the best match, for analyses (docs/analysis.md, "Performance"): the index is
 * searched from the top band down (`stages`: descending minimum scores). Once a stage found
 * nothing, any match of the next stage lies in one band, so each search stops at the first match
 * it verifies (`any`); and below 95, where a search is wide (a length range of n/2 … 2n at 50),
 * a cheap search with a small budget goes first and the full one runs only when it found
 * nothing. The cheap search can miss, never err: what it returns is verified by the score. So
 * the band found is the one the full searches alone would find.
 */

/** The net band floors an analysis reports (101 is decided by context, outside the index). */
export const BAND_FLOORS = [100, 95, 85, 75, 50] as const;

/** Budget of the cheap first search of a wide stage. */
export const CHEAP_SEARCH = { maxPostingsRead: 3000, maxVerified: 30 } as const;

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
  for (const minScore of stages) {
    if (minScore < WIDE_BELOW) {
      const cheap = index.search(query, { minScore, limit: 1, langs, any: true, ...CHEAP_SEARCH })[0];
      if (cheap) return cheap;
    }
    const match = index.search(query, { minScore, limit: 1, langs, any: true })[0];
    if (match) return match;
  }
  return null;
}
