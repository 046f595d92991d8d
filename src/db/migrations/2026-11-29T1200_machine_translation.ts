import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 17: machine translation and pre-translation (docs/machine-translation.md).
// - `mt_settings`: an organization's MT engine settings. `args` is a JSON object of the engine's
//   non-secret arguments (the Apertium server's URL); `credentials` the engine's secrets, sealed
//   with AES-256-GCM under the installation's key (never in the database in the clear).
// - `mt_settings_assignments`: which settings a project or a template uses, for every target
//   language (`target_lang` null) or per target language. Removed with the settings.
// - `mt_cache`: translations an engine gave, by settings, languages and SHA-256 of the text sent
//   (after tags and glossary terms were protected), so that the same text is never sent twice
//   within the cache's lifetime; `used_at` drives eviction.
// - `mt_usage`: characters sent to engines per organization, month (`YYYY-MM`) and settings uid
//   (kept without a foreign key: usage outlives the settings).
// - `pre_translations`: one row per pre-translation request: its settings, jobs, where it has got
//   to (`job_position`, `next_idx`, committed with each page of segments) and its counts.
// - `job_segments`: `locked`, and the origin of a target that pre-translation or MT filled:
//   `origin` (`tm`, `mt`, `nt`), `origin_score` (0..1.01), `origin_resource` (the TM's or the MT
//   settings' uid), `mt_warnings` (JSON array of the warnings MT left, e.g. a tag it misplaced).
// - `async_requests`: `progress_done` and `progress_total`, what a long request has done of how
//   much (segments of a pre-translation), shown while it runs; null for requests that report none.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await withId(db, db.schema.createTable('mt_settings'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('is_default', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('include_tags', bool, (c) => c.notNull().defaultTo(boolDefault(db, true)))
    .addColumn('args', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('credentials', 'text')
    .addColumn('langs', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('modified_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mt_settings_organization_idx').on('mt_settings').columns(['organization_id', 'name']).execute();
  await db.schema.createIndex('mt_settings_created_by_id_idx').on('mt_settings').column('created_by_id').execute();

  await withId(db, db.schema.createTable('mt_settings_assignments'))
    .addColumn('project_id', ref, (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('template_id', ref, (c) => c.references('project_templates.id').onDelete('cascade'))
    .addColumn('target_lang', 'varchar(32)')
    .addColumn('mt_settings_id', ref, (c) => c.notNull().references('mt_settings.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('mt_settings_assignments_project_idx')
    .on('mt_settings_assignments')
    .columns(['project_id', 'target_lang'])
    .execute();
  await db.schema
    .createIndex('mt_settings_assignments_template_idx')
    .on('mt_settings_assignments')
    .columns(['template_id', 'target_lang'])
    .execute();
  await db.schema.createIndex('mt_settings_assignments_settings_idx').on('mt_settings_assignments').column('mt_settings_id').execute();

  await withId(db, db.schema.createTable('mt_cache'))
    .addColumn('mt_settings_id', ref, (c) => c.notNull().references('mt_settings.id').onDelete('cascade'))
    .addColumn('source_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('text_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('translation', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mt_cache_key_idx')
    .unique()
    .on('mt_cache')
    .columns(['mt_settings_id', 'source_lang', 'target_lang', 'text_key'])
    .execute();
  await db.schema.createIndex('mt_cache_used_at_idx').on('mt_cache').column('used_at').execute();

  await withId(db, db.schema.createTable('mt_usage'))
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('mt_settings_uid', 'varchar(64)', (c) => c.notNull())
    .addColumn('characters', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('mt_usage_key_idx')
    .unique()
    .on('mt_usage')
    .columns(['organization_id', 'month', 'mt_settings_uid'])
    .execute();

  await db.schema
    .createTable('pre_translations')
    .addColumn('async_request_id', ref, (c) => c.primaryKey().references('async_requests.id').onDelete('cascade'))
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', ref, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('job_ids', 'text', (c) => c.notNull())
    .addColumn('segment_filters', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('job_position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_idx', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('total_segments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done_segments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counts', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('pre_translations_project_idx').on('pre_translations').column('project_id').execute();
  await db.schema.createIndex('pre_translations_organization_idx').on('pre_translations').column('organization_id').execute();
  await db.schema.createIndex('pre_translations_created_by_id_idx').on('pre_translations').column('created_by_id').execute();

  await db.schema.alterTable('async_requests').addColumn('progress_done', 'integer').execute();
  await db.schema.alterTable('async_requests').addColumn('progress_total', 'integer').execute();

  await db.schema
    .alterTable('job_segments')
    .addColumn('locked', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .execute();
  await db.schema.alterTable('job_segments').addColumn('origin', 'varchar(8)').execute();
  await db.schema.alterTable('job_segments').addColumn('origin_score', 'real').execute();
  await db.schema.alterTable('job_segments').addColumn('origin_resource', 'varchar(64)').execute();
  await db.schema.alterTable('job_segments').addColumn('mt_warnings', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['mt_warnings', 'origin_resource', 'origin_score', 'origin', 'locked']) {
    await db.schema.alterTable('job_segments').dropColumn(column).execute();
  }
  await db.schema.alterTable('async_requests').dropColumn('progress_total').execute();
  await db.schema.alterTable('async_requests').dropColumn('progress_done').execute();
  await db.schema.dropTable('pre_translations').execute();
  await db.schema.dropTable('mt_usage').execute();
  await db.schema.dropTable('mt_cache').execute();
  await db.schema.dropTable('mt_settings_assignments').execute();
  await db.schema.dropTable('mt_settings').execute();
}
