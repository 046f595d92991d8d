import { STATUS_CODES } from 'node:http';
import type { RouteOptions } from 'fastify';
import { SCIM_ERRORS, TMS_ERRORS, isErrorCode } from '../errors/index.js';
import type { ErrorCode, ScimErrorCode } from '../errors/index.js';
import { ANY_ROLE } from './access.js';
import type { Access } from './access.js';
import { isExemptPath } from './rate-limit.js';

/**
 * The error responses each operation lists in the OpenAPI document (src/http/openapi.ts). The
 * usual ones follow from what the route declares; a route lists the others it raises in
 * `config.errors`, by catalogue code:
 *
 *     config: { access: roles('ADMIN'), errors: ['NameAlreadyExists'] }   // adds 409
 *
 * test/harness.ts fails a test that receives an error status its operation does not list.
 */

/** A code of the TMS catalogue, or of the SCIM family for the SCIM routes. */
export type DeclaredError = ErrorCode | ScimErrorCode;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors the route raises beyond those its declaration implies (see src/http/error-responses.ts). */
    errors?: readonly DeclaredError[];
  }
}

const statusOfDeclared = (code: DeclaredError): number =>
  isErrorCode(code) ? TMS_ERRORS[code].status : SCIM_ERRORS[code as ScimErrorCode].status;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether access is narrower than "any signed-in caller": not every role, a right, humans only, or a record permission. */
function restricts(access: Access): boolean {
  const someRolesOnly = access.roles !== undefined && ANY_ROLE.roles!.some((role) => !access.roles!.includes(role));
  return someRolesOnly || access.right !== undefined || access.humansOnly === true || access.record !== undefined;
}

interface RouteSchema {
  params?: unknown;
  querystring?: unknown;
  headers?: unknown;
  body?: unknown;
  consumes?: readonly string[];
}

/**
 * The error statuses of a route and the codes behind each, by these rules:
 * - 400 when it takes input (path parameters, query, headers or a body): InvalidArguments, and
 *   InvalidJson for a JSON body;
 * - 401 unless it is public; 403 for every authenticated route (a JWT may lack the scope, a
 *   session the CSRF header of an unsafe request), with AccessDenied where access is restricted;
 * - 404 when its path has parameters or it addresses a record;
 * - 413 and 415 when it takes a body (a body schema, or `consumes` for uploads);
 * - 429 unless rate limits exempt it;
 * - and the statuses of the codes in `config.errors`.
 */
export function errorResponsesOf(route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>): Map<number, Set<string>> {
  const responses = new Map<number, Set<string>>();
  const add = (status: number, code: string) => {
    let codes = responses.get(status);
    if (!codes) responses.set(status, (codes = new Set()));
    codes.add(code);
  };
  const schema = (route.schema ?? {}) as RouteSchema;
  const config = route.config ?? {};
  const access = config.access;
  const methods = [route.method].flat().map((m) => m.toUpperCase());
  const takesBody = schema.body !== undefined || (schema.consumes !== undefined && methods.some((m) => BODY_METHODS.has(m)));

  if (schema.params || schema.querystring || schema.headers || takesBody) add(400, 'InvalidArguments');
  if (schema.body !== undefined) add(400, 'InvalidJson');
  if (access && !access.public) {
    add(401, 'AuthUnauthorized');
    add(403, 'InsufficientScope');
    if (restricts(access)) add(403, 'AccessDenied');
    if (methods.some((m) => !SAFE_METHODS.has(m))) add(403, 'CsrfTokenInvalid');
  }
  if (route.url.includes(':') || access?.record) add(404, 'ResourceNotFound');
  if (takesBody) {
    add(413, 'PayloadTooLarge');
    add(415, 'UnsupportedMediaType');
  }
  if (config.rateLimit !== false && !isExemptPath(route.url)) add(429, 'TooManyRequests');
  for (const code of config.errors ?? []) add(statusOfDeclared(code), code);
  return new Map([...responses].sort(([a], [b]) => a - b));
}

/** The error body of every TMS operation, shared by all their error responses. */
export const ERROR_RESPONSE_SCHEMA = {
  type: 'object',
  description: 'The error body of the TMS API; `errorCode` is one of the error catalogue (docs/api-conventions.md, "Errors").',
  required: ['errorCode', 'errorDescription', 'errorDetails'],
  properties: {
    errorCode: { type: 'string', description: 'Stable, for programs: one of the catalogue’s codes.', example: 'InvalidArguments' },
    errorDescription: { type: 'string', description: 'For people.' },
    errorDetails: {
      type: 'array',
      description: 'The inputs at fault, where the error names them.',
      items: {
        type: 'object',
        required: ['message'],
        properties: { field: { type: 'string' }, message: { type: 'string' }, in: { type: 'string' } },
        additionalProperties: true,
      },
    },
  },
} as const;

/** The error body of the SCIM operations (RFC 7644 §3.12). */
export const SCIM_ERROR_RESPONSE_SCHEMA = {
  type: 'object',
  description: 'A SCIM error (RFC 7644 §3.12).',
  required: ['schemas', 'status', 'detail'],
  properties: {
    schemas: { type: 'array', items: { type: 'string', enum: ['urn:ietf:params:scim:api:messages:2.0:Error'] } },
    status: { type: 'string', description: 'The HTTP status, as a string.' },
    scimType: { type: 'string', description: 'What kind of 400 or 409 it is.' },
    detail: { type: 'string' },
  },
} as const;

/** One OpenAPI response object: the status's name and its codes, and the shared schema. */
export function errorResponseObject(status: number, codes: ReadonlySet<string>, surface: 'tms' | 'scim') {
  const name = STATUS_CODES[status] ?? 'Error';
  return surface === 'scim'
    ? {
        description: name,
        content: { 'application/scim+json': { schema: { $ref: '#/components/schemas/ScimErrorResponse' } } },
      }
    : {
        description: `${name}: ${[...codes].join(', ')}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
      };
}
