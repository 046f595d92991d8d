import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';
import { JobStatus, NotifyProviderInput, ProviderInput, ProviderReference } from '../kernel/index.js';

const Uid = Type.String({ minLength: 1, maxLength: 64 });
const UidRef = Type.Object({ uid: Uid });
const DateTime = Type.String({ format: 'date-time' });

// ---- provider suggestions

const Limit = Type.Integer({
  minimum: 1,
  maximum: 10_000,
  description: 'At most this many `relevant` providers, best first; omitted: all.',
});

export const SuggestQuery = Type.Object({ limit: Type.Optional(Limit) });

/** Seed operation: suggestions for several jobs of a project (the spec's JobPartReferences plus `limit`). */
export const SuggestForJobsBody = Type.Object({
  jobs: Type.Array(UidRef, { minItems: 1, maxItems: 100 }),
  limit: Type.Optional(Nullable(Limit)),
});

/** Spec `ProviderReference` as suggested: a VENDOR also carries `defaultProjectOwnerId`. */
const SuggestedProvider = Type.Object(
  { ...ProviderReference.properties, defaultProjectOwnerId: Type.Optional(Type.Integer()) },
  { title: 'ProviderReference' },
);
export type SuggestedProvider = Static<typeof SuggestedProvider>;

/** Spec `ProviderListDtoV2`. */
export const ProviderListV2 = Type.Object(
  { providers: Type.Object({ all: Type.Array(SuggestedProvider), relevant: Type.Array(SuggestedProvider) }, { title: 'Providers' }) },
  { title: 'ProviderListDtoV2' },
);

// ---- clone

/** One source job (`uid`) and the target languages to clone it to. */
const JobPartTargetLangs = Type.Object({
  uid: Uid,
  targetLangs: Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 100 }),
});

const RecordRef = Type.Object({
  id: Type.Optional(Nullable(Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 })]))),
  uid: Type.Optional(Nullable(Uid)),
});

/**
 * Per workflow step of the clones (`workflowStep.id`: the project workflow step's id, as in a
 * project view): a linguist or a vendor, a due date, and the notification (e-mail template and
 * reminder interval, spec NotifyProviderDto).
 */
const CloneWorkflowSetting = Type.Object({
  workflowStep: Type.Object({ id: Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 })]) }),
  linguist: Type.Optional(Nullable(RecordRef)),
  vendor: Type.Optional(Nullable(RecordRef)),
  due: Type.Optional(Nullable(DateTime)),
  notifyProvider: Type.Optional(Nullable(NotifyProviderInput)),
});
export type CloneWorkflowSetting = Static<typeof CloneWorkflowSetting>;

export const CloneJobsBody = Type.Object({
  jobPartTargetLangs: Type.Array(JobPartTargetLangs, { minItems: 1, maxItems: 100 }),
  workflowSettings: Type.Optional(Nullable(Type.Array(CloneWorkflowSetting, { maxItems: 15 }))),
  keepSplit: Type.Optional(Nullable(Type.Boolean())),
});
export type CloneJobsBody = Static<typeof CloneJobsBody>;

// ---- bulk edit (v3)

/** A custom field value to set on every job (`customFields` of the description's bulk edit). */
const CustomFieldSetting = Type.Object({
  customField: UidRef,
  value: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
  selectedOptions: Type.Optional(Nullable(Type.Array(UidRef, { maxItems: 100 }))),
});

/** Spec `JobPartPatchBatchDto` plus the description's custom fields. */
export const JobPartPatchBatch = Type.Object({
  jobs: Type.Array(UidRef, { minItems: 1, maxItems: 100 }),
  status: Type.Optional(Nullable(JobStatus)),
  dateDue: Type.Optional(Nullable(DateTime)),
  clearDateDue: Type.Optional(Nullable(Type.Boolean())),
  providers: Type.Optional(Nullable(Type.Array(ProviderInput, { maxItems: 100 }))),
  customFields: Type.Optional(Nullable(Type.Array(CustomFieldSetting, { maxItems: 100 }))),
});
export type JobPartPatchBatch = Static<typeof JobPartPatchBatch>;

const ErrorDetailV3 = Type.Object(
  { code: Type.String(), message: Type.Optional(Type.String()), args: Type.Optional(Type.Object({}, { additionalProperties: true })) },
  { title: 'ErrorDetailDtoV3' },
);

/** Spec `JobPartPatchResultDto`. */
export const JobPartPatchResult = Type.Object(
  { updated: Type.Integer(), errors: Type.Array(ErrorDetailV3) },
  { title: 'JobPartPatchResultDto' },
);
export type JobPartPatchResult = Static<typeof JobPartPatchResult>;
