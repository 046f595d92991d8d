import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import type { JobRow } from '../kernel/index.js';

/** Queries of the operations across jobs: the jobs a request body names. */

/**
 * The jobs of project `projectId` that `uids` name (each once, in no particular order); 404 naming
 * the uids that are not jobs of the project, each reported on `field`.
 */
export async function namedProjectJobs(db: Kysely<DB>, projectId: string, uids: readonly string[], field: string): Promise<JobRow[]> {
  const wanted = [...new Set(uids)];
  const jobs = await db.selectFrom('jobs').selectAll().where('projectId', '=', projectId).where('uid', 'in', wanted).execute();
  const missing = wanted.filter((uid) => !jobs.some((j) => j.uid === uid));
  if (missing.length) throw errors.ResourceNotFound({ what: 'Job', uids: missing, field });
  return jobs;
}

/** The jobs of the organization that `uids` name, by uid (any project). */
export async function organizationJobsByUid(db: Kysely<DB>, organizationId: string, uids: readonly string[]): Promise<Map<string, JobRow>> {
  const jobs = await db
    .selectFrom('jobs')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('uid', 'in', [...uids])
    .execute();
  return new Map(jobs.map((j) => [j.uid, j]));
}

/** The uid of project `projectId`. */
export async function projectUidOf(db: Kysely<DB>, projectId: string): Promise<string> {
  const project = await db.selectFrom('projects').select('uid').where('id', '=', projectId).executeTakeFirstOrThrow();
  return project.uid;
}
