import { MessageChannel } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import type { DB, Id } from '../../../db/schema.js';
import type { EditedSegment, PreTranslationSegment } from '../../../domain/analysis/analyser.js';
import type { Tallies } from '../../../domain/analysis/bands.js';
import { mergeTallies } from '../../../domain/analysis/bands.js';
import type { AnalysisSettings } from '../../../domain/analysis/settings.js';
import { foldWhitespace } from '../../../domain/translation-memory/index.js';
import { withTagPlaceholders } from '../../../domain/translation-memory/tm-text.js';
import { sharedThreadPool } from '../../../queue/thread-pool.js';
import { completeAsyncRequest } from '../../integration/async-requests/index.js';
import { bestScores } from '../../language-resources/translation-memories/index.js';
import type { BestScoreQuery, SearchTarget } from '../../language-resources/translation-memories/index.js';
import { effectiveTexts, loadSegmentVersions } from '../../translation-workflow/job-structure/index.js';
import { projectTransMemoryTargets } from '../../translation-workflow/job-trans-memories/index.js';
import type { JobSourceRow } from '../../translation-workflow/kernel/index.js';
import { confirmedIndexes, findAnalysisById, jobSegmentPages, jobsOfParts, languagePartsOf, writeResults } from './analyses.repository.js';
import type { AnalysisJobRow, AnalysisRow, JobSegment, LanguagePartRow } from './analyses.repository.js';
import type { PartMessage, PartReply } from './analysis.thread.js';

/** Task kind that computes (or recomputes) one analysis. */
export const ANALYSIS_TASK = 'analysis.run';

export interface AnalysisPayload {
  analysisId: string;
  asyncRequestId: string;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'analysis.run': AnalysisPayload;
  }
}

const THREAD_MODULE = new URL(import.meta.url.endsWith('.ts') ? './analysis.thread.ts' : './analysis.thread.js', import.meta.url);

/** Segments read from the database and sent to the thread at a time. */
const PAGE = 2000;
/** Batches on their way to the thread at most (the rest wait: memory stays bounded). */
const IN_FLIGHT = 2;

/**
 * Computes an analysis (docs/analysis.md): each language part's jobs in order, their segments
 * read in pages, TM scores looked up in batches (TM engine of language-resources), counted in a
 * thread (analysis.thread.ts); then every result is written in ONE transaction with the async
 * request's completion, so no half-written analysis is ever visible and a recalculation replaces
 * the results in one step. Safe to run again after a crash or kill -9: nothing is written before
 * the end, and the same input gives the same result.
 */
export const analysisTask: AppTaskHandler<typeof ANALYSIS_TASK> = {
  kind: ANALYSIS_TASK,
  maxAttempts: 3,
  async run(context, payload) {
    const { deps } = context;
    const db = deps.database.db;
    const analysis = await findAnalysisById(db, payload.analysisId);
    // Deleted, or recalculated since (a newer request owns it): nothing to write.
    if (!analysis || analysis.deletedAt !== null || analysis.asyncRequestId !== payload.asyncRequestId) {
      await completeAsyncRequest(deps, db, payload.asyncRequestId);
      return;
    }
    const settings = JSON.parse(analysis.settings) as AnalysisSettings;
    const parts = await languagePartsOf(db, [analysis.id]);
    const jobs = await jobsOfParts(
      db,
      parts.map((p) => p.id),
    );
    const partResults: { id: Id; tallies: string; transMemories: string }[] = [];
    const jobResults: { id: Id; tallies: string }[] = [];
    for (const part of parts) {
      const partJobs = jobs.filter((j) => j.languagePartId === part.id);
      const { tallies, transMemories } = await analysePart(deps, analysis, settings, part, partJobs, context.signal);
      const total: Tallies = {};
      partJobs.forEach((job, i) => {
        const t = tallies[i] ?? {};
        mergeTallies(total, t);
        jobResults.push({ id: job.id, tallies: JSON.stringify(t) });
      });
      partResults.push({ id: part.id, tallies: JSON.stringify(total), transMemories: JSON.stringify(transMemories) });
    }
    await db.transaction().execute(async (trx) => {
      const current = await findAnalysisById(trx, analysis.id);
      if (current && current.deletedAt === null && current.asyncRequestId === payload.asyncRequestId) {
        await writeResults(trx, analysis.id, partResults, jobResults);
      }
      await completeAsyncRequest(deps, trx, payload.asyncRequestId);
    });
  },
  async onFinalFailure(context, payload, error) {
    await context.deps.database.db
      .updateTable('analyses')
      .set({ status: 'ERROR', errorMessage: (error instanceof Error ? error.message : String(error)).slice(0, 2000) })
      .where('id', '=', payload.analysisId)
      .where('asyncRequestId', '=', payload.asyncRequestId)
      .execute();
  },
};

