import { sql } from 'kysely';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { num } from '../../../db/database.js';
import type { DialectName } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { Id } from '../../../db/schema.js';
import type { AdditionalWorkflowStepsTable, WorkflowStepsTable } from '../../../db/tables/workflow-steps.js';
import { containsText } from '../../../db/text-match.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type WorkflowStepRow = Selectable<WorkflowStepsTable>;
export type AdditionalWorkflowStepRow = Selectable<AdditionalWorkflowStepsTable>;

export function findWorkflowStep(db: Db, organizationId: string, uid: string): Promise<WorkflowStepRow | undefined> {
  return db.selectFrom('workflowSteps').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export interface WorkflowStepFilter {
  name?: string | undefined;
  abbr?: string | undefined;
  sort: 'ID' | 'NAME' | 'ORDER' | 'ABBR';
  order: 'ASC' | 'DESC';
}

export async function listWorkflowSteps(
  db: Db,
  organizationId: string,
  filter: WorkflowStepFilter,
  page: PageRequest,
): Promise<{ rows: WorkflowStepRow[]; total: number }> {
  let query = db.selectFrom('workflowSteps').where('organizationId', '=', organizationId);
  if (filter.name) query = query.where(containsText('name', filter.name));
  if (filter.abbr) query = query.where(sql<boolean>`lower(abbr) = ${filter.abbr.trim().toLowerCase()}`);
  const direction = filter.order === 'DESC' ? 'desc' : 'asc';
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  let rows = query.selectAll();
  if (filter.sort === 'NAME') rows = rows.orderBy(sql`lower(name)`, direction);
  if (filter.sort === 'ABBR') rows = rows.orderBy(sql`lower(abbr)`, direction);
  if (filter.sort === 'ORDER') rows = rows.orderBy('orderIndex', direction);
  // The id decides ties (and is the order of ID).
  const { offset, limit } = pageWindow(page);
  return { rows: await rows.orderBy('id', direction).limit(limit).offset(offset).execute(), total: num(total) };
}

/** Which of `name`/`abbr` another step of the organization already has (ignoring case). */
export async function takenFields(
  db: Db,
  organizationId: string,
  fields: { name?: string | undefined; abbr?: string | undefined },
  exceptId?: Id,
): Promise<{ name: boolean; abbr: boolean }> {
  const clash = async (column: 'name' | 'abbr', value: string | undefined) => {
    if (value === undefined) return false;
    let query = db
      .selectFrom('workflowSteps')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where(sql<boolean>`lower(${sql.ref(column)}) = ${value.toLowerCase()}`);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  };
  return { name: await clash('name', fields.name), abbr: await clash('abbr', fields.abbr) };
}

/**
 * The ids and orders of the organization's steps; on PostgreSQL the rows stay locked until the
 * transaction ends, so that two deletes cannot both leave the organization without steps.
 */
export async function lockWorkflowSteps(db: Db, dialect: DialectName, organizationId: string): Promise<{ id: Id; orderIndex: number }[]> {
  const query = db.selectFrom('workflowSteps').select(['id', 'orderIndex']).where('organizationId', '=', organizationId);
  return (dialect === 'postgres' ? query.forUpdate() : query).execute();
}

export function findAdditionalWorkflowStep(db: Db, organizationId: string, uid: string): Promise<AdditionalWorkflowStepRow | undefined> {
  return db
    .selectFrom('additionalWorkflowSteps')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('uid', '=', uid)
    .executeTakeFirst();
}

export async function additionalNameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('additionalWorkflowSteps')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listAdditionalWorkflowSteps(
  db: Db,
  organizationId: string,
  filter: { name?: string | undefined },
  page: PageRequest,
): Promise<{ rows: AdditionalWorkflowStepRow[]; total: number }> {
  let query = db.selectFrom('additionalWorkflowSteps').where('organizationId', '=', organizationId);
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

export function insertWorkflowStep(db: Db, values: Omit<Insertable<WorkflowStepsTable>, 'uid'>): Promise<WorkflowStepRow> {
  return db
    .insertInto('workflowSteps')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateWorkflowStep(db: Db, id: Id, changes: Updateable<WorkflowStepsTable>): Promise<WorkflowStepRow> {
  return db.updateTable('workflowSteps').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes the step; a project or project template that still uses it makes this fail (foreign key). */
export async function deleteWorkflowStepRow(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('workflowSteps').where('id', '=', id).execute();
}

export function insertAdditionalWorkflowStep(
  db: Db,
  values: Omit<Insertable<AdditionalWorkflowStepsTable>, 'uid'>,
): Promise<AdditionalWorkflowStepRow> {
  return db
    .insertInto('additionalWorkflowSteps')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteAdditionalWorkflowStepRow(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('additionalWorkflowSteps').where('id', '=', id).execute();
}
