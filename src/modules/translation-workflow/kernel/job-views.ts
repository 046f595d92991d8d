import type { Kysely, Selectable } from 'kysely';
import { compiledQuery } from '../../../db/compiled-query.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { JobSourcesTable } from '../../../db/tables/projects.js';
import type { JobStatus } from '../../../domain/jobs/job-status.js';
import type { UserReference } from '../../identity/users/index.js';
import type { JobRow } from './access/job-access.js';
import type { JobPartReferenceV2 } from './jobs.schemas.js';
import type { JobPartExtended, JobPartReference, ProviderReference } from './jobs.schemas.js';

/**
 * The published views of jobs, built in a few queries for any number of jobs:
 * `JobPartReference` (v1: createJob, batch edit), `JobPartReferenceV2` (listPartsV2) and
 * `JobPartExtendedDto` (get, edit, patch, search). Job files and job operations use them too.
 */

export type JobSourceRow = Selectable<JobSourcesTable>;

interface StepInfo {
  projectStepId: string;
  workflowLevel: number;
  stepId: string;
  stepUid: string;
  name: string;
  abbr: string;
  order: number;
  lqaEnabled: boolean;
}

interface ProjectInfo {
  uid: string;
  name: string;
  sourceLang: string;
  lastWorkflowLevel: number;
}

/** What the views of a set of jobs need besides the job rows, loaded once. */
export interface JobViewContext {
  sources: Map<string, JobSourceRow>;
  steps: Map<string, StepInfo>;
  projects: Map<string, ProjectInfo>;
  providers: Map<string, ProviderReference[]>;
  users: Map<string, UserReference>;
}

const distinct = (values: Iterable<unknown>) => [...new Set([...values].filter((v) => v !== null && v !== undefined).map(String))];
/** Kysely's `in` needs at least one value. */
const orNone = (ids: string[]) => (ids.length ? ids : ['-1']);

/** Each job's file, workflow step, project and creator: joined from the jobs themselves. */
function jobDetails(db: Kysely<DB>) {
  return db
    .selectFrom('jobs')
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .leftJoin('projectWorkflowSteps', 'projectWorkflowSteps.id', 'jobs.projectWorkflowStepId')
    .leftJoin('workflowSteps', 'workflowSteps.id', 'projectWorkflowSteps.workflowStepId')
    .leftJoin('users as creators', 'creators.id', 'jobs.createdById')
    .selectAll('jobSources')
    .select((eb) => [
      'projectWorkflowSteps.id as stepProjectStepId',
      'projectWorkflowSteps.workflowLevel as stepWorkflowLevel',
      'workflowSteps.id as stepId',
      'workflowSteps.uid as stepUid',
      'workflowSteps.name as stepName',
      'workflowSteps.abbr as stepAbbr',
      'workflowSteps.orderIndex as stepOrder',
      'workflowSteps.lqaEnabled as stepLqaEnabled',
      'projects.uid as projectUid',
      'projects.name as projectName',
      'projects.sourceLang as projectSourceLang',
      eb
        .selectFrom('projectWorkflowSteps as levels')
        .select((levels) => levels.fn.max('levels.workflowLevel').as('level'))
        .whereRef('levels.projectId', '=', 'projects.id')
        .as('projectLastWorkflowLevel'),
      'creators.id as creatorId',
      'creators.uid as creatorUid',
      'creators.userName as creatorUserName',
      'creators.firstName as creatorFirstName',
      'creators.lastName as creatorLastName',
      'creators.email as creatorEmail',
      'creators.role as creatorRole',
    ]);
}

/** One job's details (get job, the hot path): compiled once. */
const ONE_JOB_DETAILS = compiledQuery((db, p: { jobId: string }) => jobDetails(db).where('jobs.id', '=', p.jobId));

async function loadJobDetails(db: Kysely<DB>, jobIds: string[]) {
  if (jobIds.length === 1) return ONE_JOB_DETAILS.all(db, { jobId: jobIds[0]! });
  return jobDetails(db).where('jobs.id', 'in', orNone(jobIds)).execute();
}

