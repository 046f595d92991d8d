import { Type } from 'typebox';
import type { Static } from 'typebox';

/** Wire shapes of pre-translation, MT of a job and human translation (spec definitions named on each). */

const Flag = Type.Optional(Type.Boolean());
const Uid = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });

/** Spec definition `PreTranslateJobSettingsV3Dto`: job-level settings (defaults differ from the project's: TM, MT and non-translatables on). */
export const PreTranslateJobSettingsV3 = Type.Object({
  autoPropagateRepetitions: Flag,
  confirmRepetitions: Flag,
  setJobStatusCompleted: Flag,
  setJobStatusCompletedWhenConfirmed: Flag,
  setProjectStatusCompleted: Flag,
  overwriteExistingTranslations: Flag,
  translationMemorySettings: Type.Optional(
    Type.Object({
      useTranslationMemory: Flag,
      translationMemoryThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1.01 })),
      confirm100PercentMatches: Flag,
      confirm101PercentMatches: Flag,
      lock100PercentMatches: Flag,
      lock101PercentMatches: Flag,
    }),
  ),
  machineTranslationSettings: Type.Optional(
    Type.Object({
      useMachineTranslation: Flag,
      lock100PercentMatches: Flag,
      confirmMatches: Flag,
      confirmMatchesThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      useAltTransOnly: Flag,
    }),
  ),
  nonTranslatableSettings: Type.Optional(
    Type.Object({
      preTranslateNonTranslatables: Flag,
      confirm100PercentMatches: Flag,
      lock100PercentMatches: Flag,
    }),
  ),
});
export type PreTranslateJobSettingsV3 = Static<typeof PreTranslateJobSettingsV3>;

/** Spec definition `PreTranslateJobsV3Dto`. */
export const PreTranslateJobsV3Body = Type.Object({
  jobs: Type.Array(Uid, { minItems: 1, maxItems: 100 }),
  segmentFilters: Type.Optional(
    Type.Array(Type.Union([Type.Literal('LOCKED'), Type.Literal('NOT_LOCKED')]), {
      maxItems: 2,
      description: 'Which segments to work on: LOCKED, NOT_LOCKED (both when left out). Pre-translation never changes a locked segment.',
    }),
  ),
  useProjectPreTranslateSettings: Flag,
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  preTranslateSettings: Type.Optional(PreTranslateJobSettingsV3),
});
export type PreTranslateJobsV3Body = Static<typeof PreTranslateJobsV3Body>;

/** Spec definition `TranslationRequestDto`. */
export const JobTranslateBody = Type.Object({
  sourceTexts: Type.Array(Type.String({ maxLength: 100_000 }), { minItems: 1, maxItems: 10_000 }),
});
export type JobTranslateBody = Static<typeof JobTranslateBody>;

/** Spec definition `HumanTranslateJobsDto`. */
export const HumanTranslateBody = Type.Object({
  jobs: Type.Array(Uid, { minItems: 1, maxItems: 100 }),
  humanTranslateSettings: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
  comment: Type.Optional(Type.String({ maxLength: 4096 })),
  glossaryId: Type.Optional(Type.String({ maxLength: 64 })),
  usePreferredTranslators: Flag,
  level: Type.Optional(Type.Union([Type.Literal('STANDARD'), Type.Literal('PRO')])),
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type HumanTranslateBody = Static<typeof HumanTranslateBody>;
