import { createHash } from 'node:crypto';
import { sql } from 'kysely';
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

/** SHA-1 (hex) of a text as stored: the identity of a source or a target within a TM. */
export function textHash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
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

/** Rows per insert statement: SQLite binds at most 32,766 parameters per statement, PostgreSQL 65,535. */
const ROWS_PER_STATEMENT = 1000;

/**
 * Inserts or updates units (the unique key `(tm, target language, source, target)`): the same
 * source and target again updates the unit's context, stamps and origin; a tombstone comes back
 * to life. Runs in the caller's transaction, whose version it stamps.
 */
export async function upsertUnits(trx: Kysely<DB>, tmId: Id, version: number, units: readonly NewTmUnit[], now: string): Promise<void> {
  // One row per key within a statement: PostgreSQL refuses to update one row twice in a statement.
  const byKey = new Map<string, NewTmUnit & { sourceHash: string; targetHash: string }>();
  for (const unit of units) {
    const sourceHash = textHash(unit.source);
    const targetHash = textHash(unit.target);
    byKey.set(`${unit.targetLang}\u0000${sourceHash}\u0000${targetHash}`, { ...unit, sourceHash, targetHash });
  }
  const rows = [...byKey.values()].map((u) => ({
    tmId,
    targetLang: u.targetLang,
    sourceHash: u.sourceHash,
    targetHash: u.targetHash,
    source: u.source,
    target: u.target,
    sourceTags: u.sourceTags ?? null,
    targetTags: u.targetTags ?? null,
    previousSource: u.previousSource ?? null,
    nextSource: u.nextSource ?? null,
    contextKey: u.contextKey ?? null,
    targetNote: u.targetNote ?? null,
    createdAt: u.createdAt ?? now,
    createdById: u.createdById ?? null,
    modifiedAt: u.modifiedAt ?? u.createdAt ?? now,
    modifiedById: u.modifiedById ?? u.createdById ?? null,
    projectId: u.projectId ?? null,
    jobUid: u.jobUid ?? null,
    filename: u.filename ?? null,
    version,
    deleted: false,
  }));
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await trx
      .insertInto('tmUnits')
      .values(rows.slice(i, i + ROWS_PER_STATEMENT))
      .onConflict((oc) =>
        oc.columns(['tmId', 'targetLang', 'sourceHash', 'targetHash']).doUpdateSet((eb) => ({
          sourceTags: eb.ref('excluded.sourceTags'),
          targetTags: eb.ref('excluded.targetTags'),
          previousSource: eb.ref('excluded.previousSource'),
          nextSource: eb.ref('excluded.nextSource'),
          contextKey: eb.ref('excluded.contextKey'),
          targetNote: eb.ref('excluded.targetNote'),
          modifiedAt: eb.ref('excluded.modifiedAt'),
          modifiedById: eb.ref('excluded.modifiedById'),
          projectId: eb.ref('excluded.projectId'),
          jobUid: eb.ref('excluded.jobUid'),
          filename: eb.ref('excluded.filename'),
          version: eb.ref('excluded.version'),
          deleted: eb.ref('excluded.deleted'),
          // A revived tombstone is new again.
          createdAt: sql`case when ${sql.ref('tm_units.deleted')} = ${sql.lit(true)} then excluded.created_at else ${sql.ref('tm_units.created_at')} end`,
        })),
      )
      .execute();
  }
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
  return db
    .selectFrom('tmUnits')
    .selectAll()
    .where('tmId', '=', tmId)
    .where('sourceHash', 'in', [...sourceHashes])
    .where('deleted', '=', false)
    .$if(targetLangs !== null, (q) => q.where('targetLang', 'in', targetLangs!.length ? [...targetLangs!] : ['']))
    .orderBy('id')
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

/** Sources written after `afterVersion` (by version, then id), one page: what an index catches up on. */
export async function changedSources(
  db: Kysely<DB>,
  tmId: Id,
  afterVersion: number,
  after: { version: number; id: string } | null,
  limit: number,
): Promise<{ sourceHash: string; version: number; id: string }[]> {
  const rows = await db
    .selectFrom('tmUnits')
    .select(['sourceHash', 'version', 'id'])
    .where('tmId', '=', tmId)
    .where('version', '>', afterVersion)
    .$if(after !== null, (q) =>
      q.where((eb) => eb.or([eb('version', '>', after!.version), eb.and([eb('version', '=', after!.version), eb('id', '>', after!.id)])])),
    )
    .orderBy('version')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ sourceHash: r.sourceHash, version: num(r.version), id: String(r.id) }));
}

/**
 * Every live unit of a TM after `after`, one page ordered by source hash then id (an index's first
 * load: the rows of one source arrive together).
 */
export async function liveUnitsBySource(
  db: Kysely<DB>,
  tmId: Id,
  after: { sourceHash: string; id: string } | null,
  limit: number,
): Promise<{ id: Id; sourceHash: string; source: string; targetLang: string }[]> {
  return db
    .selectFrom('tmUnits')
    .select(['id', 'sourceHash', 'source', 'targetLang'])
    .where('tmId', '=', tmId)
    .where('deleted', '=', false)
    .$if(after !== null, (q) =>
      q.where((eb) =>
        eb.or([eb('sourceHash', '>', after!.sourceHash), eb.and([eb('sourceHash', '=', after!.sourceHash), eb('id', '>', after!.id)])]),
      ),
    )
    .orderBy('sourceHash')
    .orderBy('id')
    .limit(limit)
    .execute();
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
  const sources = await db
    .selectFrom('tmUnits')
    .select((eb) => eb.fn.count<number | string>('sourceHash').distinct().as('count'))
    .where('tmId', '=', tmId)
    .where('deleted', '=', false)
    .executeTakeFirstOrThrow();
  const byLanguage = new Map(rows.map((r) => [r.targetLang, num(r.count)]));
  return { segments: [...byLanguage.values()].reduce((a, b) => a + b, 0), sources: num(sources.count), byLanguage };
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
