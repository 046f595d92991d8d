import { sql } from 'kysely';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { LqaProfilesTable } from '../../../db/tables/lqa-profiles.js';
import { containsText } from '../../../db/text-match.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { LqaProfileSort } from './lqa-profiles.schemas.js';

export type LqaProfileRow = Selectable<LqaProfilesTable>;
type Db = Kysely<DB>;

const isNumericId = (value: string) => /^[1-9][0-9]{0,17}$/.test(value);

export function findLqaProfile(db: Db, organizationId: Id, uid: string): Promise<LqaProfileRow | undefined> {
  return db.selectFrom('lqaProfiles').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export function findDefaultLqaProfile(db: Db, organizationId: Id): Promise<LqaProfileRow | undefined> {
  return db
    .selectFrom('lqaProfiles')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('isDefault', '=', true)
    .executeTakeFirst();
}

export async function organizationUid(db: Db, organizationId: Id): Promise<string> {
  const row = await db.selectFrom('organizations').select('uid').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return row.uid;
}

export interface LqaProfileFilter {
  name?: string | undefined;
  /** The creator's id, resolved from the uid or id the caller gave (null: matches nothing). */
  createdById?: Id | null | undefined;
  /** Created in [from, to). */
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

export async function listLqaProfiles(
  db: Db,
  organizationId: Id,
  filter: LqaProfileFilter,
  sorts: readonly { key: LqaProfileSort; direction: 'asc' | 'desc' }[],
  page: PageRequest,
): Promise<{ rows: LqaProfileRow[]; total: number }> {
  let query = db
    .selectFrom('lqaProfiles as p')
    .leftJoin('users as u', 'u.id', 'p.createdById')
    .where('p.organizationId', '=', organizationId);
  if (filter.name) query = query.where(containsText('p.name', filter.name));
  if (filter.createdById === null) return { rows: [], total: 0 };
  if (filter.createdById !== undefined) query = query.where('p.createdById', '=', filter.createdById);
  if (filter.createdFrom !== undefined) query = query.where('p.createdAt', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) query = query.where('p.createdAt', '<', filter.createdTo);
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  let ordered = query.selectAll('p');
  for (const { key, direction } of sorts) {
    if (key === 'NAME') ordered = ordered.orderBy(sql`lower(p.name)`, direction);
    else if (key === 'DATE_CREATED') ordered = ordered.orderBy('p.createdAt', direction);
    else
      ordered = ordered
        .orderBy(sql`coalesce(lower(u.last_name), '')`, direction)
        .orderBy(sql`coalesce(lower(u.first_name), '')`, direction)
        .orderBy(sql`coalesce(u.id, 0)`, direction);
  }
  const rows = await ordered.orderBy('p.id').limit(limit).offset(offset).execute();
  return { rows, total: num(total) };
}

/** The id of the organization's user named by uid or numeric id, or null. */
export async function userIdOf(db: Db, organizationId: Id, key: string): Promise<Id | null> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where((eb) => eb.or([eb('uid', '=', key), ...(isNumericId(key) ? [eb('id', '=', key)] : [])]))
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The users who created the organization's profiles (those still in the organization), by last name, first name. */
export async function lqaProfileAuthorIds(db: Db, organizationId: Id, page?: PageRequest): Promise<{ ids: Id[]; total: number }> {
  const authors = db
    .selectFrom('users as u')
    .where('u.organizationId', '=', organizationId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('lqaProfiles as p')
          .select('p.id')
          .where('p.organizationId', '=', organizationId)
          .whereRef('p.createdById', '=', 'u.id'),
      ),
    );
  const { total } = await authors.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  let query = authors
    .select('u.id')
    .orderBy(sql`lower(u.last_name)`)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy('u.id');
  if (page) {
    const { offset, limit } = pageWindow(page);
    query = query.limit(limit).offset(offset);
  }
  const rows = await query.execute();
  return { ids: rows.map((r) => r.id), total: num(total) };
}

export function insertLqaProfile(db: Db, values: Omit<Insertable<LqaProfilesTable>, 'uid'>): Promise<LqaProfileRow> {
  return db
    .insertInto('lqaProfiles')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateLqaProfileRow(db: Db, id: Id, values: { name: string; definition: string }): Promise<LqaProfileRow> {
  return db.updateTable('lqaProfiles').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Makes `id` the organization's one default profile (the old default first, for the unique index). */
export async function setDefaultLqaProfile(db: Db, organizationId: Id, id: Id): Promise<LqaProfileRow> {
  await db
    .updateTable('lqaProfiles')
    .set({ isDefault: false })
    .where('organizationId', '=', organizationId)
    .where('isDefault', '=', true)
    .where('id', '!=', id)
    .execute();
  return db.updateTable('lqaProfiles').set({ isDefault: true }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteLqaProfileRow(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('lqaProfiles').where('id', '=', id).execute();
}

/** The uid a workflow step's settings JSON names as its LQA profile (`lqaProfile: {uid}`), or null. */
export function lqaProfileUidOf(settings: string | null | undefined): string | null {
  if (!settings) return null;
  try {
    const parsed = JSON.parse(settings) as { lqaProfile?: { uid?: unknown } | null } | null;
    const uid = parsed?.lqaProfile?.uid;
    return typeof uid === 'string' ? uid : null;
  } catch {
    return null;
  }
}

/**
 * How many projects (not in the recycle bin) and project templates of the organization name the
 * profile in one of their workflow steps' settings. The text match narrows the rows to those that
 * mention the uid; the JSON is then read to be sure it is the step's `lqaProfile`. The tables are
 * the translation workflow's, read here directly so that this module needs none of its modules.
 */
export async function lqaProfileAssignments(db: Db, organizationId: Id, uid: string): Promise<{ projects: number; templates: number }> {
  const projectSteps = await db
    .selectFrom('projectWorkflowSteps as s')
    .innerJoin('projects as p', 'p.id', 's.projectId')
    .select(['s.projectId as ownerId', 's.settings'])
    .where('p.organizationId', '=', organizationId)
    .where('p.deletedAt', 'is', null)
    .where(containsText('s.settings', uid))
    .execute();
  const templateSteps = await db
    .selectFrom('templateWorkflowSteps as s')
    .innerJoin('projectTemplates as t', 't.id', 's.templateId')
    .select(['s.templateId as ownerId', 's.settings'])
    .where('t.organizationId', '=', organizationId)
    .where(containsText('s.settings', uid))
    .execute();
  const owners = (rows: { ownerId: Id; settings: string }[]) =>
    new Set(rows.filter((r) => lqaProfileUidOf(r.settings) === uid).map((r) => r.ownerId)).size;
  return { projects: owners(projectSteps), templates: owners(templateSteps) };
}
