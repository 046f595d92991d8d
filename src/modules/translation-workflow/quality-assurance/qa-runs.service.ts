import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { REPORTED_WARNING_TYPES, checkRuns } from '../../../domain/quality-assurance/settings.js';
import { QA_CHECK_NAMES, WARNING_TYPES } from '../../../domain/quality-assurance/types.js';
import type { QaSettings, WarningType } from '../../../domain/quality-assurance/types.js';
import { sharedThreadPool } from '../../../queue/thread-pool.js';
import { errors } from '../../../errors/index.js';
import { organizationWords } from '../../language-resources/spell-check/index.js';
import { qaTargetTermTexts } from '../job-term-bases/index.js';
import type { JobRow, ProjectRow } from '../kernel/index.js';
import { projectQaSettings } from '../qa-settings/index.js';
import { loadQaSegments, projectOtherSegments } from './qa-segments.js';
import type { LoadedQaSegment, QaJob } from './qa-segments.js';
import type { QaThreadInput, QaThreadOutput, QaThreadWarning } from './qa-run.thread.js';
import { targetHash, warningId } from './qa-run.thread.js';

/**
 * QA runs (docs/qa-runs-and-warnings.md): a job's segments are loaded here, checked by the engine
 * in the thread pool, and the run is stored as the job's last run; answers are built from the
 * warnings with the job's ignored warnings and ignored checks applied.
 */

const THREAD_MODULE = new URL(import.meta.url.endsWith('.ts') ? './qa-run.thread.ts' : './qa-run.thread.js', import.meta.url);

/** Warning types that need more than the segment itself (a dictionary, the other segments): left out of a "fast" run. */
const SLOW_TYPES: ReadonlySet<WarningType> = new Set<WarningType>([
  'SpellCheck',
  'InconsistentTranslationTargetSource',
  'InconsistentTranslationSourceTarget',
]);

/** A stored warning of a run (compact). */
export interface StoredQaWarning {
  /** Segment index in the job's file. */
  s: number;
  id: string;
  /** Warning type. */
  t: WarningType;
  /** The warning's key. */
  k: string;
  /** Ignorable: 1 or 0. */
  i: 0 | 1;
}

export interface QaRunOutcome {
  qa: QaJob;
  segments: LoadedQaSegment[];
  warnings: QaThreadWarning[];
  spellingUnchecked: boolean;
}

export interface RunOptions {
  /** Only these warning types. */
  only?: readonly WarningType[] | undefined;
  /** Only the fast checks (runQaForSegmentsV3 without warningTypes). */
  fastOnly?: boolean;
  /** Only these segments (indexes); the whole job otherwise. */
  segments?: readonly number[];
  /** Texts to check instead of the stored ones (runWithUpdate saves first, so this is for callers that do not). */
  overrides?: ReadonlyMap<number, { target: string; confirmed?: boolean }>;
  /** Who ran it (stored with the run); null: the delivery gate, which stores nothing. */
  userId: string | null;
  /** Settings already read. */
  settings?: QaSettings;
  /** The run's time limit in its thread (QA_RUN_TIME_LIMIT_MS unless a test sets a shorter one). */
  timeLimitMs?: number;
}

/** The project's QA settings. */
export function qaSettingsOf(db: Kysely<DB>, project: ProjectRow): Promise<QaSettings> {
  return projectQaSettings(db, project.organizationId, project.id);
}

/** The warning types a run reports under `settings`, narrowed by `only` and `fastOnly`. */
function reportedTypes(settings: QaSettings, options: RunOptions): WarningType[] | undefined {
  if (!options.only?.length && !options.fastOnly) return undefined;
  const running = new Set<WarningType>();
  for (const name of QA_CHECK_NAMES) if (checkRuns(settings, name)) for (const type of REPORTED_WARNING_TYPES[name]) running.add(type);
  running.add('CustomQA');
  let types = WARNING_TYPES.filter((t) => running.has(t));
  if (options.only?.length) types = types.filter((t) => options.only!.includes(t));
  if (options.fastOnly) types = types.filter((t) => !SLOW_TYPES.has(t));
  return types;
}

/**
 * How long one run may take in its thread. The checks are linear (tens of thousands of segments a
 * second), so only a regular expression rule that backtracks without end (`(a|a)*b` on a long
 * target: refused forms aside, a backtracking engine cannot be bounded beforehand) gets near it; the
 * thread is then terminated and the run refused, instead of holding a thread of the pool forever.
 */
export const QA_RUN_TIME_LIMIT_MS = 300_000;

