import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Config } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { AppDeps } from '../src/deps.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { localBlobStore } from '../src/storage/blob-store.js';
import { createErrorCatalogueCheck } from './contract/error-catalogue-check.js';
import { loadContractChecker } from './contract/response-contract.js';

/** A clock the test moves by hand. */
export interface TestClock {
  (): Date;
  set(at: Date | string): void;
  advance(milliseconds: number): void;
}

export function testClock(start = new Date('2026-11-21T12:00:00.000Z')): TestClock {
  let now = start.getTime();
  const clock = (() => new Date(now)) as TestClock;
  clock.set = (at) => {
    now = new Date(at).getTime();
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export interface TestApp {
  readonly app: FastifyInstance;
  /** What the app was built from: build a second app (a second API process) with `buildApp(t.deps)`. */
  readonly deps: AppDeps;
  readonly database: Database;
  readonly config: Config;
  readonly clock: TestClock;
  /**
   * `app.inject`, with every response checked against the published contract, and every error
   * against the error catalogue and the operation's error responses in the OpenAPI document
   * (test/contract/error-catalogue-check.ts).
   */
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment for loadConfig, as a user would set it. */
  env?: Record<string, string>;
  /** Where the app logs, with the service's own logger configuration (src/logging.ts); none by default. */
  log?: { stream: { write(line: string): void }; level: string };
}

/** Which database the suite runs on: SQLite unless TEST_DATABASE_URL names a PostgreSQL server. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || null;
export const testDialect = TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/**
 * A fresh, migrated database for one test file: an in-memory SQLite database, or on PostgreSQL a
 * schema of its own (dropped again by `close`), so that test files can run in parallel.
 */
export async function createTestDatabase(
  options: { migrate?: boolean } = {},
): Promise<{ database: Database; drop(): Promise<void>; schema: string | null }> {
  const migrate = options.migrate ?? true;
  if (!TEST_DATABASE_URL) {
    const database = openDatabase({ kind: 'sqlite', path: ':memory:' });
    if (migrate) await migrateToLatest(database);
    return { database, schema: null, drop: () => database.close().catch(() => undefined) };
  }
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema, maxConnections: 4 });
  if (migrate) await migrateToLatest(database);
  return {
    database,
    schema,
    async drop() {
      await database.close().catch(() => undefined); // a test may have closed it already
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

const contract = loadContractChecker();

/** Throws when a response breaks the published contract, so that the test that made it fails. */
export function assertContract(method: string, url: string, response: LightMyRequestResponse): void {
  if (!contract) return;
  const violations = contract.check({
    method,
    url,
    statusCode: response.statusCode,
    contentType: response.headers['content-type'] as string | undefined,
    body: response.body,
  });
  if (violations.length > 0) {
    throw new Error(`response breaks the published contract:\n  ${violations.join('\n  ')}`);
  }
}

/** The app on a fresh database, the way main.ts builds it, with a hand-moved clock. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { database, drop } = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env });
  const clock = testClock();
  // Each test app keeps its files in a folder of its own, removed on close.
  const blobDir = mkdtempSync(join(tmpdir(), 'opentms-test-blobs-'));
  const deps: AppDeps = { config, database, clock, taskWakeup: createTaskWakeup(), blobs: localBlobStore(blobDir) };
  const app = await buildApp(deps, { logger: options.log ?? false });
  let errorCheck: ReturnType<typeof createErrorCatalogueCheck> | undefined;
  const inject = async (injectOptions: InjectOptions | string) => {
    const opts = typeof injectOptions === 'string' ? { url: injectOptions } : injectOptions;
    const response = await app.inject(opts);
    const method = opts.method ?? 'GET';
    const url = String(opts.url ?? opts.path ?? '/');
    assertContract(method, url, response);
    if (response.statusCode >= 400) {
      // Built on the first error: generating the OpenAPI document takes a moment.
      errorCheck ??= createErrorCatalogueCheck(app.swagger());
      const violations = errorCheck.check({ method, url, statusCode: response.statusCode, body: response.body });
      if (violations.length > 0) throw new Error(`error response outside the error catalogue:\n  ${violations.join('\n  ')}`);
    }
    return response;
  };
  return {
    app,
    deps,
    database,
    config,
    clock,
    inject,
    async close() {
      await app.close();
      await drop();
      rmSync(blobDir, { recursive: true, force: true });
    },
  };
}
