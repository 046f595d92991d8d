import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { roles, callerOf } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { listAdditionalWorkflowSteps } from './workflow-steps.repository.js';
import type { AdditionalWorkflowStepRow } from './workflow-steps.repository.js';
import {
  AdditionalWorkflowStepBody,
  AdditionalWorkflowStepIdParams,
  AdditionalWorkflowStepListQuery,
  AdditionalWorkflowStepPage,
  AdditionalWorkflowStepSchema,
} from './workflow-steps.schemas.js';
import { createAdditionalWorkflowStep, deleteAdditionalWorkflowStep } from './workflow-steps.service.js';

/** Listing: ADMIN and PROJECT_MANAGER (description, endpoint table). */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Creating and deleting: ADMIN, or a project manager with the setupServer right. */
const WRITERS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

/** `id` is the record's uid: the DTO has no other identifier, and DELETE takes it back. */
export function toAdditionalWorkflowStepDto(row: AdditionalWorkflowStepRow): Static<typeof AdditionalWorkflowStepSchema> {
  return { id: row.uid, name: row.name };
}

/** Additional Workflow Step operations (routes relative to `/api2`). */
export function additionalWorkflowStepsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/additionalWorkflowSteps',
      {
        config: { access: READERS },
        schema: {
          tags: ['Additional Workflow Step'],
          operationId: 'listAWFSteps',
          summary: 'List additional workflow steps',
          description: 'Sorted by name; `name` matches part of the name, ignoring case.',
          querystring: AdditionalWorkflowStepListQuery,
          response: { 200: AdditionalWorkflowStepPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, name } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listAdditionalWorkflowSteps(db, caller.organizationId, { name }, page);
        return toPage(rows.map(toAdditionalWorkflowStepDto), total, page);
      },
    );

    app.post(
      '/v1/additionalWorkflowSteps',
      {
        config: { access: WRITERS, errors: ['NameAlreadyExists'] },
        schema: {
          tags: ['Additional Workflow Step'],
          operationId: 'createAWFStep',
          summary: 'Create additional workflow step',
          description: 'The name is unique in the organization, ignoring case (409).',
          body: AdditionalWorkflowStepBody,
          response: { 201: AdditionalWorkflowStepSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await createAdditionalWorkflowStep(deps, caller, request.body);
        return reply.code(201).send(toAdditionalWorkflowStepDto(row));
      },
    );

    app.delete(
      '/v1/additionalWorkflowSteps/:id',
      {
        config: { access: WRITERS },
        schema: {
          tags: ['Additional Workflow Step'],
          operationId: 'deleteAWFStep',
          summary: 'Delete additional workflow step',
          description: '`id` is the `id` of AdditionalWorkflowStepDto.',
          params: AdditionalWorkflowStepIdParams,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        await deleteAdditionalWorkflowStep(deps, caller, request.params.id);
        return reply.code(204).send();
      },
    );
  };
}
