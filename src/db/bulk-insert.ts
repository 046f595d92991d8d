import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * Inserting many rows fast, for imports (docs/terminology.md, "Import and export"): the statement
 * text is written once per table, not built per batch by the query builder.
 *
 * - PostgreSQL: one statement for any number of rows, one array parameter per column (`unnest`),
 *   so the text, its parse and plan are the same for every batch.
 * - SQLite: multi-row VALUES statements of a few fixed sizes (the rows are cut greedily into
 *   them), so the prepared-statement cache holds at most four texts per table; booleans are bound
 *   as 0 and 1.
 *
 * The same scheme as the TM units' upsert (tm-units.repository.ts).
 */

export interface BulkColumn {
  readonly name: string;
  /** The PostgreSQL type of the column's array parameter (`text`, `bigint`, `boolean`, `varchar`, `real`). */
  readonly pgType: 'text' | 'bigint' | 'boolean' | 'varchar' | 'real';
}

export interface BulkTable {
  readonly table: string;
  readonly columns: readonly BulkColumn[];
}

const SQLITE_CHUNK_SIZES = [200, 50, 10, 1];
const sqliteTexts = new Map<string, string>();

export const onPostgres = (db: Pick<Kysely<DB>, 'getExecutor'>) => db.getExecutor().adapter instanceof PostgresAdapter;

function sqliteInsert(target: BulkTable, rows: number): string {
  const key = `${target.table}\u0000${rows}`;
  let text = sqliteTexts.get(key);
  if (text === undefined) {
    const row = `(${target.columns.map(() => '?').join(', ')})`;
    text = `insert into ${target.table} (${target.columns.map((c) => c.name).join(', ')}) values ${Array.from({ length: rows }, () => row).join(', ')}`;
    sqliteTexts.set(key, text);
  }
  return text;
}

const postgresTexts = new Map<string, string>();

function postgresInsert(target: BulkTable): string {
  let text = postgresTexts.get(target.table);
  if (text === undefined) {
    const names = target.columns.map((c) => c.name).join(', ');
    const arrays = target.columns.map((c, i) => `$${i + 1}::${c.pgType}[]`).join(', ');
    text = `insert into ${target.table} (${names}) select * from unnest(${arrays})`;
    postgresTexts.set(target.table, text);
  }
  return text;
}

/** Inserts `rows` (values in the order of `target.columns`) in the caller's transaction. */
export async function bulkInsert(trx: Kysely<DB>, target: BulkTable, rows: readonly (readonly unknown[])[]): Promise<void> {
  if (rows.length === 0) return;
  if (onPostgres(trx)) {
    const arrays = target.columns.map((_, c) => rows.map((row) => row[c] ?? null));
    await trx.executeQuery(CompiledQuery.raw(postgresInsert(target), arrays));
    return;
  }
  const width = target.columns.length;
  let at = 0;
  for (const size of SQLITE_CHUNK_SIZES) {
    if (size * width > 32_000) continue;
    for (; rows.length - at >= size; at += size) {
      const parameters: unknown[] = [];
      for (let r = at; r < at + size; r++) {
        const row = rows[r]!;
        for (let c = 0; c < width; c++) {
          const value = row[c];
          parameters.push(value === true ? 1 : value === false ? 0 : (value ?? null));
        }
      }
      await trx.executeQuery(CompiledQuery.raw(sqliteInsert(target, size), parameters));
    }
  }
}

/**
 * Reserves `count` new ids of `table`'s identity column, in the caller's write transaction: on
 * PostgreSQL from its sequence, on SQLite above the largest id (SQLite runs one write transaction
 * at a time, so no other writer takes them; an explicit id above the sequence moves it).
 */
export async function reserveIds(trx: Kysely<DB>, table: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  if (onPostgres(trx)) {
    const result = await trx.executeQuery<{ id: string | number }>(
      CompiledQuery.raw(`select nextval(pg_get_serial_sequence('${table}', 'id')) as id from generate_series(1, $1::integer)`, [count]),
    );
    return result.rows.map((row) => String(row.id));
  }
  const result = await trx.executeQuery<{ top: number | bigint | null }>(CompiledQuery.raw(`select max(id) as top from ${table}`, []));
  const sequence = await trx.executeQuery<{ seq: number | bigint | null }>(
    CompiledQuery.raw(`select seq from sqlite_sequence where name = ?`, [table]),
  );
  const start = Math.max(Number(result.rows[0]?.top ?? 0), Number(sequence.rows[0]?.seq ?? 0)) + 1;
  return Array.from({ length: count }, (_, i) => String(start + i));
}
