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
export interface CachingSqliteDatabase extends SqliteDatabase, DirectReads {
  /** Statements currently kept. */
  readonly cachedStatements: number;
  /** Forgets every kept statement (better-sqlite3 finalizes them when they are collected). */
  clearStatements(): void;
}

/**
 * Reads run on the connection at once, past Kysely's driver (compiled-query.ts): better-sqlite3 is
 * synchronous, so a read needs no connection hand-over, only that no other request's transaction
 * is open on the one connection (it would see that transaction's uncommitted writes).
 */
export interface DirectReads {
  /** A transaction is open on the connection. */
  readonly inTransaction: boolean;
  /**
   * Runs `query` (a kept statement) when it only reads, with each row's keys named by `keyOf` (a
   * pure function of the column name, the same on every call) and id columns read as strings;
   * null when the statement writes (it is not run).
   */
  read(query: string, parameters: readonly unknown[], keyOf: (column: string) => string): Record<string, unknown>[] | null;
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

/** Turns one row, as better-sqlite3 gives it in raw mode (an array of values), into an object. */
type RowBuilder = (values: unknown[], stringId: (value: unknown) => unknown) => Record<string, unknown>;

/** Ids read as strings, as PostgreSQL answers int8: one representation on both databases. */
function stringId(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
}

/**
 * The object builder of a statement's result, generated once per statement from its column names:
 * `(values) => ({ "id": stringId(values[0]), "name": values[1], … })`, with the id columns read as
 * strings. better-sqlite3 would build each row object itself, creating each column name again for
 * every row and adding the keys one by one (a slow dictionary object in V8 past a few dozen
 * columns); in raw mode it only hands over the values, and one object literal gives every row the
 * same fast shape. Same keys, order and values as better-sqlite3's objects: a name that appears
 * twice (\`select a.*, b.*\`) keeps its first position and its last value, as in a literal.
 * Column names are written as JSON string literals; a \`__proto__\` column gets a plain loop.
 */
function rowBuilderOf(statement: BetterSqlite3.Statement, keyOf: (column: string) => string = (column) => column): RowBuilder {
  const columns = statement.columns().map((c) => c.name);
  const names = columns.map(keyOf);
  if (names.includes('__proto__')) {
    return (values, toString) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, i) =>
        Object.defineProperty(row, name, {
          value: isIdColumn(columns[i]!) ? toString(values[i]) : values[i],
          enumerable: true,
          writable: true,
          configurable: true,
        }),
      );
      return row;
    };
  }
  const fields = names.map((name, i) => `${JSON.stringify(name)}: ${isIdColumn(columns[i]!) ? `stringId(values[${i}])` : `values[${i}]`}`);
  // Generated from the statement's column names, each written as a JSON string literal.
  return new Function('values', 'stringId', `return { ${fields.join(', ')} };`) as RowBuilder;
}

/** A statement that changes the schema (after leading blanks and comments). */
const SCHEMA_CHANGE = /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:create|alter|drop)\b/i;

/** A kept statement, with its direct reads (`DirectReads.read`). */
interface OwnStatement extends SqliteStatement {
  readAs(parameters: readonly unknown[], keyOf: (column: string) => string): Record<string, unknown>[] | null;
}

interface Kept {
  readonly statement: OwnStatement;
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

  function statementFor(query: string, statement: BetterSqlite3.Statement, onRun?: () => void): OwnStatement {
    // Readers answer arrays of values (raw mode), made into objects by a builder of their own.
    let build = statement.reader ? rowBuilderOf(statement) : null;
    let width = build ? statement.columns().length : 0;
    // The builder of direct reads, and the key function it was made for.
    let direct: { keyOf: (column: string) => string; build: RowBuilder; width: number } | null = null;
    if (build) statement.raw(true);
    const rowsOf = (parameters: readonly unknown[]) => statement.all(...parameters.map(bindable)) as unknown[][];
    const objects = (rows: unknown[][], builder: RowBuilder) => {
      const result = new Array<Record<string, unknown>>(rows.length);
      for (let i = 0; i < rows.length; i++) result[i] = builder(rows[i]!, stringId);
      return result;
    };
    return {
      reader: statement.reader,
      all: (parameters) => {
        const rows = rowsOf(parameters);
        if (!build) return rows;
        if (rows.length && rows[0]!.length !== width) {
          // Another process changed the table under a kept `select *`; SQLite prepared it again.
          build = rowBuilderOf(statement);
          width = statement.columns().length;
        }
        return objects(rows, build);
      },
      readAs: (parameters, keyOf) => {
        if (!statement.reader) return null;
        const rows = rowsOf(parameters);
        if (!direct || direct.keyOf !== keyOf || (rows.length && rows[0]!.length !== direct.width)) {
          direct = { keyOf, build: rowBuilderOf(statement, keyOf), width: statement.columns().length };
        }
        return objects(rows, direct.build);
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
        const buildOwn = own.reader ? rowBuilderOf(own) : null;
        if (buildOwn) own.raw(true);
        for (const row of own.iterate(...parameters.map(bindable))) yield buildOwn ? buildOwn(row as unknown[], stringId) : row;
      },
    };
  }

  function prepare(query: string): OwnStatement {
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
    prepare,
    get inTransaction() {
      return database.inTransaction;
    },
    read(query, parameters, keyOf) {
      return prepare(query).readAs(parameters, keyOf);
    },
  };
}
