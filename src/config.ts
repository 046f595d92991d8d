import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/**
 * The service's configuration, read from the environment exactly once at start.
 * Nothing else in src/ reads process.env: everything receives this object.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Folder for the embedded SQLite database and the blob store. */
  readonly dataDir: string;
  /** `postgres://…` selects PostgreSQL; unset selects SQLite at `<dataDir>/opentms.sqlite`. */
  readonly databaseUrl: string | null;
  /** Largest request body accepted, in bytes; larger bodies get 413. */
  readonly bodyLimitBytes: number;
  /**
   * Largest uploaded file (job source files, reference files, the Files API), in bytes; a larger
   * upload gets 413 and nothing is stored. Uploads stream to disk, so this may exceed bodyLimitBytes.
   */
  readonly uploadLimitBytes: number;
  /** Most jobs one project may hold (job clone needs free capacity). */
  readonly projectJobLimit: number;
  readonly logLevel: string;
  readonly admin: { readonly username: string; readonly password: string | null };
  /** The installation's system administrator, created at start when both are set. */
  readonly sysAdmin: { readonly username: string; readonly password: string } | null;
  /** Lifetime of a token returned by the login operations, in seconds. */
  readonly loginTokenTtlSeconds: number;
  /** Lifetime of a JWT access token issued by the token service (`/idm/oauth/token`), in seconds. */
  readonly accessTokenTtlSeconds: number;
  /**
   * How long a verified credential is kept in memory so that its requests need no database round
   * trip (any change to users or credentials empties it at once); 0 keeps none.
   */
  readonly credentialCacheSeconds: number;
  /** Public base URL used in generated documents; derived from host and port when unset. */
  readonly publicUrl: string | null;
  /**
   * Which proxies in front of the service to believe about the client's address
   * (X-Forwarded-For): false, true (all), a hop count, or a list of addresses/CIDRs.
   * Rate limits per client IP and the login history use the address this yields.
   */
  readonly trustProxy: boolean | number | string[];
  /**
   * Requests per minute (docs/rate-limits.md): per token, per organization (unless the
   * organization has its own `rate_limit_per_minute`), and per client IP for requests without a
   * token (login, token service). 0 disables that limit.
   */
  readonly rateLimit: { readonly perToken: number; readonly perOrganization: number; readonly perIp: number };
  /** `redis://…` or `rediss://…`: rate-limit counters shared by every API process; null = process memory. */
  readonly redisUrl: string | null;
  /** Prefix of every key OpenTMS writes to Redis, so that several installations can share one. */
  readonly redisKeyPrefix: string;
  /** Background work: tasks run by the worker (docs/async-and-webhooks.md). */
  readonly tasks: {
    /** Tasks one worker process runs at once. */
    readonly concurrency: number;
    /** How long a claimed task is reserved for its worker before another may take it over; renewed while it runs. */
    readonly leaseSeconds: number;
    /** How often an idle worker looks for due tasks when no notification arrives. */
    readonly pollMilliseconds: number;
    /** Worker threads for CPU-heavy work (parsing, counting), beside the event loop (src/queue/thread-pool.ts). */
    readonly threads: number;
  };
  /**
   * Limits of a job file's import (docs/api-conventions.md, "Limits"): a file over one of them
   * ends in `importStatus: ERROR` with a message naming the limit.
   */
  readonly importLimits: {
    /** Elements (XLIFF) or objects and arrays (JSON) nested deeper than this. */
    readonly maxDepth: number;
    /** Inline tags in one segment. */
    readonly maxTagsPerSegment: number;
    /** Characters of one segment (tags left out). */
    readonly maxSegmentChars: number;
  };
  /** Pending asynchronous requests an organization may have; one more gets 429. */
  readonly asyncPendingLimit: number;
  /** Analyses (docs/analysis.md, "Limits"): segments per batch, and most segments one request may analyse (more is 400). */
  readonly analysisLimits: { readonly batchSegments: number; readonly maxSegments: number };
  /** Let webhooks and callbacks target loopback, private and link-local addresses (off: they are refused). */
  readonly allowPrivateCallbacks: boolean;
  /** Time a webhook or callback receiver gets to answer, in milliseconds. */
  readonly outboundTimeoutMilliseconds: number;
  /**
   * Outgoing email (emailing quotes; src/outbound/mail.ts): `smtpUrl` (OPENTMS_SMTP_URL,
   * `smtp://[user:password@]host[:port]` or `smtps://…`) is null when unset, and the operations
   * that send email then answer 400 MailNotConfigured; `from` (OPENTMS_MAIL_FROM) is the sender.
   */
  readonly mail: { readonly smtpUrl: string | null; readonly from: string };
  /**
   * Machine translation (docs/machine-translation.md): `secretKey` (OPENTMS_SECRET_KEY, 32 bytes as
   * 64 hex characters or base64) seals engine credentials at rest; null = a key file
   * `<dataDir>/secret.key` made on first use. The MT cache keeps a translation `cacheDays` after its
   * last use and at most `cacheMaxEntries` translations (the least recently used go first);
   * `requestTimeoutMs` bounds one request to an engine, retried `attempts` times in all.
   */
  readonly machineTranslation: {
    readonly secretKey: Buffer | null;
    readonly cacheDays: number;
    readonly cacheMaxEntries: number;
    readonly requestTimeoutMs: number;
    readonly attempts: number;
  };
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function text(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Parses and validates the environment; throws ConfigError with a readable message. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for SQLite)');
  }
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.has(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);
  const password = text(env, 'OPENTMS_ADMIN_PASSWORD');
  if (password !== null && password.length < 8) {
    throw new ConfigError('OPENTMS_ADMIN_PASSWORD must have at least 8 characters');
  }
  return Object.freeze({
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir: resolve(cwd, text(env, 'OPENTMS_DATA_DIR') ?? './data'),
    databaseUrl,
    bodyLimitBytes: integer(env, 'OPENTMS_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 2 ** 31 - 1),
    uploadLimitBytes: integer(env, 'OPENTMS_UPLOAD_LIMIT_BYTES', 512 * 1024 * 1024, 1024, Number.MAX_SAFE_INTEGER),
    projectJobLimit: integer(env, 'OPENTMS_PROJECT_JOB_LIMIT', 10_000, 1, 10_000_000),
    logLevel,
    admin: Object.freeze({ username: text(env, 'OPENTMS_ADMIN_USERNAME') ?? 'admin', password }),
    sysAdmin: sysAdmin(env),
    loginTokenTtlSeconds: integer(env, 'OPENTMS_LOGIN_TOKEN_TTL_SECONDS', 24 * 3600, 60, 365 * 24 * 3600),
    tasks: Object.freeze({
      concurrency: integer(env, 'OPENTMS_WORKER_CONCURRENCY', 4, 1, 256),
      leaseSeconds: integer(env, 'OPENTMS_TASK_LEASE_SECONDS', 60, 1, 24 * 3600),
      pollMilliseconds: integer(env, 'OPENTMS_TASK_POLL_MS', 250, 10, 60_000),
      // One core left to the event loop that serves requests, at most 4 by default.
      threads: integer(env, 'OPENTMS_WORKER_THREADS', Math.max(1, Math.min(4, availableParallelism() - 1)), 1, 64),
    }),
    importLimits: Object.freeze({
      maxDepth: integer(env, 'OPENTMS_IMPORT_MAX_DEPTH', 512, 1, 1_000),
      maxTagsPerSegment: integer(env, 'OPENTMS_IMPORT_MAX_TAGS_PER_SEGMENT', 50_000, 1, 10_000_000),
      maxSegmentChars: integer(env, 'OPENTMS_IMPORT_MAX_SEGMENT_CHARS', 100_000, 1, 10_000_000),
    }),
    asyncPendingLimit: integer(env, 'OPENTMS_ASYNC_PENDING_LIMIT', 200, 1, 1_000_000),
    analysisLimits: Object.freeze({
      batchSegments: integer(env, 'OPENTMS_ANALYSIS_BATCH_SEGMENTS', 100_000, 1, 10_000_000),
      maxSegments: integer(env, 'OPENTMS_ANALYSIS_MAX_SEGMENTS', 300_000, 1, 100_000_000),
    }),
    allowPrivateCallbacks: flag(env, 'OPENTMS_ALLOW_PRIVATE_CALLBACKS'),
    outboundTimeoutMilliseconds: integer(env, 'OPENTMS_OUTBOUND_TIMEOUT_MS', 10_000, 100, 300_000),
    mail: Object.freeze({ smtpUrl: smtpUrl(env), from: text(env, 'OPENTMS_MAIL_FROM') ?? 'OpenTMS <opentms@localhost>' }),
    machineTranslation: Object.freeze({
      secretKey: secretKey(env),
      cacheDays: integer(env, 'OPENTMS_MT_CACHE_DAYS', 30, 0, 3650),
      cacheMaxEntries: integer(env, 'OPENTMS_MT_CACHE_MAX_ENTRIES', 1_000_000, 0, 1_000_000_000),
      requestTimeoutMs: integer(env, 'OPENTMS_MT_REQUEST_TIMEOUT_MS', 15_000, 100, 600_000),
      attempts: integer(env, 'OPENTMS_MT_ATTEMPTS', 3, 1, 10),
    }),
    // Revocation does not wait for expiry (every request re-checks the token's source), so the
    // lifetime only bounds how long a stolen JWT of a still-valid source stays usable.
    accessTokenTtlSeconds: integer(env, 'OPENTMS_ACCESS_TOKEN_TTL_SECONDS', 3600, 60, 24 * 3600),
    credentialCacheSeconds: integer(env, 'OPENTMS_CREDENTIAL_CACHE_SECONDS', 30, 0, 3600),
    publicUrl: text(env, 'OPENTMS_PUBLIC_URL'),
    trustProxy: trustProxy(env),
    rateLimit: Object.freeze({
      perToken: integer(env, 'OPENTMS_RATE_LIMIT_PER_TOKEN', 6_000, 0, 100_000_000),
      perOrganization: integer(env, 'OPENTMS_RATE_LIMIT_PER_ORGANIZATION', 30_000, 0, 100_000_000),
      perIp: integer(env, 'OPENTMS_RATE_LIMIT_PER_IP', 600, 0, 100_000_000),
    }),
    redisUrl: redisUrl(env),
    redisKeyPrefix: redisKeyPrefix(env),
  });
}

