import type { Kysely } from 'kysely';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { asyncFailure } from '../../../errors/index.js';
import type { DB } from '../../../db/schema.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import { releaseStoredFiles } from '../../../storage/stored-files.js';
import { completeAsyncRequest } from '../../integration/async-requests/index.js';
import { importJobSource } from '../jobs/index.js';
import type { JobRow } from '../kernel/index.js';
import { jobEventRecords } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import { UPDATE_SOURCE_TASK } from './update-source.js';
import type { UpdateSourcePayload } from './update-source.js';

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'job.updateSource': UpdateSourcePayload;
  }
}
import { carryOverMap } from './update-rules.js';
import type { SegmentText } from './update-rules.js';

/**
 * updateSource, the worker side (docs/job-updates.md). Per old file: the new source is imported
 * with the import of createJob (`importJobSource`); then one transaction carries the jobs'
 * translations over to the new segments (same source, same tags), moves the jobs to the new
 * source, and removes the old file once no job uses it (the new file then takes its `innerId`).
 * A new file that cannot be imported is removed and the jobs stay as they were; the async request
 * carries the import's error.
 */

type Outcome = { errorCode: string; errorDesc: string } | null;

const INSERT_CHUNK = 500;

async function segmentTexts(db: Kysely<DB>, jobSourceId: string): Promise<SegmentText[]> {
  const rows = await db
    .selectFrom('sourceSegments')
    .select(['idx', 'source', 'tags'])
    .where('jobSourceId', '=', jobSourceId)
    .orderBy('idx')
    .execute();
  return rows.map((r) => ({ idx: Number(r.idx), source: r.source, tags: r.tags }));
}

async function userReference(db: Kysely<DB>, userId: string) {
  return (
    (await db.selectFrom('users').select(['uid', 'userName', 'firstName', 'lastName']).where('id', '=', userId).executeTakeFirst()) ?? null
  );
}

/** Replaces the job's translations by the ones `map` (new idx → old idx) carries over; true when the job had or now has any. */
async function carryTranslations(trx: Kysely<DB>, jobId: string, map: ReadonlyMap<number, number>): Promise<boolean> {
  const old = await trx.selectFrom('jobSegments').selectAll().where('jobId', '=', jobId).execute();
  if (old.length === 0) return false;
  const byIdx = new Map(old.map((row) => [Number(row.idx), row]));
  await trx.deleteFrom('jobSegments').where('jobId', '=', jobId).execute();
  const rows = [...map].flatMap(([newIdx, oldIdx]) => {
    const row = byIdx.get(oldIdx);
    return row
      ? [{ jobId, idx: newIdx, target: row.target, confirmed: row.confirmed, modifiedAt: row.modifiedAt, modifiedById: row.modifiedById }]
      : [];
  });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK)
    await trx
      .insertInto('jobSegments')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  return true;
}

async function emitJobs(deps: AppDeps, trx: Kysely<DB>, event: WebhookEvent, jobs: readonly JobRow[], userId: string): Promise<void> {
  if (jobs.length === 0) return;
  await emitEvent(deps, trx, {
    organizationId: jobs[0]!.organizationId,
    event,
    records: await jobEventRecords(trx, jobs),
    user: await userReference(trx, userId),
  });
}

/** Moves the group's jobs (those still on the old file) to the imported new file; returns the blobs to release. */
async function moveJobs(
  deps: AppDeps,
  group: UpdateSourcePayload['groups'][number],
  userId: string,
): Promise<{ outcome: Outcome; released: string[] }> {
  const db = deps.database.db;
  const [oldSegments, newSegments] = await Promise.all([segmentTexts(db, group.oldSourceId), segmentTexts(db, group.newSourceId)]);
  const map = carryOverMap(oldSegments, newSegments);
  const now = deps.clock().toISOString();
  return db.transaction().execute(async (trx) => {
    const jobs = await trx
      .selectFrom('jobs')
      .selectAll()
      .where('id', 'in', group.jobIds)
      .where('jobSourceId', '=', group.oldSourceId)
      .execute();
    // Deleted, split or moved by another update meanwhile: the update no longer applies.
    if (jobs.length === 0 || jobs.some((job) => job.beginIndex !== null || job.endIndex !== null)) {
      const newSource = await trx.selectFrom('jobSources').select('sha256').where('id', '=', group.newSourceId).executeTakeFirst();
      await trx.deleteFrom('jobSources').where('id', '=', group.newSourceId).execute();
      return {
        outcome: asyncFailure('JobsChanged', {}),
        released: newSource ? [newSource.sha256] : [],
      };
    }
    const targetsChanged: string[] = [];
    for (const job of jobs) if (await carryTranslations(trx, job.id, map)) targetsChanged.push(job.id);
    const jobIds = jobs.map((job) => job.id);
    await trx
      .updateTable('jobs')
      .set({ jobSourceId: group.newSourceId, lastModifiedAt: now, lastModifiedById: userId })
      .where('id', 'in', jobIds)
      .execute();
    const released = await dropOldSourceIfUnused(trx, group.oldSourceId, group.newSourceId);
    const moved = await trx.selectFrom('jobs').selectAll().where('id', 'in', jobIds).orderBy('id').execute();
    await emitJobs(deps, trx, 'JOB_UPDATED', moved, userId);
    await emitJobs(
      deps,
      trx,
      'JOB_TARGET_UPDATED',
      moved.filter((job) => targetsChanged.includes(job.id)),
      userId,
    );
    return { outcome: null, released };
  });
}