/** The providers of jobs with what their references show. */
function jobProviders(db: Kysely<DB>) {
  return db
    .selectFrom('jobProviders')
    .leftJoin('users', 'users.id', 'jobProviders.userId')
    .leftJoin('vendors', 'vendors.id', 'jobProviders.vendorId')
    .leftJoin('organizations', 'organizations.id', 'vendors.vendorOrganizationId')
    .select([
      'jobProviders.jobId',
      'jobProviders.userId',
      'jobProviders.vendorId',
      'users.uid as userUid',
      'users.userName',
      'users.firstName',
      'users.lastName',
      'users.email',
      'users.active',
      'vendors.uid as vendorUid',
      'organizations.name as vendorName',
    ])
    .orderBy('jobProviders.id');
}

/** One job's providers (get job, the hot path): compiled once. */
const ONE_JOB_PROVIDERS = compiledQuery((db, p: { jobId: string }) => jobProviders(db).where('jobProviders.jobId', '=', p.jobId));

/** Providers of each job: users first, then vendors, each in the order they were assigned. */
async function loadProviders(db: Kysely<DB>, jobIds: string[]): Promise<Map<string, ProviderReference[]>> {
  const rows =
    jobIds.length === 1
      ? await ONE_JOB_PROVIDERS.all(db, { jobId: jobIds[0]! })
      : await jobProviders(db).where('jobProviders.jobId', 'in', orNone(jobIds)).execute();
  const result = new Map<string, ProviderReference[]>();
  for (const r of rows) {
    const provider: ProviderReference =
      r.userId !== null
        ? {
            type: 'USER',
            id: r.userId,
            uid: r.userUid ?? '',
            userName: r.userName ?? '',
            firstName: r.firstName ?? '',
            lastName: r.lastName ?? '',
            email: r.email ?? '',
            active: bool(r.active),
          }
        : { type: 'VENDOR', id: String(r.vendorId), uid: r.vendorUid ?? '', name: r.vendorName ?? '' };
    const list = result.get(r.jobId) ?? [];
    list.push(provider);
    result.set(r.jobId, list);
  }
  for (const list of result.values()) list.sort((a, b) => (a.type === b.type ? 0 : a.type === 'USER' ? -1 : 1));
  return result;
}

/** Loads everything the views of `jobs` need: two queries, whatever their number. */
export async function loadJobViewContext(db: Kysely<DB>, jobs: readonly JobRow[]): Promise<JobViewContext> {
  const jobIds = distinct(jobs.map((j) => j.id));
  const [details, providers] = await Promise.all([loadJobDetails(db, jobIds), loadProviders(db, jobIds)]);
  const context: JobViewContext = { sources: new Map(), steps: new Map(), projects: new Map(), providers, users: new Map() };
  for (const row of details) {
    const {
      stepProjectStepId,
      stepWorkflowLevel,
      stepId,
      stepUid,
      stepName,
      stepAbbr,
      stepOrder,
      stepLqaEnabled,
      projectUid,
      projectName,
      projectSourceLang,
      projectLastWorkflowLevel,
      creatorId,
      creatorUid,
      creatorUserName,
      creatorFirstName,
      creatorLastName,
      creatorEmail,
      creatorRole,
      ...source
    } = row;
    context.sources.set(source.id, source);
    if (stepProjectStepId !== null && stepId !== null) {
      context.steps.set(stepProjectStepId, {
        projectStepId: stepProjectStepId,
        workflowLevel: Number(stepWorkflowLevel),
        stepId,
        stepUid: stepUid!,
        name: stepName!,
        abbr: stepAbbr!,
        order: Number(stepOrder),
        lqaEnabled: bool(stepLqaEnabled),
      });
    }
    context.projects.set(source.projectId, {
      uid: projectUid,
      name: projectName,
      sourceLang: projectSourceLang,
      lastWorkflowLevel: projectLastWorkflowLevel === null ? 1 : Number(projectLastWorkflowLevel),
    });
    if (creatorId !== null) {
      context.users.set(creatorId, {
        id: creatorId,
        uid: creatorUid!,
        userName: creatorUserName!,
        firstName: creatorFirstName!,
        lastName: creatorLastName!,
        email: creatorEmail!,
        role: creatorRole!,
      });
    }
  }
  return context;
}

