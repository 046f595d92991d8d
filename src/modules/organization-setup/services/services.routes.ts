import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { listServices, toServiceDtos } from './services.repository.js';
import {
  CreateServiceBody,
  DeleteServicesBody,
  ServiceListQuery,
  ServicePage,
  ServiceSchema,
  ServiceUidParams,
  UpdateServiceBody,
} from './services.schemas.js';
import { createService, deleteServices, editService, getService } from './services.service.js';

/** Description, "Access rules": ADMIN or PROJECT_MANAGER; creating, editing and deleting also need setupServer. */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const EDITORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

/** Service operations: list and batch delete are published (2025); create, get and edit are OpenTMS extensions. */
export function servicesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

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
            "Names are unique in the organization, ignoring case (409 NameAlreadyExists). priceList and projectTemplate name the organization's records by uid (400 ReferenceNotFound for others).",
          body: CreateServiceBody,
          response: { 201: ServiceSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await createService(deps, caller, request.body);
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
        return (await toServiceDtos(db, caller.organizationId, [await getService(deps, caller, request.params.serviceUid)]))[0];
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
        const row = await editService(deps, caller, request.params.serviceUid, request.body);
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
        await deleteServices(
          deps,
          caller,
          request.body.services.map((s) => s.uid),
        );
        return reply.code(204).send();
      },
    );
  };
}
