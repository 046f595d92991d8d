import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { AUTHENTICATED, PUBLIC, callerOf } from '../../http/access.js';
import { notFound } from '../../http/errors.js';
import { findOrganizationById } from '../organizations/organizations.repository.js';
import { findUserById } from '../users/users.repository.js';
import { toUserReference } from '../users/users.schemas.js';
import { LoginBody, LoginResponse, LoginV3Body, WhoAmIResponse } from './auth.schemas.js';
import { login } from './auth.service.js';

/** Authentication operations of the TMS surface (routes relative to `/api2`). */
export function authRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/auth/login',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['Authentication'],
          operationId: 'login',
          summary: 'Login',
          deprecated: true,
          description: 'Deprecated: use POST /api2/v3/auth/login.',
          body: LoginBody,
          response: { 200: LoginResponse },
        },
      },
      async (request) => {
        const result = await login(deps, request.body.userName, request.body.password);
        return { user: toUserReference(result.user), token: result.token, expires: result.expires, lastInvalidateAllSessionsPerformed: null };
      },
    );

    app.post(
      '/v3/auth/login',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['Authentication'],
          operationId: 'login_1',
          summary: 'Login',
          body: LoginV3Body,
          response: { 200: LoginResponse },
        },
      },
      async (request) => {
        const result = await login(deps, request.body.userName, request.body.password);
        return { user: toUserReference(result.user), token: result.token, expires: result.expires, lastInvalidateAllSessionsPerformed: null };
      },
    );

    app.get(
      '/v1/auth/whoAmI',
      {
        config: { access: AUTHENTICATED },
        schema: { tags: ['Authentication'], operationId: 'whoAmI', summary: 'Who am I', response: { 200: WhoAmIResponse } },
      },
      async (request) => {
        const caller = callerOf(request);
        const user = await findUserById(deps.database.db, caller.organizationId, caller.userId);
        const organization = await findOrganizationById(deps.database.db, caller.organizationId);
        if (!user || !organization) throw notFound('User');
        return {
          user: toUserReference(user),
          organization: { id: String(organization.id), uid: organization.uid, name: organization.name },
        };
      },
    );
  };
}
