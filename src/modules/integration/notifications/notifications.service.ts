import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { insertNotifications, organizationUserIds } from './notifications.repository.js';

export interface NewNotification {
  organizationId: Id;
  /** The users to notify (ids); users of other organizations are left out. */
  userIds: readonly Id[];
  /** What happened, e.g. `JOB_ASSIGNED`; clients may group or filter by it. */
  type: string;
  title: string;
  message: string;
  /** What the notification is about (uids and names, e.g. `{ projectUid, jobUid }`), kept as JSON. */
  payload?: Record<string, unknown>;
  /** When it happened; the current time when omitted (pass `deps.clock()` for testable time). */
  at?: Date;
}

/**
 * Notifies users: one notification each, listed by GET /api2/v1/notifications for that user only.
 * Later modules call it inside their own transaction (pass the transaction as `db`), so that the
 * notification exists exactly when what it reports does. Returns how many were created.
 */
export async function notifyUsers(db: Kysely<DB>, notification: NewNotification): Promise<number> {
  const wanted = [...new Set(notification.userIds.map(String))];
  if (wanted.length === 0) return 0;
  const userIds = await organizationUserIds(db, notification.organizationId, wanted);
  if (userIds.length === 0) return 0;
  const createdAt = (notification.at ?? new Date()).toISOString();
  const payload = JSON.stringify(notification.payload ?? {});
  await insertNotifications(
    db,
    userIds.map((userId) => ({
      organizationId: notification.organizationId,
      userId,
      type: notification.type,
      title: notification.title,
      message: notification.message,
      payload,
      createdAt,
      readAt: null,
    })),
  );
  return userIds.length;
}
