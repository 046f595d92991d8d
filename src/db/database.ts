import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /** PostgreSQL schema the tables live in, when not the default search path (tests use one each). */
  readonly schema: string | null;
  /** One round trip to the database; throws when it is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema?: string; maxConnections?: number };

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

function wrapSqlite(database: BetterSqlite3.Database): SqliteDatabase {
  return {
    close: () => database.close(),
    prepare(query: string) {
      const statement = database.prepare(query);
      const idColumns = idColumnsOf(statement);
      return {
        reader: statement.reader,
        all: (parameters) => {
          const rows = statement.all(...parameters.map(bindable));
          if (idColumns.length) for (const row of rows) stringIds(row, idColumns);
          return rows;
        },
        run: (parameters) => statement.run(...parameters.map(bindable)),
        iterate: function* (parameters) {
          for (const row of statement.iterate(...parameters.map(bindable))) yield idColumns.length ? stringIds(row, idColumns) : row;
        },
      };
    },
  };
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const raw = new BetterSqlite3(path);
  // WAL lets readers run beside the writer; synchronous=FULL makes every commit durable even
  // across a power cut (NORMAL would only survive a process crash). Foreign keys are off by
  // default in SQLite and must be switched on per connection.
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: wrapSqlite(raw) }),
    plugins: [new CamelCasePlugin()],
  });
  return {
    db,
    dialect: 'sqlite',
    schema: null,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

function openPostgres(url: string, schema: string | undefined, maxConnections = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener
  // that would crash the process. The next query gets a fresh connection.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  return {
    db,
    dialect: 'postgres',
    schema: schema ?? null,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

export function openDatabase(options: DatabaseOptions): Database {
  return options.kind === 'sqlite' ? openSqlite(options.path) : openPostgres(options.url, options.schema, options.maxConnections);
}

/** Reads a boolean column the same way on both dialects (SQLite answers 0/1). */
export function bool(value: boolean | number | null | undefined): boolean {
  return value === true || value === 1;
}

/** Reads a count or an int8 column (PostgreSQL answers bigint values as strings). */
export function num(value: string | number | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}
