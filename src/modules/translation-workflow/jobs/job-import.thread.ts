import { fileFromPort } from '../../../queue/file-port.js';
import type { FilePull } from '../../../queue/file-port.js';
import type { MessagePort } from 'node:worker_threads';
import { filterFor, filterNamed, FormatError } from '../../../formats/index.js';
import type { FormatFilter } from '../../../formats/index.js';
import { isMultilingualCsvSettings } from '../../../formats/csv.js';
import { unitFactsJson } from '../../../formats/unit-facts.js';
import { filterOptionsFromImportSettings } from '../../../formats/import-settings.js';
import { DEFAULT_RULE_SET } from '../../../domain/segmentation/rules.js';
import type { RuleSet } from '../../../domain/segmentation/rules.js';
import { parseSrx, SrxError } from '../../../domain/segmentation/srx.js';
import { segmentUnit } from './unit-segments.js';
import type { SegmentLimits } from './unit-segments.js';

/**
 * The CPU-heavy half of a job import, run in a worker thread (src/queue/thread-pool.ts): the
 * file's bytes come in through the port, go through the file's filter, each translatable unit is
 * cut into segments and counted (the pure functions of src/formats, src/domain and
 * unit-segments.ts), and the rows go back to the main thread in batches, which writes them to the
 * database (job-import.task.ts). Nothing here touches the database or holds the whole file.
 *
 * The protocol on the port:
 * - thread -> main: `pull` (send the next chunk), `batch` (rows to insert), `done` (the last message);
 * - main -> thread: `chunk`, `end`, `error` (the file could not be read), `ack` (a batch was written).
 * At most BATCHES_IN_FLIGHT batches are unacknowledged, so memory stays bounded when the database
 * is slower than the parser.
 */

export interface ParseJobFileInput {
  /** Written into every row, so that the main thread inserts the rows as they come. */
  readonly jobSourceId: string;
  readonly filename: string;
  /** The first bytes of the file, for recognizing its format by content. */
  readonly sniff: Uint8Array;
  readonly importSettings: string;
  readonly language: string;
  /**
   * The SRX file of the organization's segmentation rule the import segments with (named by the
   * import settings, or the primary rule of the source language); null or absent: the built-in
   * rules. Compiled here, in the thread, so that a costly expression never blocks the main thread.
   */
  readonly segmentationSrx?: string | null;
  readonly batchRows: number;
  /** The installation's import limits (Config.importLimits); the defaults when absent. */
  readonly limits?: SegmentLimits & { readonly maxDepth: number };
  /**
   * The filter a custom file type chose (docs/import-settings-and-file-types.md), by name; absent
   * or unknown: the file's name and content decide.
   */
  readonly formatName?: string | null;
  /** The target languages of the file's jobs: one of them lets bilingual formats read its target (TMX, multilingual CSV). */
  readonly targetLanguages?: readonly string[];
}

/** A source_segments row, ready to insert. */
export interface SegmentRow {
  jobSourceId: string;
  /** The segment's index in the file, from 0. */
  idx: number;
  unitLocator: string;
  unitIndex: number;
  key: string | null;
  source: string;
  /** JSON of the segment's tags. */
  tags: string;
  gapBefore: string;
  gapAfter: string | null;
  importedTarget: string | null;
  note: string | null;
  /** Rounded per segment (the column is an integer). */
  words: number;
  /** On a unit's first segment: what the file said about the unit (unitFactsJson); else null. */
  unitFacts: string | null;
}

export type ParseJobFileResult = { readonly format: string } | { readonly formatError: string };

export type ToMain =
  | FilePull
  | { readonly type: 'batch'; readonly rows: SegmentRow[]; readonly wordHundredths: number }
  | { readonly type: 'done'; readonly result: ParseJobFileResult };

export type { FileToThread as ToThread } from '../../../queue/file-port.js';

export const BATCHES_IN_FLIGHT = 2;

