import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { WEBHOOK_EVENTS, samplePayload } from '../../../domain/webhooks/events.js';
import { callerOf } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { eventMetadata } from './webhook-calls.js';
import { toWebhookDtos } from './webhook-views.js';
import { listWebhooks } from './webhooks.repository.js';
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
  WebhookV1Schema,
} from './webhooks.schemas.js';
import { createWebhook, deleteWebhook, editWebhook, getWebhook, sendTestWebhook } from './webhooks.service.js';

/** Webhooks are organization settings: ADMIN users (description leaves the rule open; Phrase: admins). */
const ADMINS: Access = { roles: ['ADMIN'] };

/** Webhook operations, v2 (routes relative to `/api2`). */
export function webhooksRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

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

    // Create webhook: v2 is current; v1 is an older version clients still call (issue 13). Both
    // take CreateWebHookDto and create the webhook the same way; v1 answers the v1 record.
    for (const version of ['v1', 'v2'] as const) {
      app.post(
        `/${version}/webhooks`,
        {
          config: { access: ADMINS, errors: ['InvalidCallbackUrl'] },
          schema: {
            tags: ['Webhook'],
            operationId: version === 'v1' ? 'createWebHook' : 'createWebHook_1',
            summary: 'Create webhook',
            ...(version === 'v1' ? { deprecated: true } : {}),
            description:
              (version === 'v1'
                ? 'Replaced by v2; still works. Takes the same body and answers the v1 record (WebHookDto: id, uid, name, url, events, secretToken, status). '
                : '') +
              'The URL must be http(s) and, unless OPENTMS_ALLOW_PRIVATE_CALLBACKS is set, not point at a loopback, private or link-local address.',
            body: WebhookBody,
            response: { 201: version === 'v1' ? WebhookV1Schema : WebhookSchema },
          },
        },
        async (request, reply) => {
          const caller = callerOf(request);
          const row = await createWebhook(deps, caller, request.body);
          const [dto] = await toWebhookDtos(db, caller.organizationId, [row]);
          return reply.code(201).send(dto!);
        },
      );
    }

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
        return (await toWebhookDtos(db, caller.organizationId, [await getWebhook(deps, caller, request.params.webHookUid)]))[0];
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
        const row = await editWebhook(deps, caller, request.params.webHookUid, request.body);
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
        await deleteWebhook(deps, caller, request.params.webHookUid);
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
        await sendTestWebhook(deps, caller, request.params.webhookUid, request.query.event);
        return reply.code(201).send();
      },
    );
  };
}
