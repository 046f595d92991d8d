import type { Kysely, Selectable } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { JobSourcesTable } from '../../../db/tables/projects.js';
import type { JobStatus } from '../../../domain/jobs/job-status.js';
import { toUserReference } from '../../identity/users/index.js';
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

const byId = <T>(rows: T[], key: (row: T) => unknown) => new Map(rows.map((row) => [String(key(row)), row]));
const distinct = (values: Iterable<unknown>) => [...new Set([...values].filter((v) => v !== null && v !== undefined).map(String))];
/** Kysely's `in` needs at least one value. */
const orNone = (ids: string[]) => (ids.length ? ids : ['-1']);

async function loadSteps(db: Kysely<DB>, projectStepIds: string[]): Promise<Map<string, StepInfo>> {
  const rows = await db
    .selectFrom('projectWorkflowSteps')
    .innerJoin('workflowSteps', 'workflowSteps.id', 'projectWorkflowSteps.workflowStepId')
    .select([
      'projectWorkflowSteps.id as projectStepId',
      'projectWorkflowSteps.workflowLevel',
      'workflowSteps.id as stepId',
      'workflowSteps.uid as stepUid',
      'workflowSteps.name',
      'workflowSteps.abbr',
      'workflowSteps.orderIndex',
      'workflowSteps.lqaEnabled',
    ])
    .where('projectWorkflowSteps.id', 'in', orNone(projectStepIds))
    .execute();
  return new Map(
    rows.map((r) => [
      r.projectStepId,
      {
        projectStepId: r.projectStepId,
        workflowLevel: Number(r.workflowLevel),
        stepId: r.stepId,
        stepUid: r.stepUid,
        name: r.name,
        abbr: r.abbr,
        order: Number(r.orderIndex),
        lqaEnabled: bool(r.lqaEnabled),
      },
    ]),
  );
}

async function loadProjects(db: Kysely<DB>, projectIds: string[]): Promise<Map<string, ProjectInfo>> {
  const rows = await db.selectFrom('projects').select(['id', 'uid', 'name', 'sourceLang']).where('id', 'in', orNone(projectIds)).execute();
  const levels = await db
    .selectFrom('projectWorkflowSteps')
    .select((eb) => ['projectId', eb.fn.max('workflowLevel').as('level')])
    .where('projectId', 'in', orNone(projectIds))
    .groupBy('projectId')
    .execute();
  const lastLevel = new Map(levels.map((l) => [l.projectId, Number(l.level)]));
  return new Map(
    rows.map((r) => [r.id, { uid: r.uid, name: r.name, sourceLang: r.sourceLang, lastWorkflowLevel: lastLevel.get(r.id) ?? 1 }]),
  );
}

/** Providers of each job: users first, then vendors, each in the order they were assigned. */
async function loadProviders(db: Kysely<DB>, jobIds: string[]): Promise<Map<string, ProviderReference[]>> {
  const rows = await db
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
    .where('jobProviders.jobId', 'in', orNone(jobIds))
    .orderBy('jobProviders.id')
    .execute();
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

async function loadUsers(db: Kysely<DB>, userIds: string[]): Promise<Map<string, UserReference>> {
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', orNone(userIds)).execute();
  return new Map(rows.map((u) => [u.id, toUserReference(u)]));
}

/** Loads everything the views of `jobs` need (a handful of queries, whatever their number). */
export async function loadJobViewContext(db: Kysely<DB>, jobs: readonly JobRow[]): Promise<JobViewContext> {
  const sources = await db
    .selectFrom('jobSources')
    .selectAll()
    .where('id', 'in', orNone(distinct(jobs.map((j) => j.jobSourceId))))
    .execute();
  const [steps, projects, providers, users] = await Promise.all([
    loadSteps(db, distinct(jobs.map((j) => j.projectWorkflowStepId))),
    loadProjects(db, distinct(jobs.map((j) => j.projectId))),
    loadProviders(db, distinct(jobs.map((j) => j.id))),
    loadUsers(db, distinct(jobs.map((j) => j.createdById))),
  ]);
  return { sources: byId(sources, (s) => s.id), steps, projects, providers, users };
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

/** The v1 (`JobPartReference`) or v2 (`JobPartReferenceV2`) views of `jobs`, in their order. */
export async function jobReferenceDtos(db: Kysely<DB>, jobs: readonly JobRow[], version: 'v1'): Promise<JobPartReference[]>;
export async function jobReferenceDtos(db: Kysely<DB>, jobs: readonly JobRow[], version: 'v2'): Promise<JobPartReferenceV2[]>;
export async function jobReferenceDtos(
  db: Kysely<DB>,
  jobs: readonly JobRow[],
  version: 'v1' | 'v2',
): Promise<JobPartReference[] | JobPartReferenceV2[]> {
  const context = await loadJobViewContext(db, jobs);
  return version === 'v1' ? jobs.map((job) => toJobPartReference(job, context)) : jobs.map((job) => toJobPartReferenceV2(job, context));
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
