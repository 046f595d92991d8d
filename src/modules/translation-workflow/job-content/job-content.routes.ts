import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { AUTHENTICATED } from '../../../http/access.js';
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
import { notifyAssignedProviders } from './job-notify.js';
import { copySourceToTarget, deleteAllTranslations, deleteSpecificTranslations, pseudoTranslateJobs } from './job-translations.js';

/**
 * Job content (docs/job-content-and-handovers.md): copy source to target, delete translations,
 * pseudo-translation, notifying providers, and the import settings of a job's file.
 */

const TAGS = ['Job'];
/** The editor's actions: managers with edit rights, and linguists on the jobs they are providers of. */
const CONTENT_EDITORS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');
const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');

export function jobContentRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/projects/:projectUid/jobs/copySourceToTarget',
      {
        config: { access: CONTENT_EDITORS },
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
        await copySourceToTarget(
          deps,
          callerOf(request),
          request.params.projectUid,
          request.body.jobs.map((j) => j.uid),
        );
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/copySourceToTarget',
      {
        config: { access: CONTENT_EDITORS },
        schema: {
          tags: TAGS,
          operationId: 'copySourceToTargetJobPart',
          summary: 'Copy Source to Target job',
          description: 'As copySourceToTarget, for one job.',
          params: JobUidParams,
        },
      },
      async (request, reply) => {
        await copySourceToTarget(deps, callerOf(request), request.params.projectUid, [request.params.jobUid]);
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v1/projects/:projectUid/jobs/translations',
      {
        config: { access: CONTENT_EDITORS },
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
        await deleteAllTranslations(
          deps,
          callerOf(request),
          request.params.projectUid,
          request.body.jobs.map((j) => j.uid),
        );
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v2/projects/:projectUid/jobs/translations',
      {
        config: { access: CONTENT_EDITORS },
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
        await deleteSpecificTranslations(deps, callerOf(request), request.params.projectUid, request.body);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/pseudoTranslate',
      {
        config: { access: MANAGERS },
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
        await pseudoTranslateJobs(deps, callerOf(request), request.params.projectUid, [request.params.jobUid], request.body ?? {});
        return reply.code(204).send();
      },
    );

    app.post(
      '/v2/projects/:projectUid/jobs/pseudoTranslate',
      {
        config: { access: MANAGERS },
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
        const { jobParts, pseudoTranslate } = request.body;
        await pseudoTranslateJobs(
          deps,
          callerOf(request),
          request.params.projectUid,
          jobParts.jobs.map((j) => j.uid),
          pseudoTranslate,
        );
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/notifyAssigned',
      {
        config: { access: MANAGERS },
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
        await notifyAssignedProviders(deps, callerOf(request), request.params.projectUid, request.body);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/importSettings',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: TAGS,
          operationId: 'getImportSettings_3',
          summary: 'Get import settings for job',
          params: JobUidParams,
          response: { 200: FileImportSettingsDto },
        },
      },
      async (request) => jobImportSettings(deps, callerOf(request), request.params.projectUid, request.params.jobUid),
    );

    app.put(
      '/v1/projects/:projectUid/jobs/:jobUid/importSettings',
      {
        config: { access: MANAGERS },
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
      async (request) =>
        replaceJobImportSettings(
          deps,
          callerOf(request),
          request.params.projectUid,
          request.params.jobUid,
          (request.body ?? {}) as Record<string, unknown>,
        ),
    );
  };
}
