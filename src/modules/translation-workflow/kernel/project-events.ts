import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import { projectEventRecord } from './project-views.js';

/** Webhook events of projects, and the user an event names: emitted in the transaction of the change. */

/** The user an event's metadata names: the caller. */
export async function eventUser(db: Kysely<DB>, caller: Caller) {
  const row = await db
    .selectFrom('users')
    .select(['uid', 'userName', 'firstName', 'lastName'])
    .where('id', '=', caller.userId)
    .executeTakeFirst();
  return row ?? null;
}

/** Emits `events` for `project` (re-read after the change) in the caller's transaction. */
export async function emitProjectEvents(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  projectId: string,
  events: readonly WebhookEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const project = await trx.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
  const record = await projectEventRecord(trx, project, deps.clock().toISOString());
  const user = await eventUser(trx, caller);
  for (const event of events) await emitEvent(deps, trx, { organizationId: project.organizationId, event, records: record, user });
}
