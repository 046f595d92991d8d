import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { copyTemplatePreTranslate } from './pre-translate-settings.js';
import { copyTemplateMtAssignment } from './project-mt-settings.service.js';

/**
 * A project made from a template gets the template's MT settings (per-language ones for the
 * target languages the project has) and its pre-translate settings, in the caller's transaction.
 */
export async function copyTemplateMtSettings(trx: Kysely<DB>, templateId: Id, projectId: Id): Promise<void> {
  await copyTemplateMtAssignment(trx, templateId, projectId);
  await copyTemplatePreTranslate(trx, templateId, projectId);
}
