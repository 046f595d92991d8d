import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { findOwnApiToken, insertApiToken, listApiTokensPage, revokeApiToken } from './api-tokens.repository.js';
import {
  ApiTokenCreateBody,
  ApiTokenCreatedDto,
  ApiTokenListQuery,
  ApiTokenPage,
  ApiTokenUidParams,
  toApiTokenDto,
} from './api-tokens.schemas.js';

/** Any human user manages their own tokens; bot users authenticate with client credentials instead. */
const OWN_TOKENS: Access = { ...AUTHENTICATED, humansOnly: true };

/** OpenTMS extension: personal API tokens (routes relative to `/api2`). */
export function apiTokensRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/auth/apiTokens',
      {
        config: { access: OWN_TOKENS },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'createApiToken',
          summary: 'Create personal API token',
          description:
            'The `token` is in this response only. Exchange it at POST /idm/oauth/token (RFC 8693) for a JWT access ' +
            'token, or send it as `Authorization: ApiToken <token>`. Needs a login token or session: an API token, ' +
            'or a JWT exchanged from one, cannot create more API tokens.',
          body: ApiTokenCreateBody,
          response: { 201: ApiTokenCreatedDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        // A leaked API token must not be able to outlive its revocation by minting successors.
        if (caller.credential.kind === 'jwt' || caller.credential.kind === 'api_token') {
          throw errors.AccessDenied({
            reason: 'API tokens can be created only with a login token or a browser session, not with an API token or an access token.',
          });
        }
        const now = deps.clock();
        let expiresAt: string | null = null;
        if (request.body.expiresAt) {
          const at = new Date(request.body.expiresAt);
          if (!(at.getTime() > now.getTime())) {
            throw errors.InvalidArguments({
              reason: 'Invalid body parameter "expiresAt": must be in the future.',
              details: [{ field: 'expiresAt', message: 'must be in the future', in: 'body' }],
            });
          }
          expiresAt = at.toISOString();
        }
        const { row, token } = await insertApiToken(deps.database.db, {
          userId: caller.userId,
          organizationId: caller.organizationId,
          name: request.body.name,
          expiresAt,
          now,
        });
        return reply.code(201).send({
          id: row.id,
          uid: row.uid,
          name: row.name,
          token,
          dateCreated: row.createdAt,
          expiresAt: row.expiresAt,
          lastUsed: null,
        });
      },
    );

    app.get(
      '/v1/auth/apiTokens',
      {
        config: { access: OWN_TOKENS },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'listApiTokens',
          summary: 'List own personal API tokens',
          description: "The caller's tokens, revoked and expired ones included; never the token values.",
          querystring: ApiTokenListQuery,
          response: { 200: ApiTokenPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await listApiTokensPage(deps.database.db, caller.organizationId, caller.userId, page);
        return toPage(rows.map(toApiTokenDto), total, page);
      },
    );

    app.delete(
      '/v1/auth/apiTokens/:uid',
      {
        config: { access: OWN_TOKENS },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'revokeApiToken',
          summary: 'Revoke own personal API token',
          description: 'The token, and every access token exchanged from it, stops working at once. Revoking a revoked token is a no-op.',
          params: ApiTokenUidParams,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await findOwnApiToken(deps.database.db, caller.organizationId, caller.userId, request.params.uid);
        if (!row) throw errors.ResourceNotFound({ what: 'API token' });
        if (row.revokedAt === null) await revokeApiToken(deps.database.db, caller.userId, row.uid, deps.clock());
        return reply.code(204).send();
      },
    );
  };
}
