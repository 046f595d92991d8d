import type { Kysely } from 'kysely';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { bulkInsert } from '../../../db/bulk-insert.js';
import type { BulkTable } from '../../../db/bulk-insert.js';
import type { DB, Id } from '../../../db/schema.js';
import { isNonTranslatable } from '../../../domain/analysis/segment-text.js';
import { decide } from '../../../domain/machine-translation/index.js';
import type { Decision, MtWarning } from '../../../domain/machine-translation/index.js';
import { asyncFailure } from '../../../errors/index.js';
import { completeAsyncRequest, reportProgress } from '../../integration/async-requests/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import { bestUnitMatches } from '../../language-resources/translation-memories/index.js';
import type { BestScoreQuery, BestUnitMatch, IndexMemo } from '../../language-resources/translation-memories/index.js';
import { CredentialsUnreadable, translateSegments } from '../../language-resources/machine-translation/index.js';
import type { MtSettingsRow } from '../../language-resources/machine-translation/index.js';
import { projectTransMemoryTargets } from '../job-trans-memories/index.js';
import { emitProjectEvents, jobEventRecords, jobStatusRefusal } from '../kernel/index.js';
import type { Caller } from '../../../http/access.js';
import type { JobRow } from '../kernel/index.js';
import { mtSettingsForTarget } from '../project-mt-settings/index.js';
import type { StoredPreTranslation } from './pre-translation.service.js';

/**
 * The pre-translation task (docs/machine-translation.md, "Pre-translation"): each job a page of
 * segments at a time — the best TM match at or above the threshold, non-translatables copied,
 * the rest through MT — and each page's targets written in ONE transaction together with where
 * the run has got to, so that a run killed (kill -9) resumes after the last committed page and
 * never fills a segment twice; what MT answered before a kill is in the MT cache, so a resumed
 * page does not send it to the engine again. The end (events, counts, the async response) is one
 * transaction.
 */

export const PRE_TRANSLATE_TASK = 'preTranslate.run';

export interface PreTranslatePayload {
  asyncRequestId: string;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'preTranslate.run': PreTranslatePayload;
  }
}

/** Segments read, looked up and written per page. */
export const PRE_TRANSLATE_PAGE = 1000;
/** Segments MT could not fill that the answer lists by job and index (the count is always given). */
const LISTED_FAILURES = 50;

interface Counts {
  tm: number;
  mt: number;
  nonTranslatable: number;
  skipped: number;
  mtFailed: number;
  /** Job ids whose targets changed (for JOB_TARGET_UPDATED at the end). */
  changedJobs: string[];
  /** Job ids without MT settings for their language while MT was asked for. */
  jobsWithoutMt: string[];
  failures: Array<{ job: string; index: number; reason: string }>;
  mtWarnings: number;
}

const emptyCounts = (): Counts => ({
  tm: 0,
  mt: 0,
  nonTranslatable: 0,
  skipped: 0,
  mtFailed: 0,
  changedJobs: [],
  jobsWithoutMt: [],
  failures: [],
  mtWarnings: 0,
});

interface PageSegment {
  idx: number;
  source: string;
  key: string | null;
  /** The text the job shows now (its own, else what it was given). */
  existing: string;
  confirmed: boolean;
  locked: boolean;
  hasRow: boolean;
}

interface SegmentWrite {
  idx: number;
  target: string;
  confirmed: boolean;
  locked: boolean;
  origin: 'tm' | 'mt' | 'nt';
  originScore: number | null;
  originResource: string | null;
  mtWarnings: MtWarning[];
}

