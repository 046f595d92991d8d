import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import { suggestProviders } from '../job-operations/index.js';
import type { JobRow } from '../kernel/index.js';
import type { ProjectRow } from '../kernel/index.js';

/**
 * listProviders_3: suggested providers for a project (docs/split-compare-and-workflow-changes.md,
 * "Provider suggestions for a project"), scored by job-operations' suggestProviders.
 *
 * - With `jobs` in the body: those jobs of the project (404 naming the others).
 * - Without: the project's work, one job per target language and workflow step (what relevance
 *   compares); a project without jobs yet is scored on the jobs it would get, one per target
 *   language and workflow step, so suggestions can be asked before files are uploaded.
 */

/** The fields suggestProviders reads from a job: its target language and workflow step. */
type JobShape = Pick<JobRow, 'targetLang' | 'projectWorkflowStepId'>;

const shapeKey = (job: JobShape) => `${job.targetLang}|${job.projectWorkflowStepId ?? ''}`;

function distinctShapes(jobs: readonly JobShape[]): JobShape[] {
  const seen = new Map<string, JobShape>();
  for (const job of jobs)
    if (!seen.has(shapeKey(job))) seen.set(shapeKey(job), { targetLang: job.targetLang, projectWorkflowStepId: job.projectWorkflowStepId });
  return [...seen.values()];
}

/** The jobs a project without jobs would get: its target languages × its workflow steps. */
async function plannedJobShapes(db: Kysely<DB>, project: ProjectRow): Promise<JobShape[]> {
  const projectId = project.id;
  const [langs, steps] = await Promise.all([
    db.selectFrom('projectTargetLanguages').select('targetLang').where('projectId', '=', projectId).orderBy('position').execute(),
    db.selectFrom('projectWorkflowSteps').select('id').where('projectId', '=', projectId).orderBy('workflowLevel').execute(),
  ]);
  const stepIds = steps.length ? steps.map((s) => s.id) : [null];
  return langs.flatMap((l) => stepIds.map((id) => ({ targetLang: l.targetLang, projectWorkflowStepId: id })));
}

async function namedJobs(db: Kysely<DB>, project: ProjectRow, uids: readonly string[]): Promise<JobShape[]> {
  const wanted = [...new Set(uids)];
  const jobs = await db
    .selectFrom('jobs')
    .select(['uid', 'targetLang', 'projectWorkflowStepId'])
    .where('projectId', '=', project.id)
    .where('uid', 'in', wanted)
    .execute();
  const missing = wanted.filter((uid) => !jobs.some((j) => j.uid === uid));
  if (missing.length) throw errors.ResourceNotFound({ what: 'Job', uids: missing, field: 'jobs' });
  return jobs;
}

async function projectJobShapes(db: Kysely<DB>, project: ProjectRow): Promise<JobShape[]> {
  const jobs = await db
    .selectFrom('jobs')
    .select(['targetLang', 'projectWorkflowStepId'])
    .distinct()
    .where('projectId', '=', project.id)
    .execute();
  return jobs.length ? jobs : plannedJobShapes(db, project);
}

export async function suggestProjectProviders(
  db: Kysely<DB>,
  project: ProjectRow,
  jobUids: readonly string[] | undefined,
  limit: number | undefined,
) {
  const shapes = distinctShapes(jobUids?.length ? await namedJobs(db, project, jobUids) : await projectJobShapes(db, project));
  // suggestProviders reads only the target language and workflow step of each job.
  return suggestProviders(db, project, shapes as JobRow[], limit);
}
