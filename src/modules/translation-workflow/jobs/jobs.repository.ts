import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { JobStatus } from '../../../domain/jobs/job-status.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import { visibleJobsInProject } from '../kernel/index.js';
import type { JobSourceRow, ProjectAccess } from '../kernel/index.js';
import type { JobRow } from '../kernel/index.js';

/** Queries of jobs within one project the caller already reached through the kernel. */

export interface JobListFilters {
  workflowLevel: number;
  statuses: JobStatus[];
  assignedUserId?: number;
  assignedVendorId?: number;
  /** Due at or before this instant (ISO). */
  dueBefore?: string;
  filename?: string;
  targetLang?: string;
  notReady?: boolean;
}

/** The jobs of the project the caller sees (the kernel's table: linguists only the ones they are a provider of). */
function visibleJobsOf(db: Kysely<DB>, caller: Caller, access: ProjectAccess) {
  return db
    .selectFrom('jobs')
    .where('jobs.projectId', '=', access.project.id)
    .where((eb) => visibleJobsInProject(eb, caller));
}

export async function listJobs(
  db: Kysely<DB>,
  caller: Caller,
  access: ProjectAccess,
  filters: JobListFilters,
  page: PageRequest,
  countOnly: boolean,
): Promise<{ rows: JobRow[]; total: number }> {
  let query = visibleJobsOf(db, caller, access)
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .where('jobs.workflowLevel', '=', filters.workflowLevel);
  if (filters.statuses.length) query = query.where('jobs.status', 'in', filters.statuses);
  if (filters.assignedUserId !== undefined) {
    const userId = String(filters.assignedUserId);
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('jobProviders')
          .select('jobProviders.id')
          .whereRef('jobProviders.jobId', '=', 'jobs.id')
          .where('jobProviders.userId', '=', userId),
      ),
    );
  }
  if (filters.assignedVendorId !== undefined) {
    const vendorId = String(filters.assignedVendorId);
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('jobProviders')
          .select('jobProviders.id')
          .whereRef('jobProviders.jobId', '=', 'jobs.id')
          .where('jobProviders.vendorId', '=', vendorId),
      ),
    );
  }
  if (filters.dueBefore !== undefined) query = query.where('jobs.dateDue', 'is not', null).where('jobs.dateDue', '<=', filters.dueBefore);
  if (filters.filename !== undefined) query = query.where('jobSources.filename', '=', filters.filename);
  if (filters.targetLang !== undefined) query = query.where('jobs.targetLang', '=', filters.targetLang);
  if (filters.notReady === true) query = query.where('jobSources.importStatus', '!=', 'OK');
  if (filters.notReady === false) query = query.where('jobSources.importStatus', '=', 'OK');

  const counted = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (countOnly) return { rows: [], total };
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll('jobs').orderBy('jobSources.innerId').orderBy('jobs.id').limit(limit).offset(offset).execute();
  return { rows, total };
}

/**
 * The jobs `uids` of the project, in the order given without repeats; 404 naming the uids that
 * are not jobs of the project the caller sees (all or none).
 */
export async function jobsByUids(db: Kysely<DB>, caller: Caller, access: ProjectAccess, uids: readonly string[]): Promise<JobRow[]> {
  const wanted = [...new Set(uids)];
  const rows = await visibleJobsOf(db, caller, access).selectAll('jobs').where('jobs.uid', 'in', wanted).execute();
  const byUid = new Map(rows.map((r) => [r.uid, r]));
  const missing = wanted.filter((uid) => !byUid.has(uid));
  if (missing.length) {
    throw errors.ResourceNotFound({ what: 'Job', uids: missing, field: 'jobs' });
  }
  return wanted.map((uid) => byUid.get(uid)!);
}

/**
 * The stored files that jobs hold themselves (target files, handover files), which their rows
 * let go of when the jobs are deleted: release them after the commit. Job sources' originals are
 * the caller's to collect, since a source outlives a job while other jobs still use it.
 */
export async function jobFileHashes(trx: Kysely<DB>, jobIds: readonly string[]): Promise<string[]> {
  if (jobIds.length === 0) return [];
  const targets = await trx.selectFrom('jobTargetFiles').select('sha256').where('jobId', 'in', jobIds).execute();
  const handovers = await trx.selectFrom('jobHandoverFiles').select('sha256').where('jobId', 'in', jobIds).execute();
  return [...targets, ...handovers].flatMap((f) => (f.sha256 === null ? [] : [f.sha256]));
}

