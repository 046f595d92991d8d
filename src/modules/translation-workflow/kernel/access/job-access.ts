import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { compiledQuery } from '../../../../db/compiled-query.js';
import type { DB } from '../../../../db/schema.js';
import type { JobsTable } from '../../../../db/tables/projects.js';
import { errors } from '../../../../errors/index.js';
import type { Caller } from '../../../../http/access.js';
import { findVisibleProject } from './project-access.js';
import type { ProjectAccess, ProjectPermission } from './project-access.js';
import { grantedPermissions, reveals, viewingRelations } from './workflow-permissions.js';
import type { Permission, Relation, RuleSubject } from './workflow-permissions.js';

/**
 * Jobs as the caller may reach them: what the caller may do to the job's project, except that
 * linguists see (and move, and translate) only the jobs they are a provider of
 * (workflow-permissions.ts, "jobs").
 */

export type JobRow = Selectable<JobsTable>;
export type JobPermission = Permission<'job'>;

export interface JobAccess {
  readonly project: ProjectAccess;
  readonly job: JobRow;
  /** The caller is one of the job's providers (as a user). */
  readonly isProvider: boolean;
  /** What the caller may do to the job. */
  readonly permissions: ReadonlySet<JobPermission>;
}

const JOB_RELATIONS: { readonly [R in Relation<'job'>]: (project: ReadonlySet<ProjectPermission>, isProvider: boolean) => boolean } = {
  projectViewer: (project) => project.has('view'),
  projectEditor: (project) => project.has('edit'),
  projectDeleter: (project) => project.has('delete'),
  provider: (_project, isProvider) => isProvider,
};

/** What `subject` may do to a job, given what they may do to its project and whether they provide the job, by the table. */
export function jobPermissions(project: ReadonlySet<ProjectPermission>, isProvider: boolean, subject: RuleSubject): Set<JobPermission> {
  return grantedPermissions('job', subject, (relation) => JOB_RELATIONS[relation](project, isProvider));
}

type JobsEb = ExpressionBuilder<DB, 'jobs'>;

/**
 * A filter for `selectFrom('jobs')` within one project the caller sees, keeping the jobs the
 * table lets them see: every job where they see the project, only their own as a provider
 * otherwise (linguists).
 */
export function visibleJobsInProject(eb: JobsEb, caller: Caller) {
  const relations = viewingRelations('job', caller);
  if (relations.includes('projectViewer')) return eb.lit(true);
  if (!relations.includes('provider')) return eb.lit(false);
  return eb.exists(
    eb
      .selectFrom('jobProviders')
      .select('jobProviders.id')
      .whereRef('jobProviders.jobId', '=', 'jobs.id')
      .where('jobProviders.userId', '=', caller.userId),
  );
}

/** The job `uid` of a project the caller reached, with whether the caller provides it: one statement, compiled once. */
const JOB_QUERY = compiledQuery((db, p: { projectId: string; uid: string; userId: string }) =>
  db
    .selectFrom('jobs')
    .selectAll('jobs')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('jobProviders')
            .select('jobProviders.id')
            .whereRef('jobProviders.jobId', '=', 'jobs.id')
            .where('jobProviders.userId', '=', p.userId),
        )
        .as('callerIsProvider'),
    )
    .where('jobs.uid', '=', p.uid)
    .where('jobs.projectId', '=', p.projectId),
);

async function loadJob(db: Kysely<DB>, caller: Caller, projectId: string, jobUid: string) {
  const row = await JOB_QUERY.first(db, { projectId, uid: jobUid, userId: caller.userId });
  if (!row) return null;
  const { callerIsProvider, ...job } = row;
  return { job, isProvider: callerIsProvider === true || Number(callerIsProvider) === 1 };
}

/** The 403 of a job the caller sees but may not do `need` to. */
export function jobForbidden(need: JobPermission) {
  switch (need) {
    case 'setStatus':
      return errors.AccessDenied({ reason: 'Only the job’s providers and those who may edit the project change its status.' });
    case 'translate':
      return errors.AccessDenied({ reason: 'Only the job’s providers and those who may edit the project change its translations.' });
    case 'delete':
      return errors.AccessDenied({ reason: 'You may see this job but not delete it.' });
    default:
      return errors.AccessDenied({ reason: 'You may see this job but not change it.' });
  }
}

/** The job `jobUid` of `project` (already reached) as the caller may reach it, or null. */
export async function findVisibleJob(db: Kysely<DB>, caller: Caller, project: ProjectAccess, jobUid: string): Promise<JobAccess | null> {
  const loaded = await loadJob(db, caller, project.project.id, jobUid);
  if (!loaded) return null;
  const permissions = jobPermissions(project.permissions, loaded.isProvider, caller);
  return reveals('job', permissions) ? { project, job: loaded.job, isProvider: loaded.isProvider, permissions } : null;
}

/** A job of `project` for an operation that needs `need`: 404 when the caller cannot see it, 403 when they may not do this. */
export async function requireJobOf(
  db: Kysely<DB>,
  caller: Caller,
  project: ProjectAccess,
  jobUid: string,
  need: JobPermission = 'view',
): Promise<JobAccess> {
  const access = await findVisibleJob(db, caller, project, jobUid);
  if (!access) throw errors.ResourceNotFound({ what: 'Job' });
  if (!access.permissions.has(need)) throw jobForbidden(need);
  return access;
}

/**
 * The job `jobUid` of project `projectUid` for an operation that needs `need`: 404 when the caller
 * cannot see the project or the job (or the job is not in that project), 403 when they see it but
 * may not do this.
 */
export async function requireJob(
  db: Kysely<DB>,
  caller: Caller,
  projectUid: string,
  jobUid: string,
  need: JobPermission = 'view',
): Promise<JobAccess> {
  const project = await findVisibleProject(db, caller, projectUid);
  if (!project) throw errors.ResourceNotFound({ what: 'Project' });
  return requireJobOf(db, caller, project, jobUid, need);
}
