import { hash } from 'node:crypto';
import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import { num } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import type { TmUnitsTable } from '../../../db/tables/translation-memories.js';
import { containsText } from '../../../db/text-match.js';

/**
 * Units of translation memories (docs/translation-memory.md, "Records"): one row per source and
 * translation in one target language. Every write transaction takes the TM's next `version`
 * (`bumpVersion`, which locks the TM row on PostgreSQL) and stamps the rows it writes with it, so
 * the in-process indexes catch up by reading `version > theirs` (tm-index/). Deletions are
 * tombstones for the same reason; clearing a TM bumps `reset_version` instead and deletes rows.
 */

export type TmUnitRow = Selectable<TmUnitsTable>;

/**
 * The identity of a source or a target within a TM: the first 15 bytes (120 bits) of the SHA-1 of
 * the text as stored, in base64url (20 characters; the migration 2026-11-25T0900 explains why).
 */
export function textHash(text: string): string {
  // The first 20 characters of the base64url of the whole digest encode exactly its first 15 bytes.
  return hash('sha1', text, 'base64url').slice(0, 20);
}

/** What a writer gives for one unit; the repository adds the hashes, stamps and version. */
export interface NewTmUnit {
  targetLang: string;
  source: string;
  target: string;
  sourceTags?: string | null;
  targetTags?: string | null;
  previousSource?: string | null;
  nextSource?: string | null;
  contextKey?: string | null;
  targetNote?: string | null;
  createdAt?: string | null;
  createdById?: Id | null;
  modifiedAt?: string | null;
  modifiedById?: Id | null;
  projectId?: Id | null;
  jobUid?: string | null;
  filename?: string | null;
}

/**
 * Takes the TM's next version for a write transaction: the row update locks the TM row on
 * PostgreSQL until the transaction ends, so concurrent writers of one TM commit their versions in
 * order and a reader that sees version v sees every row written with a version ≤ v.
 */
export async function bumpVersion(trx: Kysely<DB>, tmId: Id): Promise<number> {
  const row = await trx
    .updateTable('transMemories')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', tmId)
    .returning('version')
    .executeTakeFirstOrThrow();
  return num(row.version);
}

/** Values per `in (…)` list: far below what either database binds in one statement. */
const ROWS_PER_STATEMENT = 1000;

/**
 * The columns an upsert gives per unit, besides `tm_id`, `version` and `deleted` (the same for
 * every row of a write).
 */
const UNIT_COLUMNS = [
  'target_lang',
  'source_hash',
  'target_hash',
  'source',
  'target',
  'source_tags',
  'target_tags',
  'previous_source',
  'next_source',
  'context_key',
  'target_note',
  'created_at',
  'created_by_id',
  'modified_at',
  'modified_by_id',
  'project_id',
  'job_uid',
  'filename',
] as const;

/** PostgreSQL's element type of each column's array (the upsert unnests one array per column). */
const POSTGRES_TYPES: Record<(typeof UNIT_COLUMNS)[number], string> = {
  target_lang: 'varchar',
  source_hash: 'varchar',
  target_hash: 'varchar',
  source: 'text',
  target: 'text',
  source_tags: 'text',
  target_tags: 'text',
  previous_source: 'text',
  next_source: 'text',
  context_key: 'text',
  target_note: 'text',
  created_at: 'varchar',
  created_by_id: 'bigint',
  modified_at: 'varchar',
  modified_by_id: 'bigint',
  project_id: 'bigint',
  job_uid: 'varchar',
  filename: 'text',
};

/** What the same source and target again changes: the context, stamps and origin; a tombstone revives. */
function onConflictClause(postgres: boolean): string {
  const updated = [
    'source_tags',
    'target_tags',
    'previous_source',
    'next_source',
    'context_key',
    'target_note',
    'modified_at',
    'modified_by_id',
    'project_id',
    'job_uid',
    'filename',
    'version',
    'deleted',
  ].map((column) => `${column} = excluded.${column}`);
  // A revived tombstone is new again.
  const wasDeleted = postgres ? 'tm_units.deleted' : 'tm_units.deleted = 1';
  updated.push(`created_at = case when ${wasDeleted} then excluded.created_at else tm_units.created_at end`);
  return `on conflict (tm_id, source_hash, target_lang, target_hash) do update set ${updated.join(', ')}`;
}

