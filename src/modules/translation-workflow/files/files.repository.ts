import type { Kysely, Selectable } from 'kysely';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { UploadedFilesTable } from '../../../db/tables/projects.js';
import { containsText } from '../../../db/text-match.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Caller } from '../../../http/access.js';

/**
 * Queries of `uploaded_files` (the Files API). Every query is scoped to what the caller may see:
 * an ADMIN the organization's files, anyone else the files they uploaded (docs/reference-files.md).
 */

export type UploadedFileRow = Selectable<UploadedFilesTable>;

function visibleFiles(db: Kysely<DB>, caller: Caller) {
  const query = db.selectFrom('uploadedFiles').where('organizationId', '=', caller.organizationId);
  return caller.role === 'ADMIN' ? query : query.where('createdById', '=', caller.userId);
}

export interface FileFilter {
  name?: string | undefined;
  types?: string[] | undefined;
  createdById?: number | undefined;
  biggerThan?: number | undefined;
}

export async function listFiles(
  db: Kysely<DB>,
  caller: Caller,
  filter: FileFilter,
  page: PageRequest,
): Promise<{ rows: UploadedFileRow[]; total: number }> {
  let query = visibleFiles(db, caller);
  if (filter.name) query = query.where(containsText('name', filter.name));
  if (filter.types?.length)
    query = query.where(
      'contentType',
      'in',
      filter.types.map((type) => type.toLowerCase()),
    );
  if (filter.createdById !== undefined) query = query.where('createdById', '=', String(filter.createdById));
  if (filter.biggerThan !== undefined) query = query.where('size', '>', filter.biggerThan);
  const counted = await query.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute();
  return { rows, total: num(counted.count) };
}

export function findFile(db: Kysely<DB>, caller: Caller, uid: string): Promise<UploadedFileRow | undefined> {
  return visibleFiles(db, caller).selectAll().where('uid', '=', uid).executeTakeFirst();
}

export interface NewUploadedFile {
  name: string;
  sha256: string;
  size: number;
  contentType: string;
}

export function insertFile(trx: Kysely<DB>, caller: Caller, file: NewUploadedFile, now: string): Promise<UploadedFileRow> {
  return trx
    .insertInto('uploadedFiles')
    .values({ uid: newUid(), organizationId: caller.organizationId, ...file, createdAt: now, createdById: caller.userId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteFile(trx: Kysely<DB>, id: Id): Promise<void> {
  await trx.deleteFrom('uploadedFiles').where('id', '=', id).execute();
}
