/**
 * Which source fills a segment when a job is pre-translated (issue 17). Pure.
 *
 * The order, first that applies:
 * 1. A source that is empty or only white space: skip (`EMPTY_SOURCE`).
 * 2. A locked segment: skip (`LOCKED`); pre-translation never changes a locked segment.
 * 3. A target that is not empty (white space alone counts as empty) without
 *    `overwriteExistingTranslations`: skip (`HAS_TRANSLATION`).
 * 4. A non-translatable segment with `nonTranslatables.use`: the source is copied, confirmed with
 *    `nonTranslatables.confirm100` and locked with `nonTranslatables.lock100`.
 * 5. `translationMemory.use` and a best match at or above the threshold: the match's target;
 *    confirmed when the score is 101 or more with `confirm101`, or from 100 to under 101 with
 *    `confirm100`; locked the same way with `lock101` and `lock100`.
 * 6. `machineTranslation.use`: machine translation, except that a segment whose best TM match
 *    scores 100 or more goes to MT only with `mtForTMAbove100`, and that `useAltTransOnly` keeps
 *    machine translations out of targets; either exception: skip (`NO_MATCH`).
 * 7. Otherwise: skip (`NO_MATCH`).
 */

/** Pre-translation settings as the decision uses them (threshold in score points). */
export interface PreTranslateRules {
  overwriteExistingTranslations: boolean;
  translationMemory: {
    use: boolean;
    /** 0..101, score points. */
    threshold: number;
    confirm100: boolean;
    confirm101: boolean;
    lock100: boolean;
    lock101: boolean;
  };
  machineTranslation: { use: boolean; mtForTMAbove100: boolean; useAltTransOnly: boolean };
  nonTranslatables: { use: boolean; confirm100: boolean; lock100: boolean };
}

/** A segment as pre-translation finds it. */
export interface SegmentState {
  source: string;
  target: string;
  confirmed: boolean;
  locked: boolean;
}

/** The best translation-memory match of a segment. */
export interface TmMatch {
  /** 0..101. */
  score: number;
  target: string;
  tmUid: string;
}

/** What pre-translation does with one segment. */
export type Decision =
  | { action: 'skip'; reason: 'LOCKED' | 'HAS_TRANSLATION' | 'NO_MATCH' | 'EMPTY_SOURCE' }
  | { action: 'tm'; target: string; score: number; tmUid: string; confirmed: boolean; locked: boolean }
  | { action: 'nonTranslatable'; target: string; confirmed: boolean; locked: boolean }
  | { action: 'mt' };

/** Decides which source fills a segment, by the documented order. */
export function decide(segment: SegmentState, nonTranslatable: boolean, bestTm: TmMatch | null, rules: PreTranslateRules): Decision {
  if (segment.source.trim() === '') return { action: 'skip', reason: 'EMPTY_SOURCE' };
  if (segment.locked) return { action: 'skip', reason: 'LOCKED' };
  if (segment.target.trim() !== '' && !rules.overwriteExistingTranslations) return { action: 'skip', reason: 'HAS_TRANSLATION' };
  const nt = rules.nonTranslatables;
  if (nonTranslatable && nt.use) return { action: 'nonTranslatable', target: segment.source, confirmed: nt.confirm100, locked: nt.lock100 };
  const tm = rules.translationMemory;
  if (tm.use && bestTm !== null && bestTm.score >= tm.threshold) {
    const exact101 = bestTm.score >= 101;
    const exact100 = bestTm.score >= 100 && !exact101;
    return {
      action: 'tm',
      target: bestTm.target,
      score: bestTm.score,
      tmUid: bestTm.tmUid,
      confirmed: (exact101 && tm.confirm101) || (exact100 && tm.confirm100),
      locked: (exact101 && tm.lock101) || (exact100 && tm.lock100),
    };
  }
  const mt = rules.machineTranslation;
  if (mt.use && !mt.useAltTransOnly && (bestTm === null || bestTm.score < 100 || mt.mtForTMAbove100)) return { action: 'mt' };
  return { action: 'skip', reason: 'NO_MATCH' };
}

/** The fields of the API's `PreTranslateSettingsV4Dto` that the decision reads; any may be absent or null. */
export interface PreTranslateSettingsV4Like {
  overwriteExistingTranslations?: boolean | null;
  translationMemorySettings?: {
    useTranslationMemory?: boolean | null;
    /** A fraction, 0..1.01. */
    translationMemoryThreshold?: number | null;
    confirm100PercentMatches?: boolean | null;
    confirm101PercentMatches?: boolean | null;
    lock100PercentMatches?: boolean | null;
    lock101PercentMatches?: boolean | null;
  } | null;
  machineTranslationSettings?: {
    useMachineTranslation?: boolean | null;
    mtForTMAbove100?: boolean | null;
    useAltTransOnly?: boolean | null;
  } | null;
  nonTranslatableSettings?: {
    preTranslateNonTranslatables?: boolean | null;
    confirm100PercentMatches?: boolean | null;
    lock100PercentMatches?: boolean | null;
  } | null;
}

/** The default threshold (0.7) in score points. */
export const DEFAULT_TM_THRESHOLD = 70;

/**
 * The rules of a `PreTranslateSettingsV4Dto`: the threshold fraction as score points
 * (`Math.round(x * 100)`, kept within 0..101; 70 when absent or not a number), every absent flag false.
 */
export function rulesFromV4(dto: PreTranslateSettingsV4Like): PreTranslateRules {
  const tm = dto.translationMemorySettings ?? {};
  const mt = dto.machineTranslationSettings ?? {};
  const nt = dto.nonTranslatableSettings ?? {};
  const fraction = tm.translationMemoryThreshold;
  const threshold =
    typeof fraction === 'number' && Number.isFinite(fraction)
      ? Math.min(101, Math.max(0, Math.round(fraction * 100)))
      : DEFAULT_TM_THRESHOLD;
  return {
    overwriteExistingTranslations: dto.overwriteExistingTranslations === true,
    translationMemory: {
      use: tm.useTranslationMemory === true,
      threshold,
      confirm100: tm.confirm100PercentMatches === true,
      confirm101: tm.confirm101PercentMatches === true,
      lock100: tm.lock100PercentMatches === true,
      lock101: tm.lock101PercentMatches === true,
    },
    machineTranslation: {
      use: mt.useMachineTranslation === true,
      mtForTMAbove100: mt.mtForTMAbove100 === true,
      useAltTransOnly: mt.useAltTransOnly === true,
    },
    nonTranslatables: {
      use: nt.preTranslateNonTranslatables === true,
      confirm100: nt.confirm100PercentMatches === true,
      lock100: nt.lock100PercentMatches === true,
    },
  };
}
