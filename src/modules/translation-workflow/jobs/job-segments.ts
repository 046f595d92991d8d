import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { countCharacters } from '../../../domain/counting/word-count.js';
import type { InlineTag } from '../../../formats/types.js';
import { errors } from '../../../errors/index.js';
import { toUserReference } from '../../identity/users/index.js';
import type { JobRow } from '../kernel/index.js';
import type { JobSourceRow } from '../kernel/index.js';
import type { SegmentsCounts } from './jobs.schemas.js';
import { findPreviousLevelJob } from './jobs.repository.js';
import { toPlaceholders } from './unit-segments.js';

/**
 * Reading a job's segments: the source segments of its file (shared by every job of the file)
 * with this job's translations (`job_segments`, else the target the file already had), and the
 * counts of segmentsCount. Counting walks the segments in chunks, so a large job is never held in
 * memory.
 */

/** Most segments one listSegments call returns. */
export const MAX_SEGMENTS_PER_REQUEST = 1000;
const COUNT_CHUNK = 5000;

/** The index range of the file a job covers: its split part, or the whole file. */
function jobRange(job: JobRow, source: JobSourceRow): { first: number; last: number } {
  return { first: job.beginIndex ?? 0, last: job.endIndex ?? Number(source.segmentCount) - 1 };
}

function segmentRows(db: Kysely<DB>, job: JobRow) {
  return db
    .selectFrom('sourceSegments')
    .leftJoin('jobSegments', (join) => join.onRef('jobSegments.idx', '=', 'sourceSegments.idx').on('jobSegments.jobId', '=', job.id))
    .where('sourceSegments.jobSourceId', '=', job.jobSourceId);
}

const epoch = (iso: string) => new Date(iso).getTime();

/** listSegments: segments `beginIndex`..`endIndex` (inclusive, indexes of the job's file), in order. */
export async function listJobSegments(db: Kysely<DB>, job: JobRow, source: JobSourceRow, beginIndex: number, endIndex: number) {
  if (endIndex < beginIndex)
    throw errors.InvalidArguments({
      reason: 'endIndex must not be smaller than beginIndex.',
      details: [{ field: 'endIndex', message: 'must be >= beginIndex' }],
    });
  if (endIndex - beginIndex + 1 > MAX_SEGMENTS_PER_REQUEST) {
    throw errors.InvalidArguments({
      reason: `At most ${MAX_SEGMENTS_PER_REQUEST} segments per request.`,
      details: [{ field: 'endIndex', message: `at most ${MAX_SEGMENTS_PER_REQUEST} segments from beginIndex` }],
    });
  }
  if (source.importStatus !== 'OK') return [];
  const range = jobRange(job, source);
  const from = Math.max(beginIndex, range.first);
  const to = Math.min(endIndex, range.last);
  if (from > to) return [];
  const rows = await segmentRows(db, job)
    .select([
      'sourceSegments.idx',
      'sourceSegments.key',
      'sourceSegments.source',
      'sourceSegments.tags',
      'sourceSegments.importedTarget',
      'jobSegments.target',
      'jobSegments.modifiedAt',
      'jobSegments.modifiedById',
    ])
    .where('sourceSegments.idx', '>=', from)
    .where('sourceSegments.idx', '<=', to)
    .orderBy('sourceSegments.idx')
    .execute();
  const step = job.projectWorkflowStepId === null ? null : await workflowStepOf(db, job.projectWorkflowStepId);
  const users = await usersById(db, [source.createdById, ...rows.map((r) => r.modifiedById)]);
  const created = epoch(source.createdAt);
  return rows.map((r) => ({
    id: `${source.uid}:${r.idx}`,
    index: Number(r.idx),
    key: r.key,
    tags: JSON.parse(r.tags) as InlineTag[],
    source: r.source,
    translation: r.target ?? r.importedTarget,
    createdAt: created,
    modifiedAt: r.modifiedAt ? epoch(r.modifiedAt) : created,
    createdBy: source.createdById === null ? null : (users.get(source.createdById) ?? null),
    modifiedBy: r.modifiedById === null ? null : (users.get(r.modifiedById) ?? null),
    workflowLevel: Number(job.workflowLevel),
    workflowStep: step,
  }));
}

async function workflowStepOf(db: Kysely<DB>, projectStepId: string) {
  const row = await db
    .selectFrom('projectWorkflowSteps')
    .innerJoin('workflowSteps', 'workflowSteps.id', 'projectWorkflowSteps.workflowStepId')
    .select([
      'workflowSteps.id',
      'workflowSteps.uid',
      'workflowSteps.name',
      'workflowSteps.abbr',
      'workflowSteps.orderIndex',
      'workflowSteps.lqaEnabled',
    ])
    .where('projectWorkflowSteps.id', '=', projectStepId)
    .executeTakeFirst();
  return row
    ? { id: row.id, uid: row.uid, name: row.name, abbr: row.abbr, order: Number(row.orderIndex), lqaEnabled: bool(row.lqaEnabled) }
    : null;
}

