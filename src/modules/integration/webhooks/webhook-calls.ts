import type { AppDeps } from '../../../deps.js';
import { newUid } from '../../../db/ids.js';
import { buildPayload, DELIVERY_ATTEMPTS } from '../../../domain/webhooks/events.js';
import type { EventMetadata, EventPayload, WebhookEvent } from '../../../domain/webhooks/events.js';
import { enqueue } from '../../../queue/queue.js';
import type { Db } from '../../../queue/types.js';
import { findOrganizationById } from '../../identity/organizations/index.js';
import { subscribers } from './webhooks.repository.js';
import type { WebhookCallRow, WebhookRow } from './webhooks.repository.js';

/** Task kind that sends one webhook call. */
export const DELIVER_TASK = 'webhook.deliver';

/**
 * Writes one call (outbox row) and the task that sends it, in the caller's transaction: nothing
 * leaves before the change that caused it is committed, and no request waits for a receiver.
 */
export async function queueCall(
  deps: AppDeps,
  db: Db,
  webhook: WebhookRow,
  call: { event: string; eventUid: string; body: string; parentUid?: string | null; forced?: boolean },
): Promise<WebhookCallRow> {
  const now = deps.clock();
  const row = await db
    .insertInto('webhookCalls')
    .values({
      uid: newUid(),
      organizationId: webhook.organizationId,
      webhookId: webhook.id,
      event: call.event,
      eventUid: call.eventUid,
      parentUid: call.parentUid ?? null,
      url: webhook.url,
      body: call.body,
      status: 'PENDING',
      attempts: 0,
      forced: call.forced ?? false,
      statusCode: null,
      errorMessage: null,
      createdAt: now.toISOString(),
      lastAttemptAt: null,
      deliveredAt: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await enqueue(
    db,
    {
      kind: DELIVER_TASK,
      payload: { callId: row.id },
      organizationId: webhook.organizationId,
      maxAttempts: DELIVERY_ATTEMPTS,
    },
    now,
  );
  return row;
}

export async function eventMetadata(db: Db, organizationId: string, user: EventMetadata['user'] = null): Promise<EventMetadata> {
  const organization = await findOrganizationById(db as never, organizationId);
  return { organization: organization ? { uid: organization.uid, name: organization.name } : null, user };
}

/**
 * The one function that announces a state change to webhooks: every enabled webhook of the
 * organization subscribed to `event` gets a call carrying `{event, timestamp, eventUid, metadata,
 * <records>}`. Call it inside the transaction of the change; after the commit, call
 * `deps.taskWakeup.notify()` so a worker in this process sends at once.
 */
export async function emitEvent(
  deps: AppDeps,
  db: Db,
  input: { organizationId: string; event: WebhookEvent; records: unknown; user?: EventMetadata['user'] },
): Promise<{ eventUid: string; payload: EventPayload; calls: number }> {
  const eventUid = newUid();
  const payload = buildPayload(
    input.event,
    input.records,
    deps.clock(),
    eventUid,
    await eventMetadata(db, input.organizationId, input.user ?? null),
  );
  const body = JSON.stringify(payload);
  const webhooks = await subscribers(db, input.organizationId, input.event);
  for (const webhook of webhooks) await queueCall(deps, db, webhook, { event: input.event, eventUid, body });
  return { eventUid, payload, calls: webhooks.length };
}
