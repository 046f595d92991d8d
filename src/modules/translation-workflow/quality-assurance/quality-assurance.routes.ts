import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import type { WarningType } from '../../../domain/quality-assurance/types.js';
import { errors } from '../../../errors/index.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Caller } from '../../../http/access.js';
import { JobUidParams, ProjectUidParams, jobAccessOf, onJob, onProject, projectAccessOf, requireJobOf } from '../kernel/index.js';
import type { JobAccess, ProjectAccess } from '../kernel/index.js';
import { qaJobOf, segmentIndexOf } from './qa-segments.js';
import type { QaJob } from './qa-segments.js';
import { capWarnings, runJobQa, segmentWarningsOf } from './qa-runs.service.js';
import type { SegmentWarningsView } from './qa-runs.service.js';
import { addIgnoredWarnings, deleteIgnoredWarnings, saveSegmentTarget, updateIgnoredChecks } from './qa-warnings.service.js';
import {
  QaBatchRunBody,
  QaResponse,
  QaRunSettings,
  QaRunWithUpdateBody,
  QaSegmentsRunBody,
  SegmentIdParams,
  UpdateIgnoredChecksBody,
  UpdateIgnoredWarningsBody,
} from './quality-assurance.schemas.js';

const TAGS = ['Quality Assurance'];
/** Linguists run QA and ignore warnings on the jobs they provide; managers on the jobs they may translate. */
const QA_USERS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');
const RUN_ERRORS = ['JobImportFailed', 'JobImportNotFinished'] as const;
const DEFAULT_MAX_WARNINGS = 100;

interface RunSettings {
  initialSegment?: { uid?: string | undefined } | undefined;
  maxQaWarningsCount?: number | undefined;
  warningTypes?: WarningType[] | undefined;
}

/** The index runs start from (initialSegment): 400 when it names no segment of the job. */
function initialIndex(qa: QaJob, settings: RunSettings | undefined): number | undefined {
  const uid = settings?.initialSegment?.uid;
  if (uid === undefined) return undefined;
  const idx = segmentIndexOf(qa, uid);
  if (idx === null)
    throw errors.InvalidArguments({
      reason: `initialSegment ${uid} is not a segment of job ${qa.job.uid}.`,
      details: [{ field: 'initialSegment.uid', message: 'not a segment of the job' }],
    });
  return idx;
}

/** Whole-job runs of `jobs`, one answer capped at maxQaWarningsCount. */
async function runJobs(deps: AppDeps, caller: Caller, jobs: readonly QaJob[], settings: RunSettings | undefined, max: number | undefined) {
  const db = deps.database.db;
  const views: SegmentWarningsView[] = [];
  let spellingUnchecked = false;
  for (const qa of jobs) {
    const fromIdx = jobs.length === 1 ? initialIndex(qa, settings) : undefined;
    const outcome = await runJobQa(deps, qa, { only: settings?.warningTypes, userId: caller.userId });
    spellingUnchecked ||= outcome.spellingUnchecked;
    views.push(...(await segmentWarningsOf(db, outcome, fromIdx === undefined ? {} : { fromIdx })));
  }
  return capWarnings(views, max ?? settings?.maxQaWarningsCount ?? DEFAULT_MAX_WARNINGS, spellingUnchecked);
}

async function batchJobs(deps: AppDeps, caller: Caller, project: ProjectAccess, uids: readonly string[]): Promise<QaJob[]> {
  const db = deps.database.db;
  const jobs: QaJob[] = [];
  for (const uid of new Set(uids)) {
    const access = await requireJobOf(db, caller, project, uid, 'translate');
    jobs.push(await qaJobOf(db, project.project, access.job));
  }
  return jobs;
}

/**
 * QA runs and warnings (docs/qa-runs-and-warnings.md): run QA on jobs, on some segments, or on one
 * segment whose new target is saved first; ignore warnings and checks.
 */
