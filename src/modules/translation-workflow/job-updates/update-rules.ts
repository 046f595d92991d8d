/**
 * The pure rules of updateSource and updateTarget (docs/job-updates.md), table-tested.
 */

/** A segment as the rules need it: its index in the file and its source with tags. */
export interface SegmentText {
  idx: number;
  /** Source text with inline tags as display tokens. */
  source: string;
  /** JSON array of the segment's tags (their originals tell `<b>` from `<i>` behind the same token). */
  tags: string;
}

/** The job statuses Phrase calls final for updateSource: COMPLETED_BY_LINGUIST is OpenTMS's DELIVERED. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['DELIVERED', 'COMPLETED', 'CANCELLED']);

/** Extensions whose jobs take no updateTarget (the description's list, plus XLIFF's other spellings). */
export const UPDATE_TARGET_REFUSED_EXTENSIONS: ReadonlySet<string> = new Set([
  'xliff',
  'xlf',
  'mxliff',
  'sdlxliff',
  'po',
  'tbx',
  'tmx',
  'ttx',
  'ts',
]);

/** The lower-case extension of a file name, '' without one. */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

const segmentKey = (segment: SegmentText) => `${segment.source}\u0000${segment.tags}`;

/**
 * Which old segment each new segment takes its translation from, after a source update: a new
 * segment whose source (tags included) equals an old segment's keeps that segment's translation.
 * Repeated texts pair up in order (the 2nd "OK" of the new file takes the 2nd "OK" of the old
 * one, whose translation may differ by context); past the old file's occurrences, the first one.
 * Returns new idx → old idx; new segments without a match are absent.
 */
export function carryOverMap(oldSegments: readonly SegmentText[], newSegments: readonly SegmentText[]): Map<number, number> {
  const oldByKey = new Map<string, number[]>();
  for (const segment of oldSegments) {
    const key = segmentKey(segment);
    const list = oldByKey.get(key);
    if (list) list.push(segment.idx);
    else oldByKey.set(key, [segment.idx]);
  }
  const seen = new Map<string, number>();
  const result = new Map<number, number>();
  for (const segment of newSegments) {
    const key = segmentKey(segment);
    const candidates = oldByKey.get(key);
    if (!candidates) continue;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    result.set(segment.idx, candidates[occurrence] ?? candidates[0]!);
  }
  return result;
}

/** A source segment of the job's file, with the unit it belongs to. */
export interface UnitSegmentRef {
  idx: number;
  unitLocator: string;
  source: string;
}

/** One unit of an uploaded translated file: its segments (cut with the target language) and its whole text. */
export interface TranslatedUnit {
  locator: string;
  segments: string[];
  /** The unit's text without leading and trailing whitespace. */
  text: string;
}

/**
 * The translation of each source segment from an uploaded translated file, unit by unit (same
 * unit locator):
 * - same number of segments: segment i takes segment i;
 * - different numbers (the translator joined or split sentences): the unit's whole text goes to
 *   the unit's first segment and the others get an empty translation, so the target file gives
 *   the unit back as uploaded;
 * - a unit of the job missing from the file, or a file unit the job does not have: nothing.
 * `segments` must be in file order. Returns idx → text.
 */
export function alignTranslatedUnits(segments: readonly UnitSegmentRef[], units: ReadonlyMap<string, TranslatedUnit>): Map<number, string> {
  const result = new Map<number, string>();
  for (const unitSegments of groupByUnit(segments)) {
    const unit = units.get(unitSegments[0]!.unitLocator);
    if (!unit) continue;
    if (unit.segments.length === unitSegments.length) {
      unitSegments.forEach((segment, i) => result.set(segment.idx, unit.segments[i]!));
      continue;
    }
    unitSegments.forEach((segment, i) => result.set(segment.idx, i === 0 ? unit.text : ''));
  }
  return result;
}

function groupByUnit(segments: readonly UnitSegmentRef[]): UnitSegmentRef[][] {
  const units: UnitSegmentRef[][] = [];
  for (const segment of segments) {
    const last = units[units.length - 1];
    if (last && last[0]!.unitLocator === segment.unitLocator) last.push(segment);
    else units.push([segment]);
  }
  return units;
}

/** A translation the job holds for a segment. */
export interface CurrentTranslation {
  target: string;
  confirmed: boolean;
}

/** A translation to write: the segment's new text and whether it is confirmed. */
export interface TranslationWrite {
  idx: number;
  target: string;
  confirmed: boolean;
}

/**
 * What an updateTarget writes: only segments whose text changed. A changed segment is confirmed
 * (the uploaded file is the translator's finished work) unless `unconfirmChangedSegments`. A text
 * equal to the segment's source where the job has no translation stays untranslated (a target
 * file writes the source where nothing is translated, so re-uploading it must not "translate").
 */
export function targetWrites(
  aligned: ReadonlyMap<number, string>,
  sources: ReadonlyMap<number, string>,
  current: ReadonlyMap<number, CurrentTranslation>,
  unconfirmChangedSegments: boolean,
): TranslationWrite[] {
  const writes: TranslationWrite[] = [];
  for (const [idx, target] of aligned) {
    const existing = current.get(idx);
    if (existing && existing.target === target) continue;
    if (!existing && (target === '' || target === sources.get(idx))) continue;
    writes.push({ idx, target, confirmed: !unconfirmChangedSegments });
  }
  return writes.sort((a, b) => a.idx - b.idx);
}
