import { PostgresAdapter } from 'kysely';

/** Whether a Kysely handle (or transaction) talks to PostgreSQL, for the few places that differ. */
export function isPostgres(db: { getExecutor(): { adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
