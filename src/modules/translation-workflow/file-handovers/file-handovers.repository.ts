import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import type { StoredBlob } from '../../../storage/blob-store.js';
import type { JobRow } from '../kernel/index.js';
import { visibleJobsInProject } from '../kernel/index.js';

/** Queries of handover files (`job_handover_files`, one row per job). */

export interface HandoverRow {
  jobId: string;
  fileUid: string;
  filename: string;
  sha256: string;
  size: number | string;
  contentType: string | null;
}

/** The format of the job's file (the import filter's name), or null. */
export async function jobSourceFormat(db: Kysely<DB>, job: JobRow): Promise<string | null> {
  const source = await db.selectFrom('jobSources').select('format').where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
  return source.format;
}

/** Makes one upload the handover file of each of `jobs`; returns the blobs of the files it replaced. */
export async function replaceHandoverFiles(
  trx: Kysely<DB>,
  jobs: readonly JobRow[],
  file: { fileUid: string; filename: string; blob: StoredBlob; contentType: string; now: string; createdById: string },
): Promise<string[]> {
  const jobIds = jobs.map((j) => j.id);
  const previous = await trx.selectFrom('jobHandoverFiles').select('sha256').where('jobId', 'in', jobIds).execute();
  await trx.deleteFrom('jobHandoverFiles').where('jobId', 'in', jobIds).execute();
  await trx
    .insertInto('jobHandoverFiles')
    .values(
      jobs.map((job) => ({
        jobId: job.id,
        organizationId: job.organizationId,
        fileUid: file.fileUid,
        filename: file.filename,
        sha256: file.blob.sha256,
        size: file.blob.size,
        contentType: file.contentType,
        createdAt: file.now,
        createdById: file.createdById,
      })),
    )
    .execute();
  return previous.map((p) => p.sha256);
}

/** The handover files of the project's jobs the caller sees (linguists: their own jobs), optionally only of `jobUids`. */
export async function visibleHandoverFiles(
  db: Kysely<DB>,
  caller: Caller,
  projectId: string,
  jobUids: readonly string[] | null,
): Promise<HandoverRow[]> {
  let query = db
    .selectFrom('jobHandoverFiles')
    .innerJoin('jobs', 'jobs.id', 'jobHandoverFiles.jobId')
    .select([
      'jobHandoverFiles.jobId',
      'jobHandoverFiles.fileUid',
      'jobHandoverFiles.filename',
      'jobHandoverFiles.sha256',
      'jobHandoverFiles.size',
      'jobHandoverFiles.contentType',
    ])
    .where('jobs.projectId', '=', projectId)
    .where((eb) => visibleJobsInProject(eb, caller));
  if (jobUids !== null) query = query.where('jobs.uid', 'in', jobUids.length ? [...jobUids] : ['-']);
  return query.orderBy('jobHandoverFiles.jobId').execute();
}

/** The blobs of the handover files of jobs `jobIds`. */
export async function handoverBlobsOf(db: Kysely<DB>, jobIds: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('jobHandoverFiles')
    .select('sha256')
    .where('jobId', 'in', [...jobIds])
    .execute();
  return rows.map((r) => r.sha256);
}

export async function deleteHandoverFiles(db: Kysely<DB>, jobIds: readonly string[]): Promise<void> {
  await db
    .deleteFrom('jobHandoverFiles')
    .where('jobId', 'in', [...jobIds])
    .execute();
}
