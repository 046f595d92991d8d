import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import { statusMoveRefusal } from '../../../domain/jobs/job-status.js';
import type { JobActor, JobStatus } from '../../../domain/jobs/job-status.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { releaseStoredFiles } from '../../../storage/stored-files.js';
import { deleteJobs } from './jobs.repository.js';
import { eventUser } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import type { JobAccess, JobRow, ProjectAccess } from '../kernel/index.js';
import { currentProviders, providerSetKey, replaceJobProviders, resolveProviders } from '../kernel/index.js';
import type { ResolvedProvider } from '../kernel/index.js';
import { jobEventRecords, jobStatusRefusal } from '../kernel/index.js';
import type { JobChanges } from './jobs.schemas.js';

/**
 * Changing jobs: edit (PUT), patch (PATCH), batch edit, and status moves. A field left out keeps
 * its value, null clears it (dateDue, providers); PUT differs from PATCH only in that it needs
 * `status`. Each change writes its history row and event in the same transaction:
 * JOB_STATUS_CHANGED, JOB_DUE_DATE_CHANGED, JOB_ASSIGNED (providers changed to a non-empty set),
 * and JOB_UPDATED for any change. Deleting jobs emits JOB_DELETED.
 */

/** A job change with its providers already resolved (so a bad provider changes nothing). */
export interface ResolvedChanges {
  status?: JobStatus;
  dateDue?: string | null;
  providers?: ResolvedProvider[];
}

export async function resolveChanges(db: Kysely<DB>, organizationId: string, changes: JobChanges): Promise<ResolvedChanges> {
  const resolved: ResolvedChanges = {};
  if (changes.status !== undefined && changes.status !== null) resolved.status = changes.status;
  if (changes.dateDue !== undefined) resolved.dateDue = changes.dateDue;
  if (changes.providers !== undefined) resolved.providers = await resolveProviders(db, organizationId, 'providers', changes.providers);
  return resolved;
}

async function recordStatus(trx: Kysely<DB>, jobId: string, status: string, now: string, by: string): Promise<void> {
  await trx.insertInto('jobStatusChanges').values({ jobId, status, changedAt: now, changedById: by }).execute();
}

/** Applies `changes` to `job` in `trx`; returns the events the change causes. */
async function changeJob(trx: Kysely<DB>, caller: Caller, job: JobRow, changes: ResolvedChanges, now: string): Promise<WebhookEvent[]> {
  const events: WebhookEvent[] = [];
  const set: { status?: string; dateDue?: string | null } = {};
  if (changes.status !== undefined && changes.status !== job.status) {
    set.status = changes.status;
    await recordStatus(trx, job.id, changes.status, now, caller.userId);
    events.push('JOB_STATUS_CHANGED');
  }
  if (changes.dateDue !== undefined && !sameInstant(changes.dateDue, job.dateDue)) {
    set.dateDue = changes.dateDue === null ? null : new Date(changes.dateDue).toISOString();
    events.push('JOB_DUE_DATE_CHANGED');
  }
  if (changes.providers !== undefined) {
    const before = await currentProviders(trx, job.id);
    if (providerSetKey(before) !== providerSetKey(changes.providers)) {
      await replaceJobProviders(trx, job.id, changes.providers);
      if (changes.providers.length) events.push('JOB_ASSIGNED');
      else events.push('JOB_UPDATED');
    }
  }
  if (events.length === 0) return [];
  await trx
    .updateTable('jobs')
    .set({ ...set, lastModifiedAt: now, lastModifiedById: caller.userId })
    .where('id', '=', job.id)
    .execute();
  if (!events.includes('JOB_UPDATED')) events.push('JOB_UPDATED');
  return events;
}

function sameInstant(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return new Date(a).getTime() === new Date(b).getTime();
}

