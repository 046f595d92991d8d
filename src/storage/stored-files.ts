import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { isForeignKeyViolation } from '../db/constraint-errors.js';
import type { DB } from '../db/schema.js';
import { errors } from '../errors/index.js';
import { BlobTooLargeError } from './blob-store.js';
import type { BlobStore, StoredBlob } from './blob-store.js';

/** What stored files need of the app: the database, the blobs, the clock and the upload limit. */
export interface StorageDeps {
  readonly database: Database;
  readonly blobs: BlobStore;
  readonly clock: () => Date;
  readonly config: { readonly uploadLimitBytes: number };
}

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
  deps: StorageDeps,
  source: Readable | Buffer | string,
  maxBytes = deps.config.uploadLimitBytes,
): Promise<StoredBlob> {
  try {
    return await deps.blobs.put(source, { maxBytes });
  } catch (error) {
    if (error instanceof BlobTooLargeError || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw errors.FileTooLarge({ limitBytes: maxBytes });
    }
    throw error;
  }
}

/** Records `blob` in the caller's transaction (idempotent); 409 when a concurrent release removed the blob meanwhile. */
export async function recordStoredFile(deps: StorageDeps, trx: Kysely<DB>, blob: StoredBlob): Promise<void> {
  await trx
    .insertInto('storedFiles')
    .values({ sha256: blob.sha256, size: blob.size, createdAt: deps.clock().toISOString() })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
  if (!(await deps.blobs.has(blob.sha256))) {
    throw errors.UploadRaced();
  }
}

/**
 * Removes the stored files among `sha256s` that no record references any more (row and blob).
 * Call after the transaction that deleted the referencing records has committed. Never throws
 * for a file still in use.
 */
export async function releaseStoredFiles(deps: StorageDeps, sha256s: Iterable<string | null | undefined>): Promise<number> {
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
