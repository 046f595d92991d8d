import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';

/** The uid of the project of job `jobUid`, in whichever organization; the kernel then decides whether the caller sees it. */
export async function projectUidOfJob(db: Kysely<DB>, jobUid: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('jobs')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .select('projects.uid')
    .where('jobs.uid', '=', jobUid)
    .executeTakeFirst();
  return row?.uid;
}
