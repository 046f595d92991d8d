import type { Kysely, Selectable } from 'kysely';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { ReferenceFilesTable } from '../../../db/tables/projects.js';
import { containsText } from '../../../db/text-match.js';
import { num } from '../../../db/database.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { UserRow } from '../../identity/users/index.js';
import type { SortOrder } from './reference-files.schemas.js';

/**
 * Queries of `reference_files`. A reference belongs to exactly one owner: a project
 * (`project_id`) or a template (`template_id`); every query names the owner, so a reference of
 * another project, template or organization is simply not found.
 */

export type ReferenceFileRow = Selectable<ReferenceFilesTable>;

export type ReferenceOwner = { kind: 'project'; id: Id } | { kind: 'template'; id: Id };

const ownerColumn = (owner: ReferenceOwner) => (owner.kind === 'project' ? 'projectId' : 'templateId');

export interface NewReference {
  filename: string;
  note: string | null;
  sha256: string;
  size: number;
  contentType: string | null;
}

/** Inserts references of `owner` in the given order; call in the transaction that recorded their stored files. */
export async function insertReferences(
  trx: Kysely<DB>,
  organizationId: Id,
  owner: ReferenceOwner,
  references: readonly NewReference[],
  createdById: Id,
  now: string,
): Promise<ReferenceFileRow[]> {
  const rows: ReferenceFileRow[] = [];
  for (const reference of references) {
    rows.push(
      await trx
        .insertInto('referenceFiles')
        .values({
          uid: newUid(),
          organizationId: organizationId,
          projectId: owner.kind === 'project' ? owner.id : null,
          templateId: owner.kind === 'template' ? owner.id : null,
          filename: reference.filename,
          note: reference.note,
          sha256: reference.sha256,
          size: reference.size,
          contentType: reference.contentType,
          createdAt: now,
          createdById: createdById,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }
  return rows;
}

export interface ReferenceListFilter {
  filename?: string | undefined;
  dateCreatedSince?: string | undefined;
  createdByUid?: string | undefined;
  sort: 'ID' | 'FILENAME' | 'DATE_CREATED' | 'CREATED_BY';
  order: SortOrder;
}

/** One page of `owner`'s references, filtered and sorted, with the total count. */
export async function listReferences(
  db: Kysely<DB>,
  owner: ReferenceOwner,
  filter: ReferenceListFilter,
  page: PageRequest,
): Promise<{ rows: ReferenceFileRow[]; total: number }> {
  let query = db
    .selectFrom('referenceFiles')
    .leftJoin('users', 'users.id', 'referenceFiles.createdById')
    .where(`referenceFiles.${ownerColumn(owner)}`, '=', owner.id);
  if (filter.filename) query = query.where(containsText('referenceFiles.filename', filter.filename));
  // Timestamps are ISO 8601 UTC strings of one length, so text order is time order.
  if (filter.dateCreatedSince) query = query.where('referenceFiles.createdAt', '>=', new Date(filter.dateCreatedSince).toISOString());
  if (filter.createdByUid) query = query.where('users.uid', '=', filter.createdByUid);
  const counted = await query.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
  const direction = filter.order === 'ASC' ? 'asc' : 'desc';
  const sortColumn = {
    ID: 'referenceFiles.id',
    FILENAME: 'referenceFiles.filename',
    DATE_CREATED: 'referenceFiles.createdAt',
    CREATED_BY: 'users.userName',
  } as const;
  const { offset, limit } = pageWindow(page);
  const rows = await query
    .selectAll('referenceFiles')
    .orderBy(sortColumn[filter.sort], direction)
    .orderBy('referenceFiles.id', direction)
    .offset(offset)
    .limit(limit)
    .execute();
  return { rows, total: num(counted.count) };
}

/** `owner`'s reference with this id, or undefined. */
export function findReferenceById(db: Kysely<DB>, owner: ReferenceOwner, id: string): Promise<ReferenceFileRow | undefined> {
  return db.selectFrom('referenceFiles').selectAll().where(ownerColumn(owner), '=', owner.id).where('id', '=', id).executeTakeFirst();
}

/** `owner`'s references among `ids` (integer ids) or `uids`, in no particular order. */
export function findReferences(
  db: Kysely<DB>,
  owner: ReferenceOwner,
  selector: { ids: string[] } | { uids: string[] },
): Promise<ReferenceFileRow[]> {
  const query = db.selectFrom('referenceFiles').selectAll().where(ownerColumn(owner), '=', owner.id);
  if ('ids' in selector) return selector.ids.length ? query.where('id', 'in', selector.ids).execute() : Promise.resolve([]);
  return selector.uids.length ? query.where('uid', 'in', selector.uids).execute() : Promise.resolve([]);
}

/** Deletes the references (ids) and returns nothing; the caller releases their stored files after commit. */
export async function deleteReferences(trx: Kysely<DB>, ids: readonly Id[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .deleteFrom('referenceFiles')
    .where(
      'id',
      'in',
      ids.map((id) => id),
    )
    .execute();
}

/** How many users the creators list answers at most (description, "Limits"). */
export const MAX_CREATORS = 50;

/**
 * The users who created references of the project, by user name, at most MAX_CREATORS; narrowed
 * by `userName` (part of the user name, first or last name, ignoring case). Creators may belong to
 * a vendor organization working on the project.
 */
export function referenceCreators(db: Kysely<DB>, projectId: Id, userName: string | undefined): Promise<UserRow[]> {
  let query = db
    .selectFrom('users')
    .selectAll('users')
    .where('users.id', 'in', (eb) =>
      eb
        .selectFrom('referenceFiles')
        .select('referenceFiles.createdById')
        .where('referenceFiles.projectId', '=', projectId)
        .where('referenceFiles.createdById', 'is not', null),
    );
  if (userName) {
    query = query.where((eb) =>
      eb.or([
        containsText('users.userName', userName),
        containsText('users.firstName', userName),
        containsText('users.lastName', userName),
      ]),
    );
  }
  return query.orderBy('users.userName').orderBy('users.id').limit(MAX_CREATORS).execute() as Promise<UserRow[]>;
}

/** The users with these ids, of any organization (reference creators may be a vendor's users). */
export function usersByIds(db: Kysely<DB>, ids: ReadonlyArray<Id | null>): Promise<UserRow[]> {
  const wanted = [...new Set(ids.filter((id): id is Id => id !== null).map(String))];
  if (wanted.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').selectAll().where('id', 'in', wanted).execute() as Promise<UserRow[]>;
}
