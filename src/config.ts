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
  readonly logLevel: string;
  readonly admin: { readonly username: string; readonly password: string | null };
  /** Lifetime of a token returned by the login operations, in seconds. */
  readonly loginTokenTtlSeconds: number;
  /** Public base URL used in generated documents; derived from host and port when unset. */
  readonly publicUrl: string | null;
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
    logLevel,
    admin: Object.freeze({ username: text(env, 'OPENTMS_ADMIN_USERNAME') ?? 'admin', password }),
    loginTokenTtlSeconds: integer(env, 'OPENTMS_LOGIN_TOKEN_TTL_SECONDS', 24 * 3600, 60, 365 * 24 * 3600),
    publicUrl: text(env, 'OPENTMS_PUBLIC_URL'),
  });
}
