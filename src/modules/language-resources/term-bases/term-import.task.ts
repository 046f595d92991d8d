import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { onPostgres } from '../../../db/bulk-insert.js';
import { nowIso } from '../../../db/ids.js';
import type { Id } from '../../../db/schema.js';
import { asyncFailure, errors } from '../../../errors/index.js';
import type { TermEntry } from '../../../formats/term-entries.js';
import type { Caller } from '../../../http/access.js';
import { streamFileThroughThread } from '../../../queue/file-port.js';
import { enqueue } from '../../../queue/queue.js';
import { putUpload, recordStoredFile, releaseStoredFiles } from '../../../storage/stored-files.js';
import { completeAsyncRequest, createAsyncRequest } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import { langsOf } from './term-bases.repository.js';
import type { TermBaseRow } from './term-bases.repository.js';
import type { ImportWarning, ParseTermFileInput, ParseTermFileResult, TermBatch, TermFileFormat } from './term-import.thread.js';
import { importEntries } from './term-import.writer.js';
import type { DuplicateMode, ImportContext } from './term-import.writer.js';
import { bumpTermBaseVersion } from './terms.repository.js';

/**
 * The term base import (importTermBase v1 and v2; docs/terminology.md, "Import and export"): the
 * upload is stored, then a task streams it through the format's reader in a worker thread
 * (term-import.thread.ts) and writes the entries batch by batch, each batch in a transaction of
 * its own together with the number of entries done. A kill -9 loses at most the batch in flight;
 * the task runs again, reads the file from its start and skips the entries already written, so
 * nothing is imported twice whatever the duplicate mode.
 */
export const TERM_IMPORT_TASK = 'termBase.import';

export interface TermImportPayload {
  asyncRequestId: string;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'termBase.import': TermImportPayload;
  }
}

export interface TermImportOptions {
  duplicates: DuplicateMode;
  strictLangMatching: boolean;
}

/** Entries per batch (one transaction each). */
export const TERM_IMPORT_BATCH_ENTRIES = 1000;

/** The format of a term file by its name: TBX (.tbx, .xml), Excel (.xlsx) or CSV (.csv, .tsv, .txt). */
export function termFileFormat(filename: string): TermFileFormat | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (extension === 'tbx' || extension === 'xml') return 'tbx';
  if (extension === 'xlsx') return 'xlsx';
  if (extension === 'csv' || extension === 'tsv' || extension === 'txt') return 'csv';
  return null;
}

/**
 * Stores the upload and records the import: the format from the file name's extension (400 for
 * another, before anything is stored), then the async request (IMPORT_TBX), the transfer row
 * holding the upload, the term base's last background task and the task, in one transaction.
 */