/** The old file goes when no job uses it any more; the new one then takes its number (innerId). */
async function dropOldSourceIfUnused(trx: Kysely<DB>, oldSourceId: string, newSourceId: string): Promise<string[]> {
  const stillUsed = await trx.selectFrom('jobs').select('id').where('jobSourceId', '=', oldSourceId).executeTakeFirst();
  if (stillUsed) return [];
  const old = await trx.selectFrom('jobSources').select(['innerId', 'sha256']).where('id', '=', oldSourceId).executeTakeFirstOrThrow();
  await trx.deleteFrom('jobSources').where('id', '=', oldSourceId).execute();
  await trx.updateTable('jobSources').set({ innerId: old.innerId }).where('id', '=', newSourceId).execute();
  return [old.sha256];
}

/** Removes a new source whose import failed: the jobs keep their file. */
async function dropFailedSource(deps: AppDeps, newSourceId: string): Promise<string[]> {
  const source = await deps.database.db.selectFrom('jobSources').select('sha256').where('id', '=', newSourceId).executeTakeFirst();
  if (!source) return [];
  await deps.database.db
    .deleteFrom('jobSources')
    .where('id', '=', newSourceId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.jobSourceId', '=', 'jobSources.id'))))
    .execute();
  return [source.sha256];
}

/** Imports and applies one group; a group already applied (its new source has the jobs) is left alone. */
async function applyGroup(
  deps: AppDeps,
  group: UpdateSourcePayload['groups'][number],
  userId: string,
  signal: AbortSignal,
): Promise<{ outcome: Outcome; released: string[] }> {
  const db = deps.database.db;
  const applied = await db.selectFrom('jobs').select('id').where('jobSourceId', '=', group.newSourceId).executeTakeFirst();
  if (applied) return { outcome: null, released: [] };
  const source = await db.selectFrom('jobSources').select('id').where('id', '=', group.newSourceId).executeTakeFirst();
  if (!source) return { outcome: asyncFailure('JobsChanged', { sourceRemoved: true }), released: [] };
  const imported = await importJobSource(deps, group.newSourceId, signal);
  if (imported) return { outcome: imported, released: await dropFailedSource(deps, group.newSourceId) };
  return moveJobs(deps, group, userId);
}

export async function runSourceUpdate(
  deps: AppDeps,
  payload: UpdateSourcePayload,
  signal: AbortSignal = new AbortController().signal,
): Promise<void> {
  let firstError: Outcome = null;
  const released: string[] = [];
  for (const group of payload.groups) {
    const result = await applyGroup(deps, group, payload.userId, signal);
    firstError ??= result.outcome;
    released.push(...result.released);
  }
  await completeAsyncRequest(deps, deps.database.db, payload.asyncRequestId, firstError ?? {});
  await releaseStoredFiles(deps, released);
  deps.taskWakeup.notify();
}

export const updateSourceTask: AppTaskHandler<typeof UPDATE_SOURCE_TASK> = {
  kind: UPDATE_SOURCE_TASK,
  maxAttempts: 3,
  run(context, payload) {
    return runSourceUpdate(context.deps, payload, context.signal);
  },
  async onFinalFailure(context, payload) {
    // The jobs keep their files; new sources never applied go (the worker records the error on the async request).
    const released: string[] = [];
    for (const group of payload.groups) released.push(...(await dropFailedSource(context.deps, group.newSourceId)));
    await releaseStoredFiles(context.deps, released);
  },
};