function redisUrl(env: Env): string | null {
  const url = text(env, 'REDIS_URL');
  if (url === null) return null;
  // The URL may hold a password: never repeat it in the message.
  let valid = /^rediss?:\/\//.test(url);
  try {
    if (valid) valid = new URL(url).hostname !== '';
  } catch {
    valid = false;
  }
  if (!valid)
    throw new ConfigError(
      'REDIS_URL must be a URL starting with redis:// or rediss:// (leave it unset to keep rate-limit counters in memory)',
    );
  return url;
}

function secretKey(env: Env): Buffer | null {
  const raw = text(env, 'OPENTMS_SECRET_KEY');
  if (raw === null) return null;
  // Never repeat the key in the message.
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError('OPENTMS_SECRET_KEY must be 32 bytes: 64 hex characters or base64');
  return key;
}

function smtpUrl(env: Env): string | null {
  const url = text(env, 'OPENTMS_SMTP_URL');
  if (url === null) return null;
  // The URL may hold a password: never repeat it in the message.
  let valid = /^smtps?:\/\//.test(url);
  try {
    if (valid) valid = new URL(url).hostname !== '';
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new ConfigError('OPENTMS_SMTP_URL must be a URL starting with smtp:// or smtps:// (leave it unset to send no email)');
  }
  return url;
}

