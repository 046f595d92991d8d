import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { FILE_IMPORT_SETTINGS_DEFAULTS } from '../../organization-setup/import-settings/index.js';
import { segRuleReferencesOf } from '../../organization-setup/segmentation-rules/index.js';

/**
 * The settings documents of a project, stored as one JSON object in `projects.settings` under
 * fixed keys (docs/translation-workflow.md). Other modules read some of them (the reference-files
 * module reads `accessSettings.vendors.jobVendorsMayUploadReferences`).
 */

export const SETTINGS_KEYS = [
  'accessSettings',
  'financialSettings',
  'fileNamingSettings',
  'importSettings',
  'projectWorkflowSettings',
  'contentGroup',
  'analyseSettings',
  // Written by the project-mt-settings module (PreTranslateSettingsV4Dto; docs/project-mt-settings.md).
  'preTranslateSettings',
  // Written by the qa-settings module (the QA settings document; docs/qa-settings.md).
  'qaSettings',
] as const;
export type SettingsKey = (typeof SETTINGS_KEYS)[number];
export type ProjectSettings = Partial<Record<SettingsKey, unknown>>;

export function parseSettings(text: string | null | undefined): ProjectSettings {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ProjectSettings) : {};
  } catch {
    return {};
  }
}

/** Replaces one settings document of the project (null removes it), in the caller's transaction. */
export async function writeSetting(
  trx: Kysely<DB>,
  projectId: Id,
  key: SettingsKey,
  value: unknown,
  now: string,
  userId: string | null,
): Promise<ProjectSettings> {
  const row = await trx.selectFrom('projects').select('settings').where('id', '=', projectId).executeTakeFirstOrThrow();
  const settings = parseSettings(row.settings);
  if (value === null || value === undefined) delete settings[key];
  else settings[key] = value;
  await trx
    .updateTable('projects')
    .set({ settings: JSON.stringify(settings), lastModifiedAt: now, lastModifiedById: userId })
    .where('id', '=', projectId)
    .execute();
  return settings;
}

/** `projectWorkflowSettings.propagateTranslationsToLowerWfDuringUpdateSource` (default false). */
export function propagateTranslations(settings: ProjectSettings): boolean {
  const value = settings.projectWorkflowSettings as { propagateTranslationsToLowerWfDuringUpdateSource?: unknown } | undefined;
  return value?.propagateTranslationsToLowerWfDuringUpdateSource === true;
}

/** Defaults of `EditProjectSecuritySettingsDtoV2` ("Default: …" notes of the spec). */
export const ACCESS_SETTINGS_DEFAULTS = {
  downloadEnabled: false,
  webEditorEnabledForLinguists: false,
  showUserDataToLinguists: false,
  emailNotifications: false,
  strictWorkflowFinish: false,
  useVendors: false,
  linguistsMayEditLockedSegments: false,
  usersMaySetAutoPropagation: true,
  allowLoadingExternalContentInEditors: true,
  allowLoadingIframes: false,
  linguistsMayEditSource: true,
  linguistsMayEditTagContent: true,
  linguistsMayDownloadLqaReport: true,
  usernamesDisplayedInLqaReport: true,
  userMaySetInstantQA: true,
  triggerWebhooks: true,
  notifyJobOwnerStatusChanged: false,
  vendors: {
    canChangeSharedJobDueDateEnabled: false,
    canChangeSharedJobDueDate: [] as { uid: string }[],
    jobVendorsMayUploadReferences: false,
  },
  allowedDomains: [] as string[],
};
export type AccessSettings = typeof ACCESS_SETTINGS_DEFAULTS;

/** The project's access settings: the stored document over the defaults. */
export function accessSettingsOf(settings: ProjectSettings): AccessSettings {
  const stored = (settings.accessSettings ?? {}) as Partial<AccessSettings>;
  return { ...ACCESS_SETTINGS_DEFAULTS, ...stored, vendors: { ...ACCESS_SETTINGS_DEFAULTS.vendors, ...(stored.vendors ?? {}) } };
}

/** Defaults of `FileNamingSettingsDto`: completed files keep their names, no target folder. */
export function fileNamingSettingsOf(settings: ProjectSettings) {
  return { renameCompleted: false, completedFilePattern: '', targetFolderPath: '', ...((settings.fileNamingSettings ?? {}) as object) };
}

/** Top-level defaults of FileImportSettingsCreateDto: the import settings document model's (organization-setup/import-settings). */
const IMPORT_SETTINGS_DEFAULTS = FILE_IMPORT_SETTINGS_DEFAULTS;

/**
 * FileImportSettingsDto of the project: the stored document over the defaults. The segmentation
 * rule ids the document keeps (`segmentationRuleId`, `targetSegmentationRuleId`) are not part of
 * the DTO: importSettingsView shows them as `segRule` and `targetSegRule`.
 */
export function importSettingsOf(settings: ProjectSettings): Record<string, unknown> {
  const { segmentationRuleId: _s, targetSegmentationRuleId: _t, ...stored } = (settings.importSettings ?? {}) as Record<string, unknown>;
  return { ...IMPORT_SETTINGS_DEFAULTS, ...stored, segRule: null, targetSegRule: null };
}

/** The segmentation rule ids an import settings document names (docs/segmentation-rules.md, "Use on import"). */
export function segmentationRuleIdsOf(document: unknown): {
  segmentationRuleId?: number | string;
  targetSegmentationRuleId?: number | string;
} {
  const stored = (document ?? {}) as Record<string, unknown>;
  const ids: { segmentationRuleId?: number | string; targetSegmentationRuleId?: number | string } = {};
  for (const field of ['segmentationRuleId', 'targetSegmentationRuleId'] as const) {
    const value = stored[field];
    if (typeof value === 'number' || typeof value === 'string') ids[field] = value;
  }
  return ids;
}

/**
 * The import settings a job's file keeps (`job_sources.import_settings`): the project's
 * FileImportSettingsDto with the segmentation rule ids the project's settings name, which the
 * import segments with.
 */
export function jobSourceImportSettings(settings: ProjectSettings): Record<string, unknown> {
  return { ...importSettingsOf(settings), ...segmentationRuleIdsOf(settings.importSettings) };
}

/**
 * FileImportSettingsDto of an import settings document, with `segRule` and `targetSegRule` naming
 * the rules it keeps; left out when it names none (or a deleted rule).
 */
export async function importSettingsView(db: Kysely<DB>, organizationId: string, document: unknown): Promise<Record<string, unknown>> {
  const { segRule, targetSegRule } = await segRuleReferencesOf(db, organizationId, segmentationRuleIdsOf(document));
  const { segRule: _s, targetSegRule: _t, ...view } = importSettingsOf({ importSettings: document });
  return { ...view, ...(segRule ? { segRule } : {}), ...(targetSegRule ? { targetSegRule } : {}) };
}
