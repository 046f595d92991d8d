import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB, Id } from '../../../db/schema.js';
import { newUid } from '../../../db/ids.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { applyQaChecks, qaSettingsDocument } from '../../../domain/quality-assurance/settings.js';
import type { QaSettings } from '../../../domain/quality-assurance/types.js';
import { accessSettingsOf, emitProjectEvents, emitTemplateEvent, parseSettings, writeSetting } from '../kernel/index.js';
import type { ProjectRow, TemplateRow } from '../kernel/index.js';
import type { EditQaSettingsBody } from './qa-settings.schemas.js';

/**
 * The QA settings of projects and templates (docs/qa-settings.md): one document under
 * `qaSettings` in the record's settings JSON, as the pre-translate settings are kept. The kernel's
 * SETTINGS_KEYS name it, so a project made from a template starts with a copy of the template's
 * document (and a template made from a project, or a cloned project, with the project's). A record
 * that stores none has the defaults (domain/quality-assurance/settings.ts, defaultQaSettings).
 */

export const QA_SETTINGS_KEY = 'qaSettings';

/** The document in a settings JSON (a project's or template's), over the defaults. */
export const qaSettingsOf = (settingsJson: string | null | undefined): QaSettings =>
  qaSettingsDocument(parseSettings(settingsJson)[QA_SETTINGS_KEY]);

/** `userMaySetInstantQA` of the project's access settings (QualityAssuranceChecksDtoV2.userCanSetInstantQA). */
export const userCanSetInstantQA = (project: Pick<ProjectRow, 'settings'>): boolean =>
  accessSettingsOf(parseSettings(project.settings)).userMaySetInstantQA;

/** The QA settings of a project of the organization (what a QA run and the delivery gate use). */
export async function projectQaSettings(db: Kysely<DB>, organizationId: Id, projectId: Id): Promise<QaSettings> {
  const row = await db
    .selectFrom('projects')
    .select('settings')
    .where('id', '=', projectId)
    .where('organizationId', '=', organizationId)
    .executeTakeFirst();
  if (!row) throw errors.ResourceNotFound({ what: 'Project' });
  return qaSettingsOf(row.settings);
}

/** The settings after `body` (400 InvalidArguments naming the check when it is invalid). */
function edited(current: QaSettings, body: EditQaSettingsBody): QaSettings {
  return applyQaChecks(current, body.checks ?? [], {
    customChecks: body.customChecks,
    inconsistencyScope: body.inconsistencyScope,
    newId: newUid,
  });
}

/** Applies an edit to the project's document in one transaction that emits PROJECT_METADATA_UPDATED. */
export async function editProjectQaSettings(
  deps: AppDeps,
  caller: Caller,
  project: ProjectRow,
  body: EditQaSettingsBody,
): Promise<QaSettings> {
  const settings = await deps.database.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('projects').select('settings').where('id', '=', project.id).executeTakeFirstOrThrow();
    const next = edited(qaSettingsOf(row.settings), body);
    await writeSetting(trx, project.id, QA_SETTINGS_KEY, next, deps.clock().toISOString(), caller.userId);
    await emitProjectEvents(deps, trx, caller, project.id, ['PROJECT_METADATA_UPDATED']);
    return next;
  });
  deps.taskWakeup.notify();
  return settings;
}

/** Applies an edit to the template's document in one transaction that emits PROJECT_TEMPLATE_UPDATED. */
export async function editTemplateQaSettings(
  deps: AppDeps,
  caller: Caller,
  template: TemplateRow,
  body: EditQaSettingsBody,
): Promise<QaSettings> {
  const settings = await deps.database.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('projectTemplates').select('settings').where('id', '=', template.id).executeTakeFirstOrThrow();
    const stored = parseSettings(row.settings) as Record<string, unknown>;
    const next = edited(qaSettingsDocument(stored[QA_SETTINGS_KEY]), body);
    stored[QA_SETTINGS_KEY] = next;
    await trx
      .updateTable('projectTemplates')
      .set({ settings: JSON.stringify(stored), lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
      .where('id', '=', template.id)
      .execute();
    await emitTemplateEvent(deps, trx, caller, template.id, 'PROJECT_TEMPLATE_UPDATED');
    return next;
  });
  deps.taskWakeup.notify();
  return settings;
}
