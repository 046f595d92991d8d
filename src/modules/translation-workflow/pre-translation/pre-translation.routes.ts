import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { callerOf, roles } from '../../../http/access.js';
import { AsyncRequestWrapper, AsyncRequestWrapperV2, toAsyncRequestDtos } from '../../integration/async-requests/index.js';
import { TranslateResponse, translateOrFail } from '../../language-resources/machine-translation/index.js';
import { assertImported } from '../job-content/index.js';
import { JobUidParams, ProjectUidParams, jobAccessOf, onJob, onProject, projectAccessOf, requireJobOf } from '../kernel/index.js';
import { mtSettingsForTarget } from '../project-mt-settings/index.js';
import { HumanTranslateBody, JobTranslateBody, PreTranslateJobsV3Body } from './pre-translation.schemas.js';
import { requestPreTranslation } from './pre-translation.service.js';

/**
 * Pre-translation, MT of a job's texts and human translation (docs/machine-translation.md).
 * Pre-translation is a project manager's tool (edit rights on the project, each job editable);
 * MT of a job's texts is also open to the job's linguists once the project has MT settings for
 * the job's language (that assignment is how a project allows MT).
 */
const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');
const TRANSLATORS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');

export function preTranslationRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.post(
      '/v3/projects/:projectUid/jobs/preTranslate',
      {
        config: {
          access: onProject(MANAGERS, 'edit'),
          errors: ['JobImportFailed', 'JobImportNotFinished', 'TooManyPendingRequests'],
        },
        schema: {
          tags: ['Translation'],
          operationId: 'preTranslateV3',
          summary: 'Pre-translate job',
          description:
            'Fills the jobs in the background (async request PRE_TRANSLATE; `progress` shows the segments done of all): the best TM match at or above the threshold, non-translatables copied, and the rest from the project’s MT settings for each job’s language. Locked segments are never changed; existing translations only with `overwriteExistingTranslations`. Each filled segment records its origin (TM with score and TM, MT with engine, non-translatable). Segments MT could not fill are left empty and listed in the answer’s warnings. With `useProjectPreTranslateSettings` the project’s v4 settings apply; otherwise `preTranslateSettings`, whose defaults turn TM (threshold 0.7), MT and non-translatables on. At the end, JOB_TARGET_UPDATED for the jobs that changed.',
          params: ProjectUidParams,
          body: PreTranslateJobsV3Body,
          response: { 202: AsyncRequestWrapperV2 },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await requestPreTranslation(deps, caller, projectAccessOf(request), request.body);
        const [dto] = await toAsyncRequestDtos(db, caller.organizationId, [row]);
        return reply.code(202).send({ asyncRequest: dto! });
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/translations/translateWithMachineTranslation',
      {
        config: {
          access: onJob(TRANSLATORS, 'translate'),
          errors: ['MtSettingsNotAssigned', 'MtLanguagePairNotSupported', 'MachineTranslationFailed', 'MtCredentialsUnreadable'],
        },
        schema: {
          tags: ['Translation'],
          operationId: 'machineTranslationJob',
          summary: 'Translate using machine translation',
          description:
            'Translates the texts with the MT settings the project has for the job’s target language (from the project’s source language), applying the active glossary; nothing is written to the job. 400 MtSettingsNotAssigned when the project has none for that language.',
          params: JobUidParams,
          body: JobTranslateBody,
          response: { 200: TranslateResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { job, project } = jobAccessOf(request);
        const settings = await mtSettingsForTarget(db, project.project.id, job.targetLang);
        if (!settings) throw errors.MtSettingsNotAssigned({ targetLang: job.targetLang });
        const translations = await translateOrFail(deps, {
          organizationId: caller.organizationId,
          settings,
          sourceLang: project.project.sourceLang,
          targetLang: job.targetLang,
          segments: request.body.sourceTexts,
        });
        return { translations };
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/humanTranslate',
      {
        config: {
          access: onProject(MANAGERS, 'edit'),
          errors: ['HumanTranslationNotConfigured', 'JobImportFailed', 'JobImportNotFinished'],
        },
        schema: {
          tags: ['Translation'],
          operationId: 'humanTranslate',
          summary: 'Human translate (Gengo or Unbabel)',
          description:
            'Sends jobs to a human-translation provider. The jobs are checked (visible, editable, imported) first; then, as no provider (Gengo, Unbabel) can be configured in this installation, the answer is 400 HumanTranslationNotConfigured and nothing is sent.',
          params: ProjectUidParams,
          body: HumanTranslateBody,
          response: { 200: AsyncRequestWrapper },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const project = projectAccessOf(request);
        for (const { uid } of request.body.jobs) {
          const { job } = await requireJobOf(db, caller, project, uid, 'edit');
          await assertImported(db, job);
        }
        throw errors.HumanTranslationNotConfigured();
      },
    );
  };
}
