import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { QaSegment } from '../../../domain/quality-assurance/types.js';
import { errors } from '../../../errors/index.js';
import { parseUnitFacts } from '../../../formats/unit-facts.js';
import { qaTermHits } from '../job-term-bases/index.js';
import { jobRange } from '../job-structure/index.js';
import { findPreviousLevelJob } from '../jobs/index.js';
import type { JobRow, JobSourceRow, ProjectRow } from '../kernel/index.js';

/**
 * A job's segments as QA reads them (docs/qa-runs-and-warnings.md, "What a run reads"): the file's
 * source segments of the job's range with this job's target (`job_segments`, else the target the
 * file already held), confirmation, lock, unmodified pre-translation origin, the file's length
 * limit of the unit, whether the previous workflow level changed the segment later, and the term
 * hits of the job's QA term bases. Segment ids are the JobSegmentDto ids `<file uid>:<index>`.
 */

const CHUNK = 5000;
const ORIGINS = new Set(['tm', 'mt', 'nt']);

/** A job with what a QA run of it needs. */
export interface QaJob {
  project: ProjectRow;
  job: JobRow;
  source: JobSourceRow;
}

export async function qaJobOf(db: Kysely<DB>, project: ProjectRow, job: JobRow): Promise<QaJob> {
  const source = await db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
  if (source.importStatus === 'ERROR') throw errors.JobImportFailed({ jobUid: job.uid });
  if (source.importStatus !== 'OK') throw errors.JobImportNotFinished({ jobUid: job.uid });
  return { project, job, source };
}

/** The wire id of a segment of the job. */
export const segmentWireId = (source: JobSourceRow, idx: number) => `${source.uid}:${idx}`;

/**
 * The index of the segment a wire id names in the job: `<file uid>:<index>` (JobSegmentDto ids)
 * or `<job uid>:<index>` (the bilingual file's trans-unit ids); null when it names no segment of it.
 */
export function segmentIndexOf(qa: QaJob, id: string): number | null {
  const colon = id.lastIndexOf(':');
  if (colon <= 0) return null;
  const owner = id.slice(0, colon);
  if (owner !== qa.source.uid && owner !== qa.job.uid) return null;
  const digits = id.slice(colon + 1);
  if (!/^\d{1,9}$/.test(digits)) return null;
  const idx = Number(digits);
  const range = jobRange(qa.job, qa.source);
  return idx >= range.first && idx <= range.last ? idx : null;
}

interface SegmentMeta {
  unit: number;
  /** When this job's row was last written; null when the job holds no row for the segment. */
  modifiedAt: string | null;
}

/** A segment as loaded, with its index. */
export interface LoadedQaSegment extends QaSegment {
  idx: number;
}

interface LoadOptions {
  /** Only these indexes (a segments run); all of the job's otherwise. */
  only?: readonly number[];
  /** Targets to check instead of the stored ones (runWithUpdate), by index. */
  overrides?: ReadonlyMap<number, { target: string; confirmed?: boolean }>;
  /** Look up term hits (false when no term check is on). */
  terms?: boolean;
}

/** The job's segments (or those of `only`) as QaSegments, in file order. */
export async function loadQaSegments(db: Kysely<DB>, qa: QaJob, options: LoadOptions = {}): Promise<LoadedQaSegment[]> {
  const { job, source } = qa;
  const range = jobRange(job, source);
  const previous = await findPreviousLevelJob(db, job);
  const wanted = options.only ? [...new Set(options.only)].sort((a, b) => a - b) : null;
  const segments: LoadedQaSegment[] = [];
  const meta = new Map<number, SegmentMeta>();
  /** Unit facts of each unit's first segment, by unit index (a unit's limit applies to each of its segments). */
  const unitFacts = new Map<number, ReturnType<typeof parseUnitFacts>>();
  const batches: { from: number; to: number; idxs?: number[] }[] = [];
  if (wanted)
    for (let at = 0; at < wanted.length; at += 500) batches.push({ from: range.first, to: range.last, idxs: wanted.slice(at, at + 500) });
  else batches.push({ from: range.first, to: range.last });
  for (const batch of batches) {
    let next = batch.from;
    for (;;) {
      let query = db
        .selectFrom('sourceSegments')
        .leftJoin('jobSegments', (join) => join.onRef('jobSegments.idx', '=', 'sourceSegments.idx').on('jobSegments.jobId', '=', job.id))
        .select([
          'sourceSegments.idx',
          'sourceSegments.unitIndex',
          'sourceSegments.source',
          'sourceSegments.importedTarget',
          'sourceSegments.unitFacts',
          'jobSegments.target',
          'jobSegments.confirmed',
          'jobSegments.locked',
          'jobSegments.origin',
          'jobSegments.originScore',
          'jobSegments.modifiedAt',
        ])
        .where('sourceSegments.jobSourceId', '=', job.jobSourceId)
        .where('sourceSegments.idx', '>=', next)
        .where('sourceSegments.idx', '<=', batch.to)
        .orderBy('sourceSegments.idx')
        .limit(CHUNK);
      if (batch.idxs) query = query.where('sourceSegments.idx', 'in', batch.idxs);
      const rows = await query.execute();
      for (const r of rows) {
        const idx = Number(r.idx);
        const unit = Number(r.unitIndex);
        if (r.unitFacts) unitFacts.set(unit, parseUnitFacts(r.unitFacts));
        const override = options.overrides?.get(idx);
        const origin = r.origin !== null && ORIGINS.has(r.origin) ? (r.origin as 'tm' | 'mt' | 'nt') : null;
        segments.push({
          idx,
          id: segmentWireId(source, idx),
          source: r.source,
          target: override ? override.target : (r.target ?? r.importedTarget ?? ''),
          confirmed: override?.confirmed ?? (r.confirmed !== null && bool(r.confirmed)),
          locked: r.locked !== null && bool(r.locked),
          maxLength: null,
          unmodifiedOrigin: override ? null : origin,
          unmodifiedOriginScore: override || origin === null ? null : r.originScore === null ? null : Number(r.originScore),
          newerAtLowerLevel: false,
        });
        meta.set(idx, { unit, modifiedAt: r.modifiedAt });
      }
      if (rows.length < CHUNK) break;
      next = Number(rows[rows.length - 1]!.idx) + 1;
    }
  }
  await fillUnitLimits(db, qa, segments, meta, unitFacts);
  if (previous) await markNewerAtLowerLevel(db, previous, segments, meta);
  if (options.terms !== false) {
    const hits = await qaTermHits(db, qa.project, job, segments);
    if (hits) segments.forEach((segment, i) => Object.assign(segment, hits[i]));
  }
  return segments;
}

