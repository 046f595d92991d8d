import type { Readable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { asyncFailure } from '../../../errors/index.js';
import type { DB } from '../../../db/schema.js';
import { FORMAT_SNIFF_BYTES, FormatError } from '../../../formats/index.js';
import { sharedThreadPool } from '../../../queue/thread-pool.js';
import { completeAsyncRequest } from '../../integration/async-requests/index.js';
import { segmentationSrxForImport } from '../../organization-setup/segmentation-rules/index.js';
import { segmentationRuleIdsOf } from '../kernel/index.js';
import { preTranslateImportedJobs } from '../pre-translation/index.js';
import type { ParseJobFileInput, ParseJobFileResult, SegmentRow, ToMain } from './job-import.thread.js';
import { ackBatch, filePuller } from '../../../queue/file-port.js';

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
  /** The createJob request asked for pre-translation (`preTranslate`); absent in tasks queued before it existed. */
  preTranslate?: boolean;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'job.import': ImportJobPayload;
  }
}

/** How one file's import ended: null = OK. */
type ImportOutcome = { errorCode: string; errorDesc: string } | null;

/** Rows per INSERT statement: 500 rows x 13 columns stays well under both databases' parameter limits. */
export const SEGMENT_BATCH_ROWS = 500;

export { UNSUPPORTED_FILE_TYPE } from './job-import.thread.js';

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

async function insertBatch(db: Kysely<DB>, batch: readonly SegmentRow[]): Promise<void> {
  if (batch.length === 0) return;
  await db.insertInto('sourceSegments').values(batch).execute();
}

/** Lets the event loop serve what waits (requests) before the next synchronous piece of work. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The thread's module (job-import.thread.ts): compiled JavaScript beside this file in dist/, the
 * TypeScript source under vitest and tsx.
 */
const THREAD_MODULE = new URL(import.meta.url.endsWith('.ts') ? './job-import.thread.ts' : './job-import.thread.js', import.meta.url);

/**
 * Streams the file's units into `source_segments`. The filter, segmentation and counting run in a
 * worker thread (parseJobFile), fed the blob's bytes through a MessagePort; this thread only reads
 * the blob and writes the rows, so a hostile file never blocks the event loop that serves
 * requests. Throws FormatError for a file its filter cannot read; an aborted `signal` stops it
 * (the thread is terminated; the task runs again and starts over).
 */
async function importSegments(
  deps: AppDeps,
  source: {
    id: string;
    sha256: string;
    filename: string;
    importSettings: string;
    /** The filter a custom file type named at creation (jobSources.format before the import). */
    format: string | null;
    targetLanguages: readonly string[];
  },
  language: string,
  segmentationSrx: string | null,
  signal: AbortSignal,
): Promise<{ totals: ImportTotals; format: string }> {
  const db = deps.database.db;
  const totals: ImportTotals = { segments: 0, wordHundredths: 0 };
  const sniff = await firstBytes(deps, source.sha256);
  const stream: Readable = await deps.blobs.open(source.sha256);
  const chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const { port1: port, port2: threadPort } = new MessageChannel();
  // Stops the thread when this side fails (the blob or the database), as well as on the task's signal.
  const local = new AbortController();
  const stop = AbortSignal.any([signal, local.signal]);
  let writing: Promise<void> = Promise.resolve();
  const pull = filePuller(port, chunks);
  let finished!: (result: ParseJobFileResult) => void;
  const done = new Promise<ParseJobFileResult>((resolve) => (finished = resolve));
  const failLocally = (error: unknown) => {
    if (!local.signal.aborted) local.abort(error);
  };
  port.on('message', (message: ToMain) => {
    if (message.type === 'pull') {
      pull();
    } else if (message.type === 'batch') {
      writing = writing.then(async () => {
        // On SQLite an insert runs synchronously (fsync included): one batch at a time, with the
        // requests that arrived meanwhile served in between.
        await yieldToEventLoop();
        if (stop.aborted) return;
        try {
          await insertBatch(db, message.rows);
          totals.segments += message.rows.length;
          totals.wordHundredths += message.wordHundredths;
          ackBatch(port);
        } catch (error) {
          failLocally(error);
        }
      });
    } else finished(message.result);
  });
  try {
    const input: ParseJobFileInput = {
      jobSourceId: source.id,
      filename: source.filename,
      sniff,
      importSettings: source.importSettings,
      formatName: source.format,
      targetLanguages: source.targetLanguages,
      language,
      segmentationSrx,
      batchRows: SEGMENT_BATCH_ROWS,
      limits: deps.config.importLimits,
    };
    const threadRun = sharedThreadPool().run<ParseJobFileResult>(THREAD_MODULE, 'parseJobFile', input, { signal: stop, port: threadPort });
    // `done` comes on the port after the last batch; the pool's answer may come before it.
    const result = await Promise.race([Promise.all([threadRun, done]).then(([, r]) => r), rejectOnAbort(stop)]);
    await writing;
    if (stop.aborted) throw stop.reason;
    if ('formatError' in result) throw new FormatError(result.formatError);
    return { totals, format: result.format };
  } finally {
    port.close();
    stream.destroy();
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** A stored import settings document (JSON); {} when it does not read as an object. */
function parseDocument(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Marks the file's import as failed with `message`, dropping any segments written so far. */
async function recordImportError(deps: AppDeps, jobSourceId: string, message: string): Promise<void> {
  await deps.database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sourceSegments').where('jobSourceId', '=', jobSourceId).execute();
    await trx
      .updateTable('jobSources')
      // A message may quote the file (a key, an id): PostgreSQL text cannot hold U+0000, so it is spelled out.
      .set({ importStatus: 'ERROR', importError: message.replace(/\0/g, '\\u0000').slice(0, 4000), segmentCount: 0, wordCount: 0 })
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
      'jobSources.organizationId',
      'jobSources.format',
      'jobSources.projectId',
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
    // The segmentation rule the file's import settings name, else the source language's primary
    // rule, else none (the built-in rules): docs/segmentation-rules.md, "Use on import".
    const segmentationSrx = await segmentationSrxForImport(
      db,
      source.organizationId,
      segmentationRuleIdsOf(parseDocument(source.importSettings)).segmentationRuleId,
      source.sourceLang,
    );
    const targetLanguages = (
      await db.selectFrom('jobs').select('targetLang').distinct().where('jobSourceId', '=', jobSourceId).execute()
    ).map((row) => row.targetLang);
    const { totals, format } = await importSegments(
      deps,
      {
        id: jobSourceId,
        sha256: source.sha256,
        filename: source.filename,
        importSettings: source.importSettings,
        format: source.format,
        targetLanguages,
      },
      source.sourceLang,
      segmentationSrx,
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
    return asyncFailure('ImportFailed', { filename: source.filename, reason: error.message.replace(/\0/g, '\\u0000') });
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
  // With `preTranslate` (or the project's preTranslateOnJobCreation), the imported jobs are pre-translated next.
  await preTranslateImportedJobs(deps, { jobSourceIds: payload.jobSourceIds, requested: payload.preTranslate === true });
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
