import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors/index.js';
import { acceptsNull } from './json-leniency.js';

/**
 * How the API reads a request's body type (docs/api-conventions.md, "What clients may send"):
 *
 * - an upload operation (one whose `consumes` lists `application/octet-stream` or
 *   `multipart/form-data`) reads a body without Content-Type as `application/octet-stream`;
 * - any other operation reads a body without Content-Type as JSON, refuses a body of a type it
 *   does not accept (text/plain, XML, …) with 415, and takes an empty body as no body whatever
 *   its Content-Type (generated clients send `Content-Type: application/json` on every DELETE);
 * - an operation that needs a JSON body and gets none (no body, an empty one, or `null`) answers
 *   400 RequestBodyMissing.
 *
 * Install on the plugin that holds the API (the hooks need the route's schema).
 */

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const UPLOAD_TYPES = ['application/octet-stream', 'multipart/form-data'];

interface RouteSchema {
  consumes?: readonly string[];
  body?: unknown;
}

const mediaTypeOf = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
const isJsonType = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** Whether the route takes files (its `consumes` names an upload type). */
export function isUploadRoute(schema: RouteSchema | undefined): boolean {
  return schema?.consumes?.some((type) => UPLOAD_TYPES.includes(type)) ?? false;
}

/** Whether a non-upload route accepts a body of `mediaType`: its `consumes`, or else JSON. */
function accepts(schema: RouteSchema | undefined, mediaType: string): boolean {
  if (schema?.consumes && schema.consumes.length > 0) {
    return schema.consumes.some((type) => type === mediaType || (type === 'application/json' && isJsonType(mediaType)));
  }
  return isJsonType(mediaType);
}

/** The JSON schema the route validates a JSON body with, if any (a plain body schema, or the JSON entry of a content map). */
function jsonBodySchema(schema: RouteSchema | undefined): unknown {
  const body = schema?.body as { content?: Record<string, { schema?: unknown }> } | undefined;
  if (!body || typeof body !== 'object') return undefined;
  if (body.content && typeof body.content === 'object') return body.content['application/json']?.schema;
  return body;
}

function hasBody(request: FastifyRequest): boolean {
  const headers = request.raw.headers;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length.trim() !== '0';
}

export function installRequestBodies(app: FastifyInstance): void {
  // An empty body declared as JSON is no body (Fastify's own parser refuses it); anything else is
  // parsed by Fastify's parser, with its protection against prototype poisoning.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });

  app.addHook('onRequest', (request, _reply, done) => {
    if (request.is404 || !BODY_METHODS.has(request.method)) {
      done();
      return;
    }
    const schema = request.routeOptions.schema as RouteSchema | undefined;
    const headers = request.raw.headers;
    const contentType = headers['content-type'];
    if (contentType === undefined || contentType.trim() === '') {
      if (isUploadRoute(schema)) headers['content-type'] = 'application/octet-stream';
      else if (hasBody(request)) headers['content-type'] = 'application/json';
      done();
      return;
    }
    // Upload operations tell the client what to send themselves (src/http/uploads.ts).
    if (isUploadRoute(schema)) {
      done();
      return;
    }
    if (!hasBody(request)) {
      delete headers['content-type'];
      done();
      return;
    }
    if (!accepts(schema, mediaTypeOf(contentType))) {
      done(errors.UnsupportedMediaType() as unknown as FastifyError);
      return;
    }
    done();
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const contentType = request.headers['content-type'];
    const json = contentType === undefined || isJsonType(mediaTypeOf(contentType));
    if (json && (request.body === undefined || request.body === null)) {
      const schema = jsonBodySchema(request.routeOptions.schema as RouteSchema | undefined);
      if (schema !== undefined && !acceptsNull(schema)) {
        done(errors.RequestBodyMissing() as unknown as FastifyError);
        return;
      }
    }
    done();
  });
}
