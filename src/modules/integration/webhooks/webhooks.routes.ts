import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { newUid } from '../../../db/ids.js';
import { WEBHOOK_EVENTS, isWebhookEvent, samplePayload } from '../../../domain/webhooks/events.js';
import { callerOf } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { assertOutboundUrl } from '../../../outbound/url-policy.js';
import { eventMetadata, queueCall } from './webhook-calls.js';
import { toWebhookDtos } from './webhook-views.js';
import { eventsOf, findWebhook, listWebhooks } from './webhooks.repository.js';
import {
  PreviewsQuery,
  PreviewsSchema,
  TestWebhookParams,
  TestWebhookQuery,
  WebhookBody,
  WebhookListQuery,
  WebhookPage,
  WebhookSchema,
  WebhookUidParams,
} from './webhooks.schemas.js';

/** Webhooks are organization settings: ADMIN users (description leaves the rule open; Phrase: admins). */
const ADMINS: Access = { roles: ['ADMIN'] };

/** Webhook operations, v2 (routes relative to `/api2`). */
export function webhooksRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const policy = () => ({ allowPrivate: deps.config.allowPrivateCallbacks });

  async function one(caller: Caller, uid: string) {
    const row = await findWebhook(db, caller.organizationId, uid);
    if (!row) throw errors.ResourceNotFound({ what: 'Webhook' });
    return row;
  }

  function fields(body: Static<typeof WebhookBody>) {
    assertOutboundUrl(body.url, policy(), 'url');
    return {
      name: body.name ?? null,
      url: body.url,
      events: JSON.stringify([...new Set(body.events)]),
      secretToken: body.secretToken ?? null,
      hidden: body.hidden ?? false,
      status: body.status ?? ('ENABLED' as const),
    };
  }

  return async (app) => {
    app.get(
      '/v2/webhooks',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['Webhook'],
          operationId: 'getWebHookList_1',
          summary: 'Lists webhooks',
          querystring: WebhookListQuery,
          response: { 200: WebhookPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, ...filter } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listWebhooks(db, caller.organizationId, filter, page);
        return toPage(await toWebhookDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v2/webhooks',
      {
        config: { access: ADMINS, errors: ['InvalidCallbackUrl'] },
        schema: {
          tags: ['Webhook'],
          operationId: 'createWebHook_1',
          summary: 'Create webhook',
          description:
            'The URL must be http(s) and, unless OPENTMS_ALLOW_PRIVATE_CALLBACKS is set, not point at a loopback, private or link-local address.',
          body: WebhookBody,
          response: { 201: WebhookSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const now = deps.clock().toISOString();
        const row = await db
          .insertInto('webhooks')
          .values({
            uid: newUid(),
            organizationId: caller.organizationId,
            ...fields(request.body),
            signingSecret: randomBytes(32).toString('base64url'),
            failedAttempts: 0,
            createdAt: now,
            createdById: caller.userId,
            lastModifiedAt: now,
            lastModifiedById: caller.userId,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        const [dto] = await toWebhookDtos(db, caller.organizationId, [row]);
        return reply.code(201).send(dto!);
      },
    );

    app.get(
      '/v2/webhooks/previews',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['Webhook'],
          operationId: 'getWebhookPreviews',
          summary: 'Get webhook body previews',
          description: 'An example body of each named event (all 26 when none is named).',
          querystring: PreviewsQuery,
          response: { 200: PreviewsSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const metadata = await eventMetadata(db, caller.organizationId);
        const events = request.query.events?.length ? request.query.events : [...WEBHOOK_EVENTS];
        return {
          previews: events.map((event) => ({
            event,
            preview: JSON.stringify(samplePayload(event, deps.clock(), 'eVeNtUiDxxxxxxxxxxxxxx', metadata), null, 2),
          })),
        };
      },
    );

    app.get(
      '/v2/webhooks/:webHookUid',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['Webhook'],
          operationId: 'getWebHook_1',
          summary: 'Get webhook',
          params: WebhookUidParams,
          response: { 200: WebhookSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return (await toWebhookDtos(db, caller.organizationId, [await one(caller, request.params.webHookUid)]))[0];
      },
    );

    app.put(
      '/v2/webhooks/:webHookUid',
      {
        config: { access: ADMINS, errors: ['InvalidCallbackUrl'] },
        schema: {
          tags: ['Webhook'],
          operationId: 'updateWebHook_1',
          summary: 'Edit webhook',
          description: 'Replaces the settings. Enabling a disabled webhook starts its count of failed calls again.',
          params: WebhookUidParams,
          body: WebhookBody,
          response: { 200: WebhookSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const current = await one(caller, request.params.webHookUid);
        const changes = fields(request.body);
        const reenabled = current.status === 'DISABLED' && changes.status === 'ENABLED';
        const row = await db
          .updateTable('webhooks')
          .set({
            ...changes,
            ...(reenabled ? { failedAttempts: 0 } : {}),
            lastModifiedAt: deps.clock().toISOString(),
            lastModifiedById: caller.userId,
          })
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return (await toWebhookDtos(db, caller.organizationId, [row]))[0];
      },
    );

    app.delete(
      '/v2/webhooks/:webHookUid',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['Webhook'],
          operationId: 'deleteWebHook_1',
          summary: 'Delete webhook',
          description: 'Also deletes its calls; calls not yet sent are not sent.',
          params: WebhookUidParams,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const current = await one(caller, request.params.webHookUid);
        await db.deleteFrom('webhooks').where('id', '=', current.id).execute();
        return reply.code(204).send();
      },
    );

    app.post(
      '/v2/webhooks/:webhookUid/test',
      {
        config: { access: ADMINS, errors: ['WebhookEventNotIncluded'] },
        schema: {
          tags: ['Webhook'],
          operationId: 'sendTestWebhook',
          summary: 'Send test webhook',
          description:
            'Queues a call with an example body of `event` (sent even when the webhook is disabled). 400 when the webhook does not include the event. ' +
            'The answer does not wait for the receiver: see GET /api2/v1/webhooksCalls for the outcome.',
          params: TestWebhookParams,
          querystring: TestWebhookQuery,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const webhook = await one(caller, request.params.webhookUid);
        const event = request.query.event;
        if (!isWebhookEvent(event) || !eventsOf(webhook).includes(event)) {
          throw errors.WebhookEventNotIncluded({ event, included: eventsOf(webhook) });
        }
        const eventUid = newUid();
        const body = JSON.stringify(samplePayload(event, deps.clock(), eventUid, await eventMetadata(db, caller.organizationId)));
        await db.transaction().execute((trx) => queueCall(deps, trx, webhook, { event, eventUid, body, forced: true }));
        deps.taskWakeup.notify();
        return reply.code(201).send();
      },
    );
  };
}
