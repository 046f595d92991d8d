import type { AppDeps } from '../../../deps.js';
import { ApiError, asyncFailure, errors } from '../../../errors/index.js';
import type { Db } from '../../../queue/types.js';
import { enqueue } from '../../../queue/queue.js';
import { assertOptionalOutboundUrl, outboundPolicy } from '../../../outbound/url-policy.js';
import {
  countPending,
  finishAsyncRequest,
  findAsyncRequestById,
  insertAsyncRequest,
  lockOrganization,
} from './async-requests.repository.js';
import type { AsyncResponse, NewAsyncRequest } from './async-requests.repository.js';
import type { AsyncRequestRow } from './async-requests.repository.js';

/** Task kind that POSTs a finished request to its callbackUrl. */
export const CALLBACK_TASK = 'async.callback';

/**
 * Creates the record of a long operation, inside the caller's transaction, after checking the
 * organization's pending limit (429 when it is reached; the caller's transaction then rolls
 * back, so nothing of the operation is written). The caller enqueues the task that does the work
 * with `asyncRequestId` set, in the same transaction.
 */
export async function createAsyncRequest(deps: AppDeps, trx: Db, input: Omit<NewAsyncRequest, 'now'>): Promise<AsyncRequestRow> {
  // The one place a callbackUrl is stored: a URL the outbound policy would refuse when the
  // request finishes is a 400 now (the operations check it earlier too, before any upload).
  const callbackUrl = assertOptionalOutboundUrl(input.callbackUrl, outboundPolicy(deps.config), 'callbackUrl');
  await lockOrganization(trx, input.organizationId);
  const pending = await countPending(trx, input.organizationId);
  const limit = deps.config.asyncPendingLimit;
  if (pending >= limit) {
    throw errors.TooManyPendingRequests({ pending, limit });
  }
  return insertAsyncRequest(trx, { ...input, callbackUrl, now: deps.clock() });
}

/**
 * Records the outcome of a request (success, or the error of its work) once, and schedules the
 * callback when the request asked for one. Safe to call twice: the second call changes nothing.
 */
export async function completeAsyncRequest(
  deps: AppDeps,
  db: Db,
  id: string,
  outcome: Partial<Omit<AsyncResponse, 'dateCreated'>> = {},
): Promise<void> {
  const now = deps.clock();
  const response: AsyncResponse = {
    dateCreated: now.toISOString(),
    errorCode: outcome.errorCode ?? null,
    errorDesc: outcome.errorDesc ?? null,
    errorDetails: outcome.errorDetails ?? [],
    warnings: outcome.warnings ?? [],
    ...(outcome.acceptedSegmentsCount !== undefined ? { acceptedSegmentsCount: outcome.acceptedSegmentsCount } : {}),
  };
  if (!(await finishAsyncRequest(db, id, response, now))) return;
  const request = await findAsyncRequestById(db, id);
  if (request?.callbackUrl) {
    await enqueue(db, { kind: CALLBACK_TASK, payload: { asyncRequestId: id }, organizationId: request.organizationId }, now);
  }
}

/** The worker's hook for tasks that failed for good: their async request records the error. */
export async function failAsyncRequest(deps: AppDeps, asyncRequestId: string, error: unknown): Promise<void> {
  const failure =
    error instanceof ApiError
      ? { errorCode: error.errorCode, errorDesc: error.message }
      : asyncFailure('AsyncTaskFailed', { reason: error instanceof Error ? error.message : undefined });
  await completeAsyncRequest(deps, deps.database.db, asyncRequestId, { ...failure, errorDesc: failure.errorDesc.slice(0, 2000) });
  deps.taskWakeup.notify();
}

/** Records what a running request has done of how much (shown as `progress` until and after it finishes), in the caller's transaction. */
export async function reportProgress(db: Db, id: string, done: number, total: number): Promise<void> {
  await db.updateTable('asyncRequests').set({ progressDone: done, progressTotal: total }).where('id', '=', id).execute();
}