/** The job's segments `from..to` with the text each shows now, and its neighbours' sources for 101s. */
async function loadPage(
  db: Kysely<DB>,
  job: JobRow,
  from: number,
  to: number,
): Promise<{ segments: PageSegment[]; before: string | null; after: string | null }> {
  const [sources, own, earlier] = await Promise.all([
    db
      .selectFrom('sourceSegments')
      .select(['idx', 'source', 'key', 'importedTarget'])
      .where('jobSourceId', '=', job.jobSourceId)
      .where('idx', '>=', Math.max(0, from - 1))
      .where('idx', '<=', to + 1)
      .orderBy('idx')
      .execute(),
    db
      .selectFrom('jobSegments')
      .select(['idx', 'target', 'confirmed', 'locked'])
      .where('jobId', '=', job.id)
      .where('idx', '>=', from)
      .where('idx', '<=', to)
      .execute(),
    // What the levels before this one left (the text a later step is given).
    Number(job.workflowLevel) > 1
      ? db
          .selectFrom('jobSegments')
          .innerJoin('jobs', 'jobs.id', 'jobSegments.jobId')
          .select(['jobs.workflowLevel', 'jobSegments.idx', 'jobSegments.target'])
          .where('jobs.jobSourceId', '=', job.jobSourceId)
          .where('jobs.targetLang', '=', job.targetLang)
          .where('jobs.workflowLevel', '<', Number(job.workflowLevel))
          .where('jobSegments.idx', '>=', from)
          .where('jobSegments.idx', '<=', to)
          .execute()
      : Promise.resolve([]),
  ]);
  const ownByIdx = new Map(own.map((row) => [Number(row.idx), row]));
  const given = new Map<number, { level: number; target: string }>();
  for (const row of earlier) {
    const idx = Number(row.idx);
    const level = Number(row.workflowLevel);
    const current = given.get(idx);
    if (row.target !== '' && (!current || level > current.level)) given.set(idx, { level, target: row.target });
  }
  const segments: PageSegment[] = [];
  let before: string | null = null;
  let after: string | null = null;
  for (const row of sources) {
    const idx = Number(row.idx);
    if (idx < from) before = row.source;
    else if (idx > to) after = row.source;
    else {
      const mine = ownByIdx.get(idx);
      const existing = mine && mine.target !== '' ? mine.target : (given.get(idx)?.target ?? row.importedTarget ?? '');
      segments.push({
        idx,
        source: row.source,
        key: row.key,
        existing,
        confirmed: mine ? bool(mine.confirmed) : false,
        locked: mine ? bool(mine.locked) : false,
        hasRow: mine !== undefined,
      });
    }
  }
  return { segments, before, after };
}

/** The columns of `job_segments` a page writes (src/db/bulk-insert.ts: one statement on PostgreSQL). */
const SEGMENT_ROWS: BulkTable = {
  table: 'job_segments',
  columns: [
    { name: 'job_id', pgType: 'bigint' },
    { name: 'idx', pgType: 'bigint' },
    { name: 'target', pgType: 'text' },
    { name: 'confirmed', pgType: 'boolean' },
    { name: 'locked', pgType: 'boolean' },
    { name: 'origin', pgType: 'varchar' },
    { name: 'origin_score', pgType: 'real' },
    { name: 'origin_resource', pgType: 'varchar' },
    { name: 'mt_warnings', pgType: 'text' },
    { name: 'modified_at', pgType: 'varchar' },
    { name: 'modified_by_id', pgType: 'bigint' },
  ],
};

/** Writes the page's targets (replacing the rows of those segments), in the caller's transaction. */
async function writeSegments(trx: Kysely<DB>, job: JobRow, writes: readonly SegmentWrite[], userId: Id | null, now: string): Promise<void> {
  if (writes.length === 0) return;
  await trx
    .deleteFrom('jobSegments')
    .where('jobId', '=', job.id)
    .where(
      'idx',
      'in',
      writes.map((w) => w.idx),
    )
    .execute();
  await bulkInsert(
    trx,
    SEGMENT_ROWS,
    writes.map((w) => [
      job.id,
      w.idx,
      w.target,
      w.confirmed,
      w.locked,
      w.origin,
      w.originScore,
      w.originResource,
      w.mtWarnings.length ? JSON.stringify(w.mtWarnings) : null,
      now,
      userId,
    ]),
  );
}

interface JobContext {
  job: JobRow;
  sourceLang: string;
  targets: Awaited<ReturnType<typeof projectTransMemoryTargets>>;
  mt: MtSettingsRow | null;
}

/** Decides, looks up and translates one page; returns the writes and what happened. */
/** A page read and looked up in the TMs, ready to be decided and written. */
interface LookedUpPage {
  to: number;
  page: Awaited<ReturnType<typeof loadPage>>;
  wanted: PageSegment[];
  /** The match of `wanted[i]`, or null. */
  matches: Array<BestUnitMatch | null>;
}

