/**
 * Test-only entry point: the real worker (`startWorker` with `buildTaskRegistry()`) in a
 * process of its own, plus two handlers the process tests observe through the database:
 *
 * - `test.block`: records the run in `test_task_runs`, then waits until `test_markers` holds the
 *   row `release` (so that the test can kill the process while the task runs);
 * - `test.record`: records the run and returns after a few milliseconds;
 * - `test.crash-process`: records the run, then kills its own process with -9 (a task that
 *   takes its worker down every time);
 * - `test.deaf`: as `test.block` (waiting for `release-deaf`), but ignores the abort of its signal (a handler the stop has to
 *   give up on).
 *
 * The tables have no unique constraint, so a task run twice shows as two rows. Configuration is
 * the environment, as for `src/main.ts` (DATABASE_URL or OPENTMS_DATA_DIR,
 * OPENTMS_TASK_LEASE_SECONDS, ...). Logs JSON lines; `worker started` means it is claiming.
 * Run: `node --import tsx test/support/worker-process.ts`.
 */
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { AppDeps } from '../../src/deps.js';
import { createJsonLogger } from '../../src/queue/log.js';
import { createTaskRegistry } from '../../src/queue/queue.js';
import { buildTaskFailureHook, buildTaskRegistry } from '../../src/task-handlers.js';
import type { TaskContext, TaskHandler } from '../../src/queue/types.js';
import { createTaskWakeup } from '../../src/queue/types.js';
import { startWorker } from '../../src/queue/worker.js';
import { localBlobStore } from '../../src/storage/blob-store.js';

const config = loadConfig(process.env);
const database = config.databaseUrl
  ? openDatabase({ kind: 'postgres', url: config.databaseUrl })
  : openDatabase({ kind: 'sqlite', path: join(config.dataDir, 'opentms.sqlite') });
await migrateToLatest(database);
const deps: AppDeps = {
  config,
  database,
  clock: () => new Date(),
  taskWakeup: createTaskWakeup(),
  blobs: localBlobStore(join(config.dataDir, 'blobs')),
};
const log = createJsonLogger(config.logLevel);

async function recordRun(context: TaskContext): Promise<void> {
  await sql`insert into test_task_runs (task_id, worker_pid, attempt, at) values (${context.taskId}, ${process.pid}, ${context.attempt}, ${new Date().toISOString()})`.execute(
    database.db,
  );
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

const testHandlers: TaskHandler[] = [
  {
    kind: 'test.block',
    async run(context) {
      await recordRun(context);
      for (;;) {
        const { rows } = await sql`select name from test_markers where name = 'release'`.execute(database.db);
        if (rows.length > 0) return;
        await pause(20, context.signal);
      }
    },
  },
  {
    kind: 'test.crash-process',
    async run(context) {
      await recordRun(context);
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => {});
    },
  },
  {
    kind: 'test.deaf',
    async run(context) {
      await recordRun(context);
      for (;;) {
        const { rows } = await sql`select name from test_markers where name = 'release-deaf'`.execute(database.db);
        if (rows.length > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  },
  {
    kind: 'test.record',
    async run(context) {
      await recordRun(context);
      await pause(2, context.signal);
    },
  },
];

const registry = createTaskRegistry([...buildTaskRegistry().handlers, ...testHandlers]);
const worker = startWorker(deps, registry, { log, onTaskFailed: buildTaskFailureHook(deps) });

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  worker
    .stop()
    .then(() => database.close())
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      log.error({ err: error }, 'error while stopping');
      process.exit(1);
    });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
