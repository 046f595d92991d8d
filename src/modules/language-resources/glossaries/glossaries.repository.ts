import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DialectName } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { GlossariesTable, GlossaryEntriesTable } from '../../../db/tables/glossaries.js';
import { containsText } from '../../../db/text-match.js';
import type { PageRequest } from '../../../http/paging.js';
import { pageWindow } from '../../../http/paging.js';

/** Glossary records and entries (docs/terminology.md, "Glossaries (built)"). */

export type GlossaryRow = Selectable<GlossariesTable>;
export type GlossaryEntryRow = Selectable<GlossaryEntriesTable>;

export function langsOf(row: Pick<GlossaryRow, 'langs'>): string[] {
  try {
    const parsed = JSON.parse(row.langs) as unknown;
    return Array.isArray(parsed) ? parsed.filter((l): l is string => typeof l === 'string') : [];
  } catch {
    return [];
  }
}

/** The language pairs of a glossary: its first language (the source) with each of the others. */
export function languagePairs(langs: readonly string[]): { sourceLang: string; targetLang: string }[] {
  const [sourceLang, ...targets] = langs;
  return sourceLang === undefined ? [] : targets.map((targetLang) => ({ sourceLang, targetLang }));
}

/** Whether two glossaries' languages share a language pair (the same source language and a target language of both). */
export function sharesLanguagePair(a: readonly string[], b: readonly string[]): boolean {
  if (a.length < 2 || b.length < 2 || a[0] !== b[0]) return false;
  return a.slice(1).some((lang) => b.slice(1).includes(lang));
}

