import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Identity and access: organization auth settings, role-specific user rights, bot users,
// sessions and impersonation on login tokens, personal API tokens, service accounts, JWT signing
// keys, login throttling and login history, and the clients table that GUEST users point to.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('is_system', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('sso_only', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('api_token_sso_enforced', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .execute();
  await db.schema.alterTable('organizations').addColumn('seat_limit', 'integer').execute();
  await db.schema.alterTable('organizations').addColumn('rate_limit_per_minute', 'integer').execute();

  await withId(db, db.schema.createTable('clients'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('clients_organization_name_unique').on('clients').columns(['organization_id', 'name']).unique().execute();

  // Role-specific settings (rights, locale lists, references) as one JSON document: which fields
  // exist depends on the role, and they are always read and written with the user.
  await db.schema
    .alterTable('users')
    .addColumn('role_settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('guest_client_id', refType(db), (c) => c.references('clients.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('is_bot', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('receive_newsletter', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, true)))
    .execute();
  await db.schema.alterTable('users').addColumn('last_login_at', 'varchar(32)').execute();
  await db.schema.alterTable('users').addColumn('sessions_invalidated_at', 'varchar(32)').execute();

  // Login tokens also carry browser sessions (kind 'session', with a CSRF token) and
  // "login as another user" (the impersonating admin).
  await db.schema
    .alterTable('login_tokens')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('login'))
    .execute();
  await db.schema.alterTable('login_tokens').addColumn('csrf_token_hash', 'varchar(64)').execute();
  await db.schema
    .alterTable('login_tokens')
    .addColumn('impersonator_id', refType(db), (c) => c.references('users.id').onDelete('cascade'))
    .execute();

  await withId(db, db.schema.createTable('api_tokens'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', refType(db), (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();

  await withId(db, db.schema.createTable('service_accounts'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('products', 'text', (c) => c.notNull())
    .addColumn('bot_user_id', refType(db), (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .execute();

  await withId(db, db.schema.createTable('signing_keys'))
    .addColumn('kid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('algorithm', 'varchar(16)', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('retired_at', 'varchar(32)')
    .execute();

  // Failed logins are counted per user name, whether or not the user exists, so that throttling
  // does not reveal which names exist.
  await db.schema
    .createTable('login_failures')
    .addColumn('user_name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .execute();

  await withId(db, db.schema.createTable('login_events'))
    .addColumn('user_id', refType(db), (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ip_address', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .execute();
  await db.schema.createIndex('login_events_user_idx').on('login_events').columns(['user_id', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['login_events', 'login_failures', 'signing_keys', 'service_accounts', 'api_tokens']) {
    await db.schema.dropTable(table).execute();
  }
  for (const column of ['impersonator_id', 'csrf_token_hash', 'kind'])
    await db.schema.alterTable('login_tokens').dropColumn(column).execute();
  for (const column of ['sessions_invalidated_at', 'last_login_at', 'receive_newsletter', 'is_bot', 'guest_client_id', 'role_settings']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
  await db.schema.dropTable('clients').execute();
  for (const column of ['rate_limit_per_minute', 'seat_limit', 'api_token_sso_enforced', 'sso_only', 'is_system']) {
    await db.schema.alterTable('organizations').dropColumn(column).execute();
  }
}
