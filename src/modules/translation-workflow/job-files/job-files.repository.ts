import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { JobTargetFilesTable } from '../../../db/tables/projects.js';
import type { Db } from '../../../queue/types.js';
import type { CandidateTranslation, SegmentForTarget } from './target-content.js';

export type TargetFileRow = Selectable<JobTargetFilesTable>;

export interface JobSourceFile {
  id: string;
  filename: string;
  sha256: string;
  size: number | string;
  contentType: string | null;
  format: string | null;
  importSettings: string;
  importStatus: string;
}

/** The uploaded file a job was made from. */
export async function jobSourceFile(db: Db, jobSourceId: string): Promise<JobSourceFile> {
  const row = await db
    .selectFrom('jobSources')
    .select(['id', 'filename', 'sha256', 'size', 'contentType', 'format', 'importSettings', 'importStatus'])
    .where('id', '=', jobSourceId)
    .executeTakeFirstOrThrow();
  return { ...row, id: row.id };
}

export function insertTargetFile(
  db: Db,
  values: { asyncRequestId: string; jobId: string; filename: string; now: string },
): Promise<unknown> {
  return db
    .insertInto('jobTargetFiles')
    .values({
      asyncRequestId: values.asyncRequestId,
      jobId: values.jobId,
      filename: values.filename,
      sha256: null,
      createdAt: values.now,
      downloadedAt: null,
    })
    .execute();
}

/** The target file of async request `asyncRequestId` made for job `jobId`, with its request's state. */
export async function findTargetFile(db: Db, jobId: string, asyncRequestId: string) {
  if (!/^\d{1,18}$/.test(asyncRequestId)) return undefined;
  return db
    .selectFrom('jobTargetFiles')
    .innerJoin('asyncRequests', 'asyncRequests.id', 'jobTargetFiles.asyncRequestId')
    .select([
      'jobTargetFiles.asyncRequestId',
      'jobTargetFiles.filename',
      'jobTargetFiles.sha256',
      'jobTargetFiles.downloadedAt',
      'asyncRequests.finishedAt',
      'asyncRequests.response',
    ])
    .where('jobTargetFiles.jobId', '=', jobId)
    .where('jobTargetFiles.asyncRequestId', '=', asyncRequestId)
    .executeTakeFirst();
}

/** Marks a target file downloaded; false when another download got there first. */
export async function claimDownload(db: Db, asyncRequestId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('jobTargetFiles')
    .set({ downloadedAt: now })
    .where('asyncRequestId', '=', asyncRequestId)
    .where('downloadedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Drops a downloaded file's blob reference, so that releaseStoredFiles may remove it. */
export async function forgetTargetBlob(db: Db, asyncRequestId: string): Promise<void> {
  await db.updateTable('jobTargetFiles').set({ sha256: null }).where('asyncRequestId', '=', asyncRequestId).execute();
}

export interface TargetFileWork {
  sha256: string | null;
  job: { id: string; jobSourceId: string; targetLang: string; workflowLevel: number };
  source: JobSourceFile;
}

/** What the target-file task needs, or undefined when the row is gone (job deleted meanwhile). */
export async function findTargetFileWork(db: Kysely<DB>, asyncRequestId: string): Promise<TargetFileWork | undefined> {
  const row = await db
    .selectFrom('jobTargetFiles')
    .innerJoin('jobs', 'jobs.id', 'jobTargetFiles.jobId')
    .select(['jobTargetFiles.sha256', 'jobs.id as jobId', 'jobs.jobSourceId', 'jobs.targetLang', 'jobs.workflowLevel'])
    .where('jobTargetFiles.asyncRequestId', '=', asyncRequestId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    sha256: row.sha256,
    job: {
      id: row.jobId,
      jobSourceId: row.jobSourceId,
      targetLang: row.targetLang,
      workflowLevel: Number(row.workflowLevel),
    },
    source: await jobSourceFile(db, row.jobSourceId),
  };
}

export async function sourceSegmentsForTarget(db: Kysely<DB>, jobSourceId: string): Promise<SegmentForTarget[]> {
  const rows = await db
    .selectFrom('sourceSegments')
    .select(['idx', 'unitLocator', 'source', 'gapBefore', 'gapAfter', 'importedTarget'])
    .where('jobSourceId', '=', jobSourceId)
    .orderBy('idx')
    .execute();
  return rows.map((row) => ({ ...row, idx: Number(row.idx) }));
}

/** Translations of the jobs of the same file and target language at `job`'s workflow level or below. */
export async function candidateTranslations(db: Kysely<DB>, job: TargetFileWork['job']): Promise<CandidateTranslation[]> {
  const rows = await db
    .selectFrom('jobSegments')
    .innerJoin('jobs', 'jobs.id', 'jobSegments.jobId')
    .select(['jobSegments.idx', 'jobSegments.target', 'jobs.id as jobId', 'jobs.workflowLevel', 'jobs.beginIndex', 'jobs.endIndex'])
    .where('jobs.jobSourceId', '=', job.jobSourceId)
    .where('jobs.targetLang', '=', job.targetLang)
    .where('jobs.workflowLevel', '<=', job.workflowLevel)
    .execute();
  return rows.map((row) => ({
    idx: Number(row.idx),
    target: row.target,
    jobId: row.jobId,
    workflowLevel: Number(row.workflowLevel),
    beginIndex: row.beginIndex === null ? null : Number(row.beginIndex),
    endIndex: row.endIndex === null ? null : Number(row.endIndex),
  }));
}
