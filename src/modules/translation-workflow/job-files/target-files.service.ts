import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { enqueue } from '../../../queue/queue.js';
import { releaseStoredFiles } from '../../../storage/stored-files.js';
import { createAsyncRequest } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import type { JobAccess } from '../kernel/index.js';
import { claimDownload, findTargetFile, forgetTargetBlob, insertTargetFile, jobSourceFile } from './job-files.repository.js';
import { FormatError } from '../../../formats/index.js';
import { TARGET_FILE_TASK, buildTargetFile } from './target-file.task.js';

/** The async request action of a target file (spec enum of AsyncRequestDto.action). */
export const TARGET_FILE_ACTION = 'EXPORT_COMPLETE_FILE';

/**
 * `PUT …/targetFile`: records the request for a target file (an async request, the
 * `job_target_files` row and the task that builds it) in one transaction. A file still being
 * imported is 409 and one whose import failed is 400: neither has segments to write.
 */
export async function requestTargetFile(deps: AppDeps, access: JobAccess, createdById: string): Promise<AsyncRequestRow> {
  const db = deps.database.db;
  const source = await jobSourceFile(db, access.job.jobSourceId);
  if (source.importStatus === 'RUNNING') throw errors.JobImportNotFinished({ targetFile: true });
  if (source.importStatus === 'ERROR') throw errors.JobImportFailed({ targetFile: true });
  const project = access.project.project;
  const now = deps.clock().toISOString();
  const request = await db.transaction().execute(async (trx) => {
    const asyncRequest = await createAsyncRequest(deps, trx, {
      organizationId: project.organizationId,
      createdById,
      action: TARGET_FILE_ACTION,
      project: { uid: project.uid, name: project.name },
    });
    const asyncRequestId = asyncRequest.id;
    await insertTargetFile(trx, { asyncRequestId, jobId: access.job.id, filename: source.filename, now });
    await enqueue(
      trx,
      { kind: TARGET_FILE_TASK, payload: { asyncRequestId }, organizationId: project.organizationId, asyncRequestId },
      deps.clock(),
    );
    return asyncRequest;
  });
  deps.taskWakeup.notify();
  return request;
}

/**
 * `GET /api2/v1/…/targetFile`, the older synchronous download (issue 13): the same target file as
 * the async request builds (buildTargetFile of the task), built while the client waits and sent at
 * once. The same refusals as `PUT …/targetFile` (409 while importing, 400 when the import failed);
 * a file the filter cannot write is 409 TargetFileFailed. The built bytes are a blob no record
 * holds: the orphan sweeper removes them after its grace period (src/storage/orphan-sweeper.ts).
 */
export async function buildTargetFileNow(deps: AppDeps, access: JobAccess): Promise<DownloadableTargetFile> {
  const source = await jobSourceFile(deps.database.db, access.job.jobSourceId);
  if (source.importStatus === 'RUNNING') throw errors.JobImportNotFinished({ targetFile: true });
  if (source.importStatus === 'ERROR') throw errors.JobImportFailed({ targetFile: true });
  const { job } = access;
  const work = {
    sha256: null,
    job: { id: job.id, jobSourceId: job.jobSourceId, targetLang: job.targetLang, workflowLevel: Number(job.workflowLevel) },
    source,
  };
  try {
    const blob = await buildTargetFile(deps, work);
    return { asyncRequestId: '', filename: source.filename, sha256: blob.sha256, contentType: source.contentType };
  } catch (error) {
    if (error instanceof FormatError) throw errors.TargetFileFailed({ reason: error.message });
    throw error;
  }
}

export interface DownloadableTargetFile {
  asyncRequestId: string;
  filename: string;
  sha256: string;
  contentType: string | null;
}

/**
 * Claims the one download of a target file: 404 for an id that is not a target file of this job,
 * 410 once it was downloaded, 409 while it is being built or when building it failed.
 */
export async function claimTargetFile(deps: AppDeps, access: JobAccess, asyncRequestId: string): Promise<DownloadableTargetFile> {
  const db = deps.database.db;
  const file = await findTargetFile(db, access.job.id, asyncRequestId);
  if (!file) throw errors.ResourceNotFound({ what: 'Target file', reason: 'the async request did not ask for a target file of this job' });
  if (file.downloadedAt !== null) throw alreadyDownloaded();
  if (file.finishedAt === null) throw errors.TargetFileNotReady();
  const failure = file.response ? ((JSON.parse(file.response) as { errorCode?: string | null; errorDesc?: string | null }) ?? {}) : {};
  if (failure.errorCode || file.sha256 === null) {
    throw errors.TargetFileFailed({ reason: failure.errorDesc ?? undefined });
  }
  if (!(await claimDownload(db, asyncRequestId, deps.clock().toISOString()))) throw alreadyDownloaded();
  const source = await jobSourceFile(db, access.job.jobSourceId);
  return { asyncRequestId, filename: file.filename, sha256: file.sha256, contentType: source.contentType };
}

const alreadyDownloaded = () => errors.TargetFileAlreadyDownloaded();

/** After the one download: the row keeps its record, the blob goes unless something else holds it. */
export async function releaseDownloadedTargetFile(deps: AppDeps, file: DownloadableTargetFile): Promise<void> {
  await forgetTargetBlob(deps.database.db, file.asyncRequestId);
  await releaseStoredFiles(deps, [file.sha256]);
}