export async function requestTermImport(
  deps: AppDeps,
  caller: Caller,
  termBase: TermBaseRow,
  upload: { filename: string; body: Readable },
  options: TermImportOptions,
  maxBytes?: number,
): Promise<AsyncRequestRow> {
  const format = termFileFormat(upload.filename);
  if (format === null) {
    upload.body.resume();
    throw errors.InvalidArguments({
      reason: `"${upload.filename}" is not a file a term base imports: send TBX (.tbx), Excel (.xlsx) or CSV (.csv).`,
      details: [{ field: 'Content-Disposition', message: 'the file name must end in .tbx, .xlsx or .csv' }],
    });
  }
  const blob = await putUpload(deps, upload.body, maxBytes);
  const row = await deps.database.db.transaction().execute(async (trx) => {
    const asyncRequest = await createAsyncRequest(deps, trx, {
      organizationId: caller.organizationId,
      createdById: caller.userId,
      action: 'IMPORT_TBX',
    });
    await recordStoredFile(deps, trx, blob);
    await trx
      .insertInto('tbTransfers')
      .values({
        asyncRequestId: asyncRequest.id,
        organizationId: caller.organizationId,
        termBaseId: termBase.id,
        kind: 'IMPORT',
        format,
        filename: upload.filename,
        uploadSha256: blob.sha256,
        options: JSON.stringify(options),
        createdAt: nowIso(deps.clock),
      })
      .execute();
    await trx.updateTable('termBases').set({ lastAsyncRequestId: asyncRequest.id }).where('id', '=', termBase.id).execute();
    await enqueue(
      trx,
      {
        kind: TERM_IMPORT_TASK,
        payload: { asyncRequestId: asyncRequest.id },
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

const THREAD_MODULE = new URL(import.meta.url.endsWith('.ts') ? './term-import.thread.ts' : './term-import.thread.js', import.meta.url);

interface Transfer {
  asyncRequestId: string;
  organizationId: Id;
  termBaseId: Id | null;
  format: string;
  filename: string | null;
  uploadSha256: string | null;
  options: string;
  entries: number | string;
}

/**
 * Streams the stored file through the thread and writes its entries, a batch per transaction
 * (with the transfer's progress); the first `skip` entries were written by an earlier run.
 */
async function importFile(
  deps: AppDeps,
  termBase: TermBaseRow,
  transfer: Transfer,
  createdById: Id,
  signal: AbortSignal,
): Promise<ParseTermFileResult> {
  const db = deps.database.db;
  const options = JSON.parse(transfer.options) as TermImportOptions;
  const context: ImportContext = {
    termBaseId: termBase.id,
    organizationId: transfer.organizationId,
    userId: createdById,
    mode: options.duplicates,
    now: nowIso(deps.clock),
    domainIds: new Map(),
    subDomainIds: new Map(),
  };
  let skip = Number(transfer.entries);
  let written = 0;
  let analyzedAt = 0;
  const input: ParseTermFileInput = {
    format: transfer.format as TermFileFormat,
    langs: langsOf(termBase),
    strictLangMatching: options.strictLangMatching,
    batchEntries: TERM_IMPORT_BATCH_ENTRIES,
  };
  return streamFileThroughThread<ParseTermFileResult, TermBatch>({
    file: await deps.blobs.open(transfer.uploadSha256!),
    module: THREAD_MODULE,
    fn: 'parseTermFile',
    input,
    signal,
    async onBatch(message) {
      let entries: TermEntry[] = message.entries;
      if (skip > 0) {
        const skipped = Math.min(skip, entries.length);
        entries = entries.slice(skipped);
        skip -= skipped;
      }
      if (entries.length === 0) return;
      const counts = await db.transaction().execute(async (trx) => {
        await bumpTermBaseVersion(trx, termBase.id);
        const counts = await importEntries(trx, context, entries);
        await trx
          .updateTable('tbTransfers')
          .set((eb) => ({
            entries: eb('entries', '+', entries.length),
            createdTerms: eb('createdTerms', '+', counts.createdTerms),
            updatedTerms: eb('updatedTerms', '+', counts.updatedTerms),
            skippedTerms: eb('skippedTerms', '+', counts.skippedTerms),
          }))
          .where('asyncRequestId', '=', transfer.asyncRequestId)
          .execute();
        return counts;
      });
      written += counts.createdTerms;
      if (onPostgres(db) && written > 0 && written >= 2 * analyzedAt) {
        // Without statistics PostgreSQL plans the duplicate lookup as a scan of the term base's
        // whole language (each batch reads every term: quadratic); a sample takes ~150 ms at
        // 200,000 terms, and runs after the first batch and whenever the import has doubled.
        await sql`analyze tb_terms, tb_concepts`.execute(db);
        analyzedAt = written;
      }
    },
  });
}

async function releaseUpload(deps: AppDeps, asyncRequestId: string, sha256: string | null): Promise<void> {
  if (sha256 === null) return;
  await deps.database.db.updateTable('tbTransfers').set({ uploadSha256: null }).where('asyncRequestId', '=', asyncRequestId).execute();
  await releaseStoredFiles(deps, [sha256]);
}

const warningsOf = (warnings: readonly ImportWarning[]) =>
  warnings.map((w) => ({ code: w.code, message: w.message, ...(w.args ? { args: w.args } : {}) }));

export function findTermTransfer(deps: AppDeps, asyncRequestId: string) {
  return deps.database.db.selectFrom('tbTransfers').selectAll().where('asyncRequestId', '=', asyncRequestId).executeTakeFirst();
}

/** Runs the import of one async request (idempotent: a finished request is left as it is). */
export async function runTermImport(deps: AppDeps, payload: TermImportPayload, signal: AbortSignal): Promise<void> {
  const db = deps.database.db;
  const { asyncRequestId } = payload;
  const transfer = await findTermTransfer(deps, asyncRequestId);
  const request = await db
    .selectFrom('asyncRequests')
    .select(['finishedAt', 'createdById'])
    .where('id', '=', asyncRequestId)
    .executeTakeFirst();
  if (!transfer || !request || request.finishedAt !== null) return;
  const termBase =
    transfer.termBaseId === null
      ? undefined
      : await db
          .selectFrom('termBases')
          .selectAll()
          .where('id', '=', transfer.termBaseId)
          .where('deletedAt', 'is', null)
          .executeTakeFirst();
  if (!termBase || transfer.uploadSha256 === null) {
    await completeAsyncRequest(
      deps,
      db,
      asyncRequestId,
      asyncFailure('AsyncTaskFailed', {
        reason: termBase ? 'The uploaded file is no longer there.' : 'The term base was deleted before the import finished.',
      }),
    );
    await releaseUpload(deps, asyncRequestId, transfer.uploadSha256);
    deps.taskWakeup.notify();
    return;
  }
  const result = await importFile(deps, termBase, transfer, request.createdById ?? termBase.createdById ?? termBase.ownerId!, signal);
  const written = await findTermTransfer(deps, asyncRequestId);
  const accepted = Number(written?.createdTerms ?? 0) + Number(written?.updatedTerms ?? 0);
  const warnings = warningsOf(result.warnings);
  if ('formatError' in result) {
    const failure = asyncFailure('ImportFailed', {
      filename: transfer.filename ?? 'the file',
      reason: result.formatError.replace(/\0/g, '\\u0000'),
    });
    await completeAsyncRequest(deps, db, asyncRequestId, {
      ...failure,
      errorDesc: `${failure.errorDesc} (${Number(written?.entries ?? 0)} entries read before the error were imported)`.slice(0, 2000),
      warnings,
      acceptedSegmentsCount: accepted,
    });
  } else {
    await completeAsyncRequest(deps, db, asyncRequestId, { acceptedSegmentsCount: accepted, warnings });
  }
  await releaseUpload(deps, asyncRequestId, transfer.uploadSha256);
  deps.taskWakeup.notify();
}

/** The worker's handler; a failure that is not the file's fault is retried (the batches written stay, and are skipped). */
export const termImportTask: AppTaskHandler<typeof TERM_IMPORT_TASK> = {
  kind: TERM_IMPORT_TASK,
  maxAttempts: 3,
  run(context, payload) {
    return runTermImport(context.deps, payload, context.signal);
  },
  async onFinalFailure(context, payload) {
    const transfer = await findTermTransfer(context.deps, payload.asyncRequestId);
    if (transfer) await releaseUpload(context.deps, payload.asyncRequestId, transfer.uploadSha256);
  },
};
