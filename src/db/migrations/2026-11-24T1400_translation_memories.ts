import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 14: translation memories (docs/translation-memory.md, "Records").
// - `trans_memories`: the records; `version` is bumped by every write transaction on the TM's units
//   (the change feed the in-process indexes follow) and `reset_version` by clear-all and delete,
//   so that an index older than it rebuilds from scratch instead of reading tombstones.
// - `tm_units`: one row per source and translation in one target language; the unique key makes
//   "the same source and target again" an upsert and an import rerun after a kill -9 duplicate-free.
//   Deleted rows stay as tombstones (`deleted`) so that indexes of other processes learn of them.
// - `project_trans_memories` / `template_trans_memories`: the TMs of a project or template per
//   target language and workflow step, with read, write, penalty and order.
// References to setup records clear on delete (SET NULL), like projects' (docs/setup-records.md).

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await db.schema
    .alterTable('organizations')
    .addColumn('last_trans_memory_internal_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable('trans_memories'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('internal_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('source_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_langs', 'text', (c) => c.notNull().defaultTo('[]'))
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
    .addColumn('reset_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_async_request_id', ref, (c) => c.references('async_requests.id').onDelete('set null'))
    .addUniqueConstraint('trans_memories_internal_id_unique', ['organization_id', 'internal_id'])
    .execute();
  await db.schema.createIndex('trans_memories_organization_idx').on('trans_memories').columns(['organization_id', 'id']).execute();
  for (const column of [
    'client_id',
    'business_unit_id',
    'domain_id',
    'sub_domain_id',
    'created_by_id',
    'owner_id',
    'last_async_request_id',
  ]) {
    await db.schema.createIndex(`trans_memories_${column}_idx`).on('trans_memories').column(column).execute();
  }

  await withId(db, db.schema.createTable('tm_units'))
    .addColumn('tm_id', ref, (c) => c.notNull().references('trans_memories.id').onDelete('cascade'))
    .addColumn('target_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('source_hash', 'varchar(40)', (c) => c.notNull())
    .addColumn('target_hash', 'varchar(40)', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('source_tags', 'text')
    .addColumn('target_tags', 'text')
    .addColumn('previous_source', 'text')
    .addColumn('next_source', 'text')
    .addColumn('context_key', 'text')
    .addColumn('target_note', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('project_id', ref, (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('job_uid', 'varchar(64)')
    .addColumn('filename', 'text')
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('deleted', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addUniqueConstraint('tm_units_identity_unique', ['tm_id', 'target_lang', 'source_hash', 'target_hash'])
    .execute();
  await db.schema.createIndex('tm_units_version_idx').on('tm_units').columns(['tm_id', 'version']).execute();
  await db.schema.createIndex('tm_units_source_idx').on('tm_units').columns(['tm_id', 'source_hash']).execute();
  for (const column of ['created_by_id', 'modified_by_id', 'project_id']) {
    await db.schema.createIndex(`tm_units_${column}_idx`).on('tm_units').column(column).execute();
  }

  // The TMs of a project or template, per target language (null: all) and workflow step (null: all).
  for (const [table, owner, ownerTable, step, stepTable] of [
    ['project_trans_memories', 'project_id', 'projects', 'project_workflow_step_id', 'project_workflow_steps'],
    ['template_trans_memories', 'template_id', 'project_templates', 'template_workflow_step_id', 'template_workflow_steps'],
  ] as const) {
    await withId(db, db.schema.createTable(table))
      .addColumn(owner, ref, (c) => c.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
      .addColumn('trans_memory_id', ref, (c) => c.notNull().references('trans_memories.id').onDelete('cascade'))
      .addColumn('target_lang', 'varchar(32)')
      .addColumn(step, ref, (c) => c.references(`${stepTable}.id`).onDelete('cascade'))
      .addColumn('read_mode', bool, (c) => c.notNull().defaultTo(boolDefault(db, true)))
      .addColumn('write_mode', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
      .addColumn('penalty', 'real', (c) => c.notNull().defaultTo(0))
      .addColumn('apply_penalty_to101_only', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('order_enabled', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
      .execute();
    await db.schema.createIndex(`${table}_owner_idx`).on(table).column(owner).execute();
    await db.schema.createIndex(`${table}_tm_idx`).on(table).column('trans_memory_id').execute();
    await db.schema.createIndex(`${table}_step_idx`).on(table).column(step).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['template_trans_memories', 'project_trans_memories', 'tm_units', 'trans_memories']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('organizations').dropColumn('last_trans_memory_internal_id').execute();
}