const INSERTED_COLUMNS = `tm_id, version, deleted, ${UNIT_COLUMNS.join(', ')}`;

/**
 * PostgreSQL: one statement for any number of rows, one array parameter per column (`unnest`), so
 * the statement text, its parse and plan are the same for every batch.
 */
const POSTGRES_UPSERT = `insert into tm_units (${INSERTED_COLUMNS}) select $1::bigint, $2::bigint, false, u.* from unnest(${UNIT_COLUMNS.map(
  (column, i) => `$${i + 3}::${POSTGRES_TYPES[column]}[]`,
).join(', ')}) as u ${onConflictClause(true)}`;

/**
 * SQLite: multi-row VALUES statements of a few fixed sizes (a batch is cut greedily into them), so
 * that the prepared-statement cache holds at most four texts (20 parameters a row; SQLite binds at
 * most 32,766 per statement).
 */
const SQLITE_CHUNK_SIZES = [250, 50, 10, 1];
const sqliteUpserts = new Map<number, string>();

function sqliteUpsert(rows: number): string {
  let text = sqliteUpserts.get(rows);
  if (text === undefined) {
    const row = `(?, ?, 0, ${UNIT_COLUMNS.map(() => '?').join(', ')})`;
    text = `insert into tm_units (${INSERTED_COLUMNS}) values ${Array.from({ length: rows }, () => row).join(', ')} ${onConflictClause(false)}`;
    sqliteUpserts.set(rows, text);
  }
  return text;
}

type UnitValues = [string, string, string, string, string, ...Array<string | Id | null>];

/**
 * Inserts or updates units (the unique key `(tm, source, target language, target)`): the same
 * source and target again updates the unit's context, stamps and origin; a tombstone comes back
 * to life. Runs in the caller's transaction, whose version it stamps.
 *
 * It is the import's hot path (docs/translation-memory.md, "Import throughput"): the statements are
 * written out once as SQL text rather than built per batch by the query builder.
 */
export async function upsertUnits(trx: Kysely<DB>, tmId: Id, version: number, units: readonly NewTmUnit[], now: string): Promise<void> {
  // One row per key within a statement: PostgreSQL refuses to update one row twice in a statement.
  const byKey = new Map<string, UnitValues>();
  for (const u of units) {
    const sourceHash = textHash(u.source);
    const targetHash = textHash(u.target);
    const createdAt = u.createdAt ?? now;
    const createdById = u.createdById ?? null;
    byKey.set(`${sourceHash}\u0000${u.targetLang}\u0000${targetHash}`, [
      u.targetLang,
      sourceHash,
      targetHash,
      u.source,
      u.target,
      u.sourceTags ?? null,
      u.targetTags ?? null,
      u.previousSource ?? null,
      u.nextSource ?? null,
      u.contextKey ?? null,
      u.targetNote ?? null,
      createdAt,
      createdById,
      u.modifiedAt ?? createdAt,
      u.modifiedById ?? createdById,
      u.projectId ?? null,
      u.jobUid ?? null,
      u.filename ?? null,
    ]);
  }
  // In key order: consecutive rows land in neighbouring pages of the unique index.
  const rows = [...byKey.keys()].sort().map((key) => byKey.get(key)!);
  if (rows.length === 0) return;
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    const columns = UNIT_COLUMNS.map((_, c) => rows.map((row) => row[c] ?? null));
    await trx.executeQuery(CompiledQuery.raw(POSTGRES_UPSERT, [tmId, version, ...columns]));
    return;
  }
  let at = 0;
  for (const size of SQLITE_CHUNK_SIZES) {
    for (; rows.length - at >= size; at += size) {
      const parameters: unknown[] = [];
      for (let r = at; r < at + size; r++) parameters.push(tmId, version, ...rows[r]!);
      await trx.executeQuery(CompiledQuery.raw(sqliteUpsert(size), parameters));
    }
  }
}

/** Writes units into one TM in the caller's transaction (a new version; searchable in every process once committed). */
export async function writeUnits(trx: Kysely<DB>, tmId: Id, units: readonly NewTmUnit[], now: string): Promise<void> {
  if (units.length === 0) return;
  const version = await bumpVersion(trx, tmId);
  await upsertUnits(trx, tmId, version, units, now);
}

