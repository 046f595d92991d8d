import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import { bulkInsert } from '../../../db/bulk-insert.js';
import type { BulkTable } from '../../../db/bulk-insert.js';
import type { DB, Id } from '../../../db/schema.js';
import type { Db } from '../../../queue/types.js';

/** A warning as stored and answered: Phrase's QE warning fields. */
export interface StoredQeWarning {
  type: string;
  message: string;
  qeId: string | null;
}

export interface SegmentResultRow {
  idx: number;
  segmentId: string;
  score: number | null;
  warnings: StoredQeWarning[];
}

const SEGMENTS: BulkTable = {
  table: 'quality_evaluation_segments',
  columns: [
    { name: 'job_id', pgType: 'bigint' },
    { name: 'segment_idx', pgType: 'bigint' },
    { name: 'segment_id', pgType: 'varchar' },
    { name: 'origin', pgType: 'varchar' },
    { name: 'score', pgType: 'bigint' },
    { name: 'warnings', pgType: 'text' },
    { name: 'evaluation_id', pgType: 'varchar' },
    { name: 'quality_profile_uid', pgType: 'varchar' },
    { name: 'evaluated_at', pgType: 'varchar' },
  ],
};

/** Rows written per statement batch. */
const WRITE_CHUNK = 1000;

/**
 * Replaces the stored results of segments `rows` of a job (by index): a segment's earlier result,
 * by the estimator or stored externally, is overwritten. With `all`, every earlier result of the
 * job goes first (a full evaluation).
 */
export async function replaceSegmentResults(
  trx: Kysely<DB>,
  jobId: Id,
  rows: readonly SegmentResultRow[],
  meta: { origin: 'ESTIMATOR' | 'EXTERNAL'; evaluationId: string | null; qualityProfileUid: string | null; now: string; all: boolean },
): Promise<void> {
  if (meta.all) {
    await trx.deleteFrom('qualityEvaluationSegments').where('jobId', '=', jobId).execute();
  } else {
    const idxs = rows.map((row) => row.idx);
    for (let at = 0; at < idxs.length; at += 500) {
      await trx
        .deleteFrom('qualityEvaluationSegments')
        .where('jobId', '=', jobId)
        .where('segmentIdx', 'in', idxs.slice(at, at + 500))
        .execute();
    }
  }
  for (let at = 0; at < rows.length; at += WRITE_CHUNK) {
    await bulkInsert(
      trx,
      SEGMENTS,
      rows
        .slice(at, at + WRITE_CHUNK)
        .map((row) => [
          jobId,
          row.idx,
          row.segmentId,
          meta.origin,
          row.score,
          JSON.stringify(row.warnings),
          meta.evaluationId,
          meta.qualityProfileUid,
          meta.now,
        ]),
    );
  }
}

/** The evaluation state of each job (its last request, finished or not), by job id. */
export interface EvaluationState {
  jobId: string;
  /** The last requested evaluation's async request has not finished: its results are not shown yet. */
  running: boolean;
  evaluatedAt: string | null;
  score: number | null;
  threshold: number | null;
  passed: boolean | null;
  words: number | null;
  segmentsBelow: number | null;
}

export async function evaluationStates(db: Db, jobIds: readonly Id[]): Promise<Map<string, EvaluationState>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('qualityEvaluationJobs')
    .leftJoin('asyncRequests', 'asyncRequests.id', 'qualityEvaluationJobs.asyncRequestId')
    .select([
      'qualityEvaluationJobs.jobId',
      'qualityEvaluationJobs.asyncRequestId',
      'asyncRequests.finishedAt',
      'qualityEvaluationJobs.evaluatedAt',
      'qualityEvaluationJobs.score',
      'qualityEvaluationJobs.threshold',
      'qualityEvaluationJobs.passed',
      'qualityEvaluationJobs.words',
      'qualityEvaluationJobs.segmentsBelow',
    ])
    .where('qualityEvaluationJobs.jobId', 'in', [...jobIds])
    .execute();
  return new Map(
    rows.map((row) => [
      String(row.jobId),
      {
        jobId: String(row.jobId),
        running: row.asyncRequestId !== null && row.finishedAt === null,
        evaluatedAt: row.evaluatedAt,
        score: row.score === null ? null : Number(row.score),
        threshold: row.evaluatedAt === null ? null : Number(row.threshold),
        passed: row.passed === null ? null : bool(row.passed),
        words: row.words === null ? null : Number(row.words),
        segmentsBelow: row.segmentsBelow === null ? null : Number(row.segmentsBelow),
      },
    ]),
  );
}

/**
 * Stored results of `jobIds` (jobs of one file) at indexes after `afterIdx`, in index order and then
 * in the order of `jobIds`; at most `limitIdx` distinct indexes plus whether more follow.
 */
export async function segmentResultsPage(
  db: Db,
  jobIds: readonly Id[],
  afterIdx: number,
  limitIdx: number,
): Promise<{ rows: Array<SegmentResultRow & { jobId: string }>; more: boolean }> {
  if (jobIds.length === 0 || limitIdx <= 0) return { rows: [], more: false };
  const rows = await db
    .selectFrom('qualityEvaluationSegments')
    .select(['jobId', 'segmentIdx', 'segmentId', 'score', 'warnings'])
    .where('jobId', 'in', [...jobIds])
    .where('segmentIdx', '>', afterIdx)
    .orderBy('segmentIdx')
    .limit((limitIdx + 1) * jobIds.length)
    .execute();
  const position = new Map(jobIds.map((id, i) => [String(id), i]));
  const result: Array<SegmentResultRow & { jobId: string }> = [];
  const seen: number[] = [];
  let more = false;
  for (const row of rows) {
    const idx = Number(row.segmentIdx);
    if (seen[seen.length - 1] !== idx) {
      if (seen.length === limitIdx) {
        more = true;
        break;
      }
      seen.push(idx);
    }
    result.push({
      jobId: String(row.jobId),
      idx,
      segmentId: row.segmentId,
      score: row.score === null ? null : Number(row.score),
      warnings: JSON.parse(row.warnings) as StoredQeWarning[],
    });
  }
  result.sort((a, b) => a.idx - b.idx || position.get(a.jobId)! - position.get(b.jobId)!);
  return { rows: result, more };
}
