import type { Kysely, Updateable } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { JobsTable } from '../../../db/tables/projects.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { ApiError, errors } from '../../../errors/index.js';
import { writeCustomFieldValues } from '../custom-field-instances/index.js';
import type { JobRow } from '../kernel/index.js';
import { findVisibleProject, jobStatusRefusal } from '../kernel/index.js';
import type { ProjectAccess } from '../kernel/index.js';
import { eventUser } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import { jobEventSummaries } from '../kernel/index.js';
import type { JobPartPatchBatch, JobPartPatchResult } from './job-operations.schemas.js';
import { organizationJobsByUid, projectUidOf } from './job-operations.repository.js';
import { resolveProviders, unknownProviders } from './provider-input.js';
import type { ResolvedProvider } from './provider-input.js';

/**
 * Bulk job edit, v3 (PATCH /api2/v3/jobs; description, "Behaviour of other operations" 11): up
 * to 100 jobs across projects get the same `status`, `dateDue`, `providers` and custom field
 * values. Input that is wrong for every job (an unknown provider, dateDue with clearDateDue) is a
 * 400 and changes nothing; after that each job is checked and written in a transaction of its
 * own, so one job's failure leaves the others updated, and each failure is reported by job.
 */

type JobError = JobPartPatchResult['errors'][number];

interface Changes {
  status: string | null;
  /** undefined: unchanged; null: cleared. */
  dateDue: string | null | undefined;
  providers: ResolvedProvider[] | null;
  customFields: NonNullable<JobPartPatchBatch['customFields']>;
}

export async function bulkEditJobs(deps: AppDeps, caller: Caller, body: JobPartPatchBatch): Promise<JobPartPatchResult> {
  const db = deps.database.db;
  const changes = await validatedChanges(db, caller, body);
  const uids = [...new Set(body.jobs.map((j) => j.uid))];
  const jobs = await organizationJobsByUid(db, caller.organizationId, uids);
  const projects = new Map<string, ProjectAccess | null>();
  const errors: JobError[] = [];
  let updated = 0;
  for (const uid of uids) {
    const job = jobs.get(uid);
    const refusal = job ? await editRefusal(db, caller, job, projects) : jobError('NOT_FOUND', uid, 'Job not found.');
    if (refusal) {
      errors.push(refusal);
      continue;
    }
    try {
      if (changes.status !== null) {
        const gate = await jobStatusRefusal(deps, db, job!, changes.status);
        if (gate) throw gate;
      }
      await db.transaction().execute((trx) => editJob(deps, trx, caller, job!, changes));
      updated++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      errors.push(jobError(error.errorCode, uid, error.message));
    }
  }
  deps.taskWakeup.notify();
  return { updated, errors };
}

/** `args.job.uid` names the job (ErrorDetailDtoV3.args values are objects). */
const jobError = (code: string, uid: string, message: string): JobError => ({
  code,
  message: `Job ${uid}: ${message}`,
  args: { job: { uid } },
});

async function validatedChanges(db: Kysely<DB>, caller: Caller, body: JobPartPatchBatch): Promise<Changes> {
  if (body.clearDateDue === true && body.dateDue)
    throw errors.InvalidArguments({
      reason: 'Give dateDue or clearDateDue, not both.',
      details: [{ field: 'clearDateDue', message: 'conflicts with dateDue' }],
    });
  let providers: ResolvedProvider[] | null = null;
  if (body.providers) {
    const { resolved, unknown } = await resolveProviders(db, caller.organizationId, body.providers);
    if (unknown.length) throw unknownProviders(unknown, 'providers');
    providers = resolved;
  }
  return {
    status: body.status ?? null,
    dateDue: body.clearDateDue === true ? null : (body.dateDue ?? undefined),
    providers,
    customFields: body.customFields ?? [],
  };
}

/** Why the caller may not edit `job` (its project not visible: not found, as if it did not exist), or null. */
async function editRefusal(
  db: Kysely<DB>,
  caller: Caller,
  job: JobRow,
  projects: Map<string, ProjectAccess | null>,
): Promise<JobError | null> {
  const projectId = job.projectId;
  if (!projects.has(projectId)) projects.set(projectId, await findVisibleProject(db, caller, await projectUidOf(db, projectId)));
  const access = projects.get(projectId);
  if (!access) return jobError('NOT_FOUND', job.uid, 'Job not found.');
  if (!access.permissions.has('edit')) return jobError('FORBIDDEN', job.uid, 'You may see this job but not change it.');
  return null;
}

async function editJob(deps: AppDeps, trx: Kysely<DB>, caller: Caller, job: JobRow, changes: Changes): Promise<void> {
  const now = deps.clock().toISOString();
  const events: WebhookEvent[] = [];
  const update: Updateable<JobsTable> = { lastModifiedAt: now, lastModifiedById: caller.userId };
  if (changes.status !== null && changes.status !== job.status) {
    update.status = changes.status;
    await trx
      .insertInto('jobStatusChanges')
      .values({ jobId: job.id, status: changes.status, changedAt: now, changedById: caller.userId })
      .execute();
    events.push('JOB_STATUS_CHANGED');
  }
  if (changes.dateDue !== undefined && !sameInstant(changes.dateDue, job.dateDue)) {
    update.dateDue = changes.dateDue === null ? null : new Date(changes.dateDue).toISOString();
    events.push('JOB_DUE_DATE_CHANGED');
  }
  // Assigning providers is JOB_ASSIGNED; taking them all away is an update of the job.
  if (changes.providers !== null && (await replaceProviders(trx, job.id, changes.providers)))
    events.push(changes.providers.length ? 'JOB_ASSIGNED' : 'JOB_UPDATED');
  if (changes.customFields.length) {
    await writeCustomFieldValues(
      deps,
      trx,
      caller,
      { kind: 'job', id: job.id, createdAt: job.createdAt },
      changes.customFields,
      'merge',
      'customFields',
    );
    if (!events.includes('JOB_UPDATED')) events.push('JOB_UPDATED');
  }
  await trx.updateTable('jobs').set(update).where('id', '=', job.id).execute();
  if (events.length === 0) return;
  const records = await jobEventSummaries(trx, [job]);
  const user = await eventUser(trx, caller);
  for (const event of events) await emitEvent(deps, trx, { organizationId: job.organizationId, event, records, user });
}

const sameInstant = (a: string | null, b: string | null) =>
  a === null || b === null ? a === b : new Date(a).getTime() === new Date(b).getTime();

/** Makes `providers` the job's providers; whether that changed anything. */
async function replaceProviders(trx: Kysely<DB>, jobId: string, providers: readonly ResolvedProvider[]): Promise<boolean> {
  const current = await trx.selectFrom('jobProviders').select(['userId', 'vendorId']).where('jobId', '=', jobId).orderBy('id').execute();
  const key = (p: { userId: unknown; vendorId: unknown }) => `${p.userId ?? ''}:${p.vendorId ?? ''}`;
  if (current.map(key).sort().join(',') === providers.map(key).sort().join(',')) return false;
  await trx.deleteFrom('jobProviders').where('jobId', '=', jobId).execute();
  for (const provider of providers)
    await trx
      .insertInto('jobProviders')
      .values({ jobId, ...provider })
      .execute();
  return true;
}
