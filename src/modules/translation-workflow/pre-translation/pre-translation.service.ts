import type { AppDeps } from '../../../deps.js';
import { rulesFromV4 } from '../../../domain/machine-translation/index.js';
import type { PreTranslateRules, PreTranslateSettingsV4Like } from '../../../domain/machine-translation/index.js';
import type { Caller } from '../../../http/access.js';
import { ApiError } from '../../../errors/index.js';
import { enqueue } from '../../../queue/queue.js';
import { createAsyncRequest } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import type { JobRow, ProjectAccess } from '../kernel/index.js';
import { assertImported } from '../job-content/index.js';
import { requireJobOf } from '../kernel/index.js';
import { projectPreTranslateSettings } from '../project-mt-settings/index.js';
import type { PreTranslateJobSettingsV3, PreTranslateJobsV3Body } from './pre-translation.schemas.js';
import { PRE_TRANSLATE_TASK } from './pre-translation.task.js';

/** What a pre-translation request runs with (stored with it, so a resumed run uses the same). */
export interface StoredPreTranslation {
  rules: PreTranslateRules;
  confirmRepetitions: boolean;
  /** What happens to the jobs (and the project) once pre-translated; absent in requests recorded before. */
  completion?: { jobs: boolean; jobsWhenConfirmed: boolean; project: boolean };
  /** Segment filters: which segments (by lock) to work on; empty = all. */
  segmentFilters: Array<'LOCKED' | 'NOT_LOCKED'>;
}

/**
 * The job-level settings of preTranslateV3 as a v4 document: their defaults (TM, MT and
 * non-translatables on, threshold 0.7) where the body leaves them out.
 */
export function jobSettingsAsV4(settings: PreTranslateJobSettingsV3 | null | undefined): PreTranslateSettingsV4Like {
  const tm = settings?.translationMemorySettings ?? {};
  const mt = settings?.machineTranslationSettings ?? {};
  const nt = settings?.nonTranslatableSettings ?? {};
  return {
    overwriteExistingTranslations: settings?.overwriteExistingTranslations ?? false,
    translationMemorySettings: {
      useTranslationMemory: tm.useTranslationMemory ?? true,
      translationMemoryThreshold: tm.translationMemoryThreshold ?? 0.7,
      confirm100PercentMatches: tm.confirm100PercentMatches ?? false,
      confirm101PercentMatches: tm.confirm101PercentMatches ?? false,
      lock100PercentMatches: tm.lock100PercentMatches ?? false,
      lock101PercentMatches: tm.lock101PercentMatches ?? false,
    },
    machineTranslationSettings: { useMachineTranslation: mt.useMachineTranslation ?? true, useAltTransOnly: mt.useAltTransOnly ?? false },
    nonTranslatableSettings: {
      preTranslateNonTranslatables: nt.preTranslateNonTranslatables ?? true,
      confirm100PercentMatches: nt.confirm100PercentMatches ?? false,
      lock100PercentMatches: nt.lock100PercentMatches ?? false,
    },
  };
}

/**
 * preTranslateV3: checks every job (visible, editable, imported) before anything is recorded,
 * then records the request (PRE_TRANSLATE), its settings and jobs, and the task, in one transaction.
 */
export async function requestPreTranslation(
  deps: AppDeps,
  caller: Caller,
  project: ProjectAccess,
  body: PreTranslateJobsV3Body,
): Promise<AsyncRequestRow> {
  const db = deps.database.db;
  const jobs: JobRow[] = [];
  for (const uid of new Set(body.jobs.map((job) => job.uid))) {
    const { job } = await requireJobOf(db, caller, project, uid, 'edit');
    await assertImported(db, job);
    jobs.push(job);
  }
  const projectSettings = body.useProjectPreTranslateSettings === true ? await projectPreTranslateSettings(db, project.project.id) : null;
  const v4 = projectSettings ?? jobSettingsAsV4(body.preTranslateSettings);
  const stored: StoredPreTranslation = {
    rules: rulesFromV4(v4),
    confirmRepetitions:
      body.useProjectPreTranslateSettings === true
        ? (v4 as { repetitionsSettings?: { confirmRepetitions?: boolean | null } | null }).repetitionsSettings?.confirmRepetitions === true
        : body.preTranslateSettings?.confirmRepetitions === true,
    segmentFilters: [...new Set(body.segmentFilters ?? [])],
    completion: completionOf(projectSettings ?? body.preTranslateSettings ?? {}),
  };
  const sources = await db
    .selectFrom('jobSources')
    .select(['id', 'segmentCount'])
    .where('id', 'in', [...new Set(jobs.map((job) => job.jobSourceId))])
    .execute();
  const counts = new Map(sources.map((source) => [String(source.id), Number(source.segmentCount)]));
  const segments = jobs.reduce(
    (sum, job) =>
      sum +
      (job.beginIndex !== null && job.endIndex !== null ? job.endIndex - job.beginIndex + 1 : (counts.get(String(job.jobSourceId)) ?? 0)),
    0,
  );
  const row = await db.transaction().execute(async (trx) => {
    const asyncRequest = await createAsyncRequest(deps, trx, {
      organizationId: caller.organizationId,
      createdById: caller.userId,
      action: 'PRE_TRANSLATE',
      project: { uid: project.project.uid, name: project.project.name },
      callbackUrl: body.callbackUrl ?? null,
    });
    await trx
      .insertInto('preTranslations')
      .values({
        asyncRequestId: asyncRequest.id,
        organizationId: caller.organizationId,
        projectId: project.project.id,
        settings: JSON.stringify(stored),
        jobIds: JSON.stringify(jobs.map((job) => job.id)),
        segmentFilters: JSON.stringify(stored.segmentFilters),
        createdById: caller.userId,
      })
      .execute();
    await trx.updateTable('asyncRequests').set({ progressDone: 0, progressTotal: segments }).where('id', '=', asyncRequest.id).execute();
    await enqueue(
      trx,
      {
        kind: PRE_TRANSLATE_TASK,
        payload: { asyncRequestId: asyncRequest.id },
        organizationId: caller.organizationId,
        asyncRequestId: asyncRequest.id,
      },
      deps.clock(),
    );
    return { ...asyncRequest, progressDone: 0, progressTotal: segments };
  });
  deps.taskWakeup.notify();
  return row;
}

