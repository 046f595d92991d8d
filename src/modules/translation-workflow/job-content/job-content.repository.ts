import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { JobRow } from '../kernel/index.js';

/** Queries of the job content operations. */

/** The import status of the job's file (`RUNNING`, `OK`, `ERROR`). */
export async function jobImportStatus(db: Kysely<DB>, job: JobRow): Promise<string> {
  const source = await db.selectFrom('jobSources').select('importStatus').where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
  return source.importStatus;
}

/** The uid of the job's file. */
export async function jobSourceUid(db: Kysely<DB>, job: JobRow): Promise<string> {
  const row = await db.selectFrom('jobSources').select('uid').where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
  return row.uid;
}

/** Every job of the project at `workflowLevel`, with its file's name and import status, oldest first. */
export async function projectJobsAtLevel(db: Kysely<DB>, projectId: string, workflowLevel: number) {
  return db
    .selectFrom('jobs')
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .selectAll('jobs')
    .select(['jobSources.filename', 'jobSources.importStatus'])
    .where('jobs.projectId', '=', projectId)
    .where('jobs.workflowLevel', '=', workflowLevel)
    .orderBy('jobs.id')
    .execute();
}

/** The stored import settings document of the job's file (JSON). */
export async function jobSourceImportSettings(db: Kysely<DB>, job: JobRow): Promise<string> {
  const source = await db.selectFrom('jobSources').select('importSettings').where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
  return source.importSettings;
}

/** Replaces the import settings document of the job's file (shared by the file's jobs). */
export async function writeJobSourceImportSettings(db: Kysely<DB>, job: JobRow, document: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('jobSources')
    .set({ importSettings: JSON.stringify(document) })
    .where('id', '=', job.jobSourceId)
    .execute();
}
