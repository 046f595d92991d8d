import { Type } from 'typebox';
import type { Static, TSchema } from 'typebox';

/**
 * The pre-translate settings of projects and templates: the published `PreTranslateSettingsV4Dto`
 * (the one stored document), and the flat shape of the deprecated v1/v2 operations, which read and
 * write that same document (pre-translate-settings.ts maps one onto the other).
 */

const Flag = (description: string) => Type.Boolean({ description });
/** "Pre-translation threshold percent" of TranslationMemorySettingsDto, as a fraction (0.7 = 70 %). */
const TmThreshold = Type.Number({ minimum: 0, maximum: 1.01, description: 'A fraction of 1 (0.7 = 70 %), 0..1.01. Default: 0.7' });
const MtThreshold = Type.Number({ minimum: 0, maximum: 1, description: 'Machine translation matches percent, 0..1. Default: 1.0' });

const tmFields = {
  useTranslationMemory: Flag('Pre-translate from translation memory. Default: false'),
  translationMemoryThreshold: TmThreshold,
  confirm100PercentMatches: Flag('Set segment status to confirmed for 100% TM matches. Default: false'),
  confirm101PercentMatches: Flag('Set segment status to confirmed for 101% TM matches. Default: false'),
  lock100PercentMatches: Flag('Lock 100% TM matches. Default: false'),
  lock101PercentMatches: Flag('Lock 101% TM matches. Default: false'),
};
const mtFields = {
  useMachineTranslation: Flag('Pre-translate from machine translation (the MT settings of the job’s target language). Default: false'),
  lock100PercentMatches: Flag('Lock 100% machine translation matches. Default: false'),
  confirmMatches: Flag('Confirm machine translation matches above `confirmMatchesThreshold`. Default: false'),
  confirmMatchesThreshold: MtThreshold,
  useAltTransOnly: Flag('Do not put machine translations into targets. Default: false'),
  mtQeMatchesInEditors: Flag('Display quality-estimated MT matches in editors. Default: false'),
  mtForTMAbove100: Flag('Use machine translation for segments with a TM match of 100% or more. Default: false'),
};
const ntFields = {
  preTranslateNonTranslatables: Flag('Pre-translate non-translatables. Default: false'),
  confirm100PercentMatches: Flag('Confirm 100% non-translatable matches. Default: false'),
  lock100PercentMatches: Flag('Lock 100% non-translatable matches. Default: false'),
  nonTranslatablesInEditors: Flag('Non-translatables shown in editors. Default: false'),
};
const repetitionFields = {
  autoPropagateRepetitions: Flag('Propagate repetitions. Default: false'),
  confirmRepetitions: Flag('Confirm repetitions. Default: false'),
  autoPropagateToLockedRepetitions: Flag('Changes in the 1st repetition propagate into subsequent locked repetitions. Default: false'),
  lockSubsequentRepetitions: Flag('Lock auto-propagated subsequent repetitions. Default: false'),
};
const topFields = {
  preTranslateOnJobCreation: Flag('Pre-translate on job creation. Default: false'),
  setJobStatusCompleted: Flag('Set the job to completed once pre-translated. Default: false'),
  setJobStatusCompletedWhenConfirmed: Flag('Set the job to completed once pre-translated and all segments are confirmed. Default: false'),
  setProjectStatusCompleted: Flag('Set the project to completed once all jobs are pre-translated. Default: false'),
  overwriteExistingTranslations: Flag('Overwrite existing translations in target segments. Default: false'),
};

const optional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

/** Spec `PreTranslateSettingsV4Dto` as answered: every field present. */
export const PreTranslateSettingsV4Schema = Type.Object(
  {
    ...topFields,
    translationMemorySettings: Type.Object(tmFields, { title: 'TranslationMemorySettingsDto' }),
    machineTranslationSettings: Type.Object(mtFields, { title: 'MachineTranslationSettingsDto' }),
    nonTranslatableSettings: Type.Object(ntFields, { title: 'NonTranslatableSettingsDto' }),
    repetitionsSettings: Type.Object(repetitionFields, { title: 'RepetitionsSettingsDto' }),
  },
  { title: 'PreTranslateSettingsV4Dto' },
);
export type PreTranslateSettingsV4 = Static<typeof PreTranslateSettingsV4Schema>;

/** Spec `PreTranslateSettingsV4Dto` as sent: a field left out takes its default. */
export const PreTranslateSettingsV4Body = Type.Object({
  ...optional(topFields),
  translationMemorySettings: Type.Optional(Type.Object(optional(tmFields))),
  machineTranslationSettings: Type.Optional(Type.Object(optional(mtFields))),
  nonTranslatableSettings: Type.Optional(Type.Object(optional(ntFields))),
  repetitionsSettings: Type.Optional(Type.Object(optional(repetitionFields))),
});
export type PreTranslateSettingsV4Body = Static<typeof PreTranslateSettingsV4Body>;

