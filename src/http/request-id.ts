import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Each request's id: the caller's `X-Request-Id` when it is a sane token (so a proxy's id can be
 * followed through our logs), otherwise a fresh UUID. It is echoed in the response header and
 * carried by every log line of the request (`reqId`).
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}