/**
 * Deletes `jobs` and then every job source left without jobs (with its segments); returns the
 * sha256 of those sources' files and of the jobs' target files, to release after the commit.
 */
export async function deleteJobs(trx: Kysely<DB>, jobs: readonly JobRow[]): Promise<string[]> {
  if (jobs.length === 0) return [];
  const sourceIds = [...new Set(jobs.map((j) => j.jobSourceId))];
  const released = await jobFileHashes(
    trx,
    jobs.map((j) => j.id),
  );
  await trx
    .deleteFrom('jobs')
    .where(
      'id',
      'in',
      jobs.map((j) => j.id),
    )
    .execute();
  const orphaned = await trx
    .selectFrom('jobSources')
    .select(['id', 'sha256'])
    .where('id', 'in', sourceIds)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.jobSourceId', '=', 'jobSources.id'))))
    .execute();
  if (orphaned.length)
    await trx
      .deleteFrom('jobSources')
      .where(
        'id',
        'in',
        orphaned.map((s) => s.id),
      )
      .execute();
  return [...released, ...orphaned.map((s) => s.sha256)];
}

/** The file the job was made from. */
export async function sourceOf(db: Kysely<DB>, job: JobRow): Promise<JobSourceRow> {
  return db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
}

/** The job's status history, oldest first, each change with the user who made it (spec `JobPartStatusChangeDto`). */
export async function jobStatusChanges(db: Kysely<DB>, job: JobRow) {
  const rows = await db
    .selectFrom('jobStatusChanges')
    .leftJoin('users', 'users.id', 'jobStatusChanges.changedById')
    .select([
      'jobStatusChanges.status',
      'jobStatusChanges.changedAt',
      'users.id as userId',
      'users.uid',
      'users.userName',
      'users.firstName',
      'users.lastName',
      'users.email',
      'users.role',
    ])
    .where('jobStatusChanges.jobId', '=', job.id)
    .orderBy('jobStatusChanges.id')
    .execute();
  return rows.map((r) => ({
    status: r.status as JobStatus,
    changedDate: r.changedAt,
    changedBy:
      r.userId === null
        ? null
        : {
            id: r.userId,
            uid: r.uid!,
            userName: r.userName!,
            firstName: r.firstName!,
            lastName: r.lastName!,
            email: r.email!,
            role: r.role!,
          },
  }));
}

/** The project workflow step the job belongs to (spec `ProjectWorkflowStepDto`); 404 when the project has no workflow. */
export async function jobWorkflowStep(db: Kysely<DB>, job: JobRow) {
  if (job.projectWorkflowStepId === null) throw errors.ResourceNotFound({ what: 'Workflow step of the job (its project has no workflow)' });
  const step = await db
    .selectFrom('projectWorkflowSteps')
    .innerJoin('workflowSteps', 'workflowSteps.id', 'projectWorkflowSteps.workflowStepId')
    .select([
      'projectWorkflowSteps.id',
      'projectWorkflowSteps.workflowLevel',
      'projectWorkflowSteps.settings',
      'workflowSteps.id as stepId',
      'workflowSteps.uid',
      'workflowSteps.name',
      'workflowSteps.abbr',
    ])
    .where('projectWorkflowSteps.id', '=', job.projectWorkflowStepId)
    .executeTakeFirstOrThrow();
  const settings = JSON.parse(step.settings) as { lqaProfile?: { uid?: string } | null };
  return {
    id: Number(step.id),
    abbreviation: step.abbr,
    name: step.name,
    workflowLevel: Number(step.workflowLevel),
    workflowStep: { id: step.stepId, uid: step.uid },
    lqaProfileUid: settings.lqaProfile?.uid ?? null,
  };
}

/** The job of the same file, language and part one workflow level earlier (none on the first level). */
export async function findPreviousLevelJob(db: Kysely<DB>, job: JobRow): Promise<JobRow | undefined> {
  if (Number(job.workflowLevel) <= 1) return undefined;
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('jobSourceId', '=', job.jobSourceId)
    .where('targetLang', '=', job.targetLang)
    .where('workflowLevel', '=', Number(job.workflowLevel) - 1)
    .$if(job.beginIndex === null, (query) => query.where('beginIndex', 'is', null))
    .$if(job.beginIndex !== null, (query) => query.where('beginIndex', '=', job.beginIndex!))
    .orderBy('id')
    .executeTakeFirst();
}
