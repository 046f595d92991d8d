import { Type } from 'typebox';
import type { Static } from 'typebox';
import { JOB_STATUSES } from '../../../domain/jobs/job-status.js';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/**
 * Wire shapes of jobs, named after the spec's definitions (phrase-tms-api.yaml). Other modules
 * (job files, job operations) reuse the response shapes and the view builders of job-views.ts.
 */

export const JobStatus = Type.Enum([...JOB_STATUSES]);
const DateTime = Type.String({ format: 'date-time' });

// ---- references in request bodies

/**
 * Spec `ProviderReference` as a request gives it: `type` USER or VENDOR and the record's `id`
 * (as Phrase documents it, a number or a numeric string) or `uid`.
 */
export const ProviderInput = Type.Object({
  type: Type.Union([Type.Literal('USER'), Type.Literal('VENDOR')]),
  id: Type.Optional(Nullable(Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 })]))),
  uid: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
});
export type ProviderInput = Static<typeof ProviderInput>;

const Providers = Type.Array(ProviderInput, { maxItems: 100 });

/** Phrase's own examples send numbers and booleans as strings ("10", "true"); both forms are accepted. */
const LooseInteger = (options: { minimum: number; maximum: number }) =>
  Type.Union([Type.Integer(options), Type.String({ pattern: '^[0-9]{1,9}$' })]);
const LooseBoolean = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')]);

/** Spec `NotifyProviderDto`. */
export const NotifyProviderInput = Type.Object({
  organizationEmailTemplate: Type.Object({ id: Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 })]) }),
  notificationIntervalInMinutes: Type.Optional(Nullable(LooseInteger({ minimum: 0, maximum: 1440 }))),
});
export type NotifyProviderInput = Static<typeof NotifyProviderInput>;

/** Spec `ProvidersPerLanguage`. */
export const ProvidersPerLanguage = Type.Object({
  targetLang: Type.String({ minLength: 1, maxLength: 32 }),
  providers: Type.Optional(Nullable(Providers)),
});

/** Spec `WorkflowStepConfiguration`: `id` is the project workflow step's id (a project view's `workflowSteps[].id`). */
export const WorkflowStepConfiguration = Type.Object({
  id: Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 })]),
  assignments: Type.Optional(Nullable(Type.Array(ProvidersPerLanguage, { maxItems: 500 }))),
  due: Type.Optional(Nullable(DateTime)),
  notifyProvider: Type.Optional(Nullable(NotifyProviderInput)),
});

const AnyReference = Type.Object({}, { additionalProperties: true });

/** Spec `JobCreateRequestDto`: the `Memsource` header (or the `json` part of a multipart request). */
export const JobCreateRequest = Type.Object({
  targetLangs: Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 500 }),
  due: Type.Optional(Nullable(DateTime)),
  workflowSettings: Type.Optional(Nullable(Type.Array(WorkflowStepConfiguration, { maxItems: 15 }))),
  assignments: Type.Optional(Nullable(Type.Array(ProvidersPerLanguage, { maxItems: 500 }))),
  importSettings: Type.Optional(Nullable(AnyReference)),
  useProjectFileImportSettings: Type.Optional(Nullable(LooseBoolean)),
  preTranslate: Type.Optional(Nullable(LooseBoolean)),
  semanticMarkup: Type.Optional(Nullable(LooseBoolean)),
  notifyProvider: Type.Optional(Nullable(NotifyProviderInput)),
  callbackUrl: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  path: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  remoteFile: Type.Optional(Nullable(AnyReference)),
  xmlAssistantProfile: Type.Optional(Nullable(AnyReference)),
});
export type JobCreateRequest = Static<typeof JobCreateRequest>;

const UidRef = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });
const JobRefs = (maxItems: number) => Type.Array(UidRef, { minItems: 1, maxItems });

