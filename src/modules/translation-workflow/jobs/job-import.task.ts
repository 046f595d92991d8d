import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { asyncFailure } from '../../../errors/index.js';
import type { DB } from '../../../db/schema.js';
import { filterFor, FORMAT_SNIFF_BYTES, FormatError } from '../../../formats/index.js';
import { filterOptionsFromImportSettings } from '../../../formats/import-settings.js';
import { completeAsyncRequest } from '../../integration/async-requests/index.js';
import { segmentUnit } from './unit-segments.js';
import type { UnitSegment } from './unit-segments.js';

/**
 * The import of an uploaded job file (docs/jobs.md, "Import"): the worker streams the stored
 * original through the file's filter, cuts each translatable unit into segments, counts their
 * words and writes `source_segments` in batches, so that a file of a million segments is never
 * held in memory. The file's jobs then show `importStatus` OK, or ERROR with the filter's message.
 */
export const IMPORT_JOB_TASK = 'job.import';

/** The files of one createJob request, imported one after the other; their async request finishes after the last. */
export interface ImportJobPayload {
  jobSourceIds: string[];
  asyncRequestId: string | null;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'job.import': ImportJobPayload;
  }
}

/** How one file's import ended: null = OK. */
type ImportOutcome = { errorCode: string; errorDesc: string } | null;

/** Rows per INSERT statement: 500 rows x 12 columns stays well under both databases' parameter limits. */
export const SEGMENT_BATCH_ROWS = 500;

export const UNSUPPORTED_FILE_TYPE = 'unsupported file type';

/** The first bytes of a blob, for recognizing its format by content. */
async function firstBytes(deps: AppDeps, sha256: string): Promise<Buffer> {
  const stream = await deps.blobs.open(sha256);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= FORMAT_SNIFF_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, FORMAT_SNIFF_BYTES);
}

/** Totals of an import, accumulated batch by batch. */
interface ImportTotals {
  segments: number;
  /** Words in hundredths, summed exactly and rounded once (as sumWords does). */
  wordHundredths: number;
}

async function insertBatch(db: Kysely<DB>, jobSourceId: string, firstIndex: number, batch: readonly UnitSegment[]): Promise<void> {
  if (batch.length === 0) return;
  await db
    .insertInto('sourceSegments')
    .values(
      batch.map((segment, i) => ({
        jobSourceId,
        idx: firstIndex + i,
        unitLocator: segment.unitLocator,
        unitIndex: segment.unitIndex,
        key: segment.key,
        source: segment.source,
        tags: JSON.stringify(segment.tags),
        gapBefore: segment.gapBefore,
        gapAfter: segment.gapAfter,
        importedTarget: segment.importedTarget,
        note: segment.note,
        // The column is an integer: each segment rounds, the file's total is exact (ImportTotals).
        words: Math.round(segment.words),
      })),
    )
    .execute();
}

/**
 * Streams the file's units into `source_segments`. Throws FormatError for a file its filter
 * cannot read; an aborted `signal` stops it (the task runs again and starts over).
 */
async function importSegments(
  deps: AppDeps,
  source: { id: string; sha256: string; filename: string; importSettings: string },
  language: string,
  signal: AbortSignal,
): Promise<{ totals: ImportTotals; format: string }> {
  const filter = filterFor(source.filename, await firstBytes(deps, source.sha256));
  if (!filter) throw new FormatError(UNSUPPORTED_FILE_TYPE);
  const db = deps.database.db;
  const totals: ImportTotals = { segments: 0, wordHundredths: 0 };
  let batch: UnitSegment[] = [];
  const stream: Readable = await deps.blobs.open(source.sha256);
  try {
    for await (const unit of filter.parse(stream, filterOptionsFromImportSettings(filter.name, source.importSettings))) {
      // Units marked translate="no" are not imported (Phrase's default skip rule).
      if (!unit.translatable) continue;
      for (const segment of segmentUnit(unit, language)) {
        batch.push(segment);
        totals.wordHundredths += Math.round(segment.words * 100);
      }
      if (batch.length >= SEGMENT_BATCH_ROWS) {
        if (signal.aborted) throw new Error('import stopped: the worker is shutting down');
        await insertBatch(db, source.id, totals.segments, batch);
        totals.segments += batch.length;
        batch = [];
      }
    }
    await insertBatch(db, source.id, totals.segments, batch);
    totals.segments += batch.length;
  } finally {
    stream.destroy();
  }
  return { totals, format: filter.name };
}

