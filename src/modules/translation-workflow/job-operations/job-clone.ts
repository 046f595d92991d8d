import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { JobRow } from '../kernel/index.js';
import type { ProjectRow } from '../kernel/index.js';
import { eventUser } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import type { CloneJobsBody, CloneWorkflowSetting } from './job-operations.schemas.js';
import { jobEventSummaries } from '../kernel/index.js';
import { namedProjectJobs } from './job-operations.repository.js';
import { resolveProviders, unknownProviders } from './provider-input.js';
import type { ResolvedProvider } from './provider-input.js';

/**
 * Job clone (description, "Other operations": POST /api2/v1/projects/{projectUid}/jobs/clone;
 * docs/job-files-and-operations.md, "Clone"): a clone is a new job of the same uploaded file for
 * another target language of the project, one per workflow step, as job creation makes them.
 */

/**
 * Formats whose one file holds the texts of several target languages (Phrase's multilingual
 * Excel, CSV, XML and JSON). Jobs of such files are not cloned (description). OpenTMS imports
 * none of them yet: every format it reads holds one target language per job, so this list names
 * the filter names those importers will use.
 */
export const MULTILINGUAL_FORMATS: readonly string[] = ['multilingual-xlsx', 'multilingual-csv', 'multilingual-xml', 'multilingual-json'];

interface StepRow {
  id: string;
  workflowLevel: number;
}

interface StepPlan {
  step: StepRow | null;
  dateDue: string | null;
  notifyProvider: string | null;
  providers: ResolvedProvider[];
}

interface ClonePlan {
  source: JobRow;
  targetLang: string;
}

const NO_STEP = { step: null, dateDue: null, notifyProvider: null, providers: [] } satisfies StepPlan;

export async function cloneJobs(deps: AppDeps, caller: Caller, project: ProjectRow, body: CloneJobsBody): Promise<JobRow[]> {
  const db = deps.database.db;
  const projectId = project.id;
  const organizationId = project.organizationId;
  const targetLangs = (await db.selectFrom('projectTargetLanguages').select('targetLang').where('projectId', '=', projectId).execute()).map(
    (r) => r.targetLang,
  );
  if (targetLangs.length < 2) throw errors.CloneNeedsTargetLanguages();

  const plans = await clonePlans(db, project, body, new Set(targetLangs));
  const steps = await projectSteps(db, projectId);
  const stepPlans = await workflowStepPlans(db, organizationId, steps, body.workflowSettings ?? []);
  const newJobCount = plans.length * Math.max(stepPlans.length, 1);
  await assertJobCapacity(db, projectId, newJobCount, deps.config.projectJobLimit);

  const now = deps.clock().toISOString();
  const created = await db.transaction().execute(async (trx) => {
    const jobs: JobRow[] = [];
    for (const plan of plans) {
      const keepRange = body.keepSplit === true;
      for (const stepPlan of stepPlans.length ? stepPlans : [NO_STEP]) {
        jobs.push(await insertClone(trx, { plan, stepPlan, keepRange, now, callerId: caller.userId }));
      }
    }
    await emitEvent(deps, trx, {
      organizationId,
      event: 'JOB_CREATED',
      records: await jobEventSummaries(trx, jobs),
      user: await eventUser(trx, caller),
    });
    return jobs;
  });
  deps.taskWakeup.notify();
  return created;
}

/** The source jobs and target languages, validated: jobs of this project, project languages other than the job's own, no multilingual files. */
async function clonePlans(db: Kysely<DB>, project: ProjectRow, body: CloneJobsBody, projectLangs: Set<string>): Promise<ClonePlan[]> {
  const jobs = await namedProjectJobs(
    db,
    project.id,
    body.jobPartTargetLangs.map((entry) => entry.uid),
    'jobPartTargetLangs',
  );
  const byUid = new Map(jobs.map((job) => [job.uid, job]));
  await assertNotMultilingual(db, jobs);
  const plans: ClonePlan[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of body.jobPartTargetLangs.entries()) {
    const source = byUid.get(entry.uid)!;
    for (const targetLang of entry.targetLangs) {
      if (!projectLangs.has(targetLang))
        throw errors.InvalidArguments({
          reason: `"${targetLang}" is not a target language of the project.`,
          details: [{ field: `jobPartTargetLangs[${index}].targetLangs`, message: `${targetLang} is not a project target language` }],
        });
      if (targetLang === source.targetLang)
        throw errors.InvalidArguments({
          reason: `Job ${source.uid} is already in "${targetLang}": clone it to other target languages.`,
          details: [{ field: `jobPartTargetLangs[${index}].targetLangs`, message: `the job's own target language` }],
        });
      // Without keepSplit a clone spans the whole file, so two parts of one file make one clone.
      const range = body.keepSplit === true ? `${source.beginIndex}-${source.endIndex}` : 'whole';
      const key = `${source.jobSourceId}|${range}|${targetLang}`;
      if (seen.has(key)) continue;
      seen.add(key);
      plans.push({ source, targetLang });
    }
  }
  return plans;
}

