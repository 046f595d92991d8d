import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Asynchronous requests (the records of long operations) and webhooks with their calls (the
// outbox of deliveries; each call is sent by a task of the queue).

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('async_requests'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('parent_id', refType(db), (c) => c.references('async_requests.id').onDelete('set null'))
    // Projects do not exist yet; the reference is kept as the uid and name the response shows.
    .addColumn('project_uid', 'varchar(64)')
    .addColumn('project_name', 'varchar(255)')
    .addColumn('callback_url', 'varchar(2048)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    // JSON of AsyncResponseDto; null until the request has finished.
    .addColumn('response', 'text')
    .execute();
  await db.schema.createIndex('async_requests_pending_idx').on('async_requests').columns(['organization_id', 'finished_at']).execute();

  await withId(db, db.schema.createTable('webhooks'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)')
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret_token', 'varchar(255)')
    .addColumn('signing_secret', 'varchar(128)', (c) => c.notNull())
    .addColumn('hidden', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_modified_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('webhooks_organization_idx').on('webhooks').columns(['organization_id', 'status']).execute();

  await withId(db, db.schema.createTable('webhook_calls'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('webhook_id', refType(db), (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_uid', 'varchar(64)', (c) => c.notNull())
    .addColumn('parent_uid', 'varchar(64)')
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('forced', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('status_code', 'integer')
    .addColumn('error_message', 'varchar(2048)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_attempt_at', 'varchar(32)')
    .addColumn('delivered_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('webhook_calls_organization_idx').on('webhook_calls').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('webhook_calls_webhook_idx').on('webhook_calls').columns(['webhook_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_calls').execute();
  await db.schema.dropTable('webhooks').execute();
  await db.schema.dropTable('async_requests').execute();
}
