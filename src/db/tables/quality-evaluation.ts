import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-12-01T1400_quality_evaluation (docs/quality-evaluation.md): the last evaluation requested per job part. */
export interface QualityEvaluationJobsTable {
  jobId: Id;
  organizationId: Id;
  /** The evaluation's async request; its `finishedAt` tells whether results may be shown. */
  asyncRequestId: Id | null;
  qualityProfileUid: string | null;
  /** 0..100: the job part passes at a word-weighted score at least this. */
  threshold: number;
  lockSegments: Generated<SqlBool>;
  confirmSegments: Generated<SqlBool>;
  requestedAt: Timestamp;
  requestedById: Id | null;
  /** Set by the worker when the evaluation finished, with the figures below; null before. */
  evaluatedAt: Timestamp | null;
  score: number | null;
  words: number | null;
  passed: SqlBool | null;
  segmentCount: number | null;
  segmentsBelow: number | null;
}

/** The last evaluation result of one segment, by the estimator (`ESTIMATOR`) or stored by segmentWarnings (`EXTERNAL`). */
export interface QualityEvaluationSegmentsTable {
  jobId: Id;
  segmentIdx: number;
  /** The segment's wire id when it was evaluated. */
  segmentId: string;
  origin: 'ESTIMATOR' | 'EXTERNAL';
  /** 0..100 from the estimator; null for external warnings. */
  score: number | null;
  /** JSON array of {type, message, qeId}. */
  warnings: string;
  evaluationId: string | null;
  qualityProfileUid: string | null;
  evaluatedAt: Timestamp;
}

export interface QualityEvaluationTables {
  qualityEvaluationJobs: QualityEvaluationJobsTable;
  qualityEvaluationSegments: QualityEvaluationSegmentsTable;
}
