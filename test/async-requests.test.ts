import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, createTaskRegistry } from '../src/queue/queue.js';
import { buildTaskFailureHook, buildTaskRegistry } from '../src/task-handlers.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { completeAsyncRequest, createAsyncRequest } from '../src/modules/integration/async-requests/async-requests.service.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeOrganization, makeUser, signedInUser } from './factories.js';
import { startReceiver } from './support/receiver.js';
import { waitFor } from './support/wait.js';

/** Issue 4, point 2: the async request API, the pending limit, failures and callbacks. */

const LIMIT = 3;

describe('asynchronous requests', () => {
  let t: TestApp;
  let worker: Worker;
  const receivers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_ASYNC_PENDING_LIMIT: String(LIMIT), OPENTMS_ALLOW_PRIVATE_CALLBACKS: 'true' } });
    // The real handlers, plus one whose work always fails (the machinery under test: a final failure).
    const registry = createTaskRegistry([
      ...buildTaskRegistry().handlers,
      {
        kind: 'test.always-fails',
        maxAttempts: 2,
        backoffMs: () => 0,
        async run() {
          throw new Error('The file could not be read.');
        },
      },
    ]);
    worker = startWorker(t.deps, registry, {
      pollMilliseconds: 20,
      listenConnectionString: null,
      onTaskFailed: buildTaskFailureHook(t.deps),
    });
  });
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  async function newRequest(organizationId: string, userId: string, extra: { callbackUrl?: string } = {}) {
    return t.database.db
      .transaction()
      .execute((trx) => createAsyncRequest(t.deps, trx, { organizationId, createdById: userId, action: 'IMPORT_JOB', ...extra }));
  }

  it('asyncResponse stays null until the request finishes', async () => {
    const { organization, user, headers } = await signedInUser(t, 'ADMIN');
    const request = await newRequest(organization.id, user.id);
    const pending = (await t.inject({ url: `/api2/v1/async/${request.id}`, headers })).json();
    expect(pending).toMatchObject({
      id: request.id,
      action: 'IMPORT_JOB',
      asyncResponse: null,
      createdBy: { uid: user.uid },
      parent: null,
    });
    await completeAsyncRequest(t.deps, t.database.db, request.id, { acceptedSegmentsCount: 12 });
    const done = (await t.inject({ url: `/api2/v1/async/${request.id}`, headers })).json();
    expect(done.asyncResponse).toMatchObject({
      errorCode: null,
      errorDesc: null,
      acceptedSegmentsCount: 12,
      dateCreated: t.clock().toISOString(),
    });
  });

  it('lists pending requests of the caller, or with all=true of the organization (ADMIN only)', async () => {
    const { organization, user, headers } = await signedInUser(t, 'ADMIN');
    const linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    const mine = await newRequest(organization.id, user.id);
    const theirs = await newRequest(organization.id, linguist.id);
    const own = (await t.inject({ url: '/api2/v1/async', headers })).json();
    expect(own.content.map((r: { id: string }) => r.id)).toEqual([mine.id]);
    const all = (await t.inject({ url: '/api2/v1/async?all=true', headers })).json();
    expect(all.content.map((r: { id: string }) => r.id)).toEqual([mine.id, theirs.id]);
    const linguistHeaders = apiToken(await loginAs(t, linguist));
    expect((await t.inject({ url: '/api2/v1/async?all=true', headers: linguistHeaders })).statusCode).toBe(403);
    // A linguist sees its own request, not the admin's.
    expect((await t.inject({ url: `/api2/v1/async/${theirs.id}`, headers: linguistHeaders })).statusCode).toBe(200);
    expect((await t.inject({ url: `/api2/v1/async/${mine.id}`, headers: linguistHeaders })).statusCode).toBe(404);
  });

  it(`an organization over its pending limit (${LIMIT}) gets 429 and nothing is written`, async () => {
    const { organization, user, headers } = await signedInUser(t, 'ADMIN');
    for (let i = 0; i < LIMIT; i++) await newRequest(organization.id, user.id);
    const status = (await t.inject({ url: '/api2/v1/async/status', headers })).json();
    expect(status).toEqual({ concurrentRequests: { limit: LIMIT, count: LIMIT } });
    const over = newRequest(organization.id, user.id);
    await expect(over).rejects.toMatchObject({ statusCode: 429, errorCode: 'TooManyPendingRequests' });
    expect((await t.inject({ url: '/api2/v1/async/status', headers })).json().concurrentRequests.count).toBe(LIMIT);
    // Other organizations are not affected.
    const other = await signedInUser(t, 'ADMIN', await makeOrganization(t.database.db));
    await newRequest(other.organization.id, other.user.id);
  });

  it('a task that fails for good records errorCode and errorDesc on its request', async () => {
    const { organization, user, headers } = await signedInUser(t, 'ADMIN');
    const request = await t.database.db.transaction().execute(async (trx) => {
      const created = await createAsyncRequest(t.deps, trx, {
        organizationId: organization.id,
        createdById: user.id,
        action: 'IMPORT_JOB',
      });
      await enqueue(
        trx,
        { kind: 'test.always-fails', payload: {}, organizationId: organization.id, asyncRequestId: created.id },
        t.clock(),
      );
      return created;
    });
    t.deps.taskWakeup.notify();
    const failed = await waitFor('the call to be recorded', async () => {
      const body = (await t.inject({ url: `/api2/v1/async/${request.id}`, headers })).json();
      return body.asyncResponse ? body : undefined;
    });
    expect(failed.asyncResponse).toMatchObject({ errorCode: 'AsyncTaskFailed', errorDesc: 'The file could not be read.' });
  });

  it('calls the callbackUrl with the finished request', async () => {
    const { organization, user } = await signedInUser(t, 'ADMIN');
    const receiver = await startReceiver();
    receivers.push(receiver);
    const request = await newRequest(organization.id, user.id, { callbackUrl: receiver.url });
    await completeAsyncRequest(t.deps, t.database.db, request.id);
    t.deps.taskWakeup.notify();
    const [call] = await receiver.waitFor(1);
    expect(JSON.parse(call!.body)).toMatchObject({ id: request.id, action: 'IMPORT_JOB', asyncResponse: { errorCode: null } });
    // Finishing twice changes nothing and calls back once.
    await completeAsyncRequest(t.deps, t.database.db, request.id, { errorCode: 'Late' });
    await new Promise((done) => setTimeout(done, 150));
    expect(receiver.calls).toHaveLength(1);
  });

  it("another organization's request, or a malformed id, is not found", async () => {
    const { organization, user } = await signedInUser(t, 'ADMIN');
    const request = await newRequest(organization.id, user.id);
    const other = await signedInUser(t, 'ADMIN', await makeOrganization(t.database.db));
    expect((await t.inject({ url: `/api2/v1/async/${request.id}`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.inject({ url: '/api2/v1/async/not-a-number', headers: other.headers })).statusCode).toBe(404);
  });
});