/** Spec `JobPartUpdateSingleDto` (PUT: status required) and `JobPartPatchSingleDto` (PATCH: all optional). */
export const JobPartUpdateSingle = Type.Object({
  status: JobStatus,
  dateDue: Type.Optional(Nullable(DateTime)),
  providers: Type.Optional(Nullable(Providers)),
});
export const JobPartPatchSingle = Type.Object({
  status: Type.Optional(Nullable(JobStatus)),
  dateDue: Type.Optional(Nullable(DateTime)),
  providers: Type.Optional(Nullable(Providers)),
});
/** Spec `JobPartUpdateBatchDto`. */
export const JobPartUpdateBatch = Type.Object({
  jobs: JobRefs(1000),
  status: JobStatus,
  dateDue: Type.Optional(Nullable(DateTime)),
  providers: Type.Optional(Nullable(Providers)),
});
export type JobChanges = { status?: Static<typeof JobStatus> | null; dateDue?: string | null; providers?: ProviderInput[] | null };

/** Spec `JobPartDeleteReferences`. */
export const JobPartDeleteReferences = Type.Object({ jobs: JobRefs(1000) });
/** Spec `JobPartReadyReferences` (segmentsCount). */
export const JobPartReadyReferences = Type.Object({ jobs: JobRefs(100) });
/** Spec `SearchJobsRequestDto`: at most 50 jobs. */
export const SearchJobsRequest = Type.Object({ jobs: JobRefs(50) });

/** Spec `JobStatusChangeActionDto`. */
export const JobStatusChangeAction = Type.Object({
  requestedStatus: JobStatus,
  notifyOwner: Type.Optional(Nullable(Type.Boolean())),
  propagateStatus: Type.Optional(Nullable(Type.Boolean())),
});

export const ProjectUidParams = Type.Object({ projectUid: Type.String({ minLength: 1, maxLength: 64 }) });
export const JobUidParams = Type.Object({
  projectUid: Type.String({ minLength: 1, maxLength: 64 }),
  jobUid: Type.String({ minLength: 1, maxLength: 64 }),
});

export const DeletePartsQuery = Type.Object({ purge: Type.Boolean({ default: false }) });

/** Query of listPartsV2 (spec parameters; `status` may repeat). */
export const ListPartsQuery = Type.Object({
  ...PagingQuery,
  count: Type.Boolean({ default: false }),
  workflowLevel: Type.Integer({ minimum: 1, maximum: 15, default: 1 }),
  status: Type.Optional(Type.Array(JobStatus, { maxItems: 8 })),
  assignedUser: Type.Optional(Type.Integer({ minimum: 1 })),
  dueInHours: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  filename: Type.Optional(Type.String({ maxLength: 1024 })),
  targetLang: Type.Optional(Type.String({ maxLength: 32 })),
  assignedVendor: Type.Optional(Type.Integer({ minimum: 1 })),
  notReady: Type.Optional(Type.Boolean()),
});

export const SegmentsQuery = Type.Object({
  beginIndex: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0 }),
  endIndex: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0 }),
});

// ---- responses

/**
 * Spec `ProviderReference` (discriminated by `type`): USER adds userName, firstName, lastName,
 * email, active; VENDOR adds name. One schema with the fields of both so the serializer keeps them.
 */
export const ProviderReference = Type.Object(
  {
    type: Type.String(),
    id: Type.String(),
    uid: Type.String(),
    userName: Type.Optional(Type.String()),
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    active: Type.Optional(Type.Boolean()),
    name: Type.Optional(Type.String()),
  },
  { title: 'ProviderReference' },
);
export type ProviderReference = Static<typeof ProviderReference>;

/** Spec `WorkflowStepReference` (the organization's step). */
export const JobWorkflowStepReference = Type.Object({
  name: Type.String(),
  id: Type.String(),
  uid: Type.String(),
  order: Type.Integer(),
  lqaEnabled: Type.Boolean(),
});
/** Spec `ProjectWorkflowStepReference`: `id` is the project workflow step's id. */
export const ProjectWorkflowStepReference = Type.Object({
  name: Type.String(),
  id: Type.String(),
  order: Type.Integer(),
  workflowLevel: Type.Integer(),
});
export const ImportStatus = Type.Object({ status: Type.String(), errorMessage: Nullable(Type.String()) });

