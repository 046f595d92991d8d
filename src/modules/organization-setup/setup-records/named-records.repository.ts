import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB, Id, Timestamp } from '../../../db/schema.js';
import type { NamedRecordColumns } from '../../../db/tables/setup-records.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import { containsText } from '../../../db/text-match.js';

/**
 * Storage of the named setup records, one implementation for every kind: the tables share the
 * columns of `NamedRecordColumns` (plus `deleted_at` where records are soft deleted), so the
 * queries are written once against that common shape.
 */
export type NamedTable = 'clients' | 'businessUnits' | 'costCenters' | 'domains' | 'subDomains';

export interface NamedRow extends Omit<NamedRecordColumns, 'id'> {
  id: Id;
  [column: string]: unknown;
}

/** The common shape of the named tables, as Kysely sees it through this module. */
type NamedDb = Kysely<Record<NamedTable, NamedRecordColumns & { deletedAt: Timestamp | null }>>;
const named = (db: Kysely<DB>) => db as unknown as NamedDb;

export interface NamedTableInfo {
  table: NamedTable;
  softDelete: boolean;
}

export interface NamedRecordFilter {
  name?: string | undefined;
  /** Creator's user id; null = a creator uid that names nobody (the page is empty). */
  createdById?: string | null | undefined;
  sort: 'NAME' | 'DATE_CREATED';
  order: 'ASC' | 'DESC';
}

function live(info: NamedTableInfo, db: Kysely<DB>, organizationId: string) {
  let query = named(db).selectFrom(info.table).where('organizationId', '=', organizationId);
  if (info.softDelete) query = query.where('deletedAt', 'is', null);
  return query;
}

export async function listNamedRecords(
  db: Kysely<DB>,
  info: NamedTableInfo,
  organizationId: string,
  filter: NamedRecordFilter,
  page: PageRequest,
): Promise<{ rows: NamedRow[]; total: number }> {
  if (filter.createdById === null) return { rows: [], total: 0 };
  let query = live(info, db, organizationId);
  if (filter.name) query = query.where(containsText('name', filter.name));
  if (filter.createdById !== undefined) query = query.where('createdById', '=', filter.createdById);
  const { total } = await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.order === 'DESC' ? 'desc' : 'asc';
  const { offset, limit } = pageWindow(page);
  const ordered =
    filter.sort === 'DATE_CREATED'
      ? query.orderBy('createdAt', direction)
      : query.orderBy(sql`lower(name)`, direction).orderBy('name', direction);
  const rows = await ordered.orderBy('id', direction).selectAll().offset(offset).limit(limit).execute();
  return { rows: rows as NamedRow[], total: Number(total) };
}

export async function findNamedRecord(
  db: Kysely<DB>,
  info: NamedTableInfo,
  organizationId: string,
  uid: string,
): Promise<NamedRow | undefined> {
  return (await live(info, db, organizationId).selectAll().where('uid', '=', uid).executeTakeFirst()) as NamedRow | undefined;
}

export async function findNamedRecordsByUids(
  db: Kysely<DB>,
  info: NamedTableInfo,
  organizationId: string,
  uids: string[],
): Promise<NamedRow[]> {
  if (uids.length === 0) return [];
  return (await live(info, db, organizationId).selectAll().where('uid', 'in', uids).execute()) as NamedRow[];
}

export async function findNamedRecordsByIds(db: Kysely<DB>, info: NamedTableInfo, organizationId: string, ids: Id[]): Promise<NamedRow[]> {
  if (ids.length === 0) return [];
  return (await named(db)
    .selectFrom(info.table)
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', 'in', ids.map(String))
    .execute()) as NamedRow[];
}

/** Whether a live record other than `exceptId` has `name`, ignoring case (the unique index's rule). */
export async function nameTaken(
  db: Kysely<DB>,
  info: NamedTableInfo,
  organizationId: string,
  name: string,
  exceptId?: Id,
): Promise<boolean> {
  let query = live(info, db, organizationId)
    .select('id')
    .where(sql`lower(name)`, '=', sql`lower(${name})`);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertNamedRecord(db: Kysely<DB>, info: NamedTableInfo, values: Record<string, unknown>): Promise<NamedRow> {
  return (await named(db)
    .insertInto(info.table)
    .values(values as never)
    .returningAll()
    .executeTakeFirstOrThrow()) as NamedRow;
}

export async function updateNamedRecord(db: Kysely<DB>, info: NamedTableInfo, id: Id, changes: Record<string, unknown>): Promise<NamedRow> {
  return (await named(db)
    .updateTable(info.table)
    .set(changes as never)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()) as NamedRow;
}

export async function deleteNamedRecord(db: Kysely<DB>, info: NamedTableInfo, id: Id, now: Timestamp): Promise<void> {
  if (info.softDelete) {
    await named(db).updateTable(info.table).set({ deletedAt: now }).where('id', '=', id).execute();
  } else {
    await named(db).deleteFrom(info.table).where('id', '=', id).execute();
  }
}
