import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';
import { AsyncRequestReference, JobStatus, JobWorkflowStepReference } from '../kernel/index.js';

/** Wire shapes of updateSource / updateTarget, named after the spec's definitions (phrase-tms-api.yaml). */

const JobUidReference = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });
/** Phrase's own examples send booleans as strings ("true"); both forms are accepted. */
const LooseBoolean = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')]);

/** The `Memsource` header of updateSource (the description's "accepted metadata"). */
export const JobUpdateSourceRequest = Type.Object({
  jobs: Type.Array(JobUidReference, { minItems: 1, maxItems: 100 }),
  preTranslate: Type.Optional(Nullable(LooseBoolean)),
  allowAutomaticPostAnalysis: Type.Optional(Nullable(LooseBoolean)),
  callbackUrl: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
});
export type JobUpdateSourceRequest = Static<typeof JobUpdateSourceRequest>;

/** The `Memsource` header of updateTarget: exactly one job. */
export const JobUpdateTargetRequest = Type.Object({
  jobs: Type.Array(JobUidReference, { minItems: 1, maxItems: 1 }),
  propagateConfirmedToTm: Type.Optional(Nullable(LooseBoolean)),
  callbackUrl: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  targetSegmentationRule: Type.Optional(
    Nullable(Type.Object({ id: Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 })]) })),
  ),
  unconfirmChangedSegments: Type.Optional(Nullable(LooseBoolean)),
});
export type JobUpdateTargetRequest = Static<typeof JobUpdateTargetRequest>;

/** Spec `JobPartUpdateSourceDto`. */
export const JobPartUpdateSource = Type.Object({
  uid: Type.String(),
  status: JobStatus,
  targetLang: Type.String(),
  filename: Type.String(),
  workflowLevel: Type.Integer(),
  workflowStep: Nullable(JobWorkflowStepReference),
});
export type JobPartUpdateSource = Static<typeof JobPartUpdateSource>;

/** Spec `JobUpdateSourceResponseDto` (updateTarget answers with it too). */
export const JobUpdateSourceResponse = Type.Object(
  { asyncRequest: AsyncRequestReference, jobs: Type.Array(JobPartUpdateSource) },
  { title: 'JobUpdateSourceResponseDto' },
);

export { ProjectUidParams } from '../kernel/index.js';

export const isTrue = (value: boolean | string | null | undefined) => value === true || value === 'true';
