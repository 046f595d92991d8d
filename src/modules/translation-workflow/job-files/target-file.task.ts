import { PassThrough } from 'node:stream';
import type { Readable, Writable } from 'node:stream';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { asyncFailure } from '../../../errors/index.js';
import { FORMAT_SNIFF_BYTES, FormatError } from '../../../formats/index.js';
import type { FormatFilter } from '../../../formats/index.js';
import { putUpload, recordStoredFile } from '../../../storage/stored-files.js';
import { completeAsyncRequest } from '../../integration/async-requests/index.js';
import { filterOfSource, pickTranslations, unitTranslations, writeOptions } from './target-content.js';
import { candidateTranslations, findTargetFileWork, sourceSegmentsForTarget } from './job-files.repository.js';
import type { TargetFileWork } from './job-files.repository.js';

/** Task kind that builds a target file requested with `PUT …/targetFile`. */
export const TARGET_FILE_TASK = 'job.targetFile';

export interface TargetFilePayload {
  asyncRequestId: string;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'job.targetFile': TargetFilePayload;
  }
}

/**
 * Builds the target file of a job (docs/job-files-and-operations.md): the job's translations put
 * back into the original file with its format filter, stored as a blob and recorded on the
 * `job_target_files` row, then the async request is completed. Safe to run twice: a row that
 * already has its file only completes the request. A file the filter cannot write (a malformed
 * original, a translation with broken tags) completes the request with the error at once, since
 * a retry would fail the same way.
 */
export const targetFileTask: AppTaskHandler<typeof TARGET_FILE_TASK> = {
  kind: TARGET_FILE_TASK,
  maxAttempts: 3,
  async run(context, payload) {
    const { deps } = context;
    const db = deps.database.db;
    const work = await findTargetFileWork(db, payload.asyncRequestId);
    if (!work) return;
    if (work.sha256 !== null) {
      await completeAsyncRequest(deps, db, payload.asyncRequestId);
      return;
    }
    let blob;
    try {
      blob = await buildTargetFile(deps, work);
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      await completeAsyncRequest(deps, db, payload.asyncRequestId, asyncFailure('TargetFileFailed', { reason: error.message }));
      return;
    }
    await db.transaction().execute(async (trx) => {
      await recordStoredFile(deps, trx, blob);
      await trx
        .updateTable('jobTargetFiles')
        .set({ sha256: blob.sha256 })
        .where('asyncRequestId', '=', payload.asyncRequestId)
        .where('sha256', 'is', null)
        .execute();
      await completeAsyncRequest(deps, trx, payload.asyncRequestId);
    });
  },
};

/** Streams the original through the filter's write into the blob store (also the synchronous v1 download). */
export async function buildTargetFile(deps: AppDeps, work: TargetFileWork) {
  const output = new PassThrough();
  const stored = putUpload(deps, output, Number.MAX_SAFE_INTEGER);
  try {
    await writeTargetFile(deps, work, output);
  } catch (error) {
    output.destroy(error as Error);
    await stored.catch(() => undefined);
    throw error;
  }
  return stored;
}

/**
 * Writes the target file of `work` to `output` (and ends it); rejects with FormatError when the
 * file cannot be written. `overlay` (segment index -> translation) replaces the job's
 * translations where it has one: the preview of a bilingual file (docs/previews.md). Answers the
 * filter that wrote the file.
 */
export async function writeTargetFile(
  deps: AppDeps,
  work: TargetFileWork,
  output: Writable,
  overlay?: ReadonlyMap<number, string>,
): Promise<FormatFilter> {
  const db = deps.database.db;
  const firstBytes = await readFirstBytes(await deps.blobs.open(work.source.sha256), FORMAT_SNIFF_BYTES);
  const filter = filterOfSource(work.source.format, work.source.filename, firstBytes);
  if (!filter) throw new FormatError(`The file type of "${work.source.filename}" is not supported.`);
  const segments = await sourceSegmentsForTarget(db, work.source.id);
  const translations = pickTranslations(work.job.id, await candidateTranslations(db, work.job));
  for (const [idx, target] of overlay ?? []) translations.set(idx, target);
  const units = unitTranslations(segments, translations);
  const options = writeOptions(filter.name, work.source.importSettings, work.job.targetLang);
  await filter.write(await deps.blobs.open(work.source.sha256), units, output, options);
  return filter;
}

/** The first `count` bytes of a stream (fewer for a shorter file); the stream is closed afterwards. */
async function readFirstBytes(stream: Readable, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      chunks.push(buffer);
      length += buffer.length;
      if (length >= count) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, count);
}
