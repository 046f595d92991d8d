import { DELIVERY_ATTEMPTS, DISABLE_AFTER_FAILED_CALLS, deliveryBackoffMs } from '../../../domain/webhooks/events.js';
import type { AppTaskHandler } from '../../../deps.js';
import { postJson } from '../../../outbound/http-client.js';
import { SIGNATURE_HEADER, signBody } from '../../../outbound/signature.js';
import { DELIVER_TASK } from './webhook-calls.js';

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'webhook.deliver': { callId: string };
  }
}
import { findCallById, findWebhookById } from './webhooks.repository.js';

/**
 * Sends one webhook call. 2xx = delivered; anything else (or no answer within the timeout) is a
 * failed attempt, retried with `deliveryBackoffMs`. Idempotent: a delivered call is not sent
 * again when its task runs twice.
 *
 * Headers: `X-Memsource-Token` (the webhook's secretToken, as Phrase sends it),
 * `X-OpenTMS-Signature: sha256=<hex HMAC-SHA256 of the body, keyed by the webhook's signingSecret>`,
 * `X-OpenTMS-Event`, `X-OpenTMS-Delivery` (the call uid; replays have uids of their own).
 */
export const deliverTask: AppTaskHandler<typeof DELIVER_TASK> = {
  kind: DELIVER_TASK,
  maxAttempts: DELIVERY_ATTEMPTS,
  backoffMs: deliveryBackoffMs,
  async run(context, payload) {
    const { deps } = context;
    const db = deps.database.db;
    const call = await findCallById(db, payload.callId);
    if (!call || call.status === 'SUCCESS') return;
    const webhook = await findWebhookById(db, call.webhookId);
    if (!webhook) return;
    const now = () => deps.clock().toISOString();
    if (webhook.status === 'DISABLED' && !call.forced) {
      await db
        .updateTable('webhookCalls')
        .set({ status: 'FAIL', errorMessage: 'The webhook is disabled.' })
        .where('id', '=', call.id)
        .execute();
      return;
    }
    const headers: Record<string, string> = {
      [SIGNATURE_HEADER]: signBody(webhook.signingSecret, call.body),
      'x-opentms-event': call.event,
      'x-opentms-delivery': call.uid,
    };
    if (webhook.secretToken) headers['x-memsource-token'] = webhook.secretToken;
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const result = await postJson(call.url, call.body, {
        headers,
        timeoutMs: deps.config.outboundTimeoutMilliseconds,
        allowPrivate: deps.config.allowPrivateCallbacks,
        signal: context.signal,
      });
      statusCode = result.status;
      if (result.status < 200 || result.status > 299) error = `The receiver answered ${result.status}.`;
      // A 301/302/303 turns the POST into a GET without the body: the event did not arrive.
      else if (result.finalMethod !== 'POST')
        error = `The receiver redirected the POST to a GET (${result.finalUrl}); the body was not delivered.`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const delivered = error === null;
    await db
      .updateTable('webhookCalls')
      .set({
        attempts: context.attempt,
        lastAttemptAt: now(),
        statusCode,
        errorMessage: error?.slice(0, 2000) ?? null,
        ...(delivered ? { status: 'SUCCESS' as const, deliveredAt: now() } : {}),
      })
      .where('id', '=', call.id)
      .execute();
    if (delivered) {
      await db.updateTable('webhooks').set({ failedAttempts: 0 }).where('id', '=', webhook.id).execute();
      return;
    }
    throw new Error(error ?? 'delivery failed');
  },
  async onFinalFailure(context, payload) {
    const db = context.deps.database.db;
    const call = await findCallById(db, payload.callId);
    if (!call || call.status === 'SUCCESS') return;
    await db.updateTable('webhookCalls').set({ status: 'FAIL' }).where('id', '=', call.id).execute();
    // Persistent failure: DISABLE_AFTER_FAILED_CALLS calls in a row that failed for good.
    const webhook = await findWebhookById(db, call.webhookId);
    if (!webhook) return;
    const failed = webhook.failedAttempts + 1;
    await db
      .updateTable('webhooks')
      .set({ failedAttempts: failed, ...(failed >= DISABLE_AFTER_FAILED_CALLS ? { status: 'DISABLED' as const } : {}) })
      .where('id', '=', webhook.id)
      .execute();
  },
};