interface LiveJob {
  id: Id;
  jobSourceId: Id;
  targetLang: string;
  workflowLevel: number;
  projectWorkflowStepId: Id | null;
  beginIndex: number | null;
  endIndex: number | null;
}

async function liveJobs(db: Kysely<DB>, ids: readonly Id[]): Promise<Map<Id, LiveJob>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('jobs')
    .select(['id', 'jobSourceId', 'targetLang', 'workflowLevel', 'projectWorkflowStepId', 'beginIndex', 'endIndex'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        ...r,
        workflowLevel: Number(r.workflowLevel),
        beginIndex: r.beginIndex === null ? null : Number(r.beginIndex),
        endIndex: r.endIndex === null ? null : Number(r.endIndex),
      },
    ]),
  );
}

/** Sends batches to the part's thread, at most IN_FLIGHT unacknowledged. */
class PartChannel {
  private readonly channel = new MessageChannel();
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private readonly acks: Promise<void>[] = [];
  readonly result: Promise<Tallies[]>;

  constructor(input: { settings: AnalysisSettings; countLanguage: string }, signal: AbortSignal) {
    this.channel.port1.on('message', (reply: PartReply) => {
      const waiter = this.waiting.get(reply.seq);
      this.waiting.delete(reply.seq);
      if (reply.ok) waiter?.resolve();
      else waiter?.reject(new Error(`analysis thread: ${reply.error}`));
    });
    this.result = sharedThreadPool().run<Tallies[]>(THREAD_MODULE, 'analyseLanguagePart', input, { port: this.channel.port2, signal });
    this.result.catch((error: unknown) => {
      for (const waiter of this.waiting.values()) waiter.reject(error instanceof Error ? error : new Error(String(error)));
      this.waiting.clear();
    });
  }

  async send(message: { op: 'pre'; segments: PreTranslationSegment[] } | { op: 'edited'; segments: EditedSegment[] }): Promise<void> {
    if (message.segments.length === 0) return;
    const seq = ++this.seq;
    this.acks.push(new Promise<void>((resolve, reject) => this.waiting.set(seq, { resolve, reject })));
    this.channel.port1.postMessage({ ...message, seq } as PartMessage);
    while (this.acks.length > IN_FLIGHT) await this.acks.shift();
  }

  async end(): Promise<Tallies[]> {
    await Promise.all(this.acks.splice(0));
    this.channel.port1.postMessage({ op: 'end' } satisfies PartMessage);
    try {
      return await this.result;
    } finally {
      this.channel.port1.close();
    }
  }
}

async function analysePart(
  deps: AppDeps,
  analysis: AnalysisRow,
  settings: AnalysisSettings,
  part: LanguagePartRow,
  jobs: readonly AnalysisJobRow[],
  signal: AbortSignal,
): Promise<{ tallies: Tallies[]; transMemories: Id[] }> {
  const db = deps.database.db;
  const countLanguage = settings.countSourceUnits ? part.sourceLang : part.targetLang;
  const channel = new PartChannel({ settings, countLanguage }, signal);
  try {
    const live = await liveJobs(
      db,
      jobs.flatMap((j) => (j.jobId === null ? [] : [j.jobId])),
    );
    const seen = new Set<string>();
    const targetsByStep = new Map<string, SearchTarget[]>();
    for (const [position, row] of jobs.entries()) {
      const job = row.jobId === null ? undefined : live.get(row.jobId);
      if (!job) continue;
      if (settings.type === 'PreAnalyse') {
        const stepKey = job.projectWorkflowStepId ?? '';
        let targets = targetsByStep.get(stepKey);
        if (!targets) {
          targets = settings.includeTransMemory
            ? await projectTransMemoryTargets(db, analysis.projectId, part.targetLang, job.projectWorkflowStepId, 'read')
            : [];
          targetsByStep.set(stepKey, targets);
        }
        await preTranslationJob(deps, settings, part, position, job, targets, seen, channel, signal);
      } else {
        await editedJob(db, settings, part, position, job, channel);
      }
    }
    const transMemories = [...new Set([...targetsByStep.values()].flat().map((t) => String(t.tm.id)))];
    return { tallies: await channel.end(), transMemories };
  } catch (error) {
    channel.result.catch(() => {});
    throw error;
  }
}

