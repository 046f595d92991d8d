import { sql } from 'kysely';
import type { Readable } from 'node:stream';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { nowIso } from '../../../db/ids.js';
import { asyncFailure, errors } from '../../../errors/index.js';
import { tmImportFormat } from '../../../formats/tm-formats.js';
import type { TmImportFormat } from '../../../formats/tm-formats.js';
import type { Caller } from '../../../http/access.js';
import { enqueue } from '../../../queue/queue.js';
import { putUpload, recordStoredFile, releaseStoredFiles } from '../../../storage/stored-files.js';
import { completeAsyncRequest, createAsyncRequest } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import { targetLangsOf } from './translation-memories.repository.js';
import type { TransMemoryRow } from './translation-memories.repository.js';
import { writeUnits } from './tm-units.repository.js';
import {
  addTransferUnits,
  clearTransferUpload,
  findTransfer,
  insertTransfer,
  liveTransMemory,
  resetTransferUnits,
  setLastAsyncRequest,
} from './tm-transfers.repository.js';
import type { ImportWarning, ParseTmFileInput, ParseTmFileResult, UnitBatch } from './tm-import.thread.js';
import { streamFileThroughThread } from '../../../queue/file-port.js';

/**
 * The TM import (importTransMemoryV2; docs/translation-memory.md, "Import and export"): the upload
 * is stored, then a task streams it through the format's reader in a worker thread
 * (tm-import.thread.ts) and upserts the units batch by batch, each batch in a transaction of its
 * own. A kill -9 loses at most the batch in flight; the task runs again from the start of the file
 * and the upsert (the unique key of tm_units) leaves no duplicates.
 */
export const TM_IMPORT_TASK = 'tm.import';

export interface TmImportPayload {
  asyncRequestId: string;
  format: TmImportFormat;
  strictLangMatching: boolean;
  stripNativeCodes: boolean;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'tm.import': TmImportPayload;
  }
}

/** Units per batch (one transaction each). */
export const TM_IMPORT_BATCH_UNITS = 2000;

/**
 * Stores the upload and records the import: the format from the file name's extension (400 for
 * another, before anything is stored), then the async request (IMPORT_TMX), the transfer row
 * holding the upload, the TM's last background task and the task, in one transaction.
 */
export async function requestTmImport(
  deps: AppDeps,
  caller: Caller,
  tm: TransMemoryRow,
  upload: { filename: string; body: Readable },
  options: { strictLangMatching: boolean; stripNativeCodes: boolean },
): Promise<AsyncRequestRow> {
  const format = tmImportFormat(upload.filename);
  if (format === null) {
    upload.body.resume();
    throw errors.InvalidArguments({
      reason: `"${upload.filename}" is not a file a translation memory imports: send TMX (.tmx), XLIFF (.xlf, .xliff, .mxliff) or Excel (.xlsx).`,
      details: [{ field: 'Content-Disposition', message: 'the file name must end in .tmx, .xlf, .xliff, .mxliff or .xlsx' }],
    });
  }
  const blob = await putUpload(deps, upload.body);
  const row = await deps.database.db.transaction().execute(async (trx) => {
    const asyncRequest = await createAsyncRequest(deps, trx, {
      organizationId: caller.organizationId,
      createdById: caller.userId,
      action: 'IMPORT_TMX',
    });
    await recordStoredFile(deps, trx, blob);
    await insertTransfer(trx, {
      asyncRequestId: asyncRequest.id,
      organizationId: caller.organizationId,
      transMemoryId: tm.id,
      kind: 'IMPORT',
      filename: upload.filename,
      uploadSha256: blob.sha256,
      now: nowIso(deps.clock),
    });
    await setLastAsyncRequest(trx, [tm.id], asyncRequest.id);
    await enqueue(
      trx,
      {
        kind: TM_IMPORT_TASK,
        payload: { asyncRequestId: asyncRequest.id, format, ...options },
        organizationId: caller.organizationId,
        asyncRequestId: asyncRequest.id,
      },
      deps.clock(),
    );
    return asyncRequest;
  });
  deps.taskWakeup.notify();
  return row;
}

const THREAD_MODULE = new URL(import.meta.url.endsWith('.ts') ? './tm-import.thread.ts' : './tm-import.thread.js', import.meta.url);

/**
 * Streams the stored file through the thread and writes its units into the TM, a batch per
 * transaction (with the transfer's progress). Returns the thread's result; an aborted `signal`
 * stops it (the thread is terminated; the task runs again and starts over).
 */
