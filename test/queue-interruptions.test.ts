import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAsyncRequest } from '../src/modules/integration/async-requests/index.js';
import { createTaskRegistry, enqueue } from '../src/queue/queue.js';
import { createThreadPool } from '../src/queue/thread-pool.js';
import type { TaskHandler, TaskSpec } from '../src/queue/types.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker, WorkerOptions } from '../src/queue/worker.js';
import { buildTaskFailureHook } from '../src/task-handlers.js';
import { signedInUser } from './factories.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import type { Headers } from './support/api.js';
import { gate, waitFor } from './support/wait.js';

/**
 * Issue 13, "Tasks that fail repeatedly stop" and "Shutdown", in one process on the test database
 * (SQLite in memory, or a PostgreSQL schema): runs cut short (a takeover after an expired lease,
 * a crashed thread) are counted, and the third fails the task for good, with the error on its
 * async request; a stop ends within its grace and queues the running task again without counting
 * it. The worker processes killed for real are in queue-process.test.ts.
 */

type TestKind = `test.${string}`;

let t: TestApp;
let headers: Headers;
let organizationId: string;
let userId: string;
const workers: Worker[] = [];
const pool = createThreadPool(1);

beforeAll(async () => {
  t = await createTestApp({ env: { OPENTMS_TASK_POLL_MS: '60000' } });
  const signed = await signedInUser(t, 'ADMIN');
  headers = signed.headers;
  organizationId = signed.organization.id;
  userId = signed.user.id;
});

afterAll(async () => {
  await pool.close();
  await t.close();
});

beforeEach(async () => {
  await t.database.db.deleteFrom('tasks').execute();
  t.clock.set('2026-11-21T12:00:00.000Z');
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});

function start(handlers: TaskHandler<TestKind>[], options: WorkerOptions = {}): Worker {
  const worker = startWorker(t.deps, createTaskRegistry(handlers), {
    listenConnectionString: null,
    onTaskFailed: buildTaskFailureHook(t.deps),
    ...options,
  });
  workers.push(worker);
  return worker;
}

/** A task with an async request, as an operation of the API writes them. */
async function addWithRequest(spec: Partial<TaskSpec<TestKind>> & { kind: TestKind }): Promise<{ id: string; requestId: string }> {
  return t.database.db.transaction().execute(async (trx) => {
    const request = await createAsyncRequest(t.deps, trx, { organizationId, createdById: userId, action: 'IMPORT_JOB' });
    const id = await enqueue(trx, { payload: {}, organizationId, asyncRequestId: request.id, ...spec }, t.clock());
    return { id, requestId: request.id };
  });
}

