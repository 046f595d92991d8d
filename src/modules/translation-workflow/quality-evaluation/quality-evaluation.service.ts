import type { AppDeps } from '../../../deps.js';
import { DEFAULT_PASS_THRESHOLD } from '../../../domain/quality-evaluation/index.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { enqueue } from '../../../queue/queue.js';
import { createAsyncRequest } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import { findVisibleProject, requireJobOf } from '../kernel/index.js';
import type { JobAccess, JobPermission, JobRow, ProjectAccess } from '../kernel/index.js';
import type { QeContentSource } from './content-source.js';
import { evaluationStates, replaceSegmentResults, segmentResultsPage } from './quality-evaluation.repository.js';
import type { StoredQeWarning } from './quality-evaluation.repository.js';
import type { QeWarningsBody, QeWarningsResponse, SegmentWarningsBody } from './quality-evaluation.schemas.js';
import { QUALITY_EVALUATION_TASK } from './quality-evaluation.task.js';

/** Segments (file positions) one qeWarnings page covers. */
export const QE_PAGE_SEGMENTS = 100;

const invalid = (field: string, reason: string) => errors.InvalidArguments({ reason, details: [{ field, message: reason }] });

/** The jobs of a body, each visible with `need`, of one workflow step (and, via `project`, one project). */
async function requireJobsOf(
  deps: AppDeps,
  caller: Caller,
  project: ProjectAccess,
  uids: readonly string[],
  need: JobPermission,
  field: string,
): Promise<JobAccess[]> {
  const db = deps.database.db;
  const jobs: JobAccess[] = [];
  const seen = new Set<string>();
  for (const uid of uids) {
    if (seen.has(uid)) continue;
    seen.add(uid);
    jobs.push(await requireJobOf(db, caller, project, uid, need));
  }
  const levels = new Set(jobs.map((access) => Number(access.job.workflowLevel)));
  if (levels.size > 1) throw invalid(field, 'The job parts must all be of the same workflow step.');
  return jobs;
}

/**
 * The project of jobs named only in a body (the qualityProfiles operations): the project of the
 * first job the caller may see; 404 Job when they see none of that uid, 400 when the jobs are of
 * several projects.
 */
async function projectOfJobs(deps: AppDeps, caller: Caller, uids: readonly string[], field: string): Promise<ProjectAccess> {
  const db = deps.database.db;
  const rows = await db
    .selectFrom('jobs')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .select(['jobs.uid', 'projects.uid as projectUid'])
    .where('jobs.organizationId', '=', caller.organizationId)
    .where('jobs.uid', 'in', [...new Set(uids)])
    .execute();
  const byJob = new Map(rows.map((row) => [row.uid, row.projectUid]));
  const first = byJob.get(uids[0]!);
  if (first === undefined) throw errors.ResourceNotFound({ what: 'Job' });
  const project = await findVisibleProject(db, caller, first);
  if (!project) throw errors.ResourceNotFound({ what: 'Job' });
  for (const uid of uids) {
    const of = byJob.get(uid);
    if (of === undefined) throw errors.ResourceNotFound({ what: 'Job' });
    if (of !== first) throw invalid(field, 'The job parts must all belong to the same project.');
  }
  return project;
}

export interface EvaluationRequest {
  jobUids: readonly string[];
  threshold?: number | undefined;
  lockSegments?: boolean | undefined;
  confirmSegments?: boolean | undefined;
  qualityProfileUid?: string | null | undefined;
}

/**
 * evaluateQuality and the deprecated evaluate: checks every job (editable, imported, one workflow
 * step) before anything is written, then records the async request, each job's evaluation row
 * (replacing its earlier request, whose results stay hidden until this one finished) and the task,
 * in one transaction.
 */