async function importUnits(
  deps: AppDeps,
  tm: TransMemoryRow,
  asyncRequestId: string,
  sha256: string,
  payload: TmImportPayload,
  signal: AbortSignal,
): Promise<ParseTmFileResult> {
  const db = deps.database.db;
  const input: ParseTmFileInput = {
    format: payload.format,
    sourceLang: tm.sourceLang,
    targetLangs: targetLangsOf(tm),
    strictLangMatching: payload.strictLangMatching,
    stripNativeCodes: payload.stripNativeCodes,
    batchUnits: TM_IMPORT_BATCH_UNITS,
    writer:
      deps.database.sqliteFile === null
        ? undefined
        : { sqliteFile: deps.database.sqliteFile, tmId: tm.id, asyncRequestId, now: nowIso(deps.clock) },
  };
  return streamFileThroughThread<ParseTmFileResult, UnitBatch>({
    file: await deps.blobs.open(sha256),
    module: THREAD_MODULE,
    fn: 'parseTmFile',
    input,
    signal,
    async onBatch(message) {
      const now = nowIso(deps.clock);
      await db.transaction().execute(async (trx) => {
        await writeUnits(trx, tm.id, message.units, now);
        await addTransferUnits(trx, asyncRequestId, message.units.length);
      });
    },
  });
}

/** After the import (done or failed for good): the upload is no longer needed. */
async function releaseUpload(deps: AppDeps, asyncRequestId: string, sha256: string | null): Promise<void> {
  if (sha256 === null) return;
  await clearTransferUpload(deps.database.db, asyncRequestId);
  await releaseStoredFiles(deps, [sha256]);
}

const warningsOf = (warnings: readonly ImportWarning[]) =>
  warnings.map((w) => ({ code: w.code, message: w.message, ...(w.args ? { args: w.args } : {}) }));

/** Units after which an import refreshes PostgreSQL's statistics of the units table. */
const ANALYZE_AFTER_UNITS = 10_000;

/**
 * After a large import on PostgreSQL, the planner's statistics of `tm_units` are refreshed at
 * once (`analyze`, a sample: about a second at millions of rows). Without them, a server whose
 * autovacuum has not run yet plans lookups by source hash (analyses' 101 check, search results)
 * as a scan of the whole TM: 7–16 s a query at 1 M units, measured by bench/analysis.bench.ts.
 */
async function refreshStatistics(deps: AppDeps, units: number): Promise<void> {
  if (deps.database.dialect !== 'postgres' || units < ANALYZE_AFTER_UNITS) return;
  await sql`analyze tm_units`.execute(deps.database.db);
}

/** Runs the import of one async request (idempotent: a finished request is left as it is). */
export async function runTmImport(deps: AppDeps, payload: TmImportPayload, signal: AbortSignal): Promise<void> {
  const db = deps.database.db;
  const { asyncRequestId } = payload;
  const transfer = await findTransfer(db, asyncRequestId);
  const request = await db.selectFrom('asyncRequests').select('finishedAt').where('id', '=', asyncRequestId).executeTakeFirst();
  if (!transfer || !request || request.finishedAt !== null) return;
  const tm = transfer.transMemoryId === null ? undefined : await liveTransMemory(db, transfer.transMemoryId);
  if (!tm || transfer.uploadSha256 === null) {
    await completeAsyncRequest(
      deps,
      db,
      asyncRequestId,
      asyncFailure('AsyncTaskFailed', {
        reason: tm ? 'The uploaded file is no longer there.' : 'The translation memory was deleted before the import finished.',
      }),
    );
    await releaseUpload(deps, asyncRequestId, transfer.uploadSha256);
    deps.taskWakeup.notify();
    return;
  }
  // A rerun (after an interruption) reads the file from its start: the upsert makes it harmless.
  await resetTransferUnits(db, asyncRequestId);
  const result = await importUnits(deps, tm, asyncRequestId, transfer.uploadSha256, payload, signal);
  const warnings = warningsOf(result.warnings);
  if ('formatError' in result) {
    const failure = asyncFailure('ImportFailed', {
      filename: transfer.filename ?? 'the file',
      reason: result.formatError.replace(/\0/g, '\\u0000'),
    });
    const written = await findTransfer(db, asyncRequestId);
    await completeAsyncRequest(deps, db, asyncRequestId, {
      ...failure,
      errorDesc: `${failure.errorDesc} (${Number(written?.units ?? 0)} units read before the error were imported)`.slice(0, 2000),
      warnings,
    });
  } else {
    await refreshStatistics(deps, result.units);
    await completeAsyncRequest(deps, db, asyncRequestId, { acceptedSegmentsCount: result.units, warnings });
  }
  await releaseUpload(deps, asyncRequestId, transfer.uploadSha256);
  deps.taskWakeup.notify();
}

/** The worker's handler; a failure that is not the file's fault is retried (the units written stay). */
export const tmImportTask: AppTaskHandler<typeof TM_IMPORT_TASK> = {
  kind: TM_IMPORT_TASK,
  maxAttempts: 3,
  run(context, payload) {
    return runTmImport(context.deps, payload, context.signal);
  },
  async onFinalFailure(context, payload) {
    const transfer = await findTransfer(context.deps.database.db, payload.asyncRequestId);
    if (transfer) await releaseUpload(context.deps, payload.asyncRequestId, transfer.uploadSha256);
  },
};
