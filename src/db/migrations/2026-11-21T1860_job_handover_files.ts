import type { Kysely } from 'kysely';
import { refType } from './dialect.js';

/**
 * Handover files of jobs (docs/job-content-and-handovers.md): one file per job at most, uploaded
 * by its provider (or a manager) for the project's managers. One upload for several jobs gives
 * each job a row with the same `file_uid` and blob. The blob is a stored file, released when the
 * row goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  await db.schema
    .createTable('job_handover_files')
    .addColumn('job_id', ref, (c) => c.primaryKey().references('jobs.id').onDelete('cascade'))
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('file_uid', 'varchar(64)', (c) => c.notNull())
    .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('stored_files.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  for (const column of ['file_uid', 'sha256']) {
    await db.schema.createIndex(`job_handover_files_${column}_idx`).on('job_handover_files').column(column).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_handover_files').execute();
}
