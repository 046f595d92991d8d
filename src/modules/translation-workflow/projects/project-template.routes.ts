import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import { toAsyncRequestDtos } from '../../integration/async-requests/index.js';
import { AsyncRequestWrapperV2 } from '../job-files/index.js';
import { jobReferenceDtos } from '../kernel/index.js';
import { JobPartReference } from '../kernel/index.js';
import { templateAccessOf, templateTargetLangs } from '../kernel/index.js';
import { PROJECT_EDITORS, TEMPLATE_PROJECT_CREATORS, onProject, onTemplate, ownView, projectAccessOf } from '../kernel/index.js';
import { toProjectViewsV2 } from '../kernel/index.js';
import { ProjectTemplateUid, ProjectUid, ProjectUidParams, ProjectV2 } from '../kernel/index.js';
import { requestProjectFromTemplate } from './create-from-template.task.js';
import { assignableTemplateRows } from './projects.repository.js';
import {
  CreateFromTemplateAsyncBody,
  CreateFromTemplateBody,
  assignProvidersFromTemplate,
  makeProjectFromTemplate,
} from './template-projects.js';

/**
 * Templates applied to projects: create a project from a template (v2, sync and async), the
 * templates a project may take, and the template's providers assigned to the project's jobs.
 */

const TAGS = ['Project'];
const TemplateParams = Type.Object({ templateUid: ProjectTemplateUid });
const ProjectTemplateParams = Type.Object({ projectUid: ProjectUid, templateUid: ProjectTemplateUid });
const JobPartsBody = Type.Object({
  jobs: Type.Array(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }), { minItems: 1, maxItems: 100 }),
});
const JobPartsSchema = Type.Object({ jobs: Type.Array(JobPartReference) }, { title: 'JobPartsDto' });

const AssignableTemplate = Type.Object({
  id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  templateName: Type.String(),
  sourceLang: Type.Union([Type.String(), Type.Null()]),
  targetLangs: Type.Array(Type.String()),
});
const AssignableTemplates = Type.Object({ assignableTemplates: Type.Array(AssignableTemplate) }, { title: 'AssignableTemplatesDto' });

export function projectTemplateRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  /** assignProviders on the project the route declared (edit) from its template (use). */
  async function assign(request: FastifyRequest, jobUids: string[] | null) {
    const caller = callerOf(request);
    const { project } = projectAccessOf(request);
    const { template } = templateAccessOf(request);
    const jobs = await assignProvidersFromTemplate(deps, caller, project, template, jobUids);
    return { jobs: await jobReferenceDtos(db, jobs, 'v1') };
  }

  return async (app) => {
    app.post(
      '/v2/projects/applyTemplate/:templateUid',
      {
        config: {
          access: onTemplate(TEMPLATE_PROJECT_CREATORS, 'use', 'templateUid'),
          errors: ['ReferenceNotFound', 'UnsupportedLanguage', 'ValueRequired'],
        },
        schema: {
          tags: TAGS,
          operationId: 'createProjectFromTemplateV2',
          summary: 'Create project from template',
          description:
            'The template supplies the defaults (languages, workflow steps, setup references, note, owner, vendor, file handover, settings); the body overrides them and names the project. The providers the template names are not assigned: use assignProviders. SUBMITTER may create projects from templates; project managers need projectCreate.',
          params: TemplateParams,
          body: CreateFromTemplateBody,
          response: { 201: ProjectV2 },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const project = await makeProjectFromTemplate(deps, caller, templateAccessOf(request).template, request.body);
        const [view] = await toProjectViewsV2(db, caller, [{ project, view: ownView(caller) }], deps.clock().toISOString());
        return reply.code(201).send(view!);
      },
    );

    app.post(
      '/v2/projects/applyTemplate/async/:templateUid',
      {
        config: {
          access: onTemplate(TEMPLATE_PROJECT_CREATORS, 'use', 'templateUid'),
          errors: ['UnsupportedLanguage', 'TooManyPendingRequests'],
        },
        schema: {
          tags: TAGS,
          operationId: 'createProjectFromTemplateV2Async',
          summary: 'Create project from template (async)',
          description:
            'As the synchronous variant, done by a worker: answers an async request (CREATE_PROJECT) whose `project` names the project once it finished. Languages and the template are checked at once (400/404).',
          params: TemplateParams,
          body: CreateFromTemplateAsyncBody,
          response: { 202: AsyncRequestWrapperV2 },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { callbackUrl, ...body } = request.body;
        const row = await requestProjectFromTemplate(deps, caller, templateAccessOf(request).template, body, callbackUrl);
        const [asyncRequest] = await toAsyncRequestDtos(db, caller.organizationId, [row]);
        return reply.code(202).send({ asyncRequest: asyncRequest! });
      },
    );

    app.get(
      '/v1/projects/:projectUid/assignableTemplates',
      {
        config: { access: onProject(PROJECT_EDITORS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'assignableTemplates',
          summary: 'List assignable templates',
          description: "Templates the caller may use whose source language is the project's, or that have none; by name.",
          params: ProjectUidParams,
          response: { 200: AssignableTemplates },
        },
      },
      async (request) => {
        const rows = await assignableTemplateRows(db, callerOf(request), projectAccessOf(request).project.sourceLang);
        return {
          assignableTemplates: rows.map((t) => ({
            id: t.id,
            name: t.projectName,
            templateName: t.name,
            sourceLang: t.sourceLang,
            targetLangs: templateTargetLangs(t),
          })),
        };
      },
    );

    app.post(
      '/v1/projects/:projectUid/applyTemplate/:templateUid/assignProviders',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit', { template: { need: 'use', param: 'templateUid' } }) },
        schema: {
          tags: TAGS,
          operationId: 'assignLinguistsFromTemplate',
          summary: 'Assigns providers from template',
          description:
            "For every job of the project, the template's providers of the job's target language (or of every language) and workflow level are added to the job's providers (JOB_ASSIGNED). Answers the project's jobs.",
          params: ProjectTemplateParams,
          response: { 200: JobPartsSchema },
        },
      },
      async (request) => assign(request, null),
    );

    app.post(
      '/v1/projects/:projectUid/applyTemplate/:templateUid/assignProviders/forJobParts',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit', { template: { need: 'use', param: 'templateUid' } }) },
        schema: {
          tags: TAGS,
          operationId: 'assignLinguistsFromTemplateToJobParts',
          summary: 'Assigns providers from template (specific jobs)',
          description: "As assignProviders, for the listed jobs of the project (at most 100; 404 naming a job that is not the project's).",
          params: ProjectTemplateParams,
          body: JobPartsBody,
          response: { 200: JobPartsSchema },
        },
      },
      async (request) => assign(request, [...new Set(request.body.jobs.map((j) => j.uid))]),
    );
  };
}
