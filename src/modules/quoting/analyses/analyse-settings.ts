import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { BOOLEAN_SETTINGS, REQUEST_DEFAULTS } from '../../../domain/analysis/settings.js';
import type { AnalysisSettings, AnalysisType } from '../../../domain/analysis/settings.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { emitTemplateEvent, parseSettings } from '../../translation-workflow/kernel/index.js';
import type { TemplateRow } from '../../translation-workflow/kernel/index.js';

/**
 * The analysis settings of projects and project templates (docs/analysis.md, "Analysis
 * settings"): one document under `analyseSettings` in the record's settings JSON, a project made
 * from a template copying it. Its fields are those of AnalysisSettings (what an analysis with
 * `useProjectAnalysisSettings` reads: `projectAnalysisSettings` of analyses.service.ts) plus the
 * four that say how analyses are grouped and named.
 */

export interface StoredAnalyseSettings extends Omit<AnalysisSettings, 'compareWorkflowLevel'> {
  namingPattern: string | null;
  analyzeByLanguage: boolean;
  analyzeByProvider: boolean;
  allowAutomaticPostAnalysis: boolean;
}

/**
 * The settings of a record that stores none, and what an edit leaves out: the defaults of an
 * analysis request (CreateAnalyseAsyncV2Dto's "Default:" notes, REQUEST_DEFAULTS), so that a
 * project without stored settings shows what `useProjectAnalysisSettings` then uses; grouped by
 * provider (EditAnalyseSettingsDto: analyzeByProvider "Default: true").
 */
export const ANALYSE_SETTINGS_DEFAULTS: StoredAnalyseSettings = (() => {
  const { compareWorkflowLevel: _level, ...request } = REQUEST_DEFAULTS;
  void _level;
  return { ...request, namingPattern: null, analyzeByLanguage: false, analyzeByProvider: true, allowAutomaticPostAnalysis: false };
})();

const Flag = Type.Optional(Type.Boolean());

/** Spec `EditAnalyseSettingsDto`; `PreAnalyseTarget` is not offered (OpenTMS has no target pre-analysis yet). */
export const EditAnalyseSettingsBody = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('PreAnalyse'), Type.Literal('PostAnalyse'), Type.Literal('Compare')])),
  ...Object.fromEntries(BOOLEAN_SETTINGS.map((name) => [name, Flag])),
  namingPattern: Type.Optional(Type.String({ maxLength: 255 })),
  analyzeByLanguage: Flag,
  analyzeByProvider: Flag,
  allowAutomaticPostAnalysis: Flag,
});
export type EditAnalyseSettings = Static<typeof EditAnalyseSettingsBody>;

const settingsFields = {
  type: Type.String(),
  ...Object.fromEntries(BOOLEAN_SETTINGS.map((name) => [name, Type.Boolean()])),
  namingPattern: Type.Union([Type.String(), Type.Null()]),
  analyzeByLanguage: Type.Boolean(),
  analyzeByProvider: Type.Boolean(),
  allowAutomaticPostAnalysis: Type.Boolean(),
};
/** Spec `AnalyseSettingsDto` (a project's). */
export const AnalyseSettingsSchema = Type.Object(settingsFields, { title: 'AnalyseSettingsDto' });
/** Spec `AbstractAnalyseSettingsDto` (a template's): every field, whatever the type. */
export const TemplateAnalyseSettingsSchema = Type.Object(settingsFields, { title: 'AbstractAnalyseSettingsDto' });

const isType = (value: unknown): value is AnalysisType => value === 'PreAnalyse' || value === 'PostAnalyse' || value === 'Compare';

/** The document stored under `analyseSettings` of a settings JSON, over the defaults (fields of another shape ignored). */
export function analyseSettingsOf(settingsJson: string | null | undefined): StoredAnalyseSettings {
  const stored = parseSettings(settingsJson)['analyseSettings'];
  const result: StoredAnalyseSettings = { ...ANALYSE_SETTINGS_DEFAULTS };
  if (!stored || typeof stored !== 'object') return result;
  const doc = stored as Record<string, unknown>;
  if (isType(doc['type'])) result.type = doc['type'];
  for (const name of [...BOOLEAN_SETTINGS, 'analyzeByLanguage', 'analyzeByProvider', 'allowAutomaticPostAnalysis'] as const) {
    if (typeof doc[name] === 'boolean') result[name] = doc[name];
  }
  if (typeof doc['namingPattern'] === 'string') result.namingPattern = doc['namingPattern'];
  return result;
}

/**
 * The document an edit stores: the body over the defaults (a PUT replaces the whole document).
 * analyzeByLanguage and analyzeByProvider exclude each other: both true is 400; analyzeByLanguage
 * true with analyzeByProvider left out turns the provider grouping (default on) off.
 */
export function analyseSettingsFromBody(body: EditAnalyseSettings): StoredAnalyseSettings {
  if (body.analyzeByLanguage === true && body.analyzeByProvider === true) {
    throw errors.InvalidArguments({
      reason: 'analyzeByLanguage and analyzeByProvider are mutually exclusive: set at most one of them to true.',
      details: [
        { field: 'analyzeByLanguage', message: 'mutually exclusive with analyzeByProvider' },
        { field: 'analyzeByProvider', message: 'mutually exclusive with analyzeByLanguage' },
      ],
    });
  }
  const result: StoredAnalyseSettings = { ...ANALYSE_SETTINGS_DEFAULTS };
  if (body.type !== undefined) result.type = body.type;
  const flags = body as Partial<Record<string, boolean>>;
  for (const name of [...BOOLEAN_SETTINGS, 'analyzeByLanguage', 'analyzeByProvider', 'allowAutomaticPostAnalysis'] as const) {
    const value = flags[name];
    if (typeof value === 'boolean') result[name] = value;
  }
  if (body.analyzeByLanguage === true && body.analyzeByProvider === undefined) result.analyzeByProvider = false;
  const pattern = body.namingPattern?.trim();
  result.namingPattern = pattern ? pattern : null;
  return result;
}

/** Replaces the template's `analyseSettings` and emits PROJECT_TEMPLATE_UPDATED, in one transaction. */
export async function writeTemplateAnalyseSettings(
  deps: AppDeps,
  caller: Caller,
  template: TemplateRow,
  document: StoredAnalyseSettings,
): Promise<StoredAnalyseSettings> {
  const written = await deps.database.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('projectTemplates').select('settings').where('id', '=', template.id).executeTakeFirstOrThrow();
    const settings = parseSettings(row.settings) as Record<string, unknown>;
    settings['analyseSettings'] = document;
    const json = JSON.stringify(settings);
    await trx
      .updateTable('projectTemplates')
      .set({ settings: json, lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
      .where('id', '=', template.id)
      .execute();
    await emitTemplateEvent(deps, trx, caller, template.id, 'PROJECT_TEMPLATE_UPDATED');
    return json;
  });
  deps.taskWakeup.notify();
  return analyseSettingsOf(written);
}
