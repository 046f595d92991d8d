import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import type { ServicesTable } from '../../../db/tables/vendors.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import type { Kysely, Updateable } from 'kysely';
import { referenceNotFound, resolveReferences } from '../setup-records/index.js';
import {
  findProjectTemplate,
  findService,
  findServicesByUids,
  listServices,
  replaceServiceWorkflowSteps,
  serviceNameTaken,
  toServiceDtos,
} from './services.repository.js';
import type { ServiceRow } from './services.repository.js';
import {
  CreateServiceBody,
  DeleteServicesBody,
  ServiceListQuery,
  ServicePage,
  ServiceSchema,
  ServiceUidParams,
  UpdateServiceBody,
} from './services.schemas.js';

/** Description, "Access rules": ADMIN or PROJECT_MANAGER; creating, editing and deleting also need setupServer. */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const EDITORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a service', name });

type ServiceFields = Static<typeof UpdateServiceBody>;

/** Service operations: list and batch delete are published (2025); create, get and edit are OpenTMS extensions. */
export function servicesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  async function one(caller: Caller, uid: string): Promise<ServiceRow> {
    const row = await findService(db, caller.organizationId, uid);
    if (!row) throw errors.ResourceNotFound({ what: 'Service' });
    return row;
  }

  /**
   * Creates (existing = null) or partially updates a service in one transaction: fields left out
   * keep their values, a bad reference or a taken name changes nothing.
   */
  async function write(caller: Caller, body: ServiceFields, existing: ServiceRow | null): Promise<ServiceRow> {
    if (body.name !== undefined && body.name.trim() === '')
      throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
    if (body.priceList) throw referenceNotFound('priceList', 'price list', body.priceList.uid);
    const now = deps.clock().toISOString();
    try {
      return await db.transaction().execute(async (trx: Kysely<DB>) => {
        if (body.name !== undefined && (await serviceNameTaken(trx, caller.organizationId, body.name, existing?.id)))
          throw nameAlreadyExists(body.name);
        const stepIds =
          body.workflowSteps === undefined
            ? undefined
            : await resolveReferences(trx, caller.organizationId, 'workflowStep', 'workflowSteps', body.workflowSteps);
        const changes: Updateable<ServicesTable> = { lastModifiedAt: now, lastModifiedById: caller.userId };
        if (body.name !== undefined) changes.name = body.name;
        if (body.description !== undefined) changes.description = body.description;
        if (body.active !== undefined) changes.active = body.active;
        if (body.priceList === null) changes.priceListId = null;
        if (body.projectTemplate === null) changes.projectTemplateId = null;
        else if (body.projectTemplate !== undefined) {
          const template = await findProjectTemplate(trx, caller.organizationId, body.projectTemplate.uid);
          if (!template) throw referenceNotFound('projectTemplate', 'project template', body.projectTemplate.uid);
          changes.projectTemplateId = template.id;
        }
        const row = existing
          ? await trx.updateTable('services').set(changes).where('id', '=', existing.id).returningAll().executeTakeFirstOrThrow()
          : await trx
              .insertInto('services')
              .values({
                uid: newUid(),
                organizationId: caller.organizationId,
                name: body.name!,
                description: body.description ?? null,
                active: body.active ?? true,
                priceListId: null,
                projectTemplateId: changes.projectTemplateId ?? null,
                createdAt: now,
                createdById: caller.userId,
                lastModifiedAt: now,
                lastModifiedById: caller.userId,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
        if (stepIds !== undefined) await replaceServiceWorkflowSteps(trx, row.id, stepIds);
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error) && body.name !== undefined) throw nameAlreadyExists(body.name);
      throw error;
    }
  }

  return async (app) => {
    app.get(
      '/v1/services',
      {
        config: { access: READERS },
        schema: {
          tags: ['Service'],
          operationId: 'listServices',
          summary: 'List services',
          description: '`name`: part of the name, ignoring case; `active`: only active or only inactive services. Ordered by creation.',
          querystring: ServiceListQuery,
          response: { 200: ServicePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, name, active } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listServices(db, caller.organizationId, { name, active }, page);
        return toPage(await toServiceDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/services',
      {
        config: { access: EDITORS, errors: ['NameAlreadyExists', 'ReferenceNotFound'] },
        schema: {
          tags: ['Service'],
          operationId: 'createService',
          summary: 'Create service (OpenTMS extension)',
          description:
            'Names are unique in the organization, ignoring case (409 NameAlreadyExists). Price lists do not exist yet: a non-null priceList is 400 ReferenceNotFound.',
          body: CreateServiceBody,
          response: { 201: ServiceSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await write(caller, request.body, null);
        return reply.code(201).send((await toServiceDtos(db, caller.organizationId, [row]))[0]!);
      },
    );

    app.get(
      '/v1/services/:serviceUid',
      {
        config: { access: READERS },
        schema: {
          tags: ['Service'],
          operationId: 'getService',
          summary: 'Get service (OpenTMS extension)',
          params: ServiceUidParams,
          response: { 200: ServiceSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return (await toServiceDtos(db, caller.organizationId, [await one(caller, request.params.serviceUid)]))[0];
      },
    );

    app.put(
      '/v1/services/:serviceUid',
      {
        config: { access: EDITORS, errors: ['NameAlreadyExists', 'ReferenceNotFound'] },
        schema: {
          tags: ['Service'],
          operationId: 'updateService',
          summary: 'Edit service (OpenTMS extension)',
          description:
            'A partial update (description, "Behaviour of other operations" 4): fields left out keep their values; null clears description, priceList and projectTemplate; workflowSteps, when given, replaces the list.',
          params: ServiceUidParams,
          body: UpdateServiceBody,
          response: { 200: ServiceSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await write(caller, request.body, await one(caller, request.params.serviceUid));
        return (await toServiceDtos(db, caller.organizationId, [row]))[0];
      },
    );

    app.delete(
      '/v1/services',
      {
        config: { access: EDITORS, errors: ['ResourceNotFound'] },
        schema: {
          tags: ['Service'],
          operationId: 'deleteServices',
          summary: 'Delete services (batch)',
          description:
            'Deletes the services `{ services: [{uid}] }`, all or none: 404 naming the uids that are not services of the organization.',
          body: DeleteServicesBody,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const uids = [...new Set(request.body.services.map((s) => s.uid))];
        const rows = await findServicesByUids(db, caller.organizationId, uids);
        const found = new Set(rows.map((r) => r.uid));
        const missing = uids.filter((uid) => !found.has(uid));
        if (missing.length) {
          throw errors.ResourceNotFound({ what: 'Service', uids: missing, field: 'services' });
        }
        await db
          .deleteFrom('services')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        return reply.code(204).send();
      },
    );
  };
}
