/**
 * The settings of one analysis (spec CreateAnalyseAsyncV2Dto, AnalyseSettingsDto), with the
 * defaults of an analysis request. Pure.
 */

export const ANALYSIS_TYPES = ['PreAnalyse', 'PostAnalyse', 'Compare'] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

export interface AnalysisSettings {
  type: AnalysisType;
  includeFuzzyRepetitions: boolean;
  separateFuzzyRepetitions: boolean;
  includeConfirmedSegments: boolean;
  includeNumbers: boolean;
  includeLockedSegments: boolean;
  countSourceUnits: boolean;
  includeTransMemory: boolean;
  includeNonTranslatables: boolean;
  includeMachineTranslationMatches: boolean;
  transMemoryPostEditing: boolean;
  nonTranslatablePostEditing: boolean;
  machineTranslatePostEditing: boolean;
  /** Compare: the workflow level each job is compared with (1..15). */
  compareWorkflowLevel: number | null;
}

/** The defaults of an analysis request (the spec's "Default:" notes of CreateAnalyseAsyncV2Dto). */
export const REQUEST_DEFAULTS: AnalysisSettings = {
  type: 'PreAnalyse',
  includeFuzzyRepetitions: true,
  separateFuzzyRepetitions: false,
  includeConfirmedSegments: true,
  includeNumbers: true,
  includeLockedSegments: true,
  countSourceUnits: true,
  includeTransMemory: true,
  includeNonTranslatables: false,
  includeMachineTranslationMatches: false,
  transMemoryPostEditing: false,
  nonTranslatablePostEditing: false,
  machineTranslatePostEditing: false,
  compareWorkflowLevel: null,
};

export const BOOLEAN_SETTINGS = [
  'includeFuzzyRepetitions',
  'separateFuzzyRepetitions',
  'includeConfirmedSegments',
  'includeNumbers',
  'includeLockedSegments',
  'countSourceUnits',
  'includeTransMemory',
  'includeNonTranslatables',
  'includeMachineTranslationMatches',
  'transMemoryPostEditing',
  'nonTranslatablePostEditing',
  'machineTranslatePostEditing',
] as const satisfies readonly (keyof AnalysisSettings)[];

/**
 * The settings of a request: the request's own values over `base` (the project's analysis
 * settings when the request says `useProjectAnalysisSettings`, else the request defaults).
 * Absent and null values take the base's.
 */
export function resolveSettings(
  request: Partial<Record<keyof AnalysisSettings, unknown>>,
  base: Partial<AnalysisSettings> = {},
): AnalysisSettings {
  const settings: AnalysisSettings = { ...REQUEST_DEFAULTS, ...base };
  for (const name of BOOLEAN_SETTINGS) {
    const value = request[name];
    if (typeof value === 'boolean') settings[name] = value;
  }
  if (typeof request.type === 'string' && (ANALYSIS_TYPES as readonly string[]).includes(request.type)) {
    settings.type = request.type as AnalysisType;
  }
  if (typeof request.compareWorkflowLevel === 'number') settings.compareWorkflowLevel = request.compareWorkflowLevel;
  return settings;
}
