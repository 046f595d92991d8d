import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { callerOf, roles } from '../../http/access.js';
import { toPage } from '../../http/paging.js';
import { findUsersByIds, listUsers } from './users.repository.js';
import { UserListQuery, UserPage, toUserDto } from './users.schemas.js';

/** User operations of the TMS surface (routes relative to `/api2`). */
export function usersRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/users',
      {
        config: { access: roles('ADMIN', 'PROJECT_MANAGER') },
        schema: {
          tags: ['User'],
          operationId: 'getListOfUsersFiltered',
          summary: 'List users',
          querystring: UserListQuery,
          response: { 200: UserPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, sort, order, ...filter } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listUsers(
          deps.database.db,
          caller.organizationId,
          { ...filter, sort: sort?.[0], order: order?.[0] },
          page,
        );
        const creatorIds = [...new Set(rows.map((r) => r.createdById).filter((id) => id !== null).map(String))];
        const creators = new Map((await findUsersByIds(deps.database.db, caller.organizationId, creatorIds)).map((u) => [String(u.id), u]));
        return toPage(
          rows.map((row) => toUserDto(row, row.createdById === null ? undefined : creators.get(String(row.createdById)))),
          total,
          page,
        );
      },
    );
  };
}
