import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { WarningType } from '../../../domain/quality-assurance/types.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import { writeConfirmedToTransMemories } from '../job-trans-memories/index.js';
import { eventUser, jobEventRecords, requireJobOf } from '../kernel/index.js';
import type { JobAccess, ProjectAccess } from '../kernel/index.js';
import { loadQaSegments, qaJobOf, segmentIndexOf } from './qa-segments.js';
import type { QaJob } from './qa-segments.js';
import { currentWarningId, lastQaRun } from './qa-runs.service.js';
import { targetHash } from './qa-run.thread.js';

/**
 * Ignored warnings and ignored checks (docs/qa-runs-and-warnings.md, "Ignoring"), and saving a
 * segment's target for runQaAndSaveV4.
 */

export interface IgnoredWarningsBody {
  jobParts: { jobPartUid: string; segments: { uid: string; warnings: { id: string }[] }[] }[];
}

/** The job of a jobParts entry, which the caller must be allowed to translate (linguists: their own jobs). */
async function jobOfPart(db: Kysely<DB>, caller: Caller, project: ProjectAccess, uid: string, fixed: JobAccess | null): Promise<QaJob> {
  if (fixed && uid !== fixed.job.uid)
    throw errors.InvalidArguments({
      reason: `jobParts may name only the job of the path (${fixed.job.uid}); ${uid} is another.`,
      details: [{ field: 'jobParts.jobPartUid', message: 'not the job of the path' }],
    });
  const access = fixed ?? (await requireJobOf(db, caller, project, uid, 'translate'));
  return qaJobOf(db, project.project, access.job);
}

function unknownSegment(qa: QaJob, uid: string): never {
  throw errors.InvalidArguments({
    reason: `Segment ${uid} is not a segment of job ${qa.job.uid}.`,
    details: [{ field: 'jobParts.segments.uid', message: 'not a segment of the job', segment: uid }],
  });
}

interface Resolved {
  qa: QaJob;
  segments: { uid: string; idx: number; warningIds: string[] }[];
}

async function resolveParts(db: Kysely<DB>, caller: Caller, project: ProjectAccess, body: IgnoredWarningsBody, fixed: JobAccess | null) {
  const resolved: Resolved[] = [];
  for (const part of body.jobParts) {
    const qa = await jobOfPart(db, caller, project, part.jobPartUid, fixed);
    resolved.push({
      qa,
      segments: part.segments.map((s) => {
        const idx = segmentIndexOf(qa, s.uid);
        if (idx === null) unknownSegment(qa, s.uid);
        return { uid: s.uid, idx, warningIds: s.warnings.map((w) => w.id) };
      }),
    });
  }
  return resolved;
}

/**
 * addIgnoredWarnings: every warning must be a warning of the job's last run on the segment's
 * current target, and ignorable; otherwise a 400 naming it, and nothing is stored.
 */
export async function addIgnoredWarnings(
  deps: AppDeps,
  caller: Caller,
  project: ProjectAccess,
  body: IgnoredWarningsBody,
  fixed: JobAccess | null,
) {
  const db = deps.database.db;
  const parts = await resolveParts(db, caller, project, body, fixed);
  const rows: { jobId: string; warningId: string; segmentIdx: number }[] = [];
  for (const { qa, segments } of parts) {
    const last = await lastQaRun(db, qa.job.id);
    const current = new Map(
      (await loadQaSegments(db, qa, { only: segments.map((s) => s.idx), terms: false })).map((s) => [s.idx, s.target] as const),
    );
    for (const segment of segments) {
      for (const id of segment.warningIds) {
        const stored = last?.warnings.find((w) => w.s === segment.idx && w.id === id);
        if (!stored || currentWarningId(qa.job.uid, segment.idx, stored, current.get(segment.idx) ?? '') !== id)
          throw errors.QaWarningNotIgnorable({
            warningId: id,
            segment: segment.uid,
            reason: 'it is not a warning of the segment as it is now (run QA again and use the ids it answers)',
          });
        if (!stored.i)
          throw errors.QaWarningNotIgnorable({ warningId: id, segment: segment.uid, reason: `its check (${stored.t}) is not ignorable` });
        rows.push({ jobId: qa.job.id, warningId: id, segmentIdx: segment.idx });
      }
    }
  }
  const now = deps.clock().toISOString();
  await db.transaction().execute(async (trx) => {
    for (let at = 0; at < rows.length; at += 500)
      await trx
        .insertInto('qaIgnoredWarnings')
        .values(rows.slice(at, at + 500).map((r) => ({ ...r, ignoredAt: now, ignoredById: caller.userId })))
        .onConflict((oc) => oc.columns(['jobId', 'warningId']).doNothing())
        .execute();
  });
  return body;
}

