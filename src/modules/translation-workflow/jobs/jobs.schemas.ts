import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { JobPartExtended, JobPartReferenceV2, JobRefs, JobStatus, NotifyProviderInput, ProviderInput } from '../kernel/index.js';

/** Wire shapes of the jobs module's own operations (the job views every module answers with are the kernel's). */

const Providers = Type.Array(ProviderInput, { maxItems: 100 });
const DateTime = Type.String({ format: 'date-time' });
const LooseBoolean = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')]);

const AnyReference = Type.Object({}, { additionalProperties: true });

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
/** Spec `SearchJobsRequestDto`: at most 50 jobs. */
export const SearchJobsRequest = Type.Object({ jobs: JobRefs(50) });

/** Spec `JobStatusChangeActionDto`. */
export const JobStatusChangeAction = Type.Object({
  requestedStatus: JobStatus,
  notifyOwner: Type.Optional(Nullable(Type.Boolean())),
  propagateStatus: Type.Optional(Nullable(Type.Boolean())),
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
