/**
 * Checks on the segment as a whole (docs/quality-assurance.md): empty target, target identical to
 * the source, unconfirmed, unmodified pre-translation, newer at a lower level, and the length limits.
 */
import type { QaText } from '../text.js';
import { warning } from '../text.js';
import type { QaSegment, QaWarning } from '../types.js';

/** emptyTarget -> EmptyTranslation: the target has nothing but whitespace and tags while the source has text (or the target is ''). */
export function checkEmptyTarget(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  if (target.text === '' || (!target.hasContent && source.hasContent)) out.push(warning('EmptyTranslation', '', ignorable));
}

const LETTER = /\p{L}/u;

/** targetSourceIdentical -> TargetSourceIdentical: target equals source exactly and the source has a letter. */
export function checkTargetSourceIdentical(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  if (target.text === source.text && LETTER.test(source.text)) out.push(warning('TargetSourceIdentical', '', ignorable));
}

/** segmentNotConfirmed -> NotConfirmed. */
export function checkNotConfirmed(segment: Pick<QaSegment, 'confirmed'>, out: QaWarning[], ignorable: boolean): void {
  if (!segment.confirmed) out.push(warning('NotConfirmed', '', ignorable));
}

/** newerAtLowerLevel -> NewerAtLowerLevel. */
export function checkNewerAtLowerLevel(segment: Pick<QaSegment, 'newerAtLowerLevel'>, out: QaWarning[], ignorable: boolean): void {
  if (segment.newerAtLowerLevel) out.push(warning('NewerAtLowerLevel', '', ignorable));
}

type Origin = Pick<QaSegment, 'unmodifiedOrigin' | 'unmodifiedOriginScore'>;

/** A TM match below 100 % (a score under 1.0, or no score). */
function fuzzyTm(segment: Origin): boolean {
  return segment.unmodifiedOrigin === 'tm' && (segment.unmodifiedOriginScore === null || segment.unmodifiedOriginScore < 1);
}

function machineOrNonTranslatable(segment: Origin): boolean {
  return segment.unmodifiedOrigin === 'mt' || segment.unmodifiedOrigin === 'nt';
}

/** unmodifiedFuzzyTranslation -> UnmodifiedFuzzyTranslation: an unedited fuzzy TM match, MT or NT result. */
export function checkUnmodifiedFuzzy(segment: Origin, out: QaWarning[], ignorable: boolean): void {
  if (fuzzyTm(segment) || machineOrNonTranslatable(segment))
    out.push(warning('UnmodifiedFuzzyTranslation', '', ignorable, { transOrigin: segment.unmodifiedOrigin }));
}

/** unmodifiedFuzzyTranslationTM -> UnmodifiedFuzzyTranslationTM: an unedited TM match below 100 %. */
export function checkUnmodifiedFuzzyTm(segment: Origin, out: QaWarning[], ignorable: boolean): void {
  if (fuzzyTm(segment)) out.push(warning('UnmodifiedFuzzyTranslationTM', '', ignorable, { transOrigin: 'tm' }));
}

/** unmodifiedFuzzyTranslationMTNT -> UnmodifiedFuzzyTranslationMTNT: an unedited MT or non-translatable result. */
export function checkUnmodifiedFuzzyMtNt(segment: Origin, out: QaWarning[], ignorable: boolean): void {
  if (machineOrNonTranslatable(segment))
    out.push(warning('UnmodifiedFuzzyTranslationMTNT', '', ignorable, { transOrigin: segment.unmodifiedOrigin }));
}

/** A usable limit: a positive finite number (0, null, a negative or non-numeric value switch the check off). */
export function lengthLimit(value: number | string | null | undefined): number | null {
  const limit = typeof value === 'string' ? Number(value) : value;
  return typeof limit === 'number' && Number.isFinite(limit) && limit > 0 ? limit : null;
}

/** targetLength -> AbsoluteLength: the target has more than `limit` characters. */
export function checkTargetLength(target: QaText, limit: number, out: QaWarning[], ignorable: boolean): void {
  if (target.visibleLength > limit) out.push(warning('AbsoluteLength', 'targetLength', ignorable, { limit: String(limit) }));
}

/** absoluteTargetLength -> AbsoluteLength: the target is longer than the source by more than `limit` characters. */
export function checkAbsoluteTargetLength(source: QaText, target: QaText, limit: number, out: QaWarning[], ignorable: boolean): void {
  if (target.visibleLength - source.visibleLength > limit)
    out.push(warning('AbsoluteLength', 'absoluteTargetLength', ignorable, { limit: `+${limit}` }));
}

/** targetLengthPercent -> RelativeLength: the target is longer than `limit` % of the source's length. */
export function checkTargetLengthPercent(source: QaText, target: QaText, limit: number, out: QaWarning[], ignorable: boolean): void {
  const sourceLength = source.visibleLength;
  if (sourceLength > 0 && target.visibleLength * 100 > sourceLength * limit)
    out.push(warning('RelativeLength', 'targetLengthPercent', ignorable, { limit: `${limit}%` }));
}

/** relativeTargetLength -> RelativeLength: the target is longer than the source by more than `limit` %. */
export function checkRelativeTargetLength(source: QaText, target: QaText, limit: number, out: QaWarning[], ignorable: boolean): void {
  const sourceLength = source.visibleLength;
  if (sourceLength > 0 && target.visibleLength * 100 > sourceLength * (100 + limit))
    out.push(warning('RelativeLength', 'relativeTargetLength', ignorable, { limit: `+${limit}%` }));
}

/** targetLengthPerSegment -> TranslationLength: the target is longer than the file's limit for the unit. */
export function checkTargetLengthPerSegment(target: QaText, maxLength: number | null, out: QaWarning[], ignorable: boolean): void {
  if (maxLength !== null && maxLength >= 0 && target.visibleLength > maxLength) out.push(warning('TranslationLength', '', ignorable));
}