/** Spec `JobPartReference` (v1 lists, JobListDto, JobPartsDto). */
export const JobPartReference = Type.Object(
  {
    uid: Type.String(),
    status: JobStatus,
    providers: Type.Array(ProviderReference),
    targetLang: Type.String(),
    workflowLevel: Type.Integer(),
    workflowStep: Nullable(JobWorkflowStepReference),
    filename: Type.String(),
    dateDue: Nullable(DateTime),
    dateCreated: DateTime,
    updateSourceDate: Nullable(DateTime),
    imported: Type.Boolean(),
    jobAssignedEmailTemplate: Nullable(Type.Object({ id: Type.String() })),
    notificationIntervalInMinutes: Nullable(Type.Integer()),
    continuous: Type.Boolean(),
    sourceFileUid: Type.String(),
  },
  { title: 'JobPartReference' },
);
export type JobPartReference = Static<typeof JobPartReference>;

/** Spec `JobPartReferenceV2` (listPartsV2). */
export const JobPartReferenceV2 = Type.Object(
  {
    uid: Type.String(),
    innerId: Type.String(),
    status: JobStatus,
    providers: Type.Array(ProviderReference),
    targetLang: Type.String(),
    workflowStep: Nullable(ProjectWorkflowStepReference),
    filename: Type.String(),
    originalFileDirectory: Nullable(Type.String()),
    dateDue: Nullable(DateTime),
    dateCreated: DateTime,
    importStatus: ImportStatus,
    continuous: Type.Boolean(),
    sourceFileUid: Type.String(),
    split: Type.Boolean(),
    serverTaskId: Nullable(Type.String()),
    owner: Nullable(UserReference),
    remoteFile: Nullable(Type.Object({})),
    imported: Type.Boolean(),
  },
  { title: 'JobPartReferenceV2' },
);
export type JobPartReferenceV2 = Static<typeof JobPartReferenceV2>;

/** Spec `JobPartExtendedDto` (get, edit, patch, search). */
export const JobPartExtended = Type.Object(
  {
    uid: Type.String(),
    innerId: Type.String(),
    status: JobStatus,
    providers: Type.Array(ProviderReference),
    sourceLang: Type.String(),
    targetLang: Type.String(),
    workflowLevel: Type.Integer(),
    workflowStep: Nullable(ProjectWorkflowStepReference),
    filename: Type.String(),
    dateDue: Nullable(DateTime),
    wordsCount: Type.Integer(),
    beginIndex: Nullable(Type.Integer()),
    endIndex: Nullable(Type.Integer()),
    isParentJobSplit: Type.Boolean(),
    updateSourceDate: Nullable(DateTime),
    updateTargetDate: Nullable(DateTime),
    dateCreated: DateTime,
    jobReference: Type.Object({ uid: Type.String(), filename: Type.String() }),
    project: Type.Object({ uid: Type.String(), name: Type.String() }),
    lastWorkflowLevel: Type.Integer(),
    workUnit: Nullable(Type.Object({})),
    importStatus: ImportStatus,
    imported: Type.Boolean(),
    continuous: Type.Boolean(),
    continuousJobInfo: Nullable(Type.Object({})),
    originalFileDirectory: Nullable(Type.String()),
  },
  { title: 'JobPartExtendedDto' },
);
export type JobPartExtended = Static<typeof JobPartExtended>;

export const AsyncRequestReference = Type.Object({ id: Type.String(), dateCreated: DateTime, action: Type.String() });

