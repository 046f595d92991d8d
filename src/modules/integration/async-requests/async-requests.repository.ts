import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { AsyncRequestsTable } from '../../../db/schema.js';
import { isPostgres } from '../../../db/dialect.js';
import { newUid } from '../../../db/ids.js';
import { num } from '../../../db/database.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type AsyncRequestRow = Selectable<AsyncRequestsTable>;

/** AsyncResponseDto, stored as JSON when the request finishes. */
export interface AsyncResponse {
  dateCreated: string;
  errorCode: string | null;
  errorDesc: string | null;
  errorDetails: { code: string; message?: string; args?: Record<string, unknown> }[];
  warnings: { code: string; message?: string; args?: Record<string, unknown> }[];
  acceptedSegmentsCount?: number | null;
}

export interface NewAsyncRequest {
  organizationId: string;
  createdById: string | null;
  action: string;
  parentId?: string | null;
  project?: { uid: string; name: string } | null;
  callbackUrl?: string | null;
  now: Date;
}

export async function countPending(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('asyncRequests')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organizationId', '=', organizationId)
    .where('finishedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return num(row.n as string | number);
}

/**
 * Serialises the pending-limit check per organization on PostgreSQL (a row lock on the
 * organization until the transaction ends); SQLite runs one writer at a time anyway.
 */
export async function lockOrganization(db: Db, organizationId: string): Promise<void> {
  if (isPostgres(db)) await sql`select id from organizations where id = ${organizationId} for update`.execute(db);
}

export function insertAsyncRequest(db: Db, input: NewAsyncRequest): Promise<AsyncRequestRow> {
  return db
    .insertInto('asyncRequests')
    .values({
      uid: newUid(),
      organizationId: input.organizationId,
      createdById: input.createdById,
      action: input.action,
      parentId: input.parentId ?? null,
      projectUid: input.project?.uid ?? null,
      projectName: input.project?.name ?? null,
      callbackUrl: input.callbackUrl ?? null,
      createdAt: input.now.toISOString(),
      finishedAt: null,
      response: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findAsyncRequest(db: Db, organizationId: string, id: string): Promise<AsyncRequestRow | undefined> {
  if (!/^\d{1,18}$/.test(id)) return Promise.resolve(undefined);
  return db.selectFrom('asyncRequests').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function findAsyncRequestById(db: Db, id: string): Promise<AsyncRequestRow | undefined> {
  return db.selectFrom('asyncRequests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records the result once; a second finish (a task run twice) changes nothing. Returns whether this call finished it. */
export async function finishAsyncRequest(db: Db, id: string, response: AsyncResponse, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('asyncRequests')
    .set({ finishedAt: now.toISOString(), response: JSON.stringify(response) })
    .where('id', '=', id)
    .where('finishedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listPending(
  db: Db,
  organizationId: string,
  createdById: string | null,
  page: PageRequest,
): Promise<{ rows: AsyncRequestRow[]; total: number }> {
  let query = db.selectFrom('asyncRequests').where('organizationId', '=', organizationId).where('finishedAt', 'is', null);
  if (createdById) query = query.where('createdById', '=', createdById);
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll().orderBy('id', 'asc').limit(limit).offset(offset).execute();
  return { rows, total: num(total as string | number) };
}
