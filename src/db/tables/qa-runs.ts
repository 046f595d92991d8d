import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-12-01T1300_qa_runs_and_warnings (docs/qa-runs-and-warnings.md). */
export interface QaRunsTable {
  /** One row per job: its last run. */
  jobId: Id;
  ranAt: Timestamp;
  ranById: Id | null;
  /** The run covered every segment of the job. */
  complete: Generated<SqlBool>;
  segmentCount: Generated<number>;
  warningCount: Generated<number>;
  /** JSON array of StoredQaWarning ({s, id, t, k, i}). */
  warnings: string;
}

/** A warning ignored on a job, by its id (which changes with the segment's target). */
export interface QaIgnoredWarningsTable {
  jobId: Id;
  warningId: string;
  segmentIdx: number;
  ignoredAt: Timestamp;
  ignoredById: Id | null;
}

/** Warning types ignored on one segment while its target has `targetHash`. */
export interface QaIgnoredChecksTable {
  jobId: Id;
  segmentIdx: number;
  warningType: string;
  targetHash: string;
}

export interface QaRunTables {
  qaRuns: QaRunsTable;
  qaIgnoredWarnings: QaIgnoredWarningsTable;
  qaIgnoredChecks: QaIgnoredChecksTable;
}
