import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppDeps } from '../src/deps.js';
import { createTaskRegistry, defaultBackoffMs, enqueue } from '../src/queue/queue.js';
import type { TaskContext, TaskHandler, TaskRecord, TaskSpec } from '../src/queue/types.js';

/** The queue's own tests run handlers of the free `test.` kinds. */
type TestKind = `test.${string}`;
type TestHandler = TaskHandler<TestKind>;
import { createJsonLogger } from '../src/queue/log.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker, WorkerOptions } from '../src/queue/worker.js';
import { makeOrganization } from './factories.js';
import { createTestApp, testDialect, TEST_DATABASE_URL } from './harness.js';
import type { TestApp } from './harness.js';
import { gate, waitFor } from './support/wait.js';

/**
 * The task queue through the real database of createTestApp (SQLite in memory, or a PostgreSQL
 * schema) with handlers registered by the tests. Time is the test clock: backoff and lease expiry
 * are reached by moving it, and the worker is woken through `taskWakeup` rather than by waiting
 * for its poll (which is set to a minute, so that a task that runs at all was woken).
 */

let t: TestApp;
let deps: AppDeps;
const workers: Worker[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { OPENTMS_TASK_POLL_MS: '60000' } });
  deps = t.deps;
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await t.database.db.deleteFrom('tasks').execute();
  await t.database.db.deleteFrom('taskTurns').execute();
  t.clock.set('2026-11-21T12:00:00.000Z');
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});

/** Starts a worker on the test database (QUEUE_TEST_LOG=1 prints its log). */
function start(handlers: TestHandler[], options: WorkerOptions = {}): Worker {
  const worker = startWorker(deps, createTaskRegistry(handlers), {
    listenConnectionString: null,
    ...(process.env.QUEUE_TEST_LOG ? { log: createJsonLogger('debug') } : {}),
    ...options,
  });
  workers.push(worker);
  return worker;
}

async function add(spec: Partial<TaskSpec<TestKind>> & { kind: TestKind }): Promise<string> {
  const id = await enqueue(t.database.db, { payload: {}, organizationId: null, ...spec }, t.clock());
  return id;
}

function task(id: string) {
  return t.database.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function waitForStatus(id: string, status: string, timeoutMs = 5_000) {
  return waitFor(
    `task ${id} to be ${status}`,
    async () => {
      const row = await task(id);
      return row.status === status ? row : null;
    },
    timeoutMs,
  );
}

/** Waits until attempt `attempt` of the task failed and the task is queued again. */
async function waitForRetry(id: string, attempt: number) {
  return waitFor(`attempt ${attempt} of task ${id} to fail`, async () => {
    const row = await task(id);
    return row.status === 'queued' && row.attempts === attempt ? row : null;
  });
}

describe(`enqueue (${testDialect})`, () => {
  it('writes nothing when the transaction rolls back', async () => {
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await enqueue(trx, { kind: 'test.noop', payload: { a: 1 }, organizationId: null }, t.clock());
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await t.database.db.selectFrom('tasks').selectAll().execute()).toEqual([]);
  });

  it('writes a queued task with its payload, organization and async request', async () => {
    const organization = await makeOrganization(t.database.db);
    const id = await t.database.db
      .transaction()
      .execute((trx) =>
        enqueue(
          trx,
          { kind: 'test.noop', payload: { a: [1, 'b'] }, organizationId: organization.id, asyncRequestId: '42', maxAttempts: 3 },
          t.clock(),
        ),
      );
    expect(id).toMatch(/^\d+$/);
    const row = await task(id);
    expect(row).toMatchObject({ kind: 'test.noop', status: 'queued', attempts: 0, maxAttempts: 3, runAt: '2026-11-21T12:00:00.000Z' });
    expect(JSON.parse(row.payload)).toEqual({ a: [1, 'b'] });
    expect(String(row.organizationId)).toBe(organization.id);
    expect(String(row.asyncRequestId)).toBe('42');
  });

  it('refuses a maxAttempts below 1', async () => {
    await expect(add({ kind: 'test.noop', maxAttempts: 0 })).rejects.toThrow('maxAttempts');
  });
});

