import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import type { TemplateRow } from './access/template-access.js';
import { templateTargetLangs } from './access/template-access.js';

/**
 * PROJECT_TEMPLATE_CREATED / UPDATED / DELETED: the record travels under `projectTemplate`
 * (src/domain/webhooks/events.ts) as a summary of the template: uid, id, templateName, the
 * project name pattern, languages.
 */

export function templateEventRecord(template: TemplateRow) {
  return {
    uid: template.uid,
    id: template.id,
    templateName: template.name,
    name: template.projectName,
    sourceLang: template.sourceLang,
    targetLangs: templateTargetLangs(template),
  };
}

async function eventUser(db: Kysely<DB>, caller: Caller) {
  return (
    (await db
      .selectFrom('users')
      .select(['uid', 'userName', 'firstName', 'lastName'])
      .where('id', '=', caller.userId)
      .executeTakeFirst()) ?? null
  );
}

/** Emits `event` for a template row (as it is, e.g. just before it is deleted), in the caller's transaction. */
export async function emitTemplateRowEvent(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  template: TemplateRow,
  event: WebhookEvent,
): Promise<void> {
  await emitEvent(deps, trx, {
    organizationId: template.organizationId,
    event,
    records: templateEventRecord(template),
    user: await eventUser(trx, caller),
  });
}

/** Emits `event` for the template `templateId`, re-read in the caller's transaction. */
export async function emitTemplateEvent(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  templateId: string,
  event: WebhookEvent,
): Promise<void> {
  const template = await trx.selectFrom('projectTemplates').selectAll().where('id', '=', templateId).executeTakeFirstOrThrow();
  await emitTemplateRowEvent(deps, trx, caller, template, event);
}
