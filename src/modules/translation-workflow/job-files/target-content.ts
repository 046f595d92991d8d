import { joinSegments } from '../../../domain/segmentation/segmenter.js';
import { FORMAT_FILTERS, filterFor } from '../../../formats/index.js';
import type { FilterOptions, FormatFilter, UnitTranslation } from '../../../formats/index.js';
import { filterOptionsFromImportSettings } from '../../../formats/import-settings.js';

/**
 * What a target file says, unit by unit (docs/job-files-and-operations.md, "Target files"). Pure:
 * the task loads the rows and writes the file; the rules live here so they can be table-tested.
 */

/** A source segment as the target file needs it (columns of source_segments). */
export interface SegmentForTarget {
  idx: number;
  unitLocator: string;
  source: string;
  gapBefore: string;
  gapAfter: string | null;
  importedTarget: string | null;
}

/** A translation a job holds for a segment (job_segments), with where that job sits. */
export interface CandidateTranslation {
  idx: number;
  target: string;
  jobId: string;
  workflowLevel: number;
  beginIndex: number | null;
  endIndex: number | null;
}

const covers = (candidate: CandidateTranslation) =>
  (candidate.beginIndex === null || candidate.idx >= candidate.beginIndex) &&
  (candidate.endIndex === null || candidate.idx <= candidate.endIndex);

/**
 * The translation of each segment for the target file of job `jobId`: among the jobs of the same
 * file and target language at the job's workflow level or below, the highest level wins (a
 * revision step works on the translation step's text); at one level the job itself wins over its
 * split siblings. A split job's rows outside its own part are ignored.
 */
export function pickTranslations(jobId: string, candidates: readonly CandidateTranslation[]): Map<number, string> {
  const best = new Map<number, CandidateTranslation>();
  const rank = (c: CandidateTranslation) => c.workflowLevel * 2 + (c.jobId === jobId ? 1 : 0);
  for (const candidate of candidates) {
    if (!covers(candidate)) continue;
    const current = best.get(candidate.idx);
    if (!current || rank(candidate) > rank(current)) best.set(candidate.idx, candidate);
  }
  return new Map([...best].map(([idx, c]) => [idx, c.target]));
}

/**
 * The translation of every unit, keyed by unit locator, for the format filter's `write`:
 * - a segment's text is its translation, else the unit's imported target (a one-segment unit
 *   only: a unit's imported target cannot be split), else its source — Phrase writes the source
 *   where there is no translation;
 * - the unit's text is rebuilt with the gaps between its segments (joinSegments);
 * - a unit with no translation at all but an imported target is left out, so the file keeps the
 *   target it had byte for byte.
 * `segments` must be in file order (by idx).
 */
export function unitTranslations(
  segments: readonly SegmentForTarget[],
  translations: ReadonlyMap<number, string>,
): Map<string, UnitTranslation> {
  const result = new Map<string, UnitTranslation>();
  for (const unit of groupByUnit(segments)) {
    const translated = unit.some((segment) => translations.has(segment.idx));
    const imported = unit[0]!.importedTarget;
    if (!translated && imported !== null) continue;
    const texts = unit.map(
      (segment) => translations.get(segment.idx) ?? (unit.length === 1 && imported !== null ? imported : segment.source),
    );
    const gaps = [...unit.map((segment) => segment.gapBefore), unit[unit.length - 1]!.gapAfter ?? ''];
    result.set(unit[0]!.unitLocator, { text: joinSegments(gaps, texts) });
  }
  return result;
}

/** Consecutive segments of one unit, in order. */
function groupByUnit(segments: readonly SegmentForTarget[]): SegmentForTarget[][] {
  const units: SegmentForTarget[][] = [];
  for (const segment of segments) {
    const last = units[units.length - 1];
    if (last && last[0]!.unitLocator === segment.unitLocator) last.push(segment);
    else units.push([segment]);
  }
  return units;
}

/** The filter that imported a file: by the name recorded at import, else as the import would choose it. */
export function filterOfSource(format: string | null, filename: string, firstBytes: Buffer): FormatFilter | null {
  return FORMAT_FILTERS.find((filter) => filter.name === format) ?? filterFor(filename, firstBytes);
}

/**
 * The options to write a file with: the ones it was imported with (its stored import settings),
 * plus the target language for inserted XLIFF targets.
 */
export function writeOptions(filterName: string, importSettingsJson: string, targetLanguage: string): FilterOptions {
  return { ...filterOptionsFromImportSettings(filterName, importSettingsJson), targetLanguage };
}
