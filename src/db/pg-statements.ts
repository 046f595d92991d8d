import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * The `pg` pool as Kysely's PostgresDialect sees it, with the statements that run again and again
 * prepared once per connection (docs/performance.md, "Database levers").
 *
 * `pg` keeps a statement prepared on its connection when a query carries a `name`, and from then
 * on skips PostgreSQL's parse and plan for it (the Parse message is not sent again). A statement
 * is named after its text has run `minUses` times in this pool, with a stable name derived from a
 * hash of the text (one text, one name, on every connection). A connection names at most
 * `maxPerConnection` texts; later ones run unnamed, so variable-length `in ($1, $2, …)` lists
 * cannot grow the statements kept by a backend without bound. Prepared statements are not
 * transactional: one prepared inside a transaction that rolls back stays prepared.
 *
 * A prepared statement outlives schema changes, and PostgreSQL refuses to run one whose result
 * columns changed (`cached plan must not change result type`, e.g. `select *` after a column was
 * added by a newer process's migration). Therefore:
 * - a connection that runs a schema or session change itself (`create`, `alter`, `drop`, `set`,
 *   `reset`, `discard`, `deallocate`) stops naming statements and is closed when released;
 * - when PostgreSQL reports a stale or missing prepared statement, the connection stops naming,
 *   is closed when released, and the query is run again unnamed when no transaction is open on
 *   the connection (it failed before executing); inside a transaction the error is thrown, since
 *   the transaction is aborted.
 */

export interface NamedStatementOptions {
  /** Most named statements per connection; 0 turns naming off. */
  maxPerConnection?: number;
  /** Runs of a text in this pool before it is named (1: from its first run). */
  minUses?: number;
  /** Texts whose runs are counted (least recently used forgotten first). */
  trackedTexts?: number;
}

export const DEFAULT_MAX_NAMED_PER_CONNECTION = 200;
export const DEFAULT_MIN_USES = 2;
export const DEFAULT_TRACKED_TEXTS = 2000;

/** Statements worth preparing: plain DML, with or without a `with` clause. */
const DML = /^\s*(?:select|insert|update|delete|with)\b/i;
/** Statements after which a connection's prepared statements may no longer match the session. */
const SESSION_CHANGE = /^\s*(?:create|alter|drop|set|reset|discard|deallocate)\b/i;
const TRANSACTION_START = /^\s*(?:begin|start\s+transaction)\b/i;
/** The end of a transaction, but not `rollback to <savepoint>`. */
const TRANSACTION_END = /^\s*(?:commit|rollback|end|abort)\s*;?\s*$/i;

/** The stable name of a statement: a hash of its text (well below PostgreSQL's 63 bytes). */
export function statementName(text: string): string {
  return `q_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}

/** PostgreSQL could not use a prepared statement: it changed under it, or is gone. */
function isStalePreparedStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '26000' || // invalid_sql_statement_name: prepared statement "…" does not exist
    (code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type'))
  );
}

interface ConnectionState {
  readonly names: Set<string>;
  inTransaction: boolean;
  /** Names nothing more; closed when released. */
  retired: boolean;
}

interface TextUse {
  uses: number;
  name: string | null;
}

export function namedStatementPool(pool: pg.Pool, options: NamedStatementOptions = {}): PostgresPool {
  const maxPerConnection = Math.max(0, options.maxPerConnection ?? DEFAULT_MAX_NAMED_PER_CONNECTION);
  const minUses = Math.max(1, options.minUses ?? DEFAULT_MIN_USES);
  const trackedTexts = Math.max(1, options.trackedTexts ?? DEFAULT_TRACKED_TEXTS);
  const texts = new Map<string, TextUse>();
  // Kysely keeps its connection objects by client: the same client gets the same wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  /** The name to run `text` under on this connection, or null for unnamed. */
  function nameFor(text: string, state: ConnectionState): string | null {
    if (state.retired || maxPerConnection === 0 || !DML.test(text)) return null;
    let use = texts.get(text);
    if (use) {
      texts.delete(text);
    } else {
      use = { uses: 0, name: null };
      if (texts.size >= trackedTexts) texts.delete(texts.keys().next().value!);
    }
    texts.set(text, use);
    use.uses += 1;
    if (use.uses < minUses) return null;
    const name = (use.name ??= statementName(text));
    if (state.names.has(name)) return name;
    if (state.names.size >= maxPerConnection) return null;
    state.names.add(name);
    return name;
  }

  function wrap(client: pg.PoolClient): PostgresPoolClient {
    const state: ConnectionState = { names: new Set(), inTransaction: false, retired: false };

    async function run<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
      if (TRANSACTION_START.test(text)) state.inTransaction = true;
      else if (TRANSACTION_END.test(text)) state.inTransaction = false;
      else if (SESSION_CHANGE.test(text)) state.retired = true;
      const values = parameters as unknown[];
      const name = nameFor(text, state);
      if (name === null) return (await client.query(text, values)) as unknown as PostgresQueryResult<R>;
      try {
        return (await client.query({ name, text, values })) as unknown as PostgresQueryResult<R>;
      } catch (error) {
        if (!isStalePreparedStatement(error)) throw error;
        state.retired = true;
        if (state.inTransaction) throw error;
        return (await client.query(text, values)) as unknown as PostgresQueryResult<R>;
      }
    }

    function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(
      textOrCursor: string | PostgresCursor<R>,
      parameters?: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      if (typeof textOrCursor === 'string') return run<R>(textOrCursor, parameters ?? []);
      return (client as unknown as { query(cursor: PostgresCursor<R>): PostgresCursor<R> }).query(textOrCursor);
    }

    return {
      query,
      release() {
        // A retired connection may hold statements that no longer fit the schema: close it.
        client.release(state.retired || undefined);
      },
    };
  }

  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
