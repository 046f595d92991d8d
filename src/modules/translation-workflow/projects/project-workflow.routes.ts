import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { callerOf } from '../../../http/access.js';
import { PageOf, PagingQuery, pageWindow, toPage } from '../../../http/paging.js';
import { PROJECT_EDITORS, PROJECT_READERS, onProject, projectAccessOf } from '../kernel/index.js';
import { ProjectWorkflowStepList, WorkflowStepsQuery } from '../kernel/index.js';
import { projectProviders, projectWorkflowStepRows } from './projects.repository.js';
import { IdReference, ProjectUidParams } from './projects.schemas.js';
import {
  addTargetLanguages,
  addWorkflowSteps,
  assignVendor,
  contentGroupOf,
  linkContentGroup,
  unlinkContentGroup,
} from './project-workflow.service.js';

/**
 * A project's workflow steps and target languages, its providers, the vendor it is shared with,
 * and its content group (docs/projects.md).
 */

const TAGS = ['Project'];

const AddWorkflowStepsBody = Type.Object({ workflowSteps: Type.Array(IdReference, { minItems: 1, maxItems: 100 }) });
const AddTargetLangsBody = Type.Object({ targetLangs: Type.Array(Type.String({ maxLength: 32 }), { minItems: 1, maxItems: 500 }) });
const AssignVendorBody = Type.Object({ vendor: Type.Optional(IdReference), dateDue: Type.Optional(Type.String({ format: 'date-time' })) });
const ProviderReference = Type.Object({ type: Type.String(), id: Type.String(), uid: Type.String() });
const ProvidersQuery = Type.Object({ providerName: Type.Optional(Type.String({ maxLength: 255 })), ...PagingQuery });

/** Content group link (no published DTO; docs/projects.md). */
const ContentGroup = Type.Object({
  uid: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.Optional(Type.String({ maxLength: 255 })),
});
const ContentGroupBody = Type.Object({ contentGroup: ContentGroup });
const ContentGroupSchema = Type.Object(
  { contentGroup: Type.Union([Type.Object({ uid: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]) },
  { title: 'ProjectContentGroupDto' },
);

export function projectWorkflowRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v2/projects/:projectUid/workflowSteps',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getProjectWorkflowStepsV2',
          summary: 'Get workflow steps',
          description:
            'The project-specific steps (their `id` is what job assignments take), by workflow level. `withAssignedJobs`: only steps with a job the caller is a provider of.',
          params: ProjectUidParams,
          querystring: WorkflowStepsQuery,
          response: { 200: ProjectWorkflowStepList },
        },
      },
      async (request) => {
        const { project } = projectAccessOf(request);
        const rows = await projectWorkflowStepRows(db, project.id, request.query.withAssignedJobs ? callerOf(request).userId : undefined);
        return {
          projectWorkflowSteps: rows.map((s) => ({
            id: Number(s.id),
            abbreviation: s.abbr,
            name: s.name,
            workflowLevel: s.workflowLevel,
            workflowStep: { id: s.stepId, uid: s.uid, name: s.name, order: s.orderIndex, lqaEnabled: bool(s.lqaEnabled) },
          })),
        };
      },
    );

    app.post(
      '/v1/projects/:projectUid/workflowSteps',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'addWorkflowSteps',
          summary: 'Add workflow steps',
          description:
            "Appends the steps (numeric id or uid) after the project's last level, in the organization's workflow order; a step the project already has is 400. Jobs of files already in the project get no jobs for the new levels.",
          params: ProjectUidParams,
          body: AddWorkflowStepsBody,
        },
      },
      async (request, reply) => {
        await addWorkflowSteps(deps, callerOf(request), projectAccessOf(request), request.body.workflowSteps);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/targetLangs',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit'), errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'addTargetLanguageToProject',
          summary: 'Add target languages',
          description: "Adds the languages after the project's current ones (languages it has already are ignored); creates no jobs.",
          params: ProjectUidParams,
          body: AddTargetLangsBody,
        },
      },
      async (request, reply) => {
        await addTargetLanguages(deps, callerOf(request), projectAccessOf(request), request.body.targetLangs);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projects/:projectUid/providers',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getProjectAssignments',
          summary: 'List project providers',
          description:
            "The users and vendors assigned to the project's jobs, by name; `providerName` matches part of a user's name or user name, or a vendor's name.",
          params: ProjectUidParams,
          querystring: ProvidersQuery,
          response: { 200: PageOf(ProviderReference, 'PageDtoProviderReference') },
        },
      },
      async (request) => {
        const { project } = projectAccessOf(request);
        const all = await projectProviders(db, project.id, request.query.providerName);
        const { offset, limit } = pageWindow(request.query);
        return toPage(
          all.slice(offset, offset + limit).map(({ type, id, uid }) => ({ type, id, uid })),
          all.length,
          request.query,
        );
      },
    );

    app.post(
      '/v1/projects/:projectUid/assignVendor',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'assignVendorToProject',
          summary: 'Assign vendor',
          description:
            "Shares the project with a vendor of the organization (`vendor.id`: the vendor's id or uid) and sets the project's due date when `dateDue` is given; an empty body `{}` unassigns the vendor.",
          params: ProjectUidParams,
          body: AssignVendorBody,
        },
      },
      async (request, reply) => {
        await assignVendor(deps, callerOf(request), projectAccessOf(request), request.body);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projects/:projectUid/contentGroup',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getProjectContentGroup',
          summary: 'Get project content group',
          description: '`{contentGroup: {uid, name}}`, or `{contentGroup: null}` when the project has none.',
          params: ProjectUidParams,
          response: { 200: ContentGroupSchema },
        },
      },
      async (request) => ({ contentGroup: contentGroupOf(projectAccessOf(request).project) }),
    );

    app.post(
      '/v1/projects/:projectUid/contentGroup',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit') },
        schema: {
          tags: TAGS,
          operationId: 'linkProjectContentGroup',
          summary: 'Link content group',
          description:
            'Links the project to the content group `{contentGroup: {uid, name}}` (content groups live in the adjacent content service; the link replaces any earlier one).',
          params: ProjectUidParams,
          body: ContentGroupBody,
          response: { 200: ContentGroupSchema },
        },
      },
      async (request) => {
        const group = { uid: request.body.contentGroup.uid, name: request.body.contentGroup.name ?? null };
        await linkContentGroup(deps, callerOf(request), projectAccessOf(request), group);
        return { contentGroup: group };
      },
    );

    app.delete(
      '/v1/projects/:projectUid/contentGroup',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit') },
        schema: {
          tags: TAGS,
          operationId: 'unlinkProjectContentGroup',
          summary: 'Unlink content group',
          description: 'Idempotent: 204 also when the project has no content group.',
          params: ProjectUidParams,
        },
      },
      async (request, reply) => {
        await unlinkContentGroup(deps, callerOf(request), projectAccessOf(request));
        return reply.code(204).send();
      },
    );
  };
}
