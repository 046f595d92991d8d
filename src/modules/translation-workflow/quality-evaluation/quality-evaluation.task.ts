import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import type { QeJobResult } from '../../../domain/quality-evaluation/index.js';
import { sharedThreadPool } from '../../../queue/thread-pool.js';
import { completeAsyncRequest, reportProgress } from '../../integration/async-requests/index.js';
import type { QeContentSource } from './content-source.js';
import { qaModuleContent } from './content-source.js';
import { replaceSegmentResults } from './quality-evaluation.repository.js';
import type { QeThreadInput } from './quality-evaluation.thread.js';

const THREAD_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './quality-evaluation.thread.ts' : './quality-evaluation.thread.js',
  import.meta.url,
);

/**
 * The evaluation task (docs/quality-evaluation.md, "Evaluating"): for each job part whose last
 * requested evaluation is this request, the estimator over its segments and the warnings of its
 * last QA run (the estimator in the shared thread pool); each job part's results replace its earlier ones in one transaction, with its
 * word-weighted score. A job part evaluated again by a newer request meanwhile is left to that one.
 * Runs on the worker, never on the API's event loop.
 */

export const QUALITY_EVALUATION_TASK = 'qualityEvaluation.run';

export interface QualityEvaluationPayload {
  asyncRequestId: string;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'qualityEvaluation.run': QualityEvaluationPayload;
  }
}

export async function runQualityEvaluation(
  deps: AppDeps,
  payload: QualityEvaluationPayload,
  signal?: AbortSignal,
  content: QeContentSource = qaModuleContent,
): Promise<void> {
  const db = deps.database.db;
  const entries = await db
    .selectFrom('qualityEvaluationJobs')
    .select(['jobId', 'threshold'])
    .where('asyncRequestId', '=', payload.asyncRequestId)
    .orderBy('jobId')
    .execute();
  let segmentsEvaluated = 0;
  let done = 0;
  const warnings: { code: string; message: string; args: Record<string, unknown> }[] = [];
  for (const entry of entries) {
    const job = await db.selectFrom('jobs').selectAll().where('id', '=', entry.jobId).executeTakeFirst();
    const project = job ? await db.selectFrom('projects').selectAll().where('id', '=', job.projectId).executeTakeFirst() : undefined;
    if (!job || !project) continue;
    const jobContent = await content(db, project, job);
    const segments = await jobContent.segments();
    const qa = await jobContent.qaWarnings(segments);
    const input: QeThreadInput = {
      inputs: segments.map((segment) => ({
        segment: {
          id: segment.id,
          source: segment.source,
          target: segment.target,
          confirmed: segment.confirmed,
          unmodifiedOrigin: segment.unmodifiedOrigin,
          unmodifiedOriginScore: segment.unmodifiedOriginScore,
        },
        qaWarnings: qa.get(segment.idx) ?? [],
      })),
      context: { sourceLang: project.sourceLang, targetLang: job.targetLang, threshold: Number(entry.threshold) },
    };
    const result = await sharedThreadPool().run<QeJobResult>(THREAD_MODULE, 'estimateInThread', input, signal ? { signal } : {});
    const now = deps.clock().toISOString();
    const written = await db.transaction().execute(async (trx) => {
      // Still this request's job part? A newer request took it over otherwise.
      const current = await trx.selectFrom('qualityEvaluationJobs').select('asyncRequestId').where('jobId', '=', job.id).executeTakeFirst();
      if (current?.asyncRequestId == null || String(current.asyncRequestId) !== String(payload.asyncRequestId)) return false;
      await replaceSegmentResults(
        trx,
        job.id,
        result.segments.map((estimate, i) => ({
          idx: segments[i]!.idx,
          segmentId: segments[i]!.id,
          score: estimate.score,
          warnings: estimate.warnings.map((w) => ({ type: w.type, message: w.message, qeId: w.qeId })),
        })),
        { origin: 'ESTIMATOR', evaluationId: null, qualityProfileUid: null, now, all: true },
      );
      await trx
        .updateTable('qualityEvaluationJobs')
        .set({
          evaluatedAt: now,
          score: result.score,
          words: result.words,
          passed: result.passed,
          segmentCount: result.segments.length,
          segmentsBelow: result.segmentsBelowThreshold,
        })
        .where('jobId', '=', job.id)
        .execute();
      done += 1;
      await reportProgress(trx, payload.asyncRequestId, done, entries.length);
      return true;
    });
    if (written) {
      segmentsEvaluated += result.segments.length;
      if (!result.passed) {
        warnings.push({
          code: 'QualityBelowThreshold',
          message: `Job part ${job.uid} scored ${result.score} (threshold ${result.threshold}).`,
          args: { jobPartUid: job.uid, score: result.score, threshold: result.threshold },
        });
      }
    }
  }
  await completeAsyncRequest(deps, db, payload.asyncRequestId, { acceptedSegmentsCount: segmentsEvaluated, warnings });
  deps.taskWakeup.notify();
}

export const qualityEvaluationTask: AppTaskHandler<typeof QUALITY_EVALUATION_TASK> = {
  kind: QUALITY_EVALUATION_TASK,
  maxAttempts: 3,
  // A task that fails for good has its async request failed by the worker's failure hook
  // (failAsyncRequest, through the task's asyncRequestId), with the ApiError's own code.
  run(context, payload) {
    return runQualityEvaluation(context.deps, payload, context.signal);
  },
};
