import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { enqueue } from '../../../queue/queue.js';
import type { StoredBlob } from '../../../storage/blob-store.js';
import { recordStoredFile } from '../../../storage/stored-files.js';
import { createAsyncRequest } from '../../integration/async-requests/index.js';
import { assertOptionalOutboundUrl } from '../../../outbound/url-policy.js';
import type { OutboundPolicy } from '../../../outbound/url-policy.js';
import { requireJobOf } from '../kernel/index.js';
import type { JobRow, ProjectAccess } from '../kernel/index.js';
import { jobReferenceDtos } from '../kernel/index.js';
import type { JobSourceRow } from '../kernel/index.js';
import type { ProjectRow } from '../kernel/index.js';
import type { JobPartUpdateSource, JobUpdateSourceRequest } from './job-updates.schemas.js';
import { isTrue } from './job-updates.schemas.js';
import { extensionOf, FINAL_STATUSES } from './update-rules.js';
import { nextJobInnerId } from '../kernel/index.js';

/**
 * updateSource, the request side (docs/job-updates.md): the listed jobs are checked against the
 * description's restrictions before a byte is stored; then one transaction writes, per file the
 * jobs come from, a NEW job source (the uploaded file, to be imported), an UPDATE_SOURCE async
 * request and the `job.updateSource` task. The jobs move to their new source when its import
 * succeeded (update-source.task.ts), so until then they keep their file and translations.
 */

/** The jobs one old file hands over to its new source: the listed jobs' languages, every workflow level. */
export interface SourceUpdateGroup {
  oldSourceId: string;
  jobIds: string[];
}

export interface PlannedSourceUpdate {
  project: ProjectRow;
  groups: SourceUpdateGroup[];
  jobs: JobRow[];
  callbackUrl: string | null;
}

/** A .zip is refused by the description (an archive is not one job's file). */
export function refuseZip(filename: string): void {
  if (extensionOf(filename) === 'zip') throw errors.ZipNotAllowed();
}

const uidsOf = (jobs: readonly JobRow[]) => jobs.map((job) => job.uid);

/** The jobs of `job`'s file and language at every workflow level (the listed job included). */
async function jobsOfFileAndLanguage(db: Kysely<DB>, job: JobRow): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('jobSourceId', '=', job.jobSourceId)
    .where('targetLang', '=', job.targetLang)
    .orderBy('workflowLevel')
    .orderBy('id')
    .execute();
}

/** 409 while a file is still importing: its segments, which the update carries translations from, are not there yet. */
async function assertNotImporting(db: Kysely<DB>, sourceIds: readonly string[]): Promise<void> {
  const running = await db
    .selectFrom('jobSources')
    .select('filename')
    .where('id', 'in', [...sourceIds])
    .where('importStatus', '=', 'RUNNING')
    .execute();
  if (running.length) throw errors.JobImportNotFinished({ filenames: running.map((r) => r.filename) });
}

/** Checks the request and the jobs (edit rights, the description's job restrictions); stores nothing. */
export async function planSourceUpdate(
  db: Kysely<DB>,
  caller: Caller,
  project: ProjectAccess,
  request: JobUpdateSourceRequest,
  policy: OutboundPolicy,
): Promise<PlannedSourceUpdate> {
  if (isTrue(request.preTranslate)) {
    throw errors.NotSupportedYet({ option: 'preTranslate' });
  }
  const callbackUrl = assertOptionalOutboundUrl(request.callbackUrl, policy, 'callbackUrl');
  const listed: JobRow[] = [];
  for (const uid of new Set(request.jobs.map((j) => j.uid))) listed.push((await requireJobOf(db, caller, project, uid, 'edit')).job);
  const notFirst = listed.filter((job) => Number(job.workflowLevel) !== 1);
  if (notFirst.length) throw errors.JobNotInFirstWorkflowStep({ jobUids: uidsOf(notFirst) });

  const byGroup = new Map<string, Map<string, JobRow>>();
  for (const job of listed) {
    const key = job.jobSourceId;
    const group = byGroup.get(key) ?? new Map<string, JobRow>();
    for (const sibling of await jobsOfFileAndLanguage(db, job)) group.set(sibling.id, sibling);
    byGroup.set(key, group);
  }
  const affected = [...byGroup.values()].flatMap((group) => [...group.values()]);
  const split = affected.filter((job) => job.beginIndex !== null || job.endIndex !== null);
  if (split.length) throw errors.JobIsSplit({ file: 'source', jobUids: uidsOf(split) });
  const final = affected.filter((job) => FINAL_STATUSES.has(job.status));
  if (final.length) throw errors.JobInFinalStatus({ jobUids: uidsOf(final) });
  await assertNotImporting(db, [...byGroup.keys()]);
  return {
    project: project.project,
    groups: [...byGroup].map(([oldSourceId, group]) => ({ oldSourceId, jobIds: [...group.keys()] })),
    jobs: affected,
    callbackUrl,
  };
}