/** Marks the file's import as failed with `message`, dropping any segments written so far. */
async function recordImportError(deps: AppDeps, jobSourceId: string, message: string): Promise<void> {
  await deps.database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sourceSegments').where('jobSourceId', '=', jobSourceId).execute();
    await trx
      .updateTable('jobSources')
      .set({ importStatus: 'ERROR', importError: message.slice(0, 4000), segmentCount: 0, wordCount: 0 })
      .where('id', '=', jobSourceId)
      .execute();
  });
}

/** Imports job source `jobSourceId` (idempotent: a finished import only reports how it ended). */
export async function importJobSource(
  deps: AppDeps,
  jobSourceId: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<ImportOutcome> {
  const db = deps.database.db;
  const source = await db
    .selectFrom('jobSources')
    .innerJoin('projects', 'projects.id', 'jobSources.projectId')
    .select([
      'jobSources.id',
      'jobSources.sha256',
      'jobSources.filename',
      'jobSources.importSettings',
      'jobSources.importStatus',
      'jobSources.importError',
      'projects.sourceLang',
    ])
    .where('jobSources.id', '=', jobSourceId)
    .executeTakeFirst();
  // The jobs were deleted meanwhile: nothing to import.
  if (!source) return asyncFailure('JobDeleted', { during: 'import' });
  if (source.importStatus === 'OK') return null;
  if (source.importStatus === 'ERROR')
    return asyncFailure('ImportFailed', { filename: source.filename, reason: source.importError ?? 'the file could not be imported' });

  // A previous attempt may have written part of the segments.
  await db.deleteFrom('sourceSegments').where('jobSourceId', '=', jobSourceId).execute();
  try {
    const { totals, format } = await importSegments(
      deps,
      { id: jobSourceId, sha256: source.sha256, filename: source.filename, importSettings: source.importSettings },
      source.sourceLang,
      signal,
    );
    await db
      .updateTable('jobSources')
      .set({
        importStatus: 'OK',
        importError: null,
        format,
        segmentCount: totals.segments,
        wordCount: Math.round(totals.wordHundredths / 100),
      })
      .where('id', '=', jobSourceId)
      .where('importStatus', '=', 'RUNNING')
      .execute();
    return null;
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    await recordImportError(deps, jobSourceId, error.message);
    return asyncFailure('ImportFailed', { filename: source.filename, reason: error.message });
  }
}

/** Imports every file of the payload, then finishes its async request (with the first file's error, if any). */
export async function runImport(deps: AppDeps, payload: ImportJobPayload, signal?: AbortSignal): Promise<void> {
  let firstError: ImportOutcome = null;
  for (const jobSourceId of payload.jobSourceIds) {
    const outcome = await importJobSource(deps, jobSourceId, signal);
    firstError ??= outcome;
  }
  if (payload.asyncRequestId) await completeAsyncRequest(deps, deps.database.db, payload.asyncRequestId, firstError ?? {});
  deps.taskWakeup.notify();
}

/** The worker's handler; a failure that is not the file's fault is retried, and recorded on the file after the last attempt. */
export const importJobTask: AppTaskHandler<typeof IMPORT_JOB_TASK> = {
  kind: IMPORT_JOB_TASK,
  maxAttempts: 3,
  run(context, payload) {
    return runImport(context.deps, payload, context.signal);
  },
  async onFinalFailure(context, payload, error) {
    const message = error instanceof Error ? error.message : String(error);
    for (const jobSourceId of payload.jobSourceIds) {
      const source = await context.deps.database.db
        .selectFrom('jobSources')
        .select('importStatus')
        .where('id', '=', jobSourceId)
        .executeTakeFirst();
      if (source?.importStatus === 'RUNNING') await recordImportError(context.deps, jobSourceId, `The import failed: ${message}`);
    }
  },
};
