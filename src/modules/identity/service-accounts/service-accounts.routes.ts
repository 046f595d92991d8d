import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import type { Access } from '../../../http/access.js';
import { callerOf } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { toUserReference } from '../users/index.js';
import { productsOf } from './service-accounts.repository.js';
import {
  ServiceAccountCreateBody,
  ServiceAccountCreatedDto,
  ServiceAccountDto,
  ServiceAccountListQuery,
  ServiceAccountPage,
  ServiceAccountUidParams,
} from './service-accounts.schemas.js';
import { createServiceAccount, deleteServiceAccount, getServiceAccount, listServiceAccountViews } from './service-accounts.service.js';
import type { ServiceAccountView } from './service-accounts.service.js';

/** Organization settings: ADMIN users only, and never a bot (a bot must not make more bots). */
const ADMINS_ONLY: Access = { roles: ['ADMIN'], humansOnly: true };

function toDto({ row, botUser }: ServiceAccountView): ServiceAccountDto {
  return {
    id: row.id,
    uid: row.uid,
    name: row.name,
    clientId: row.clientId,
    products: productsOf(row).map((grant) => ({ product: grant.product, scopes: [...grant.scopes] })),
    botUser: toUserReference(botUser),
    dateCreated: row.createdAt,
  };
}

/** OpenTMS extension: service accounts for machine-to-machine access (routes relative to `/api2`). */
export function serviceAccountsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/serviceAccounts',
      {
        config: { access: ADMINS_ONLY },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'createServiceAccount',
          summary: 'Create service account',
          description:
            'Creates a service account and its bot user. The `clientSecret` is in this response only; use it with ' +
            '`client_id` at POST /idm/oauth/token (grant `client_credentials`).',
          body: ServiceAccountCreateBody,
          response: { 201: ServiceAccountCreatedDto },
        },
      },
      async (request, reply) => {
        const created = await createServiceAccount(deps, callerOf(request), request.body);
        return reply.code(201).send({ ...toDto(created), clientSecret: created.clientSecret });
      },
    );

    app.get(
      '/v1/serviceAccounts',
      {
        config: { access: ADMINS_ONLY },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'listServiceAccounts',
          summary: 'List service accounts',
          querystring: ServiceAccountListQuery,
          response: { 200: ServiceAccountPage },
        },
      },
      async (request) => {
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { views, total } = await listServiceAccountViews(deps, callerOf(request), page);
        return toPage(views.map(toDto), total, page);
      },
    );

    app.get(
      '/v1/serviceAccounts/:uid',
      {
        config: { access: ADMINS_ONLY },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'getServiceAccount',
          summary: 'Get service account',
          params: ServiceAccountUidParams,
          response: { 200: ServiceAccountDto },
        },
      },
      async (request) => toDto(await getServiceAccount(deps, callerOf(request), request.params.uid)),
    );

    app.delete(
      '/v1/serviceAccounts/:uid',
      {
        config: { access: ADMINS_ONLY },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'deleteServiceAccount',
          summary: 'Delete service account',
          description: 'Deletes the account and its bot user (the only way to remove a bot user); its tokens stop working at once.',
          params: ServiceAccountUidParams,
        },
      },
      async (request, reply) => {
        await deleteServiceAccount(deps, callerOf(request), request.params.uid);
        return reply.code(204).send();
      },
    );
  };
}