/**
 * Reads the segments `from..to` and asks the TMs for the best match of each one a match could
 * fill (the index's answers of texts met before in the run come from `memo`).
 */
async function lookupPage(
  deps: AppDeps,
  settings: StoredPreTranslation,
  context: JobContext,
  from: number,
  to: number,
  memo: IndexMemo,
): Promise<LookedUpPage> {
  const { rules, segmentFilters } = settings;
  const page = await loadPage(deps.database.db, context.job, from, to);
  const wanted = page.segments.filter((s) => segmentFilters.length === 0 || segmentFilters.includes(s.locked ? 'LOCKED' : 'NOT_LOCKED'));
  // The TM lookups of the segments a TM match could fill (or keep away from MT).
  const lookup = rules.translationMemory.use || (rules.machineTranslation.use && !rules.machineTranslation.mtForTMAbove100);
  const queries: BestScoreQuery[] = [];
  const queryAt: number[] = [];
  const all = page.segments;
  const positionOf = new Map(all.map((segment, at) => [segment, at]));
  wanted.forEach((segment, i) => {
    const open = !segment.locked && (segment.existing === '' || rules.overwriteExistingTranslations) && segment.source.trim() !== '';
    if (!open || !lookup || context.targets.length === 0) return;
    const at = positionOf.get(segment)!;
    queryAt[i] = queries.length;
    queries.push({
      text: segment.source,
      previous: at > 0 ? all[at - 1]!.source : page.before,
      next: at < all.length - 1 ? all[at + 1]!.source : page.after,
      key: segment.key,
    });
  });
  // With TM pre-translation off, only a match of 100 or more matters (it keeps MT away without mtForTMAbove100).
  const minScore = rules.translationMemory.use ? rules.translationMemory.threshold : 100;
  const found = queries.length ? await bestUnitMatches(deps, context.targets, queries, context.job.targetLang, minScore, memo) : [];
  return { to, page, wanted, matches: wanted.map((_, i) => (queryAt[i] === undefined ? null : (found[queryAt[i]!] ?? null))) };
}

/** Decides each segment of a looked-up page and machine-translates what MT fills; returns the writes. */
async function translatePage(
  deps: AppDeps,
  run: { organizationId: Id; settings: StoredPreTranslation },
  context: JobContext,
  looked: LookedUpPage,
  counts: Counts,
  signal: AbortSignal,
): Promise<SegmentWrite[]> {
  const { rules } = run.settings;
  const { job } = context;
  const { page, wanted, matches } = looked;
  counts.skipped += page.segments.length - wanted.length;

  const writes: SegmentWrite[] = [];
  const toMt: PageSegment[] = [];
  wanted.forEach((segment, i) => {
    const match = matches[i] ?? null;
    const decision: Decision = decide(
      { source: segment.source, target: segment.existing, confirmed: segment.confirmed, locked: segment.locked },
      isNonTranslatable(segment.source),
      match ? { score: match.score, target: match.target, tmUid: match.tmUid } : null,
      rules,
    );
    switch (decision.action) {
      case 'skip':
        counts.skipped++;
        return;
      case 'tm':
        counts.tm++;
        writes.push({
          idx: segment.idx,
          target: decision.target,
          confirmed: decision.confirmed,
          locked: decision.locked,
          origin: 'tm',
          originScore: decision.score / 100,
          originResource: decision.tmUid,
          mtWarnings: [],
        });
        return;
      case 'nonTranslatable':
        counts.nonTranslatable++;
        writes.push({
          idx: segment.idx,
          target: decision.target,
          confirmed: decision.confirmed,
          locked: decision.locked,
          origin: 'nt',
          originScore: 1,
          originResource: null,
          mtWarnings: [],
        });
        return;
      case 'mt':
        if (context.mt) toMt.push(segment);
        else counts.skipped++;
    }
  });

  if (toMt.length && context.mt) {
    let outcome;
    try {
      outcome = await translateSegments(deps, {
        organizationId: run.organizationId,
        settings: context.mt,
        sourceLang: context.sourceLang,
        targetLang: job.targetLang,
        segments: toMt.map((s) => s.source),
        signal,
      });
    } catch (error) {
      if (!(error instanceof CredentialsUnreadable)) throw error;
      outcome = {
        results: toMt.map(() => ({
          text: null,
          warnings: [],
          error: { code: 'ENGINE_ERROR' as const, message: 'The stored credentials of the MT settings cannot be read: enter them again.' },
        })),
      };
    }
    outcome.results.forEach((result, k) => {
      const segment = toMt[k]!;
      if (result.text === null || result.text === '') {
        counts.mtFailed++;
        if (counts.failures.length < LISTED_FAILURES)
          counts.failures.push({ job: job.uid, index: segment.idx, reason: result.error?.message ?? 'no translation' });
        return;
      }
      counts.mt++;
      if (result.warnings.length) counts.mtWarnings++;
      writes.push({
        idx: segment.idx,
        target: result.text,
        confirmed: false,
        locked: false,
        origin: 'mt',
        originScore: null,
        originResource: context.mt!.uid,
        mtWarnings: result.warnings,
      });
    });
  }
  return writes;
}