async function usersById(db: Kysely<DB>, ids: ReadonlyArray<unknown>) {
  const wanted = [...new Set(ids.filter((id) => id !== null && id !== undefined).map(String))];
  if (wanted.length === 0) return new Map<string, ReturnType<typeof toUserReference>>();
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', wanted).execute();
  return new Map(rows.map((u) => [u.id, toUserReference(u)]));
}

/** Characters of a segment as counted for jobs: tags count nothing. */
export function segmentCharacters(source: string, tags: readonly InlineTag[]): number {
  const text = toPlaceholders(source, tags).replace(/[\uE000-\uF8FF]/g, '');
  return countCharacters(text).characters;
}

const emptyCounts = (): SegmentsCounts => ({
  allConfirmed: false,
  charsCount: 0,
  completedCharsCount: 0,
  confirmedCharsCount: 0,
  confirmedLockedCharsCount: 0,
  lockedCharsCount: 0,
  segmentsCount: 0,
  completedSegmentsCount: 0,
  lockedSegmentsCount: 0,
  segmentGroupsCount: 0,
  translatedSegmentsCount: 0,
  translatedLockedSegmentsCount: 0,
  wordsCount: 0,
  completedWordsCount: 0,
  confirmedWordsCount: 0,
  confirmedLockedWordsCount: 0,
  lockedWordsCount: 0,
  addedSegments: 0,
  addedWords: 0,
  machineTranslationPostEditedSegmentsCount: 0,
  machineTranslationRelevantSegmentsCount: 0,
});

/**
 * SegmentsCountsDto of one job. Confirmed = confirmed in this job; completed = the same (a segment
 * is done for a step once confirmed there); translated = has a translation (this job's or the
 * file's own target); groups = the file's units. Locking, QA and MT figures are 0 until those
 * capabilities exist. Whole-file jobs report the file's exact word total.
 */
export async function jobSegmentCounts(db: Kysely<DB>, job: JobRow, source: JobSourceRow): Promise<SegmentsCounts> {
  const counts = emptyCounts();
  if (source.importStatus !== 'OK') return counts;
  const range = jobRange(job, source);
  const units = new Set<number>();
  let confirmedSegments = 0;
  let next = range.first;
  for (;;) {
    const rows = await segmentRows(db, job)
      .select([
        'sourceSegments.idx',
        'sourceSegments.unitIndex',
        'sourceSegments.source',
        'sourceSegments.tags',
        'sourceSegments.words',
        'sourceSegments.importedTarget',
        'jobSegments.target',
        'jobSegments.confirmed',
      ])
      .where('sourceSegments.idx', '>=', next)
      .where('sourceSegments.idx', '<=', range.last)
      .orderBy('sourceSegments.idx')
      .limit(COUNT_CHUNK)
      .execute();
    for (const r of rows) {
      const chars = segmentCharacters(r.source, JSON.parse(r.tags) as InlineTag[]);
      const words = Number(r.words);
      counts.segmentsCount++;
      counts.charsCount += chars;
      counts.wordsCount += words;
      units.add(Number(r.unitIndex));
      if ((r.target ?? r.importedTarget ?? '') !== '') counts.translatedSegmentsCount++;
      if (r.confirmed !== null && bool(r.confirmed)) {
        confirmedSegments++;
        counts.confirmedWordsCount += words;
        counts.confirmedCharsCount += chars;
      }
    }
    if (rows.length < COUNT_CHUNK) break;
    next = Number(rows[rows.length - 1]!.idx) + 1;
  }
  if (job.beginIndex === null) counts.wordsCount = Number(source.wordCount);
  counts.segmentGroupsCount = units.size;
  counts.completedSegmentsCount = confirmedSegments;
  counts.completedWordsCount = counts.confirmedWordsCount;
  counts.completedCharsCount = counts.confirmedCharsCount;
  counts.allConfirmed = counts.segmentsCount > 0 && confirmedSegments === counts.segmentsCount;
  return counts;
}

/** The counts of the same file and language one workflow level earlier (null on the first level). */
export async function previousWorkflowCounts(db: Kysely<DB>, job: JobRow, source: JobSourceRow) {
  const previous = await findPreviousLevelJob(db, job);
  if (!previous) return null;
  return {
    completed: previous.status === 'COMPLETED' || previous.status === 'DELIVERED',
    counts: await jobSegmentCounts(db, previous, source),
  };
}
