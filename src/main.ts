import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import { createTaskWakeup } from './queue/types.js';
import { localBlobStore } from './storage/blob-store.js';
import { ORPHAN_GRACE_MS, sweepOrphanBlobs } from './storage/orphan-sweeper.js';
import type { TaskLogger } from './queue/types.js';
import { ConfigError, loadConfig } from './config.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { AppDeps } from './deps.js';
import { ensureFirstAdmin, ensureSysAdmin } from './modules/identity/organization-admin/index.js';
import { createLogger } from './logging.js';
import { buildTaskFailureHook, buildTaskRegistry } from './task-handlers.js';
import { configureSharedThreadPool } from './queue/thread-pool.js';
import { startWorker } from './queue/worker.js';
import type { Worker } from './queue/worker.js';

type Role = 'api' | 'worker';
const ROLES: readonly Role[] = ['api', 'worker'];
const USAGE = 'usage: opentms [--role=api|--role=worker] (without --role, the API and a worker run in one process)';

/** `--role=api` or `--role=worker` runs one; no argument runs both. Throws a message otherwise. */
function parseRoles(args: readonly string[]): Role[] {
  let roles: Role[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    let value: string | undefined;
    if (arg.startsWith('--role=')) value = arg.slice('--role='.length);
    else if (arg === '--role') value = args[++i];
    else throw new Error(`unknown argument "${arg}"; ${USAGE}`);
    if (roles !== null) throw new Error(`--role given twice; ${USAGE}`);
    if (!ROLES.includes(value as Role)) throw new Error(`unknown role "${value ?? ''}" (use api or worker); ${USAGE}`);
    roles = [value as Role];
  }
  return roles ?? [...ROLES];
}

function exitWith(message: string): never {
  process.stderr.write(`opentms: ${message}\n`);
  process.exit(2);
}

/**
 * How far V8 lets the old generation grow past what the last full collection kept: ×1.5, instead
 * of V8's own choice of up to ×4. The worker's main thread reads hundreds of thousands of rows
 * (a job's segments, a TM's units for its index) that live for a page's TM lookups, long enough to
 * be promoted; with V8's choice its heap swung between ~45 and ~150 MB during an analysis. Read by
 * V8 at every full collection, so setting it first thing applies it to this process's heaps
 * (docs/performance.md, "Memory: where a worker's memory goes").
 */
const HEAP_GROWING_PERCENT = 50;

/** read config and roles -> open db -> migrate -> start http and/or worker; SIGTERM/SIGINT stop both cleanly. */
async function main(): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let config: Config;
  let roles: Role[];
  try {
    roles = parseRoles(process.argv.slice(2));
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) exitWith(`configuration error: ${error.message}`);
    if (error instanceof Error) exitWith(error.message);
    throw error;
  }

  mkdirSync(join(config.dataDir, 'blobs'), { recursive: true });
  configureSharedThreadPool(config.tasks.threads);
  const database = config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl })
    : openDatabase({ kind: 'sqlite', path: join(config.dataDir, 'opentms.sqlite') });

  const applied = await migrateToLatest(database);
  const deps: AppDeps = {
    config,
    database,
    clock: () => new Date(),
    taskWakeup: createTaskWakeup(),
    blobs: localBlobStore(join(config.dataDir, 'blobs')),
  };

  // One logger configuration for the API and the worker (src/logging.ts: secrets redacted).
  const logger = createLogger(config.logLevel);
  let app: FastifyInstance | null = null;
  let log: TaskLogger;
  if (roles.includes('api')) {
    // Loaded only for the API: a worker-only process never builds routes, validators or serializers.
    const { buildApp } = await import('./app.js');
    app = await buildApp(deps, { logger });
    log = app.log;
  } else {
    log = logger;
  }
  log.info({ roles, dialect: database.dialect }, `starting: ${roles.join(' and ')}`);
  log.info({ dialect: database.dialect, applied }, applied.length ? 'database migrated' : 'database schema up to date');

  if (app) {
    await ensureFirstAdmin(database.db, config, app.log);
    await ensureSysAdmin(database.db, config, app.log);
  }

  let worker: Worker | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  if (roles.includes('worker')) {
    const workerLog = app ? app.log.child({ component: 'worker' }) : log;
    worker = startWorker(deps, buildTaskRegistry(), {
      log: workerLog,
      onTaskFailed: buildTaskFailureHook(deps),
    });
    // Bytes of uploads whose transaction never committed: swept a minute after start, then hourly.
    const sweep = () =>
      sweepOrphanBlobs(deps).then(
        (result) => (result.blobsRemoved || result.temporaryRemoved ? workerLog.info(result, 'removed orphan blobs') : undefined),
        (error: unknown) => workerLog.error({ err: error }, 'orphan blob sweep failed'),
      );
    setTimeout(() => void sweep(), 60_000).unref();
    sweeper = setInterval(() => void sweep(), ORPHAN_GRACE_MS);
    sweeper.unref();
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, app ? 'stopping: finishing in-flight requests and tasks' : 'stopping: finishing running tasks');
    // Stop accepting connections and claiming tasks, let requests and tasks in flight finish,
    // then release the database.
    if (sweeper) clearInterval(sweeper);
    Promise.all([app?.close(), worker?.stop()])
      .then(() => database.close())
      .then(() => {
        log.info({}, 'stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  if (app) await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  process.stderr.write(`opentms: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
