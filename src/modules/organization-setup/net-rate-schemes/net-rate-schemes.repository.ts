import { sql } from 'kysely';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { bool, num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import { NUMERIC_ID } from '../../../db/record-ids.js';
import type { Id } from '../../../db/schema.js';
import type { NetRateSchemeStepsTable, NetRateSchemesTable } from '../../../db/tables/pricing.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type NetRateSchemeRow = Selectable<NetRateSchemesTable>;

export interface WorkflowStepRef {
  id: string;
  uid: string;
  name: string;
  order: number;
  lqaEnabled: boolean;
}

/** A workflow step scheme with its workflow step. */
export interface StepSchemeRow {
  id: string;
  netRateSchemeId: string;
  workflowStep: WorkflowStepRef;
  /** JSON, as the `rates` column stores it. */
  rates: string;
}

/** The organization's scheme named by its uid, or by its numeric id as older clients send it. */
export function findNetRateScheme(db: Db, organizationId: string, key: string): Promise<NetRateSchemeRow | undefined> {
  return db
    .selectFrom('netRateSchemes')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where((eb) => (NUMERIC_ID.test(key) ? eb.or([eb('uid', '=', key), eb('id', '=', key)]) : eb('uid', '=', key)))
    .executeTakeFirst();
}

/** Whether another scheme of the organization (not `exceptId`) has `name`, ignoring case. */
export async function netRateSchemeNameTaken(db: Db, organizationId: string, name: string, exceptId?: Id): Promise<boolean> {
  const row = await db
    .selectFrom('netRateSchemes')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .executeTakeFirst();
  return row !== undefined;
}

export async function listNetRateSchemes(
  db: Db,
  organizationId: string,
  page: PageRequest,
): Promise<{ rows: NetRateSchemeRow[]; total: number }> {
  const query = db.selectFrom('netRateSchemes').where('organizationId', '=', organizationId);
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

export function insertNetRateScheme(db: Db, values: Omit<Insertable<NetRateSchemesTable>, 'uid'>): Promise<NetRateSchemeRow> {
  return db
    .insertInto('netRateSchemes')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateNetRateSchemeRow(db: Db, id: Id, values: Updateable<NetRateSchemesTable>): Promise<NetRateSchemeRow> {
  return db.updateTable('netRateSchemes').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes the scheme; its workflow step schemes go with it (foreign keys cascade). */
export async function deleteNetRateSchemeRow(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('netRateSchemes').where('id', '=', id).execute();
}

/** The workflow steps of the organization among `ids`, by id (ids that are not numbers find nothing). */
export async function workflowStepsByIds(db: Db, organizationId: string, ids: readonly string[]): Promise<Map<string, WorkflowStepRef>> {
  const numeric = ids.filter((id) => NUMERIC_ID.test(id));
  if (numeric.length === 0) return new Map();
  const rows = await db
    .selectFrom('workflowSteps')
    .select(['id', 'uid', 'name', 'orderIndex', 'lqaEnabled'])
    .where('organizationId', '=', organizationId)
    .where('id', 'in', numeric)
    .execute();
  return new Map(
    rows.map((r) => [String(r.id), { id: String(r.id), uid: r.uid, name: r.name, order: r.orderIndex, lqaEnabled: bool(r.lqaEnabled) }]),
  );
}

function stepSchemesQuery(db: Db) {
  return db
    .selectFrom('netRateSchemeSteps as s')
    .innerJoin('workflowSteps as w', 'w.id', 's.workflowStepId')
    .select(['s.id', 's.netRateSchemeId', 's.rates', 'w.id as stepId', 'w.uid', 'w.name', 'w.orderIndex', 'w.lqaEnabled']);
}

type StepSchemeQueryRow = {
  id: Id;
  netRateSchemeId: Id;
  rates: string;
  stepId: Id;
  uid: string;
  name: string;
  orderIndex: number;
  lqaEnabled: unknown;
};

const toStepScheme = (r: StepSchemeQueryRow): StepSchemeRow => ({
  id: String(r.id),
  netRateSchemeId: String(r.netRateSchemeId),
  rates: r.rates,
  workflowStep: { id: String(r.stepId), uid: r.uid, name: r.name, order: r.orderIndex, lqaEnabled: bool(r.lqaEnabled as boolean) },
});

/** The workflow step schemes of some schemes, in one query, in workflow order. */
export async function stepSchemesOf(db: Db, schemeIds: readonly Id[]): Promise<StepSchemeRow[]> {
  if (schemeIds.length === 0) return [];
  const rows = await stepSchemesQuery(db)
    .where('s.netRateSchemeId', 'in', schemeIds.map(String))
    .orderBy('w.orderIndex')
    .orderBy('w.id')
    .execute();
  return rows.map(toStepScheme);
}

/** One page of a scheme's workflow step schemes, in workflow order. */
export async function listStepSchemes(db: Db, schemeId: Id, page: PageRequest): Promise<{ rows: StepSchemeRow[]; total: number }> {
  const { total } = await db
    .selectFrom('netRateSchemeSteps')
    .where('netRateSchemeId', '=', schemeId)
    .select((eb) => eb.fn.countAll<string | number>().as('total'))
    .executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await stepSchemesQuery(db)
    .where('s.netRateSchemeId', '=', schemeId)
    .orderBy('w.orderIndex')
    .orderBy('w.id')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows: rows.map(toStepScheme), total: num(total) };
}

/** The workflow step scheme `id` of the scheme, or undefined. */
export async function findStepScheme(db: Db, schemeId: Id, id: string): Promise<StepSchemeRow | undefined> {
  const row = await stepSchemesQuery(db).where('s.netRateSchemeId', '=', schemeId).where('s.id', '=', id).executeTakeFirst();
  return row && toStepScheme(row);
}

export async function insertStepSchemes(db: Db, rows: Insertable<NetRateSchemeStepsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('netRateSchemeSteps').values(rows).execute();
}

export async function updateStepSchemeRates(db: Db, id: Id, rates: string): Promise<void> {
  await db.updateTable('netRateSchemeSteps').set({ rates }).where('id', '=', id).execute();
}

/** Deletes the scheme's workflow step schemes of the given ids. */
export async function deleteStepSchemes(db: Db, schemeId: Id, ids: readonly Id[]): Promise<void> {
  if (ids.length > 0)
    await db.deleteFrom('netRateSchemeSteps').where('netRateSchemeId', '=', schemeId).where('id', 'in', ids.map(String)).execute();
}
