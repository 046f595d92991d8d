import type { Static } from 'typebox';
import { bool } from '../../../db/database.js';
import type { Db } from '../../../queue/types.js';
import { findUsersByIds } from '../../identity/users/index.js';
import { toUserReference } from '../../identity/users/index.js';
import { eventsOf } from './webhooks.repository.js';
import type { WebhookCallRow, WebhookRow } from './webhooks.repository.js';
import type { WebhookCallSchema, WebhookSchema } from './webhooks.schemas.js';

export async function toWebhookDtos(db: Db, organizationId: string, rows: WebhookRow[]): Promise<Static<typeof WebhookSchema>[]> {
  const ids = [
    ...new Set(
      rows
        .flatMap((r) => [r.createdById, r.lastModifiedById])
        .filter((id) => id !== null)
        .map(String),
    ),
  ];
  const users = new Map((await findUsersByIds(db, organizationId, ids)).map((u) => [u.id, toUserReference(u)]));
  const ref = (id: string | null) => (id === null ? null : (users.get(id) ?? null));
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    name: row.name,
    url: row.url,
    events: eventsOf(row),
    secretToken: row.secretToken,
    hidden: bool(row.hidden),
    status: row.status,
    failedAttempts: row.failedAttempts,
    created: row.createdAt,
    createdBy: ref(row.createdById),
    lastModified: row.lastModifiedAt,
    lastModifiedBy: ref(row.lastModifiedById),
    signingSecret: row.signingSecret,
  }));
}

export function toWebhookCallDto(row: WebhookCallRow, webhookUid: string): Static<typeof WebhookCallSchema> {
  return {
    uid: row.uid,
    parentUid: row.parentUid,
    eventUid: row.eventUid,
    webhookSettings: { uid: webhookUid },
    createdAt: row.createdAt,
    url: row.url,
    forced: bool(row.forced),
    lastForcedAt: bool(row.forced) ? row.createdAt : null,
    body: row.body,
    triggerEvent: row.event,
    retryAttempt: Math.max(0, row.attempts - 1),
    statusCode: row.statusCode,
    errorMessage: row.errorMessage,
  };
}
