import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { ApiError, STATUS, errorBody } from '../errors/index.js';
import type { ErrorBody, ErrorDetail, ErrorKind } from '../errors/index.js';
/** Fastify's own errors (parsing, limits, content types), mapped to the API's codes. */
const FASTIFY_ERRORS: Record<string, { kind: ErrorKind; code: string; description: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    kind: 'unsupported_media_type',
    code: 'UnsupportedMediaType',
    description: 'The request body has a Content-Type this operation does not accept.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    kind: 'invalid',
    code: 'InvalidContentLength',
    description: 'The Content-Length header does not match the body.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    kind: 'payload_too_large',
    code: 'PayloadTooLarge',
    description: 'The request body is larger than this server accepts.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    kind: 'invalid',
    code: 'InvalidJson',
    description: 'The request says its body is JSON, but the body is empty.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    kind: 'invalid',
    code: 'InvalidJson',
    description: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_INVALID_TYPE: {
    kind: 'invalid',
    code: 'InvalidContentType',
    description: 'The Content-Type header is not valid.',
  },
};

function translate(error: FastifyError | ApiError | Error): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof ApiError) {
    return { status: error.statusCode, body: errorBody(error.errorCode, error.message, error.details), headers: error.headers };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const details: ErrorDetail[] = fastifyError.validation.map((v) => {
      const path = v.instancePath ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
      const missing = (v.params as { missingProperty?: string } | undefined)?.missingProperty;
      const field = [path, missing].filter(Boolean).join('.') || undefined;
      return { ...(field ? { field } : {}), message: v.message ?? 'is not valid', in: fastifyError.validationContext };
    });
    const first = details[0];
    const where = fastifyError.validationContext ? `${fastifyError.validationContext} ` : '';
    const summary = first ? `Invalid ${where}parameter${first.field ? ` "${first.field}"` : ''}: ${first.message}.` : 'Invalid request.';
    return { status: 400, body: errorBody('InvalidArguments', summary, details), headers: {} };
  }
  if (fastifyError.code && FASTIFY_ERRORS[fastifyError.code]) {
    const known = FASTIFY_ERRORS[fastifyError.code]!;
    return { status: STATUS[known.kind], body: errorBody(known.code, known.description), headers: {} };
  }
  // JSON.parse errors surface as SyntaxError with a 400 status.
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, body: errorBody('InvalidJson', 'The request body is not valid JSON.'), headers: {} };
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return { status, body: errorBody('BadRequest', error.message || 'The request is not valid.'), headers: {} };
  }
  return { status: 500, body: errorBody('InternalError', 'Something went wrong on the server; it has been logged.'), headers: {} };
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  const { status, body, headers } = translate(error);
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(body);
}

/** Installs the one error handler every route shares. No stack trace ever reaches a client. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, headers } = translate(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ errorCode: body.errorCode, status }, body.errorDescription);
    return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(body);
  });
}
