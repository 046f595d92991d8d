import type { BilingualSegment } from '../../../formats/mxliff.js';
import type { HeldSegment } from './bilingual-segments.repository.js';

/**
 * What an uploaded bilingual file changes in one job (docs/bilingual-files.md, "Upload"). Pure,
 * so that the rules are table-tested:
 *
 * - Every segment of the file must be a segment of the job with the same source; otherwise the
 *   whole upload is refused with the first mismatch (the file was made from another job, or the
 *   job's source changed since it was downloaded) and nothing changes.
 * - A segment whose target, confirmation and lock are what the job holds is unchanged.
 * - A segment the job holds locked is refused when the file changes its target or confirmation,
 *   unless the caller may lock and the file unlocks it.
 * - Only callers who may lock (project managers, not linguists) change the lock; a file that only
 *   changes the lock of someone else's segment is refused for that segment.
 */

export interface SegmentWrite {
  idx: number;
  target: string;
  confirmed: boolean;
  locked: boolean;
  /** The target changed (a person's text now: its origin is cleared). */
  targetChanged: boolean;
}

export interface RefusedSegment {
  idx: number;
  reason: 'LOCKED' | 'LOCK_NOT_ALLOWED';
}

export type UploadPlan =
  | { mismatch: string }
  | {
      writes: SegmentWrite[];
      unchanged: number;
      refused: RefusedSegment[];
    };

export function planUpload(
  jobUid: string,
  range: { first: number; last: number },
  file: readonly BilingualSegment[],
  held: ReadonlyMap<number, HeldSegment>,
  mayLock: boolean,
): UploadPlan {
  const seen = new Set<number>();
  for (const segment of file) {
    const id = `${jobUid}:${segment.index}`;
    const current = held.get(segment.index);
    if (segment.index < range.first || segment.index > range.last || !current) {
      return { mismatch: `segment ${id} is not a segment of job ${jobUid}` };
    }
    if (seen.has(segment.index)) return { mismatch: `segment ${id} occurs twice in the file` };
    seen.add(segment.index);
    if (segment.source !== current.source) {
      return {
        mismatch: `the source of segment ${id} is not the job's ("${preview(segment.source)}" in the file, "${preview(current.source)}" in the job): the file was made from another job, or the job's source changed since it was downloaded`,
      };
    }
  }
  const writes: SegmentWrite[] = [];
  const refused: RefusedSegment[] = [];
  let unchanged = 0;
  for (const segment of file) {
    const current = held.get(segment.index)!;
    const confirmed = segment.confirmedLevel > 0;
    const targetChanged = segment.target !== current.target;
    const contentChanged = targetChanged || confirmed !== current.confirmed;
    const lockChanged = segment.locked !== current.locked;
    if (!contentChanged && !lockChanged) {
      unchanged += 1;
      continue;
    }
    const locked = mayLock ? segment.locked : current.locked;
    if (contentChanged && current.locked && locked) {
      refused.push({ idx: segment.index, reason: 'LOCKED' });
      continue;
    }
    if (!contentChanged && !mayLock) {
      refused.push({ idx: segment.index, reason: 'LOCK_NOT_ALLOWED' });
      continue;
    }
    writes.push({ idx: segment.index, target: segment.target, confirmed, locked, targetChanged });
  }
  return { writes, unchanged, refused };
}

function preview(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