describe(`the worker (${testDialect})`, () => {
  it('runs a committed task within a second of the wake-up (the poll is a minute)', async () => {
    const ran: { payload: unknown; context: TaskContext }[] = [];
    start([
      {
        kind: 'test.echo',
        async run(context, payload) {
          ran.push({ payload, context });
        },
      },
    ]);
    const id = await t.database.db
      .transaction()
      .execute((trx) => enqueue(trx, { kind: 'test.echo', payload: { hello: 'world' }, organizationId: null }, t.clock()));
    deps.taskWakeup.notify();
    await waitFor('the task to run', () => ran.length === 1, 1_000, 5);
    expect(ran[0]!.payload).toEqual({ hello: 'world' });
    expect(ran[0]!.context).toMatchObject({ taskId: id, attempt: 1, maxAttempts: 5, organizationId: null, asyncRequestId: null });
    const row = await waitForStatus(id, 'done');
    expect(row).toMatchObject({ attempts: 1, finishedAt: '2026-11-21T12:00:00.000Z', lockedBy: null, leaseUntil: null });
  });

  it('retries with backoff, then succeeds', async () => {
    let calls = 0;
    start([
      {
        kind: 'test.flaky',
        async run() {
          calls++;
          if (calls < 3) throw new Error(`boom ${calls}`);
        },
      },
    ]);
    const id = await add({ kind: 'test.flaky' });
    deps.taskWakeup.notify();
    let row = await waitForRetry(id, 1);
    expect(row.lastError).toBe('Error: boom 1');
    // Default backoff after attempt 1: 1 s ± 20%.
    const delay = new Date(row.runAt).getTime() - t.clock().getTime();
    expect(delay).toBeGreaterThanOrEqual(800);
    expect(delay).toBeLessThanOrEqual(1_200);

    // Not due yet: a wake-up does not run it.
    deps.taskWakeup.notify();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(1);

    t.clock.advance(1_200);
    deps.taskWakeup.notify();
    row = await waitForRetry(id, 2);
    const delay2 = new Date(row.runAt).getTime() - t.clock().getTime();
    expect(delay2).toBeGreaterThanOrEqual(1_600);
    expect(delay2).toBeLessThanOrEqual(2_400);

    t.clock.advance(2_400);
    deps.taskWakeup.notify();
    row = await waitForStatus(id, 'done');
    expect(row.attempts).toBe(3);
    expect(calls).toBe(3);
  });

  it("uses the handler's backoff", async () => {
    const asked: number[] = [];
    start([
      {
        kind: 'test.custom-backoff',
        backoffMs: (attempt) => {
          asked.push(attempt);
          return 30_000;
        },
        async run() {
          throw new Error('no');
        },
      },
    ]);
    const id = await add({ kind: 'test.custom-backoff' });
    deps.taskWakeup.notify();
    const row = await waitForRetry(id, 1);
    expect(asked).toEqual([1]);
    expect(row.runAt).toBe('2026-11-21T12:00:30.000Z');
  });

  it('fails for good after the last attempt, calling onFinalFailure and onTaskFailed once', async () => {
    const finalFailures: { context: TaskContext; payload: unknown; error: unknown }[] = [];
    const failedTasks: { task: TaskRecord; error: unknown }[] = [];
    let calls = 0;
    start(
      [
        {
          kind: 'test.doomed',
          maxAttempts: 2,
          backoffMs: () => 0,
          async run() {
            calls++;
            throw new Error(`attempt ${calls} failed`);
          },
          async onFinalFailure(context, payload, error) {
            finalFailures.push({ context, payload, error });
          },
        },
      ],
      { onTaskFailed: (task, error) => void failedTasks.push({ task, error }) },
    );
    const id = await add({ kind: 'test.doomed', payload: { n: 7 }, asyncRequestId: '99' });
    deps.taskWakeup.notify();
    const row = await waitForStatus(id, 'failed');
    expect(row).toMatchObject({ attempts: 2, lastError: 'Error: attempt 2 failed', finishedAt: '2026-11-21T12:00:00.000Z' });
    await waitFor('the hooks', () => failedTasks.length === 1);
    expect(calls).toBe(2);
    expect(finalFailures).toHaveLength(1);
    expect(finalFailures[0]!.payload).toEqual({ n: 7 });
    expect(finalFailures[0]!.context).toMatchObject({ taskId: id, attempt: 2, maxAttempts: 2, asyncRequestId: '99' });
    expect(String(finalFailures[0]!.error)).toContain('attempt 2 failed');
    expect(failedTasks[0]!.task).toEqual({
      id,
      kind: 'test.doomed',
      payload: { n: 7 },
      organizationId: null,
      asyncRequestId: '99',
      attempts: 2,
      maxAttempts: 2,
    });

    // Nothing runs it again.
    deps.taskWakeup.notify();
    t.clock.advance(3_600_000);
    deps.taskWakeup.notify();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(2);
    expect(finalFailures).toHaveLength(1);
    expect(failedTasks).toHaveLength(1);
  });

  it("the task's maxAttempts overrides the handler's", async () => {
    let calls = 0;
    start([
      {
        kind: 'test.once',
        maxAttempts: 5,
        async run() {
          calls++;
          throw new Error('x');
        },
      },
    ]);
    const id = await add({ kind: 'test.once', maxAttempts: 1 });
    deps.taskWakeup.notify();
    expect(await waitForStatus(id, 'failed')).toMatchObject({ attempts: 1 });
    expect(calls).toBe(1);
  });

  it('fails a task of an unknown kind with a clear error, and keeps working', async () => {
    const failed: TaskRecord[] = [];
    const ran: string[] = [];
    start(
      [
        {
          kind: 'test.known',
          async run(context) {
            ran.push(context.taskId);
          },
        },
      ],
      { onTaskFailed: (task) => void failed.push(task) },
    );
    const unknown = await add({ kind: 'test.nobody-handles-this' });
    const known = await add({ kind: 'test.known' });
    deps.taskWakeup.notify();
    const row = await waitForStatus(unknown, 'failed');
    expect(row.lastError).toContain('no handler is registered for task kind "test.nobody-handles-this"');
    await waitForStatus(known, 'done');
    expect(ran).toEqual([known]);
    expect(failed.map((f) => f.id)).toEqual([unknown]);
  });

  it('takes over a running task whose lease expired (its worker died)', async () => {
    const id = await add({ kind: 'test.resume' });
    // A worker claimed it a while ago, then died: its lease ran out.
    await t.database.db
      .updateTable('tasks')
      .set({ status: 'running', attempts: 1, lockedBy: 'dead-worker', leaseUntil: '2026-11-21T11:59:59.000Z' })
      .where('id', '=', id)
      .execute();
    const attempts: number[] = [];
    start([
      {
        kind: 'test.resume',
        async run(context) {
          attempts.push(context.attempt);
        },
      },
    ]);
    deps.taskWakeup.notify();
    expect(await waitForStatus(id, 'done')).toMatchObject({ attempts: 2 });
    expect(attempts).toEqual([2]);
  });

  it('leaves alone a running task whose lease has not expired', async () => {
    const id = await add({ kind: 'test.resume' });
    await t.database.db
      .updateTable('tasks')
      .set({ status: 'running', attempts: 1, lockedBy: 'live-worker', leaseUntil: '2026-11-21T12:00:30.000Z' })
      .where('id', '=', id)
      .execute();
    const ran: string[] = [];
    start([
      {
        kind: 'test.resume',
        async run(context) {
          ran.push(context.taskId);
        },
      },
    ]);
    deps.taskWakeup.notify();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ran).toEqual([]);
    t.clock.advance(31_000);
    deps.taskWakeup.notify();
    await waitForStatus(id, 'done');
    expect(ran).toEqual([id]);
  });

  it('a stalled worker that lost its task to another does not mark it', async () => {
    const stalled = gate();
    const runs: string[] = [];
    const handler = (name: string): TestHandler => ({
      kind: 'test.stall',
      async run() {
        runs.push(name);
        if (name === 'first') await stalled.promise;
      },
    });
    // The first worker never renews (stalled), so its lease of 60 s runs out when the clock moves.
    // (Concurrency 1: with a free slot it would look for work itself, and might take its own
    // expired task back before the second worker does.)
    const first = start([handler('first')], { renewEveryMilliseconds: 3_600_000, workerId: 'first', concurrency: 1 });
    const id = await add({ kind: 'test.stall' });
    deps.taskWakeup.notify();
    await waitFor('the first worker to start it', () => runs.length === 1);
    t.clock.advance(61_000);
    start([handler('second')], { workerId: 'second' });
    expect(await waitForStatus(id, 'done')).toMatchObject({ attempts: 2 });
    expect(runs).toEqual(['first', 'second']);
    stalled.open();
    await first.stop();
    // Still the second worker's outcome.
    expect(await task(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it("aborts the handler's signal when a lease renewal finds the task taken over", async () => {
    let signal: AbortSignal | null = null;
    const aborted = gate();
    start(
      [
        {
          kind: 'test.watch-signal',
          async run(context) {
            signal = context.signal;
            await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
            aborted.open();
            throw new Error('stopped early');
          },
        },
      ],
      { renewEveryMilliseconds: 20 },
    );
    const id = await add({ kind: 'test.watch-signal' });
    deps.taskWakeup.notify();
    await waitFor('the handler to start', () => signal !== null);
    expect((await task(id)).leaseUntil).toBe('2026-11-21T12:01:00.000Z');
    t.clock.advance(10_000);
    await waitFor('a renewal', async () => (await task(id)).leaseUntil === '2026-11-21T12:01:10.000Z');
    // Another worker takes it over.
    await t.database.db.updateTable('tasks').set({ lockedBy: 'another-worker', attempts: 2 }).where('id', '=', id).execute();
    await aborted.promise;
    expect(String((signal as AbortSignal | null)?.reason)).toContain('lease was lost');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The row is the other worker's: not marked failed, not queued again.
    expect(await task(id)).toMatchObject({ status: 'running', lockedBy: 'another-worker', attempts: 2, lastError: null });
  });

  it('fails, without running it, a task taken over after its last attempt', async () => {
    const failed: TaskRecord[] = [];
    const id = await add({ kind: 'test.crasher', maxAttempts: 2 });
    await t.database.db
      .updateTable('tasks')
      .set({ status: 'running', attempts: 2, lockedBy: 'dead-worker', leaseUntil: '2026-11-21T11:59:00.000Z' })
      .where('id', '=', id)
      .execute();
    let calls = 0;
    start(
      [
        {
          kind: 'test.crasher',
          async run() {
            calls++;
          },
        },
      ],
      { onTaskFailed: (record) => void failed.push(record) },
    );
    deps.taskWakeup.notify();
    const row = await waitForStatus(id, 'failed');
    expect(row.lastError).toContain('stopped before it finished');
    expect(calls).toBe(0);
    await waitFor('onTaskFailed', () => failed.length === 1);
    expect(failed[0]).toMatchObject({ id, attempts: 2, maxAttempts: 2 });
  });

  it("serves the organization served longest ago: one organization's 1,000 tasks do not starve another's one", async () => {
    const a = (await makeOrganization(t.database.db)).id;
    const b = (await makeOrganization(t.database.db)).id;
    await t.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 1_000; i++) await enqueue(trx, { kind: 'test.fair', payload: { n: i }, organizationId: a }, t.clock());
    });
    t.clock.advance(1_000);
    const fromB = await add({ kind: 'test.fair', organizationId: b });
    const own = await add({ kind: 'test.fair', organizationId: null });
    const order: string[] = [];
    start(
      [
        {
          kind: 'test.fair',
          async run(context) {
            order.push(context.taskId);
          },
        },
      ],
      { concurrency: 1 },
    );
    deps.taskWakeup.notify();
    await waitFor('the first ten tasks', () => order.length >= 10);
    const first = order.slice(0, 3);
    expect(first).toContain(fromB);
    expect(first).toContain(own);
  });

  it('takes turns between organizations while all have work', async () => {
    const organizations = [];
    for (let i = 0; i < 3; i++) organizations.push((await makeOrganization(t.database.db)).id);
    // Organization 0 queued first and most; the others later.
    for (let i = 0; i < 20; i++) await add({ kind: 'test.turns', organizationId: organizations[0]!, payload: { o: 0 } });
    t.clock.advance(1);
    for (let i = 0; i < 5; i++) await add({ kind: 'test.turns', organizationId: organizations[1]!, payload: { o: 1 } });
    for (let i = 0; i < 5; i++) await add({ kind: 'test.turns', organizationId: organizations[2]!, payload: { o: 2 } });
    const order: number[] = [];
    start(
      [
        {
          kind: 'test.turns',
          async run(_context, payload: { o: number }) {
            order.push(payload.o);
          },
        },
      ],
      { concurrency: 1 },
    );
    deps.taskWakeup.notify();
    await waitFor('every task', () => order.length === 30);
    expect(order.slice(0, 15)).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
    expect(order.slice(15)).toEqual(Array(15).fill(0));
  });

  it('runs at most `concurrency` tasks at once', async () => {
    let now = 0;
    let most = 0;
    const release = gate();
    start(
      [
        {
          kind: 'test.slow',
          async run() {
            now++;
            most = Math.max(most, now);
            await release.promise;
            now--;
          },
        },
      ],
      { concurrency: 3 },
    );
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push(await add({ kind: 'test.slow' }));
    deps.taskWakeup.notify();
    await waitFor('three running', () => now === 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(now).toBe(3);
    const running = await t.database.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'running')
      .executeTakeFirstOrThrow();
    expect(Number(running.n)).toBe(3);
    release.open();
    for (const id of ids) await waitForStatus(id, 'done');
    expect(most).toBe(3);
  });

  it('by default runs config.tasks.concurrency tasks at once', async () => {
    let now = 0;
    let most = 0;
    const release = gate();
    start([
      {
        kind: 'test.slow',
        async run() {
          now++;
          most = Math.max(most, now);
          await release.promise;
          now--;
        },
      },
    ]);
    for (let i = 0; i < 8; i++) await add({ kind: 'test.slow' });
    deps.taskWakeup.notify();
    await waitFor(`${deps.config.tasks.concurrency} running`, () => now === deps.config.tasks.concurrency);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release.open();
    await waitFor('all done', () => now === 0 && most > 0);
    expect(most).toBe(deps.config.tasks.concurrency);
  });

  it('stop() waits for running handlers to finish and marks them', async () => {
    const release = gate();
    let started = false;
    const worker = start([
      {
        kind: 'test.slow',
        async run() {
          started = true;
          await release.promise;
        },
      },
    ]);
    const id = await add({ kind: 'test.slow' });
    deps.taskWakeup.notify();
    await waitFor('the handler to start', () => started);
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    // Stopped workers claim nothing new.
    const later = await add({ kind: 'test.slow' });
    deps.taskWakeup.notify();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    expect(await task(id)).toMatchObject({ status: 'done' });
    expect(await task(later)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('stop() aborts a handler still running after the grace period and queues its task again', async () => {
    let started = false;
    const worker = start(
      [
        {
          kind: 'test.stubborn',
          async run(context) {
            started = true;
            await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
            throw context.signal.reason;
          },
        },
      ],
      { shutdownGraceMilliseconds: 50 },
    );
    const id = await add({ kind: 'test.stubborn' });
    deps.taskWakeup.notify();
    await waitFor('the handler to start', () => started);
    await worker.stop();
    // Not a failed attempt: queued again as it was, for the next worker.
    expect(await task(id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null, leaseUntil: null, lastError: null });
  });

  it('deletes done tasks after 7 days, in batches, and keeps failed ones', async () => {
    const old = [];
    for (let i = 0; i < 3; i++) old.push(await add({ kind: 'test.old' }));
    const recent = await add({ kind: 'test.old' });
    const failed = await add({ kind: 'test.old' });
    const at = (days: number) => new Date(t.clock().getTime() - days * 24 * 3600_000).toISOString();
    await t.database.db
      .updateTable('tasks')
      .set({ status: 'done', finishedAt: at(8) })
      .where('id', 'in', old)
      .execute();
    await t.database.db
      .updateTable('tasks')
      .set({ status: 'done', finishedAt: at(6) })
      .where('id', '=', recent)
      .execute();
    await t.database.db
      .updateTable('tasks')
      .set({ status: 'failed', finishedAt: at(30) })
      .where('id', '=', failed)
      .execute();
    start([]);
    await waitFor('the old done tasks to go', async () => (await t.database.db.selectFrom('tasks').select('id').execute()).length === 2);
    const left = (await t.database.db.selectFrom('tasks').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(left).toEqual([recent, failed]);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL notifications', () => {
  it('a NOTIFY at commit wakes the worker (no in-process wake-up)', async () => {
    const ran: string[] = [];
    start(
      [
        {
          kind: 'test.notified',
          async run(context) {
            ran.push(context.taskId);
          },
        },
      ],
      { listenConnectionString: TEST_DATABASE_URL, workerId: `notify-${process.pid}` },
    );
    await waitFor('the listener', () => listening(`notify-${process.pid}`));
    const id = await t.database.db
      .transaction()
      .execute((trx) => enqueue(trx, { kind: 'test.notified', payload: null, organizationId: null }, t.clock()));
    await waitFor('the task to run', () => ran.length === 1, 1_000, 5);
    expect(ran).toEqual([id]);
  });

  it('reconnects LISTEN after its connection is killed', async () => {
    const workerId = `reconnect-${process.pid}`;
    const ran: string[] = [];
    start(
      [
        {
          kind: 'test.notified',
          async run(context) {
            ran.push(context.taskId);
          },
        },
      ],
      { listenConnectionString: TEST_DATABASE_URL, workerId },
    );
    await waitFor('the listener', () => listening(workerId));
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL! });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [
        `opentms-worker ${workerId}`,
      ]);
    } finally {
      await admin.end();
    }
    // Sent while the listener may be down: the catch-up after reconnecting still finds it.
    const id = await enqueue(t.database.db, { kind: 'test.notified', payload: null, organizationId: null }, t.clock());
    await waitFor('the task to run after the reconnection', () => ran.length === 1, 10_000);
    expect(ran).toEqual([id]);
    await waitFor('the listener to be back', () => listening(workerId), 10_000);
  });
});

async function listening(workerId: string): Promise<boolean> {
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from pg_stat_activity where application_name = ${`opentms-worker ${workerId}`} and query like 'listen%'`.execute(
    t.database.db,
  );
  return Number(rows[0]?.n) > 0;
}

describe('defaultBackoffMs', () => {
  it('doubles from 1 s, caps at 5 minutes, and jitters by ±20%', () => {
    expect([1, 2, 3, 4].map((a) => defaultBackoffMs(a, () => 0.5))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(defaultBackoffMs(9, () => 0.5)).toBe(256_000);
    expect(defaultBackoffMs(10, () => 0.5)).toBe(300_000);
    expect(defaultBackoffMs(50, () => 0.5)).toBe(300_000);
    expect(defaultBackoffMs(1, () => 0)).toBe(800);
    expect(defaultBackoffMs(1, () => 0.999999)).toBe(1_200);
    expect(defaultBackoffMs(50, () => 0)).toBe(240_000);
  });
});

describe('createTaskRegistry', () => {
  it('refuses two handlers of one kind', () => {
    const handler: TestHandler = { kind: 'test.x', async run() {} };
    expect(() => createTaskRegistry([handler, handler])).toThrow('two task handlers for kind "test.x"');
    expect(createTaskRegistry([handler]).get('test.x')).toBe(handler);
    expect(createTaskRegistry([handler]).get('test.y')).toBeUndefined();
  });
});