export const UNSUPPORTED_FILE_TYPE = 'unsupported file type';

/** The rule set of the import's SRX file (checked when uploaded); a FormatError ends the import if it no longer reads. */
function segmentationRules(srx: string | null | undefined): RuleSet {
  if (srx === null || srx === undefined) return DEFAULT_RULE_SET;
  try {
    return parseSrx(srx);
  } catch (error) {
    if (error instanceof SrxError) throw new FormatError(`the segmentation rules cannot be used: ${error.message}`);
    throw error;
  }
}

/**
 * The filter of the file: the one a custom file type named, else a multilingual CSV when the import
 * settings describe its language columns (and `autodetectMultilingualFiles` is not false), else by
 * the file's name and content.
 */
function chooseFilter(input: ParseJobFileInput): FormatFilter | null {
  const named = filterNamed(input.formatName);
  if (named) return named;
  const filter = filterFor(input.filename, Buffer.from(input.sniff.buffer, input.sniff.byteOffset, input.sniff.byteLength));
  if (filter?.name !== 'csv') return filter;
  let settings: Record<string, unknown> = {};
  try {
    settings = JSON.parse(input.importSettings) as Record<string, unknown>;
  } catch {
    return filter;
  }
  const multilingual = settings['autodetectMultilingualFiles'] !== false && isMultilingualCsvSettings(settings['multilingualCsv']);
  return multilingual ? filterNamed('multilingual-csv') : filter;
}

/** Runs in the thread; the name is what job-import.task.ts asks the pool for. */
export async function parseJobFile(input: ParseJobFileInput, port: MessagePort): Promise<ParseJobFileResult> {
  const { source, send: sendBatch } = fileFromPort<{ rows: SegmentRow[]; wordHundredths: number }>(port, BATCHES_IN_FLIGHT);
  const send = (rows: SegmentRow[], wordHundredths: number) => sendBatch({ rows, wordHundredths });

  let result: ParseJobFileResult;
  try {
    const filter = chooseFilter(input);
    if (!filter) throw new FormatError(UNSUPPORTED_FILE_TYPE);
    let rows: SegmentRow[] = [];
    let wordHundredths = 0;
    let idx = 0;
    const rules = segmentationRules(input.segmentationSrx);
    // Units come in batches: one await per unit would cost more than a one-character unit's own work.
    const options = filterOptionsFromImportSettings(filter.name, input.importSettings, input.limits);
    options.sourceLanguage = input.language;
    if (input.targetLanguages?.length === 1) options.targetLanguage = input.targetLanguages[0]!;
    for await (const units of filter.parseBatches(source, options)) {
      for (const unit of units) {
        // Units marked translate="no" are not imported (Phrase's default skip rule).
        if (!unit.translatable) continue;
        let facts = unitFactsJson(unit);
        for (const segment of segmentUnit(unit, input.language, input.limits, rules)) {
          rows.push({
            jobSourceId: input.jobSourceId,
            idx: idx++,
            unitLocator: segment.unitLocator,
            unitIndex: segment.unitIndex,
            key: segment.key,
            source: segment.source,
            tags: segment.tags.length === 0 ? '[]' : JSON.stringify(segment.tags),
            gapBefore: segment.gapBefore,
            gapAfter: segment.gapAfter,
            importedTarget: segment.importedTarget,
            note: segment.note,
            // The column is an integer: each segment rounds, the file's total is exact (in hundredths).
            words: Math.round(segment.words),
            unitFacts: facts,
          });
          facts = null;
          wordHundredths += Math.round(segment.words * 100);
        }
        if (rows.length >= input.batchRows) {
          await send(rows, wordHundredths);
          rows = [];
          wordHundredths = 0;
        }
      }
    }
    if (rows.length > 0) await send(rows, wordHundredths);
    result = { format: filter.name };
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    result = { formatError: error.message };
  } finally {
    source.destroy();
  }
  port.postMessage({ type: 'done', result } satisfies ToMain);
  return result;
}
