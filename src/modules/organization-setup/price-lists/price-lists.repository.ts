import { sql } from 'kysely';
import type { Insertable, Selectable, SqlBool, Updateable } from 'kysely';
import { bool, num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { Id } from '../../../db/schema.js';
import type { PriceListsTable, PriceSetsTable } from '../../../db/tables/pricing.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type PriceListRow = Selectable<PriceListsTable>;
export type PriceSetRow = Selectable<PriceSetsTable>;

export interface WorkflowStepView {
  id: string;
  uid: string;
  name: string;
  abbr: string;
  order: number;
  lqaEnabled: boolean;
}

/** Which pairs of a list an operation means: languages on each side (absent or empty: any). */
export interface PairFilter {
  sourceLangs?: readonly string[] | undefined;
  targetLangs?: readonly string[] | undefined;
}

/** Rows per multi-row insert (well under the bound-parameter limits of SQLite and PostgreSQL). */
const INSERT_CHUNK = 1000;
/** Ids per `in (...)` list. */
const ID_CHUNK = 1000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** An id from the database, as an SQL literal (it is digits only, so nothing can be injected). */
const idLiteral = (id: Id) => sql.raw(BigInt(id).toString());

// ---------------------------------------------------------------------------------------------
// Price lists
// ---------------------------------------------------------------------------------------------

export function findPriceList(db: Db, organizationId: string, uid: string): Promise<PriceListRow | undefined> {
  return db.selectFrom('priceLists').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export async function priceListNameTaken(db: Db, organizationId: string, name: string, exceptId?: Id): Promise<boolean> {
  let query = db
    .selectFrom('priceLists')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The organization's names that start with `prefix`, ignoring case, lower-cased (to pick a free copy name). */
export async function priceListNamesStartingWith(db: Db, organizationId: string, prefix: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('priceLists')
    .select('name')
    .where('organizationId', '=', organizationId)
    .where(sql<boolean>`substr(lower(name), 1, ${prefix.length}) = ${prefix.toLowerCase()}`)
    .execute();
  return new Set(rows.map((r) => r.name.toLowerCase()));
}

export async function listPriceLists(db: Db, organizationId: string, page: PageRequest): Promise<{ rows: PriceListRow[]; total: number }> {
  const query = db.selectFrom('priceLists').where('organizationId', '=', organizationId);
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

export function insertPriceList(db: Db, values: Omit<Insertable<PriceListsTable>, 'uid'>): Promise<PriceListRow> {
  return db
    .insertInto('priceLists')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updatePriceList(db: Db, id: Id, changes: Updateable<PriceListsTable>): Promise<PriceListRow> {
  return db.updateTable('priceLists').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes the list; its price sets and prices go with it (foreign keys cascade). */
export async function deletePriceListRow(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('priceLists').where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------------
// Workflow steps (the organization's, read for prices and sheet columns)
// ---------------------------------------------------------------------------------------------

/** The organization's workflow steps in workflow order (the spec's `order`, then id). */
export async function organizationWorkflowSteps(db: Db, organizationId: string): Promise<WorkflowStepView[]> {
  const rows = await db
    .selectFrom('workflowSteps')
    .select(['id', 'uid', 'name', 'abbr', 'orderIndex', 'lqaEnabled'])
    .where('organizationId', '=', organizationId)
    .orderBy('orderIndex')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    uid: r.uid,
    name: r.name,
    abbr: r.abbr,
    order: r.orderIndex,
    lqaEnabled: bool(r.lqaEnabled),
  }));
}

// ---------------------------------------------------------------------------------------------
// Price sets and prices
// ---------------------------------------------------------------------------------------------

/** The condition of `filter` on the price sets table named `table` (`priceSets`, or an alias). */
function pairCondition(filter: PairFilter, table: string) {
  const parts = [];
  if (filter.sourceLangs && filter.sourceLangs.length > 0)
    parts.push(sql<SqlBool>`${sql.ref(`${table}.sourceLang`)} in (${sql.join([...filter.sourceLangs])})`);
  if (filter.targetLangs && filter.targetLangs.length > 0)
    parts.push(sql<SqlBool>`${sql.ref(`${table}.targetLang`)} in (${sql.join([...filter.targetLangs])})`);
  return parts.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

/** Price sets of a list matching `filter`, by source then target language; a page of them when `page` is given. */
export async function listPriceSets(
  db: Db,
  priceListId: Id,
  filter: PairFilter,
  page?: PageRequest,
): Promise<{ rows: PriceSetRow[]; total: number }> {
  const query = db.selectFrom('priceSets').where('priceSets.priceListId', '=', priceListId).where(pairCondition(filter, 'priceSets'));
  let rowsQuery = query.selectAll().orderBy('sourceLang').orderBy('targetLang').orderBy('id');
  if (!page) {
    const rows = await rowsQuery.execute();
    return { rows, total: rows.length };
  }
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  rowsQuery = rowsQuery.limit(limit).offset(offset);
  return { rows: await rowsQuery.execute(), total: num(total) };
}

export async function countPriceSets(db: Db, priceListId: Id): Promise<number> {
  const { total } = await db
    .selectFrom('priceSets')
    .where('priceListId', '=', priceListId)
    .select((eb) => eb.fn.countAll<string | number>().as('total'))
    .executeTakeFirstOrThrow();
  return num(total);
}

export function findPriceSet(db: Db, priceListId: Id, sourceLang: string, targetLang: string): Promise<PriceSetRow | undefined> {
  return db
    .selectFrom('priceSets')
    .selectAll()
    .where('priceListId', '=', priceListId)
    .where('sourceLang', '=', sourceLang)
    .where('targetLang', '=', targetLang)
    .executeTakeFirst();
}

/** The stored prices of the given sets (all sets of the list when `setIds` is omitted): set id -> step id -> decimal string. */
export async function pricesOf(db: Db, priceListId: Id, setIds?: readonly Id[]): Promise<Map<string, Map<string, string>>> {
  const result = new Map<string, Map<string, string>>();
  const add = (rows: { priceSetId: Id; workflowStepId: Id; price: string }[]) => {
    for (const row of rows) {
      const key = String(row.priceSetId);
      let prices = result.get(key);
      if (!prices) result.set(key, (prices = new Map()));
      prices.set(String(row.workflowStepId), row.price);
    }
  };
  const base = db
    .selectFrom('priceSetPrices as p')
    .innerJoin('priceSets as s', 's.id', 'p.priceSetId')
    .select(['p.priceSetId', 'p.workflowStepId', 'p.price'])
    .where('s.priceListId', '=', priceListId);
  if (setIds === undefined) add(await base.execute());
  else for (const part of chunks(setIds.map(String), ID_CHUNK)) add(await base.where('p.priceSetId', 'in', part).execute());
  return result;
}

/** Inserts price sets; answers them with their ids. */
export async function insertPriceSets(db: Db, sets: Insertable<PriceSetsTable>[]): Promise<PriceSetRow[]> {
  const inserted: PriceSetRow[] = [];
  for (const part of chunks(sets, INSERT_CHUNK)) {
    if (part.length) inserted.push(...(await db.insertInto('priceSets').values(part).returningAll().execute()));
  }
  return inserted;
}

export async function insertPrices(db: Db, rows: { priceSetId: Id; workflowStepId: Id; price: string }[]): Promise<void> {
  for (const part of chunks(rows, INSERT_CHUNK)) if (part.length) await db.insertInto('priceSetPrices').values(part).execute();
}

/** Deletes the sets (their prices cascade). */
export async function deletePriceSetsByIds(db: Db, ids: readonly Id[]): Promise<void> {
  for (const part of chunks(ids.map(String), ID_CHUNK)) await db.deleteFrom('priceSets').where('id', 'in', part).execute();
}

/** Deletes the list's sets matching `filter`; answers how many went. */
export async function deletePriceSets(db: Db, priceListId: Id, filter: PairFilter): Promise<number> {
  const result = await db
    .deleteFrom('priceSets')
    .where('priceSets.priceListId', '=', priceListId)
    .where(pairCondition(filter, 'priceSets'))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function setMinimumPrices(db: Db, priceListId: Id, filter: PairFilter, minimumPrice: string): Promise<void> {
  await db
    .updateTable('priceSets')
    .set({ minimumPrice })
    .where('priceSets.priceListId', '=', priceListId)
    .where(pairCondition(filter, 'priceSets'))
    .execute();
}

/** Sets the price of `stepIds` in every set of the list matching `filter` (replacing what was there). */
export async function setPrices(db: Db, priceListId: Id, filter: PairFilter, stepIds: readonly Id[], price: string): Promise<void> {
  if (stepIds.length === 0) return;
  const steps = stepIds.map(String);
  const matching = db
    .selectFrom('priceSets as s')
    .select('s.id')
    .where('s.priceListId', '=', priceListId)
    .where(pairCondition(filter, 's'));
  await db.deleteFrom('priceSetPrices').where('workflowStepId', 'in', steps).where('priceSetId', 'in', matching).execute();
  await db
    .insertInto('priceSetPrices')
    .columns(['priceSetId', 'workflowStepId', 'price'])
    .expression(
      db
        .selectFrom('priceSets as s')
        .innerJoin('workflowSteps as w', (join) => join.onTrue())
        .select(['s.id', 'w.id', sql<string>`cast(${price} as varchar(40))`.as('price')])
        .where('s.priceListId', '=', priceListId)
        .where(pairCondition(filter, 's'))
        .where('w.id', 'in', steps),
    )
    .execute();
}

/** Gives every set of the list that has no prices yet the price 0 for each of the organization's workflow steps. */
export async function zeroPricesForNewSets(db: Db, priceListId: Id, organizationId: string): Promise<void> {
  await db
    .insertInto('priceSetPrices')
    .columns(['priceSetId', 'workflowStepId', 'price'])
    .expression(
      db
        .selectFrom('priceSets as s')
        .innerJoin('workflowSteps as w', (join) => join.onTrue())
        .select(['s.id', 'w.id', sql<string>`'0'`.as('price')])
        .where('s.priceListId', '=', priceListId)
        .where('w.organizationId', '=', organizationId)
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('priceSetPrices as p').select('p.priceSetId').whereRef('p.priceSetId', '=', 's.id'))),
        ),
    )
    .execute();
}

/** Copies every set and price of one list into another (empty) list. */
export async function copyPriceSets(db: Db, fromListId: Id, toListId: Id): Promise<void> {
  await db
    .insertInto('priceSets')
    .columns(['priceListId', 'sourceLang', 'targetLang', 'minimumPrice'])
    .expression(
      db
        .selectFrom('priceSets')
        .select([sql<Id>`${idLiteral(toListId)}`.as('priceListId'), 'sourceLang', 'targetLang', 'minimumPrice'])
        .where('priceListId', '=', fromListId),
    )
    .execute();
  await db
    .insertInto('priceSetPrices')
    .columns(['priceSetId', 'workflowStepId', 'price'])
    .expression(
      db
        .selectFrom('priceSetPrices as p')
        .innerJoin('priceSets as o', 'o.id', 'p.priceSetId')
        .innerJoin('priceSets as n', (join) =>
          join.onRef('n.sourceLang', '=', 'o.sourceLang').onRef('n.targetLang', '=', 'o.targetLang').on('n.priceListId', '=', toListId),
        )
        .select(['n.id', 'p.workflowStepId', 'p.price'])
        .where('o.priceListId', '=', fromListId),
    )
    .execute();
}
