import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { Caller } from '../../../http/access.js';
import { ApiError, forbidden, invalid, notFound } from '../../../errors/index.js';
import { memsourceHeader, octetStreamBody, uploadFilename } from '../../../http/uploads.js';
import { putUpload, recordStoredFile, releaseStoredFiles } from '../../../storage/stored-files.js';
import { sendStoredFile, sendZip } from '../../../http/downloads.js';
import { MULTILINGUAL_FORMATS } from '../job-operations/index.js';
import { requireJob } from '../kernel/index.js';
import type { JobRow } from '../kernel/index.js';
import { requireProject } from '../kernel/index.js';
import { withUploads } from '../../../http/multipart-uploads.js';

/**
 * Handover files (docs/job-content-and-handovers.md): a file a job's provider hands over with
 * the work (a query list, a report), one per job; a new upload replaces the job's previous one.
 * The project's `fileHandover` setting must be on to upload.
 */

/** The `Memsource` header of an upload: spec `JobPartReferences` (example `{"jobs":[{"uid":"…"}]}`). */
export const HandoverUploadHeader = Type.Object({
  jobs: Type.Array(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }), { minItems: 1, maxItems: 100 }),
});

export interface HandoverFile {
  fileId: string;
  filename: string;
}

/** Stores the uploaded file as the handover file of every job in the header. */
export async function uploadHandover(deps: AppDeps, caller: Caller, projectUid: string, request: FastifyRequest): Promise<HandoverFile> {
  const db = deps.database.db;
  const { project } = await requireProject(db, caller, projectUid, 'view');
  const header = memsourceHeader(request, HandoverUploadHeader) as { jobs: { uid: string }[] };
  const jobs: JobRow[] = [];
  for (const uid of new Set(header.jobs.map((j) => j.uid))) jobs.push(await handoverJob(deps, caller, projectUid, uid));
  if (!bool(project.fileHandover)) {
    throw new ApiError(
      'invalid',
      'FileHandoverDisabled',
      'File handover is off for this project: turn on the project’s fileHandover setting first.',
      { details: [{ field: 'fileHandover', message: 'is false' }] },
    );
  }
  const filename = uploadFilename(request);
  const contentType = 'application/octet-stream';
  const blob = await putUpload(deps, octetStreamBody(request));
  const fileUid = newUid();
  const now = deps.clock().toISOString();
  const replaced = await withUploads(deps, [blob], () =>
    db.transaction().execute(async (trx) => {
      await recordStoredFile(deps, trx, blob);
      const jobIds = jobs.map((j) => j.id);
      const previous = await trx.selectFrom('jobHandoverFiles').select('sha256').where('jobId', 'in', jobIds).execute();
      await trx.deleteFrom('jobHandoverFiles').where('jobId', 'in', jobIds).execute();
      await trx
        .insertInto('jobHandoverFiles')
        .values(
          jobs.map((job) => ({
            jobId: job.id,
            organizationId: job.organizationId,
            fileUid,
            filename,
            sha256: blob.sha256,
            size: blob.size,
            contentType,
            createdAt: now,
            createdById: caller.userId,
          })),
        )
        .execute();
      return previous.map((p) => p.sha256);
    }),
  );
  await releaseStoredFiles(deps, replaced);
  return { fileId: fileUid, filename };
}

/**
 * A job that may get a handover file from the caller: providers of the job and those who may edit
 * the project; not split or multilingual jobs (spec: handovers do not support them).
 */
async function handoverJob(deps: AppDeps, caller: Caller, projectUid: string, jobUid: string): Promise<JobRow> {
  const access = await requireJob(deps.database.db, caller, projectUid, jobUid, 'view');
  if (!access.project.canEdit && !access.isProvider)
    throw forbidden('Only the job’s providers and those who may edit the project upload its handover file.');
  const job = access.job;
  if (job.beginIndex !== null || job.endIndex !== null)
    throw invalid(`Job ${job.uid} is a split job; split jobs have no handover file.`, [{ field: 'jobs', message: 'split job' }]);
  const source = await deps.database.db
    .selectFrom('jobSources')
    .select('format')
    .where('id', '=', job.jobSourceId)
    .executeTakeFirstOrThrow();
  if (source.format !== null && MULTILINGUAL_FORMATS.includes(source.format))
    throw invalid(`Job ${job.uid} is a multilingual job; multilingual jobs have no handover file.`, [
      { field: 'jobs', message: 'multilingual job' },
    ]);
  return job;
}

interface HandoverRow {
  jobId: string;
  fileUid: string;
  filename: string;
  sha256: string;
  size: number | string;
  contentType: string | null;
}

/** The handover files of the project's jobs the caller sees (linguists: their own jobs), optionally only of `jobUids`. */
async function visibleHandovers(
  deps: AppDeps,
  caller: Caller,
  projectUid: string,
  jobUids: readonly string[] | null,
): Promise<HandoverRow[]> {
  const db = deps.database.db;
  const access = await requireProject(db, caller, projectUid, 'view');
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
    .where('jobs.projectId', '=', access.project.id);
  if (jobUids !== null) query = query.where('jobs.uid', 'in', jobUids.length ? [...jobUids] : ['-']);
  if (access.view === 'LINGUIST') {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('jobProviders')
          .select('jobProviders.id')
          .whereRef('jobProviders.jobId', '=', 'jobs.id')
          .where('jobProviders.userId', '=', caller.userId),
      ),
    );
  }
  return query.orderBy('jobHandoverFiles.jobId').execute();
}

/** One handover file as itself, several as a ZIP (one entry per upload); 404 when none matched. */
export async function sendHandovers(
  deps: AppDeps,
  reply: FastifyReply,
  caller: Caller,
  projectUid: string,
  jobUids: readonly string[] | null,
): Promise<FastifyReply> {
  const rows = await visibleHandovers(deps, caller, projectUid, jobUids);
  const uploads = [...new Map(rows.map((r) => [r.fileUid, r])).values()];
  if (uploads.length === 0) throw notFound('Handover file');
  if (uploads.length === 1) return sendStoredFile(deps, reply, uploads[0]!);
  return sendZip(deps, reply, 'handover-files.zip', uploads);
}

/** Deletes the handover files of the listed jobs (edit rights); 404 when none of them has one. */
export async function deleteHandovers(deps: AppDeps, caller: Caller, projectUid: string, jobUids: readonly string[]): Promise<void> {
  const db = deps.database.db;
  const jobIds: string[] = [];
  for (const uid of new Set(jobUids)) jobIds.push((await requireJob(db, caller, projectUid, uid, 'edit')).job.id);
  const rows = await db.selectFrom('jobHandoverFiles').select('sha256').where('jobId', 'in', jobIds).execute();
  if (rows.length === 0) throw notFound('Handover file');
  await db.deleteFrom('jobHandoverFiles').where('jobId', 'in', jobIds).execute();
  await releaseStoredFiles(
    deps,
    rows.map((r) => r.sha256),
  );
}
