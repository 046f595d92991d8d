import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import type { TbConceptsTable, TbTermsTable } from '../../../db/tables/term-bases.js';
import type { PageRequest } from '../../../http/paging.js';
import { pageWindow } from '../../../http/paging.js';

/**
 * Concepts and terms of term bases (docs/terminology.md, "Records"). Every write transaction on a
 * term base's content moves the term base's `version` (bumpTermBaseVersion), so that a process's
 * term recognizer built from an older version knows it is stale.
 */

export type ConceptRow = Selectable<TbConceptsTable>;
export type TermRow = Selectable<TbTermsTable>;
export type NewConcept = Omit<Insertable<TbConceptsTable>, 'id'>;
export type NewTerm = Omit<Insertable<TbTermsTable>, 'id' | 'textKey'>;

/** The indexed key of a term's text: lower case, at most 200 characters (the column's width). */
export function termTextKey(text: string): string {
  return text.toLowerCase().slice(0, 200);
}

export async function bumpTermBaseVersion(trx: Kysely<DB>, termBaseId: Id): Promise<void> {
  await trx
    .updateTable('termBases')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', termBaseId)
    .execute();
}

export async function insertConcept(trx: Kysely<DB>, concept: NewConcept): Promise<ConceptRow> {
  return trx.insertInto('tbConcepts').values(concept).returningAll().executeTakeFirstOrThrow();
}

export async function findConcept(db: Kysely<DB>, termBaseId: Id, conceptId: string): Promise<ConceptRow | undefined> {
  if (!/^\d{1,18}$/.test(conceptId)) return undefined;
  return db.selectFrom('tbConcepts').selectAll().where('termBaseId', '=', termBaseId).where('id', '=', conceptId).executeTakeFirst();
}

export async function findConcepts(db: Kysely<DB>, termBaseId: Id, conceptIds: readonly string[]): Promise<ConceptRow[]> {
  const ids = [...new Set(conceptIds.filter((id) => /^\d{1,18}$/.test(id)))];
  if (ids.length === 0) return [];
  const rows: ConceptRow[] = [];
  for (let at = 0; at < ids.length; at += 500) {
    rows.push(
      ...(await db
        .selectFrom('tbConcepts')
        .selectAll()
        .where('termBaseId', '=', termBaseId)
        .where('id', 'in', ids.slice(at, at + 500))
        .execute()),
    );
  }
  return rows;
}

export async function updateConcept(trx: Kysely<DB>, id: Id, changes: Partial<NewConcept>): Promise<ConceptRow> {
  return trx.updateTable('tbConcepts').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes concepts of one term base (their terms follow by foreign key). */
export async function deleteConceptRows(trx: Kysely<DB>, termBaseId: Id, ids: readonly Id[]): Promise<void> {
  for (let at = 0; at < ids.length; at += 500) {
    await trx
      .deleteFrom('tbConcepts')
      .where('termBaseId', '=', termBaseId)
      .where('id', 'in', ids.slice(at, at + 500))
      .execute();
  }
}

/** Deletes every concept and term of a term base. */
export async function clearTermBaseContent(trx: Kysely<DB>, termBaseId: Id): Promise<void> {
  await trx.deleteFrom('tbTerms').where('termBaseId', '=', termBaseId).execute();
  await trx.deleteFrom('tbConcepts').where('termBaseId', '=', termBaseId).execute();
}

/** One page of a term base's concepts, oldest first, with the total. */
export async function listConceptRows(db: Kysely<DB>, termBaseId: Id, page: PageRequest): Promise<{ rows: ConceptRow[]; total: number }> {
  const { count } = await db
    .selectFrom('tbConcepts')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('termBaseId', '=', termBaseId)
    .executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await db
    .selectFrom('tbConcepts')
    .selectAll()
    .where('termBaseId', '=', termBaseId)
    .orderBy('id')
    .offset(offset)
    .limit(limit)
    .execute();
  return { rows, total: Number(count) };
}

export async function insertTerm(trx: Kysely<DB>, term: NewTerm): Promise<TermRow> {
  return trx
    .insertInto('tbTerms')
    .values({ ...term, textKey: termTextKey(term.text) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findTerm(db: Kysely<DB>, termBaseId: Id, termId: string): Promise<TermRow | undefined> {
  if (!/^\d{1,18}$/.test(termId)) return undefined;
  return db.selectFrom('tbTerms').selectAll().where('termBaseId', '=', termBaseId).where('id', '=', termId).executeTakeFirst();
}

export async function updateTermRow(trx: Kysely<DB>, id: Id, changes: Partial<NewTerm>): Promise<TermRow> {
  const set = changes.text === undefined ? changes : { ...changes, textKey: termTextKey(changes.text) };
  return trx.updateTable('tbTerms').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Deletes one term; when it was its concept's last, the concept goes too (a concept never stands
 * empty). Returns whether the concept was deleted.
 */
export async function deleteTermRow(trx: Kysely<DB>, term: Pick<TermRow, 'id' | 'conceptId' | 'termBaseId'>): Promise<boolean> {
  await trx.deleteFrom('tbTerms').where('id', '=', term.id).execute();
  const left = await trx.selectFrom('tbTerms').select('id').where('conceptId', '=', term.conceptId).limit(1).executeTakeFirst();
  if (left) return false;
  await deleteConceptRows(trx, term.termBaseId, [term.conceptId]);
  return true;
}

/** The terms of the given concepts, by concept, language and id. */
export async function termsOfConcepts(db: Kysely<DB>, conceptIds: readonly Id[]): Promise<TermRow[]> {
  const rows: TermRow[] = [];
  const ids = [...new Set(conceptIds.map(String))];
  for (let at = 0; at < ids.length; at += 500) {
    rows.push(
      ...(await db
        .selectFrom('tbTerms')
        .selectAll()
        .where('conceptId', 'in', ids.slice(at, at + 500))
        .orderBy('conceptId')
        .orderBy('lang')
        .orderBy('id')
        .execute()),
    );
  }
  return rows;
}

/** How many terms the term base holds in each language. */
export async function termCountsByLanguage(db: Kysely<DB>, termBaseId: Id): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('tbTerms')
    .select(['lang', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('termBaseId', '=', termBaseId)
    .groupBy('lang')
    .execute();
  return new Map(rows.map((row) => [row.lang, Number(row.count)]));
}

/** Whether the term base holds any term at all. */
export async function hasTerms(db: Kysely<DB>, termBaseId: Id): Promise<boolean> {
  return (await db.selectFrom('tbTerms').select('id').where('termBaseId', '=', termBaseId).limit(1).executeTakeFirst()) !== undefined;
}

/** Whether a project or a template uses the term base. */
export async function isAssigned(db: Kysely<DB>, termBaseId: Id): Promise<boolean> {
  const project = await db.selectFrom('projectTermBases').select('id').where('termBaseId', '=', termBaseId).limit(1).executeTakeFirst();
  if (project) return true;
  const template = await db.selectFrom('templateTermBases').select('id').where('termBaseId', '=', termBaseId).limit(1).executeTakeFirst();
  return template !== undefined;
}
