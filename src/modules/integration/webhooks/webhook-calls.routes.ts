import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { toWebhookCallDto } from './webhook-views.js';
import { ReplayBody, ReplayLatestQuery, WebhookCallPage, WebhookCallsQuery } from './webhooks.schemas.js';
import { listWebhookCalls, replayLatestWebhookCalls, replayWebhookCalls } from './webhooks.service.js';

const ADMINS: Access = { roles: ['ADMIN'] };

/** The log of webhook calls and their replay (v1, routes relative to `/api2`). */
export function webhookCallsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
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
        const { pageNumber, pageSize, ...filter } = request.query;
        const page = { pageNumber, pageSize };
        const { calls, total } = await listWebhookCalls(deps, caller, filter, page);
        return toPage(
          calls.map(({ row, webhookUid }) => toWebhookCallDto(row, webhookUid)),
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
        await replayWebhookCalls(
          deps,
          caller,
          request.body.webhookCalls.map((c) => c.uid),
        );
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
        await replayLatestWebhookCalls(deps, caller, filter, numberOfCalls);
        return reply.code(202).send();
      },
    );
  };
}