async function assertNotMultilingual(db: Kysely<DB>, jobs: JobRow[]): Promise<void> {
  const sources = await db
    .selectFrom('jobSources')
    .select(['id', 'format'])
    .where(
      'id',
      'in',
      jobs.map((j) => j.jobSourceId),
    )
    .execute();
  const multilingual = new Set(sources.filter((s) => s.format !== null && MULTILINGUAL_FORMATS.includes(s.format)).map((s) => s.id));
  const refused = jobs.filter((job) => multilingual.has(job.jobSourceId));
  if (refused.length) {
    throw errors.MultilingualJobCannotBeCloned({ jobUids: refused.map((job) => job.uid) });
  }
}

async function projectSteps(db: Kysely<DB>, projectId: string): Promise<StepRow[]> {
  const rows = await db
    .selectFrom('projectWorkflowSteps')
    .select(['id', 'workflowLevel'])
    .where('projectId', '=', projectId)
    .orderBy('workflowLevel')
    .execute();
  return rows.map((r) => ({ id: r.id, workflowLevel: Number(r.workflowLevel) }));
}

/** The settings of each project workflow step for the clones; a setting for a step the project does not have is 400. */
async function workflowStepPlans(
  db: Kysely<DB>,
  organizationId: string,
  steps: StepRow[],
  settings: readonly CloneWorkflowSetting[],
): Promise<StepPlan[]> {
  const byStepId = new Map<string, CloneWorkflowSetting>();
  for (const [index, setting] of settings.entries()) {
    const id = String(setting.workflowStep.id);
    if (!steps.some((s) => s.id === id))
      throw errors.InvalidArguments({
        reason: `The project has no workflow step ${id}.`,
        details: [{ field: `workflowSettings[${index}].workflowStep.id`, message: 'not a workflow step of the project' }],
      });
    if (setting.linguist && setting.vendor)
      throw errors.InvalidArguments({
        reason: 'A workflow step gets a linguist or a vendor, not both.',
        details: [{ field: `workflowSettings[${index}]`, message: 'linguist and vendor are exclusive' }],
      });
    byStepId.set(id, setting);
  }
  const plans: StepPlan[] = [];
  for (const step of steps) {
    const setting = byStepId.get(step.id);
    const refs = setting?.linguist
      ? [{ type: 'USER' as const, ...setting.linguist }]
      : setting?.vendor
        ? [{ type: 'VENDOR' as const, ...setting.vendor }]
        : [];
    const { resolved, unknown } = await resolveProviders(db, organizationId, refs);
    if (unknown.length) throw unknownProviders(unknown, 'workflowSettings');
    if (setting?.notifyProvider) await assertEmailTemplate(db, organizationId, setting.notifyProvider.organizationEmailTemplate.id);
    plans.push({
      step,
      dateDue: setting?.due ? new Date(setting.due).toISOString() : null,
      notifyProvider: setting?.notifyProvider ? JSON.stringify(normalizedNotify(setting.notifyProvider)) : null,
      providers: resolved,
    });
  }
  return plans;
}

function normalizedNotify(notify: NonNullable<CloneWorkflowSetting['notifyProvider']>) {
  const interval = notify.notificationIntervalInMinutes;
  return {
    organizationEmailTemplate: { id: String(notify.organizationEmailTemplate.id) },
    notificationIntervalInMinutes: interval === null || interval === undefined ? null : Number(interval),
  };
}

async function assertEmailTemplate(db: Kysely<DB>, organizationId: string, id: string | number): Promise<void> {
  const found =
    /^\d{1,18}$/.test(String(id)) &&
    (await db
      .selectFrom('emailTemplates')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('id', '=', String(id))
      .executeTakeFirst());
  if (!found)
    throw errors.ReferenceNotFound({
      what: 'e-mail template',
      key: String(id),
      keyName: 'id',
      field: 'workflowSettings.notifyProvider.organizationEmailTemplate',
    });
}

/** 400 when the project would hold more than `limit` jobs. */
async function assertJobCapacity(db: Kysely<DB>, projectId: string, adding: number, limit: number): Promise<void> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('projectId', '=', projectId)
    .executeTakeFirstOrThrow();
  const existing = Number(row.n);
  if (existing + adding > limit) {
    throw errors.ProjectJobLimitExceeded({ existing, adding, limit });
  }
}

async function insertClone(
  trx: Kysely<DB>,
  input: { plan: ClonePlan; stepPlan: StepPlan; keepRange: boolean; now: string; callerId: string },
): Promise<JobRow> {
  const { plan, stepPlan, now } = input;
  const job = await trx
    .insertInto('jobs')
    .values({
      uid: newUid(),
      organizationId: plan.source.organizationId,
      projectId: plan.source.projectId,
      jobSourceId: plan.source.jobSourceId,
      projectWorkflowStepId: stepPlan.step?.id ?? null,
      workflowLevel: stepPlan.step?.workflowLevel ?? 1,
      targetLang: plan.targetLang,
      dateDue: stepPlan.dateDue,
      notifyProvider: stepPlan.notifyProvider,
      beginIndex: input.keepRange ? plan.source.beginIndex : null,
      endIndex: input.keepRange ? plan.source.endIndex : null,
      createdAt: now,
      createdById: input.callerId,
      lastModifiedAt: now,
      lastModifiedById: input.callerId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx.insertInto('jobStatusChanges').values({ jobId: job.id, status: 'NEW', changedAt: now, changedById: input.callerId }).execute();
  for (const provider of stepPlan.providers)
    await trx
      .insertInto('jobProviders')
      .values({ jobId: job.id, ...provider })
      .execute();
  return job;
}