/** deleteIgnoredWarnings: the warnings are no longer ignored (ids that were not ignored change nothing). */
export async function deleteIgnoredWarnings(
  deps: AppDeps,
  caller: Caller,
  project: ProjectAccess,
  body: IgnoredWarningsBody,
  fixed: JobAccess | null,
) {
  const db = deps.database.db;
  const parts = await resolveParts(db, caller, project, body, fixed);
  await db.transaction().execute(async (trx) => {
    for (const { qa, segments } of parts) {
      const ids = segments.flatMap((s) => s.warningIds);
      for (let at = 0; at < ids.length; at += 500)
        await trx
          .deleteFrom('qaIgnoredWarnings')
          .where('jobId', '=', qa.job.id)
          .where('warningId', 'in', ids.slice(at, at + 500))
          .execute();
    }
  });
}

/**
 * updateIgnoredChecks: the warning types ignored on one segment, replacing those it had, for its
 * current target (they lapse when the target changes). A type whose warnings on the segment's last
 * run are not ignorable is a 400.
 */
export async function updateIgnoredChecks(deps: AppDeps, access: JobAccess, segmentUid: string, types: readonly WarningType[]) {
  const db = deps.database.db;
  const qa = await qaJobOf(db, access.project.project, access.job);
  const idx = segmentIndexOf(qa, segmentUid);
  if (idx === null)
    throw errors.InvalidArguments({
      reason: `Segment ${segmentUid} is not a segment of job ${qa.job.uid}.`,
      details: [{ field: 'segment.uid', message: 'not a segment of the job', segment: segmentUid }],
    });
  const [segment] = await loadQaSegments(db, qa, { only: [idx], terms: false });
  const last = await lastQaRun(db, qa.job.id);
  for (const type of types) {
    const stuck = last?.warnings.find((w) => w.s === idx && w.t === type && !w.i);
    if (stuck)
      throw errors.QaWarningNotIgnorable({ warningId: stuck.id, segment: segmentUid, reason: `its check (${type}) is not ignorable` });
  }
  const hash = targetHash(segment?.target ?? '');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('qaIgnoredChecks').where('jobId', '=', qa.job.id).where('segmentIdx', '=', idx).execute();
    const unique = [...new Set(types)];
    if (unique.length)
      await trx
        .insertInto('qaIgnoredChecks')
        .values(unique.map((warningType) => ({ jobId: qa.job.id, segmentIdx: idx, warningType, targetHash: hash })))
        .execute();
  });
}

/**
 * runQaAndSaveV4's save: the segment's new target (and confirmation, when given) is stored as an
 * editor save stores it: a locked segment is refused (400 SegmentLocked, nothing saved); a changed
 * target is a person's text (its pre-translation origin is cleared); a confirmed segment is
 * written to the project's write TMs; JOB_TARGET_UPDATED is emitted.
 */
export async function saveSegmentTarget(
  deps: AppDeps,
  caller: Caller,
  qa: QaJob,
  idx: number,
  segmentUid: string,
  change: { target: string; confirmed?: boolean | undefined },
) {
  const db = deps.database.db;
  const now = deps.clock().toISOString();
  await db.transaction().execute(async (trx) => {
    const held = await trx.selectFrom('jobSegments').selectAll().where('jobId', '=', qa.job.id).where('idx', '=', idx).executeTakeFirst();
    if (held && (held.locked === true || Number(held.locked) === 1)) throw errors.SegmentLocked({ segment: segmentUid });
    const confirmed = change.confirmed ?? (held ? held.confirmed === true || Number(held.confirmed) === 1 : false);
    const targetChanged = !held || held.target !== change.target;
    if (held) {
      await trx
        .updateTable('jobSegments')
        .set({
          target: change.target,
          confirmed,
          modifiedAt: now,
          modifiedById: caller.userId,
          ...(targetChanged ? { origin: null, originScore: null, originResource: null, mtWarnings: null } : {}),
        })
        .where('jobId', '=', qa.job.id)
        .where('idx', '=', idx)
        .execute();
    } else {
      await trx
        .insertInto('jobSegments')
        .values({ jobId: qa.job.id, idx, target: change.target, confirmed, modifiedAt: now, modifiedById: caller.userId })
        .execute();
    }
    if (confirmed) await writeConfirmedToTransMemories(trx, qa.job, [{ idx, target: change.target }], caller.userId, now);
    await trx.updateTable('jobs').set({ lastModifiedAt: now, lastModifiedById: caller.userId }).where('id', '=', qa.job.id).execute();
    const jobs = await trx.selectFrom('jobs').selectAll().where('id', '=', qa.job.id).execute();
    await emitEvent(deps, trx, {
      organizationId: caller.organizationId,
      event: 'JOB_TARGET_UPDATED',
      records: await jobEventRecords(trx, jobs),
      user: await eventUser(trx, caller),
    });
  });
  deps.taskWakeup.notify();
}
