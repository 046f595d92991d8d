import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { JobRow } from './access/job-access.js';

/**
 * The `jobParts` records of job events: each job's summary as the event previews show it
 * (src/domain/webhooks/events.ts: uid, innerId, status, targetLang, workflowLevel, filename,
 * dateDue, project), read inside the transaction of the change.
 */
export async function jobEventSummaries(db: Kysely<DB>, jobs: readonly Pick<JobRow, 'id'>[]) {
  if (jobs.length === 0) return [];
  const rows = await db
    .selectFrom('jobs')
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .select([
      'jobs.id',
      'jobs.uid',
      'jobSources.innerId',
      'jobs.status',
      'jobs.targetLang',
      'jobs.workflowLevel',
      'jobSources.filename',
      'jobs.dateDue',
      'projects.uid as projectUid',
      'projects.name as projectName',
    ])
    .where(
      'jobs.id',
      'in',
      jobs.map((j) => j.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return jobs
    .map((j) => byId.get(j.id))
    .filter((r) => r !== undefined)
    .map((r) => ({
      uid: r.uid,
      innerId: String(r.innerId),
      status: r.status,
      targetLang: r.targetLang,
      workflowLevel: Number(r.workflowLevel),
      filename: r.filename,
      dateDue: r.dateDue,
      project: { uid: r.projectUid, name: r.projectName },
    }));
}
