import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf } from '../../../http/access.js';
import { PageOf, PagingQuery, toPage } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { listNotifications } from './notifications.repository.js';

/** OpenTMS design (the operation is not in the published spec): one notification of the caller. */
export const NotificationSchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    type: Type.String({ description: 'What happened, e.g. JOB_ASSIGNED' }),
    title: Type.String(),
    message: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'What the notification is about (uids and names)' }),
    dateCreated: Type.String({ format: 'date-time' }),
    read: Type.Boolean(),
    dateRead: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'NotificationDto' },
);

export const NotificationPage = PageOf(NotificationSchema, 'PageDtoNotificationDto');

export const NotificationListQuery = Type.Object({
  ...PagingQuery,
  unreadOnly: Type.Boolean({ default: false, description: 'Only notifications not read yet' }),
});

/** Notifications operations (routes relative to `/api2`). */
export function notificationsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/notifications',
      {
        // Every user of an organization, bots included, may receive notifications; the SYS_ADMIN has no organization work.
        config: { access: AUTHENTICATED },
        schema: {
          tags: ['Notifications'],
          operationId: 'listNotificationsForUser',
          summary: 'List notifications',
          description: "The caller's own notifications, newest first. Nobody lists another user's notifications.",
          querystring: NotificationListQuery,
          response: { 200: NotificationPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, unreadOnly } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listNotifications(db, caller.organizationId, caller.userId, { unreadOnly }, page);
        const content = rows.map((row) => ({
          id: row.id,
          uid: row.uid,
          type: row.type,
          title: row.title,
          message: row.message,
          payload: JSON.parse(row.payload) as Record<string, unknown>,
          dateCreated: row.createdAt,
          read: row.readAt !== null,
          dateRead: row.readAt,
        }));
        return toPage(content, total, page);
      },
    );
  };
}
