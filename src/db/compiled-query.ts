import { randomBytes } from 'node:crypto';
import type { Compilable, CompiledQuery, Kysely, KyselyPlugin, QueryResult, UnknownRow } from 'kysely';
import { RowCasePlugin } from './camel-case.js';
import { WriteObserver, describeWrite } from './write-observer.js';
import type { Write } from './write-observer.js';
import type { DB } from './schema.js';
import type { DirectReads } from './sqlite-statements.js';

/**
 * Hot queries built and compiled once (docs/performance.md, "Database levers").
 *
 * Building a Kysely query, turning its names to snake_case and printing its SQL costs more CPU
 * than SQLite takes to run a simple read. A query whose shape never changes can be compiled once
 * per database with placeholders, and then run with new values:
 *
 * ```ts
 * const findJob = compiledQuery((db, p: { projectId: string; uid: string }) =>
 *   db.selectFrom('jobs').selectAll().where('projectId', '=', p.projectId).where('uid', '=', p.uid),
 * );
 * const job = await findJob.first(db, { projectId, uid }); // db: Kysely<DB> or a transaction
 * ```
 *
 * - The builder runs once per database (lazily, at the first use: a compiled query is specific to
 *   a dialect), with placeholders for the parameters; every later call binds the values given
 *   (never written into the SQL) and skips building, compiling and Kysely's result plugins. Rows
 *   have the type the builder gives them, with the same keys and values as `execute()` would
 *   return (camelCase keys, ids as strings, booleans as the database answers them).
 * - The builder may use a parameter only as a value (a comparison operand, an inserted or set
 *   value, `sql` template values, `limit`/`offset`), never to decide the query's shape (an `if`
 *   on it, a list for `in`, a column name): the shape is fixed at compile time. Compiling throws
 *   when a parameter it read was not bound as a value, or ended up in the SQL text; running
 *   throws when a parameter is missing or a list.
 * - Any handle works: the database's `db`, a transaction, a connection. A handle with plugins
 *   other than the database's own (`withPlugin`, `withSchema`) builds and runs the query the
 *   ordinary way, so that those plugins see it.
 * - Module-level constants are the intended use: the per-database compiled form is kept in a
 *   WeakMap and goes away with the database.
 */
export interface CompiledStatement<P, R> {
  /** Every row of the result. */
  all(db: Kysely<DB>, parameters: P): Promise<R[]>;
  /** The first row of the result, or undefined. */
  first(db: Kysely<DB>, parameters: P): Promise<R | undefined>;
  /** Runs a statement; the number of rows it inserted, updated or deleted. */
  run(db: Kysely<DB>, parameters: P): Promise<number>;
  /** The SQL text this database runs (compiling it if needed), for tests and logs. */
  sqlFor(db: Kysely<DB>): string;
}

/** Where one SQL parameter's value comes from: a parameter of the call, or a constant. */
type Slot = { readonly parameter: string } | { readonly constant: unknown };

interface Compiled {
  readonly query: CompiledQuery;
  readonly slots: readonly Slot[];
  /** What the query writes, told to the write observer at each run (it saw the query only once, compiling it). */
  readonly write: Write | null;
}

function containsMarker(value: unknown, marker: string): boolean {
  if (typeof value === 'string') return value.includes(marker);
  if (typeof value !== 'object' || value === null) return false;
  try {
    return (JSON.stringify(value) ?? '').includes(marker);
  } catch {
    return false;
  }
}

function compile<P extends object>(db: Kysely<DB>, build: (db: Kysely<DB>, parameters: P) => Compilable<unknown>): Compiled {
  // Each parameter is replaced by a unique string; the compiled query's parameter list then
  // tells which position takes which parameter.
  const marker = `__opentms_parameter_${randomBytes(8).toString('hex')}__:`;
  const read = new Set<string>();
  const placeholders = new Proxy({} as P, {
    get(_target, key) {
      if (typeof key !== 'string') return undefined;
      read.add(key);
      return marker + key;
    },
  });
  const query = build(db, placeholders).compile();
  if (query.sql.includes(marker)) {
    throw new Error(`compiledQuery: a parameter was written into the SQL text instead of bound: ${query.sql}`);
  }
  const bound = new Set<string>();
  const slots = query.parameters.map((value): Slot => {
    if (typeof value === 'string' && value.startsWith(marker)) {
      const parameter = value.slice(marker.length);
      bound.add(parameter);
      return { parameter };
    }
    if (containsMarker(value, marker)) {
      throw new Error('compiledQuery: a parameter was made part of a constant value (only whole values can be parameters)');
    }
    return { constant: value };
  });
  for (const parameter of read) {
    if (!bound.has(parameter)) {
      throw new Error(
        `compiledQuery: parameter "${parameter}" was read but is not bound as a value (it may only be a value, never decide the query's shape)`,
      );
    }
  }
  return { query, slots, write: describeWrite(query.query) };
}