export const UPDATE_SOURCE_TASK = 'job.updateSource';

export interface UpdateSourcePayload {
  asyncRequestId: string;
  userId: string;
  groups: Array<SourceUpdateGroup & { newSourceId: string }>;
}

/**
 * The new job source of one old file: the uploaded file, with the old file's directory and import
 * settings (which may have been edited for its jobs). Its `innerId` is a fresh number until the
 * jobs move; the file then takes the old number when the old file is left without jobs.
 */
async function insertNewSource(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  old: JobSourceRow,
  upload: { blob: StoredBlob; filename: string },
  now: string,
): Promise<string> {
  const row = await trx
    .insertInto('jobSources')
    .values({
      uid: newUid(),
      organizationId: old.organizationId,
      projectId: old.projectId,
      innerId: await nextJobInnerId(trx, old.projectId),
      filename: upload.filename,
      directory: old.directory,
      sha256: upload.blob.sha256,
      size: upload.blob.size,
      contentType: 'application/octet-stream',
      importSettings: old.importSettings,
      importError: null,
      format: null,
      createdAt: now,
      createdById: caller.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface StartedSourceUpdate {
  asyncRequest: { id: string; dateCreated: string; action: string };
  jobs: JobPartUpdateSource[];
}

/** Writes the new sources, the async request and the task of one updateSource request. */
export async function startSourceUpdate(
  deps: AppDeps,
  caller: Caller,
  plan: PlannedSourceUpdate,
  upload: { blob: StoredBlob; filename: string },
): Promise<StartedSourceUpdate> {
  const now = deps.clock().toISOString();
  const project = plan.project;
  const asyncRequest = await deps.database.db.transaction().execute(async (trx) => {
    await recordStoredFile(deps, trx, upload.blob);
    const groups: UpdateSourcePayload['groups'] = [];
    for (const group of plan.groups) {
      const old = await trx.selectFrom('jobSources').selectAll().where('id', '=', group.oldSourceId).executeTakeFirstOrThrow();
      groups.push({ ...group, newSourceId: await insertNewSource(deps, trx, caller, old, upload, now) });
    }
    const request = await createAsyncRequest(deps, trx, {
      organizationId: project.organizationId,
      createdById: caller.userId,
      action: 'UPDATE_SOURCE',
      project: { uid: project.uid, name: project.name },
      callbackUrl: plan.callbackUrl,
    });
    const payload: UpdateSourcePayload = { asyncRequestId: request.id, userId: caller.userId, groups };
    await enqueue(
      trx,
      { kind: UPDATE_SOURCE_TASK, payload, organizationId: project.organizationId, asyncRequestId: request.id },
      deps.clock(),
    );
    return { id: request.id, dateCreated: request.createdAt, action: request.action };
  });
  deps.taskWakeup.notify();
  return { asyncRequest, jobs: await updateSourceDtos(deps.database.db, plan.jobs, upload.filename) };
}

/** JobPartUpdateSourceDto of each job, named after the file it is getting. */
export async function updateSourceDtos(db: Kysely<DB>, jobs: readonly JobRow[], filename: string | null): Promise<JobPartUpdateSource[]> {
  const references = await jobReferenceDtos(db, jobs, 'v1');
  return references.map((r) => ({
    uid: r.uid,
    status: r.status,
    targetLang: r.targetLang,
    filename: filename ?? r.filename,
    workflowLevel: r.workflowLevel,
    workflowStep: r.workflowStep,
  }));
}
