import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { requireJobOf } from '../kernel/index.js';
import type { JobRow, ProjectAccess } from '../kernel/index.js';
import { jobRange } from './job-split.js';
import { textAtLevel } from './segment-versions.js';
import { lastWorkflowLevel, loadSegmentVersions } from './segment-versions.js';
import type { SegmentVersions } from './segment-versions.js';

/**
 * comparePart: the segments of jobs whose text differs between two workflow levels
 * (ComparedSegmentDto). `Miss`: one level has a text and the other none; `Diff`: both have texts
 * and they differ. Segments equal at both levels are left out. Texts per level: segment-versions.ts.
 */

export type ComparedState = 'Miss' | 'Diff';

export interface ComparedSegment {
  uid: string;
  state: ComparedState;
  /** OpenTMS extensions: which job and segment, since a file's segment ids are shared by its languages. */
  jobUid: string;
  index: number;
}

const isEmpty = (text: string | null) => text === null || text === '';

/** How the segment's texts at levels `at` and `with` differ, or null when they do not. Pure. */
export function compareState(segment: SegmentVersions, at: number, withLevel: number): ComparedState | null {
  const a = textAtLevel(segment, at);
  const b = textAtLevel(segment, withLevel);
  if (isEmpty(a) && isEmpty(b)) return null;
  if (isEmpty(a) || isEmpty(b)) return 'Miss';
  return a === b ? null : 'Diff';
}

/** 400 unless both levels are workflow levels of the project. */
async function assertLevels(db: Kysely<DB>, projectId: string, levels: Record<string, number>): Promise<number> {
  const last = await lastWorkflowLevel(db, projectId);
  for (const [field, level] of Object.entries(levels)) {
    if (level > last)
      throw errors.InvalidArguments({
        reason: `The project has ${last} workflow level${last === 1 ? '' : 's'}; there is no level ${level}.`,
        details: [{ field, message: `at most ${last}` }],
      });
  }
  return last;
}

/**
 * comparePart of the jobs `uids` of the project (each once, in the order given, each one the caller
 * sees, else 404), once both levels are known to be the project's (else 400).
 */
export async function compareProjectJobs(
  db: Kysely<DB>,
  caller: Caller,
  project: ProjectAccess,
  uids: readonly string[],
  at: number,
  withLevel: number,
): Promise<ComparedSegment[]> {
  const levels = await assertLevels(db, project.project.id, { atWorkflowLevel: at, withWorkflowLevel: withLevel });
  const jobs: JobRow[] = [];
  for (const uid of new Set(uids)) jobs.push((await requireJobOf(db, caller, project, uid, 'view')).job);
  return compareJobs(db, jobs, at, withLevel, levels);
}

/** The compared segments of `jobs` (in their order, each in file order). */
async function compareJobs(
  db: Kysely<DB>,
  jobs: readonly JobRow[],
  at: number,
  withLevel: number,
  levels: number,
): Promise<ComparedSegment[]> {
  const result: ComparedSegment[] = [];
  for (const job of jobs) {
    const source = await db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
    const versions = await loadSegmentVersions(db, source, job.targetLang, jobRange(job, source), levels);
    for (const segment of versions) {
      const state = compareState(segment, at, withLevel);
      if (state) result.push({ uid: `${source.uid}:${segment.index}`, state, jobUid: job.uid, index: segment.index });
    }
  }
  return result;
}
