import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import yazl from 'yazl';
import type { AppDeps } from '../deps.js';
import { isForeignKeyViolation } from '../db/constraint-errors.js';
import type { DB } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { attachmentDisposition } from '../http/uploads.js';
import { BlobTooLargeError } from './blob-store.js';
import type { StoredBlob } from './blob-store.js';

/**
 * Stored files: blobs (src/storage/blob-store.ts) plus their `stored_files` rows. Every record
 * holding a file (job sources, reference files, target files, uploaded files) references
 * `stored_files.sha256` with a plain foreign key, so the database knows whether a blob is still
 * used: `releaseStoredFiles` removes a blob only after its row could be deleted.
 *
 * The order that keeps uploads safe:
 * 1. `putUpload` streams the bytes into the blob store (durable, outside any transaction);
 * 2. `recordStoredFile`, in the transaction that writes the referencing record, upserts the row
 *    and checks that the blob is still there (a concurrent release may have removed it);
 * 3. after a delete commits, `releaseStoredFiles` tries to delete the rows of the files the
 *    deleted records used; a row still referenced stays (foreign key), an unreferenced one goes
 *    together with its blob.
 */

/** Streams an upload into the blob store; 413 past `maxBytes` (default: the configured upload limit), storing nothing. */
export async function putUpload(
  deps: AppDeps,
  source: Readable | Buffer | string,
  maxBytes = deps.config.uploadLimitBytes,
): Promise<StoredBlob> {
  try {
    return await deps.blobs.put(source, { maxBytes });
  } catch (error) {
    if (error instanceof BlobTooLargeError || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ApiError('payload_too_large', 'FileTooLarge', `The file is larger than the upload limit of ${maxBytes} bytes.`);
    }
    throw error;
  }
}

/** Records `blob` in the caller's transaction (idempotent); 409 when a concurrent release removed the blob meanwhile. */
export async function recordStoredFile(deps: AppDeps, trx: Kysely<DB>, blob: StoredBlob): Promise<void> {
  await trx
    .insertInto('storedFiles')
    .values({ sha256: blob.sha256, size: blob.size, createdAt: deps.clock().toISOString() })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
  if (!(await deps.blobs.has(blob.sha256))) {
    throw new ApiError('conflict', 'UploadRaced', 'The file was removed while it was being stored; send it again.');
  }
}

/**
 * Removes the stored files among `sha256s` that no record references any more (row and blob).
 * Call after the transaction that deleted the referencing records has committed. Never throws
 * for a file still in use.
 */
export async function releaseStoredFiles(deps: AppDeps, sha256s: Iterable<string | null | undefined>): Promise<number> {
  let removed = 0;
  for (const sha256 of new Set([...sha256s].filter((s): s is string => typeof s === 'string'))) {
    try {
      const result = await deps.database.db.deleteFrom('storedFiles').where('sha256', '=', sha256).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) continue;
    } catch (error) {
      if (isForeignKeyViolation(error)) continue;
      throw error;
    }
    await deps.blobs.remove(sha256);
    removed++;
  }
  return removed;
}

/** Sends one stored file as an attachment named `filename`. */
export async function sendStoredFile(
  deps: AppDeps,
  reply: FastifyReply,
  file: { sha256: string; filename: string; size?: number | string; contentType?: string | null },
): Promise<FastifyReply> {
  const stream = await deps.blobs.open(file.sha256);
  reply.header('content-disposition', attachmentDisposition(file.filename));
  // The type is whatever the uploader said: browsers must not second-guess it into HTML or script.
  reply.header('x-content-type-options', 'nosniff');
  reply.type(file.contentType || 'application/octet-stream');
  if (file.size !== undefined) reply.header('content-length', String(file.size));
  return reply.send(stream);
}

/** `name` made unique among `taken` by a counter before the extension: `a.txt`, `a (1).txt`, … */
export function uniqueEntryName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Sends several stored files as one ZIP archive, streamed (entries are read one after another,
 * never all at once). Entry names are made unique.
 */
export async function sendZip(
  deps: AppDeps,
  reply: FastifyReply,
  archiveName: string,
  files: ReadonlyArray<{ sha256: string; filename: string }>,
): Promise<FastifyReply> {
  const zip = new yazl.ZipFile();
  const taken = new Set<string>();
  for (const file of files) {
    // Opened lazily: yazl reads entries in order, so only one blob is open at a time.
    zip.addReadStreamLazy(uniqueEntryName(file.filename, taken), {}, (callback) => {
      deps.blobs.open(file.sha256).then(
        (stream) => callback(null, stream),
        (error: Error) => callback(error, undefined as never),
      );
    });
  }
  zip.end();
  reply.header('content-disposition', attachmentDisposition(archiveName));
  reply.type('application/zip');
  return reply.send(zip.outputStream);
}
