import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { recordStoredFile, releaseStoredFiles } from '../../../storage/stored-files.js';
import { withUploads } from '../../../http/multipart-uploads.js';
import type { UploadedFile } from '../../../http/multipart-uploads.js';
import { deleteFile, findFile, insertFile } from './files.repository.js';
import type { UploadedFileRow } from './files.repository.js';

/** The Files API's use cases (docs/reference-files.md): store an uploaded file, find one, delete one. */

export const OCTET_STREAM = 'application/octet-stream';

/** Records the uploaded file's stored bytes and its row in one transaction (a failure leaves no unused blob). */
export function storeFile(deps: AppDeps, caller: Caller, file: UploadedFile): Promise<UploadedFileRow> {
  return withUploads(deps, [file.blob], () =>
    deps.database.db.transaction().execute(async (trx) => {
      await recordStoredFile(deps, trx, file.blob);
      return insertFile(
        trx,
        caller,
        { name: file.filename, sha256: file.blob.sha256, size: file.blob.size, contentType: file.contentType ?? OCTET_STREAM },
        deps.clock().toISOString(),
      );
    }),
  );
}

/** The file `uid` the caller may see; 404 otherwise. */
export async function requireFile(db: Kysely<DB>, caller: Caller, uid: string): Promise<UploadedFileRow> {
  const row = await findFile(db, caller, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'File' });
  return row;
}

/** Deletes the file's row, then releases its stored bytes once nothing else uses them. */
export async function deleteUploadedFile(deps: AppDeps, row: UploadedFileRow): Promise<void> {
  await deps.database.db.transaction().execute((trx) => deleteFile(trx, row.id));
  await releaseStoredFiles(deps, [row.sha256]);
}
