import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS, DISABLE_AFTER_FAILED_CALLS } from '../src/domain/webhooks/events.js';
import { verifySignature } from '../src/outbound/signature.js';
import { buildTaskRegistry } from '../src/task-handlers.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { emitEvent } from '../src/modules/integration/webhooks/webhook-calls.js';
import { deliverTask } from '../src/modules/integration/webhooks/deliver.task.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { makeOrganization, signedInUser } from './factories.js';
import { startReceiver } from './support/receiver.js';
import { waitFor } from './support/wait.js';

/** Issue 4, points 3-5: webhooks v2, deliveries with retries, signatures, the outbound URL policy. */

describe('webhooks', () => {
  let t: TestApp;
  let worker: Worker;
  let headers: Record<string, string>;
  let organizationId: string;
  const receivers: { close(): Promise<void> }[] = [];

  async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  }

  async function createWebhook(payload: Record<string, unknown>) {
    const response = await t.inject({ method: 'POST', url: '/api2/v2/webhooks', headers, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function callsOf(webhookUid: string) {
    return (await t.inject({ url: `/api2/v1/webhooksCalls?webhookUid=${webhookUid}`, headers })).json().content as {
      uid: string;
      retryAttempt: number;
      statusCode: number | null;
      errorMessage: string | null;
      parentUid: string | null;
      triggerEvent: string;
    }[];
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_ALLOW_PRIVATE_CALLBACKS: 'true', OPENTMS_OUTBOUND_TIMEOUT_MS: '1000' } });
    const admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    organizationId = admin.organization.id;
    worker = startWorker(t.deps, buildTaskRegistry(), { pollMilliseconds: 20, listenConnectionString: null });
  });
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  describe('records', () => {
    it('create, get, list with filters, edit and delete', async () => {
      const created = await createWebhook({
        name: 'Jobs',
        url: 'https://hooks.example.test/a',
        events: ['JOB_CREATED', 'JOB_STATUS_CHANGED'],
        secretToken: 's3cret',
      });
      expect(created).toMatchObject({
        name: 'Jobs',
        status: 'ENABLED',
        hidden: false,
        failedAttempts: 0,
        secretToken: 's3cret',
        events: ['JOB_CREATED', 'JOB_STATUS_CHANGED'],
      });
      expect(created.signingSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      await createWebhook({ name: 'Projects', url: 'https://hooks.example.test/b', events: ['PROJECT_CREATED'], status: 'DISABLED' });

      expect((await t.inject({ url: `/api2/v2/webhooks/${created.uid}`, headers })).json()).toEqual(created);
      const byEvent = (await t.inject({ url: '/api2/v2/webhooks?events=JOB_CREATED', headers })).json();
      expect(byEvent.content.map((w: { uid: string }) => w.uid)).toContain(created.uid);
      expect(byEvent.content.every((w: { events: string[] }) => w.events.includes('JOB_CREATED'))).toBe(true);
      const disabled = (await t.inject({ url: '/api2/v2/webhooks?status=DISABLED&sortField=NAME&sortTrend=DESC', headers })).json();
      expect(disabled.content.every((w: { status: string }) => w.status === 'DISABLED')).toBe(true);

      const edited = await t.inject({
        method: 'PUT',
        url: `/api2/v2/webhooks/${created.uid}`,
        headers,
        payload: { url: 'https://hooks.example.test/c', events: ['JOB_DELETED'] },
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({
        url: 'https://hooks.example.test/c',
        events: ['JOB_DELETED'],
        secretToken: null,
        signingSecret: created.signingSecret,
      });

      expect((await t.inject({ method: 'DELETE', url: `/api2/v2/webhooks/${created.uid}`, headers })).statusCode).toBe(204);
      expect((await t.inject({ url: `/api2/v2/webhooks/${created.uid}`, headers })).statusCode).toBe(404);
    });

    it.each([
      ['an ftp URL', { url: 'ftp://hooks.example.test/', events: ['JOB_CREATED'] }, 'InvalidCallbackUrl'],
      ['credentials in the URL', { url: 'https://u:p@hooks.example.test/', events: ['JOB_CREATED'] }, 'InvalidCallbackUrl'],
      ['no events', { url: 'https://hooks.example.test/', events: [] }, 'InvalidArguments'],
      ['an unknown event', { url: 'https://hooks.example.test/', events: ['JOB_EXPLODED'] }, 'InvalidArguments'],
      ['an oversized name', { name: 'x'.repeat(256), url: 'https://hooks.example.test/', events: ['JOB_CREATED'] }, 'InvalidArguments'],
    ])('refuses %s and writes nothing', async (_what, payload, code) => {
      const before = await t.database.db.selectFrom('webhooks').select('id').execute();
      const response = await t.inject({ method: 'POST', url: '/api2/v2/webhooks', headers, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().errorCode).toBe(code);
      expect(await t.database.db.selectFrom('webhooks').select('id').execute()).toHaveLength(before.length);
    });

    it('refuses loopback, private and link-local targets unless OPENTMS_ALLOW_PRIVATE_CALLBACKS is set', async () => {
      const strict = await createTestApp();
      try {
        const { headers: strictHeaders } = await signedInUser(strict, 'ADMIN');
        for (const url of [
          'http://127.0.0.1:9/x',
          'http://10.1.2.3/x',
          'http://169.254.169.254/latest/meta-data',
          'http://[::1]/x',
          'http://localhost/x',
        ]) {
          const response = await strict.inject({
            method: 'POST',
            url: '/api2/v2/webhooks',
            headers: strictHeaders,
            payload: { url, events: ['JOB_CREATED'] },
          });
          expect(response.statusCode, url).toBe(400);
          expect(response.json().errorCode).toBe('InvalidCallbackUrl');
        }
      } finally {
        await strict.close();
      }
    });

    it('previews every event, or the named ones', async () => {
      const all = (await t.inject({ url: '/api2/v2/webhooks/previews', headers })).json();
      expect(all.previews.map((p: { event: string }) => p.event)).toEqual([...WEBHOOK_EVENTS]);
      const some = (await t.inject({ url: '/api2/v2/webhooks/previews?events=JOB_CREATED&events=PROJECT_CREATED', headers })).json();
      expect(some.previews).toHaveLength(2);
      const job = JSON.parse(some.previews[0].preview);
      expect(job).toMatchObject({ event: 'JOB_CREATED', timestamp: expect.any(Number), jobParts: expect.any(Array) });
    });

    it("another organization's webhook is not found, and non-admins are refused", async () => {
      const created = await createWebhook({ url: 'https://hooks.example.test/z', events: ['JOB_CREATED'] });
      const other = await signedInUser(t, 'ADMIN', await makeOrganization(t.database.db));
      expect((await t.inject({ url: `/api2/v2/webhooks/${created.uid}`, headers: other.headers })).statusCode).toBe(404);
      const pm = await signedInUser(t, 'PROJECT_MANAGER');
      expect((await t.inject({ url: '/api2/v2/webhooks', headers: pm.headers })).statusCode).toBe(403);
    });
  });

  describe('deliveries', () => {
    it('a test webhook reaches a loopback receiver with the secret token and a valid signature', async () => {
      const r = await receiver();
      const webhook = await createWebhook({ url: r.url, events: ['JOB_STATUS_CHANGED'], secretToken: 'phrase-style-secret' });
      const notIncluded = await t.inject({ method: 'POST', url: `/api2/v2/webhooks/${webhook.uid}/test?event=PROJECT_CREATED`, headers });
      expect(notIncluded.statusCode).toBe(400);
      expect(notIncluded.json().errorCode).toBe('WebhookEventNotIncluded');
      const sent = await t.inject({ method: 'POST', url: `/api2/v2/webhooks/${webhook.uid}/test?event=JOB_STATUS_CHANGED`, headers });
      expect(sent.statusCode).toBe(201);
      const [call] = await r.waitFor(1);
      expect(call!.method).toBe('POST');
      expect(call!.headers['x-memsource-token']).toBe('phrase-style-secret');
      expect(call!.headers['content-type']).toMatch(/application\/json/);
      expect(verifySignature(webhook.signingSecret, call!.body, String(call!.headers['x-opentms-signature']))).toBe(true);
      expect(verifySignature(webhook.signingSecret, call!.body + ' ', String(call!.headers['x-opentms-signature']))).toBe(false);
      expect(JSON.parse(call!.body)).toMatchObject({
        event: 'JOB_STATUS_CHANGED',
        timestamp: expect.any(Number),
        jobParts: expect.any(Array),
      });
      const calls = await waitFor('the call to be recorded', async () => {
        const list = await callsOf(webhook.uid);
        return list[0]?.statusCode === 200 ? list : undefined;
      });
      expect(calls[0]).toMatchObject({ triggerEvent: 'JOB_STATUS_CHANGED', retryAttempt: 0, statusCode: 200, errorMessage: null });
    });

    it('emitEvent sends to enabled subscribers only, after the change commits', async () => {
      const r = await receiver();
      const subscribed = await createWebhook({ url: `${r.url}?a`, events: ['PROJECT_CREATED'] });
      await createWebhook({ url: `${r.url}?b`, events: ['JOB_CREATED'] });
      await createWebhook({ url: `${r.url}?c`, events: ['PROJECT_CREATED'], status: 'DISABLED' });
      // A transaction that rolls back sends nothing.
      await t.database.db
        .transaction()
        .execute(async (trx) => {
          await emitEvent(t.deps, trx, { organizationId, event: 'PROJECT_CREATED', records: { uid: 'rolled-back' } });
          throw new Error('roll back');
        })
        .catch(() => undefined);
      const { calls } = await t.database.db
        .transaction()
        .execute((trx) =>
          emitEvent(t.deps, trx, { organizationId, event: 'PROJECT_CREATED', records: { uid: 'p1', name: 'Project one' } }),
        );
      t.deps.taskWakeup.notify();
      expect(calls).toBe(1);
      const [call] = await r.waitFor(1);
      expect(call!.url).toBe('/hook?a');
      expect(JSON.parse(call!.body)).toMatchObject({
        event: 'PROJECT_CREATED',
        project: { uid: 'p1' },
        metadata: { organization: { uid: expect.any(String) } },
      });
      await new Promise((done) => setTimeout(done, 200));
      expect(r.calls).toHaveLength(1);
      expect(await callsOf(subscribed.uid)).toHaveLength(1);
    });

    it('a delivery is retried with backoff until its receiver comes back', async () => {
      const r = await receiver((_call, index) => (index < 2 ? 503 : 200));
      const webhook = await createWebhook({ url: r.url, events: ['JOB_CREATED'] });
      await t.database.db
        .transaction()
        .execute((trx) => emitEvent(t.deps, trx, { organizationId, event: 'JOB_CREATED', records: [{ uid: 'j1' }] }));
      t.deps.taskWakeup.notify();
      await r.waitFor(1);
      // The clock may only move once the failed attempt is back in the queue with its backoff.
      const requeued = (attempts: number) =>
        waitFor(`attempt ${attempts} to be re-queued`, async () => {
          const task = await t.database.db
            .selectFrom('tasks')
            .selectAll()
            .where('kind', '=', 'webhook.deliver')
            .orderBy('id', 'desc')
            .executeTakeFirst();
          return task?.status === 'queued' && task.attempts === attempts ? task : undefined;
        });
      const afterFirst = await requeued(1);
      expect(afterFirst.lastError).toMatch(/503/);
      expect(Date.parse(afterFirst.runAt) - t.clock().getTime()).toBe(30_000);
      // Nothing happens before the backoff has passed...
      await new Promise((done) => setTimeout(done, 150));
      expect(r.calls).toHaveLength(1);
      // ... then the next attempt goes out; the third succeeds.
      t.clock.advance(31_000);
      t.deps.taskWakeup.notify();
      await r.waitFor(2);
      await requeued(2);
      t.clock.advance(61_000);
      t.deps.taskWakeup.notify();
      await r.waitFor(3);
      const delivered = await waitFor('the call to be recorded', async () =>
        (await callsOf(webhook.uid))[0]?.statusCode === 200 ? (await callsOf(webhook.uid))[0] : undefined,
      );
      expect(delivered).toMatchObject({ retryAttempt: 2, errorMessage: null });
      expect(r.calls.map((c) => c.headers['x-opentms-delivery'])).toEqual(Array(3).fill(delivered.uid));
    });

    it('a slow receiver does not slow the API', async () => {
      const r = await receiver(() => 'hang');
      const webhook = await createWebhook({ url: r.url, events: ['JOB_CREATED'] });
      const sent = await t.inject({ method: 'POST', url: `/api2/v2/webhooks/${webhook.uid}/test?event=JOB_CREATED`, headers });
      expect(sent.statusCode).toBe(201);
      // The API has answered while the delivery has not finished (the receiver never answers).
      const [call] = await callsOf(webhook.uid);
      expect(call).toMatchObject({ statusCode: null, errorMessage: null });
      await r.waitFor(1);
    });

    it(`a webhook whose calls keep failing for good is disabled after ${DISABLE_AFTER_FAILED_CALLS} in a row`, async () => {
      const webhook = await createWebhook({ url: 'https://hooks.example.test/dead', events: ['JOB_CREATED'] });
      const row = await t.database.db.selectFrom('webhooks').selectAll().where('uid', '=', webhook.uid).executeTakeFirstOrThrow();
      await t.database.db
        .updateTable('webhooks')
        .set({ failedAttempts: DISABLE_AFTER_FAILED_CALLS - 1 })
        .where('id', '=', row.id)
        .execute();
      const call = await t.database.db
        .insertInto('webhookCalls')
        .values({
          uid: 'deadcall',
          organizationId: row.organizationId,
          webhookId: row.id,
          event: 'JOB_CREATED',
          eventUid: 'e',
          url: row.url,
          body: '{}',
          status: 'PENDING',
          attempts: 11,
          forced: false,
          statusCode: 503,
          errorMessage: 'x',
          createdAt: t.clock().toISOString(),
          lastAttemptAt: null,
          deliveredAt: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const context = {
        deps: t.deps,
        taskId: '0',
        attempt: 11,
        maxAttempts: 11,
        organizationId,
        asyncRequestId: null,
        signal: new AbortController().signal,
      };
      await deliverTask.onFinalFailure!(context, { callId: call.id }, new Error('503'));
      const after = (await t.inject({ url: `/api2/v2/webhooks/${webhook.uid}`, headers })).json();
      expect(after).toMatchObject({ status: 'DISABLED', failedAttempts: DISABLE_AFTER_FAILED_CALLS });
      // Enabling it again starts the count afresh.
      const enabled = await t.inject({
        method: 'PUT',
        url: `/api2/v2/webhooks/${webhook.uid}`,
        headers,
        payload: { url: row.url, events: ['JOB_CREATED'], status: 'ENABLED' },
      });
      expect(enabled.json()).toMatchObject({ status: 'ENABLED', failedAttempts: 0 });
    });

    it('replays calls as new calls naming their parent', async () => {
      const r = await receiver();
      const webhook = await createWebhook({ url: r.url, events: ['JOB_CREATED'] });
      await t.inject({ method: 'POST', url: `/api2/v2/webhooks/${webhook.uid}/test?event=JOB_CREATED`, headers });
      await r.waitFor(1);
      const [original] = await callsOf(webhook.uid);
      const replay = await t.inject({
        method: 'POST',
        url: '/api2/v1/webhooksCalls/replay',
        headers,
        payload: { webhookCalls: [{ uid: original!.uid }] },
      });
      expect(replay.statusCode).toBe(202);
      await r.waitFor(2);
      expect(r.calls[1]!.body).toBe(r.calls[0]!.body);
      const children = (await t.inject({ url: `/api2/v1/webhooksCalls?parentUid=${original!.uid}`, headers })).json();
      expect(children.content).toHaveLength(1);
      expect(
        (await t.inject({ method: 'POST', url: '/api2/v1/webhooksCalls/replay', headers, payload: { webhookCalls: [{ uid: 'nope' }] } }))
          .statusCode,
      ).toBe(404);
      const latest = await t.inject({ method: 'POST', url: '/api2/v1/webhooksCalls/replay/latest?numberOfCalls=1', headers });
      expect(latest.statusCode).toBe(202);
      await r.waitFor(3);
    });
  });
});
