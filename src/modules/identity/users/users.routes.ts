import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { hasRight } from '../../../domain/users/role-settings.js';
import { listLastLogins, listLoginEvents } from './login-events.repository.js';
import { toUserDto } from './user-views.js';
import { toUserReference } from './user-views.js';
import { listUsers } from './users.repository.js';
import { findUsersByIds } from './users.repository.js';
import type { UserRow } from './users.repository.js';
import {
  LastLoginPage,
  LastLoginsQuery,
  LoginStatistics,
  PasswordBody,
  UserCreateBody,
  UserDetailsV3,
  UserDto,
  UserEditBody,
  UserListQuery,
  UserPage,
  UserUidParams,
} from './users.schemas.js';
import { createUser, getUserOr404, mayAccessUser, undeleteUser, userDetails } from './users.service.js';
import { deleteUser, editUser, setPassword } from './users.service.js';

const MANAGERS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'] };
/** Changing users is for people: the bot users of service accounts cannot (description, "Bot users"). */
const MANAGERS_HUMANS: Access = { ...MANAGERS, humansOnly: true };

/** User operations of the TMS surface (routes relative to `/api2`). */
export function usersRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  async function withCreators(rows: UserRow[], organizationId: string) {
    const ids = [
      ...new Set(
        rows
          .map((r) => r.createdById)
          .filter((id) => id !== null)
          .map(String),
      ),
    ];
    const creators = new Map((await findUsersByIds(db, organizationId, ids)).map((u) => [u.id, u]));
    return rows.map((row) => toUserDto(row, row.createdById === null ? undefined : creators.get(row.createdById)));
  }

  return async (app) => {
    app.get(
      '/v1/users',
      {
        config: { access: MANAGERS },
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
        const visibleTo = hasRight(caller.role, caller.settings, 'userViewOther') ? undefined : { userId: caller.userId };
        const { rows, total } = await listUsers(
          db,
          caller.organizationId,
          { ...filter, visibleTo, sort: sort?.[0], order: order?.[0] },
          page,
        );
        return toPage(await withCreators(rows, caller.organizationId), total, page);
      },
    );

    app.post(
      '/v3/users',
      {
        config: {
          access: { ...MANAGERS_HUMANS, right: 'userCreate' },
          errors: ['UserNameAlreadyExists', 'SeatLimitReached', 'ReferenceNotFound', 'UnsupportedLanguage'],
        },
        schema: {
          tags: ['User'],
          operationId: 'createUserV3',
          summary: 'Create user',
          description:
            'The role decides which role-specific fields apply; others are ignored. `sendInvitation` is accepted, but OpenTMS sends no e-mail.',
          querystring: { type: 'object', properties: { sendInvitation: { type: 'boolean' } } },
          body: UserCreateBody,
          response: { 201: UserDetailsV3 },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const user = await createUser(deps, caller, request.body);
        return reply.code(201).send(await userDetails(deps, caller, user));
      },
    );

    app.post(
      '/v2/users',
      {
        config: {
          access: { ...MANAGERS_HUMANS, right: 'userCreate' },
          errors: ['UserNameAlreadyExists', 'SeatLimitReached', 'ReferenceNotFound', 'UnsupportedLanguage'],
        },
        schema: {
          tags: ['User'],
          operationId: 'createUserV2',
          summary: 'Create user',
          deprecated: true,
          description:
            'Replaced by v3; still works (issue 13). Takes the same body as v3 and creates the user the same way; answers the older user record (UserDto), as the v1 user operations do.',
          querystring: { type: 'object', properties: { sendInvitation: { type: 'boolean' } } },
          body: UserCreateBody,
          response: { 201: UserDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const user = await createUser(deps, caller, request.body);
        return reply.code(201).send((await withCreators([user], caller.organizationId))[0]!);
      },
    );

    app.get(
      '/v3/users/:userUid',
      {
        config: { access: MANAGERS },
        schema: { tags: ['User'], operationId: 'getUserV3', summary: 'Get user', params: UserUidParams, response: { 200: UserDetailsV3 } },
      },
      async (request) => {
        const caller = callerOf(request);
        const user = await getUserOr404(deps, caller, request.params.userUid);
        if (!mayAccessUser(caller, user, 'userViewOther')) throw errors.AccessDenied({ reason: 'You may not view this user.' });
        return userDetails(deps, caller, user);
      },
    );

    app.put(
      '/v3/users/:userUid',
      {
        config: {
          access: MANAGERS_HUMANS,
          errors: ['UserNameAlreadyExists', 'LastAdmin', 'BotUserReadOnly', 'SeatLimitReached', 'ReferenceNotFound', 'UnsupportedLanguage'],
        },
        schema: {
          tags: ['User'],
          operationId: 'updateUserV3',
          summary: 'Edit user',
          params: UserUidParams,
          body: UserEditBody,
          response: { 200: UserDetailsV3 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const user = await editUser(deps, caller, request.params.userUid, request.body);
        return userDetails(deps, caller, user);
      },
    );

    app.delete(
      '/v1/users/:userUid',
      {
        config: { access: MANAGERS_HUMANS, errors: ['LastAdmin', 'BotUserReadOnly'] },
        schema: { tags: ['User'], operationId: 'deleteUser_1', summary: 'Delete user', params: UserUidParams },
      },
      async (request, reply) => {
        await deleteUser(deps, callerOf(request), request.params.userUid);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/users/:userUid/undelete',
      {
        config: { access: MANAGERS_HUMANS, errors: ['SeatLimitReached'] },
        schema: {
          tags: ['User'],
          operationId: 'cancelDeletion',
          summary: 'Restore user',
          params: UserUidParams,
          response: { 200: UserDto },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const user = await undeleteUser(deps, caller, request.params.userUid);
        return (await withCreators([user], caller.organizationId))[0];
      },
    );

    app.post(
      '/v1/users/:userUid/updatePassword',
      {
        config: { access: MANAGERS_HUMANS, errors: ['BotUserReadOnly'] },
        schema: {
          tags: ['User'],
          operationId: 'updatePassword',
          summary: 'Update password',
          description:
            "Password length must be between 8 and 255 and must not be the same as the user name. Ends the user's other sessions.",
          params: UserUidParams,
          body: PasswordBody,
        },
      },
      async (request, reply) => {
        await setPassword(deps, callerOf(request), request.params.userUid, request.body.password);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/users/lastLogins',
      {
        config: { access: MANAGERS },
        schema: {
          tags: ['User'],
          operationId: 'user-lastLogins',
          summary: 'List last login dates',
          querystring: LastLoginsQuery,
          response: { 200: LastLoginPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, sort, order, ...filter } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listLastLogins(db, caller.organizationId, { ...filter, sort: sort?.[0], order: order?.[0] }, page);
        return toPage(
          rows.map((row) => ({ user: toUserReference(row), lastLoginDate: row.lastLoginAt })),
          total,
          page,
        );
      },
    );

    app.get(
      '/v1/users/:userUid/loginStatistics',
      {
        config: { access: MANAGERS },
        schema: {
          tags: ['User'],
          operationId: 'loginActivity',
          summary: 'Login statistics',
          params: UserUidParams,
          response: { 200: LoginStatistics },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const user = await getUserOr404(deps, caller, request.params.userUid);
        if (!mayAccessUser(caller, user, 'userViewOther')) throw errors.AccessDenied({ reason: 'You may not view this user.' });
        const events = await listLoginEvents(db, user.id);
        return { userStatistics: events.map((e) => ({ date: e.at, ipAddress: e.ipAddress, ipCountry: null, userAgent: e.userAgent })) };
      },
    );
  };
}