export async function requestEvaluation(
  deps: AppDeps,
  caller: Caller,
  project: ProjectAccess | null,
  request: EvaluationRequest,
): Promise<AsyncRequestRow> {
  const db = deps.database.db;
  const inProject = project ?? (await projectOfJobs(deps, caller, request.jobUids, 'jobs'));
  const jobs = await requireJobsOf(deps, caller, inProject, request.jobUids, 'edit', 'jobs');
  for (const { job } of jobs) await assertImportedJob(deps, job);
  const now = deps.clock().toISOString();
  const row = await db.transaction().execute(async (trx) => {
    const asyncRequest = await createAsyncRequest(deps, trx, {
      organizationId: caller.organizationId,
      createdById: caller.userId,
      // The published enum has no QP_EVALUATION (Phrase's newer one does); its nearest value (docs/quality-evaluation.md).
      action: 'FILE_FLOW_QUALITY_ESTIMATION',
      project: { uid: inProject.project.uid, name: inProject.project.name },
    });
    for (const { job } of jobs) {
      const values = {
        organizationId: caller.organizationId,
        asyncRequestId: asyncRequest.id,
        qualityProfileUid: request.qualityProfileUid ?? null,
        threshold: request.threshold ?? DEFAULT_PASS_THRESHOLD,
        lockSegments: request.lockSegments ?? true,
        confirmSegments: request.confirmSegments ?? false,
        requestedAt: now,
        requestedById: caller.userId,
        evaluatedAt: null,
        score: null,
        words: null,
        passed: null,
        segmentCount: null,
        segmentsBelow: null,
      };
      const updated = await trx.updateTable('qualityEvaluationJobs').set(values).where('jobId', '=', job.id).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0)
        await trx
          .insertInto('qualityEvaluationJobs')
          .values({ jobId: job.id, ...values })
          .execute();
    }
    await trx.updateTable('asyncRequests').set({ progressDone: 0, progressTotal: jobs.length }).where('id', '=', asyncRequest.id).execute();
    await enqueue(
      trx,
      {
        kind: QUALITY_EVALUATION_TASK,
        payload: { asyncRequestId: asyncRequest.id },
        organizationId: caller.organizationId,
        asyncRequestId: asyncRequest.id,
      },
      deps.clock(),
    );
    return { ...asyncRequest, progressDone: 0, progressTotal: jobs.length };
  });
  deps.taskWakeup.notify();
  return row;
}

async function assertImportedJob(deps: AppDeps, job: JobRow): Promise<void> {
  const source = await deps.database.db
    .selectFrom('jobSources')
    .select('importStatus')
    .where('id', '=', job.jobSourceId)
    .executeTakeFirst();
  if (source?.importStatus === 'ERROR') throw errors.JobImportFailed({ jobUid: job.uid });
  if (source?.importStatus !== 'OK') throw errors.JobImportNotFinished({ jobUid: job.uid });
}

/**
 * qeWarnings: the stored results of the job parts, a page of QE_PAGE_SEGMENTS segment positions at
 * a time (docs/quality-evaluation.md, "Reading results"). A job part whose last evaluation has not
 * finished answers no segments.
 */