/** Runs (or resumes) one pre-translation request; a finished one is left as it is. */
export async function runPreTranslation(deps: AppDeps, payload: PreTranslatePayload, signal: AbortSignal): Promise<void> {
  const db = deps.database.db;
  const { asyncRequestId } = payload;
  const [run, request] = await Promise.all([
    db.selectFrom('preTranslations').selectAll().where('asyncRequestId', '=', asyncRequestId).executeTakeFirst(),
    db.selectFrom('asyncRequests').select(['finishedAt', 'progressTotal']).where('id', '=', asyncRequestId).executeTakeFirst(),
  ]);
  if (!run || !request || request.finishedAt !== null) return;
  const settings = JSON.parse(run.settings) as StoredPreTranslation;
  const jobIds = JSON.parse(run.jobIds) as string[];
  const counts: Counts = { ...emptyCounts(), ...(JSON.parse(run.counts) as Partial<Counts>) };
  let done = Number(run.doneSegments);
  const total = Number(request.progressTotal ?? 0);
  const startPosition = Number(run.jobPosition);
  const project = await db.selectFrom('projects').select('sourceLang').where('id', '=', run.projectId).executeTakeFirst();
  if (!project) {
    await completeAsyncRequest(deps, db, asyncRequestId, asyncFailure('AsyncTaskFailed', { reason: 'The project was deleted.' }));
    return;
  }
  const sourceLang = project.sourceLang;
  const memo: IndexMemo = new Map();

  for (let position = startPosition; position < jobIds.length; position++) {
    const job = await db.selectFrom('jobs').selectAll().where('id', '=', jobIds[position]!).executeTakeFirst();
    const source = job
      ? await db.selectFrom('jobSources').select(['importStatus', 'segmentCount']).where('id', '=', job.jobSourceId).executeTakeFirst()
      : undefined;
    if (!job || !source || source.importStatus !== 'OK') continue;
    const first = job.beginIndex ?? 0;
    const last = job.endIndex ?? Number(source.segmentCount) - 1;
    const context: JobContext = {
      job,
      sourceLang,
      targets:
        settings.rules.translationMemory.use || settings.rules.machineTranslation.use
          ? await projectTransMemoryTargets(db, run.projectId, job.targetLang, job.projectWorkflowStepId, 'read')
          : [],
      mt: settings.rules.machineTranslation.use ? await mtSettingsForTarget(db, run.projectId, job.targetLang) : null,
    };
    if (settings.rules.machineTranslation.use && !context.mt && !counts.jobsWithoutMt.includes(job.uid)) counts.jobsWithoutMt.push(job.uid);
    const resumeAt = position === startPosition && Number(run.nextIdx) >= first ? Number(run.nextIdx) + 1 : first;
    // Pipelined: the next page is read and looked up in the TMs while this one is machine-translated and written.
    const ahead = (from: number): Promise<LookedUpPage> | null => {
      if (from > last) return null;
      const looked = lookupPage(deps, settings, context, from, Math.min(last, from + PRE_TRANSLATE_PAGE - 1), memo);
      looked.catch(() => {}); // awaited below, or abandoned with the task when an earlier page fails
      return looked;
    };
    let pending = ahead(resumeAt);
    while (pending) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('pre-translation aborted');
      const looked = await pending;
      pending = ahead(looked.to + 1);
      const writes = await translatePage(deps, { organizationId: run.organizationId, settings }, context, looked, counts, signal);
      const to = looked.to;
      done += looked.page.segments.length;
      if (writes.length && !counts.changedJobs.includes(job.id)) counts.changedJobs.push(job.id);
      const now = deps.clock().toISOString();
      await db.transaction().execute(async (trx) => {
        await writeSegments(trx, job, writes, run.createdById, now);
        if (writes.length) await trx.updateTable('jobs').set({ lastModifiedAt: now }).where('id', '=', job.id).execute();
        await trx
          .updateTable('preTranslations')
          .set({ jobPosition: position, nextIdx: to, doneSegments: done, counts: JSON.stringify(counts) })
          .where('asyncRequestId', '=', asyncRequestId)
          .execute();
        await reportProgress(trx, asyncRequestId, done, Math.max(total, done));
      });
    }
  }
  await finish(
    deps,
    asyncRequestId,
    { organizationId: run.organizationId, projectId: run.projectId, userId: run.createdById, jobIds, settings },
    counts,
  );
}