/** Marks the live units of one source (and one target language, when given) deleted. */
export async function deleteSourceUnits(
  trx: Kysely<DB>,
  tmId: Id,
  version: number,
  sourceHash: string,
  targetLang: string | null,
): Promise<number> {
  const result = await trx
    .updateTable('tmUnits')
    .set({ deleted: true, version })
    .where('tmId', '=', tmId)
    .where('sourceHash', '=', sourceHash)
    .where('deleted', '=', false)
    .$if(targetLang !== null, (q) => q.where('targetLang', '=', targetLang!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes every unit of a TM, and makes every index of it start over (`reset_version`). */
export async function clearUnits(trx: Kysely<DB>, tmId: Id): Promise<void> {
  const version = await bumpVersion(trx, tmId);
  await trx.updateTable('transMemories').set({ resetVersion: version }).where('id', '=', tmId).execute();
  await trx.deleteFrom('tmUnits').where('tmId', '=', tmId).execute();
}

/** The live units of the given sources, in the given target languages (all when null). */
export async function unitsOfSources(
  db: Kysely<DB>,
  tmId: Id,
  sourceHashes: readonly string[],
  targetLangs: readonly string[] | null,
): Promise<TmUnitRow[]> {
  if (sourceHashes.length === 0) return [];
  return liveUnitsOfSources(db, tmId, sourceHashes, targetLangs).selectAll().orderBy('id').execute();
}

/** The live units of these sources (in these languages, when given), to select from. */
function liveUnitsOfSources(db: Kysely<DB>, tmId: Id, sourceHashes: readonly string[], targetLangs: readonly string[] | null) {
  return db
    .selectFrom('tmUnits')
    .where('tmId', '=', tmId)
    .where('sourceHash', 'in', [...sourceHashes])
    .where('deleted', '=', false)
    .$if(targetLangs !== null, (q) => q.where('targetLang', 'in', targetLangs!.length ? [...targetLangs!] : ['']));
}

/** What decides a 101: the context of each live unit of these sources in these languages. */
export type UnitContext = Pick<TmUnitRow, 'sourceHash' | 'contextKey' | 'previousSource' | 'nextSource'>;

/** The contexts of the live units of these sources (the 101 check of analyses: no texts, no metadata). */
export async function contextsOfSources(
  db: Kysely<DB>,
  tmId: Id,
  sourceHashes: readonly string[],
  targetLangs: readonly string[],
): Promise<UnitContext[]> {
  if (sourceHashes.length === 0) return [];
  return liveUnitsOfSources(db, tmId, sourceHashes, targetLangs)
    .select(['sourceHash', 'contextKey', 'previousSource', 'nextSource'])
    .execute();
}

/** Whether the TM has a live unit of this source (in this language, when given). */
export async function hasSource(db: Kysely<DB>, tmId: Id, sourceHash: string, targetLang: string | null): Promise<boolean> {
  const row = await db
    .selectFrom('tmUnits')
    .select('id')
    .where('tmId', '=', tmId)
    .where('sourceHash', '=', sourceHash)
    .where('deleted', '=', false)
    .$if(targetLang !== null, (q) => q.where('targetLang', '=', targetLang!))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Live units (source, target languages) of the given sources, for an index to catch up on. */
export async function liveLanguagesOfSources(
  db: Kysely<DB>,
  tmId: Id,
  sourceHashes: readonly string[],
): Promise<Map<string, { source: string; langs: string[] }>> {
  const result = new Map<string, { source: string; langs: string[] }>();
  for (let i = 0; i < sourceHashes.length; i += ROWS_PER_STATEMENT) {
    const rows = await db
      .selectFrom('tmUnits')
      .select(['sourceHash', 'source', 'targetLang'])
      .where('tmId', '=', tmId)
      .where('sourceHash', 'in', sourceHashes.slice(i, i + ROWS_PER_STATEMENT))
      .where('deleted', '=', false)
      .execute();
    for (const row of rows) {
      const entry = result.get(row.sourceHash);
      if (entry) {
        if (!entry.langs.includes(row.targetLang)) entry.langs.push(row.targetLang);
      } else result.set(row.sourceHash, { source: row.source, langs: [row.targetLang] });
    }
  }
  return result;
}

/**
 * Sources written after `afterVersion` up to `upToVersion` (by version, then id), one page: what an
 * index catches up on. The upper bound keeps a catch-up from chasing writes that go on meanwhile.
 */
export async function changedSources(
  db: Kysely<DB>,
  tmId: Id,
  afterVersion: number,
  upToVersion: number,
  after: { version: number; id: string } | null,
  limit: number,
): Promise<{ sourceHash: string; version: number; id: string }[]> {
  // The page's start as a row comparison, which both databases take as a bound of the index scan
  // on (tm_id, version, id); an `or` of the two cases would be a filter, each page scanning from
  // the first.
  const rows = await db
    .selectFrom('tmUnits')
    .select(['sourceHash', 'version', 'id'])
    .where('tmId', '=', tmId)
    .where('version', '>', afterVersion)
    .where('version', '<=', upToVersion)
    .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('version', 'id'), '>', eb.tuple(after!.version, after!.id))))
    .orderBy('version')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ sourceHash: r.sourceHash, version: num(r.version), id: String(r.id) }));
}