function sourceOf(context: JobViewContext, job: JobRow): JobSourceRow {
  const source = context.sources.get(job.jobSourceId);
  if (!source) throw new Error(`job ${job.uid} has no source row`);
  return source;
}

function notifySettings(job: JobRow): { template: { id: string } | null; interval: number | null } {
  if (!job.notifyProvider) return { template: null, interval: null };
  const parsed = JSON.parse(job.notifyProvider) as {
    organizationEmailTemplate?: { id: string };
    notificationIntervalInMinutes?: number | null;
  };
  return {
    template: parsed.organizationEmailTemplate ? { id: parsed.organizationEmailTemplate.id } : null,
    interval: parsed.notificationIntervalInMinutes ?? null,
  };
}

const importStatusOf = (source: JobSourceRow) => ({ status: source.importStatus, errorMessage: source.importError });
const projectStepReference = (step: StepInfo | undefined) =>
  step ? { name: step.name, id: step.projectStepId, order: step.order, workflowLevel: step.workflowLevel } : null;

export function toJobPartReference(job: JobRow, context: JobViewContext): JobPartReference {
  const source = sourceOf(context, job);
  const step = job.projectWorkflowStepId === null ? undefined : context.steps.get(job.projectWorkflowStepId);
  const notify = notifySettings(job);
  return {
    uid: job.uid,
    status: job.status as JobStatus,
    providers: context.providers.get(job.id) ?? [],
    targetLang: job.targetLang,
    workflowLevel: Number(job.workflowLevel),
    workflowStep: step ? { name: step.name, id: step.stepId, uid: step.stepUid, order: step.order, lqaEnabled: step.lqaEnabled } : null,
    filename: source.filename,
    dateDue: job.dateDue,
    dateCreated: job.createdAt,
    updateSourceDate: null,
    imported: source.importStatus === 'OK',
    jobAssignedEmailTemplate: notify.template,
    notificationIntervalInMinutes: notify.interval,
    continuous: false,
    sourceFileUid: source.uid,
  };
}

export function toJobPartReferenceV2(job: JobRow, context: JobViewContext): JobPartReferenceV2 {
  const source = sourceOf(context, job);
  return {
    uid: job.uid,
    innerId: String(source.innerId),
    status: job.status as JobStatus,
    providers: context.providers.get(job.id) ?? [],
    targetLang: job.targetLang,
    workflowStep: projectStepReference(job.projectWorkflowStepId === null ? undefined : context.steps.get(job.projectWorkflowStepId)),
    filename: source.filename,
    originalFileDirectory: source.directory,
    dateDue: job.dateDue,
    dateCreated: job.createdAt,
    importStatus: importStatusOf(source),
    continuous: false,
    sourceFileUid: source.uid,
    split: job.beginIndex !== null,
    serverTaskId: null,
    owner: job.createdById === null ? null : (context.users.get(job.createdById) ?? null),
    remoteFile: null,
    imported: source.importStatus === 'OK',
  };
}