async function runInThread(input: QaThreadInput, limitMs = QA_RUN_TIME_LIMIT_MS): Promise<QaThreadOutput> {
  const signal = AbortSignal.timeout(limitMs);
  try {
    return await sharedThreadPool().run<QaThreadOutput>(THREAD_MODULE, 'runQaInThread', input, { signal });
  } catch (error) {
    if (signal.aborted) throw errors.QaRunTimedOut({ jobUid: input.jobUid, seconds: Math.round(limitMs / 1000) });
    throw error;
  }
}

/**
 * Runs QA on a job (or some of its segments), in the thread pool. With `userId` the run is stored:
 * a whole-job run replaces the job's last run, a run on some segments replaces their warnings in it.
 */
export async function runJobQa(deps: AppDeps, qa: QaJob, options: RunOptions, db: Kysely<DB> = deps.database.db): Promise<QaRunOutcome> {
  const settings = options.settings ?? (await qaSettingsOf(db, qa.project));
  const only = reportedTypes(settings, options);
  const wants = (type: WarningType) => !only || only.includes(type);
  const termChecks = checkRuns(settings, 'nonConformingTerms') || checkRuns(settings, 'forbiddenTerms');
  const segments = await loadQaSegments(db, qa, {
    ...(options.segments ? { only: options.segments } : {}),
    ...(options.overrides ? { overrides: options.overrides } : {}),
    terms: termChecks && (wants('NonConformingTerm') || wants('ForbiddenTerm')),
  });
  const inconsistency =
    checkRuns(settings, 'inconsistentTranslation') &&
    (wants('InconsistentTranslationTargetSource') || wants('InconsistentTranslationSourceTarget'));
  let otherSegments: { id: string; source: string; target: string }[] | undefined;
  if (inconsistency && (options.segments || settings.inconsistencyScope === 'PROJECT')) {
    otherSegments = [];
    if (options.segments) {
      const rest = await loadQaSegments(db, qa, { terms: false });
      const inRun = new Set(segments.map((s) => s.idx));
      for (const s of rest) if (!inRun.has(s.idx) && s.target !== '') otherSegments.push({ id: s.id, source: s.source, target: s.target });
    }
    if (settings.inconsistencyScope === 'PROJECT') otherSegments.push(...(await projectOtherSegments(db, qa)));
  }
  const spelling = checkRuns(settings, 'spellCheck') && wants('SpellCheck');
  const words = spelling
    ? [...(await organizationWords(db, qa.project.organizationId, qa.job.targetLang)), ...(await qaTargetTermTexts(db, qa.project, qa.job))]
    : [];
  const input: QaThreadInput = {
    jobUid: qa.job.uid,
    segments,
    settings,
    sourceLang: qa.project.sourceLang,
    targetLang: qa.job.targetLang,
    ...(otherSegments ? { otherSegments } : {}),
    spelling: spelling ? { lang: qa.job.targetLang, words } : null,
    ...(only ? { only } : {}),
  };
  const output = segments.length ? await runInThread(input, options.timeLimitMs) : { warnings: [], spellingUnchecked: false };
  const warnings = only ? output.warnings.filter((w) => only.includes(w.type)) : output.warnings;
  if (options.userId !== null) await storeRun(deps, db, qa, segments, warnings, options);
  return { qa, segments, warnings, spellingUnchecked: output.spellingUnchecked };
}

const compact = (w: QaThreadWarning): StoredQaWarning => ({ s: w.s, id: w.id, t: w.type, k: w.key, i: w.ignorable ? 1 : 0 });

async function storeRun(
  deps: AppDeps,
  db: Kysely<DB>,
  qa: QaJob,
  segments: readonly LoadedQaSegment[],
  warnings: readonly QaThreadWarning[],
  options: RunOptions,
): Promise<void> {
  const now = deps.clock().toISOString();
  const whole = !options.segments && !options.only?.length && !options.fastOnly;
  let stored = warnings.map(compact);
  let complete = whole;
  let segmentCount = segments.length;
  if (!whole) {
    const last = await lastQaRun(db, qa.job.id);
    if (last) {
      const checked = new Set(segments.map((s) => s.idx));
      const types = reportedTypes(await qaSettingsOf(db, qa.project), options);
      // Warnings of the segments and types this run checked are replaced; the rest of the last run stays.
      const replaced = (w: StoredQaWarning) => checked.has(w.s) && (!types || types.includes(w.t));
      stored = [...last.warnings.filter((w) => !replaced(w)), ...stored].sort((a, b) => a.s - b.s);
      complete = last.complete;
      segmentCount = last.segmentCount;
    }
  }
  const row = {
    ranAt: now,
    ranById: options.userId,
    complete,
    segmentCount,
    warningCount: stored.length,
    warnings: JSON.stringify(stored),
  };
  await db
    .insertInto('qaRuns')
    .values({ jobId: qa.job.id, ...row })
    .onConflict((oc) => oc.column('jobId').doUpdateSet(row))
    .execute();
}