function redisKeyPrefix(env: Env): string {
  const prefix = text(env, 'OPENTMS_REDIS_KEY_PREFIX') ?? 'opentms:';
  if (!/^[\x21-\x7e]{1,64}$/.test(prefix)) {
    throw new ConfigError('OPENTMS_REDIS_KEY_PREFIX must be 1 to 64 printable ASCII characters without spaces');
  }
  return prefix;
}

function sysAdmin(env: Env): Config['sysAdmin'] {
  const username = text(env, 'OPENTMS_SYSADMIN_USERNAME');
  const password = text(env, 'OPENTMS_SYSADMIN_PASSWORD');
  if (username === null && password === null) return null;
  if (username === null || password === null) {
    throw new ConfigError('OPENTMS_SYSADMIN_USERNAME and OPENTMS_SYSADMIN_PASSWORD go together: set both or neither');
  }
  if (password.length < 8) throw new ConfigError('OPENTMS_SYSADMIN_PASSWORD must have at least 8 characters');
  return Object.freeze({ username, password });
}

function trustProxy(env: Env): Config['trustProxy'] {
  const raw = text(env, 'OPENTMS_TRUST_PROXY');
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const address = /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/;
  const bad = entries.find((e) => !address.test(e) && !['loopback', 'linklocal', 'uniquelocal'].includes(e));
  if (bad || entries.length === 0) {
    throw new ConfigError(
      `OPENTMS_TRUST_PROXY must be true, false, a hop count, or a comma-separated list of addresses/CIDRs (got "${bad ?? raw}")`,
    );
  }
  return Object.freeze(entries) as string[];
}

function flag(env: Env, name: string): boolean {
  const raw = text(env, name);
  if (raw === null || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}