export function toJobPartExtended(job: JobRow, context: JobViewContext, wordsCount?: number): JobPartExtended {
  const source = sourceOf(context, job);
  const project = context.projects.get(job.projectId)!;
  const imported = source.importStatus === 'OK';
  return {
    uid: job.uid,
    innerId: String(source.innerId),
    status: job.status as JobStatus,
    providers: context.providers.get(job.id) ?? [],
    sourceLang: project.sourceLang,
    targetLang: job.targetLang,
    workflowLevel: Number(job.workflowLevel),
    workflowStep: projectStepReference(job.projectWorkflowStepId === null ? undefined : context.steps.get(job.projectWorkflowStepId)),
    filename: source.filename,
    dateDue: job.dateDue,
    wordsCount: wordsCount ?? Number(source.wordCount),
    // A whole-file job spans every segment of its file (Phrase shows 0 and count - 1).
    beginIndex: job.beginIndex ?? (imported ? 0 : null),
    endIndex: job.endIndex ?? (imported ? Math.max(Number(source.segmentCount) - 1, 0) : null),
    // A part of a split job covers a range of its file's segments (docs/split-compare-and-workflow-changes.md).
    isParentJobSplit: job.beginIndex !== null,
    updateSourceDate: null,
    updateTargetDate: null,
    dateCreated: job.createdAt,
    jobReference: { uid: job.uid, filename: source.filename },
    project: { uid: project.uid, name: project.name },
    lastWorkflowLevel: project.lastWorkflowLevel,
    workUnit: null,
    importStatus: importStatusOf(source),
    imported,
    continuous: false,
    continuousJobInfo: null,
    originalFileDirectory: source.directory,
  };
}

/**
 * The v1 (`JobPartReference`) or v2 (`JobPartReferenceV2`) views of `jobs`, in their order. The v1
 * view carries the job's `importStatus` too: the answer to createJob (JobListDto) shows it (issue
 * 13), and responses declaring the plain JobPartReference leave it out when they are serialized.
 */
export async function jobReferenceDtos(
  db: Kysely<DB>,
  jobs: readonly JobRow[],
  version: 'v1',
): Promise<Array<JobPartReference & { importStatus: { status: string; errorMessage: string | null } }>>;
export async function jobReferenceDtos(db: Kysely<DB>, jobs: readonly JobRow[], version: 'v2'): Promise<JobPartReferenceV2[]>;
export async function jobReferenceDtos(
  db: Kysely<DB>,
  jobs: readonly JobRow[],
  version: 'v1' | 'v2',
): Promise<JobPartReference[] | JobPartReferenceV2[]> {
  const context = await loadJobViewContext(db, jobs);
  return version === 'v1'
    ? jobs.map((job) => ({ ...toJobPartReference(job, context), importStatus: importStatusOf(sourceOf(context, job)) }))
    : jobs.map((job) => toJobPartReferenceV2(job, context));
}

/** Sum of the words of a split job's part of its file; whole-file jobs use the file's total. */
async function splitJobWords(db: Kysely<DB>, job: JobRow): Promise<number | undefined> {
  if (job.beginIndex === null || job.endIndex === null) return undefined;
  const row = await db
    .selectFrom('sourceSegments')
    .select((eb) => eb.fn.sum<number>('words').as('words'))
    .where('jobSourceId', '=', job.jobSourceId)
    .where('idx', '>=', job.beginIndex)
    .where('idx', '<=', job.endIndex)
    .executeTakeFirst();
  return Math.round(Number(row?.words ?? 0));
}

/** The `JobPartExtendedDto` views of `jobs`, in their order. */
export async function jobExtendedDtos(db: Kysely<DB>, jobs: readonly JobRow[]): Promise<JobPartExtended[]> {
  const context = await loadJobViewContext(db, jobs);
  const result: JobPartExtended[] = [];
  for (const job of jobs) result.push(toJobPartExtended(job, context, await splitJobWords(db, job)));
  return result;
}

/**
 * The records of job webhook events (`jobParts`): the v1 view plus `innerId` and `project`, as
 * Phrase's job events carry them.
 */
export async function jobEventRecords(
  db: Kysely<DB>,
  jobs: readonly JobRow[],
): Promise<Array<JobPartReference & { innerId: string; project: { uid: string; name: string } }>> {
  const context = await loadJobViewContext(db, jobs);
  return jobs.map((job) => {
    const project = context.projects.get(job.projectId)!;
    return {
      ...toJobPartReference(job, context),
      innerId: String(sourceOf(context, job).innerId),
      project: { uid: project.uid, name: project.name },
    };
  });
}
