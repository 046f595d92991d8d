import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';
import { queueCall } from './webhook-calls.js';
import { toWebhookCallDto } from './webhook-views.js';
import { findCallsByUids, findWebhook, findWebhookById, latestCalls, listCalls } from './webhooks.repository.js';
import type { WebhookCallRow } from './webhooks.repository.js';
import { ReplayBody, ReplayLatestQuery, WebhookCallPage, WebhookCallsQuery } from './webhooks.schemas.js';

const ADMINS: Access = { roles: ['ADMIN'] };

/** Sends `calls` again, in the given order, as new calls that name the original as parent. */
async function replay(deps: AppDeps, db: Db, calls: WebhookCallRow[]): Promise<void> {
  for (const call of calls) {
    const webhook = await findWebhookById(db, call.webhookId);
    if (!webhook) continue;
    await queueCall(deps, db, webhook, { event: call.event, eventUid: call.eventUid, body: call.body, parentUid: call.uid, forced: true });
  }
}

/** The log of webhook calls and their replay (v1, routes relative to `/api2`). */
export function webhookCallsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.get(
      '/v1/webhooksCalls',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['Webhook'],
          operationId: 'getWebhookCallsList',
          summary: 'Lists webhook calls',
          description:
            'Newest first. `retryAttempt` counts the retries after the first attempt; `statusCode` and `errorMessage` are those of the last attempt.',
          querystring: WebhookCallsQuery,
          response: { 200: WebhookCallPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, webhookUid, ...filter } = request.query;
        const page = { pageNumber, pageSize };
        let webhookId: string | undefined;
        if (webhookUid) {
          const webhook = await findWebhook(db, caller.organizationId, webhookUid);
          if (!webhook) return toPage([], 0, page);
          webhookId = webhook.id;
        }
        const { rows, total } = await listCalls(db, caller.organizationId, { ...filter, webhookId }, page);
        const uids = new Map<string, string>();
        for (const row of rows) {
          const key = row.webhookId;
          if (!uids.has(key)) uids.set(key, (await findWebhookById(db, key))?.uid ?? '');
        }
        return toPage(
          rows.map((row) => toWebhookCallDto(row, uids.get(row.webhookId) ?? '')),
          total,
          page,
        );
      },
    );

    app.post(
      '/v1/webhooksCalls/replay',
      {
        config: { access: ADMINS, errors: ['ResourceNotFound'] },
        schema: {
          tags: ['Webhook'],
          operationId: 'replayWebhookCalls',
          summary: 'Replay webhook calls',
          description:
            "Sends the given calls again, in the order given, to their webhooks' current URLs. 404 (and nothing sent) when one is unknown.",
          body: ReplayBody,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const uids = request.body.webhookCalls.map((c) => c.uid);
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
        return reply.code(202).send();
      },
    );

    app.post(
      '/v1/webhooksCalls/replay/latest',
      {
        config: { access: ADMINS, errors: ['NothingToReplay'] },
        schema: {
          tags: ['Webhook'],
          operationId: 'replayLast',
          summary: 'Replay last webhook calls',
          description: 'Sends the latest `numberOfCalls` calls matching the filters again, from the oldest to the newest.',
          querystring: ReplayLatestQuery,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { numberOfCalls, ...filter } = request.query;
        const calls = await latestCalls(db, caller.organizationId, filter, numberOfCalls);
        if (calls.length === 0) throw errors.NothingToReplay();
        await db.transaction().execute((trx) => replay(deps, trx, calls));
        deps.taskWakeup.notify();
        return reply.code(202).send();
      },
    );
  };
}
