import type { Kysely, Selectable } from 'kysely';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { CustomFieldValuesTable } from '../../../db/tables/projects.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';

/**
 * Storage of custom field values ("instances") on projects, templates and jobs: one row per field
 * and record in `custom_field_values` (exactly one owner column set), the selected options of
 * select fields in `custom_field_value_options`.
 */

export type CustomFieldOwnerKind = 'project' | 'template' | 'job';

/** The record values belong to: its kind, id and creation time (required fields apply from `requiredFrom` on). */
export interface CustomFieldOwner {
  kind: CustomFieldOwnerKind;
  id: string;
  createdAt: string;
}

export type CustomFieldValueRow = Selectable<CustomFieldValuesTable>;

const OWNER_COLUMN = { project: 'projectId', template: 'templateId', job: 'jobId' } as const;

export const ownerColumns = (owner: CustomFieldOwner) => ({
  projectId: owner.kind === 'project' ? owner.id : null,
  templateId: owner.kind === 'template' ? owner.id : null,
  jobId: owner.kind === 'job' ? owner.id : null,
});

/** Values of `owner`, in the order they were created. */
export function valuesOf(db: Kysely<DB>, owner: CustomFieldOwner): Promise<CustomFieldValueRow[]> {
  return db.selectFrom('customFieldValues').selectAll().where(OWNER_COLUMN[owner.kind], '=', owner.id).orderBy('id').execute();
}

export function findValue(db: Kysely<DB>, owner: CustomFieldOwner, uid: string): Promise<CustomFieldValueRow | undefined> {
  return db
    .selectFrom('customFieldValues')
    .selectAll()
    .where(OWNER_COLUMN[owner.kind], '=', owner.id)
    .where('uid', '=', uid)
    .executeTakeFirst();
}

export function findValueOfField(db: Kysely<DB>, owner: CustomFieldOwner, fieldId: Id): Promise<CustomFieldValueRow | undefined> {
  return db
    .selectFrom('customFieldValues')
    .selectAll()
    .where(OWNER_COLUMN[owner.kind], '=', owner.id)
    .where('customFieldId', '=', fieldId)
    .executeTakeFirst();
}

export interface ValueListFilter {
  /** User ids; an empty list matches nothing. */
  createdByIds?: string[] | undefined;
  modifiedByIds?: string[] | undefined;
  sortField?: 'CREATED' | 'LAST_MODIFIED' | undefined;
  sortTrend?: 'ASC' | 'DESC' | undefined;
}

export async function listValues(
  db: Kysely<DB>,
  owner: CustomFieldOwner,
  filter: ValueListFilter,
  page: PageRequest,
): Promise<{ rows: CustomFieldValueRow[]; total: number }> {
  let query = db.selectFrom('customFieldValues').where(OWNER_COLUMN[owner.kind], '=', owner.id);
  if (filter.createdByIds) query = query.where('createdById', 'in', filter.createdByIds.length ? filter.createdByIds : ['-1']);
  if (filter.modifiedByIds) query = query.where('lastModifiedById', 'in', filter.modifiedByIds.length ? filter.modifiedByIds : ['-1']);
  const { total } = await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sortTrend === 'DESC' ? 'desc' : 'asc';
  const { offset, limit } = pageWindow(page);
  const rows = await query
    .selectAll()
    .orderBy(filter.sortField === 'LAST_MODIFIED' ? 'lastModifiedAt' : 'createdAt', direction)
    .orderBy('id', direction)
    .offset(offset)
    .limit(limit)
    .execute();
  return { rows, total: num(total) };
}

/** The uids of the options each value selects, in the order the field's options were added. */
export async function selectedOptionUids(db: Kysely<DB>, valueIds: readonly Id[]): Promise<Map<string, string[]>> {
  const byValue = new Map<string, string[]>();
  if (valueIds.length === 0) return byValue;
  const rows = await db
    .selectFrom('customFieldValueOptions')
    .innerJoin('customFieldOptions', 'customFieldOptions.id', 'customFieldValueOptions.optionId')
    .select(['customFieldValueOptions.valueId', 'customFieldOptions.uid'])
    .where('customFieldValueOptions.valueId', 'in', valueIds.map(String))
    .orderBy('customFieldOptions.id')
    .execute();
  for (const row of rows) {
    const list = byValue.get(row.valueId) ?? [];
    list.push(row.uid);
    byValue.set(row.valueId, list);
  }
  return byValue;
}

/** Replaces the options a value selects (option uids of its field). */
export async function replaceSelectedOptions(trx: Kysely<DB>, valueId: Id, fieldId: Id, optionUids: readonly string[]): Promise<void> {
  await trx.deleteFrom('customFieldValueOptions').where('valueId', '=', valueId).execute();
  if (optionUids.length === 0) return;
  const options = await trx
    .selectFrom('customFieldOptions')
    .select('id')
    .where('fieldId', '=', fieldId)
    .where('uid', 'in', [...optionUids])
    .execute();
  await trx
    .insertInto('customFieldValueOptions')
    .values(options.map((o) => ({ valueId: valueId, optionId: o.id })))
    .execute();
}

export async function deleteValues(trx: Kysely<DB>, valueIds: readonly Id[]): Promise<void> {
  if (valueIds.length === 0) return;
  await trx.deleteFrom('customFieldValues').where('id', 'in', valueIds.map(String)).execute();
}

/**
 * Copies every value of `from` (with its selected options) onto `to`, which has none yet: a
 * template made from a project takes the project's values, a project made from a template the
 * template's.
 */
export async function copyCustomFieldValues(
  trx: Kysely<DB>,
  from: CustomFieldOwner,
  to: CustomFieldOwner,
  now: string,
  userId: string | null,
): Promise<void> {
  for (const value of await valuesOf(trx, from)) {
    const copy = await trx
      .insertInto('customFieldValues')
      .values({
        uid: newUid(),
        organizationId: value.organizationId,
        customFieldId: value.customFieldId,
        ...ownerColumns(to),
        value: value.value,
        createdAt: now,
        createdById: userId,
        lastModifiedAt: now,
        lastModifiedById: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const options = await trx.selectFrom('customFieldValueOptions').select('optionId').where('valueId', '=', value.id).execute();
    if (options.length)
      await trx
        .insertInto('customFieldValueOptions')
        .values(options.map((o) => ({ valueId: copy.id, optionId: o.optionId })))
        .execute();
  }
}

/** The uid of the field a value belongs to. */
export async function fieldUidOf(db: Kysely<DB>, row: CustomFieldValueRow): Promise<string> {
  const field = await db.selectFrom('customFields').select('uid').where('id', '=', row.customFieldId).executeTakeFirstOrThrow();
  return field.uid;
}

/** The ids of the organization's users with these uids; undefined when no uid is given (no filter). */
export async function userIdsOf(db: Kysely<DB>, organizationId: Id, uids: readonly string[] | undefined): Promise<string[] | undefined> {
  if (!uids?.length) return undefined;
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('uid', 'in', [...uids])
    .execute();
  return rows.map((r) => r.id);
}
