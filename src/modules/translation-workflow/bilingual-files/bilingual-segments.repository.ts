import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { BilingualSegment } from '../../../formats/mxliff.js';
import type { InlineTag } from '../../../formats/types.js';
import { parseUnitFacts } from '../../../formats/unit-facts.js';
import type { JobRow, JobSourceRow } from '../kernel/index.js';

/**
 * The segments of a job as a bilingual file shows them (docs/bilingual-files.md): the source
 * segments of the job's part of its file, with the job's own translation and state, else the
 * target the file already had with the state the file gave it (unit facts: confirmed, locked,
 * score, origin).
 */

const PAGE = 2000;

/** The index range of the file the job covers (inclusive). */
export function jobRange(job: JobRow, source: JobSourceRow): { first: number; last: number } {
  return { first: job.beginIndex ?? 0, last: job.endIndex ?? Number(source.segmentCount) - 1 };
}

/** The job's segments, in pages of file order. */
export async function* bilingualSegmentPages(db: Kysely<DB>, job: JobRow, source: JobSourceRow): AsyncGenerator<BilingualSegment[]> {
  const range = jobRange(job, source);
  const names = new Map<string, string | null>();
  let next = range.first;
  while (next <= range.last) {
    const rows = await db
      .selectFrom('sourceSegments')
      .leftJoin('jobSegments', (join) => join.onRef('jobSegments.idx', '=', 'sourceSegments.idx').on('jobSegments.jobId', '=', job.id))
      .select([
        'sourceSegments.idx',
        'sourceSegments.unitIndex',
        'sourceSegments.key',
        'sourceSegments.source',
        'sourceSegments.tags',
        'sourceSegments.importedTarget',
        'sourceSegments.unitFacts',
        'jobSegments.target',
        'jobSegments.confirmed',
        'jobSegments.locked',
        'jobSegments.origin',
        'jobSegments.originScore',
        'jobSegments.modifiedAt',
        'jobSegments.modifiedById',
      ])
      .where('sourceSegments.jobSourceId', '=', job.jobSourceId)
      .where('sourceSegments.idx', '>=', next)
      .where('sourceSegments.idx', '<=', range.last)
      .orderBy('sourceSegments.idx')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    const unknown = [...new Set(rows.map((r) => r.modifiedById).filter((id): id is string => id !== null && !names.has(String(id))))];
    if (unknown.length > 0) {
      const users = await db.selectFrom('users').select(['id', 'userName']).where('id', 'in', unknown).execute();
      for (const id of unknown) names.set(String(id), null);
      for (const user of users) names.set(String(user.id), user.userName);
    }
    yield rows.map((r) => {
      // Without a row of the job, the state is what the file said (an imported MXLIFF, XLIFF 2…).
      const facts = r.target === null ? parseUnitFacts(r.unitFacts) : {};
      const score = r.originScore === null ? (facts.score ?? 0) : Number(r.originScore);
      const confirmed = r.target === null ? facts.confirmed === true && r.importedTarget !== null : bool(r.confirmed!);
      return {
        index: Number(r.idx),
        paraId: Number(r.unitIndex),
        source: r.source,
        target: r.target ?? r.importedTarget ?? '',
        confirmedLevel: confirmed ? Number(job.workflowLevel) : 0,
        locked: r.target === null ? facts.locked === true : bool(r.locked!),
        score,
        grossScore: score,
        origin: r.origin ?? facts.origin ?? null,
        key: r.key,
        tags: JSON.parse(r.tags) as InlineTag[],
        modifiedAt: r.modifiedAt ? new Date(r.modifiedAt).getTime() : null,
        modifiedBy: r.modifiedById === null ? null : (names.get(String(r.modifiedById)) ?? null),
      };
    });
    next = Number(rows[rows.length - 1]!.idx) + 1;
  }
}

/** What the job holds for each segment of `indexes` (its own row), for an upload to compare against. */
export interface HeldSegment {
  source: string;
  /** The job's own translation, else the file's imported target, else ''. */
  target: string;
  confirmed: boolean;
  locked: boolean;
}

export async function heldSegments(db: Kysely<DB>, job: JobRow, indexes: readonly number[]): Promise<Map<number, HeldSegment>> {
  const held = new Map<number, HeldSegment>();
  const wanted = [...new Set(indexes)];
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('sourceSegments')
      .leftJoin('jobSegments', (join) => join.onRef('jobSegments.idx', '=', 'sourceSegments.idx').on('jobSegments.jobId', '=', job.id))
      .select([
        'sourceSegments.idx',
        'sourceSegments.source',
        'sourceSegments.importedTarget',
        'sourceSegments.unitFacts',
        'jobSegments.target',
        'jobSegments.confirmed',
        'jobSegments.locked',
      ])
      .where('sourceSegments.jobSourceId', '=', job.jobSourceId)
      .where('sourceSegments.idx', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const facts = r.target === null ? parseUnitFacts(r.unitFacts) : {};
      held.set(Number(r.idx), {
        source: r.source,
        target: r.target ?? r.importedTarget ?? '',
        confirmed: r.target === null ? facts.confirmed === true && r.importedTarget !== null : bool(r.confirmed!),
        locked: r.target === null ? facts.locked === true : bool(r.locked!),
      });
    }
  }
  return held;
}
