import type { Kysely } from 'kysely';
import { refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 16: term base records (docs/terminology.md, "Records"). Concepts and terms, and the term
// bases of projects and templates, come in their own migrations.
// - `term_bases`: the records; `langs` a JSON array in the order given; `version` bumped by every
//   write transaction on the term base's terms (so that a process's term recognizer knows it is
//   stale); `deleted_at` for a delete without `purge`.
// References to setup records clear on delete (SET NULL), like TMs' (docs/setup-records.md).

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);

  await db.schema
    .alterTable('organizations')
    .addColumn('last_term_base_internal_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable('term_bases'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('internal_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('langs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('client_id', ref, (c) => c.references('clients.id').onDelete('set null'))
    .addColumn('business_unit_id', ref, (c) => c.references('business_units.id').onDelete('set null'))
    .addColumn('domain_id', ref, (c) => c.references('domains.id').onDelete('set null'))
    .addColumn('sub_domain_id', ref, (c) => c.references('sub_domains.id').onDelete('set null'))
    .addColumn('note', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('owner_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_async_request_id', ref, (c) => c.references('async_requests.id').onDelete('set null'))
    .addUniqueConstraint('term_bases_internal_id_unique', ['organization_id', 'internal_id'])
    .execute();
  await db.schema.createIndex('term_bases_organization_idx').on('term_bases').columns(['organization_id', 'id']).execute();
  for (const column of [
    'client_id',
    'business_unit_id',
    'domain_id',
    'sub_domain_id',
    'created_by_id',
    'owner_id',
    'last_async_request_id',
  ]) {
    await db.schema.createIndex(`term_bases_${column}_idx`).on('term_bases').column(column).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('term_bases').execute();
  await db.schema.alterTable('organizations').dropColumn('last_term_base_internal_id').execute();
}