function task(id: string) {
  return t.database.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function waitForStatus(id: string, status: string, timeoutMs = 10_000) {
  return waitFor(
    `task ${id} to be ${status}`,
    async () => {
      const row = await task(id);
      return row.status === status ? row : null;
    },
    timeoutMs,
  );
}

/** What a worker that died while running the task leaves: running, under a lease that has expired. */
async function leftByDeadWorker(id: string, attempts: number, interruptions: number): Promise<void> {
  await t.database.db
    .updateTable('tasks')
    .set({ status: 'running', attempts, interruptions, lockedBy: 'dead-worker', leaseUntil: '2026-11-21T11:59:00.000Z' })
    .where('id', '=', id)
    .execute();
}

async function asyncResponse(requestId: string) {
  return waitFor('the async request to finish', async () => {
    const body = (await t.inject({ url: `/api2/v1/async/${requestId}`, headers })).json();
    return body.asyncResponse as { errorCode: string | null; errorDesc: string | null } | null;
  });
}

describe(`interrupted tasks (${testDialect})`, () => {
  it('a takeover after an expired lease counts one interruption, and the task runs again', async () => {
    const { id } = await addWithRequest({ kind: 'test.resume' });
    await leftByDeadWorker(id, 1, 0);
    const runs: number[] = [];
    start([{ kind: 'test.resume', run: async (context) => void runs.push(context.attempt) }]);
    t.deps.taskWakeup.notify();
    expect(await waitForStatus(id, 'done')).toMatchObject({ attempts: 2, interruptions: 1 });
    expect(runs).toEqual([2]);
  });

  it('the third interruption fails the task without running it, whatever its attempts allow, and its async request records why', async () => {
    const { id, requestId } = await addWithRequest({ kind: 'test.crasher', maxAttempts: 10 });
    await leftByDeadWorker(id, 3, 2);
    let runs = 0;
    start([{ kind: 'test.crasher', run: async () => void runs++ }]);
    t.deps.taskWakeup.notify();
    const row = await waitForStatus(id, 'failed');
    expect(row).toMatchObject({ attempts: 4, interruptions: 3, lockedBy: null });
    expect(row.lastError).toContain('interrupted 3 times');
    expect(runs).toBe(0);
    const response = await asyncResponse(requestId);
    expect(response).toMatchObject({ errorCode: 'AsyncTaskFailed' });
    expect(response?.errorDesc).toContain('interrupted 3 times');
    // Failed tasks stay failed: no worker claims them again.
    t.deps.taskWakeup.notify();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs).toBe(0);
    expect(await task(id)).toMatchObject({ status: 'failed', attempts: 4 });
  });

  it('a thread that crashes counts as an interruption: three crashes fail the task with attempts left', async () => {
    const module = new URL('./support/test.thread.ts', import.meta.url);
    const { id, requestId } = await addWithRequest({ kind: 'test.thread-crash', maxAttempts: 10 });
    let runs = 0;
    start([
      {
        kind: 'test.thread-crash',
        backoffMs: () => 0,
        async run(context) {
          runs++;
          await pool.run(module, 'crash', null, { signal: context.signal });
        },
      },
    ]);
    t.deps.taskWakeup.notify();
    const row = await waitForStatus(id, 'failed', 20_000);
    expect(runs).toBe(3);
    expect(row).toMatchObject({ attempts: 3, interruptions: 3 });
    expect(row.lastError).toContain('interrupted 3 times');
    expect((await asyncResponse(requestId))?.errorDesc).toContain('interrupted 3 times');
  });

  it('an error the handler throws is a failed attempt, not an interruption', async () => {
    const { id } = await addWithRequest({ kind: 'test.flaky' });
    let runs = 0;
    start([
      {
        kind: 'test.flaky',
        backoffMs: () => 0,
        async run() {
          if (++runs < 4) throw new Error('not yet');
        },
      },
    ]);
    t.deps.taskWakeup.notify();
    expect(await waitForStatus(id, 'done')).toMatchObject({ attempts: 4, interruptions: 0 });
  });
});

describe(`stopping (${testDialect})`, () => {
  it('stop() ends within its grace even when the handler ignores the abort, and queues the task again uncounted', async () => {
    const never = gate();
    let started = false;
    const worker = start(
      [
        {
          kind: 'test.deaf',
          async run() {
            started = true;
            await never.promise;
          },
        },
      ],
      { shutdownGraceMilliseconds: 400 },
    );
    const { id } = await addWithRequest({ kind: 'test.deaf' });
    t.deps.taskWakeup.notify();
    await waitFor('the handler to start', () => started);
    const began = performance.now();
    await worker.stop();
    const took = performance.now() - began;
    expect(took).toBeGreaterThanOrEqual(350);
    expect(took).toBeLessThan(3_000);
    expect(await task(id)).toMatchObject({ status: 'queued', attempts: 0, interruptions: 0, lockedBy: null, lastError: null });

    // After a restart the task runs at once (no lease to wait out) and counts as its first attempt.
    const attempts: number[] = [];
    start([{ kind: 'test.deaf', run: async (context) => void attempts.push(context.attempt) }]);
    t.deps.taskWakeup.notify();
    expect(await waitForStatus(id, 'done')).toMatchObject({ attempts: 1, interruptions: 0 });
    expect(attempts).toEqual([1]);
    // The old handler, let go now, cannot mark the task.
    never.open();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await task(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('stop() aborts work in a thread: the thread is terminated and the task queued again', async () => {
    const module = new URL('./support/test.thread.ts', import.meta.url);
    let started = false;
    const worker = start(
      [
        {
          kind: 'test.spin',
          async run(context) {
            started = true;
            await pool.run(module, 'spin', { ms: 60_000 }, { signal: context.signal });
          },
        },
      ],
      { shutdownGraceMilliseconds: 400 },
    );
    const { id } = await addWithRequest({ kind: 'test.spin' });
    t.deps.taskWakeup.notify();
    await waitFor('the handler to start', () => started);
    const began = performance.now();
    await worker.stop();
    expect(performance.now() - began).toBeLessThan(3_000);
    expect(await task(id)).toMatchObject({ status: 'queued', attempts: 0, interruptions: 0 });
    // The pool's thread was replaced: it runs the next call at once.
    expect(await pool.run<{ input: number }>(module, 'echo', 1)).toMatchObject({ input: 1 });
  });
});