/** Statuses pre-translation does not move a job out of. */
const FINAL_STATUSES = new Set(['COMPLETED', 'DELIVERED', 'CANCELLED']);

/**
 * The jobs pre-translation completes (`setJobStatusCompleted`, or `setJobStatusCompletedWhenConfirmed`
 * when every segment of the job is confirmed), and whether the project follows
 * (`setProjectStatusCompleted`: once every job of the project is completed), in the end's transaction.
 */
async function completeJobs(
  deps: AppDeps,
  trx: Kysely<DB>,
  run: { organizationId: Id; projectId: Id; userId: Id | null; jobIds: readonly string[]; settings: StoredPreTranslation },
  user: { uid: string; userName: string; firstName: string; lastName: string } | null,
): Promise<void> {
  const completion = run.settings.completion;
  if (!completion || (!completion.jobs && !completion.jobsWhenConfirmed && !completion.project)) return;
  const now = deps.clock().toISOString();
  const jobs = await trx
    .selectFrom('jobs')
    .selectAll()
    .where('id', 'in', [...run.jobIds])
    .orderBy('id')
    .execute();
  const completed: JobRow[] = [];
  for (const job of jobs) {
    if (FINAL_STATUSES.has(job.status)) continue;
    let complete = completion.jobs;
    if (!complete && completion.jobsWhenConfirmed) {
      const source = await trx.selectFrom('jobSources').select('segmentCount').where('id', '=', job.jobSourceId).executeTakeFirst();
      const size = job.beginIndex !== null && job.endIndex !== null ? job.endIndex - job.beginIndex + 1 : Number(source?.segmentCount ?? 0);
      const confirmed = await trx
        .selectFrom('jobSegments')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('jobId', '=', job.id)
        .where('confirmed', '=', true)
        .where('target', '!=', '')
        .executeTakeFirstOrThrow();
      complete = size > 0 && Number(confirmed.n) >= size;
    }
    // QA's delivery gate (strictJobStatus) may keep the job open: it stays as it is.
    if (complete && !(await jobStatusRefusal(deps, trx, job, 'COMPLETED'))) completed.push(job);
  }
  if (completed.length) {
    const ids = completed.map((job) => job.id);
    await trx
      .updateTable('jobs')
      .set({ status: 'COMPLETED', lastModifiedAt: now, lastModifiedById: run.userId })
      .where('id', 'in', ids)
      .execute();
    await trx
      .insertInto('jobStatusChanges')
      .values(ids.map((jobId) => ({ jobId, status: 'COMPLETED', changedAt: now, changedById: run.userId })))
      .execute();
    const fresh = await trx.selectFrom('jobs').selectAll().where('id', 'in', ids).orderBy('id').execute();
    await emitEvent(deps, trx, {
      organizationId: run.organizationId,
      event: 'JOB_STATUS_CHANGED',
      records: await jobEventRecords(trx, fresh),
      user,
    });
  }
  if (completion.project) {
    const open = await trx
      .selectFrom('jobs')
      .select('id')
      .where('projectId', '=', run.projectId)
      .where('status', 'not in', ['COMPLETED', 'CANCELLED'])
      .limit(1)
      .executeTakeFirst();
    const project = await trx.selectFrom('projects').select('status').where('id', '=', run.projectId).executeTakeFirst();
    if (!open && project && project.status !== 'COMPLETED') {
      await trx
        .updateTable('projects')
        .set({ status: 'COMPLETED', lastModifiedAt: now, lastModifiedById: run.userId })
        .where('id', '=', run.projectId)
        .execute();
      if (run.userId) {
        await emitProjectEvents(deps, trx, { organizationId: run.organizationId, userId: run.userId } as Caller, run.projectId, [
          'PROJECT_STATUS_CHANGED',
        ]);
      }
    }
  }
}