/**
 * The flat shape of the deprecated v1/v2 operations (Phrase's older `PreTranslateSettingsDto`),
 * field → field of the v4 document. The TM fields keep their v4 names at the top level; the MT and
 * non-translatable fields whose v4 names would collide with them carry a `Mt` / `NonTranslatable`
 * part in their names.
 */
export const FLAT_FIELDS = {
  preTranslateOnJobCreation: ['preTranslateOnJobCreation'],
  setJobStatusCompleted: ['setJobStatusCompleted'],
  setJobStatusCompletedWhenConfirmed: ['setJobStatusCompletedWhenConfirmed'],
  setProjectStatusCompleted: ['setProjectStatusCompleted'],
  overwriteExistingTranslations: ['overwriteExistingTranslations'],
  useTranslationMemory: ['translationMemorySettings', 'useTranslationMemory'],
  translationMemoryThreshold: ['translationMemorySettings', 'translationMemoryThreshold'],
  confirm100PercentMatches: ['translationMemorySettings', 'confirm100PercentMatches'],
  confirm101PercentMatches: ['translationMemorySettings', 'confirm101PercentMatches'],
  lock100PercentMatches: ['translationMemorySettings', 'lock100PercentMatches'],
  lock101PercentMatches: ['translationMemorySettings', 'lock101PercentMatches'],
  useMachineTranslation: ['machineTranslationSettings', 'useMachineTranslation'],
  lock100PercentMtMatches: ['machineTranslationSettings', 'lock100PercentMatches'],
  confirmMtMatches: ['machineTranslationSettings', 'confirmMatches'],
  confirmMtMatchesThreshold: ['machineTranslationSettings', 'confirmMatchesThreshold'],
  useAltTransOnly: ['machineTranslationSettings', 'useAltTransOnly'],
  mtQeMatchesInEditors: ['machineTranslationSettings', 'mtQeMatchesInEditors'],
  mtForTMAbove100: ['machineTranslationSettings', 'mtForTMAbove100'],
  preTranslateNonTranslatables: ['nonTranslatableSettings', 'preTranslateNonTranslatables'],
  confirm100NonTranslatableMatches: ['nonTranslatableSettings', 'confirm100PercentMatches'],
  lock100NonTranslatableMatches: ['nonTranslatableSettings', 'lock100PercentMatches'],
  nonTranslatablesInEditors: ['nonTranslatableSettings', 'nonTranslatablesInEditors'],
  autoPropagateRepetitions: ['repetitionsSettings', 'autoPropagateRepetitions'],
  confirmRepetitions: ['repetitionsSettings', 'confirmRepetitions'],
  autoPropagateToLockedRepetitions: ['repetitionsSettings', 'autoPropagateToLockedRepetitions'],
  lockSubsequentRepetitions: ['repetitionsSettings', 'lockSubsequentRepetitions'],
} as const satisfies Record<string, readonly [string] | readonly [string, string]>;
export type FlatField = keyof typeof FLAT_FIELDS;

const flatFields = {
  ...topFields,
  ...tmFields,
  useMachineTranslation: mtFields.useMachineTranslation,
  lock100PercentMtMatches: mtFields.lock100PercentMatches,
  confirmMtMatches: mtFields.confirmMatches,
  confirmMtMatchesThreshold: mtFields.confirmMatchesThreshold,
  useAltTransOnly: mtFields.useAltTransOnly,
  mtQeMatchesInEditors: mtFields.mtQeMatchesInEditors,
  mtForTMAbove100: mtFields.mtForTMAbove100,
  preTranslateNonTranslatables: ntFields.preTranslateNonTranslatables,
  confirm100NonTranslatableMatches: ntFields.confirm100PercentMatches,
  lock100NonTranslatableMatches: ntFields.lock100PercentMatches,
  nonTranslatablesInEditors: ntFields.nonTranslatablesInEditors,
  ...repetitionFields,
} satisfies Record<FlatField, TSchema>;

/** The flat shape as answered (every field). */
export const PreTranslateSettingsFlatSchema = Type.Object(flatFields, { title: 'PreTranslateSettingsDto' });
export type PreTranslateSettingsFlat = Static<typeof PreTranslateSettingsFlatSchema>;
/** The flat shape as sent: a field left out takes its default. */
export const PreTranslateSettingsFlatBody = Type.Object(optional(flatFields));
export type PreTranslateSettingsFlatBody = Static<typeof PreTranslateSettingsFlatBody>;
