import type { Static } from 'typebox';
import type { Db } from '../../../queue/types.js';
import { findUsersByIds } from '../../identity/users/index.js';
import { toUserReference } from '../../identity/users/index.js';
import { findAsyncRequestById } from './async-requests.repository.js';
import type { AsyncResponse } from './async-requests.repository.js';
import type { AsyncRequestRow } from './async-requests.repository.js';
import type { AsyncRequestSchema } from './async-requests.schemas.js';

export type AsyncRequestDto = Static<typeof AsyncRequestSchema>;

/** AsyncRequestDto of each row, with its creator and (one level of) parent. */
export async function toAsyncRequestDtos(db: Db, organizationId: string, rows: AsyncRequestRow[]): Promise<AsyncRequestDto[]> {
  const parents = new Map<string, AsyncRequestRow>();
  for (const row of rows) {
    if (row.parentId !== null && !parents.has(row.parentId)) {
      const parent = await findAsyncRequestById(db, row.parentId);
      if (parent) parents.set(parent.id, parent);
    }
  }
  const creatorIds = [
    ...new Set(
      [...rows, ...parents.values()]
        .map((r) => r.createdById)
        .filter((id) => id !== null)
        .map(String),
    ),
  ];
  const creators = new Map((await findUsersByIds(db, organizationId, creatorIds)).map((u) => [u.id, u]));
  const core = (row: AsyncRequestRow) => {
    const creator = row.createdById === null ? undefined : creators.get(row.createdById);
    return {
      id: row.id,
      uid: row.uid,
      createdBy: creator ? toUserReference(creator) : null,
      dateCreated: row.createdAt,
      action: row.action,
      asyncResponse: row.response ? (JSON.parse(row.response) as AsyncResponse) : null,
      project: row.projectUid ? { uid: row.projectUid, name: row.projectName ?? '' } : null,
      ...(row.progressTotal === null || row.progressTotal === undefined
        ? {}
        : { progress: { done: Number(row.progressDone ?? 0), total: Number(row.progressTotal) } }),
    };
  };
  return rows.map((row) => {
    const parent = row.parentId === null ? undefined : parents.get(row.parentId);
    return { ...core(row), parent: parent ? { ...core(parent), parent: null } : null };
  });
}
