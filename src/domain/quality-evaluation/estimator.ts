import { baseLanguage, countText } from '../counting/word-count.js';
import type { QaSegment, QaWarning, WarningType } from '../quality-assurance/types.js';

/**
 * The quality estimator of quality evaluation (docs/quality-evaluation.md): a score 0..100 and
 * warnings per segment, and a word-weighted score with a pass/fail per job part.
 *
 * THIS IS A HEURISTIC, NOT A TRAINED MODEL. It does not read the meaning of either text and does
 * not predict an MQM score the way Phrase QPS does. It adds up signals OpenTMS owns — where the
 * target came from (TM match and its score, MT left unedited), the segment's QA warnings, the
 * length of the target against the source, source words copied into the target, an empty
 * target — with fixed weights chosen by hand. Same input, same output; linear in the texts' length.
 */

/** Names the estimator and its weights; every warning carries it as `qeId`. Change it when a weight changes. */
export const ESTIMATOR_ID = 'opentms-heuristic-qe-1';

/** A job part passes when its word-weighted score is at least this (unless the request names another). */
export const DEFAULT_PASS_THRESHOLD = 80;

/** The signals, as the `type` of the warnings they leave. */
export const QE_SIGNALS = ['EMPTY_TARGET', 'UNEDITED_MT', 'FUZZY_TM_MATCH', 'QA_WARNINGS', 'LENGTH_RATIO', 'UNTRANSLATED_TOKENS'] as const;
export type QeSignal = (typeof QE_SIGNALS)[number];

/** Where a score starts, by the target's origin (the target as it is, not edited by a person since). */
export const BASE_SCORES = {
  /** A person wrote or edited the target and confirmed it. */
  humanConfirmed: 95,
  /** A person wrote or edited the target, not confirmed yet. */
  human: 90,
  /** A non-translatable copied by pre-translation. */
  nonTranslatable: 100,
  /** A TM match of 100 % or 101 %, unedited. */
  exactTm: 100,
  /** MT output nobody has edited. */
  uneditedMt: 75,
} as const;

/**
 * Points one QA warning of a type takes off. At most QA_REPEAT_CAP warnings of one type count,
 * and all QA warnings together take at most QA_PENALTY_CAP. Types not listed take nothing: they
 * say nothing about the translation (NotConfirmed, UnresolvedComment, UnresolvedConversation),
 * or another signal already counts them (EmptyTranslation, the UnmodifiedFuzzy* types).
 */
export const QA_WEIGHTS: Partial<Record<WarningType, number>> = {
  MissingNumbersV3: 15,
  ExtraNumbersV3: 10,
  Formatting: 10,
  JoinTags: 10,
  EmptyPairTags: 10,
  NestedTags: 10,
  Malformed: 15,
  InconsistentTagContent: 5,
  EmptyTagContent: 5,
  ForbiddenTerm: 15,
  ForbiddenString: 15,
  NonConformingTerm: 10,
  MissingNonTranslatableAnnotation: 5,
  TargetSourceIdentical: 10,
  SpellCheck: 5,
  RepeatedWord: 5,
  TrailingPunctuation: 3,
  MultipleSpacesV3: 2,
  LeadingAndTrailingSpaces: 2,
  LeadingSpaces: 2,
  TrailingSpaces: 2,
  TranslationLength: 5,
  AbsoluteLength: 5,
  RelativeLength: 5,
  InconsistentTranslationTargetSource: 5,
  InconsistentTranslationSourceTarget: 5,
  FuzzyInconsistencyTargetSource: 3,
  FuzzyInconsistencySourceTarget: 3,
  NewerAtLowerLevel: 5,
  SourceOrTargetRegexp: 5,
  CustomQA: 5,
  Moravia: 5,
};
export const QA_REPEAT_CAP = 3;
export const QA_PENALTY_CAP = 60;

/**
 * Length: target length / source length, in length units (a character; a Han, Hiragana, Katakana
 * or Hangul character counts 2, so that CJK targets of Latin sources stay in the band), tags,
 * placeholders and outer spaces left out. Outside [LENGTH_BAND.min, LENGTH_BAND.max] costs
 * LENGTH_PENALTY; sources shorter than LENGTH_MIN_SOURCE units are not judged (short strings vary too much).
 */
export const LENGTH_BAND = { min: 0.4, max: 2.5 } as const;
export const LENGTH_MIN_SOURCE = 20;
export const LENGTH_PENALTY = 15;

/**
 * Untranslated tokens: of the source's eligible words (distinct, compared without case), the share
 * found as words of the target. Judged when the source has at least UNTRANSLATED_MIN_WORDS of them
 * and the two languages differ (en and en_us do not); fires at UNTRANSLATED_MIN_SHARE and costs
 * round(UNTRANSLATED_MAX_PENALTY × share).
 */
export const UNTRANSLATED_MIN_WORDS = 3;
export const UNTRANSLATED_MIN_SHARE = 0.3;
export const UNTRANSLATED_MAX_PENALTY = 50;
/** Copied words a warning names, at most. */
const LISTED_TOKENS = 10;

