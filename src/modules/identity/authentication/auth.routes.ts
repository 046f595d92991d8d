import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { ANY_ROLE, PUBLIC, callerOf, csrfRejection } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { findOrganizationById } from '../organizations/index.js';
import { findUserById } from '../users/index.js';
import { toUserReference } from '../users/index.js';
import {
  LoginBody,
  LoginOtherBody,
  LoginResponse,
  LoginToSessionBody,
  LoginToSessionResponse,
  LoginV3Body,
  LogoutQuery,
  WhoAmIResponse,
} from './auth.schemas.js';
import { loginOther, logout, passwordLogin, refreshLogin } from './auth.service.js';
import type { ClientInfo, IssuedLogin } from './auth.service.js';
import { SESSION_COOKIE, headerToken, queryToken } from './authenticate.js';
import { createAuthenticator } from './authenticate.js';

function clientInfo(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ipAddress: request.ip ?? null, userAgent: typeof agent === 'string' ? agent : null };
}

const loginResponse = (issued: IssuedLogin) => ({
  user: toUserReference(issued.user),
  token: issued.token,
  expires: issued.expires,
  lastInvalidateAllSessionsPerformed: issued.user.sessionsInvalidatedAt,
});

/** What a password login may answer besides the usual errors of a public operation with a body. */
const PASSWORD_LOGIN_ERRORS = ['AuthInvalidCredentials', 'AuthSsoRequired', 'AuthTooManyAttempts'] as const;

/** Authentication operations of the TMS surface (routes relative to `/api2`). */
export function authRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const secureCookie = deps.config.publicUrl?.startsWith('https://') ?? false;
  const authenticate = createAuthenticator(deps);

  function sessionReply(reply: FastifyReply, issued: IssuedLogin) {
    const maxAge = deps.config.loginTokenTtlSeconds;
    const cookie = `${SESSION_COOKIE}=${issued.token}`;
    reply.header('set-cookie', `${cookie}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureCookie ? '; Secure' : ''}`);
    return { user: toUserReference(issued.user), cookie, csrfToken: issued.csrfToken ?? '' };
  }

  return async (app) => {
    for (const [version, operationId, body] of [
      ['v1', 'login', LoginBody],
      ['v3', 'login_1', LoginV3Body],
    ] as const) {
      app.post(
        `/${version}/auth/login`,
        {
          config: { access: PUBLIC, errors: PASSWORD_LOGIN_ERRORS },
          schema: {
            tags: ['Authentication'],
            operationId,
            summary: 'Login',
            ...(version === 'v1' ? { deprecated: true, description: 'Deprecated: use POST /api2/v3/auth/login.' } : {}),
            body,
            response: { 200: LoginResponse },
          },
        },
        async (request) =>
          loginResponse(
            await passwordLogin(
              deps,
              'login',
              request.body as { userName: string; password: string; userUid?: string },
              clientInfo(request),
            ),
          ),
      );
    }

    for (const [version, operationId] of [
      ['v1', 'loginToSession'],
      ['v3', 'loginToSession_2'],
    ] as const) {
      app.post(
        `/${version}/auth/loginToSession`,
        {
          config: { access: PUBLIC, errors: PASSWORD_LOGIN_ERRORS },
          schema: {
            tags: ['Authentication'],
            operationId,
            summary: 'Login to session',
            description:
              'Sets the session cookie and returns the CSRF token that every unsafe request authenticated by the cookie must send in the X-CSRF-Token header.' +
              (version === 'v1' ? ' Deprecated: use POST /api2/v3/auth/loginToSession.' : ''),
            ...(version === 'v1' ? { deprecated: true } : {}),
            body: LoginToSessionBody,
            response: { 200: LoginToSessionResponse },
          },
        },
        async (request, reply) => sessionReply(reply, await passwordLogin(deps, 'session', request.body, clientInfo(request))),
      );
    }

    for (const [version, operationId] of [
      ['v1', 'loginOther'],
      ['v3', 'loginOther_1'],
    ] as const) {
      app.post(
        `/${version}/auth/loginOther`,
        {
          config: { access: { roles: ['ADMIN'], humansOnly: true }, errors: ['ResourceNotFound'] },
          schema: {
            tags: ['Authentication'],
            operationId,
            summary: 'Login as another user',
            ...(version === 'v1' ? { deprecated: true, description: 'Deprecated: use POST /api2/v3/auth/loginOther.' } : {}),
            body: LoginOtherBody,
            response: { 200: LoginResponse },
          },
        },
        async (request) => loginResponse(await loginOther(deps, callerOf(request), request.body)),
      );
    }

    app.post(
      '/v1/auth/logout',
      {
        // The token to end comes in the query or in the header (not both), so the handler reads it itself.
        config: { access: PUBLIC, errors: ['AuthUnauthorized', 'CsrfTokenInvalid'] },
        schema: {
          tags: ['Authentication'],
          operationId: 'logout',
          summary: 'Logout',
          description:
            'Ends the token given either in the `token` query parameter or in the Authorization header (not both), or the session of the cookie.',
          querystring: LogoutQuery,
        },
      },
      async (request, reply) => {
        const inHeader = headerToken(request);
        if (inHeader !== undefined && queryToken(request) !== undefined) {
          throw errors.InvalidArguments({
            reason: 'Send the token either in the "token" query parameter or in the Authorization header, not both.',
          });
        }
        const caller = await authenticate(request);
        if (!caller) throw errors.AuthUnauthorized();
        if (caller.credential.kind === 'session') {
          // Same rule as every cookie-authenticated unsafe request: the CSRF token must come along.
          const rejection = csrfRejection(request, caller);
          if (rejection) throw rejection;
          reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
        }
        await logout(deps, caller);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/auth/refresh',
      {
        config: { access: ANY_ROLE, errors: ['InvalidArguments', 'ResourceNotFound'] },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'refreshLogin',
          summary: 'Refresh a login token (OpenTMS extension)',
          description: 'Returns a new login token with a fresh expiry and revokes the presented one.',
          response: { 200: LoginResponse },
        },
      },
      async (request) => loginResponse(await refreshLogin(deps, callerOf(request))),
    );

    app.get(
      '/v1/auth/whoAmI',
      {
        config: { access: ANY_ROLE, errors: ['ResourceNotFound'] },
        schema: { tags: ['Authentication'], operationId: 'whoAmI', summary: 'Who am I', response: { 200: WhoAmIResponse } },
      },
      async (request) => {
        const caller = callerOf(request);
        const user = await findUserById(deps.database.db, caller.organizationId, caller.userId);
        const organization = await findOrganizationById(deps.database.db, caller.organizationId);
        if (!user || !organization) throw errors.ResourceNotFound({ what: 'User' });
        return {
          user: toUserReference(user),
          organization: { id: organization.id, uid: organization.uid, name: organization.name },
          // Only its hash is stored; the page that logged in keeps the token it was given.
          csrfToken: null,
          edition: { id: 'opentms', name: 'OpenTMS', title: 'OpenTMS' },
          features: {},
        };
      },
    );
  };
}
