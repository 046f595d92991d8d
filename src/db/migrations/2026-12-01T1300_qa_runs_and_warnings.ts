import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 19, points 2 and 5: QA runs and their warnings (docs/qa-runs-and-warnings.md).
// - `qa_runs`: the last QA run of each job (one row per job, replaced by the next run). `warnings`
//   is the run's warnings in a compact JSON array ({s: segment index, id, t: type, k: key,
//   i: ignorable}); `complete` is true when the run covered every segment of the job (a run on
//   some segments merges into the job's last run and leaves it as complete as it was).
// - `qa_ignored_warnings`: warnings ignored on a job, by warning id. A warning's id is derived
//   from the job, the segment, the warning's key and a hash of the target, so a row stops
//   matching when the segment's target changes.
// - `qa_ignored_checks`: warning types ignored on one segment (updateIgnoredChecks), with the
//   hash of the target they were ignored for.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await db.schema
    .createTable('qa_runs')
    .addColumn('job_id', ref, (c) => c.primaryKey().references('jobs.id').onDelete('cascade'))
    .addColumn('ran_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ran_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('complete', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('segment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('warning_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('warnings', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('qa_runs_ran_by_id_idx').on('qa_runs').column('ran_by_id').execute();

  await db.schema
    .createTable('qa_ignored_warnings')
    .addColumn('job_id', ref, (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('warning_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('segment_idx', 'integer', (c) => c.notNull())
    .addColumn('ignored_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ignored_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addPrimaryKeyConstraint('qa_ignored_warnings_pk', ['job_id', 'warning_id'])
    .execute();
  await db.schema.createIndex('qa_ignored_warnings_ignored_by_id_idx').on('qa_ignored_warnings').column('ignored_by_id').execute();

  await db.schema
    .createTable('qa_ignored_checks')
    .addColumn('job_id', ref, (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('segment_idx', 'integer', (c) => c.notNull())
    .addColumn('warning_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_hash', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('qa_ignored_checks_pk', ['job_id', 'segment_idx', 'warning_type'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('qa_ignored_checks').execute();
  await db.schema.dropTable('qa_ignored_warnings').execute();
  await db.schema.dropTable('qa_runs').execute();
}
