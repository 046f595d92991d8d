import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCIM_ERROR_URN, ScimError } from '../../../domain/scim/errors.js';
import type { ScimErrorType } from '../../../domain/scim/errors.js';
import { ApiError } from '../../../errors/index.js';
import { createRouteIndex, methodNotAllowed } from '../../../http/method-not-allowed.js';

/**
 * What makes the SCIM routes speak SCIM rather than the TMS conventions, installed on the SCIM
 * plugin only (Fastify encapsulation): `application/scim+json` bodies, SCIM error bodies
 * (RFC 7644 §3.12) for every failure including 401, 403, 404 and 405, and answers typed
 * `application/scim+json` (or `application/json` to a client that asks only for that).
 */
export const SCIM_MEDIA_TYPE = 'application/scim+json';

export interface ScimErrorBody {
  schemas: string[];
  status: string;
  scimType?: ScimErrorType;
  detail: string;
}

export function scimErrorBody(status: number, scimType: ScimErrorType | null, detail: string): ScimErrorBody {
  return { schemas: [SCIM_ERROR_URN], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/** scimType for the errors the shared users service throws. */
const SCIM_TYPES: Record<string, ScimErrorType> = {
  UserNameAlreadyExists: 'uniqueness',
  InvalidArguments: 'invalidValue',
  ReferenceNotFound: 'invalidValue',
  LastAdmin: 'mutability',
  BotUserReadOnly: 'mutability',
  InvalidJson: 'invalidSyntax',
};

/** Fastify's own errors (body parsing and limits). */
const FASTIFY_ERRORS: Record<string, { status: number; scimType: ScimErrorType | null; detail: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    scimType: null,
    detail: `The request body has a Content-Type this operation does not accept; send ${SCIM_MEDIA_TYPE} or application/json.`,
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, scimType: null, detail: 'The request body is larger than this server accepts.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    scimType: 'invalidSyntax',
    detail: 'The request says its body is JSON, but the body is empty.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, scimType: 'invalidSyntax', detail: 'The request body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    scimType: 'invalidSyntax',
    detail: 'The Content-Length header does not match the body.',
  },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, scimType: 'invalidSyntax', detail: 'The Content-Type header is not valid.' },
};

interface Translated {
  status: number;
  scimType: ScimErrorType | null;
  detail: string;
  headers: Record<string, string>;
}

/** Any error of a SCIM request as a SCIM error; unexpected ones become a 500 that says nothing more. */
export function translateScimError(error: unknown): Translated {
  if (error instanceof ScimError) return { status: error.status, scimType: error.scimType, detail: error.message, headers: {} };
  if (error instanceof ApiError) {
    const scimType = SCIM_TYPES[error.errorCode] ?? null;
    return { status: error.statusCode, scimType, detail: error.message, headers: error.headers };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const first = fastifyError.validation[0];
    const path = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
    const missing = (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
    const field = [path, missing].filter(Boolean).join('.');
    const where = fastifyError.validationContext ? `${fastifyError.validationContext} ` : '';
    const detail = first
      ? `Invalid ${where}parameter${field ? ` "${field}"` : ''}: ${first.message ?? 'is not valid'}.`
      : 'Invalid request.';
    return { status: 400, scimType: 'invalidValue', detail, headers: {} };
  }
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (known) return { ...known, headers: {} };
  // JSON.parse errors surface as a SyntaxError with a 400 status.
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, scimType: 'invalidSyntax', detail: 'The request body is not valid JSON.', headers: {} };
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500)
    return { status, scimType: null, detail: fastifyError.message || 'The request is not valid.', headers: {} };
  return { status: 500, scimType: null, detail: 'Something went wrong on the server; it has been logged.', headers: {} };
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
    return sendScimError(request, reply, new ScimError(404, null, `There is no SCIM endpoint at ${request.method} ${path}.`));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && /^application\/json/i.test(type)) reply.header('content-type', responseMediaType(request));
    return payload;
  });
}