/** maxLength: the file's limit of the segment's unit (read from the unit's first segment). */
async function fillUnitLimits(
  db: Kysely<DB>,
  qa: QaJob,
  segments: readonly LoadedQaSegment[],
  meta: ReadonlyMap<number, SegmentMeta>,
  known: Map<number, ReturnType<typeof parseUnitFacts>>,
): Promise<void> {
  const missing = [...new Set([...meta.values()].map((m) => m.unit))].filter((u) => !known.has(u));
  for (let at = 0; at < missing.length; at += 500) {
    const rows = await db
      .selectFrom('sourceSegments')
      .select(['unitIndex', 'unitFacts'])
      .where('jobSourceId', '=', qa.job.jobSourceId)
      .where('unitIndex', 'in', missing.slice(at, at + 500))
      .where('unitFacts', 'is not', null)
      .execute();
    for (const row of rows) known.set(Number(row.unitIndex), parseUnitFacts(row.unitFacts));
  }
  for (const segment of segments) {
    const limit = known.get(meta.get(segment.idx)!.unit)?.maxLength;
    if (typeof limit === 'number' && Number.isFinite(limit) && limit > 0) segment.maxLength = limit;
  }
}

/** newerAtLowerLevel: the previous level's job changed the segment after this level last did. */
async function markNewerAtLowerLevel(
  db: Kysely<DB>,
  previous: JobRow,
  segments: readonly LoadedQaSegment[],
  meta: ReadonlyMap<number, SegmentMeta>,
): Promise<void> {
  const ours = new Map(segments.filter((s) => meta.get(s.idx)?.modifiedAt).map((s) => [s.idx, s] as const));
  const idxs = [...ours.keys()];
  for (let at = 0; at < idxs.length; at += 500) {
    const rows = await db
      .selectFrom('jobSegments')
      .select(['idx', 'modifiedAt'])
      .where('jobId', '=', previous.id)
      .where('idx', 'in', idxs.slice(at, at + 500))
      .execute();
    for (const row of rows) {
      const segment = ours.get(Number(row.idx));
      const ourTime = segment && meta.get(segment.idx)?.modifiedAt;
      if (segment && ourTime && new Date(row.modifiedAt).getTime() > new Date(ourTime).getTime()) segment.newerAtLowerLevel = true;
    }
  }
}

/**
 * The other segments inconsistency checks compare with when the settings' scope is PROJECT: the
 * translated segments of the project's other jobs of the same target language and workflow level.
 */
export async function projectOtherSegments(db: Kysely<DB>, qa: QaJob): Promise<{ id: string; source: string; target: string }[]> {
  const others = await db
    .selectFrom('jobs')
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .select(['jobs.id', 'jobs.jobSourceId', 'jobs.beginIndex', 'jobs.endIndex', 'jobSources.uid as sourceUid'])
    .where('jobs.projectId', '=', qa.project.id)
    .where('jobs.targetLang', '=', qa.job.targetLang)
    .where('jobs.workflowLevel', '=', Number(qa.job.workflowLevel))
    .where('jobs.id', '!=', qa.job.id)
    .where('jobSources.importStatus', '=', 'OK')
    .execute();
  const result: { id: string; source: string; target: string }[] = [];
  for (const other of others) {
    const rows = await db
      .selectFrom('jobSegments')
      .innerJoin('sourceSegments', (join) =>
        join.onRef('sourceSegments.idx', '=', 'jobSegments.idx').on('sourceSegments.jobSourceId', '=', other.jobSourceId),
      )
      .select(['jobSegments.idx', 'sourceSegments.source', 'jobSegments.target'])
      .where('jobSegments.jobId', '=', other.id)
      .where('jobSegments.target', '!=', '')
      .$if(other.beginIndex !== null, (q) => q.where('jobSegments.idx', '>=', Number(other.beginIndex)))
      .$if(other.endIndex !== null, (q) => q.where('jobSegments.idx', '<=', Number(other.endIndex)))
      .execute();
    for (const row of rows) result.push({ id: `${other.sourceUid}:${row.idx}`, source: row.source, target: row.target });
  }
  return result;
}