/** The key of an entry's source text (SHA-256, hex): texts of any length fit the unique index. */
export function sourceKeyOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A glossary of the organization, by uid; undefined otherwise (another organization's is simply not there). */
export function findGlossary(db: Kysely<DB>, organizationId: Id, uid: string): Promise<GlossaryRow | undefined> {
  return db.selectFrom('glossaries').selectAll().where('uid', '=', uid).where('organizationId', '=', organizationId).executeTakeFirst();
}

export interface GlossaryFilter {
  name?: string | undefined;
  /** Glossaries that have every one of these languages. */
  langs?: readonly string[] | undefined;
}

/** One page of the organization's glossaries, by name then id, with the total. */
export async function listGlossaryRows(
  db: Kysely<DB>,
  organizationId: Id,
  filter: GlossaryFilter,
  page: PageRequest,
): Promise<{ rows: GlossaryRow[]; total: number }> {
  let query = db.selectFrom('glossaries').where('glossaries.organizationId', '=', organizationId);
  if (filter.name) query = query.where(containsText('glossaries.name', filter.name));
  for (const lang of filter.langs ?? []) query = query.where(containsText('glossaries.langs', `"${lang}"`));
  const { count } = await query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query
    .selectAll('glossaries')
    .orderBy('glossaries.name')
    .orderBy('glossaries.id')
    .offset(offset)
    .limit(limit)
    .execute();
  return { rows, total: Number(count) };
}

export interface NewGlossary {
  organizationId: Id;
  name: string;
  langs: string[];
  ownerId: Id;
  createdById: Id;
  now: string;
}

export async function insertGlossary(trx: Kysely<DB>, record: NewGlossary): Promise<GlossaryRow> {
  const { lastGlossaryInternalId } = await trx
    .updateTable('organizations')
    .set((eb) => ({ lastGlossaryInternalId: eb('lastGlossaryInternalId', '+', 1) }))
    .where('id', '=', record.organizationId)
    .returning('lastGlossaryInternalId')
    .executeTakeFirstOrThrow();
  return trx
    .insertInto('glossaries')
    .values({
      uid: newUid(),
      organizationId: record.organizationId,
      internalId: lastGlossaryInternalId,
      name: record.name,
      langs: JSON.stringify(record.langs),
      active: false,
      createdAt: record.now,
      createdById: record.createdById,
      ownerId: record.ownerId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateGlossary(
  trx: Kysely<DB>,
  id: Id,
  changes: { name?: string; langs?: string[]; ownerId?: Id | null; active?: boolean },
): Promise<GlossaryRow> {
  const { langs, ...rest } = changes;
  return trx
    .updateTable('glossaries')
    .set({ ...rest, ...(langs ? { langs: JSON.stringify(langs) } : {}) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The organization's glossaries, re-read inside the caller's transaction; on PostgreSQL their rows
 * stay locked (in id order) until it ends, so that two activations or edits cannot both leave a
 * language pair with two active glossaries. SQLite runs one write transaction at a time anyway.
 */
export async function lockGlossaries(trx: Kysely<DB>, dialect: DialectName, organizationId: Id): Promise<GlossaryRow[]> {
  const query = trx.selectFrom('glossaries').selectAll().where('organizationId', '=', organizationId).orderBy('id');
  return (dialect === 'postgres' ? query.forUpdate() : query).execute();
}

/** One glossary, re-read inside the caller's transaction and (PostgreSQL) locked until it ends. */
export async function lockGlossary(trx: Kysely<DB>, dialect: DialectName, id: Id): Promise<GlossaryRow | undefined> {
  const query = trx.selectFrom('glossaries').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * Deactivates the active glossaries among `others` that share a language pair with `langs`
 * (never `keepId`); returns their ids.
 */
export async function deactivateOverlapping(trx: Kysely<DB>, others: readonly GlossaryRow[], langs: readonly string[], keepId: Id) {
  const ids = others
    .filter((row) => String(row.id) !== String(keepId) && bool(row.active) && sharesLanguagePair(langsOf(row), langs))
    .map((row) => row.id);
  if (ids.length) await trx.updateTable('glossaries').set({ active: false }).where('id', 'in', ids).execute();
  return ids;
}

export async function bumpGlossaryVersion(trx: Kysely<DB>, id: Id): Promise<void> {
  await trx
    .updateTable('glossaries')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Deletes a glossary (its entries follow by foreign key). */
export async function deleteGlossaryRow(trx: Kysely<DB>, id: Id): Promise<void> {
  await trx.deleteFrom('glossaries').where('id', '=', id).execute();
}

/** Removes every entry of a glossary; the number removed. */
export async function deleteGlossaryEntries(trx: Kysely<DB>, id: Id): Promise<number> {
  const result = await trx.deleteFrom('glossaryEntries').where('glossaryId', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The existing entries of a glossary among `sourceKeys`, in one language pair. */
export function findEntriesByKeys(
  trx: Kysely<DB>,
  glossaryId: Id,
  sourceLang: string,
  targetLang: string,
  sourceKeys: readonly string[],
): Promise<Pick<GlossaryEntryRow, 'id' | 'sourceKey' | 'targetText'>[]> {
  if (sourceKeys.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('glossaryEntries')
    .select(['id', 'sourceKey', 'targetText'])
    .where('glossaryId', '=', glossaryId)
    .where('sourceLang', '=', sourceLang)
    .where('targetLang', '=', targetLang)
    .where('sourceKey', 'in', [...sourceKeys])
    .execute();
}

export interface NewGlossaryEntry {
  sourceText: string;
  targetText: string;
}

/** Inserts entries of one language pair (the caller makes sure none exists yet). */
export async function insertEntries(
  trx: Kysely<DB>,
  glossaryId: Id,
  sourceLang: string,
  targetLang: string,
  entries: readonly NewGlossaryEntry[],
  now: string,
): Promise<void> {
  if (entries.length === 0) return;
  await trx
    .insertInto('glossaryEntries')
    .values(
      entries.map((entry) => ({
        glossaryId,
        sourceLang,
        targetLang,
        sourceText: entry.sourceText,
        sourceKey: sourceKeyOf(entry.sourceText),
        targetText: entry.targetText,
        createdAt: now,
        modifiedAt: now,
      })),
    )
    .execute();
}

export async function updateEntryTarget(trx: Kysely<DB>, id: Id, targetText: string, now: string): Promise<void> {
  await trx.updateTable('glossaryEntries').set({ targetText, modifiedAt: now }).where('id', '=', id).execute();
}

/**
 * One page of a glossary's entries of one source language, in the order of their source text
 * (then id), after `after` (keyset): equal source texts come together.
 */
export function entriesPage(
  db: Kysely<DB>,
  glossaryId: Id,
  sourceLang: string,
  after: { sourceText: string; id: Id } | null,
  limit: number,
): Promise<GlossaryEntryRow[]> {
  let query = db
    .selectFrom('glossaryEntries')
    .selectAll()
    .where('glossaryId', '=', glossaryId)
    .where('sourceLang', '=', sourceLang)
    .orderBy('sourceText')
    .orderBy('id')
    .limit(limit);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('sourceText', '>', after.sourceText), eb.and([eb('sourceText', '=', after.sourceText), eb('id', '>', after.id)])]),
    );
  }
  return query.execute();
}

/** The number of entries of each glossary of `ids`. */
export async function entryCounts(db: Kysely<DB>, ids: readonly Id[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('glossaryEntries')
    .select(['glossaryId', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('glossaryId', 'in', [...ids])
    .groupBy('glossaryId')
    .execute();
  return new Map(rows.map((row) => [String(row.glossaryId), Number(row.count)]));
}

/**
 * The entries machine translation applies for `sourceLang` → `targetLang` in the organization:
 * those of its active glossary of that language pair (at most one), as source → target texts.
 */
export async function activeGlossaryEntries(
  db: Kysely<DB>,
  organizationId: Id,
  sourceLang: string,
  targetLang: string,
): Promise<{ glossary: GlossaryRow; entries: { sourceText: string; targetText: string }[] } | null> {
  const active = await db
    .selectFrom('glossaries')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('active', '=', true)
    .where(containsText('glossaries.langs', `"${sourceLang}"`))
    .where(containsText('glossaries.langs', `"${targetLang}"`))
    .orderBy('id')
    .execute();
  const glossary = active.find((row) => {
    const langs = langsOf(row);
    return langs[0] === sourceLang && langs.slice(1).includes(targetLang);
  });
  if (!glossary) return null;
  const entries = await db
    .selectFrom('glossaryEntries')
    .select(['sourceText', 'targetText'])
    .where('glossaryId', '=', glossary.id)
    .where('sourceLang', '=', sourceLang)
    .where('targetLang', '=', targetLang)
    .orderBy('id')
    .execute();
  return { glossary, entries };
}
