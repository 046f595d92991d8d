import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { requireJobOf } from '../kernel/index.js';
import type { JobPermission, JobRow, ProjectAccess } from '../kernel/index.js';
import { jobEventRecords } from '../kernel/index.js';
import { eventUser } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import { jobImportStatus } from './job-content.repository.js';

/**
 * What the job content operations share (docs/job-content-and-handovers.md): finding the jobs a
 * caller may change, reading a job's segments, writing and removing translations, and the
 * JOB_TARGET_UPDATED event for the jobs whose translations changed.
 */

const INSERT_CHUNK = 500;

/**
 * The jobs of `project` that `uids` name (each once, in the order given), each one the caller may
 * do `need` to (`translate`: the editor's actions, open to those who may edit the project and to
 * the job's providers; `edit`: managers only) and whose file is imported; checked one by one, so
 * the first job that fails decides the answer.
 */
export async function contentJobs(
  db: Kysely<DB>,
  caller: Caller,
  project: ProjectAccess,
  uids: readonly string[],
  need: JobPermission,
): Promise<JobRow[]> {
  const jobs: JobRow[] = [];
  for (const uid of new Set(uids)) {
    const { job } = await requireJobOf(db, caller, project, uid, need);
    await assertImported(db, job);
    jobs.push(job);
  }
  return jobs;
}

/** 409 while the job's file is being imported (it has no segments yet), 400 when its import failed. */
export async function assertImported(db: Kysely<DB>, job: JobRow): Promise<void> {
  const importStatus = await jobImportStatus(db, job);
  if (importStatus === 'RUNNING') throw errors.JobImportNotFinished({ jobUid: job.uid });
  if (importStatus === 'ERROR') throw errors.JobImportFailed({ jobUid: job.uid });
}

export interface SourceSegment {
  idx: number;
  source: string;
  tags: string;
  key: string | null;
}

/** The source segments of the job's part of its file (split jobs: beginIndex..endIndex). */
export async function jobSourceSegments(db: Kysely<DB>, job: JobRow): Promise<SourceSegment[]> {
  let query = db.selectFrom('sourceSegments').select(['idx', 'source', 'tags', 'key']).where('jobSourceId', '=', job.jobSourceId);
  if (job.beginIndex !== null) query = query.where('idx', '>=', job.beginIndex);
  if (job.endIndex !== null) query = query.where('idx', '<=', job.endIndex);
  const rows = await query.orderBy('idx').execute();
  return rows.map((r) => ({ idx: Number(r.idx), source: r.source, tags: r.tags, key: r.key }));
}

/** The display tokens of a segment's stored tags (JSON array of InlineTag). */
export function tagTokensOf(tagsJson: string): string[] {
  try {
    const tags: unknown = JSON.parse(tagsJson);
    if (!Array.isArray(tags)) return [];
    return tags.map((t: { display?: unknown }) => t.display).filter((d): d is string => typeof d === 'string');
  } catch {
    return [];
  }
}

/**
 * Writes `targets` (segment index → text) into the job's segments that have no translation yet
 * (no row, or an empty target); existing translations stay. Returns how many were written.
 */
export async function fillUntranslated(
  trx: Kysely<DB>,
  job: JobRow,
  targets: ReadonlyMap<number, string>,
  userId: string,
  now: string,
): Promise<number> {
  const existing = await trx.selectFrom('jobSegments').select(['idx', 'target']).where('jobId', '=', job.id).execute();
  const translated = new Set(existing.filter((r) => r.target !== '').map((r) => Number(r.idx)));
  const empty = existing.filter((r) => r.target === '').map((r) => Number(r.idx));
  const wanted = [...targets].filter(([idx, text]) => !translated.has(idx) && text !== '');
  if (wanted.length === 0) return 0;
  if (empty.length) await trx.deleteFrom('jobSegments').where('jobId', '=', job.id).where('idx', 'in', empty).execute();
  for (let i = 0; i < wanted.length; i += INSERT_CHUNK) {
    const rows = wanted
      .slice(i, i + INSERT_CHUNK)
      .map(([idx, target]) => ({ jobId: job.id, idx, target, modifiedAt: now, modifiedById: userId }));
    await trx.insertInto('jobSegments').values(rows).execute();
  }
  return wanted.length;
}

/** Which translations to remove: confirmed only (true), unconfirmed only (false) or both (null). */
export interface TranslationSelection {
  confirmed: boolean | null;
}

/** Removes the job's translations that `selection` names; returns how many went. */
export async function removeTranslations(trx: Kysely<DB>, job: JobRow, selection: TranslationSelection): Promise<number> {
  let query = trx.deleteFrom('jobSegments').where('jobId', '=', job.id);
  if (selection.confirmed !== null) query = query.where('confirmed', '=', selection.confirmed);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** JOB_TARGET_UPDATED for the jobs whose translations changed, in the change's transaction. */
export async function emitTargetUpdated(deps: AppDeps, trx: Kysely<DB>, caller: Caller, changedJobIds: readonly string[]): Promise<void> {
  if (changedJobIds.length === 0) return;
  const event: WebhookEvent = 'JOB_TARGET_UPDATED';
  const jobs = await trx
    .selectFrom('jobs')
    .selectAll()
    .where('id', 'in', [...changedJobIds])
    .orderBy('id')
    .execute();
  await emitEvent(deps, trx, {
    organizationId: jobs[0]!.organizationId,
    event,
    records: await jobEventRecords(trx, jobs),
    user: await eventUser(trx, caller),
  });
}

/** Runs `change` for each job in one transaction and emits JOB_TARGET_UPDATED for the jobs it changed. */
export async function changeTargets(
  deps: AppDeps,
  caller: Caller,
  jobs: readonly JobRow[],
  change: (trx: Kysely<DB>, job: JobRow, now: string) => Promise<number>,
): Promise<void> {
  const now = deps.clock().toISOString();
  await deps.database.db.transaction().execute(async (trx) => {
    const changed: string[] = [];
    for (const job of jobs) {
      if ((await change(trx, job, now)) > 0) changed.push(job.id);
    }
    if (changed.length) {
      await trx.updateTable('jobs').set({ lastModifiedAt: now, lastModifiedById: caller.userId }).where('id', 'in', changed).execute();
    }
    await emitTargetUpdated(deps, trx, caller, changed);
  });
}
