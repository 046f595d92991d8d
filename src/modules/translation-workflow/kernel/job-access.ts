import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { JobsTable } from '../../../db/tables/projects.js';
import type { Caller } from '../../../http/access.js';
import { forbidden, notFound } from '../../../errors/index.js';
import { requireProject } from './project-access.js';
import type { ProjectNeed } from './project-access.js';
import type { ProjectAccess } from './project-access.js';

/**
 * Who may see and change a job: the project's rules (project-access.ts) plus the job's providers.
 *
 * - Whoever may see the project sees its jobs, except linguists: they see the jobs they are a
 *   provider of, and no others (404).
 * - Editing a job (dates, providers, content) needs edit rights on the project.
 * - Changing a job's status is also open to the job's providers (the moves of
 *   src/domain/jobs/job-status.ts): `need = 'status'`.
 */
export type JobRow = Selectable<JobsTable>;
export type JobNeed = ProjectNeed | 'status';

export interface JobAccess {
  project: ProjectAccess;
  job: JobRow;
  /** The caller is one of the job's providers (as a user). */
  isProvider: boolean;
}

/** Whether `userId` is a provider of job `jobId`. */
export async function isJobProvider(db: Kysely<DB>, jobId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('jobProviders').select('id').where('jobId', '=', jobId).where('userId', '=', userId).executeTakeFirst();
  return row !== undefined;
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
  need: JobNeed = 'view',
): Promise<JobAccess> {
  const project = await requireProject(db, caller, projectUid, 'view');
  const job = await db
    .selectFrom('jobs')
    .selectAll()
    .where('uid', '=', jobUid)
    .where('projectId', '=', project.project.id)
    .executeTakeFirst();
  if (!job) throw notFound('Job');
  const isProvider = await isJobProvider(db, job.id, caller.userId);
  if (project.view === 'LINGUIST' && !isProvider) throw notFound('Job');
  if (need === 'status') {
    if (!project.canEdit && !isProvider) throw forbidden('Only the job’s providers and those who may edit the project change its status.');
  } else if (need === 'edit' && !project.canEdit) {
    throw forbidden('You may see this job but not change it.');
  } else if (need === 'delete' && !project.canDelete) {
    throw forbidden('You may see this job but not delete it.');
  }
  return { project, job, isProvider };
}
