import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { memsourceHeader, octetStreamBody, uploadFilename } from '../../../http/uploads.js';
import { putUpload, recordStoredFile, releaseStoredFiles } from '../../../storage/stored-files.js';
import { sendStoredFile, sendZip } from '../../../http/downloads.js';
import { MULTILINGUAL_FORMATS } from '../job-operations/index.js';
import { requireJobOf } from '../kernel/index.js';
import type { JobRow, ProjectAccess } from '../kernel/index.js';
import { withUploads } from '../../../http/multipart-uploads.js';
import {
  deleteHandoverFiles,
  handoverBlobsOf,
  jobSourceFormat,
  replaceHandoverFiles,
  visibleHandoverFiles,
} from './file-handovers.repository.js';

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
export async function uploadHandover(deps: AppDeps, caller: Caller, access: ProjectAccess, request: FastifyRequest): Promise<HandoverFile> {
  const db = deps.database.db;
  const header = memsourceHeader(request, HandoverUploadHeader) as { jobs: { uid: string }[] };
  const jobs: JobRow[] = [];
  for (const uid of new Set(header.jobs.map((j) => j.uid))) jobs.push(await handoverJob(deps, caller, access, uid));
  if (!bool(access.project.fileHandover)) {
    throw errors.FileHandoverDisabled();
  }
  const filename = uploadFilename(request);
  const contentType = 'application/octet-stream';
  const blob = await putUpload(deps, octetStreamBody(request));
  const fileUid = newUid();
  const now = deps.clock().toISOString();
  const replaced = await withUploads(deps, [blob], () =>
    db.transaction().execute(async (trx) => {
      await recordStoredFile(deps, trx, blob);
      return replaceHandoverFiles(trx, jobs, { fileUid, filename, blob, contentType, now, createdById: caller.userId });
    }),
  );
  await releaseStoredFiles(deps, replaced);
  return { fileId: fileUid, filename };
}

/**
 * A job that may get a handover file from the caller: providers of the job and those who may edit
 * the project (the job's `translate`); not split or multilingual jobs (spec: handovers do not support them).
 */
async function handoverJob(deps: AppDeps, caller: Caller, project: ProjectAccess, jobUid: string): Promise<JobRow> {
  const { job } = await requireJobOf(deps.database.db, caller, project, jobUid, 'translate');
  if (job.beginIndex !== null || job.endIndex !== null)
    throw errors.InvalidArguments({
      reason: `Job ${job.uid} is a split job; split jobs have no handover file.`,
      details: [{ field: 'jobs', message: 'split job' }],
    });
  const format = await jobSourceFormat(deps.database.db, job);
  if (format !== null && MULTILINGUAL_FORMATS.includes(format))
    throw errors.InvalidArguments({
      reason: `Job ${job.uid} is a multilingual job; multilingual jobs have no handover file.`,
      details: [{ field: 'jobs', message: 'multilingual job' }],
    });
  return job;
}

/**
 * The handover files of the project's jobs the caller sees (linguists: their own jobs), optionally
 * only of `jobUids`: one file as itself, several as a ZIP (one entry per upload); 404 when none matched.
 */
export async function sendHandovers(
  deps: AppDeps,
  reply: FastifyReply,
  caller: Caller,
  access: ProjectAccess,
  jobUids: readonly string[] | null,
): Promise<FastifyReply> {
  const rows = await visibleHandoverFiles(deps.database.db, caller, access.project.id, jobUids);
  const uploads = [...new Map(rows.map((r) => [r.fileUid, r])).values()];
  if (uploads.length === 0) throw errors.ResourceNotFound({ what: 'Handover file' });
  if (uploads.length === 1) return sendStoredFile(deps, reply, uploads[0]!);
  return sendZip(deps, reply, 'handover-files.zip', uploads);
}

/** Deletes the handover files of the listed jobs (edit rights on each); 404 when none of them has one. */
export async function deleteHandovers(deps: AppDeps, caller: Caller, access: ProjectAccess, jobUids: readonly string[]): Promise<void> {
  const db = deps.database.db;
  const jobIds: string[] = [];
  for (const uid of new Set(jobUids)) jobIds.push((await requireJobOf(db, caller, access, uid, 'edit')).job.id);
  const blobs = await handoverBlobsOf(db, jobIds);
  if (blobs.length === 0) throw errors.ResourceNotFound({ what: 'Handover file' });
  await deleteHandoverFiles(db, jobIds);
  await releaseStoredFiles(deps, blobs);
}
