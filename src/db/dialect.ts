import { PostgresAdapter } from 'kysely';
import type { Kysely } from 'kysely';

/** Whether a Kysely handle (or transaction) talks to PostgreSQL, for the few places that differ. */
export function isPostgres(db: Kysely<never> | Kysely<unknown> | { getExecutor(): { adapter: unknown } }): boolean {
  return (db as { getExecutor(): { adapter: unknown } }).getExecutor().adapter instanceof PostgresAdapter;
}
