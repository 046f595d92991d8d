import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { enqueue } from '../src/queue/queue.js';
import { insertAsyncRequest } from '../src/modules/integration/async-requests/async-requests.repository.js';
import { makeOrganization } from './factories.js';
import { createTestDatabase, testDialect, TEST_DATABASE_URL } from './harness.js';
import { waitFor } from './support/wait.js';
import { killAllStarted, startProcess, withTimeout } from './support/child-process.js';
import type { StartedProcess } from './support/child-process.js';

/**
 * The worker as a process of its own (test/support/worker-process.ts: the real worker plus test
 * handlers), killed with -9 while it runs a task, and two of them sharing one PostgreSQL
 * database. Loopback only; every wait has a deadline; every child is killed in afterAll.
 */
type WorkerProcess = StartedProcess;

let database: Database;
let env: Record<string, string>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  if (TEST_DATABASE_URL) {
    const created = await createTestDatabase();
    database = created.database;
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${created.schema}`);
    env = { DATABASE_URL: url.toString() };
    cleanup = created.drop;
  } else {
    // A file, not :memory:, so that the worker processes and the test share it.
    const dataDir = mkdtempSync(join(tmpdir(), 'opentms-queue-'));
    database = openDatabase({ kind: 'sqlite', path: join(dataDir, 'opentms.sqlite') });
    await migrateToLatest(database);
    env = { OPENTMS_DATA_DIR: dataDir };
    cleanup = async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  // No unique constraint: a task run twice shows as two rows.
  await sql`create table test_task_runs (task_id varchar(32) not null, worker_pid integer not null, attempt integer not null, at varchar(32) not null)`.execute(
    database.db,
  );
  await sql`create table test_markers (name varchar(64) primary key)`.execute(database.db);
});

afterAll(async () => {
  await killAllStarted();
  await cleanup?.();
});

function startWorkerProcess(extraEnv: Record<string, string> = {}): Promise<WorkerProcess> {
  return startProcess(
    'test/support/worker-process.ts',
    [],
    { LOG_LEVEL: 'info', ...env, ...extraEnv },
    (line) => line.msg === 'worker started',
    'the worker',
  );
}

async function runs(taskIds?: string[]) {
  const { rows } = await sql<{
    taskId: string;
    workerPid: number;
    attempt: number;
  }>`select task_id, worker_pid, attempt from test_task_runs`.execute(database.db);
  return rows.filter((r) => !taskIds || taskIds.includes(r.taskId));
}

function task(id: string) {
  return database.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe(`worker processes (${testDialect})`, () => {
  it('a task finishes after its worker is killed with -9 and restarted', async () => {
    const id = await enqueue(database.db, { kind: 'test.block', payload: {}, organizationId: null }, new Date());
    const short = { OPENTMS_TASK_LEASE_SECONDS: '1', OPENTMS_TASK_POLL_MS: '50' };

    const first = await startWorkerProcess(short);
    await waitFor('the first worker to run the task', async () => (await runs([id])).length === 1, 20_000);
    first.child.kill('SIGKILL');
    await withTimeout(first.exited, 10_000, 'the killed worker to exit');
    // What a crash leaves: the task still marked running under the dead worker's lease.
    expect(await task(id)).toMatchObject({ status: 'running', attempts: 1 });
    expect((await task(id)).lockedBy).toContain(`:${first.child.pid}:`);

    const second = await startWorkerProcess(short);
    // Its lease of 1 s runs out, and the restarted worker takes the task over.
    await waitFor('the restarted worker to take the task over', async () => (await runs([id])).length === 2, 20_000);
    await sql`insert into test_markers (name) values ('release')`.execute(database.db);
    const row = await waitFor(
      'the task to be done',
      async () => {
        const current = await task(id);
        return current.status === 'done' ? current : null;
      },
      10_000,
    );
    expect(row).toMatchObject({ attempts: 2, lockedBy: null });
    const done = await runs([id]);
    expect(done.map((r) => [Number(r.workerPid), Number(r.attempt)])).toEqual([
      [first.child.pid, 1],
      [second.child.pid, 2],
    ]);

    second.child.kill('SIGTERM');
    expect(await withTimeout(second.exited, 10_000, 'the worker to stop')).toBe(0);
    expect(second.lines.some((l) => l.msg === 'worker stopped')).toBe(true);
  });

  // SQLite (one file, writers serialised) runs one worker process per installation: skipped there.
  it.skipIf(!TEST_DATABASE_URL)('two PostgreSQL worker processes share 1,000 tasks, and none runs twice (PostgreSQL only)', async () => {
    const [a, b] = await Promise.all([startWorkerProcess(), startWorkerProcess()]);
    // Both wake on NOTIFY (the poll of 250 ms is the safety net).
    for (const worker of [a!, b!]) expect(worker.lines.find((l) => l.msg === 'worker started')).toMatchObject({ listen: true });
    const ids = await database.db.transaction().execute(async (trx) => {
      const created: string[] = [];
      for (let i = 0; i < 1_000; i++) {
        created.push(await enqueue(trx, { kind: 'test.record', payload: { i }, organizationId: null }, new Date()));
      }
      return created;
    });
    await waitFor(
      'every task to be done',
      async () => {
        const { rows } = await sql<{ n: string }>`select count(*) as n from tasks where kind = 'test.record' and status = 'done'`.execute(
          database.db,
        );
        return Number(rows[0]?.n) === 1_000;
      },
      60_000,
      50,
    );
    const recorded = await runs(ids);
    expect(recorded).toHaveLength(1_000);
    expect(new Set(recorded.map((r) => r.taskId)).size).toBe(1_000);
    const byWorker = new Map<number, number>();
    for (const r of recorded) byWorker.set(Number(r.workerPid), (byWorker.get(Number(r.workerPid)) ?? 0) + 1);
    expect([...byWorker.keys()].sort()).toEqual([a!.child.pid, b!.child.pid].sort());
    expect(Math.min(...byWorker.values())).toBeGreaterThan(0);
    console.log(`tasks run per worker process: ${[...byWorker.values()].join(', ')}`);
    const attempts = await database.db.selectFrom('tasks').select('attempts').where('kind', '=', 'test.record').execute();
    expect(attempts.every((r) => r.attempts === 1)).toBe(true);

    a!.child.kill('SIGTERM');
    b!.child.kill('SIGTERM');
    expect(await withTimeout(Promise.all([a!.exited, b!.exited]), 10_000, 'the workers to stop')).toEqual([0, 0]);
  });

  it('a task that kills its worker process each time fails for good after 3 runs, and its async request records why', async () => {
    const organization = await makeOrganization(database.db);
    const request = await insertAsyncRequest(database.db, {
      organizationId: organization.id,
      createdById: null,
      action: 'IMPORT_JOB',
      now: new Date(),
    });
    // Attempts to spare (10): only the interruptions stop it.
    const id = await enqueue(
      database.db,
      { kind: 'test.crash-process', payload: {}, organizationId: organization.id, asyncRequestId: request.id, maxAttempts: 10 },
      new Date(),
    );
    const short = { OPENTMS_TASK_LEASE_SECONDS: '1', OPENTMS_TASK_POLL_MS: '50' };
    for (let run = 1; run <= 3; run++) {
      const worker = await startWorkerProcess(short);
      await waitFor(`run ${run} of the task`, async () => (await runs([id])).length === run, 20_000);
      // The handler killed its own process.
      expect(await withTimeout(worker.exited, 10_000, 'the crashed worker to exit')).toBeNull();
    }
    expect(await task(id)).toMatchObject({ status: 'running', attempts: 3, interruptions: 2 });
    // The next worker takes it over (the third interruption) and fails it instead of running it.
    const last = await startWorkerProcess(short);
    const row = await waitFor(
      'the task to fail',
      async () => {
        const current = await task(id);
        return current.status === 'failed' ? current : null;
      },
      20_000,
    );
    expect(row).toMatchObject({ attempts: 4, interruptions: 3, lockedBy: null });
    expect(row.lastError).toContain('interrupted 3 times');
    expect(await runs([id])).toHaveLength(3);
    const recorded = await waitFor('the async request to record the failure', async () => {
      const current = await database.db
        .selectFrom('asyncRequests')
        .select('response')
        .where('id', '=', request.id)
        .executeTakeFirstOrThrow();
      return current.response ? (JSON.parse(current.response) as { errorCode: string; errorDesc: string }) : null;
    });
    expect(recorded.errorCode).toBe('AsyncTaskFailed');
    expect(recorded.errorDesc).toContain('interrupted 3 times');
    // Failed for good: the worker does not run it again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await runs([id])).toHaveLength(3);
    last.child.kill('SIGTERM');
    expect(await withTimeout(last.exited, 12_000, 'the worker to stop')).toBe(0);
  }, 120_000);

  it('SIGTERM ends a worker within 10 s even when its handler ignores the abort; the task runs again after the restart, uncounted', async () => {
    const id = await enqueue(database.db, { kind: 'test.deaf', payload: {}, organizationId: null }, new Date());
    const first = await startWorkerProcess();
    await waitFor('the worker to run the task', async () => (await runs([id])).length === 1, 20_000);
    const began = performance.now();
    first.child.kill('SIGTERM');
    expect(await withTimeout(first.exited, 15_000, 'the stopped worker to exit')).toBe(0);
    const took = performance.now() - began;
    // The default grace: 10 s for the running task, then the database is closed.
    expect(took).toBeLessThan(11_500);
    expect(first.lines.some((l) => String(l.msg).includes('queuing their tasks again'))).toBe(true);
    // Queued again at once, neither an attempt nor an interruption used up.
    expect(await task(id)).toMatchObject({ status: 'queued', attempts: 0, interruptions: 0, lockedBy: null });

    // The lease (60 s by default) is not waited for: the restarted worker takes it at once.
    const second = await startWorkerProcess();
    await waitFor('the restarted worker to run the task', async () => (await runs([id])).length === 2, 10_000);
    await sql`insert into test_markers (name) values ('release-deaf')`.execute(database.db);
    const row = await waitFor(
      'the task to be done',
      async () => {
        const current = await task(id);
        return current.status === 'done' ? current : null;
      },
      10_000,
    );
    expect(row).toMatchObject({ attempts: 1, interruptions: 0 });
    expect((await runs([id])).map((r) => [Number(r.workerPid), Number(r.attempt)])).toEqual([
      [first.child.pid, 1],
      [second.child.pid, 1],
    ]);
    second.child.kill('SIGTERM');
    expect(await withTimeout(second.exited, 12_000, 'the worker to stop')).toBe(0);
  }, 90_000);
});
