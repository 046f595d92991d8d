import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('organizations'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('users'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('role', 'varchar(32)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('active', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, true)))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('deleted_at', 'varchar(32)')
    .execute();
  // User names identify a person across the whole installation (they log in with it).
  await db.schema.createIndex('users_user_name_unique').on('users').column('user_name').unique().execute();
  await db.schema.createIndex('users_organization_idx').on('users').columns(['organization_id', 'id']).execute();

  await withId(db, db.schema.createTable('login_tokens'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', refType(db), (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('login_tokens_user_idx').on('login_tokens').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_tokens').execute();
  await db.schema.dropTable('users').execute();
  await db.schema.dropTable('organizations').execute();
}