/** Spec `JobListDto`: the answer of createJob. */
export const JobList = Type.Object(
  { unsupportedFiles: Type.Array(Type.String()), jobs: Type.Array(JobPartReference), asyncRequest: Nullable(AsyncRequestReference) },
  { title: 'JobListDto' },
);
export const JobParts = Type.Object({ jobs: Type.Array(JobPartReference) }, { title: 'JobPartsDto' });
export const SearchJobs = Type.Object({ jobs: Type.Array(JobPartExtended) }, { title: 'SearchJobsDto' });
export const JobPartPage = PageOf(JobPartReferenceV2, 'PageDtoJobPartReferenceV2');

export const JobPartStatusChanges = Type.Object(
  { statusChanges: Type.Array(Type.Object({ status: JobStatus, changedDate: DateTime, changedBy: Nullable(UserReference) })) },
  { title: 'JobPartStatusChangesDto' },
);

/** Spec `ProjectWorkflowStepDto`. */
export const ProjectWorkflowStep = Type.Object(
  {
    id: Type.Integer(),
    abbreviation: Type.String(),
    name: Type.String(),
    workflowLevel: Type.Integer(),
    workflowStep: Type.Object({ id: Type.String(), uid: Type.String() }),
    lqaProfileUid: Nullable(Type.String()),
  },
  { title: 'ProjectWorkflowStepDto' },
);

/** Spec `JobSegmentDto` (SegmentListDto), plus `index`, `key` and `tags` (OpenTMS extensions: the segment's place, the file's key and its inline tags). */
export const InlineTagDto = Type.Object({ id: Type.Integer(), kind: Type.String(), display: Type.String(), original: Type.String() });
export const JobSegment = Type.Object({
  id: Type.String(),
  index: Type.Integer(),
  key: Nullable(Type.String()),
  tags: Type.Array(InlineTagDto),
  source: Type.String(),
  translation: Nullable(Type.String()),
  createdAt: Type.Integer(),
  modifiedAt: Type.Integer(),
  createdBy: Nullable(UserReference),
  modifiedBy: Nullable(UserReference),
  workflowLevel: Type.Integer(),
  workflowStep: Nullable(
    Type.Object({
      id: Type.String(),
      uid: Type.String(),
      name: Type.String(),
      abbr: Type.String(),
      order: Type.Integer(),
      lqaEnabled: Type.Boolean(),
    }),
  ),
});
export const SegmentList = Type.Object({ segments: Type.Array(JobSegment) }, { title: 'SegmentListDto' });

/** Spec `SegmentsCountsDto` (the counts we have; QA, locking and MT figures come with their capabilities). */
export const SegmentsCounts = Type.Object({
  allConfirmed: Type.Boolean(),
  charsCount: Type.Integer(),
  completedCharsCount: Type.Integer(),
  confirmedCharsCount: Type.Integer(),
  confirmedLockedCharsCount: Type.Integer(),
  lockedCharsCount: Type.Integer(),
  segmentsCount: Type.Integer(),
  completedSegmentsCount: Type.Integer(),
  lockedSegmentsCount: Type.Integer(),
  segmentGroupsCount: Type.Integer(),
  translatedSegmentsCount: Type.Integer(),
  translatedLockedSegmentsCount: Type.Integer(),
  wordsCount: Type.Integer(),
  completedWordsCount: Type.Integer(),
  confirmedWordsCount: Type.Integer(),
  confirmedLockedWordsCount: Type.Integer(),
  lockedWordsCount: Type.Integer(),
  addedSegments: Type.Integer(),
  addedWords: Type.Integer(),
  machineTranslationPostEditedSegmentsCount: Type.Integer(),
  machineTranslationRelevantSegmentsCount: Type.Integer(),
});
export type SegmentsCounts = Static<typeof SegmentsCounts>;
export const SegmentsCountsResponseList = Type.Object(
  {
    segmentsCountsResults: Type.Array(
      Type.Object({
        jobPartUid: Type.String(),
        counts: SegmentsCounts,
        previousWorkflow: Nullable(Type.Object({ completed: Type.Boolean(), counts: SegmentsCounts })),
      }),
    ),
  },
  { title: 'SegmentsCountsResponseListDto' },
);
