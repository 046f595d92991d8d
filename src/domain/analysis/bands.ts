/**
 * Match bands and category tallies of an analysis (docs/analysis.md). Pure.
 *
 * A counted segment lands in exactly one category: `repetitions`, or a band of one of four
 * groups (TM matches, machine translation, non-translatables, internal fuzzy matches). Tallies
 * are kept in integers (words in hundredths, because logographic scripts count fractional
 * words), so sums are exact and the same on every machine; the wire numbers are made once, at
 * the end (`counts`).
 */

/** Bands of score, best first. `match101` exists for TM matches only. */
export const MATCH_BANDS = ['match101', 'match100', 'match95', 'match85', 'match75', 'match50', 'match0'] as const;
export type MatchBand = (typeof MATCH_BANDS)[number];

export const GROUPS = ['transMemoryMatches', 'machineTranslationMatches', 'nonTranslatablesMatches', 'internalFuzzyMatches'] as const;
export type Group = (typeof GROUPS)[number];

export type Category = 'repetitions' | `${Group}.${MatchBand}`;

/** The band of a score 0..101: 101, 100, 95–99, 85–94, 75–84, 50–74, 0–49. */
export function bandOf(score: number): MatchBand {
  if (score >= 101) return 'match101';
  if (score >= 100) return 'match100';
  if (score >= 95) return 'match95';
  if (score >= 85) return 'match85';
  if (score >= 75) return 'match75';
  if (score >= 50) return 'match50';
  return 'match0';
}

/** What a category holds: segments, words in hundredths, characters. */
export interface Tally {
  segments: number;
  wordHundredths: number;
  characters: number;
}

export type Tallies = Partial<Record<Category, Tally>>;

export function addTo(tallies: Tallies, category: Category, wordHundredths: number, characters: number, segments = 1): void {
  const tally = tallies[category];
  if (tally) {
    tally.segments += segments;
    tally.wordHundredths += wordHundredths;
    tally.characters += characters;
  } else {
    tallies[category] = { segments, wordHundredths, characters };
  }
}

/** `into` plus `from`, in place. */
export function mergeTallies(into: Tallies, from: Tallies): Tallies {
  for (const [category, tally] of Object.entries(from) as [Category, Tally][]) {
    addTo(into, category, tally.wordHundredths, tally.characters, tally.segments);
  }
  return into;
}

export function totalOf(tallies: Tallies): Tally {
  const total: Tally = { segments: 0, wordHundredths: 0, characters: 0 };
  for (const tally of Object.values(tallies) as Tally[]) {
    total.segments += tally.segments;
    total.wordHundredths += tally.wordHundredths;
    total.characters += tally.characters;
  }
  return total;
}
