import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { ACCESS_SETTINGS_DEFAULTS, accessSettingsOf } from '../kernel/index.js';
import type { AccessSettings } from '../kernel/index.js';
import type { EditAccessSettingsBody } from './project-templates.schemas.js';

/**
 * The settings documents of a template, one JSON object in `project_templates.settings` under
 * the keys projects use too, so that a project made from the template copies them as they are
 * (docs/project-templates.md, "Settings").
 */

export const TEMPLATE_SETTINGS_KEYS = [
  'accessSettings',
  'importSettings',
  'projectWorkflowSettings',
  'notifyProviders',
  'financialSettings',
  // Written by the analyses module (getAnalyseSettingsForProjectTemplate; docs/analysis.md).
  'analyseSettings',
  // Written by the project-mt-settings module (getProjectTemplatePreTranslateSettingsV4; docs/project-mt-settings.md).
  'preTranslateSettings',
  // Written by the qa-settings module (getProjectTemplateQASettings; docs/qa-settings.md).
  'qaSettings',
] as const;
export type TemplateSettingsKey = (typeof TEMPLATE_SETTINGS_KEYS)[number];
export type TemplateSettings = Partial<Record<TemplateSettingsKey, unknown>>;

export function parseTemplateSettings(text: string | null | undefined): TemplateSettings {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as TemplateSettings) : {};
  } catch {
    return {};
  }
}

/** The settings documents of a project that a template made from it keeps. */
export function templateSettingsFromProject(projectSettings: Record<string, unknown>): TemplateSettings {
  const settings: TemplateSettings = {};
  for (const key of TEMPLATE_SETTINGS_KEYS) if (projectSettings[key] !== undefined) settings[key] = projectSettings[key];
  return settings;
}

/** Replaces one settings document of the template (null removes it), in the caller's transaction. */
export async function writeTemplateSetting(
  trx: Kysely<DB>,
  templateId: Id,
  key: TemplateSettingsKey,
  value: unknown,
  now: string,
  userId: string,
): Promise<TemplateSettings> {
  const row = await trx.selectFrom('projectTemplates').select('settings').where('id', '=', templateId).executeTakeFirstOrThrow();
  const settings = parseTemplateSettings(row.settings);
  if (value === null || value === undefined) delete settings[key];
  else settings[key] = value;
  await trx
    .updateTable('projectTemplates')
    .set({ settings: JSON.stringify(settings), lastModifiedAt: now, lastModifiedById: userId })
    .where('id', '=', templateId)
    .execute();
  return settings;
}

/** The template's access settings: the stored document over the defaults (the projects' rule). */
export function templateAccessSettings(settings: TemplateSettings): AccessSettings {
  return accessSettingsOf({ accessSettings: settings.accessSettings });
}

/**
 * The document an access-settings edit stores: the body over the defaults, so that a field left
 * out takes its published default ("Default: …" of EditProjectSecuritySettingsDtoV2), as a PUT
 * of the whole document does.
 */
export function accessSettingsFromBody(body: EditAccessSettingsBody): AccessSettings {
  return {
    ...ACCESS_SETTINGS_DEFAULTS,
    ...(body as Partial<AccessSettings>),
    vendors: { ...ACCESS_SETTINGS_DEFAULTS.vendors, ...(body.vendors ?? {}) },
  };
}
