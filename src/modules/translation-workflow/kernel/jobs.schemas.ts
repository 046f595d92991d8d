import { Type } from 'typebox';
import type { Static } from 'typebox';
import { JOB_STATUSES } from '../../../domain/jobs/job-status.js';
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

/** Phrase's own examples send numbers and booleans as strings ("10", "true"); both forms are accepted. */
const LooseInteger = (options: { minimum: number; maximum: number }) =>
  Type.Union([Type.Integer(options), Type.String({ pattern: '^[0-9]{1,9}$' })]);

/** Spec `NotifyProviderDto`. */
export const NotifyProviderInput = Type.Object({
  organizationEmailTemplate: Type.Object({ id: Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 })]) }),
  notificationIntervalInMinutes: Type.Optional(Nullable(LooseInteger({ minimum: 0, maximum: 1440 }))),
});
export type NotifyProviderInput = Static<typeof NotifyProviderInput>;

const UidRef = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });
/** A body's list of jobs named by uid (`[{uid}]`), of 1 to `maxItems`. */
export const JobRefs = (maxItems: number) => Type.Array(UidRef, { minItems: 1, maxItems });
/** Spec `JobPartReadyReferences` (segmentsCount). */
export const JobPartReadyReferences = Type.Object({ jobs: JobRefs(100) });

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
/**
 * A job of JobListDto (the answer to createJob and to clone jobs): JobPartReference with the job's
 * `importStatus` (RUNNING until its file is imported), which clients poll on (issue 13).
 */
export const JobListItem = Type.Object({ ...JobPartReference.properties, importStatus: ImportStatus }, { title: 'JobPartReference' });
export const JobList = Type.Object(
  { unsupportedFiles: Type.Array(Type.String()), jobs: Type.Array(JobListItem), asyncRequest: Nullable(AsyncRequestReference) },
  { title: 'JobListDto' },
);
export const JobParts = Type.Object({ jobs: Type.Array(JobPartReference) }, { title: 'JobPartsDto' });