/**
 * The distinct live sources of a TM (what its index will hold): one scan of the unique key's
 * index, for sizing the index before a load.
 */
export async function liveSourceCount(db: Kysely<DB>, tmId: Id): Promise<number> {
  const row = await db
    .selectFrom('tmUnits')
    .select((eb) => eb.fn.count<number | string>('sourceHash').distinct().as('count'))
    .where('tmId', '=', tmId)
    .where('deleted', '=', false)
    .executeTakeFirstOrThrow();
  return num(row.count);
}

/**
 * Every live unit of a TM written up to `upToVersion`, after `after`, one page in the order of the
 * unique key (an index's first load: the rows of one source arrive together; rows written later
 * are the next catch-up's).
 */
export async function liveUnitsBySource(
  db: Kysely<DB>,
  tmId: Id,
  upToVersion: number,
  after: UnitKey | null,
  limit: number,
): Promise<{ sourceHash: string; targetLang: string; targetHash: string; source: string }[]> {
  // In the unique key's order, the page's start a row comparison: a range scan of that index.
  return db
    .selectFrom('tmUnits')
    .select(['sourceHash', 'targetLang', 'targetHash', 'source'])
    .where('tmId', '=', tmId)
    .where('deleted', '=', false)
    .where('version', '<=', upToVersion)
    .$if(after !== null, (q) =>
      q.where((eb) =>
        eb(eb.refTuple('sourceHash', 'targetLang', 'targetHash'), '>', eb.tuple(after!.sourceHash, after!.targetLang, after!.targetHash)),
      ),
    )
    .orderBy('sourceHash')
    .orderBy('targetLang')
    .orderBy('targetHash')
    .limit(limit)
    .execute();
}

/** A unit's place in the unique key of its TM. */
export interface UnitKey {
  sourceHash: string;
  targetLang: string;
  targetHash: string;
}

/** Units counted: all live rows, distinct sources, and per target language. */
export async function unitCounts(
  db: Kysely<DB>,
  tmId: Id,
): Promise<{ segments: number; sources: number; byLanguage: Map<string, number> }> {
  const rows = await db
    .selectFrom('tmUnits')
    .select(['targetLang', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('tmId', '=', tmId)
    .where('deleted', '=', false)
    .groupBy('targetLang')
    .execute();
  const byLanguage = new Map(rows.map((r) => [r.targetLang, num(r.count)]));
  return { segments: [...byLanguage.values()].reduce((a, b) => a + b, 0), sources: await liveSourceCount(db, tmId), byLanguage };
}

/** One page of live units in id order, for wildcard matching and exports (filters applied by the caller). */
export async function unitsPage(
  db: Kysely<DB>,
  tmId: Id,
  options: {
    afterId: string | null;
    limit: number;
    targetLangs: readonly string[] | null;
    contains?: { column: 'source' | 'target'; text: string } | null;
  },
): Promise<TmUnitRow[]> {
  let query = db.selectFrom('tmUnits').selectAll().where('tmId', '=', tmId).where('deleted', '=', false);
  if (options.afterId !== null) query = query.where('id', '>', options.afterId);
  if (options.targetLangs !== null) query = query.where('targetLang', 'in', options.targetLangs.length ? [...options.targetLangs] : ['']);
  if (options.contains) {
    // A prefilter only (ASCII case folding in both databases' lower()); the caller matches exactly.
    query = query.where(containsText(options.contains.column, options.contains.text));
  }
  return query.orderBy('id').limit(options.limit).execute();
}
