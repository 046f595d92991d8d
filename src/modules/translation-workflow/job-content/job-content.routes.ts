import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { AUTHENTICATED } from '../../../http/access.js';
import { jobAccessOf, onJob, onProject, projectAccessOf } from '../kernel/index.js';
import { FileImportSettingsCreateDto, FileImportSettingsDto } from '../kernel/index.js';
import { JobUidParams, ProjectUidParams } from '../kernel/index.js';
import {
  JobPartReadyDeleteTranslation,
  JobPartReadyReferences,
  NotifyJobPartsRequest,
  PseudoTranslateAction,
  PseudoTranslateWrapper,
} from './job-content.schemas.js';
import { jobImportSettings, replaceJobImportSettings } from './job-import-settings.js';
import { assertImported, contentJobs } from './job-content.service.js';
import { notifyAssignedProviders } from './job-notify.js';
import { copySourceToTarget, deleteAllTranslations, deleteSpecificTranslations, pseudoTranslateJobs } from './job-translations.js';

/**
 * Job content (docs/job-content-and-handovers.md): copy source to target, delete translations,
 * pseudo-translation, notifying providers, and the import settings of a job's file. Routes on
 * jobs listed in the body declare the project and check each job (contentJobs), in the order given.
 */

const TAGS = ['Job'];
/** The editor's actions (the jobs' `translate`): managers with edit rights, and linguists on the jobs they are providers of. */
const CONTENT_EDITORS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');
const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');

export function jobContentRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v1/projects/:projectUid/jobs/copySourceToTarget',
      {
        config: { access: onProject(CONTENT_EDITORS, 'translate'), errors: ['JobImportFailed', 'JobImportNotFinished'] },
        schema: {
          tags: TAGS,
          operationId: 'copySourceToTarget',
          summary: 'Copy Source to Target',
          description:
            'Copies each segment’s source, tags included, into its target where the job has no translation yet; existing translations stay. Emits JOB_TARGET_UPDATED for the jobs that changed.',
          params: ProjectUidParams,
          body: JobPartReadyReferences,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const uids = request.body.jobs.map((j) => j.uid);
        await copySourceToTarget(deps, caller, await contentJobs(db, caller, projectAccessOf(request), uids, 'translate'));
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/copySourceToTarget',
      {
        config: { access: onJob(CONTENT_EDITORS, 'translate'), errors: ['JobImportFailed', 'JobImportNotFinished'] },
        schema: {
          tags: TAGS,
          operationId: 'copySourceToTargetJobPart',
          summary: 'Copy Source to Target job',
          description: 'As copySourceToTarget, for one job.',
          params: JobUidParams,
        },
      },
      async (request, reply) => {
        const { job } = jobAccessOf(request);
        await assertImported(db, job);
        await copySourceToTarget(deps, callerOf(request), [job]);
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v1/projects/:projectUid/jobs/translations',
      {
        config: { access: onProject(CONTENT_EDITORS, 'translate'), errors: ['JobImportFailed', 'JobImportNotFinished'] },
        schema: {
          tags: TAGS,
          operationId: 'deleteAllTranslations',
          summary: 'Delete all translations',
          description: 'Removes every translation of the listed jobs.',
          params: ProjectUidParams,
          body: JobPartReadyReferences,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const uids = request.body.jobs.map((j) => j.uid);
        await deleteAllTranslations(deps, caller, await contentJobs(db, caller, projectAccessOf(request), uids, 'translate'));
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v2/projects/:projectUid/jobs/translations',
      {
        config: { access: onProject(CONTENT_EDITORS, 'translate'), errors: ['JobImportFailed', 'JobImportNotFinished'] },
        schema: {
          tags: TAGS,
          operationId: 'deleteAllTranslations_1',
          summary: 'Delete specific translations',
          description:
            'Removes the translations of the listed `jobs`, or with `forAllJobs` of every job of the project at `workflowLevel` (default 1) that `filter` keeps (managers only). `deleteSettings.confirmed`: confirmed only (true), unconfirmed only (false), both (null). No segment is locked in OpenTMS, so `locked: true` removes nothing.',
          params: ProjectUidParams,
          body: JobPartReadyDeleteTranslation,
        },
      },
      async (request, reply) => {
        await deleteSpecificTranslations(deps, callerOf(request), projectAccessOf(request), request.body);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/pseudoTranslate',
      {
        config: { access: onJob(MANAGERS, 'edit'), errors: ['JobImportFailed', 'JobImportNotFinished'] },
        schema: {
          tags: TAGS,
          operationId: 'pseudoTranslateJobPart',
          summary: 'Pseudo-translates job',
          description:
            'Fills the segments without a translation with a pseudo-translation of their source (tags kept in place); see docs/job-content-and-handovers.md for how each setting applies. `length` is a ratio (1.3 = 30 % longer).',
          params: JobUidParams,
          body: PseudoTranslateAction,
        },
      },
      async (request, reply) => {
        const { job } = jobAccessOf(request);
        await assertImported(db, job);
        await pseudoTranslateJobs(deps, callerOf(request), [job], request.body ?? {});
        return reply.code(204).send();
      },
    );

    app.post(
      '/v2/projects/:projectUid/jobs/pseudoTranslate',
      {
        config: { access: onProject(MANAGERS, 'edit'), errors: ['JobImportFailed', 'JobImportNotFinished'] },
        schema: {
          tags: TAGS,
          operationId: 'pseudoTranslate_1',
          summary: 'Pseudo-translate job',
          description: 'As pseudoTranslateJobPart, for several jobs.',
          params: ProjectUidParams,
          body: PseudoTranslateWrapper,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { jobParts, pseudoTranslate } = request.body;
        const uids = jobParts.jobs.map((j) => j.uid);
        await pseudoTranslateJobs(deps, caller, await contentJobs(db, caller, projectAccessOf(request), uids, 'edit'), pseudoTranslate);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/notifyAssigned',
      {
        config: { access: onProject(MANAGERS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'notifyAssigned',
          summary: 'Notify assigned users',
          description:
            'Each user assigned to a listed job gets a notification (GET /api2/v1/notifications) titled with the e-mail template’s subject. No e-mail is sent yet: cc and bcc are recorded, not mailed.',
          params: ProjectUidParams,
          body: NotifyJobPartsRequest,
        },
      },
      async (request, reply) => {
        await notifyAssignedProviders(deps, callerOf(request), projectAccessOf(request), request.body);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/importSettings',
      {
        config: { access: onJob(AUTHENTICATED, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getImportSettings_3',
          summary: 'Get import settings for job',
          params: JobUidParams,
          response: { 200: FileImportSettingsDto },
        },
      },
      async (request) => jobImportSettings(db, jobAccessOf(request).job),
    );

    app.put(
      '/v1/projects/:projectUid/jobs/:jobUid/importSettings',
      {
        config: { access: onJob(MANAGERS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'editJobImportSettings',
          summary: 'Edit job import settings',
          description:
            'Replaces the import settings of the job’s file (shared by the file’s jobs). The file is not imported again: the settings apply to a later re-import.',
          params: JobUidParams,
          body: FileImportSettingsCreateDto,
          response: { 200: FileImportSettingsDto },
        },
      },
      async (request) => replaceJobImportSettings(db, jobAccessOf(request).job, (request.body ?? {}) as Record<string, unknown>),
    );
  };
}
