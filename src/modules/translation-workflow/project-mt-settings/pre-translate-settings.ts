import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB, Id } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { emitProjectEvents, emitTemplateEvent, parseSettings, writeSetting } from '../kernel/index.js';
import type { ProjectRow, TemplateRow } from '../kernel/index.js';
import { FLAT_FIELDS } from './pre-translate-settings.schemas.js';
import type {
  FlatField,
  PreTranslateSettingsFlat,
  PreTranslateSettingsFlatBody,
  PreTranslateSettingsV4,
  PreTranslateSettingsV4Body,
} from './pre-translate-settings.schemas.js';

/**
 * The pre-translate settings of projects and templates: one `PreTranslateSettingsV4Dto` document
 * under `preTranslateSettings` in the record's settings JSON (a project made from a template
 * copies it). A record that stores none has the defaults: the spec's "Default: …" notes (every
 * flag false, MT confirmation threshold 1.0) and the TM threshold 0.7. A PUT replaces the whole
 * document, a field left out taking its default. The deprecated v1/v2 operations read and write
 * the same document in the flat shape (FLAT_FIELDS).
 */

export const SETTINGS_KEY = 'preTranslateSettings';

/** The TM threshold of a record that sets none (Phrase's default, 70 %). */
export const DEFAULT_TM_THRESHOLD = 0.7;

export function preTranslateDefaults(): PreTranslateSettingsV4 {
  return {
    preTranslateOnJobCreation: false,
    setJobStatusCompleted: false,
    setJobStatusCompletedWhenConfirmed: false,
    setProjectStatusCompleted: false,
    overwriteExistingTranslations: false,
    translationMemorySettings: {
      useTranslationMemory: false,
      translationMemoryThreshold: DEFAULT_TM_THRESHOLD,
      confirm100PercentMatches: false,
      confirm101PercentMatches: false,
      lock100PercentMatches: false,
      lock101PercentMatches: false,
    },
    machineTranslationSettings: {
      useMachineTranslation: false,
      lock100PercentMatches: false,
      confirmMatches: false,
      confirmMatchesThreshold: 1,
      useAltTransOnly: false,
      mtQeMatchesInEditors: false,
      mtForTMAbove100: false,
    },
    nonTranslatableSettings: {
      preTranslateNonTranslatables: false,
      confirm100PercentMatches: false,
      lock100PercentMatches: false,
      nonTranslatablesInEditors: false,
    },
    repetitionsSettings: {
      autoPropagateRepetitions: false,
      confirmRepetitions: false,
      autoPropagateToLockedRepetitions: false,
      lockSubsequentRepetitions: false,
    },
  };
}

const SECTIONS = ['translationMemorySettings', 'machineTranslationSettings', 'nonTranslatableSettings', 'repetitionsSettings'] as const;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `source` over the defaults, field by field: a value of the default's type replaces it, anything
 * else (absent, null, another type) leaves the default. Serves both a stored document (whatever an
 * older version wrote) and a validated body.
 */
export function preTranslateDocument(source: unknown): PreTranslateSettingsV4 {
  const result = preTranslateDefaults();
  if (!isObject(source)) return result;
  const merge = (target: Record<string, unknown>, from: Record<string, unknown>) => {
    for (const [key, fallback] of Object.entries(target)) {
      if (isObject(fallback)) continue;
      const value = from[key];
      if (typeof value === typeof fallback && (typeof value !== 'number' || Number.isFinite(value))) target[key] = value;
    }
  };
  merge(result as unknown as Record<string, unknown>, source);
  for (const section of SECTIONS) {
    const from = source[section];
    if (isObject(from)) merge(result[section] as unknown as Record<string, unknown>, from);
  }
  return result;
}

/** The document a v4 PUT stores. */
export const preTranslateFromV4Body = (body: PreTranslateSettingsV4Body): PreTranslateSettingsV4 => preTranslateDocument(body);

/** The document in the flat shape of the v1/v2 operations. */
export function toFlat(document: PreTranslateSettingsV4): PreTranslateSettingsFlat {
  const doc = document as unknown as Record<string, Record<string, unknown>>;
  const flat: Record<string, unknown> = {};
  for (const [field, path] of Object.entries(FLAT_FIELDS) as [FlatField, readonly string[]][]) {
    flat[field] = path.length === 1 ? doc[path[0]!] : doc[path[0]!]![path[1]!];
  }
  return flat as PreTranslateSettingsFlat;
}

