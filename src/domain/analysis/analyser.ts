import { bandMatch, CandidateIndex, EXACT, foldWhitespace, normalize, scoreMatch } from '../translation-memory/index.js';
import { addTo, bandOf } from './bands.js';
import type { Category, Tallies } from './bands.js';
import type { AnalysisSettings } from './settings.js';
import { countSegmentText, isNonTranslatable } from './segment-text.js';

/**
 * The analysis of one language part (docs/analysis.md): segments go in one at a time, in the
 * order of the analysis (jobs in order, segments in file order), and each lands in one category
 * of its job's tallies. Pure; memory grows with the distinct texts met, time is linear in the
 * segments apart from the bounded fuzzy searches.
 *
 * Pre-translation analysis, per segment, first rule that applies:
 * 1. a confirmed segment without `includeConfirmedSegments`, or a locked one without
 *    `includeLockedSegments`, is not counted at all;
 * 2. with `includeNonTranslatables`, a non-translatable segment (segment-text.ts) counts as a
 *    100 % non-translatable;
 * 3. a text met before in this part (whitespace folded, otherwise exact: case, numbers, tags) is
 *    a repetition; its first occurrence counts in its own band;
 * 4. otherwise its band is the better of the TM's band (the caller's score: the project's TMs with
 *    read enabled, their penalties, 101 in context) and, with `includeFuzzyRepetitions`, the band
 *    of the best earlier segment of the part (the TM's score; an internal fuzzy match). An
 *    internal fuzzy match in a higher band than the TM's counts under `internalFuzzyMatches` with
 *    `separateFuzzyRepetitions`, else in the TM bands. Nothing ≥ 50 is `match0`.
 *
 * Post-editing and compare analyses score the text a job was given against the text it left
 * (`editedBand`): no repetitions or internal fuzzies, every counted segment in the TM bands.
 */

/** Fuzzy scores below this are `match0`: searching lower would not change a band. */
export const MIN_FUZZY = 50;

/** The lowest score of each band. */
const BAND_FLOORS = { match101: 101, match100: 100, match95: 95, match85: 85, match75: 75, match50: 50, match0: 0 } as const;

/**
 * The internal fuzzy search, band by band from the top (`bandMatch`; an exact earlier text is a
 * repetition, so 95 is the highest band to look for).
 */
const INTERNAL_STAGES = [95, 85, 75, MIN_FUZZY] as const;

export interface PreTranslationSegment {
  /** The job (0-based, in analysis order) whose tallies the segment counts in. */
  job: number;
  /** Source, inline tags as placeholder characters. */
  source: string;
  /** What is counted: the source, or with `countSourceUnits: false` the target ('' for none). */
  counted: string;
  confirmed: boolean;
  locked: boolean;
  /** The best TM score with the project's penalties, 0..101; 0 when there is none. */
  tmScore: number;
}

export interface AnalyserOptions {
  /** The language of the counted text (source or target). */
  countLanguage: string;
}

/** Whether the settings count this segment at all. */
export function isCounted(settings: AnalysisSettings, segment: { confirmed: boolean; locked: boolean }): boolean {
  if (segment.confirmed && !settings.includeConfirmedSegments) return false;
  if (segment.locked && !settings.includeLockedSegments) return false;
  return true;
}

export class PreTranslationAnalyser {
  readonly jobs: Tallies[] = [];
  private readonly seen = new Set<string>();
  private readonly earlier: CandidateIndex | null;
  private nextKey = 0;

  constructor(
    private readonly settings: AnalysisSettings,
    private readonly options: AnalyserOptions,
  ) {
    this.earlier = settings.includeFuzzyRepetitions ? new CandidateIndex() : null;
  }

  /** Whether the segment is a repetition if it came now (the caller may skip its TM lookup). */
  isRepetition(source: string): boolean {
    return this.seen.has(foldWhitespace(source));
  }

  /** Counts one segment; returns its category, or null when it is not counted. */
  add(segment: PreTranslationSegment): Category | null {
    const tallies = (this.jobs[segment.job] ??= {});
    if (!isCounted(this.settings, segment)) return null;
    const { wordHundredths, characters } = countSegmentText(segment.counted, this.options.countLanguage, this.settings.includeNumbers);
    const category = this.categoryOf(segment);
    addTo(tallies, category, wordHundredths, characters);
    return category;
  }

  private categoryOf(segment: PreTranslationSegment): Category {
    if (this.settings.includeNonTranslatables && isNonTranslatable(segment.source)) return 'nonTranslatablesMatches.match100';
    const key = foldWhitespace(segment.source);
    if (this.seen.has(key)) return 'repetitions';
    this.seen.add(key);
    const tmScore = this.settings.includeTransMemory ? segment.tmScore : 0;
    let internal = 0;
    if (this.earlier) {
      // Only a better band counts: search the bands above the TM's, top band first.
      const stages = INTERNAL_STAGES.filter((floor) => floor > tmScore);
      internal = stages.length ? (bandMatch(this.earlier, key, stages, null)?.score ?? 0) : 0;
      this.earlier.put(String(this.nextKey++), key, ['']);
    }
    if (BAND_FLOORS[bandOf(internal)] > BAND_FLOORS[bandOf(tmScore)]) {
      return this.settings.separateFuzzyRepetitions ? `internalFuzzyMatches.${bandOf(internal)}` : `transMemoryMatches.${bandOf(internal)}`;
    }
    return `transMemoryMatches.${bandOf(tmScore)}`;
  }
}

/**
 * Post-editing and compare: how much of `given` (the translation a job started from) is left in
 * `final` (the one it ended with), by the TM's score: unchanged is 100, a changed number 99, a
 * rewrite low. No given text (nothing was pre-filled) is 0.
 */
export function editedScore(given: string | null, final: string | null): number {
  if (given === null || given === '') return 0;
  const after = final === null || final === '' ? '' : final;
  if (given === after) return EXACT;
  return scoreMatch(normalize(given), normalize(after), { minScore: 0 }) ?? 0;
}

export function editedBand(given: string | null, final: string | null): Category {
  return `transMemoryMatches.${bandOf(Math.min(EXACT, editedScore(given, final)))}`;
}

export interface EditedSegment {
  job: number;
  /** The translation the job started from (tags as placeholders), or null. */
  given: string | null;
  /** The translation it ended with. */
  final: string | null;
  /** What is counted: the source, or with `countSourceUnits: false` the final target. */
  counted: string;
  confirmed: boolean;
  locked: boolean;
}

/** Post-editing and compare analyses of one language part: each counted segment in the TM band of `editedScore`. */
export class EditingAnalyser {
  readonly jobs: Tallies[] = [];

  constructor(
    private readonly settings: AnalysisSettings,
    private readonly options: AnalyserOptions,
  ) {}

  add(segment: EditedSegment): Category | null {
    const tallies = (this.jobs[segment.job] ??= {});
    if (!isCounted(this.settings, segment)) return null;
    const { wordHundredths, characters } = countSegmentText(segment.counted, this.options.countLanguage, this.settings.includeNumbers);
    const category = editedBand(segment.given, segment.final);
    addTo(tallies, category, wordHundredths, characters);
    return category;
  }
}
