import { sql } from 'kysely';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { Id } from '../../../db/schema.js';
import type { CustomFileTypesTable } from '../../../db/tables/import-settings.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type CustomFileTypeRow = Selectable<CustomFileTypesTable>;

export function findCustomFileType(db: Db, organizationId: string, uid: string): Promise<CustomFileTypeRow | undefined> {
  return db
    .selectFrom('customFileTypes')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('uid', '=', uid)
    .executeTakeFirst();
}

export function findCustomFileTypes(db: Db, organizationId: string, uids: readonly string[]): Promise<CustomFileTypeRow[]> {
  if (uids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('customFileTypes')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('uid', 'in', [...uids])
    .execute();
}

/** Every custom file type of the organization with what matching needs, oldest first. */
export function customFileTypePatterns(db: Db, organizationId: string): Promise<Pick<CustomFileTypeRow, 'id' | 'filenamePattern'>[]> {
  return db
    .selectFrom('customFileTypes')
    .select(['id', 'filenamePattern'])
    .where('organizationId', '=', organizationId)
    .orderBy('id')
    .execute();
}

export function findCustomFileTypeById(db: Db, id: Id): Promise<CustomFileTypeRow | undefined> {
  return db.selectFrom('customFileTypes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listCustomFileTypes(
  db: Db,
  organizationId: string,
  page: PageRequest,
): Promise<{ rows: CustomFileTypeRow[]; total: number }> {
  const query = db.selectFrom('customFileTypes').where('organizationId', '=', organizationId);
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query
    .selectAll()
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total: num(total) };
}

export function insertCustomFileType(db: Db, values: Omit<Insertable<CustomFileTypesTable>, 'uid'>): Promise<CustomFileTypeRow> {
  return db
    .insertInto('customFileTypes')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateCustomFileTypeRow(db: Db, id: Id, values: Updateable<CustomFileTypesTable>): Promise<CustomFileTypeRow> {
  return db.updateTable('customFileTypes').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteCustomFileTypeRows(db: Db, ids: readonly Id[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('customFileTypes')
    .where('id', 'in', [...ids])
    .execute();
}