export async function readQeWarnings(
  deps: AppDeps,
  caller: Caller,
  body: QeWarningsBody,
  content: QeContentSource,
): Promise<QeWarningsResponse> {
  const db = deps.database.db;
  const uids = body.jobParts.map((part) => part.uid);
  const project = await projectOfJobs(deps, caller, uids, 'jobParts');
  const jobs = (await requireJobsOf(deps, caller, project, uids, 'view', 'jobParts')).map((access) => access.job);
  const states = await evaluationStates(
    db,
    jobs.map((job) => job.id),
  );

  // Jobs grouped by file, files in the order the request first names them.
  const files: JobRow[][] = [];
  const fileOf = new Map<string, JobRow[]>();
  for (const job of jobs) {
    const key = String(job.jobSourceId);
    let group = fileOf.get(key);
    if (!group) {
      group = [];
      fileOf.set(key, group);
      files.push(group);
    }
    group.push(job);
  }

  // Where to resume: the file position after initialSegmentId.
  let startFile = 0;
  let afterIdx = -1;
  if (body.initialSegmentId !== undefined) {
    const found = await locateSegment(deps, project, files, body.initialSegmentId, content);
    if (!found) throw invalid('initialSegmentId', `${body.initialSegmentId} is not a segment of these job parts.`);
    ({ file: startFile, idx: afterIdx } = found);
  }

  // Hidden while the job part's last evaluation request runs; results stored by segmentWarnings show without one.
  const shown = (job: JobRow) => states.get(String(job.id))?.running !== true;
  const uidOf = new Map(jobs.map((job) => [String(job.id), job.uid]));
  const segmentWarnings: QeWarningsResponse['segmentWarnings'] = [];
  let budget = QE_PAGE_SEGMENTS;
  let endReached = true;
  for (let f = startFile; f < files.length; f += 1) {
    const ids = files[f]!.filter(shown).map((job) => job.id);
    if (budget === 0) {
      // Anything left in the files after this page?
      if (ids.length > 0 && (await segmentResultsPage(db, ids, f === startFile ? afterIdx : -1, 1)).rows.length > 0) {
        endReached = false;
        break;
      }
      continue;
    }
    const page = await segmentResultsPage(db, ids, f === startFile ? afterIdx : -1, budget);
    for (const row of page.rows) {
      segmentWarnings.push({
        jobPartUid: uidOf.get(row.jobId)!,
        segmentId: row.segmentId,
        warnings: row.warnings.map((w: StoredQeWarning) => ({ type: w.type, message: w.message, qeId: w.qeId })),
        score: row.score,
        passed: row.score === null ? row.warnings.length === 0 : row.score >= (states.get(row.jobId)?.threshold ?? DEFAULT_PASS_THRESHOLD),
      });
    }
    budget -= new Set(page.rows.map((row) => row.idx)).size;
    if (page.more) {
      endReached = false;
      break;
    }
  }

  return {
    endReached,
    segmentWarnings,
    jobParts: jobs.map((job) => {
      const state = states.get(String(job.id));
      const done = state !== undefined && !state.running && state.evaluatedAt !== null;
      return {
        uid: job.uid,
        evaluated: done,
        score: done ? state.score : null,
        threshold: done ? state.threshold : null,
        passed: done ? state.passed : null,
        words: done ? state.words : null,
        segmentsBelowThreshold: done ? state.segmentsBelow : null,
        dateEvaluated: done ? state.evaluatedAt : null,
      };
    }),
  };
}

/** The file (position in `files`) and index a segment id names among the job parts; null when none. */
async function locateSegment(
  deps: AppDeps,
  project: ProjectAccess,
  files: readonly JobRow[][],
  segmentId: string,
  content: QeContentSource,
): Promise<{ file: number; idx: number } | null> {
  for (let f = 0; f < files.length; f += 1) {
    for (const job of files[f]!) {
      const idx = (await content(deps.database.db, project.project, job)).indexOf(segmentId);
      if (idx !== null) return { file: f, idx };
    }
  }
  return null;
}

/**
 * segmentWarnings: stores externally computed warnings of segments of one job part, each
 * overwriting the segment's earlier result; an empty `results` records a passing run. Every
 * segment id is checked before anything is written.
 */
export async function storeSegmentWarnings(
  deps: AppDeps,
  caller: Caller,
  body: SegmentWarningsBody,
  content: QeContentSource,
): Promise<void> {
  const db = deps.database.db;
  const project = await projectOfJobs(deps, caller, [body.jobPartUid], 'jobPartUid');
  const [{ job }] = (await requireJobsOf(deps, caller, project, [body.jobPartUid], 'edit', 'jobPartUid')) as [JobAccess];
  await assertImportedJob(deps, job);
  const jobContent = await content(db, project.project, job);
  const seen = new Set<number>();
  const rows = body.segments.map((segment, i) => {
    const idx = jobContent.indexOf(segment.segmentId);
    if (idx === null) throw invalid(`segments[${i}].segmentId`, `${segment.segmentId} is not a segment of job part ${job.uid}.`);
    if (seen.has(idx)) throw invalid(`segments[${i}].segmentId`, `Segment ${segment.segmentId} is given twice.`);
    seen.add(idx);
    return {
      idx,
      segmentId: jobContent.wireId(idx),
      score: null,
      warnings: segment.results.map((result) => ({ type: result.type, message: result.message, qeId: result.qeId ?? null })),
    };
  });
  await db.transaction().execute((trx) =>
    replaceSegmentResults(trx, job.id, rows, {
      origin: 'EXTERNAL',
      evaluationId: body.evaluationId ?? null,
      qualityProfileUid: body.qualityProfileUid ?? null,
      now: deps.clock().toISOString(),
      all: false,
    }),
  );
}
