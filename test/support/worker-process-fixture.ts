import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { AppDeps } from '../../src/deps.js';
import { createTaskWakeup } from '../../src/queue/types.js';
import { localBlobStore } from '../../src/storage/blob-store.js';
import { createTestDatabase, TEST_DATABASE_URL } from '../harness.js';
import { killAllStarted, startProcess } from './child-process.js';

/**
 * A database and a data directory shared by the test and real worker processes
 * (test/support/worker-process.ts) it starts and kills: the kill -9 tests of imports. On
 * PostgreSQL a schema of its own, on SQLite a database file in the data directory.
 */
export interface WorkerProcessFixture {
  database: Database;
  /** What a worker process needs to reach the same database and blobs. */
  env: Record<string, string>;
  /** The test side's dependencies (requests are made through them). */
  deps: AppDeps;
  /** A real worker in a process of its own; resolves once it claims tasks. */
  startWorkerProcess(): ReturnType<typeof startProcess>;
  /** Kills the started processes and removes the database and the data directory. */
  close(): Promise<void>;
}

export async function workerProcessFixture(prefix: string): Promise<WorkerProcessFixture> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let database: Database;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  if (TEST_DATABASE_URL) {
    const created = await createTestDatabase();
    database = created.database;
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${created.schema}`);
    env = { DATABASE_URL: url.toString(), OPENTMS_DATA_DIR: dataDir };
    drop = () => created.drop();
  } else {
    database = openDatabase({ kind: 'sqlite', path: join(dataDir, 'opentms.sqlite') });
    await migrateToLatest(database);
    env = { OPENTMS_DATA_DIR: dataDir };
    drop = () => database.close();
  }
  const deps: AppDeps = {
    config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
    database,
    clock: () => new Date(),
    taskWakeup: createTaskWakeup(),
    blobs: localBlobStore(join(dataDir, 'blobs')),
  };
  return {
    database,
    env,
    deps,
    startWorkerProcess: () =>
      startProcess(
        'test/support/worker-process.ts',
        [],
        { LOG_LEVEL: 'info', OPENTMS_TASK_LEASE_SECONDS: '1', OPENTMS_TASK_POLL_MS: '50', ...env },
        (line) => line.msg === 'worker started',
        'the worker',
      ),
    async close() {
      await killAllStarted();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
