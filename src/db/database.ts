import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { RowCasePlugin } from './camel-case.js';
import { readDirectly } from './compiled-query.js';
import { namedStatementPool } from './pg-statements.js';
import type { NamedStatementOptions } from './pg-statements.js';
import type { DB } from './schema.js';
import { wrapSqlite } from './sqlite-statements.js';
import type { SqliteStatementCacheOptions } from './sqlite-statements.js';
import { WriteObserver } from './write-observer.js';
import type { WriteListener } from './write-observer.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /** PostgreSQL schema the tables live in, when not the default search path (tests use one each). */
  readonly schema: string | null;
  /**
   * The SQLite database file (null on PostgreSQL and for `:memory:`): a worker thread may open a
   * connection of its own to it, so that a long write does not hold the event loop (the TM import).
   */
  readonly sqliteFile: string | null;
  /**
   * Calls `listener` before each insert, update or delete built with Kysely runs (compiled
   * queries included), with the table and the columns set: for caches kept beside the database.
   * Returns the unsubscribe function.
   */
  observeWrites(listener: WriteListener): () => void;
  /** One round trip to the database; throws when it is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | {
      kind: 'sqlite';
      path: string;
      /** The prepared-statement cache (sqlite-statements.ts); its defaults suit the service. */
      statements?: SqliteStatementCacheOptions;
    }
  | {
      kind: 'postgres';
      url: string;
      schema?: string;
      maxConnections?: number;
      /** Named prepared statements per connection (pg-statements.ts); defaults suit the service. */
      namedStatements?: NamedStatementOptions;
    };

export { isIdColumn } from './sqlite-statements.js';

/**
 * Settings for big writes (a TM import writes millions of rows; docs/translation-memory.md, "Import
 * throughput"): a 32 MB page cache per connection instead of 2 MB, so that the indexes' hot pages
 * stay in it, and a WAL checkpoint every 10,000 pages (40 MB) instead of 1,000, so that a page
 * written again and again is copied into the database file less often. Measured on 1 M units:
 * 29 k → 36 k units/s.
 */
const SQLITE_TUNING = ['cache_size = -32768', 'wal_autocheckpoint = 10000'];

function openSqlite(path: string, statements: SqliteStatementCacheOptions = {}): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const raw = new BetterSqlite3(path);
  // WAL lets readers run beside the writer; synchronous=FULL makes every commit durable even
  // across a power cut (NORMAL would only survive a process crash). Foreign keys are off by
  // default in SQLite and must be switched on per connection.
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  for (const pragma of SQLITE_TUNING) raw.pragma(pragma);
  const writes = new WriteObserver();
  const connection = wrapSqlite(raw, statements);
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: connection }),
    plugins: [writes, new RowCasePlugin()],
  });
  readDirectly(db, connection);
  return {
    db,
    dialect: 'sqlite',
    sqliteFile: path === ':memory:' ? null : path,
    observeWrites: (listener) => writes.subscribe(listener),
    schema: null,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

function openPostgres(url: string, schema: string | undefined, maxConnections = 10, namedStatements: NamedStatementOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener
  // that would crash the process. The next query gets a fresh connection.
  pool.on('error', () => undefined);
  const writes = new WriteObserver();
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: namedStatementPool(pool, namedStatements) }),
    plugins: [writes, new RowCasePlugin()],
  });
  return {
    db,
    dialect: 'postgres',
    sqliteFile: null,
    observeWrites: (listener) => writes.subscribe(listener),
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
  return options.kind === 'sqlite'
    ? openSqlite(options.path, options.statements)
    : openPostgres(options.url, options.schema, options.maxConnections, options.namedStatements);
}

/** Reads a boolean column the same way on both dialects (SQLite answers 0/1). */
export function bool(value: boolean | number | null | undefined): boolean {
  return value === true || value === 1;
}

/** Reads a count or an int8 column (PostgreSQL answers bigint values as strings). */
export function num(value: string | number | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}
