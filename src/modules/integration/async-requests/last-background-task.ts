import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';
import type { Db } from '../../../queue/types.js';
import { toAsyncRequestDtos } from './async-request-views.js';
import type { AsyncRequestDto } from './async-request-views.js';
import { findAsyncRequestById } from './async-requests.repository.js';
import type { AsyncRequestRow, AsyncResponse } from './async-requests.repository.js';
import { AsyncRequestSchema } from './async-requests.schemas.js';

/**
 * The last background task of a language resource (a term base's or a translation memory's
 * `lastAsyncRequestId`), as the spec's BackgroundTasks*Dto: the lastBackgroundTask operations of
 * term bases and TMs answer the same shape around their own metadata.
 */

/** Spec definitions `BackgroundTasksTbDto` and `BackgroundTasksTmDto`: `title`, around the resource's `metadata` schema. */
export function backgroundTasksSchema<M extends TSchema>(title: string, metadata: M) {
  return Type.Object(
    {
      status: Type.String(),
      finishedDataText: Nullable(Type.String()),
      asyncRequest: Nullable(AsyncRequestSchema),
      lastTaskString: Nullable(Type.String()),
      metadata,
      lastTaskOk: Nullable(Type.String()),
      lastTaskError: Nullable(Type.String()),
      lastTaskErrorHtml: Nullable(Type.String()),
    },
    { title },
  );
}

export interface BackgroundTasks<M> {
  status: 'NONE' | 'RUNNING' | 'OK' | 'ERROR';
  finishedDataText: string | null;
  asyncRequest: AsyncRequestDto | null;
  lastTaskString: string | null;
  metadata: M;
  lastTaskOk: string | null;
  lastTaskError: string | null;
  lastTaskErrorHtml: string | null;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The resource's last task (`lastAsyncRequestId`; null or gone: status NONE) with `metadata`.
 * `status`: RUNNING until the request finishes, then ERROR when its response holds an error code,
 * else OK. `lastTaskString`: the action, the `progress` text of the request (what the task has done,
 * such as `: 12 units`; empty when nothing is known) and ` so far` while it runs.
 */
export async function lastBackgroundTask<M>(
  db: Db,
  organizationId: string,
  lastAsyncRequestId: string | null,
  metadata: M,
  progress: (row: AsyncRequestRow) => Promise<string>,
): Promise<BackgroundTasks<M>> {
  const row = lastAsyncRequestId === null ? undefined : await findAsyncRequestById(db, lastAsyncRequestId);
  if (!row) {
    return {
      status: 'NONE',
      finishedDataText: null,
      asyncRequest: null,
      lastTaskString: null,
      metadata,
      lastTaskOk: null,
      lastTaskError: null,
      lastTaskErrorHtml: null,
    };
  }
  const done = await progress(row);
  const response = row.response ? (JSON.parse(row.response) as Partial<AsyncResponse>) : null;
  const status = row.finishedAt === null ? 'RUNNING' : response?.errorCode ? 'ERROR' : 'OK';
  const error = status === 'ERROR' ? (response?.errorDesc ?? response?.errorCode ?? 'The task failed.') : null;
  return {
    status,
    finishedDataText: row.finishedAt,
    asyncRequest: (await toAsyncRequestDtos(db, organizationId, [row]))[0]!,
    lastTaskString: `${row.action}${done}${row.finishedAt === null ? ' so far' : ''}`,
    metadata,
    lastTaskOk: status === 'OK' ? `${row.action} finished at ${row.finishedAt}` : null,
    lastTaskError: error,
    lastTaskErrorHtml: error === null ? null : escapeHtml(error),
  };
}
