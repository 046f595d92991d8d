import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { requireJob } from '../kernel/index.js';
import type { JobRow } from '../kernel/index.js';
import { jobRange } from '../job-structure/index.js';
import { lastWorkflowLevel, loadSegmentVersions } from '../job-structure/index.js';
import { workflowChangeRows } from './workflow-change-rows.js';
import type { ReportJob, ReportLevel } from './workflow-changes-html.js';

/**
 * Loads what the workflow changes report shows for each job the caller names: the job must be one
 * they see (requireJob 'view', so linguists: their own jobs), else 404 as for any job read.
 */

async function visibleJob(db: Kysely<DB>, caller: Caller, uid: string): Promise<JobRow> {
  const row = await db
    .selectFrom('jobs')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .select('projects.uid as projectUid')
    .where('jobs.uid', '=', uid)
    .where('jobs.organizationId', '=', caller.organizationId)
    .executeTakeFirst();
  if (!row) throw errors.ResourceNotFound({ what: 'Job' });
  return (await requireJob(db, caller, row.projectUid, uid, 'view')).job;
}

async function reportLevels(db: Kysely<DB>, projectId: string): Promise<ReportLevel[]> {
  const steps = await db
    .selectFrom('projectWorkflowSteps')
    .innerJoin('workflowSteps', 'workflowSteps.id', 'projectWorkflowSteps.workflowStepId')
    .select(['projectWorkflowSteps.workflowLevel', 'workflowSteps.name'])
    .where('projectWorkflowSteps.projectId', '=', projectId)
    .orderBy('projectWorkflowSteps.workflowLevel')
    .execute();
  const last = await lastWorkflowLevel(db, projectId);
  return Array.from({ length: last }, (_, i) => ({
    level: i + 1,
    stepName: steps.find((s) => Number(s.workflowLevel) === i + 1)?.name ?? null,
  }));
}

async function reportJob(db: Kysely<DB>, job: JobRow): Promise<ReportJob> {
  const projectId = job.projectId;
  const [source, project, levels] = await Promise.all([
    db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirstOrThrow(),
    db.selectFrom('projects').select(['name', 'sourceLang']).where('id', '=', projectId).executeTakeFirstOrThrow(),
    reportLevels(db, projectId),
  ]);
  const range = jobRange(job, source);
  const versions = await loadSegmentVersions(db, source, job.targetLang, range, levels.length);
  return {
    uid: job.uid,
    projectName: project.name,
    filename: source.filename,
    sourceLang: project.sourceLang,
    targetLang: job.targetLang,
    firstSegment: range.first + 1,
    lastSegment: Math.max(range.last + 1, range.first + 1),
    levels,
    rows: workflowChangeRows(versions),
  };
}

/** The report's jobs, in the order named (each job once). */
export async function workflowChangesReport(db: Kysely<DB>, caller: Caller, uids: readonly string[]): Promise<ReportJob[]> {
  const jobs: JobRow[] = [];
  for (const uid of new Set(uids)) jobs.push(await visibleJob(db, caller, uid));
  const report: ReportJob[] = [];
  for (const job of jobs) report.push(await reportJob(db, job));
  return report;
}