/** A parameter's value may be bound: present, and not a list. */
function checkValue(parameter: string, value: unknown): void {
  if (value === undefined) throw new Error(`compiledQuery: parameter "${parameter}" is missing`);
  if (Array.isArray(value)) {
    throw new Error(`compiledQuery: parameter "${parameter}" is a list; lists change the SQL text and cannot be compiled once`);
  }
}

function valuesOf(slots: readonly Slot[], parameters: object): unknown[] {
  const values = new Array<unknown>(slots.length);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if ('constant' in slot) {
      values[i] = slot.constant;
      continue;
    }
    const value = (parameters as Record<string, unknown>)[slot.parameter];
    checkValue(slot.parameter, value);
    values[i] = value;
  }
  return values;
}

/** The database's own plugins (its write observer, then its row-case plugin), when they are the handle's only ones. */
function ownPlugins(plugins: readonly KyselyPlugin[]): { writes: WriteObserver; rowCase: RowCasePlugin } | null {
  const [writes, rowCase] = plugins;
  return plugins.length === 2 && writes instanceof WriteObserver && rowCase instanceof RowCasePlugin ? { writes, rowCase } : null;
}

/** Databases whose reads may skip Kysely's driver (SQLite), by their adapter. */
const directReads = new WeakMap<object, DirectReads>();

/**
 * Lets the compiled reads of `db` run on `reads` at once, past Kysely's driver and its
 * connection hand-over (database.ts does it for SQLite; docs/performance.md, "Database levers"):
 * when the handle is the open transaction, or no transaction is open. Otherwise (another
 * request's transaction holds the connection) they wait for the connection as other queries do.
 */
export function readDirectly(db: Kysely<DB>, reads: DirectReads): void {
  directReads.set(db.getExecutor().adapter, reads);
}

/**
 * A query built by `build` and compiled once per database; see the interface above. `build`
 * must be free of side effects and use its parameters only as values.
 */
export function compiledQuery<P extends object, R>(build: (db: Kysely<DB>, parameters: P) => Compilable<R>): CompiledStatement<P, R> {
  // Keyed by the handle's adapter: one per Kysely instance, shared by its transactions and
  // connections. Only handles whose plugins are the database's own compile into it.
  const perDatabase = new WeakMap<object, Compiled>();

  function compiledFor(db: Kysely<DB>): Compiled {
    const adapter = db.getExecutor().adapter;
    let compiled = perDatabase.get(adapter);
    if (!compiled) {
      compiled = compile(db, build);
      perDatabase.set(adapter, compiled);
    }
    return compiled;
  }

  async function execute(db: Kysely<DB>, parameters: P): Promise<QueryResult<R>> {
    const executor = db.getExecutor();
    const own = ownPlugins(executor.plugins);
    if (!own) {
      // The same refusals as the compiled path, so that a query behaves alike through any handle.
      for (const [parameter, value] of Object.entries(parameters)) checkValue(parameter, value);
      return db.executeQuery(build(db, parameters));
    }
    const { query, slots, write } = compiledFor(db);
    const values = valuesOf(slots, parameters);
    const direct = write ? undefined : directReads.get(executor.adapter);
    if (direct && (db.isTransaction || !direct.inTransaction)) {
      const rows = direct.read(query.sql, values, own.rowCase.keyOf);
      if (rows) return { rows: rows as R[] };
    }
    if (write) own.writes.notify(write);
    const result = await executor.provideConnection((connection) =>
      connection.executeQuery<UnknownRow>({ query: query.query, queryId: query.queryId, sql: query.sql, parameters: values }),
    );
    return { ...result, rows: own.rowCase.mapRows(result.rows) as R[] };
  }

  return {
    async all(db, parameters) {
      return (await execute(db, parameters)).rows;
    },
    async first(db, parameters) {
      return (await execute(db, parameters)).rows[0];
    },
    async run(db, parameters) {
      const result = await execute(db, parameters);
      return Number(result.numAffectedRows ?? BigInt(result.rows.length));
    },
    sqlFor(db) {
      return (ownPlugins(db.getExecutor().plugins) ? compiledFor(db) : compile(db, build)).query.sql;
    },
  };
}
