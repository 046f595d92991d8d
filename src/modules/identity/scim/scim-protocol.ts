import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCIM_DETAIL_OF_TMS_CODE, SCIM_TYPE_OF_TMS_CODE, ScimError, scimErrorBody, scimErrors } from '../../../errors/index.js';
import type { ScimErrorType } from '../../../errors/index.js';
import { toApiError } from '../../../http/errors.js';
import { createRouteIndex, methodNotAllowed } from '../../../http/method-not-allowed.js';

/**
 * What makes the SCIM routes speak SCIM rather than the TMS conventions, installed on the SCIM
 * plugin only (Fastify encapsulation): `application/scim+json` bodies, SCIM error bodies
 * (RFC 7644 §3.12; the SCIM family of src/errors/scim-errors.ts) for every failure including
 * 401, 403, 404 and 405, and answers typed `application/scim+json` (or `application/json` to a
 * client that asks only for that).
 */
export const SCIM_MEDIA_TYPE = 'application/scim+json';

interface Translated {
  status: number;
  scimType: ScimErrorType | null;
  detail: string;
  headers: Record<string, string>;
}

/**
 * Any error of a SCIM request as a SCIM error: SCIM's own as they are; any other as the TMS error
 * it is (src/http/errors.ts), keeping its status, with the scimType and wording the SCIM family
 * gives its code. Unexpected errors become a 500 that says nothing more.
 */
export function translateScimError(error: unknown): Translated {
  if (error instanceof ScimError) return { status: error.status, scimType: error.scimType, detail: error.message, headers: {} };
  const apiError = toApiError(error);
  const code = apiError.errorCode as keyof typeof SCIM_TYPE_OF_TMS_CODE;
  return {
    status: apiError.status,
    scimType: SCIM_TYPE_OF_TMS_CODE[code] ?? null,
    detail: SCIM_DETAIL_OF_TMS_CODE[code] ?? apiError.message,
    headers: apiError.headers,
  };
}

/** `application/json` for a client that accepts that but not SCIM's own type; otherwise `application/scim+json`. */
export function responseMediaType(request: FastifyRequest): string {
  const accept = request.headers.accept ?? '';
  const plainJsonOnly = /application\/json/i.test(accept) && !/application\/scim\+json/i.test(accept);
  return `${plainJsonOnly ? 'application/json' : SCIM_MEDIA_TYPE}; charset=utf-8`;
}

function sendScimError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const { status, scimType, detail, headers } = translateScimError(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status, scimType }, detail);
  // RFC 7644 §2 / RFC 6750 §3: a 401 names the scheme the client should use.
  const extra: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer realm="OpenTMS SCIM"' } : {};
  return reply
    .code(status)
    .headers({ ...headers, ...extra })
    .type(responseMediaType(request))
    .send(scimErrorBody(status, scimType, detail));
}

/**
 * Installs the SCIM conventions on `app`, the SCIM plugin's own instance, which must be
 * registered with a prefix (its not-found handler covers that prefix). Call it before adding
 * the routes: a route keeps the error handler of the moment it is added.
 */
export function installScimProtocol(app: FastifyInstance): void {
  // JSON by another name (RFC 7644 §3.1); parsed like application/json, prototype poisoning refused.
  app.addContentTypeParser(SCIM_MEDIA_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  // SCIM bodies are JSON; anything else (Fastify would also read text/plain) is a 415.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((error, request, reply) => sendScimError(request, reply, error));

  // Unknown SCIM paths answer a SCIM 404, known paths with another method a SCIM 405 (as
  // src/http/method-not-allowed.ts does for the TMS surface).
  const index = createRouteIndex(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wrongMethod = methodNotAllowed(index, request.method, path);
    if (wrongMethod) return sendScimError(request, reply, wrongMethod);
    return sendScimError(request, reply, scimErrors.notFound(`There is no SCIM endpoint at ${request.method} ${path}.`));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && /^application\/json/i.test(type)) reply.header('content-type', responseMediaType(request));
    return payload;
  });
}