export function qualityAssuranceRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v3/projects/:projectUid/jobs/:jobUid/qualityAssurances/run',
      {
        config: { access: onJob(QA_USERS, 'translate'), errors: [...RUN_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'runQaForJobPartV3',
          summary: 'Run quality assurance',
          description:
            'Runs the checks of the project’s QA settings on every segment of the job (in the thread pool) and stores the run as the job’s last run. Answers the segments with warnings, in file order, from `initialSegment` on, at most `maxQaWarningsCount` warnings (default 100; whole segments at a time, `finished: false` when some were left out); `warningTypes` narrows the run. Warning ids stay the same until the segment’s target changes; ignored warnings come back with `ignored: true`.',
          params: JobUidParams,
          body: QaRunSettings,
          response: { 200: QaResponse },
        },
      },
      async (request) => {
        const access = jobAccessOf(request);
        const qa = await qaJobOf(db, access.project.project, access.job);
        return runJobs(deps, callerOf(request), [qa], request.body ?? undefined, undefined);
      },
    );

    const batchRun = (operationId: string, version: string, deprecatedBy?: string) =>
      app.post(
        `/${version}/projects/:projectUid/jobs/qualityAssurances/run`,
        {
          config: { access: onProject(QA_USERS, 'translate'), errors: [...RUN_ERRORS] },
          schema: {
            tags: TAGS,
            operationId,
            summary: 'Run quality assurance (batch)',
            description: `Runs QA on each of the listed jobs of the project (1 to 500; each one the caller may translate, otherwise 404 or 403 naming nothing is run) and stores each run as its job’s last run. One answer for all the jobs, in the order given, capped at \`maxQaWarningsCount\` (top level, else \`settings.maxQaWarningsCount\`, default 100). \`settings.warningTypes\` narrows the runs; \`settings.initialSegment\` applies when one job is listed.${deprecatedBy ?? ''}`,
            params: ProjectUidParams,
            body: QaBatchRunBody,
            response: { 200: QaResponse },
          },
        },
        async (request) => {
          const caller = callerOf(request);
          const jobs = await batchJobs(
            deps,
            caller,
            projectAccessOf(request),
            request.body.jobs.map((j) => j.uid),
          );
          return runJobs(deps, caller, jobs, request.body.settings, request.body.maxQaWarningsCount);
        },
      );
    batchRun('runQaForJobPartsV3', 'v3');
    batchRun(
      'runQaForJobPartsV4',
      'v4',
      ' Version 4 takes the same body as version 3 (OpenTMS: the published description names the operation without its body).',
    );

    app.post(
      '/v3/projects/:projectUid/jobs/qualityAssurances/segments/run',
      {
        config: { access: onProject(QA_USERS, 'translate'), errors: [...RUN_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'runQaForSegmentsV3',
          summary: 'Run quality assurance on selected segments',
          description:
            'Runs QA on the listed segments of the listed jobs (segment ids as listSegments answers them, `<file uid>:<index>`, or the bilingual file’s `<job uid>:<index>`), on the targets as they are stored now, or (OpenTMS extension `jobsAndSegments[].targets`) on texts the editor has not saved yet, which are checked in their place without being saved or stored. Without `warningTypes` only the fast checks run (every check of the settings except spelling and inconsistent translations, which need a dictionary or the other segments). The jobs must have the same source and target languages (400 otherwise). Every listed segment is answered, with or without warnings; the warnings replace those of the same segments in the jobs’ last runs.',
          params: ProjectUidParams,
          body: QaSegmentsRunBody,
          response: { 200: QaResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const project = projectAccessOf(request);
        const body = request.body;
        const entries: { qa: QaJob; idxs: number[]; overrides: Map<number, { target: string }> }[] = [];
        for (const entry of body.jobsAndSegments) {
          const access = await requireJobOf(db, caller, project, entry.job.uid, 'translate');
          const qa = await qaJobOf(db, project.project, access.job);
          if (entries.length && entries[0]!.qa.job.targetLang !== qa.job.targetLang)
            throw errors.InvalidArguments({
              reason: `The jobs must have the same source and target languages: ${entries[0]!.qa.job.uid} is ${entries[0]!.qa.job.targetLang}, ${qa.job.uid} is ${qa.job.targetLang}.`,
              details: [{ field: 'jobsAndSegments.job', message: 'languages differ' }],
            });
          entries.push({
            qa,
            idxs: entry.segments.map((uid) => {
              const idx = segmentIndexOf(qa, uid);
              if (idx === null)
                throw errors.InvalidArguments({
                  reason: `Segment ${uid} is not a segment of job ${qa.job.uid}.`,
                  details: [{ field: 'jobsAndSegments.segments', message: 'not a segment of the job', segment: uid }],
                });
              return idx;
            }),
            overrides: new Map(),
          });
          const added = entries[entries.length - 1]!;
          for (const [i, unsaved] of (entry.targets ?? []).entries()) {
            const idx = segmentIndexOf(qa, unsaved.segmentId);
            if (idx === null || !added.idxs.includes(idx))
              throw errors.InvalidArguments({
                reason: `targets[${i}]: segment ${unsaved.segmentId} is not one of the segments listed for job ${qa.job.uid}.`,
                details: [{ field: 'jobsAndSegments.targets', message: 'not a listed segment', segment: unsaved.segmentId }],
              });
            added.overrides.set(idx, { target: unsaved.target });
          }
        }
        const views: SegmentWarningsView[] = [];
        let spellingUnchecked = false;
        for (const { qa, idxs, overrides } of entries) {
          if (!idxs.length) continue;
          const typed = body.warningTypes?.length ? { only: body.warningTypes } : { fastOnly: true };
          // Unsaved texts are checked where they stand; a run of texts that are not the job's is not stored (userId null).
          const unsaved = overrides.size ? { overrides, userId: null } : { userId: caller.userId };
          const outcome = await runJobQa(deps, qa, { ...typed, segments: idxs, ...unsaved });
          spellingUnchecked ||= outcome.spellingUnchecked;
          views.push(...(await segmentWarningsOf(db, outcome, { everySegment: true })));
        }
        return capWarnings(views, body.maxQaWarningsCount ?? DEFAULT_MAX_WARNINGS, spellingUnchecked);
      },
    );

    app.post(
      '/v4/projects/:projectUid/jobs/qualityAssurances/segments/:segmentId/runWithUpdate',
      {
        config: { access: onProject(QA_USERS, 'translate'), errors: [...RUN_ERRORS, 'SegmentLocked'] },
        schema: {
          tags: ['Bilingual File'],
          operationId: 'runQaAndSaveV4',
          summary: 'Run quality assurance on selected segments and save segments',
          description:
            'OpenTMS’s body (the published description names the operation without one): `{job: {uid}, target, confirmed?, warningTypes?, maxQaWarningsCount?}`. Saves the segment’s new target as an editor save does (a locked segment is a 400 SegmentLocked and nothing is saved; a changed target loses its pre-translation origin; a confirmed segment goes to the project’s write TMs; JOB_TARGET_UPDATED), then runs QA on the segment as saved (all checks, or `warningTypes`) and answers its warnings.',
          params: SegmentIdParams,
          body: QaRunWithUpdateBody,
          response: { 200: QaResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const project = projectAccessOf(request);
        const body = request.body;
        const access: JobAccess = await requireJobOf(db, caller, project, body.job.uid, 'translate');
        const qa = await qaJobOf(db, project.project, access.job);
        const idx = segmentIndexOf(qa, request.params.segmentId);
        if (idx === null)
          throw errors.InvalidArguments({
            reason: `Segment ${request.params.segmentId} is not a segment of job ${qa.job.uid}.`,
            details: [{ field: 'segmentId', message: 'not a segment of the job' }],
          });
        await saveSegmentTarget(deps, caller, qa, idx, request.params.segmentId, { target: body.target, confirmed: body.confirmed });
        const outcome = await runJobQa(deps, qa, { only: body.warningTypes, segments: [idx], userId: caller.userId });
        const views = await segmentWarningsOf(db, outcome, { everySegment: true });
        return capWarnings(views, body.maxQaWarningsCount ?? DEFAULT_MAX_WARNINGS, outcome.spellingUnchecked);
      },
    );

    // ---- ignored warnings and checks
    const ignoreErrors = [...RUN_ERRORS, 'QaWarningNotIgnorable'] as const;
    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/qualityAssurances/ignoredWarnings',
      {
        config: { access: onJob(QA_USERS, 'translate'), errors: [...ignoreErrors] },
        schema: {
          tags: TAGS,
          operationId: 'addIgnoredWarnings',
          summary: 'Add ignored warnings',
          description:
            'Ignores warnings of the job (its `jobParts` may name only this job): each must be a warning of the job’s last QA run on the segment’s current target, and ignorable (400 QaWarningNotIgnorable naming it, nothing stored). An ignored warning stays ignored until the segment’s target changes.',
          params: JobUidParams,
          body: UpdateIgnoredWarningsBody,
          response: { 200: UpdateIgnoredWarningsBody },
        },
      },
      async (request) => {
        const access = jobAccessOf(request);
        return addIgnoredWarnings(deps, callerOf(request), access.project, request.body, access);
      },
    );
    app.delete(
      '/v1/projects/:projectUid/jobs/:jobUid/qualityAssurances/ignoredWarnings',
      {
        config: { access: onJob(QA_USERS, 'translate'), errors: [...RUN_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'deleteIgnoredWarnings',
          summary: 'Delete ignored warnings',
          description: 'The listed warnings of the job are no longer ignored (a body is required; its `jobParts` may name only this job).',
          params: JobUidParams,
          body: UpdateIgnoredWarningsBody,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        const access = jobAccessOf(request);
        await deleteIgnoredWarnings(deps, callerOf(request), access.project, request.body, access);
        return reply.code(204).send(null);
      },
    );
    app.post(
      '/v2/projects/:projectUid/jobs/qualityAssurances/ignoredWarnings',
      {
        config: { access: onProject(QA_USERS, 'translate'), errors: [...ignoreErrors] },
        schema: {
          tags: TAGS,
          operationId: 'addIgnoredWarnings_1',
          summary: 'Add ignored warnings',
          description:
            'Ignores warnings of jobs of the project (each job one the caller may translate): each must be a warning of its job’s last QA run on the segment’s current target, and ignorable (400 QaWarningNotIgnorable naming it, nothing stored).',
          params: ProjectUidParams,
          body: UpdateIgnoredWarningsBody,
          response: { 200: UpdateIgnoredWarningsBody },
        },
      },
      async (request) => addIgnoredWarnings(deps, callerOf(request), projectAccessOf(request), request.body, null),
    );
    app.delete(
      '/v2/projects/:projectUid/jobs/qualityAssurances/ignoredWarnings',
      {
        config: { access: onProject(QA_USERS, 'translate'), errors: [...RUN_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'deleteIgnoredWarnings_1',
          summary: 'Delete ignored warnings',
          description: 'The listed warnings of jobs of the project are no longer ignored (a body is required).',
          params: ProjectUidParams,
          body: UpdateIgnoredWarningsBody,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await deleteIgnoredWarnings(deps, callerOf(request), projectAccessOf(request), request.body, null);
        return reply.code(204).send(null);
      },
    );
    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/qualityAssurances/ignoreChecks',
      {
        config: { access: onJob(QA_USERS, 'translate'), errors: [...ignoreErrors] },
        schema: {
          tags: TAGS,
          operationId: 'updateIgnoredChecks',
          summary: 'Edit ignored checks',
          description:
            'The warning types ignored on one segment of the job, replacing those it had; they are answered as the segment’s `ignoredChecks` and its warnings of those types come back ignored, until the segment’s target changes. A type whose warnings on the segment are not ignorable is a 400.',
          params: JobUidParams,
          body: UpdateIgnoredChecksBody,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await updateIgnoredChecks(deps, jobAccessOf(request), request.body.segment.uid, request.body.warningTypes);
        return reply.code(204).send(null);
      },
    );
  };
}
