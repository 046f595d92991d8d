import { Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

/** Brings the schema up to date; throws with the failing migration's name on error. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  // NOTE: on PostgreSQL, Kysely looks for its bookkeeping tables in every schema of the database
  // unless told which one, and may find another installation's (or another test's) tables.
  let schema = database.schema;
  if (database.dialect === 'postgres' && !schema) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
    schema = rows[0]?.schema ?? null;
  }
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
