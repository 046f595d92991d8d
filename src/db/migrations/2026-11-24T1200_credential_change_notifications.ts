import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * PostgreSQL: every committed change to what a credential stands for notifies
 * `opentms_credentials` (payload: the schema), so that every API process empties its cache of
 * verified credentials at once (src/modules/identity/authentication/credential-cache.ts).
 * Changes to columns that only record use (`users.last_login_at`, `api_tokens.last_used_at`,
 * `organizations.last_project_internal_id`) do not. SQLite has one process, which sees its own
 * writes: nothing to do there.
 */

/** Tables whose every update or delete may change a credential. */
const WHOLE_TABLES = ['login_tokens', 'service_accounts', 'signing_keys'];
/** Tables with a column that changes on use: a change to anything else notifies. */
const TOUCHED_TABLES: Record<string, string> = {
  users: 'last_login_at',
  api_tokens: 'last_used_at',
  organizations: 'last_project_internal_id',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create or replace function opentms_credentials_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('opentms_credentials', current_schema());
      return null;
    end
    $$`.execute(db);
  for (const table of WHOLE_TABLES) {
    await sql`create trigger ${sql.raw(`${table}_credentials_changed`)} after update or delete on ${sql.table(table)}
      for each statement execute function opentms_credentials_changed()`.execute(db);
  }
  for (const [table, usageColumn] of Object.entries(TOUCHED_TABLES)) {
    await sql`create trigger ${sql.raw(`${table}_credentials_changed`)} after update on ${sql.table(table)} for each row
      when ((to_jsonb(old) - ${sql.lit(usageColumn)}) is distinct from (to_jsonb(new) - ${sql.lit(usageColumn)}))
      execute function opentms_credentials_changed()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_credentials_deleted`)} after delete on ${sql.table(table)}
      for each statement execute function opentms_credentials_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of WHOLE_TABLES)
    await sql`drop trigger if exists ${sql.raw(`${table}_credentials_changed`)} on ${sql.table(table)}`.execute(db);
  for (const table of Object.keys(TOUCHED_TABLES)) {
    await sql`drop trigger if exists ${sql.raw(`${table}_credentials_changed`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger if exists ${sql.raw(`${table}_credentials_deleted`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function if exists opentms_credentials_changed()`.execute(db);
}
