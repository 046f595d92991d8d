import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 16: the content of term bases and their place in projects and templates
// (docs/terminology.md, "Records").
// - `tb_concepts`: a term base's concepts. The domain and subdomains are the organization's records
//   (`domain_id`, `subdomains` a JSON array of subdomain ids); a name from an imported file that no
//   record has is kept as text (`domain_name`, `subdomain_names`) so that an export gives it back.
// - `tb_terms`: one row per term, in one language, of one concept. `text_key` is the lower-case
//   text cut to 200 characters: the index behind browse, prefix search and duplicate detection
//   (a full term can be longer than a PostgreSQL index row allows). `term_base_id` is the
//   concept's, denormalised for that index, without a foreign key of its own (the concept's
//   cascades).
// Imports write millions of rows here, so the tables carry no index an import does not need: the
// `created_by_id` / `modified_by_id` references have none (deleting a user, which is rare, scans
// the term tables to clear them: linear). Measured by bench/term-import.bench.ts.
// - `project_term_bases` / `template_term_bases`: the term bases of a project or template per
//   target language (null: all) and workflow step (null: all), with read, write, QA and the order.
// - `tb_transfers`: one term base import (its async request): the stored upload, the entries
//   committed so far (a rerun after a kill -9 skips them) and the terms created and updated.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await withId(db, db.schema.createTable('tb_concepts'))
    .addColumn('term_base_id', ref, (c) => c.notNull().references('term_bases.id').onDelete('cascade'))
    .addColumn('definition', 'text')
    .addColumn('domain_id', ref, (c) => c.references('domains.id').onDelete('set null'))
    .addColumn('domain_name', 'text')
    .addColumn('subdomains', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('subdomain_names', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('note', 'text')
    .addColumn('url', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('tb_concepts_term_base_idx').on('tb_concepts').columns(['term_base_id', 'id']).execute();
  await db.schema.createIndex('tb_concepts_domain_id_idx').on('tb_concepts').column('domain_id').execute();

  await withId(db, db.schema.createTable('tb_terms'))
    .addColumn('concept_id', ref, (c) => c.notNull().references('tb_concepts.id').onDelete('cascade'))
    .addColumn('term_base_id', ref, (c) => c.notNull())
    .addColumn('lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('text_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('New'))
    .addColumn('usage', 'text')
    .addColumn('forbidden', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('preferred', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('case_sensitive', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('exact_match', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('term_type', 'varchar(16)')
    .addColumn('part_of_speech', 'varchar(16)')
    .addColumn('gender', 'varchar(16)')
    .addColumn('number', 'varchar(16)')
    .addColumn('note', 'text')
    .addColumn('short_translation', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('tb_terms_text_idx').on('tb_terms').columns(['term_base_id', 'lang', 'text_key']).execute();
  await db.schema.createIndex('tb_terms_concept_idx').on('tb_terms').columns(['concept_id', 'lang']).execute();

  for (const [table, owner, ownerTable, step, stepTable] of [
    ['project_term_bases', 'project_id', 'projects', 'project_workflow_step_id', 'project_workflow_steps'],
    ['template_term_bases', 'template_id', 'project_templates', 'template_workflow_step_id', 'template_workflow_steps'],
  ] as const) {
    await withId(db, db.schema.createTable(table))
      .addColumn(owner, ref, (c) => c.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
      .addColumn('term_base_id', ref, (c) => c.notNull().references('term_bases.id').onDelete('cascade'))
      .addColumn('target_lang', 'varchar(32)')
      .addColumn(step, ref, (c) => c.references(`${stepTable}.id`).onDelete('cascade'))
      .addColumn('read_mode', bool, (c) => c.notNull().defaultTo(boolDefault(db, true)))
      .addColumn('write_mode', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
      .addColumn('quality_assurance', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
      .addColumn('position', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_owner_idx`).on(table).column(owner).execute();
    await db.schema.createIndex(`${table}_term_base_idx`).on(table).column('term_base_id').execute();
    await db.schema.createIndex(`${table}_step_idx`).on(table).column(step).execute();
  }

  await db.schema
    .createTable('tb_transfers')
    .addColumn('async_request_id', ref, (c) => c.primaryKey().references('async_requests.id').onDelete('cascade'))
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('term_base_id', ref, (c) => c.references('term_bases.id').onDelete('set null'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('filename', 'varchar(1024)')
    .addColumn('upload_sha256', 'varchar(64)', (c) => c.references('stored_files.sha256'))
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('entries', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_terms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_terms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped_terms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tb_transfers_organization_idx').on('tb_transfers').column('organization_id').execute();
  await db.schema.createIndex('tb_transfers_term_base_idx').on('tb_transfers').column('term_base_id').execute();
  await db.schema.createIndex('tb_transfers_upload_sha256_idx').on('tb_transfers').column('upload_sha256').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tb_transfers', 'template_term_bases', 'project_term_bases', 'tb_terms', 'tb_concepts']) {
    await db.schema.dropTable(table).execute();
  }
}
