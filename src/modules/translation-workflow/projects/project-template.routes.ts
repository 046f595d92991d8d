import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import type { Caller } from '../../../http/access.js';
import { ApiError } from '../../../errors/index.js';
import { enqueue } from '../../../queue/queue.js';
import { toAsyncRequestDtos } from '../../integration/async-requests/index.js';
import { createAsyncRequest } from '../../integration/async-requests/index.js';
import { AsyncRequestWrapperV2 } from '../job-files/index.js';
import { jobReferenceDtos } from '../kernel/index.js';
import { JobPartReference } from '../kernel/index.js';
import { requireProject } from '../kernel/index.js';
import { PROJECT_EDITORS, TEMPLATE_PROJECT_CREATORS, ownView } from '../kernel/index.js';
import { toProjectViewsV2 } from '../kernel/index.js';
import { ProjectV2 } from '../kernel/index.js';
import { CREATE_FROM_TEMPLATE_TASK } from './create-from-template.task.js';
import {
  CreateFromTemplateAsyncBody,
  CreateFromTemplateBody,
  assertMayCreateProjects,
  assignTemplateProviders,
  createProjectFromTemplate,
  projectLanguages,
} from './template-projects.js';
import { requireUsableTemplate, templateTargetLangs, visibleTemplates } from '../kernel/index.js';

/**
 * Templates applied to projects: create a project from a template (v2, sync and async), the
 * templates a project may take, and the template's providers assigned to the project's jobs.
 */

const TAGS = ['Project'];
const TemplateParams = Type.Object({ templateUid: Type.String({ minLength: 1, maxLength: 64 }) });
const ProjectTemplateParams = Type.Object({
  projectUid: Type.String({ minLength: 1, maxLength: 64 }),
  templateUid: Type.String({ minLength: 1, maxLength: 64 }),
});
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

  async function assign(caller: Caller, projectUid: string, templateUid: string, jobUids: string[] | null) {
    const { project } = await requireProject(db, caller, projectUid, 'edit');
    const template = await requireUsableTemplate(db, caller, templateUid);
    let query = db.selectFrom('jobs').selectAll().where('projectId', '=', project.id).orderBy('id');
    if (jobUids) query = query.where('uid', 'in', jobUids);
    const jobs = await query.execute();
    const missing = jobUids?.find((uid) => !jobs.some((j) => j.uid === uid));
    if (missing)
      throw new ApiError('not_found', 'ResourceNotFound', `Job ${missing} is not a job of this project.`, {
        details: [{ field: 'jobs', message: `unknown uid "${missing}"` }],
      });
    await db.transaction().execute((trx) =>
      assignTemplateProviders(
        deps,
        trx,
        caller,
        template,
        jobs.map((j) => ({ id: j.id, uid: j.uid, targetLang: j.targetLang, workflowLevel: j.workflowLevel })),
      ),
    );
    deps.taskWakeup.notify();
    const fresh = await db
      .selectFrom('jobs')
      .selectAll()
      .where('id', 'in', jobs.length ? jobs.map((j) => j.id) : ['0'])
      .orderBy('id')
      .execute();
    return { jobs: await jobReferenceDtos(db, fresh, 'v1') };
  }

  return async (app) => {
    app.post(
      '/v2/projects/applyTemplate/:templateUid',
      {
        config: { access: TEMPLATE_PROJECT_CREATORS },
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
        assertMayCreateProjects(caller);
        const template = await requireUsableTemplate(db, caller, request.params.templateUid);
        const project = await db.transaction().execute((trx) => createProjectFromTemplate(deps, trx, caller, template, request.body));
        deps.taskWakeup.notify();
        const [view] = await toProjectViewsV2(db, caller, [{ project, view: ownView(caller) }], deps.clock().toISOString());
        return reply.code(201).send(view!);
      },
    );

    app.post(
      '/v2/projects/applyTemplate/async/:templateUid',
      {
        config: { access: TEMPLATE_PROJECT_CREATORS },
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
        assertMayCreateProjects(caller);
        const template = await requireUsableTemplate(db, caller, request.params.templateUid);
        const { callbackUrl, ...body } = request.body;
        projectLanguages(template, body);
        const row = await db.transaction().execute(async (trx) => {
          const asyncRequest = await createAsyncRequest(deps, trx, {
            organizationId: caller.organizationId,
            createdById: caller.userId,
            action: 'CREATE_PROJECT',
            callbackUrl: callbackUrl ?? null,
          });
          await enqueue(
            trx,
            {
              kind: CREATE_FROM_TEMPLATE_TASK,
              payload: { userId: caller.userId, templateUid: template.uid, body },
              organizationId: caller.organizationId,
              asyncRequestId: asyncRequest.id,
            },
            deps.clock(),
          );
          return asyncRequest;
        });
        deps.taskWakeup.notify();
        const [asyncRequest] = await toAsyncRequestDtos(db, caller.organizationId, [row]);
        return reply.code(202).send({ asyncRequest: asyncRequest! });
      },
    );

    app.get(
      '/v1/projects/:projectUid/assignableTemplates',
      {
        config: { access: PROJECT_EDITORS },
        schema: {
          tags: TAGS,
          operationId: 'assignableTemplates',
          summary: 'List assignable templates',
          description: "Templates the caller may use whose source language is the project's, or that have none; by name.",
          params: Type.Object({ projectUid: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: { 200: AssignableTemplates },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { project } = await requireProject(db, caller, request.params.projectUid, 'view');
        const rows = await db
          .selectFrom('projectTemplates')
          .selectAll()
          .where('organizationId', '=', caller.organizationId)
          .where((eb) => eb.or([eb('sourceLang', 'is', null), eb('sourceLang', '=', project.sourceLang)]))
          // The templates requireUsableTemplate lets the caller use: all of them for submitters.
          .$if(caller.role !== 'SUBMITTER', (query) => query.where((eb) => visibleTemplates(eb, caller)))
          .orderBy('name')
          .orderBy('id')
          .execute();
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
        config: { access: PROJECT_EDITORS },
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
      async (request) => assign(callerOf(request), request.params.projectUid, request.params.templateUid, null),
    );

    app.post(
      '/v1/projects/:projectUid/applyTemplate/:templateUid/assignProviders/forJobParts',
      {
        config: { access: PROJECT_EDITORS },
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
      async (request) =>
        assign(callerOf(request), request.params.projectUid, request.params.templateUid, [...new Set(request.body.jobs.map((j) => j.uid))]),
    );
  };
}
