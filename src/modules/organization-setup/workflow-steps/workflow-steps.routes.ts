import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { listWorkflowSteps } from './workflow-steps.repository.js';
import type { WorkflowStepRow } from './workflow-steps.repository.js';
import {
  CreateWorkflowStepBody,
  EditWorkflowStepBody,
  WorkflowStepListQuery,
  WorkflowStepPage,
  WorkflowStepSchema,
  WorkflowStepUidParams,
} from './workflow-steps.schemas.js';
import { createWorkflowStep, deleteWorkflowStep, editWorkflowStep, getWorkflowStep } from './workflow-steps.service.js';

/**
 * Reading: ADMIN, PROJECT_MANAGER and LINGUIST. Linguists' profiles and job lists are scoped by
 * workflow steps, so they need the organization's steps with names and order; guests and
 * submitters work on projects and see the steps of the jobs they may see there.
 */
export const WORKFLOW_STEP_READERS: Access = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');
/** Writing is setting up the organization: ADMIN, or a project manager with the setupServer right. */
export const WORKFLOW_STEP_WRITERS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

export function toWorkflowStepDto(row: WorkflowStepRow): Static<typeof WorkflowStepSchema> {
  return { id: row.id, uid: row.uid, name: row.name, abbr: row.abbr, order: row.orderIndex, lqaEnabled: bool(row.lqaEnabled) };
}

/** Workflow Step operations (routes relative to `/api2`). */
export function workflowStepsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/workflowSteps',
      {
        config: { access: WORKFLOW_STEP_READERS },
        schema: {
          tags: ['Workflow Step'],
          operationId: 'listWFSteps',
          summary: 'List workflow steps',
          description: '`name` matches part of the name, `abbr` the whole abbreviation, both ignoring case.',
          querystring: WorkflowStepListQuery,
          response: { 200: WorkflowStepPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, ...filter } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listWorkflowSteps(db, caller.organizationId, filter, page);
        return toPage(rows.map(toWorkflowStepDto), total, page);
      },
    );

    app.post(
      '/v1/workflowSteps',
      {
        config: { access: WORKFLOW_STEP_WRITERS, errors: ['NameAlreadyExists', 'AbbreviationAlreadyExists'] },
        schema: {
          tags: ['Workflow Step'],
          operationId: 'createWFStep',
          summary: 'Create workflow step',
          description:
            'Name and abbreviation are unique in the organization, ignoring case (409). Without `order` the step comes after the last one.',
          body: CreateWorkflowStepBody,
          response: { 201: WorkflowStepSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await createWorkflowStep(deps, caller, request.body);
        return reply.code(201).send(toWorkflowStepDto(row));
      },
    );

    app.get(
      '/v1/workflowSteps/:workflowStepUid',
      {
        config: { access: WORKFLOW_STEP_READERS },
        schema: {
          tags: ['Workflow Step'],
          operationId: 'getWFStep',
          summary: 'Get workflow step',
          params: WorkflowStepUidParams,
          response: { 200: WorkflowStepSchema },
        },
      },
      async (request) => toWorkflowStepDto(await getWorkflowStep(deps, callerOf(request), request.params.workflowStepUid)),
    );

    app.put(
      '/v1/workflowSteps/:workflowStepUid',
      {
        config: { access: WORKFLOW_STEP_WRITERS, errors: ['NameAlreadyExists', 'AbbreviationAlreadyExists'] },
        schema: {
          tags: ['Workflow Step'],
          operationId: 'editWFStep',
          summary: 'Edit workflow step',
          description: 'Changes the fields given; the others stay. Name and abbreviation stay unique in the organization (409).',
          params: WorkflowStepUidParams,
          body: EditWorkflowStepBody,
          response: { 200: WorkflowStepSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return toWorkflowStepDto(await editWorkflowStep(deps, caller, request.params.workflowStepUid, request.body));
      },
    );

    app.delete(
      '/v1/workflowSteps/:workflowStepUid',
      {
        config: { access: WORKFLOW_STEP_WRITERS, errors: ['LastWorkflowStep', 'WorkflowStepInUse'] },
        schema: {
          tags: ['Workflow Step'],
          operationId: 'deleteWFStep',
          summary: 'Delete workflow step',
          description:
            "The organization keeps at least one step (400 LastWorkflowStep). The step leaves users' settings, vendors, services and due date schemes; " +
            'a step that projects or project templates use is not deleted (409 WorkflowStepInUse).',
          params: WorkflowStepUidParams,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        await deleteWorkflowStep(deps, caller, request.params.workflowStepUid);
        return reply.code(204).send();
      },
    );
  };
}
