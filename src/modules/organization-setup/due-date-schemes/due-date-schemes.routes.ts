import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { listDueDateSchemes, schemeSteps } from './due-date-schemes.repository.js';
import type { DueDateSchemeRow } from './due-date-schemes.repository.js';
import {
  CreateDueDateSchemeBody,
  DueDateSchemeListQuery,
  DueDateSchemePage,
  DueDateSchemeSchema,
  DueDateSchemeUidParams,
} from './due-date-schemes.schemas.js';
import { createDueDateScheme, deleteDueDateScheme, getDueDateScheme } from './due-date-schemes.service.js';

/** Reading: ADMIN and PROJECT_MANAGER (they pick a scheme for a project). */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Writing is setting up the organization: ADMIN, or a project manager with the setupServer right. */
const WRITERS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

type DueDateSchemeDto = Static<typeof DueDateSchemeSchema>;
async function toDtos(db: Db, organizationId: string, rows: DueDateSchemeRow[]): Promise<DueDateSchemeDto[]> {
  const [users, steps] = await Promise.all([
    userReferenceLookup(
      db,
      organizationId,
      rows.map((r) => r.createdById),
    ),
    schemeSteps(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    name: row.name,
    description: row.description,
    workflowSteps: steps
      .filter((s) => s.dueDateSchemeId === row.id)
      .map(({ workflowStep, offsetDays, offsetHours }) => ({ workflowStep, offsetDays, offsetHours })),
    createdBy: users(row.createdById),
    dateCreated: row.createdAt,
  }));
}

/** Due Date Scheme operations (routes relative to `/api2`); only the list is a Phrase operation, the rest are OpenTMS extensions. */
export function dueDateSchemesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/dueDateSchemes',
      {
        config: { access: READERS },
        schema: {
          tags: ['Due Date Scheme'],
          operationId: 'listDueDateSchemes',
          summary: 'List due date schemes',
          description: 'Sorted by name; `name` matches part of the name, ignoring case.',
          querystring: DueDateSchemeListQuery,
          response: { 200: DueDateSchemePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, name } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listDueDateSchemes(db, caller.organizationId, { name }, page);
        return toPage(await toDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/dueDateSchemes',
      {
        config: { access: WRITERS, errors: ['NameAlreadyExists', 'ReferenceNotFound'] },
        schema: {
          tags: ['Due Date Scheme'],
          operationId: 'createDueDateScheme',
          summary: 'Create due date scheme (OpenTMS extension)',
          description:
            'Each entry says how long before the project due date a workflow step is due. The name is unique in the organization, ignoring case (409); ' +
            'workflow steps are named by uid, at most once each (400).',
          body: CreateDueDateSchemeBody,
          response: { 201: DueDateSchemeSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await createDueDateScheme(deps, caller, request.body);
        return reply.code(201).send((await toDtos(db, caller.organizationId, [row]))[0]!);
      },
    );

    app.get(
      '/v1/dueDateSchemes/:dueDateSchemeUid',
      {
        config: { access: READERS },
        schema: {
          tags: ['Due Date Scheme'],
          operationId: 'getDueDateScheme',
          summary: 'Get due date scheme (OpenTMS extension)',
          params: DueDateSchemeUidParams,
          response: { 200: DueDateSchemeSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return (await toDtos(db, caller.organizationId, [await getDueDateScheme(deps, caller, request.params.dueDateSchemeUid)]))[0];
      },
    );

    app.delete(
      '/v1/dueDateSchemes/:dueDateSchemeUid',
      {
        config: { access: WRITERS },
        schema: {
          tags: ['Due Date Scheme'],
          operationId: 'deleteDueDateScheme',
          summary: 'Delete due date scheme (OpenTMS extension)',
          description: 'Deletes the scheme with its offsets.',
          params: DueDateSchemeUidParams,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        await deleteDueDateScheme(deps, caller, request.params.dueDateSchemeUid);
        return reply.code(204).send();
      },
    );
  };
}
