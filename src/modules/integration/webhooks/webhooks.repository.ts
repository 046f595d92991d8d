import type { Insertable, Selectable, Updateable } from 'kysely';
import type { WebhookCallsTable, WebhooksTable } from '../../../db/schema.js';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import { containsText } from '../../../db/text-match.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookCallRow = Selectable<WebhookCallsTable>;

export function eventsOf(webhook: WebhookRow): string[] {
  return JSON.parse(webhook.events) as string[];
}

export function findWebhook(db: Db, organizationId: string, uid: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export function findWebhookById(db: Db, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The enabled webhooks of an organization subscribed to `event`. */
export async function subscribers(db: Db, organizationId: string, event: string): Promise<WebhookRow[]> {
  const enabled = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('status', '=', 'ENABLED')
    .execute();
  return enabled.filter((w) => eventsOf(w).includes(event));
}

export interface WebhookFilter {
  name?: string | undefined;
  status?: 'ENABLED' | 'DISABLED' | undefined;
  url?: string | undefined;
  events?: string[] | undefined;
  createdBy?: string[] | undefined;
  modifiedBy?: string[] | undefined;
  sortField?: 'NAME' | 'STATUS' | 'CREATED' | 'LAST_MODIFIED' | undefined;
  sortTrend?: 'ASC' | 'DESC' | undefined;
}

const SORT = { NAME: 'name', STATUS: 'status', CREATED: 'createdAt', LAST_MODIFIED: 'lastModifiedAt' } as const;

export async function listWebhooks(
  db: Db,
  organizationId: string,
  filter: WebhookFilter,
  page: PageRequest,
): Promise<{ rows: WebhookRow[]; total: number }> {
  let query = db.selectFrom('webhooks').where('organizationId', '=', organizationId);
  if (filter.name) query = query.where(containsText('name', filter.name));
  if (filter.url) query = query.where(containsText('url', filter.url));
  if (filter.status) query = query.where('status', '=', filter.status);
  const userIds = async (uids: string[]) =>
    (await db.selectFrom('users').select('id').where('organizationId', '=', organizationId).where('uid', 'in', uids).execute()).map(
      (u) => u.id,
    );
  if (filter.createdBy?.length) {
    const ids = await userIds(filter.createdBy);
    query = ids.length ? query.where('createdById', 'in', ids) : query.where('id', '=', '-1');
  }
  if (filter.modifiedBy?.length) {
    const ids = await userIds(filter.modifiedBy);
    query = ids.length ? query.where('lastModifiedById', 'in', ids) : query.where('id', '=', '-1');
  }
  // Events are a small JSON list per webhook: matched here, on at most the organization's webhooks.
  let rows = await query
    .selectAll()
    .orderBy(SORT[filter.sortField ?? 'CREATED'], filter.sortTrend === 'DESC' ? 'desc' : 'asc')
    .orderBy('id', 'asc')
    .execute();
  if (filter.events?.length) rows = rows.filter((w) => eventsOf(w).some((e) => filter.events!.includes(e)));
  const { offset, limit } = pageWindow(page);
  return { rows: rows.slice(offset, offset + limit), total: rows.length };
}

export interface CallFilter {
  events?: string[] | undefined;
  status?: 'SUCCESS' | 'FAIL' | undefined;
  webhookId?: string | undefined;
  parentUid?: string | undefined;
}

function callQuery(db: Db, organizationId: string, filter: CallFilter) {
  let query = db.selectFrom('webhookCalls').where('organizationId', '=', organizationId);
  if (filter.events?.length) query = query.where('event', 'in', filter.events);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.webhookId) query = query.where('webhookId', '=', filter.webhookId);
  if (filter.parentUid) query = query.where('parentUid', '=', filter.parentUid);
  return query;
}

/** Calls newest first. */
export async function listCalls(
  db: Db,
  organizationId: string,
  filter: CallFilter,
  page: PageRequest,
): Promise<{ rows: WebhookCallRow[]; total: number }> {
  const query = callQuery(db, organizationId, filter);
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
  return { rows, total: num(total as string | number) };
}

/** The latest `count` calls matching the filter, oldest first (the order a replay sends them in). */
export async function latestCalls(db: Db, organizationId: string, filter: CallFilter, count: number): Promise<WebhookCallRow[]> {
  const rows = await callQuery(db, organizationId, filter).selectAll().orderBy('id', 'desc').limit(count).execute();
  return rows.reverse();
}

export function findCallsByUids(db: Db, organizationId: string, uids: string[]): Promise<WebhookCallRow[]> {
  if (uids.length === 0) return Promise.resolve([]);
  return db.selectFrom('webhookCalls').selectAll().where('organizationId', '=', organizationId).where('uid', 'in', uids).execute();
}

export function findCallById(db: Db, id: string): Promise<WebhookCallRow | undefined> {
  return db.selectFrom('webhookCalls').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertWebhook(db: Db, values: Omit<Insertable<WebhooksTable>, 'uid'>): Promise<WebhookRow> {
  return db
    .insertInto('webhooks')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateWebhook(db: Db, id: string, changes: Updateable<WebhooksTable>): Promise<WebhookRow> {
  return db.updateTable('webhooks').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes the webhook; its calls go with it (foreign keys cascade), so calls not yet sent are not sent. */
export async function deleteWebhookRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}
