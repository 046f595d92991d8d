import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * The better-sqlite3 connection as Kysely's SqliteDialect sees it, with prepared statements kept
 * and reused (docs/performance.md, "Database levers").
 *
 * Kysely's SQLite driver prepares every statement it executes, and SQLite's parse and plan were
 * the largest share of the server's CPU on a simple read. The SQL text of a query of a given
 * shape is always the same (values are bound, never in the text), so statements are kept by
 * text in a bounded LRU: variable-length `in (?, ?, …)` lists produce one text per length and
 * cannot grow it without bound.
 *
 * Safe to share because better-sqlite3 is synchronous and resets a statement after `all` and
 * `run` (also when they throw): a cached statement holds no lock and no open read between two
 * executions, in or out of a transaction. The exceptions, which are never cached:
 * - `iterate` (streaming) keeps its statement busy until the iteration ends, and better-sqlite3
 *   refuses to run a busy statement; a stream gets a statement of its own, so a query of the same
 *   text can run (on the cached one) while the stream is open.
 * - schema changes (`create`, `alter`, `drop`): a kept statement would still work (SQLite
 *   prepares it again by itself) but what is derived from it once, the id columns of its result,
 *   could be out of date; such a statement empties the cache when it runs.
 */

export interface SqliteStatementCacheOptions {
  /** Most statements kept (least recently used dropped first); 0 turns the cache off. */
  maxStatements?: number;
}

export const DEFAULT_MAX_STATEMENTS = 500;

/** A SQLite connection for Kysely, plus what the tests and benchmarks may look at. */
export interface CachingSqliteDatabase extends SqliteDatabase {
  /** Statements currently kept. */
  readonly cachedStatements: number;
  /** Forgets every kept statement (better-sqlite3 finalizes them when they are collected). */
  clearStatements(): void;
}

/**
 * better-sqlite3 refuses to bind JavaScript booleans and Dates. Converting them here keeps the
 * repositories free of dialect branches: they pass booleans and read them back with `bool()`.
 */
function bindable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * Whether a result column holds a record id: `id` and the `*_id` references, but not the
 * per-organization and per-project counters (`internal_id`, `inner_id`), which are numbers on
 * the wire.
 */
export function isIdColumn(name: string): boolean {
  return name === 'id' || (name.endsWith('_id') && !name.endsWith('internal_id') && !name.endsWith('inner_id'));
}

/** The id columns of a statement's result, read once per statement. */
function idColumnsOf(statement: BetterSqlite3.Statement): string[] {
  return statement.reader
    ? statement
        .columns()
        .map((c) => c.name)
        .filter(isIdColumn)
    : [];
}

/** Ids read as strings, as PostgreSQL answers int8: one representation on both databases. */
function stringIds<T>(row: T, idColumns: readonly string[]): T {
  const record = row as Record<string, unknown>;
  for (const column of idColumns) {
    const value = record[column];
    if (typeof value === 'number' || typeof value === 'bigint') record[column] = String(value);
  }
  return row;
}

/** A statement that changes the schema (after leading blanks and comments). */
const SCHEMA_CHANGE = /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:create|alter|drop)\b/i;

interface Kept {
  readonly statement: SqliteStatement;
  /** When it was last used (a counter): the least recently used is dropped first. */
  used: number;
}

export function wrapSqlite(database: BetterSqlite3.Database, options: SqliteStatementCacheOptions = {}): CachingSqliteDatabase {
  const maxStatements = Math.max(0, options.maxStatements ?? DEFAULT_MAX_STATEMENTS);
  const cache = new Map<string, Kept>();
  let clock = 0;

  /** Drops the least recently used statement: a scan, but only when a new one must be kept. */
  function evict(): void {
    let oldest: string | null = null;
    let oldestUse = Infinity;
    for (const [query, kept] of cache) {
      if (kept.used < oldestUse) {
        oldest = query;
        oldestUse = kept.used;
      }
    }
    if (oldest !== null) cache.delete(oldest);
  }

  function statementFor(query: string, statement: BetterSqlite3.Statement, onRun?: () => void): SqliteStatement {
    const idColumns = idColumnsOf(statement);
    return {
      reader: statement.reader,
      all: (parameters) => {
        const rows = statement.all(...parameters.map(bindable));
        if (idColumns.length) for (const row of rows) stringIds(row, idColumns);
        return rows;
      },
      run: (parameters) => {
        try {
          return statement.run(...parameters.map(bindable));
        } finally {
          onRun?.();
        }
      },
      iterate: function* (parameters) {
        // Never the kept statement: it would be busy until the caller finishes iterating.
        const own = database.prepare(query);
        for (const row of own.iterate(...parameters.map(bindable))) yield idColumns.length ? stringIds(row, idColumns) : row;
      },
    };
  }

  return {
    close() {
      cache.clear();
      database.close();
    },
    get cachedStatements() {
      return cache.size;
    },
    clearStatements() {
      cache.clear();
    },
    prepare(query: string) {
      const kept = cache.get(query);
      if (kept) {
        kept.used = ++clock;
        return kept.statement;
      }
      const statement = database.prepare(query);
      if (!statement.reader && SCHEMA_CHANGE.test(query)) return statementFor(query, statement, () => cache.clear());
      const wrapped = statementFor(query, statement);
      if (maxStatements > 0) {
        if (cache.size >= maxStatements) evict();
        cache.set(query, { statement: wrapped, used: ++clock });
      }
      return wrapped;
    },
  };
}