/** One warning of the estimator, the shape qeWarnings answers (`type`, `message`, `qeId`) plus what it cost. */
export interface QeWarning {
  type: QeSignal;
  message: string;
  qeId: string;
  /** Points it took off the score (for EMPTY_TARGET: the whole score). */
  penalty: number;
}

/** What the estimator reads of one segment. */
export interface QeSegmentInput {
  segment: Pick<QaSegment, 'id' | 'source' | 'target' | 'confirmed' | 'unmodifiedOrigin' | 'unmodifiedOriginScore'>;
  /** The segment's warnings of the job's last QA run (ignored warnings left out by the caller); [] when none or no run. */
  qaWarnings: readonly Pick<QaWarning, 'type'>[];
}

export interface QeContext {
  sourceLang: string;
  targetLang: string;
  /** 0..100; DEFAULT_PASS_THRESHOLD when absent. */
  threshold?: number;
}

export interface QeSegmentResult {
  segmentId: string;
  /** 0..100, an integer. */
  score: number;
  /** The source's words (at least 1): the segment's weight in the job's score. */
  words: number;
  passed: boolean;
  warnings: QeWarning[];
}

export interface QeJobResult {
  segments: QeSegmentResult[];
  /** Word-weighted mean of the segments' scores, rounded; null when the job part has no segment. */
  score: number | null;
  words: number;
  threshold: number;
  /** score ≥ threshold (a job part without segments passes). */
  passed: boolean;
  segmentsBelowThreshold: number;
}

// ---------------------------------------------------------------------------------------------

