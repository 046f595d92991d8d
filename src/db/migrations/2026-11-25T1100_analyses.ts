import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 15: analyses (docs/analysis.md).
// - `analyses`: one per analysis; `status` RUNNING until its task has written every result, then
//   OK (or ERROR); `settings` is the resolved AnalysisSettings (JSON); `deleted_at` marks a delete
//   without purge. `inner_id` numbers the analyses of a project (projects.last_analysis_inner_id).
// - `analysis_language_parts`, `analysis_jobs`: the parts and jobs, created with the analysis;
//   `tallies` (JSON category -> {segments, wordHundredths, characters}) is null until the task
//   finished, and every part and job of one analysis gets its tallies in one transaction, so no
//   half-written analysis is ever visible. A job row keeps the job's uid, file name and inner id:
//   an analysis outlives a deleted job.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  await db.schema
    .alterTable('projects')
    .addColumn('last_analysis_inner_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable('analyses'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', ref, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('inner_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('provider_user_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('provider_vendor_id', ref, (c) => c.references('vendors.id').onDelete('set null'))
    .addColumn('net_rate_scheme_id', ref, (c) => c.references('net_rate_schemes.id').onDelete('set null'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('async_request_id', ref, (c) => c.references('async_requests.id').onDelete('set null'))
    .addColumn('outdated', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('deleted_at', 'varchar(32)')
    .addUniqueConstraint('analyses_project_inner_id_key', ['project_id', 'inner_id'])
    .execute();
  for (const column of [
    'organization_id',
    'provider_user_id',
    'provider_vendor_id',
    'net_rate_scheme_id',
    'async_request_id',
    'created_by_id',
  ]) {
    await db.schema
      .createIndex(`analyses_${column.replace(/_id$/, '')}_idx`)
      .on('analyses')
      .column(column)
      .execute();
  }

  await withId(db, db.schema.createTable('analysis_language_parts'))
    .addColumn('analysis_id', ref, (c) => c.notNull().references('analyses.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('source_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('trans_memories', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tallies', 'text')
    .execute();
  await db.schema
    .createIndex('analysis_language_parts_analysis_idx')
    .on('analysis_language_parts')
    .columns(['analysis_id', 'position'])
    .execute();

  await withId(db, db.schema.createTable('analysis_jobs'))
    .addColumn('analysis_id', ref, (c) => c.notNull().references('analyses.id').onDelete('cascade'))
    .addColumn('language_part_id', ref, (c) => c.notNull().references('analysis_language_parts.id').onDelete('cascade'))
    .addColumn('job_id', ref, (c) => c.references('jobs.id').onDelete('set null'))
    .addColumn('job_uid', 'varchar(64)', (c) => c.notNull())
    .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
    .addColumn('inner_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('tallies', 'text')
    .execute();
  await db.schema.createIndex('analysis_jobs_part_idx').on('analysis_jobs').columns(['language_part_id', 'position']).execute();
  await db.schema.createIndex('analysis_jobs_analysis_idx').on('analysis_jobs').column('analysis_id').execute();
  await db.schema.createIndex('analysis_jobs_job_idx').on('analysis_jobs').column('job_id').execute();
  await db.schema.createIndex('analysis_jobs_job_uid_idx').on('analysis_jobs').column('job_uid').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analysis_jobs').execute();
  await db.schema.dropTable('analysis_language_parts').execute();
  await db.schema.dropTable('analyses').execute();
  await db.schema.alterTable('projects').dropColumn('last_analysis_inner_id').execute();
}
