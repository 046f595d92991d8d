import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { QaSegment, QaWarning } from '../../../domain/quality-assurance/types.js';
import type { JobRow, ProjectRow } from '../kernel/index.js';
import {
  currentWarningId,
  ignoredStateOf,
  lastQaRun,
  loadQaSegments,
  qaJobOf,
  segmentIndexOf,
  segmentWireId,
} from '../quality-assurance/index.js';

/**
 * What quality evaluation reads of a job part, through the QA module's front door: its segments
 * as QA reads them (the text shown now, origin of an unedited pre-translation, confirmation), the
 * warnings of its last QA run, and what a segment wire id names. Kept behind this one interface so
 * the service and the task depend on nothing else of QA.
 */
export interface QeJobContent {
  /** The wire id of the segment at `idx` (the JobSegmentDto id `<file uid>:<index>`). */
  wireId(idx: number): string;
  /** The index a segment wire id (`<file uid>:<index>` or `<job uid>:<index>`) names in the job part; null when none. */
  indexOf(segmentId: string): number | null;
  /** The job part's segments in file order, each with its index. */
  segments(): Promise<Array<QaSegment & { idx: number }>>;
  /**
   * The warnings of the job part's last QA run on `segments` (from segments()) by segment index:
   * those ignored, and those of a segment whose target changed since the run, left out; empty without a run.
   */
  qaWarnings(segments: ReadonlyArray<QaSegment & { idx: number }>): Promise<Map<number, Pick<QaWarning, 'type'>[]>>;
}

export type QeContentSource = (db: Kysely<DB>, project: ProjectRow, job: JobRow) => Promise<QeJobContent>;

/** The content of a job part, read through the QA module (qa-segments, the last stored run). */
export const qaModuleContent: QeContentSource = async (db, project, job) => {
  const qa = await qaJobOf(db, project, job);
  return {
    wireId: (idx) => segmentWireId(qa.source, idx),
    indexOf: (segmentId) => segmentIndexOf(qa, segmentId),
    segments: () => loadQaSegments(db, qa, { terms: false }),
    qaWarnings: async (segments) => {
      const byIdx = new Map<number, Pick<QaWarning, 'type'>[]>();
      const run = await lastQaRun(db, job.id);
      if (!run || run.warnings.length === 0) return byIdx;
      const { ids, checks } = await ignoredStateOf(db, job, segments);
      const targets = new Map(segments.map((segment) => [segment.idx, segment.target]));
      for (const warning of run.warnings) {
        const target = targets.get(warning.s);
        if (target === undefined || currentWarningId(job.uid, warning.s, warning, target) !== warning.id) continue;
        if (warning.i === 1 && (ids.has(warning.id) || (checks.get(warning.s) ?? []).includes(warning.t))) continue;
        const list = byIdx.get(warning.s) ?? [];
        list.push({ type: warning.t });
        byIdx.set(warning.s, list);
      }
      return byIdx;
    },
  };
};