/** Inline tags as display tokens ({1>, <1}, {1}) and as placeholder characters. */
const TAG_TOKENS = /\{\d{1,6}>|<\d{1,6}\}|\{\d{1,6}\}|[\uE000-\uF8FF]/gu;
/** Software placeholders (printf, ${x}, {{x}}, {x}) and character references. Bounded, so linear. */
const PLACEHOLDERS =
  /%\([^()\s]{1,64}\)[-+ 0#]{0,5}\d{0,3}(?:\.\d{1,3})?[a-zA-Z%]|%(?:\d{1,3}\$)?[-+ 0#']{0,5}\d{0,3}(?:\.\d{1,3})?[diouxXeEfFgGaAcCsSpn@%]|\$\{[^{}\s]{1,64}\}|\{\{[^{}]{1,64}\}\}|\{[\p{L}\p{N}_.:,-]{1,64}\}|&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#x[0-9A-Fa-f]{1,6});/gu;
/** URLs and e-mail addresses. */
const LINKS = /\b(?:[a-z][a-z0-9+.-]{1,15}:\/\/|www\.)[^\s<>"]{1,2000}|[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}.-]{1,253}\.\p{L}{2,63}/giu;
/** A word: letters (with marks, inner apostrophes and hyphens). Digits are never part of one. */
const WORDS = /\p{L}[\p{L}\p{M}]*(?:['’-][\p{L}\p{M}]+)*/gu;
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;

/** The text a translator writes: tags, placeholders and links taken out. */
function plainText(text: string): string {
  return text.replace(TAG_TOKENS, ' ').replace(LINKS, ' ').replace(PLACEHOLDERS, ' ');
}

function lengthUnits(text: string): number {
  let units = 0;
  for (const char of text.trim()) units += WIDE.test(char) ? 2 : 1;
  return units;
}

/**
 * A source word that should not appear untranslated: 3 letters or more, not all capitals (an
 * acronym), no capital after its first letter (iPhone, McDonald), and not capitalized unless it
 * is the text's first word (a capitalized word inside a sentence is taken for a name).
 */
function eligible(word: string, first: boolean): boolean {
  if ([...word].length < 3) return false;
  if (!LOWER.test(word)) return false;
  const chars = [...word];
  if (chars.slice(1).some((c) => UPPER.test(c))) return false;
  if (!first && UPPER.test(chars[0]!)) return false;
  return true;
}

function untranslatedTokens(source: string, target: string): { eligible: number; copied: string[] } {
  const targetWords = new Set<string>();
  for (const match of target.matchAll(WORDS)) targetWords.add(match[0].toLowerCase());
  const seen = new Set<string>();
  const copied: string[] = [];
  let first = true;
  for (const match of source.matchAll(WORDS)) {
    const word = match[0];
    const isFirst = first;
    first = false;
    if (!eligible(word, isFirst)) continue;
    const lower = word.toLowerCase();
    if (seen.has(lower)) continue;
    seen.add(lower);
    if (targetWords.has(lower)) copied.push(word);
  }
  return { eligible: seen.size, copied };
}

const percent = (score: number) => `${Math.round(score * 100)} %`;
const round2 = (value: number) => Math.round(value * 100) / 100;

function warning(type: QeSignal, penalty: number, message: string): QeWarning {
  return { type, penalty, message, qeId: `${ESTIMATOR_ID}/${type}` };
}

function thresholdOf(context: QeContext): number {
  return context.threshold ?? DEFAULT_PASS_THRESHOLD;
}

/** The estimate of one segment (docs/quality-evaluation.md, "Per segment"). */
export function estimateSegment(input: QeSegmentInput, context: QeContext): QeSegmentResult {
  const { segment } = input;
  const threshold = thresholdOf(context);
  const words = Math.max(1, Math.round(countText(segment.source, context.sourceLang).words));
  const result = (score: number, warnings: QeWarning[]): QeSegmentResult => ({
    segmentId: segment.id,
    score,
    words,
    passed: score >= threshold,
    warnings,
  });

  if (segment.target.trim() === '') {
    return result(0, [warning('EMPTY_TARGET', 100, 'The target is empty.')]);
  }

  const warnings: QeWarning[] = [];
  let base: number;
  const origin = segment.unmodifiedOrigin;
  if (origin === 'tm') {
    const matchScore = segment.unmodifiedOriginScore ?? 0;
    if (matchScore >= 1) {
      base = BASE_SCORES.exactTm;
    } else {
      base = Math.max(0, Math.min(99, Math.round(matchScore * 100)));
      warnings.push(
        warning(
          'FUZZY_TM_MATCH',
          100 - base,
          `Unedited fuzzy TM match (${percent(matchScore)}): the target was written for another source.`,
        ),
      );
    }
  } else if (origin === 'mt') {
    base = BASE_SCORES.uneditedMt;
    warnings.push(warning('UNEDITED_MT', 100 - base, 'Machine translation that nobody has edited.'));
  } else if (origin === 'nt') {
    base = BASE_SCORES.nonTranslatable;
  } else {
    base = segment.confirmed ? BASE_SCORES.humanConfirmed : BASE_SCORES.human;
  }
  let score = base;

  // QA warnings of the segment, by type.
  const counts = new Map<WarningType, number>();
  for (const qa of input.qaWarnings) {
    if (QA_WEIGHTS[qa.type] === undefined) continue;
    counts.set(qa.type, (counts.get(qa.type) ?? 0) + 1);
  }
  if (counts.size > 0) {
    let qaPenalty = 0;
    const listed: string[] = [];
    for (const [type, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      qaPenalty += QA_WEIGHTS[type]! * Math.min(count, QA_REPEAT_CAP);
      listed.push(count > 1 ? `${type} ×${count}` : type);
    }
    qaPenalty = Math.min(qaPenalty, QA_PENALTY_CAP);
    score -= qaPenalty;
    warnings.push(warning('QA_WARNINGS', qaPenalty, `QA warnings: ${listed.join(', ')}.`));
  }

  const source = plainText(segment.source);
  const target = plainText(segment.target);

  // Length of the target against the source.
  const sourceUnits = lengthUnits(source);
  if (sourceUnits >= LENGTH_MIN_SOURCE) {
    const ratio = lengthUnits(target) / sourceUnits;
    if (ratio < LENGTH_BAND.min || ratio > LENGTH_BAND.max) {
      score -= LENGTH_PENALTY;
      warnings.push(
        warning(
          'LENGTH_RATIO',
          LENGTH_PENALTY,
          `The target is ${round2(ratio)}× as long as the source (expected ${LENGTH_BAND.min}× to ${LENGTH_BAND.max}×).`,
        ),
      );
    }
  }

  // Source words copied into the target.
  if (baseLanguage(context.sourceLang) !== baseLanguage(context.targetLang)) {
    const tokens = untranslatedTokens(source, target);
    if (tokens.eligible >= UNTRANSLATED_MIN_WORDS) {
      const share = tokens.copied.length / tokens.eligible;
      if (share >= UNTRANSLATED_MIN_SHARE) {
        const penalty = Math.round(UNTRANSLATED_MAX_PENALTY * share);
        score -= penalty;
        const named = tokens.copied.slice(0, LISTED_TOKENS).join(', ') + (tokens.copied.length > LISTED_TOKENS ? ', …' : '');
        warnings.push(
          warning(
            'UNTRANSLATED_TOKENS',
            penalty,
            `${tokens.copied.length} of ${tokens.eligible} source words appear untranslated in the target: ${named}.`,
          ),
        );
      }
    }
  }

  return result(Math.max(0, Math.min(100, Math.round(score))), warnings);
}

/** The estimate of a job part: each segment, and the word-weighted mean against the threshold. */
export function estimateJob(inputs: readonly QeSegmentInput[], context: QeContext): QeJobResult {
  const threshold = thresholdOf(context);
  const segments = inputs.map((input) => estimateSegment(input, context));
  let weighted = 0;
  let words = 0;
  let below = 0;
  for (const segment of segments) {
    weighted += segment.score * segment.words;
    words += segment.words;
    if (!segment.passed) below += 1;
  }
  const score = words === 0 ? null : Math.round(weighted / words);
  return { segments, score, words, threshold, passed: score === null || score >= threshold, segmentsBelowThreshold: below };
}
