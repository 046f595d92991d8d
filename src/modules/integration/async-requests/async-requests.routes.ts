import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { countPending, findAsyncRequest, listPending } from './async-requests.repository.js';
import { AsyncRequestPage, AsyncRequestParams, AsyncRequestSchema, AsyncStatusSchema, PendingQuery } from './async-requests.schemas.js';
import { toAsyncRequestDtos } from './async-request-views.js';

/** Async Request operations (routes relative to `/api2`). */
export function asyncRequestsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.get(
      '/v1/async',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: ['Async Request'],
          operationId: 'listPendingRequests',
          summary: 'List pending requests',
          description: 'Unfinished asynchronous requests of the caller, or of the whole organization with `all=true` (ADMIN only).',
          querystring: PendingQuery,
          response: { 200: AsyncRequestPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { all, pageNumber, pageSize } = request.query;
        if (all && caller.role !== 'ADMIN')
          throw errors.AccessDenied({ reason: 'Only an ADMIN may list the pending requests of the whole organization.' });
        const page = { pageNumber, pageSize };
        const { rows, total } = await listPending(db, caller.organizationId, all ? null : caller.userId, page);
        return toPage(await toAsyncRequestDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.get(
      '/v1/async/status',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: ['Async Request'],
          operationId: 'getCurrentLimitStatus',
          summary: 'Get current limits',
          description: 'How many asynchronous requests of the organization are pending, and how many may be.',
          response: { 200: AsyncStatusSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return { concurrentRequests: { limit: deps.config.asyncPendingLimit, count: await countPending(db, caller.organizationId) } };
      },
    );

    app.get(
      '/v1/async/:asyncRequestId',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: ['Async Request'],
          operationId: 'getAsyncRequest',
          summary: 'Get asynchronous request',
          description: '`asyncResponse` stays null until the request has finished; then it carries its errors or warnings.',
          params: AsyncRequestParams,
          response: { 200: AsyncRequestSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await findAsyncRequest(db, caller.organizationId, request.params.asyncRequestId);
        // Managers see every request of the organization; other users their own.
        const visible = row && (caller.role === 'ADMIN' || caller.role === 'PROJECT_MANAGER' || String(row.createdById) === caller.userId);
        if (!row || !visible) throw errors.ResourceNotFound({ what: 'Asynchronous request' });
        return (await toAsyncRequestDtos(db, caller.organizationId, [row]))[0];
      },
    );
  };
}