/** A page whose TM lookups are on their way. */
interface PendingPage {
  page: JobSegment[];
  lookupAt: number[];
  scores: Promise<number[]>;
}

async function preTranslationJob(
  deps: AppDeps,
  settings: AnalysisSettings,
  part: LanguagePartRow,
  position: number,
  job: LiveJob,
  targets: readonly SearchTarget[],
  seen: Set<string>,
  channel: PartChannel,
  signal: AbortSignal,
): Promise<void> {
  let previous: string | null = null;
  // The lookups of a page are asked before the page before it is sent on, so the index thread
  // works on them while this thread checks the 101s and reads the next page.
  let pending: PendingPage | null = null;
  for await (const page of jobSegmentPages(deps.database.db, job, PAGE)) {
    if (signal.aborted) throw signal.reason;
    // The TM is asked once per text: not for repetitions, nor twice in one page.
    const queries: BestScoreQuery[] = [];
    const queryOf = new Map<string, number>();
    const lookupAt: number[] = [];
    page.forEach((s, i) => {
      const folded = foldWhitespace(s.source);
      const counted = !(s.confirmed && !settings.includeConfirmedSegments);
      if (!counted || seen.has(folded) || targets.length === 0) {
        lookupAt.push(-1);
      } else {
        seen.add(folded);
        let q = queryOf.get(folded);
        if (q === undefined) {
          q = queries.length;
          queryOf.set(folded, q);
          queries.push({ text: s.source, previous: i > 0 ? page[i - 1]!.source : previous, next: s.nextSource, key: s.key });
        }
        lookupAt.push(q);
      }
    });
    const scores = queries.length ? bestScores(deps, targets, queries, part.targetLang) : Promise.resolve([]);
    // Awaited below (or abandoned with the task when an earlier page fails).
    scores.catch(() => {});
    previous = page[page.length - 1]!.source;
    if (pending) await sendPage(settings, position, pending, channel);
    pending = { page, lookupAt, scores };
  }
  if (pending) await sendPage(settings, position, pending, channel);
}

async function sendPage(settings: AnalysisSettings, position: number, pending: PendingPage, channel: PartChannel): Promise<void> {
  const scores = await pending.scores;
  const segments: PreTranslationSegment[] = pending.page.map((s, i) => {
    const source = withTagPlaceholders(s.source);
    const target = s.target ?? s.importedTarget ?? '';
    const at = pending.lookupAt[i]!;
    return {
      job: position,
      source,
      counted: settings.countSourceUnits ? source : withTagPlaceholders(target),
      confirmed: s.confirmed,
      locked: false,
      tmScore: at >= 0 ? scores[at]! : 0,
    };
  });
  await channel.send({ op: 'pre', segments });
}

async function editedJob(
  db: Kysely<DB>,
  settings: AnalysisSettings,
  part: LanguagePartRow,
  position: number,
  job: LiveJob,
  channel: PartChannel,
): Promise<void> {
  const source = (await db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirst()) as
    JobSourceRow | undefined;
  if (!source) return;
  const first = job.beginIndex ?? 0;
  const last = job.endIndex ?? Number(source.segmentCount) - 1;
  const compareLevel = settings.type === 'Compare' ? (settings.compareWorkflowLevel ?? 1) : job.workflowLevel - 1;
  const levels = Math.max(job.workflowLevel, compareLevel);
  const versions = await loadSegmentVersions(db, source, part.targetLang, { first, last }, levels);
  const confirmed = await confirmedIndexes(db, job.id);
  let batch: EditedSegment[] = [];
  for (const version of versions) {
    const texts = effectiveTexts(version);
    const at = (level: number) => (level === 0 ? version.imported : (texts[level - 1] ?? null));
    const given = at(compareLevel);
    const final = at(job.workflowLevel);
    const src = withTagPlaceholders(version.source);
    batch.push({
      job: position,
      given: given === null ? null : withTagPlaceholders(given),
      final: final === null ? null : withTagPlaceholders(final),
      counted: settings.countSourceUnits ? src : withTagPlaceholders(final ?? ''),
      confirmed: confirmed.has(version.index),
      locked: false,
    });
    if (batch.length >= PAGE) {
      await channel.send({ op: 'edited', segments: batch });
      batch = [];
    }
  }
  await channel.send({ op: 'edited', segments: batch });
}
