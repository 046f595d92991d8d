import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import { bool, num } from '../../../db/database.js';
import type { Id } from '../../../db/schema.js';
import type { DueDateSchemesTable } from '../../../db/tables/workflow-steps.js';
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
