import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { PUBLIC } from '../../../http/access.js';
import { ApiError, OAuthError, oauthErrors, oauthRefusal } from '../../../errors/index.js';
import { publicJwks, signingKey } from './signing-keys.js';
import { tokenRequest } from './token-service.service.js';
import type { TokenForm } from './token-service.service.js';

const FORM = 'application/x-www-form-urlencoded';

/** Stands for a body of any other content type: the handler answers it with invalid_request. */
const NOT_A_FORM = Symbol('not a form');

/** Parses a form body; RFC 6749, section 3.2: "Request and response parameters MUST NOT be included more than once." */
export function parseTokenForm(body: string): TokenForm {
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) {
    if (form.has(name)) throw oauthErrors.invalid_request(`The parameter "${name}" is repeated.`);
    form.set(name, value);
  }
  return form;
}

const OAuthErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { title: 'OAuthError', description: 'RFC 6749, section 5.2' },
);

const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'A JWT (ES256), verifiable with /idm/.well-known/jwks.json' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds the token is valid for' }),
    issued_token_type: Type.Optional(Type.String({ description: 'Token exchange only' })),
    scope: Type.Optional(Type.String({ description: 'Client credentials only: granted `<product>:<scope>` entries' })),
  },
  { title: 'OAuthTokenResponse' },
);

const Jwks = Type.Object(
  {
    keys: Type.Array(
      Type.Object({ kid: Type.String(), kty: Type.String(), alg: Type.String(), use: Type.String() }, { additionalProperties: true }),
    ),
  },
  { title: 'JsonWebKeySet' },
);

/**
 * The token service (description, "Token service" and "Authentication"), at the root, outside
 * `/api2`: `POST /idm/oauth/token` and the public keys that verify its JWTs. Its errors are RFC
 * 6749 errors, not TMS errors, so this plugin has its own body parsers and error handler
 * (Fastify encapsulation keeps both to these routes).
 */
export function tokenServiceRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    // Only forms are token requests; every other body still reaches the handler (instead of a 415
    // or a JSON error from the shared parsers) so that it gets an RFC 6749 invalid_request.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseTokenForm(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, NOT_A_FORM));

    // Whatever fails here (the parser's repeated parameter, a body over the limit, a rate limit)
    // is answered in RFC 6749 form, keeping its status and headers (Retry-After, say).
    app.setErrorHandler((error: FastifyError | OAuthError | ApiError, request, reply) => {
      let oauth: OAuthError;
      let headers: Record<string, string> = {};
      if (error instanceof OAuthError) oauth = error;
      else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        oauth = oauthRefusal(error.statusCode, error.message || 'The request is not valid.');
        if (error instanceof ApiError) headers = error.headers;
      } else {
        request.log.error({ err: error }, 'token request failed');
        oauth = oauthErrors.server_error('Something went wrong on the server; it has been logged.');
      }
      return reply
        .code(oauth.statusCode)
        .headers({ ...headers, ...oauth.headers, 'cache-control': 'no-store', pragma: 'no-cache' })
        .send(oauth.body);
    });

    app.post(
      '/idm/oauth/token',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['Authentication'],
          operationId: 'oauthToken',
          summary: 'Issue an access token',
          description:
            `Form-encoded (${FORM}) only. \`grant_type=urn:ietf:params:oauth:grant-type:token-exchange\` with ` +
            '`subject_token=<personal API token>` (RFC 8693), or `grant_type=client_credentials` with the `client_id` and ' +
            '`client_secret` of a service account (in the form or as HTTP Basic) and optional `resource` and `scope`. ' +
            'Errors follow RFC 6749: `{error, error_description}`.',
          response: { 200: TokenResponse, 400: OAuthErrorBody, 401: OAuthErrorBody },
        },
      },
      async (request, reply) => {
        const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (mediaType !== FORM || request.body === NOT_A_FORM || !(request.body instanceof Map)) {
          throw oauthErrors.invalid_request(`The token request must be a form (Content-Type: ${FORM}).`);
        }
        const response = await tokenRequest(deps, request.body as TokenForm, request.headers.authorization);
        return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(response);
      },
    );

    app.get(
      '/idm/.well-known/jwks.json',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['Authentication'],
          operationId: 'getJwks',
          summary: 'Public keys of the token service',
          description: 'The JSON Web Key Set that verifies the access tokens of POST /idm/oauth/token.',
          response: { 200: Jwks },
        },
      },
      async (_request, reply) => {
        await signingKey(deps); // never publish an empty set: make the first key now if there is none
        return reply.header('cache-control', 'public, max-age=300').send({ keys: await publicJwks(deps) });
      },
    );
  };
}
