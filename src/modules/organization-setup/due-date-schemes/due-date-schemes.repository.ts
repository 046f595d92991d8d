import { sql } from 'kysely';
import type { Insertable, Selectable } from 'kysely';
import { bool, num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { Id } from '../../../db/schema.js';
import type { DueDateSchemeStepsTable, DueDateSchemesTable } from '../../../db/tables/workflow-steps.js';
import { containsText } from '../../../db/text-match.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type DueDateSchemeRow = Selectable<DueDateSchemesTable>;

export interface SchemeStep {
  dueDateSchemeId: string;
  workflowStep: { id: string; uid: string; name: string; order: number; lqaEnabled: boolean };
  offsetDays: number;
  offsetHours: number;
}

export function findDueDateScheme(db: Db, organizationId: string, uid: string): Promise<DueDateSchemeRow | undefined> {
  return db.selectFrom('dueDateSchemes').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export async function dueDateSchemeNameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('dueDateSchemes')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listDueDateSchemes(
  db: Db,
  organizationId: string,
  filter: { name?: string | undefined },
  page: PageRequest,
): Promise<{ rows: DueDateSchemeRow[]; total: number }> {
  let query = db.selectFrom('dueDateSchemes').where('organizationId', '=', organizationId);
  if (filter.name) query = query.where(containsText('name', filter.name));
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

/** The offsets of a page of schemes with their workflow steps, in one query, in workflow order. */
export async function schemeSteps(db: Db, schemeIds: readonly Id[]): Promise<SchemeStep[]> {
  if (schemeIds.length === 0) return [];
  const rows = await db
    .selectFrom('dueDateSchemeSteps as s')
    .innerJoin('workflowSteps as w', 'w.id', 's.workflowStepId')
    .select(['s.dueDateSchemeId', 's.offsetDays', 's.offsetHours', 'w.id', 'w.uid', 'w.name', 'w.orderIndex', 'w.lqaEnabled'])
    .where('s.dueDateSchemeId', 'in', schemeIds.map(String))
    .orderBy('w.orderIndex')
    .orderBy('w.id')
    .execute();
  return rows.map((r) => ({
    dueDateSchemeId: r.dueDateSchemeId,
    workflowStep: { id: r.id, uid: r.uid, name: r.name, order: r.orderIndex, lqaEnabled: bool(r.lqaEnabled) },
    offsetDays: r.offsetDays,
    offsetHours: r.offsetHours,
  }));
}

/** The ids of those of `uids` that are workflow steps of the organization, by uid. */
export async function workflowStepIdsByUid(db: Db, organizationId: string, uids: readonly string[]): Promise<Map<string, Id>> {
  const rows = await db
    .selectFrom('workflowSteps')
    .select(['id', 'uid'])
    .where('organizationId', '=', organizationId)
    .where('uid', 'in', uids)
    .execute();
  return new Map(rows.map((s) => [s.uid, s.id]));
}

export function insertDueDateScheme(db: Db, values: Omit<Insertable<DueDateSchemesTable>, 'uid'>): Promise<DueDateSchemeRow> {
  return db
    .insertInto('dueDateSchemes')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertSchemeSteps(db: Db, steps: Insertable<DueDateSchemeStepsTable>[]): Promise<void> {
  if (steps.length > 0) await db.insertInto('dueDateSchemeSteps').values(steps).execute();
}

/** Deletes the scheme; its offsets go with it (foreign keys cascade). */
export async function deleteDueDateSchemeRow(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('dueDateSchemes').where('id', '=', id).execute();
}
