import { postJson } from '../../../outbound/http-client.js';
import type { AppTaskHandler } from '../../../deps.js';
import { findAsyncRequestById } from './async-requests.repository.js';
import { toAsyncRequestDtos } from './async-request-views.js';
import { CALLBACK_TASK } from './async-requests.service.js';

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'async.callback': { asyncRequestId: string };
  }
}

/**
 * POSTs a finished asynchronous request (AsyncRequestDto) to the callbackUrl it was created with.
 * Retried with the queue's default backoff; receiving it twice must be harmless to the receiver
 * (the body carries the request id).
 */
export const callbackTask: AppTaskHandler<typeof CALLBACK_TASK> = {
  kind: CALLBACK_TASK,
  maxAttempts: 6,
  async run(context, payload) {
    const { deps } = context;
    const request = await findAsyncRequestById(deps.database.db, payload.asyncRequestId);
    if (!request?.callbackUrl || !request.finishedAt) return;
    const [dto] = await toAsyncRequestDtos(deps.database.db, request.organizationId, [request]);
    const result = await postJson(request.callbackUrl, JSON.stringify(dto), {
      headers: { 'x-opentms-event': 'ASYNC_REQUEST_FINISHED' },
      timeoutMs: deps.config.outboundTimeoutMilliseconds,
      allowPrivate: deps.config.allowPrivateCallbacks,
      signal: context.signal,
    });
    if (result.status < 200 || result.status > 299) throw new Error(`callback receiver answered ${result.status}`);
    if (result.finalMethod !== 'POST') throw new Error('callback receiver redirected the POST to a GET; the body was not delivered');
  },
};