async function finish(
  deps: AppDeps,
  asyncRequestId: string,
  run: { organizationId: Id; projectId: Id; userId: Id | null; jobIds: readonly string[]; settings: StoredPreTranslation },
  counts: Counts,
): Promise<void> {
  const { organizationId, userId } = run;
  const db = deps.database.db;
  const warnings: Array<{ code: string; message: string; args?: Record<string, unknown> }> = [];
  if (counts.jobsWithoutMt.length)
    warnings.push({
      code: 'MtSettingsNotAssigned',
      message: `No MT settings for the target language of ${counts.jobsWithoutMt.length} job(s): their segments without a TM match were left empty.`,
      args: { jobs: counts.jobsWithoutMt },
    });
  if (counts.mtFailed)
    warnings.push({
      code: 'MachineTranslationFailed',
      message: `${counts.mtFailed} segment(s) could not be machine translated and were left empty.`,
      args: { segments: counts.failures },
    });
  if (counts.mtWarnings)
    warnings.push({
      code: 'MachineTranslationWarnings',
      message: `${counts.mtWarnings} machine-translated segment(s) carry a warning (a tag the engine may have misplaced, a glossary term it dropped); QA shows them.`,
    });
  warnings.push({
    code: 'PreTranslated',
    message: `${counts.tm} segment(s) from translation memories, ${counts.mt} from machine translation, ${counts.nonTranslatable} non-translatable(s) copied, ${counts.skipped} left as they were.`,
    args: { tm: counts.tm, mt: counts.mt, nonTranslatable: counts.nonTranslatable, skipped: counts.skipped, mtFailed: counts.mtFailed },
  });
  await db.transaction().execute(async (trx) => {
    const user = userId
      ? ((await trx.selectFrom('users').select(['uid', 'userName', 'firstName', 'lastName']).where('id', '=', userId).executeTakeFirst()) ??
        null)
      : null;
    if (counts.changedJobs.length) {
      const jobs = await trx.selectFrom('jobs').selectAll().where('id', 'in', counts.changedJobs).orderBy('id').execute();
      if (jobs.length)
        await emitEvent(deps, trx, { organizationId, event: 'JOB_TARGET_UPDATED', records: await jobEventRecords(trx, jobs), user });
    }
    await completeJobs(deps, trx, run, user);
    await completeAsyncRequest(deps, trx, asyncRequestId, {
      acceptedSegmentsCount: counts.tm + counts.mt + counts.nonTranslatable,
      warnings,
    });
  });
  deps.taskWakeup.notify();
}

/** The worker's handler: a failure that is not the data's (a lost connection) is retried and resumes after the last committed page. */
export const preTranslateTask: AppTaskHandler<typeof PRE_TRANSLATE_TASK> = {
  kind: PRE_TRANSLATE_TASK,
  maxAttempts: 3,
  run(context, payload) {
    return runPreTranslation(context.deps, payload, context.signal);
  },
  async onFinalFailure(context, payload, error) {
    await completeAsyncRequest(
      context.deps,
      context.deps.database.db,
      payload.asyncRequestId,
      asyncFailure('AsyncTaskFailed', { reason: error instanceof Error ? error.message : undefined }),
    );
  },
};
