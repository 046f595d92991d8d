import { sql } from 'kysely';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { bool, num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { CustomFieldOptionsTable, CustomFieldsTable } from '../../../db/tables/custom-fields.js';
import { containsText } from '../../../db/text-match.js';
import type { CustomFieldDefinition } from '../../../domain/custom-fields/custom-field-values.js';
import type { CustomFieldEntity, CustomFieldType } from '../../../domain/custom-fields/custom-field-rules.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';

/** Storage of custom fields and their options. Every lookup is scoped to the caller's organization. */

type Db = Kysely<DB>;
export type CustomFieldRow = Selectable<CustomFieldsTable>;
export type CustomFieldOptionRow = Selectable<CustomFieldOptionsTable>;

export const entitiesOf = (row: CustomFieldRow): CustomFieldEntity[] => JSON.parse(row.allowedEntities) as CustomFieldEntity[];

export function findField(db: Db, organizationId: string, uid: string): Promise<CustomFieldRow | undefined> {
  return db.selectFrom('customFields').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

/** Whether another field of the organization than `exceptId` has `name`, ignoring case (the unique index's rule). */
export async function fieldNameTaken(db: Db, organizationId: string, name: string, exceptId?: Id): Promise<boolean> {
  let query = db
    .selectFrom('customFields')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where(sql`lower(name)`, '=', sql`lower(${name})`);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export interface CustomFieldFilter {
  name?: string | undefined;
  allowedEntities?: string[] | undefined;
  types?: CustomFieldType[] | undefined;
  createdBy?: string[] | undefined;
  modifiedBy?: string[] | undefined;
  uids?: string[] | undefined;
  required?: boolean | undefined;
  sortField?: 'NAME' | 'CREATED' | 'LAST_MODIFIED' | undefined;
  sortTrend?: 'ASC' | 'DESC' | undefined;
}

async function userIdsOf(db: Db, organizationId: string, uids: string[]): Promise<Id[]> {
  return (await db.selectFrom('users').select('id').where('organizationId', '=', organizationId).where('uid', 'in', uids).execute()).map(
    (u) => u.id,
  );
}

export async function listFields(
  db: Db,
  organizationId: string,
  filter: CustomFieldFilter,
  page: PageRequest,
): Promise<{ rows: CustomFieldRow[]; total: number }> {
  let query = db.selectFrom('customFields').where('organizationId', '=', organizationId);
  if (filter.name) query = query.where(containsText('name', filter.name));
  if (filter.types?.length) query = query.where('type', 'in', filter.types);
  if (filter.uids?.length) query = query.where('uid', 'in', filter.uids);
  if (filter.required !== undefined) query = query.where('required', '=', filter.required);
  // allowedEntities is a short JSON list of enum names (no LIKE wildcards in them): any of the given.
  const entities = filter.allowedEntities ?? [];
  if (entities.length) query = query.where((eb) => eb.or(entities.map((entity) => eb('allowedEntities', 'like', `%"${entity}"%`))));
  for (const [uids, column] of [
    [filter.createdBy, 'createdById'],
    [filter.modifiedBy, 'lastModifiedById'],
  ] as const) {
    if (!uids?.length) continue;
    const ids = await userIdsOf(db, organizationId, uids);
    if (ids.length === 0) return { rows: [], total: 0 };
    query = query.where(column, 'in', ids.map(String));
  }
  const { total } = await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sortTrend === 'DESC' ? 'desc' : 'asc';
  const sorted =
    filter.sortField === 'NAME'
      ? query.orderBy(sql`lower(name)`, direction).orderBy('name', direction)
      : filter.sortField === 'LAST_MODIFIED'
        ? query.orderBy('lastModifiedAt', direction)
        : query.orderBy('createdAt', direction);
  const { offset, limit } = pageWindow(page);
  const rows = await sorted.orderBy('id', direction).selectAll().offset(offset).limit(limit).execute();
  return { rows, total: num(total) };
}

/** Every option of a field, in the order they were added. */
export function optionsOf(db: Db, fieldId: Id): Promise<CustomFieldOptionRow[]> {
  return db.selectFrom('customFieldOptions').selectAll().where('fieldId', '=', fieldId).orderBy('id', 'asc').execute();
}

export function findOption(db: Db, fieldId: Id, uid: string): Promise<CustomFieldOptionRow | undefined> {
  return db.selectFrom('customFieldOptions').selectAll().where('fieldId', '=', fieldId).where('uid', '=', uid).executeTakeFirst();
}

export async function listOptions(
  db: Db,
  fieldId: Id,
  filter: { name?: string | undefined; sortField?: 'NAME' | undefined; sortTrend?: 'ASC' | 'DESC' | undefined },
  page: PageRequest,
): Promise<{ rows: CustomFieldOptionRow[]; total: number }> {
  let query = db.selectFrom('customFieldOptions').where('fieldId', '=', fieldId);
  if (filter.name) query = query.where(containsText('value', filter.name));
  const { total } = await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sortTrend === 'DESC' ? 'desc' : 'asc';
  const sorted = filter.sortField === 'NAME' ? query.orderBy(sql`lower(value)`, direction).orderBy('value', direction) : query;
  const { offset, limit } = pageWindow(page);
  const rows = await sorted.orderBy('id', direction).selectAll().offset(offset).limit(limit).execute();
  return { rows, total: num(total) };
}

/** The first `count` options of each field (in the order added) and how many each has: two queries for a page of fields. */
export async function optionPreviews(
  db: Db,
  fieldIds: Id[],
  count: number,
): Promise<Map<string, { first: CustomFieldOptionRow[]; total: number }>> {
  const previews = new Map<string, { first: CustomFieldOptionRow[]; total: number }>();
  if (fieldIds.length === 0) return previews;
  const ids = fieldIds.map(String);
  const totals = await db
    .selectFrom('customFieldOptions')
    .select(['fieldId', (eb) => eb.fn.countAll<number | string>().as('total')])
    .where('fieldId', 'in', ids)
    .groupBy('fieldId')
    .execute();
  for (const row of totals) previews.set(row.fieldId, { first: [], total: num(row.total) });
  const ranked = db
    .selectFrom('customFieldOptions')
    .selectAll()
    .select(sql<number>`row_number() over (partition by field_id order by id)`.as('position'))
    .where('fieldId', 'in', ids)
    .as('ranked');
  const first = await db.selectFrom(ranked).selectAll().where('position', '<=', count).orderBy('fieldId').orderBy('id').execute();
  for (const { position: _position, ...option } of first) previews.get(option.fieldId)?.first.push(option);
  return previews;
}

/** What the value rules of src/domain/custom-fields/custom-field-values.ts need to know of a field. */
export async function fieldDefinition(db: Db, field: CustomFieldRow): Promise<CustomFieldDefinition> {
  const options = await optionsOf(db, field.id);
  return {
    type: field.type,
    required: bool(field.required),
    requiredFrom: field.requiredFrom,
    options: options.map((o) => ({ uid: o.uid, deprecated: bool(o.deprecated) })),
  };
}

export function insertField(db: Db, values: Omit<Insertable<CustomFieldsTable>, 'uid'>): Promise<CustomFieldRow> {
  return db
    .insertInto('customFields')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateField(db: Db, id: Id, changes: Updateable<CustomFieldsTable>): Promise<CustomFieldRow> {
  return db.updateTable('customFields').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Records who changed the field last, and when. */
export async function touchField(db: Db, id: Id, at: string, userId: string): Promise<void> {
  await db.updateTable('customFields').set({ lastModifiedAt: at, lastModifiedById: userId }).where('id', '=', id).execute();
}

/** Deletes the field; its options and the values stored on records go with it (foreign keys cascade). */
export async function deleteField(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('customFields').where('id', '=', id).execute();
}

/** New active options of a field, in the order given. */
export async function insertOptions(db: Db, fieldId: Id, values: string[], at: string): Promise<void> {
  // In chunks, so that a field with many options stays under the databases' parameter limits.
  for (let start = 0; start < values.length; start += 200) {
    const chunk = values.slice(start, start + 200);
    await db
      .insertInto('customFieldOptions')
      .values(chunk.map((value) => ({ uid: newUid(), fieldId, value, deprecated: false, createdAt: at })))
      .execute();
  }
}

export async function deleteOptions(db: Db, ids: Id[]): Promise<void> {
  await db.deleteFrom('customFieldOptions').where('id', 'in', ids).execute();
}

export async function setOptionValue(db: Db, id: Id, value: string): Promise<void> {
  await db.updateTable('customFieldOptions').set({ value }).where('id', '=', id).execute();
}

export async function setOptionsDeprecated(db: Db, ids: Id[], deprecated: boolean): Promise<void> {
  await db.updateTable('customFieldOptions').set({ deprecated }).where('id', 'in', ids).execute();
}
