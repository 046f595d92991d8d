import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { newUid } from '../../../db/ids.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { dueDateSchemeNameTaken, findDueDateScheme, listDueDateSchemes, schemeSteps } from './due-date-schemes.repository.js';
import type { DueDateSchemeRow } from './due-date-schemes.repository.js';
import {
  CreateDueDateSchemeBody,
  DueDateSchemeListQuery,
  DueDateSchemePage,
  DueDateSchemeSchema,
  DueDateSchemeUidParams,
} from './due-date-schemes.schemas.js';

/** Reading: ADMIN and PROJECT_MANAGER (they pick a scheme for a project). */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Writing is setting up the organization: ADMIN, or a project manager with the setupServer right. */
const WRITERS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

type DueDateSchemeDto = Static<typeof DueDateSchemeSchema>;
type CreateBody = Static<typeof CreateDueDateSchemeBody>;

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a due date scheme', name });

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

/** The body's offsets with the ids of their workflow steps (400 on unknown or repeated steps). */
async function resolveOffsets(db: Db, caller: Caller, body: CreateBody) {
  const entries = body.workflowSteps ?? [];
  const uids = entries.map((e) => e.workflowStep.uid);
  const repeated = uids.find((uid, index) => uids.indexOf(uid) !== index);
  if (repeated)
    throw errors.InvalidArguments({
      reason: `The workflow step ${repeated} is listed twice.`,
      details: [{ field: 'workflowSteps', message: `${repeated} listed twice` }],
    });
  if (uids.length === 0) return [];
  const found = new Map(
    (
      await db
        .selectFrom('workflowSteps')
        .select(['id', 'uid'])
        .where('organizationId', '=', caller.organizationId)
        .where('uid', 'in', uids)
        .execute()
    ).map((s) => [s.uid, s.id]),
  );
  const missing = uids.find((uid) => !found.has(uid));
  if (missing) {
    throw errors.ReferenceNotFound({ what: 'workflow step', key: missing, field: 'workflowSteps' });
  }
  return entries.map((e) => ({
    workflowStepId: found.get(e.workflowStep.uid)!,
    offsetDays: e.offsetDays ?? 0,
    offsetHours: e.offsetHours ?? 0,
  }));
}

/** Due Date Scheme operations (routes relative to `/api2`); only the list is a Phrase operation, the rest are OpenTMS extensions. */
export function dueDateSchemesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  async function one(caller: Caller, uid: string): Promise<DueDateSchemeRow> {
    const row = await findDueDateScheme(db, caller.organizationId, uid);
    if (!row) throw errors.ResourceNotFound({ what: 'Due date scheme' });
    return row;
  }

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
        const name = request.body.name.trim();
        if (name === '')
          throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
        try {
          const row = await db.transaction().execute(async (trx) => {
            if (await dueDateSchemeNameTaken(trx, caller.organizationId, name)) throw nameAlreadyExists(name);
            const offsets = await resolveOffsets(trx, caller, request.body);
            const scheme = await trx
              .insertInto('dueDateSchemes')
              .values({
                uid: newUid(),
                organizationId: caller.organizationId,
                name,
                description: request.body.description ?? null,
                createdAt: deps.clock().toISOString(),
                createdById: caller.userId,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            if (offsets.length > 0)
              await trx
                .insertInto('dueDateSchemeSteps')
                .values(offsets.map((o) => ({ ...o, dueDateSchemeId: scheme.id })))
                .execute();
            return scheme;
          });
          return reply.code(201).send((await toDtos(db, caller.organizationId, [row]))[0]!);
        } catch (error) {
          if (isUniqueViolation(error)) throw nameAlreadyExists(name);
          throw error;
        }
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
        return (await toDtos(db, caller.organizationId, [await one(caller, request.params.dueDateSchemeUid)]))[0];
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
        const row = await one(caller, request.params.dueDateSchemeUid);
        await db.deleteFrom('dueDateSchemes').where('id', '=', row.id).execute();
        return reply.code(204).send();
      },
    );
  };
}
