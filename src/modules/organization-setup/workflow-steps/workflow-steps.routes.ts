import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../db/constraint-errors.js';
import { newUid } from '../../../db/ids.js';
import { deletionRefusal, nextOrder, normalizeWorkflowStepInput } from '../../../domain/workflow-steps/workflow-steps.js';
import type { WorkflowStepInput } from '../../../domain/workflow-steps/workflow-steps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';
import { forgetSettingReferences } from '../../identity/users/index.js';
import { findWorkflowStep, listWorkflowSteps, lockWorkflowSteps, takenFields } from './workflow-steps.repository.js';
import type { WorkflowStepRow } from './workflow-steps.repository.js';
import {
  CreateWorkflowStepBody,
  EditWorkflowStepBody,
  WorkflowStepListQuery,
  WorkflowStepPage,
  WorkflowStepSchema,
  WorkflowStepUidParams,
} from './workflow-steps.schemas.js';

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

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a workflow step', name });
const abbreviationAlreadyExists = (abbr: string) => errors.AbbreviationAlreadyExists({ abbr });

/** The given fields, checked by the domain rules (400 listing every violation). */
function checked(input: WorkflowStepInput): WorkflowStepInput {
  const { value, violations } = normalizeWorkflowStepInput(input);
  if (violations.length > 0)
    throw errors.InvalidArguments({
      reason: `Invalid workflow step: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}.`,
      details: violations.map((v) => ({ ...v })),
    });
  return value;
}

/** 409 when another step of the organization has the name or the abbreviation. */
async function assertUnique(db: Db, organizationId: string, fields: WorkflowStepInput, exceptId?: WorkflowStepRow['id']): Promise<void> {
  const taken = await takenFields(db, organizationId, fields, exceptId);
  if (taken.name) throw nameAlreadyExists(fields.name!);
  if (taken.abbr) throw abbreviationAlreadyExists(fields.abbr!);
}

/** A unique index refused the write (a race lost to a concurrent request): the same 409 as the check. */
function uniqueRaceError(error: unknown, fields: WorkflowStepInput): unknown {
  if (!isUniqueViolation(error)) return error;
  const text = `${(error as { constraint?: string }).constraint ?? ''} ${(error as Error).message}`;
  if (text.includes('abbr') && fields.abbr !== undefined) return abbreviationAlreadyExists(fields.abbr);
  if (fields.name !== undefined) return nameAlreadyExists(fields.name);
  return error;
}

/** Workflow Step operations (routes relative to `/api2`). */
export function workflowStepsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  async function one(caller: Caller, uid: string): Promise<WorkflowStepRow> {
    const row = await findWorkflowStep(db, caller.organizationId, uid);
    if (!row) throw errors.ResourceNotFound({ what: 'Workflow step' });
    return row;
  }

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
        const fields = checked(request.body);
        try {
          const row = await db.transaction().execute(async (trx) => {
            await assertUnique(trx, caller.organizationId, fields);
            const existing = await lockWorkflowSteps(trx, deps.database.dialect, caller.organizationId);
            return trx
              .insertInto('workflowSteps')
              .values({
                uid: newUid(),
                organizationId: caller.organizationId,
                name: fields.name!,
                abbr: fields.abbr!,
                orderIndex: fields.order ?? nextOrder(existing.map((s) => s.orderIndex)),
                lqaEnabled: fields.lqaEnabled ?? false,
                createdAt: deps.clock().toISOString(),
                createdById: caller.userId,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
          });
          return reply.code(201).send(toWorkflowStepDto(row));
        } catch (error) {
          throw uniqueRaceError(error, fields);
        }
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
      async (request) => toWorkflowStepDto(await one(callerOf(request), request.params.workflowStepUid)),
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
        const fields = checked(request.body);
        const current = await one(caller, request.params.workflowStepUid);
        if (Object.keys(fields).length === 0) return toWorkflowStepDto(current);
        try {
          const row = await db.transaction().execute(async (trx) => {
            await assertUnique(trx, caller.organizationId, fields, current.id);
            return trx
              .updateTable('workflowSteps')
              .set({
                ...(fields.name !== undefined ? { name: fields.name } : {}),
                ...(fields.abbr !== undefined ? { abbr: fields.abbr } : {}),
                ...(fields.order !== undefined ? { orderIndex: fields.order } : {}),
                ...(fields.lqaEnabled !== undefined ? { lqaEnabled: fields.lqaEnabled } : {}),
                lastModifiedAt: deps.clock().toISOString(),
                lastModifiedById: caller.userId,
              })
              .where('id', '=', current.id)
              .returningAll()
              .executeTakeFirstOrThrow();
          });
          return toWorkflowStepDto(row);
        } catch (error) {
          throw uniqueRaceError(error, fields);
        }
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
        const current = await one(caller, request.params.workflowStepUid);
        try {
          await db.transaction().execute(async (trx) => {
            const steps = await lockWorkflowSteps(trx, deps.database.dialect, caller.organizationId);
            if (deletionRefusal(steps.length)) throw errors.LastWorkflowStep();
            await forgetSettingReferences(trx, caller.organizationId, 'workflowStep', [current.uid]);
            await trx.deleteFrom('workflowSteps').where('id', '=', current.id).execute();
          });
        } catch (error) {
          if (isForeignKeyViolation(error)) {
            throw errors.WorkflowStepInUse({ name: current.name });
          }
          throw error;
        }
        return reply.code(204).send();
      },
    );
  };
}
