import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 19, point 4: quality evaluation (docs/quality-evaluation.md).
// - `quality_evaluation_jobs`: the last evaluation requested for each job part (one row per job,
//   replaced by the next request): its async request, the threshold it judges by, and once the
//   worker finished, the job's word-weighted score and whether it passed. While the async request
//   is unfinished, qeWarnings answers no segments of the job.
// - `quality_evaluation_segments`: the last result of each evaluated segment: the estimator's
//   score (null for warnings stored by segmentWarnings) and its warnings as JSON
//   ([{type, message, qeId}]); `origin` says which of the two wrote it.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await db.schema
    .createTable('quality_evaluation_jobs')
    .addColumn('job_id', ref, (c) => c.primaryKey().references('jobs.id').onDelete('cascade'))
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('async_request_id', ref, (c) => c.references('async_requests.id').onDelete('set null'))
    .addColumn('quality_profile_uid', 'varchar(255)')
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('lock_segments', bool, (c) => c.notNull().defaultTo(boolDefault(db, true)))
    .addColumn('confirm_segments', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('requested_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('requested_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('evaluated_at', 'varchar(32)')
    .addColumn('score', 'integer')
    .addColumn('words', 'integer')
    .addColumn('passed', bool)
    .addColumn('segment_count', 'integer')
    .addColumn('segments_below', 'integer')
    .execute();
  await db.schema
    .createIndex('quality_evaluation_jobs_organization_id_idx')
    .on('quality_evaluation_jobs')
    .column('organization_id')
    .execute();
  await db.schema
    .createIndex('quality_evaluation_jobs_async_request_id_idx')
    .on('quality_evaluation_jobs')
    .column('async_request_id')
    .execute();
  await db.schema
    .createIndex('quality_evaluation_jobs_requested_by_id_idx')
    .on('quality_evaluation_jobs')
    .column('requested_by_id')
    .execute();

  await db.schema
    .createTable('quality_evaluation_segments')
    .addColumn('job_id', ref, (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('segment_idx', 'integer', (c) => c.notNull())
    .addColumn('segment_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('origin', 'varchar(16)', (c) => c.notNull())
    .addColumn('score', 'integer')
    .addColumn('warnings', 'text', (c) => c.notNull())
    .addColumn('evaluation_id', 'varchar(255)')
    .addColumn('quality_profile_uid', 'varchar(255)')
    .addColumn('evaluated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('quality_evaluation_segments_pk', ['job_id', 'segment_idx'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quality_evaluation_segments').execute();
  await db.schema.dropTable('quality_evaluation_jobs').execute();
}