/** Emits each event once for all the jobs it concerns. */
async function emitJobEvents(deps: AppDeps, trx: Kysely<DB>, caller: Caller, byEvent: Map<WebhookEvent, string[]>): Promise<void> {
  if (byEvent.size === 0) return;
  const user = await eventUser(trx, caller);
  for (const [event, jobIds] of byEvent) {
    const jobs = await trx.selectFrom('jobs').selectAll().where('id', 'in', jobIds).orderBy('id').execute();
    await emitEvent(deps, trx, { organizationId: jobs[0]!.organizationId, event, records: await jobEventRecords(trx, jobs), user });
  }
}

/** Applies the same `changes` to every job of `jobs` in one transaction; returns the jobs as they are afterwards. */
export async function editJobs(deps: AppDeps, caller: Caller, jobs: readonly JobRow[], changes: ResolvedChanges): Promise<JobRow[]> {
  if (changes.status !== undefined)
    for (const job of jobs) {
      const refusal = await jobStatusRefusal(deps, deps.database.db, job, changes.status);
      if (refusal) throw refusal;
    }
  const now = deps.clock().toISOString();
  const result = await deps.database.db.transaction().execute(async (trx) => {
    const byEvent = new Map<WebhookEvent, string[]>();
    for (const job of jobs) {
      for (const event of await changeJob(trx, caller, job, changes, now)) byEvent.set(event, [...(byEvent.get(event) ?? []), job.id]);
    }
    await emitJobEvents(deps, trx, caller, byEvent);
    if (jobs.length === 0) return [];
    const rows = await trx
      .selectFrom('jobs')
      .selectAll()
      .where(
        'id',
        'in',
        jobs.map((j) => j.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return jobs.map((j) => byId.get(j.id)!);
  });
  deps.taskWakeup.notify();
  return result;
}

function actorOf(access: JobAccess): JobActor {
  if (access.permissions.has('edit')) return 'MANAGER';
  return access.isProvider ? 'PROVIDER' : 'OTHER';
}

/**
 * setStatus: managers set any status (even the current one, which is recorded again); providers
 * move along their part of the life cycle (src/domain/jobs/job-status.ts).
 */
export async function setJobStatus(deps: AppDeps, caller: Caller, access: JobAccess, requested: JobStatus): Promise<void> {
  const refusal = statusMoveRefusal(actorOf(access), access.job.status as JobStatus, requested, {
    mayRejectJobs: caller.settings?.rights['mayRejectJobs'] ?? false,
  });
  if (refusal === 'REJECT_RIGHT_MISSING') throw errors.AccessDenied({ reason: 'Rejecting jobs needs the "may reject jobs" right.' });
  if (refusal === 'UNCHANGED') throw errors.JobStatusUnchanged({ status: requested });
  if (refusal !== null) throw errors.JobStatusChangeNotAllowed({ from: access.job.status, to: requested });
  const gate = await jobStatusRefusal(deps, deps.database.db, access.job, requested);
  if (gate) throw gate;
  const now = deps.clock().toISOString();
  await deps.database.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('jobs')
      .set({ status: requested, lastModifiedAt: now, lastModifiedById: caller.userId })
      .where('id', '=', access.job.id)
      .execute();
    await recordStatus(trx, access.job.id, requested, now, caller.userId);
    await emitJobEvents(deps, trx, caller, new Map([['JOB_STATUS_CHANGED', [access.job.id]]]));
  });
  deps.taskWakeup.notify();
}

/**
 * Deletes `jobs` of the project for good, with the files left without jobs, in one transaction
 * that emits JOB_DELETED (its records built before the jobs go); their stored bytes are released
 * after the commit.
 */
export async function deleteJobsOf(deps: AppDeps, caller: Caller, access: ProjectAccess, jobs: readonly JobRow[]): Promise<void> {
  const released = await deps.database.db.transaction().execute(async (trx) => {
    const records = await jobEventRecords(trx, jobs);
    const sha256s = await deleteJobs(trx, jobs);
    await emitEvent(deps, trx, {
      organizationId: access.project.organizationId,
      event: 'JOB_DELETED',
      records,
      user: await eventUser(trx, caller),
    });
    return sha256s;
  });
  deps.taskWakeup.notify();
  await releaseStoredFiles(deps, released);
}
