import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { boolDefault, boolType, isPostgres, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 14, the import speed (docs/translation-memory.md, "Records" and "Import throughput"): the
// units table is rebuilt with cheaper keys, because every unit an import writes pays for each index.
// - `source_hash` / `target_hash`: 20 characters (base64url of the first 15 bytes of SHA-1, 120
//   bits) instead of 40 hex ones: half the key bytes in the unique index. On PostgreSQL they
//   compare bytewise (`collate "C"`), not by the database's linguistic collation.
// - The unique key leads with the source, `(tm_id, source_hash, target_lang, target_hash)`, so it
//   also serves the lookups by source: the separate `(tm_id, source_hash)` index is gone.
// - The indexes of the user and project references (for ON DELETE SET NULL) are partial, over
//   rows that have one: imported units have none and skip them.
// - The change-feed index is `(tm_id, version, id)`: an index catching up pages through it by
//   `(version, id)`, a range scan on both databases.
// The rows are copied with their ids and their hashes recomputed from the texts.

const PAGE = 2000;

const COLUMNS = [
  'id',
  'tm_id',
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
  'version',
  'deleted',
] as const;

type Row = Record<(typeof COLUMNS)[number], unknown>;

const camelCase = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

interface Layout {
  hashLength: number;
  hash: (text: string) => string;
  uniqueName: string;
  unique: string[];
  sourceIndex: boolean;
  partialReferenceIndexes: boolean;
  versionIndex: string[];
}

const LEAN: Layout = {
  hashLength: 20,
  hash: (text) => createHash('sha1').update(text).digest().subarray(0, 15).toString('base64url'),
  uniqueName: 'tm_units_key_unique',
  unique: ['tm_id', 'source_hash', 'target_lang', 'target_hash'],
  sourceIndex: false,
  partialReferenceIndexes: true,
  versionIndex: ['tm_id', 'version', 'id'],
};

const ORIGINAL: Layout = {
  hashLength: 40,
  hash: (text) => createHash('sha1').update(text).digest('hex'),
  uniqueName: 'tm_units_identity_unique',
  unique: ['tm_id', 'target_lang', 'source_hash', 'target_hash'],
  sourceIndex: true,
  partialReferenceIndexes: false,
  versionIndex: ['tm_id', 'version'],
};

/** Creates `tm_units` in a layout under a temporary name, copies the rows over, and swaps it in. */
async function rebuild(db: Kysely<unknown>, layout: Layout): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);
  const pg = isPostgres(db);
  const hashType = sql.raw(`varchar(${layout.hashLength})${pg ? ' collate "C"' : ''}`);
  // The unique constraint's name must be free while both tables exist (it names an index).
  const uniqueName = `${layout.uniqueName}_new`;
  await withId(db, db.schema.createTable('tm_units_new'))
    .addColumn('tm_id', ref, (c) => c.notNull().references('trans_memories.id').onDelete('cascade'))
    .addColumn('target_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('source_hash', hashType, (c) => c.notNull())
    .addColumn('target_hash', hashType, (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('source_tags', 'text')
    .addColumn('target_tags', 'text')
    .addColumn('previous_source', 'text')
    .addColumn('next_source', 'text')
    .addColumn('context_key', 'text')
    .addColumn('target_note', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('project_id', ref, (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('job_uid', 'varchar(64)')
    .addColumn('filename', 'text')
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('deleted', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addUniqueConstraint(uniqueName, layout.unique as never)
    .execute();

  let afterId: unknown = null;
  for (;;) {
    const page = await sql<Record<string, unknown>>`select ${sql.join(COLUMNS.map((c) => sql.ref(c)))} from tm_units ${
      afterId === null ? sql`` : sql`where id > ${afterId}`
    } order by id limit ${PAGE}`.execute(db);
    if (page.rows.length === 0) break;
    const rows = page.rows.map((found) => {
      // The rows' keys are camelCase when the handle has the application's case plugin.
      const row = Object.fromEntries(COLUMNS.map((column) => [column, column in found ? found[column] : found[camelCase(column)]])) as Row;
      return { ...row, source_hash: layout.hash(String(row.source)), target_hash: layout.hash(String(row.target)) };
    });
    // 22 parameters a row: 1,000 rows stay under SQLite's 32,766.
    for (let i = 0; i < rows.length; i += 1000) {
      await db
        .insertInto('tm_units_new' as never)
        .values(rows.slice(i, i + 1000) as never)
        .execute();
    }
    afterId = rows[rows.length - 1]!.id;
  }

  await db.schema.dropTable('tm_units').execute();
  await db.schema.alterTable('tm_units_new').renameTo('tm_units').execute();
  if (pg) {
    // The copied ids were given explicitly: new rows continue after them.
    await sql`select setval(pg_get_serial_sequence('tm_units', 'id'), coalesce((select max(id) from tm_units), 0) + 1, false)`.execute(db);
    await sql.raw(`alter index ${uniqueName} rename to ${layout.uniqueName}`).execute(db);
  }
  // On SQLite the unique constraint is an automatic index, named after the table by SQLite itself.

  await db.schema.createIndex('tm_units_version_idx').on('tm_units').columns(layout.versionIndex).execute();
  if (layout.sourceIndex) await db.schema.createIndex('tm_units_source_idx').on('tm_units').columns(['tm_id', 'source_hash']).execute();
  for (const column of ['created_by_id', 'modified_by_id', 'project_id']) {
    let index = db.schema.createIndex(`tm_units_${column}_idx`).on('tm_units').column(column);
    if (layout.partialReferenceIndexes) index = index.where(sql.ref(column), 'is not', null);
    await index.execute();
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, LEAN);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, ORIGINAL);
}
