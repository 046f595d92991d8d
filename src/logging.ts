import pino from 'pino';
import type { DestinationStream, Logger, LoggerOptions } from 'pino';

/**
 * The one logger configuration of every process (docs/logging.md): the API's Fastify logger
 * (`src/app.ts`), the worker's (`src/queue/log.ts`, `src/main.ts`) and anything they log. JSON
 * lines (pino), ISO times, and no secret in any line:
 *
 * - `redact`: fields named like a secret (passwords, client secrets, webhook secrets, tokens) at
 *   the top of a logged object, and `Authorization`, `Cookie` and `X-Memsource-Token` in
 *   `headers` and `request.headers`, are written `[REDACTED]`;
 * - every other field is scrubbed at any depth (`formatters.log`): secret fields redacted, URLs
 *   masked;
 * - the `req` serializer (Fastify's request lines) masks secret query parameters (`?token=…`) and
 *   the password of a URL (`https://user:…@host`);
 * - the `err` serializer walks the whole error (its properties, causes, a body it carries);
 * - messages are masked like URLs.
 */

export const REDACTED = '[REDACTED]';

/** Names of fields that hold a secret, wherever they appear (compared case-insensitively). */
export const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'oldPassword',
  'clientSecret',
  'client_secret',
  'secret',
  'secretToken',
  'signingSecret',
  'token',
  'apiToken',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'subjectToken',
  'subject_token',
  'idToken',
  'id_token',
  'assertion',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-memsource-token',
  // MT engine credentials (docs/machine-translation.md, "Records").
  'credentials',
  'apiKey',
  'api_key',
] as const;

const SECRET_FIELD_SET = new Set(SECRET_FIELDS.map((name) => name.toLowerCase()));

/** Query parameters whose value is a secret (`?token=` is how Phrase clients authenticate). */
const SECRET_PARAMETERS = [
  'token',
  'access_token',
  'id_token',
  'refresh_token',
  'subject_token',
  'password',
  'client_secret',
  'secret',
  // MT engines' keys (apertium-apy's `key`, cloud engines' `api_key`).
  'key',
  'api_key',
  'apiKey',
];
const SECRET_PARAMETER = new RegExp(`((?:^|[?&;\\s])(?:${SECRET_PARAMETERS.join('|')})=)[^&#;\\s"'<>]*`, 'gi');
/** `scheme://user:password@`: the password part. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^/?#\s:@"'<>]*:)[^/?#\s@"'<>]*@/gi;

/** `text` with the values of secret query parameters and URL passwords replaced by `[REDACTED]`. */
export function maskUrlSecrets(text: string): string {
  if (!text.includes('=') && !text.includes('@')) return text;
  return text.replace(SECRET_PARAMETER, `$1${REDACTED}`).replace(URL_PASSWORD, `$1${REDACTED}@`);
}

const pathKey = (field: string) => (/^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `["${field}"]`);
const HEADER_FIELDS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-memsource-token'];

/**
 * Pino redaction paths: each secret field at the top of a logged object, and the secret headers
 * of `headers` and `request.headers`. Explicit paths only: a path that starts with
 * a wildcard makes pino walk every field of every line (about 30 µs a line); what lies deeper is
 * scrubbed by `scrubFields` below.
 */
function redactPaths(): string[] {
  const top = SECRET_FIELDS.map((field) => (pathKey(field).startsWith('.') ? field : pathKey(field)));
  // Not under `req` or `res`: their serializers keep no headers, and a path there would make pino
  // copy the object of every request line.
  const headers = ['headers', 'request.headers'].flatMap((prefix) => HEADER_FIELDS.map((field) => `${prefix}${pathKey(field)}`));
  return [...top, ...headers];
}

const MAX_SCRUB_DEPTH = 10;

/**
 * A copy of `value` with secret fields redacted and strings masked, at any depth (up to 10
 * levels; deeper values are left out). Plain objects, arrays and errors are copied; other
 * objects (buffers, class instances) are replaced by their type name, since they may hold
 * anything.
 */
export function scrubSecrets(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return maskUrlSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_SCRUB_DEPTH) return '[Object]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => scrubSecrets(item, depth + 1, seen));
    // Plain objects (also those made by Object.create from a plain prototype, as pino's error
    // serializer makes them) and errors are copied; instances of other classes are not.
    const plain = Object.getPrototypeOf(value) === null || (value as { constructor?: unknown }).constructor === Object;
    if (!plain && !(value instanceof Error)) {
      if (value instanceof URL) return maskUrlSecrets(value.href);
      if (value instanceof Date) return value;
      return `[${value.constructor?.name ?? 'Object'}]`;
    }
    const copy: Record<string, unknown> = {};
    const entries = Object.entries(value);
    // An error's message and stack are not enumerable: keep them.
    if (value instanceof Error) entries.unshift(['type', value.name], ['message', value.message], ['stack', value.stack]);
    for (const [key, item] of entries) {
      copy[key] = SECRET_FIELD_SET.has(key.toLowerCase()) && item != null ? REDACTED : scrubSecrets(item, depth + 1, seen);
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

/** Fastify's request serializer (method, url, host, address), with the URL masked. */
function serializeRequest(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? maskUrlSecrets(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Fields that have a serializer of their own (`req`, `res`, `err`): left to it. */
const SERIALIZED = new Set(['req', 'res', 'err']);

/**
 * Pino's `formatters.log`: every other field of a line is scrubbed (secret fields at any depth,
 * URLs masked). Lines with only numbers and serialized fields, such as Fastify's request lines,
 * pass through untouched.
 */
function scrubFields(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(object)) {
    if (SERIALIZED.has(key)) continue;
    const value = object[key];
    if (value === null || (typeof value !== 'object' && typeof value !== 'string')) continue;
    const scrubbed = SECRET_FIELD_SET.has(key.toLowerCase()) ? REDACTED : scrubSecrets(value);
    if (scrubbed === value) continue;
    copy ??= { ...object };
    copy[key] = scrubbed;
  }
  return copy ?? object;
}

/** Pino's options for every logger of OpenTMS, at `level`. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    // ISO 8601 times read better than epoch milliseconds and sort the same.
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    redact: { paths: redactPaths(), censor: REDACTED },
    formatters: { log: scrubFields },
    serializers: {
      req: serializeRequest,
      err: (error: unknown) => (error instanceof Error ? scrubSecrets(pino.stdSerializers.err(error)) : scrubSecrets(error)),
    },
    hooks: {
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) {
          const arg: unknown = args[i];
          if (typeof arg === 'string') args[i] = maskUrlSecrets(arg);
        }
        return method.apply(this, args);
      },
    },
  };
}

/** A logger with the shared configuration, writing JSON lines to `destination` (default stdout). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}
