import type { Insertable, Kysely, Selectable } from 'kysely';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { NotificationsTable } from '../../../db/tables/workflow-steps.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';

export type NotificationRow = Selectable<NotificationsTable>;

/** A user's notifications (only unread ones, when asked), newest first. */
export async function listNotifications(
  db: Kysely<DB>,
  organizationId: string,
  userId: string,
  filter: { unreadOnly: boolean },
  page: PageRequest,
): Promise<{ rows: NotificationRow[]; total: number }> {
  let query = db.selectFrom('notifications').where('organizationId', '=', organizationId).where('userId', '=', userId);
  if (filter.unreadOnly) query = query.where('readAt', 'is', null);
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  return { rows, total: num(total) };
}

/** Those of `userIds` that are users of the organization. */
export async function organizationUserIds(db: Kysely<DB>, organizationId: Id, userIds: string[]): Promise<Id[]> {
  const users = await db.selectFrom('users').select('id').where('organizationId', '=', organizationId).where('id', 'in', userIds).execute();
  return users.map((user) => user.id);
}

export async function insertNotifications(db: Kysely<DB>, rows: Omit<Insertable<NotificationsTable>, 'uid'>[]): Promise<void> {
  await db
    .insertInto('notifications')
    .values(rows.map((row) => ({ uid: newUid(), ...row })))
    .execute();
}