/**
 * Pre-translation on job creation (docs/machine-translation.md): once the files of a createJob
 * request are imported, their first-level jobs are pre-translated with the project's v4 settings
 * when the request asked for it (`preTranslate`) or the project's settings say
 * `preTranslateOnJobCreation`. One PRE_TRANSLATE request per project, by the files' creator.
 * Run again after a crash, it finds the request it made (the jobs are recorded once).
 */
export async function preTranslateImportedJobs(
  deps: AppDeps,
  input: { jobSourceIds: readonly string[]; requested: boolean },
): Promise<void> {
  if (input.jobSourceIds.length === 0) return;
  const db = deps.database.db;
  const sources = await db
    .selectFrom('jobSources')
    .innerJoin('projects', 'projects.id', 'jobSources.projectId')
    .select([
      'jobSources.id',
      'jobSources.projectId',
      'jobSources.createdById',
      'jobSources.segmentCount',
      'projects.organizationId',
      'projects.uid',
      'projects.name',
    ])
    .where('jobSources.id', 'in', [...input.jobSourceIds])
    .where('jobSources.importStatus', '=', 'OK')
    .execute();
  const byProject = new Map<string, typeof sources>();
  for (const source of sources) byProject.set(String(source.projectId), [...(byProject.get(String(source.projectId)) ?? []), source]);
  for (const [projectId, projectSources] of byProject) {
    const v4 = await projectPreTranslateSettings(db, projectId);
    if (!input.requested && (v4 as { preTranslateOnJobCreation?: boolean | null }).preTranslateOnJobCreation !== true) continue;
    const jobs = await db
      .selectFrom('jobs')
      .select(['id', 'jobSourceId', 'beginIndex', 'endIndex'])
      .where(
        'jobSourceId',
        'in',
        projectSources.map((source) => source.id),
      )
      .where('workflowLevel', '=', 1)
      .orderBy('id')
      .execute();
    if (jobs.length === 0) continue;
    const jobIds = JSON.stringify(jobs.map((job) => job.id));
    const first = projectSources[0]!;
    const already = await db
      .selectFrom('preTranslations')
      .select('asyncRequestId')
      .where('projectId', '=', projectId)
      .where('jobIds', '=', jobIds)
      .executeTakeFirst();
    if (already) continue;
    const stored: StoredPreTranslation = {
      rules: rulesFromV4(v4),
      confirmRepetitions:
        (v4 as { repetitionsSettings?: { confirmRepetitions?: boolean | null } | null }).repetitionsSettings?.confirmRepetitions === true,
      segmentFilters: [],
      completion: completionOf(v4),
    };
    const counts = new Map(projectSources.map((source) => [String(source.id), Number(source.segmentCount)]));
    const total = jobs.reduce(
      (sum, job) =>
        sum +
        (job.beginIndex !== null && job.endIndex !== null ? job.endIndex - job.beginIndex + 1 : (counts.get(String(job.jobSourceId)) ?? 0)),
      0,
    );
    try {
      await db.transaction().execute(async (trx) => {
        const asyncRequest = await createAsyncRequest(deps, trx, {
          organizationId: first.organizationId,
          createdById: first.createdById,
          action: 'PRE_TRANSLATE',
          project: { uid: first.uid, name: first.name },
        });
        await trx
          .insertInto('preTranslations')
          .values({
            asyncRequestId: asyncRequest.id,
            organizationId: first.organizationId,
            projectId,
            settings: JSON.stringify(stored),
            jobIds,
            createdById: first.createdById,
          })
          .execute();
        await trx.updateTable('asyncRequests').set({ progressDone: 0, progressTotal: total }).where('id', '=', asyncRequest.id).execute();
        await enqueue(
          trx,
          {
            kind: PRE_TRANSLATE_TASK,
            payload: { asyncRequestId: asyncRequest.id },
            organizationId: first.organizationId,
            asyncRequestId: asyncRequest.id,
          },
          deps.clock(),
        );
      });
    } catch (error) {
      // An organization at its limit of pending requests: the jobs stay as imported (they can be pre-translated later).
      if (!(error instanceof ApiError && error.errorCode === 'TooManyPendingRequests')) throw error;
    }
  }
}

/** The "set job / project to completed" flags of a v4 document or job-level v3 settings. */
function completionOf(settings: {
  setJobStatusCompleted?: boolean | null;
  setJobStatusCompletedWhenConfirmed?: boolean | null;
  setProjectStatusCompleted?: boolean | null;
}): StoredPreTranslation['completion'] {
  return {
    jobs: settings.setJobStatusCompleted === true,
    jobsWhenConfirmed: settings.setJobStatusCompletedWhenConfirmed === true,
    project: settings.setProjectStatusCompleted === true,
  };
}
