import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { newUid } from '../../../db/ids.js';
import { isWebhookEvent, samplePayload } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { PageRequest } from '../../../http/paging.js';
import { assertOutboundUrl, outboundPolicy } from '../../../outbound/url-policy.js';
import type { Db } from '../../../queue/types.js';
import { eventMetadata, queueCall } from './webhook-calls.js';
import {
  deleteWebhookRow,
  eventsOf,
  findCallsByUids,
  findWebhook,
  findWebhookById,
  insertWebhook,
  latestCalls,
  listCalls,
  updateWebhook,
} from './webhooks.repository.js';
import type { CallFilter, WebhookCallRow, WebhookRow } from './webhooks.repository.js';
import type { WebhookBody } from './webhooks.schemas.js';

/** The stored settings of a webhook body; the URL must pass the outbound address policy. */
function fields(deps: AppDeps, body: Static<typeof WebhookBody>) {
  assertOutboundUrl(body.url, outboundPolicy(deps.config), 'url');
  return {
    name: body.name ?? null,
    url: body.url,
    events: JSON.stringify([...new Set(body.events)]),
    secretToken: body.secretToken ?? null,
    hidden: body.hidden ?? false,
    status: body.status ?? ('ENABLED' as const),
  };
}

/** The organization's webhook, or 404. */
export async function getWebhook(deps: AppDeps, caller: Caller, uid: string): Promise<WebhookRow> {
  const row = await findWebhook(deps.database.db, caller.organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Webhook' });
  return row;
}

export function createWebhook(deps: AppDeps, caller: Caller, body: Static<typeof WebhookBody>): Promise<WebhookRow> {
  const now = deps.clock().toISOString();
  return insertWebhook(deps.database.db, {
    organizationId: caller.organizationId,
    ...fields(deps, body),
    signingSecret: randomBytes(32).toString('base64url'),
    failedAttempts: 0,
    createdAt: now,
    createdById: caller.userId,
    lastModifiedAt: now,
    lastModifiedById: caller.userId,
  });
}

/** Replaces the settings. Enabling a disabled webhook starts its count of failed calls again. */
export async function editWebhook(deps: AppDeps, caller: Caller, uid: string, body: Static<typeof WebhookBody>): Promise<WebhookRow> {
  const current = await getWebhook(deps, caller, uid);
  const changes = fields(deps, body);
  const reenabled = current.status === 'DISABLED' && changes.status === 'ENABLED';
  return updateWebhook(deps.database.db, current.id, {
    ...changes,
    ...(reenabled ? { failedAttempts: 0 } : {}),
    lastModifiedAt: deps.clock().toISOString(),
    lastModifiedById: caller.userId,
  });
}

export async function deleteWebhook(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const current = await getWebhook(deps, caller, uid);
  await deleteWebhookRow(deps.database.db, current.id);
}

/** Queues a call with an example body of `event` (sent even when the webhook is disabled); 400 when the webhook does not include it. */
export async function sendTestWebhook(deps: AppDeps, caller: Caller, uid: string, event: string): Promise<void> {
  const db = deps.database.db;
  const webhook = await getWebhook(deps, caller, uid);
  if (!isWebhookEvent(event) || !eventsOf(webhook).includes(event)) {
    throw errors.WebhookEventNotIncluded({ event, included: eventsOf(webhook) });
  }
  const eventUid = newUid();
  const body = JSON.stringify(samplePayload(event, deps.clock(), eventUid, await eventMetadata(db, caller.organizationId)));
  await db.transaction().execute((trx) => queueCall(deps, trx, webhook, { event, eventUid, body, forced: true }));
  deps.taskWakeup.notify();
}

/**
 * A page of the organization's calls, newest first, each with the uid of its webhook. A
 * `webhookUid` that names no webhook of the organization finds no calls.
 */
export async function listWebhookCalls(
  deps: AppDeps,
  caller: Caller,
  filter: Omit<CallFilter, 'webhookId'> & { webhookUid?: string | undefined },
  page: PageRequest,
): Promise<{ calls: { row: WebhookCallRow; webhookUid: string }[]; total: number }> {
  const db = deps.database.db;
  const { webhookUid, ...rest } = filter;
  let webhookId: string | undefined;
  if (webhookUid) {
    const webhook = await findWebhook(db, caller.organizationId, webhookUid);
    if (!webhook) return { calls: [], total: 0 };
    webhookId = webhook.id;
  }
  const { rows, total } = await listCalls(db, caller.organizationId, { ...rest, webhookId }, page);
  const uids = new Map<string, string>();
  for (const row of rows) {
    const key = row.webhookId;
    if (!uids.has(key)) uids.set(key, (await findWebhookById(db, key))?.uid ?? '');
  }
  return { calls: rows.map((row) => ({ row, webhookUid: uids.get(row.webhookId) ?? '' })), total };
}

/** Sends `calls` again, in the given order, as new calls that name the original as parent. */
async function replay(deps: AppDeps, db: Db, calls: WebhookCallRow[]): Promise<void> {
  for (const call of calls) {
    const webhook = await findWebhookById(db, call.webhookId);
    if (!webhook) continue;
    await queueCall(deps, db, webhook, { event: call.event, eventUid: call.eventUid, body: call.body, parentUid: call.uid, forced: true });
  }
}

/** Sends the given calls again, in the order given; 404 (and nothing sent) when one is unknown. */
export async function replayWebhookCalls(deps: AppDeps, caller: Caller, uids: string[]): Promise<void> {
  const db = deps.database.db;
  const found = new Map((await findCallsByUids(db, caller.organizationId, uids)).map((c) => [c.uid, c]));
  const missing = uids.find((uid) => !found.has(uid));
  if (missing) throw errors.ResourceNotFound({ what: `Webhook call ${missing}` });
  await db.transaction().execute((trx) =>
    replay(
      deps,
      trx,
      uids.map((uid) => found.get(uid)!),
    ),
  );
  deps.taskWakeup.notify();
}

/** Sends the latest `count` calls matching the filters again, from the oldest to the newest. */
export async function replayLatestWebhookCalls(deps: AppDeps, caller: Caller, filter: CallFilter, count: number): Promise<void> {
  const db = deps.database.db;
  const calls = await latestCalls(db, caller.organizationId, filter, count);
  if (calls.length === 0) throw errors.NothingToReplay();
  await db.transaction().execute((trx) => replay(deps, trx, calls));
  deps.taskWakeup.notify();
}
