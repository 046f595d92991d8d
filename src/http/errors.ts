import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody, errors } from '../errors/index.js';
import type { ErrorDetail } from '../errors/index.js';

/**
 * The one place where errors become TMS error responses `{errorCode, errorDescription,
 * errorDetails}`. Whatever fails (an ApiError of the catalogue, Fastify's validation, body
 * parsing and limits, the router's refusals, Node's HTTP parser) is first turned into an ApiError
 * of the catalogue (src/errors/catalogue.ts), so every error code a client sees is listed there.
 * No stack trace ever reaches a client.
 */

/** Fastify's own errors (parsing, content types, body limits), by their code. */
const FASTIFY_ERRORS: Record<string, () => ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => errors.UnsupportedMediaType(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => errors.InvalidContentLength(),
  FST_ERR_CTP_BODY_TOO_LARGE: () => errors.PayloadTooLarge(),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => errors.InvalidJson({ empty: true }),
  FST_ERR_CTP_INVALID_JSON_BODY: () => errors.InvalidJson(),
  FST_ERR_CTP_INVALID_TYPE: () => errors.InvalidContentType(),
};

/** Other 4xx errors of Fastify or a plugin, by status; any other becomes BadRequest with the framework's words. */
const FRAMEWORK_ERRORS_BY_STATUS: Record<number, () => ApiError> = {
  404: () => errors.ResourceNotFound({ what: 'Resource' }),
  408: () => errors.RequestTimeout(),
  413: () => errors.PayloadTooLarge(),
  415: () => errors.UnsupportedMediaType(),
};

/** Fastify's validation errors as InvalidArguments, every failing field in errorDetails. */
function validationError(error: FastifyError): ApiError {
  const details: ErrorDetail[] = error.validation!.map((v) => {
    const path = v.instancePath ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
    const missing = (v.params as { missingProperty?: string } | undefined)?.missingProperty;
    const field = [path, missing].filter(Boolean).join('.') || undefined;
    return { ...(field ? { field } : {}), message: v.message ?? 'is not valid', in: error.validationContext };
  });
  const first = details[0];
  const where = error.validationContext ? `${error.validationContext} ` : '';
  const reason = first ? `Invalid ${where}parameter${first.field ? ` "${first.field}"` : ''}: ${first.message}.` : 'Invalid request.';
  return errors.InvalidArguments({ reason, details });
}

/**
 * Any error thrown while serving a request, as an ApiError of the catalogue. The SCIM routes use
 * it too (src/modules/identity/scim/scim-protocol.ts) and render the result their own way.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return validationError(fastifyError);
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (known) return known();
  // JSON.parse errors of the body parser surface as a SyntaxError with a 400 status.
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) return errors.InvalidJson();
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return FRAMEWORK_ERRORS_BY_STATUS[status]?.() ?? errors.BadRequest({ reason: fastifyError.message || 'The request is not valid.' });
  }
  return errors.InternalError();
}

function send(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply
    .code(error.status)
    .headers(error.headers)
    .type('application/json; charset=utf-8')
    .send(errorBody(error.errorCode, error.message, error.details));
}

/** Installs the one error handler every route shares. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ errorCode: apiError.errorCode, status: apiError.status }, apiError.message);
    return send(reply, apiError);
  });
}

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route (and so before the error
 * handler) is involved: a path that is not a valid URL, a path parameter over `maxParamLength`.
 */
export function frameworkErrorHandler(maxParamLength: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const path = request.url.split('?')[0] ?? '/';
    const apiError =
      error.code === 'FST_ERR_BAD_URL'
        ? errors.InvalidRequestPath({ path })
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? errors.PathParameterTooLong({ maxLength: maxParamLength })
          : toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed before routing');
    else request.log.info({ errorCode: apiError.errorCode, status: apiError.status }, apiError.message);
    void send(reply, apiError);
  };
}

/**
 * Fastify's `clientErrorHandler` (the server's 'clientError' event): Node's HTTP parser refused
 * the request before Fastify saw it, such as headers over Node's limit (431), a request that did
 * not arrive in time (408) or bytes that are not HTTP (400). There is no request to reply to, so
 * the response is written to the socket, in the same shape as every other error, and the
 * connection is closed (the parser cannot find where the next request would start).
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way cannot be followed by another one on the same connection.
  const current = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || current?.headersSent) {
    socket.destroy(error);
    return;
  }
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? errors.RequestHeaderFieldsTooLarge({ limitBytes: maxHeaderSize })
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? errors.RequestTimeout()
        : errors.BadRequest({ reason: `The request is not valid HTTP (${error.code ?? error.message}).` });
  this.log.info({ errorCode: apiError.errorCode, status: apiError.status, parserError: error.code }, apiError.message);
  const body = JSON.stringify(errorBody(apiError.errorCode, apiError.message, apiError.details));
  socket.end(
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