/** The job's last stored run, or null when QA never ran on it. */
export async function lastQaRun(
  db: Kysely<DB>,
  jobId: string,
): Promise<{ ranAt: string; ranById: string | null; complete: boolean; segmentCount: number; warnings: StoredQaWarning[] } | null> {
  const row = await db.selectFrom('qaRuns').selectAll().where('jobId', '=', jobId).executeTakeFirst();
  if (!row) return null;
  return {
    ranAt: row.ranAt,
    ranById: row.ranById,
    complete: bool(row.complete),
    segmentCount: Number(row.segmentCount),
    warnings: JSON.parse(row.warnings) as StoredQaWarning[],
  };
}

/** What the answer applies to a job's warnings: its ignored warning ids and, per segment, ignored checks of the current target. */
export async function ignoredStateOf(db: Kysely<DB>, job: JobRow, segments: readonly LoadedQaSegment[]) {
  const ids = new Set(
    (await db.selectFrom('qaIgnoredWarnings').select('warningId').where('jobId', '=', job.id).execute()).map((r) => r.warningId),
  );
  const checks = new Map<number, WarningType[]>();
  const rows = await db.selectFrom('qaIgnoredChecks').selectAll().where('jobId', '=', job.id).execute();
  if (rows.length) {
    const byIdx = new Map(segments.map((s) => [s.idx, s]));
    for (const row of rows) {
      const segment = byIdx.get(Number(row.segmentIdx));
      if (!segment || targetHash(segment.target) !== row.targetHash) continue;
      const list = checks.get(segment.idx) ?? [];
      list.push(row.warningType as WarningType);
      checks.set(segment.idx, list);
    }
  }
  return { ids, checks };
}

export interface SegmentWarningsView {
  segmentId: string;
  warnings: ({ id: string; ignored: boolean; type: string } & Record<string, unknown>)[];
  ignoredChecks: string[];
}

/** One job's part of an answer: its segments with warnings (or every segment of a segments run), warnings ignored or not. */
export async function segmentWarningsOf(
  db: Kysely<DB>,
  outcome: QaRunOutcome,
  options: { everySegment?: boolean; fromIdx?: number } = {},
): Promise<SegmentWarningsView[]> {
  const { ids, checks } = await ignoredStateOf(db, outcome.qa.job, outcome.segments);
  const bySegment = new Map<number, QaThreadWarning[]>();
  for (const w of outcome.warnings) {
    const list = bySegment.get(w.s) ?? [];
    list.push(w);
    bySegment.set(w.s, list);
  }
  const views: SegmentWarningsView[] = [];
  for (const segment of outcome.segments) {
    if (options.fromIdx !== undefined && segment.idx < options.fromIdx) continue;
    const found = bySegment.get(segment.idx) ?? [];
    if (!found.length && !options.everySegment) continue;
    const ignoredChecks = checks.get(segment.idx) ?? [];
    views.push({
      segmentId: segment.id,
      warnings: found.map((w) => ({
        ...w.details,
        id: w.id,
        type: w.type,
        ignored: w.ignorable && (ids.has(w.id) || ignoredChecks.includes(w.type)),
      })),
      ignoredChecks,
    });
  }
  return views;
}

/** Caps the answer at `max` warnings, whole segments at a time: `finished` is false when some were left out. */
export function capWarnings(
  views: readonly SegmentWarningsView[],
  max: number,
  spellingUnchecked = false,
): { segmentWarnings: SegmentWarningsView[]; finished: boolean; uncheckedChecks?: string[] } {
  // A language without a dictionary is said to be unchecked, never passed as clean (docs/spelling.md).
  const unchecked = spellingUnchecked ? { uncheckedChecks: ['SpellCheck'] } : {};
  const kept: SegmentWarningsView[] = [];
  let count = 0;
  for (const view of views) {
    if (count >= max && view.warnings.length > 0) return { segmentWarnings: kept, finished: false, ...unchecked };
    kept.push(view);
    count += view.warnings.length;
  }
  return { segmentWarnings: kept, finished: true, ...unchecked };
}

/** The unresolved warnings of a fresh run of `qa` (the delivery gate); ignored ones and ignored checks left out. */
export async function unresolvedWarnings(deps: AppDeps, db: Kysely<DB>, qa: QaJob, settings: QaSettings) {
  const outcome = await runJobQa(deps, qa, { userId: null, settings }, db);
  const views = await segmentWarningsOf(db, outcome);
  return views.flatMap((v) => v.warnings.filter((w) => !w.ignored).map((w) => ({ segment: v.segmentId, type: w.type })));
}

/** The id of a warning on the segment's current target: stored ids are compared with it. */
export const currentWarningId = (jobUid: string, idx: number, w: StoredQaWarning, target: string) =>
  warningId(jobUid, idx, { type: w.t, key: w.k }, targetHash(target));