/** The document a v1/v2 PUT stores: the flat body's fields in their places, every field left out at its default. */
export function preTranslateFromFlatBody(body: PreTranslateSettingsFlatBody): PreTranslateSettingsV4 {
  const nested: Record<string, Record<string, unknown>> = {};
  const top: Record<string, unknown> = {};
  for (const [field, path] of Object.entries(FLAT_FIELDS) as [FlatField, readonly string[]][]) {
    const value = body[field];
    if (value === undefined) continue;
    if (path.length === 1) top[path[0]!] = value;
    else (nested[path[0]!] ??= {})[path[1]!] = value;
  }
  return preTranslateDocument({ ...top, ...nested });
}

// ---- reading and writing

/** The document stored in a settings JSON (a project's or template's), with the defaults filled. */
export const preTranslateOf = (settingsJson: string | null | undefined): PreTranslateSettingsV4 =>
  preTranslateDocument(parseSettings(settingsJson)[SETTINGS_KEY]);

/** The project's pre-translate settings, with the defaults filled (what pre-translation with the project's settings uses). */
export async function projectPreTranslateSettings(db: Kysely<DB>, projectId: Id): Promise<PreTranslateSettingsV4> {
  const row = await db.selectFrom('projects').select('settings').where('id', '=', projectId).executeTakeFirst();
  return preTranslateOf(row?.settings);
}

/** Replaces the project's document in one transaction that emits PROJECT_METADATA_UPDATED. */
export async function writeProjectPreTranslate(
  deps: AppDeps,
  caller: Caller,
  project: ProjectRow,
  document: PreTranslateSettingsV4,
): Promise<PreTranslateSettingsV4> {
  const settings = await deps.database.db.transaction().execute(async (trx) => {
    const written = await writeSetting(trx, project.id, SETTINGS_KEY, document, deps.clock().toISOString(), caller.userId);
    await emitProjectEvents(deps, trx, caller, project.id, ['PROJECT_METADATA_UPDATED']);
    return written;
  });
  deps.taskWakeup.notify();
  return preTranslateDocument(settings[SETTINGS_KEY]);
}

/** Replaces one key of a template's settings JSON (null removes it), in the caller's transaction. */
export async function writeTemplateSettingsKey(
  trx: Kysely<DB>,
  templateId: Id,
  key: string,
  value: unknown,
  now: string,
  userId: Id | null,
): Promise<Record<string, unknown>> {
  const row = await trx.selectFrom('projectTemplates').select('settings').where('id', '=', templateId).executeTakeFirstOrThrow();
  const settings = parseSettings(row.settings) as Record<string, unknown>;
  if (value === null || value === undefined) delete settings[key];
  else settings[key] = value;
  await trx
    .updateTable('projectTemplates')
    .set({ settings: JSON.stringify(settings), lastModifiedAt: now, ...(userId === null ? {} : { lastModifiedById: userId }) })
    .where('id', '=', templateId)
    .execute();
  return settings;
}

/** Replaces the template's document in one transaction that emits PROJECT_TEMPLATE_UPDATED. */
export async function writeTemplatePreTranslate(
  deps: AppDeps,
  caller: Caller,
  template: TemplateRow,
  document: PreTranslateSettingsV4,
): Promise<PreTranslateSettingsV4> {
  const settings = await deps.database.db.transaction().execute(async (trx) => {
    const written = await writeTemplateSettingsKey(trx, template.id, SETTINGS_KEY, document, deps.clock().toISOString(), caller.userId);
    await emitTemplateEvent(deps, trx, caller, template.id, 'PROJECT_TEMPLATE_UPDATED');
    return written;
  });
  deps.taskWakeup.notify();
  return preTranslateDocument(settings[SETTINGS_KEY]);
}

/**
 * A project made from a template gets the template's document (in the caller's transaction), or
 * none when the template has none. The project's last-modified stamp is left alone: the copy is
 * part of making the project.
 */
export async function copyTemplatePreTranslate(trx: Kysely<DB>, templateId: Id, projectId: Id): Promise<void> {
  const template = await trx.selectFrom('projectTemplates').select('settings').where('id', '=', templateId).executeTakeFirstOrThrow();
  const stored = parseSettings(template.settings)[SETTINGS_KEY];
  const project = await trx.selectFrom('projects').select('settings').where('id', '=', projectId).executeTakeFirstOrThrow();
  const settings = parseSettings(project.settings);
  if (stored === undefined) delete settings[SETTINGS_KEY];
  else settings[SETTINGS_KEY] = preTranslateDocument(stored);
  await trx
    .updateTable('projects')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', projectId)
    .execute();
}
