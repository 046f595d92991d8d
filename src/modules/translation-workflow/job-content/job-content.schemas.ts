import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';
import { JobPartReadyReferences, ProviderInput } from '../kernel/index.js';

/** Request shapes of the job content operations, named after the spec's definitions. */

export { JobPartReadyReferences };

const UidRef = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });

/** Spec `TranslationSegmentsReferenceV2`: which translations to remove. */
const TranslationSegmentsReferenceV2 = Type.Object({
  confirmed: Type.Optional(Nullable(Type.Boolean())),
  locked: Type.Optional(Nullable(Type.Boolean())),
});

/** Spec `JobPartReadyDeleteTranslationFilterDto`. */
const JobPartReadyDeleteTranslationFilter = Type.Object({
  dateDue: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  dueInHours: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  filename: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  overdue: Type.Optional(Nullable(Type.Boolean())),
  owner: Type.Optional(Nullable(UidRef)),
  provider: Type.Optional(Nullable(ProviderInput)),
  statuses: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 20 }))),
  targetLang: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
});
export type DeleteTranslationFilter = Static<typeof JobPartReadyDeleteTranslationFilter>;

/** Spec `JobPartReadyDeleteTranslationDto`. */
export const JobPartReadyDeleteTranslation = Type.Object({
  deleteSettings: Type.Optional(Nullable(TranslationSegmentsReferenceV2)),
  filter: Type.Optional(Nullable(JobPartReadyDeleteTranslationFilter)),
  forAllJobs: Type.Optional(Nullable(Type.Boolean())),
  jobs: Type.Optional(Nullable(Type.Array(UidRef, { minItems: 1, maxItems: 100 }))),
  workflowLevel: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 15 }))),
});
export type JobPartReadyDeleteTranslation = Static<typeof JobPartReadyDeleteTranslation>;

const PseudoTranslateCommon = {
  keyHashPrefixLen: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 18 }))),
  /** Ratio of target to source length (1.3 = 30 % longer); docs/job-content-and-handovers.md. */
  length: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 10 }))),
  prefix: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  suffix: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
};

/** Spec `PseudoTranslateActionDto` (v1). */
export const PseudoTranslateAction = Type.Object({
  ...PseudoTranslateCommon,
  replacement: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 10 }))),
  substitution: Type.Optional(
    Nullable(
      Type.Array(Type.Object({ source: Type.String({ minLength: 1, maxLength: 10 }), target: Type.String({ maxLength: 10 }) }), {
        minItems: 1,
        maxItems: 100,
      }),
    ),
  ),
});

/** Spec `PseudoTranslateActionDtoV2`: one character per substitution side. */
const PseudoTranslateActionV2 = Type.Object({
  ...PseudoTranslateCommon,
  replacement: Type.Optional(Nullable(Type.String({ maxLength: 10 }))),
  substitution: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object({ source: Type.String({ minLength: 1, maxLength: 2 }), target: Type.String({ minLength: 1, maxLength: 2 }) }),
        { maxItems: 1000 },
      ),
    ),
  ),
});
export type PseudoTranslateInput = Static<typeof PseudoTranslateAction> | Static<typeof PseudoTranslateActionV2>;

/** Spec `PseudoTranslateWrapperDto`. */
export const PseudoTranslateWrapper = Type.Object({
  jobParts: JobPartReadyReferences,
  pseudoTranslate: PseudoTranslateActionV2,
});

/** Spec `NotifyJobPartsRequestDto`. */
export const NotifyJobPartsRequest = Type.Object({
  emailTemplate: Type.Object({ id: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Integer({ minimum: 1 })]) }),
  jobs: Type.Array(UidRef, { minItems: 1, maxItems: 100 }),
  cc: Type.Optional(Nullable(Type.Array(Type.String({ format: 'email', maxLength: 255 }), { maxItems: 20 }))),
  bcc: Type.Optional(Nullable(Type.Array(Type.String({ format: 'email', maxLength: 255 }), { maxItems: 20 }))),
});
export type NotifyJobPartsRequest = Static<typeof NotifyJobPartsRequest>;
