import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { JobSourceRow } from '../kernel/index.js';
import type { IndexRange } from './split-plan.js';

/**
 * A segment's translation at each workflow level of one file and target language, for comparing
 * levels and for the workflow changes report (docs/split-compare-and-workflow-changes.md).
 *
 * A level's text is what that step's job left: its own translation (`job_segments`) when it has
 * one, else the text it received from the level before; before level 1 stands the target the
 * file already had (XLIFF <target>), if any. So a step that did not touch a segment shows the
 * text it was given, and only a step that wrote something different changed it.
 */

export interface SegmentVersions {
  index: number;
  source: string;
  /** The target the uploaded file already held. */
  imported: string | null;
  /** `own[n - 1]`: the translation the job of level n wrote, or null. */
  own: (string | null)[];
}

/** The text at each level (`[n - 1]` for level n). Pure. */
export function effectiveTexts(segment: SegmentVersions): (string | null)[] {
  const texts: (string | null)[] = [];
  let previous = segment.imported;
  for (const own of segment.own) {
    previous = own ?? previous;
    texts.push(previous);
  }
  return texts;
}

/** The text at `level` (1-based); level 0 is the file's own target. */
export function textAtLevel(segment: SegmentVersions, level: number): string | null {
  return level === 0 ? segment.imported : (effectiveTexts(segment)[level - 1] ?? null);
}

/**
 * The versions of the segments `range` of `source` in `targetLang`, at levels 1..`levels`. Each
 * segment index belongs to one job per level (split parts partition the file), so the level's
 * translations are read from whichever of its jobs holds the segment.
 */
export async function loadSegmentVersions(
  db: Kysely<DB>,
  source: JobSourceRow,
  targetLang: string,
  range: IndexRange,
  levels: number,
): Promise<SegmentVersions[]> {
  if (source.importStatus !== 'OK' || range.last < range.first) return [];
  const [segments, translations] = await Promise.all([
    db
      .selectFrom('sourceSegments')
      .select(['idx', 'source', 'importedTarget'])
      .where('jobSourceId', '=', source.id)
      .where('idx', '>=', range.first)
      .where('idx', '<=', range.last)
      .orderBy('idx')
      .execute(),
    db
      .selectFrom('jobSegments')
      .innerJoin('jobs', 'jobs.id', 'jobSegments.jobId')
      .select(['jobs.workflowLevel', 'jobSegments.idx', 'jobSegments.target'])
      .where('jobs.jobSourceId', '=', source.id)
      .where('jobs.targetLang', '=', targetLang)
      .where('jobSegments.idx', '>=', range.first)
      .where('jobSegments.idx', '<=', range.last)
      .execute(),
  ]);
  const own = new Map<number, (string | null)[]>();
  for (const t of translations) {
    const level = Number(t.workflowLevel);
    if (level < 1 || level > levels) continue;
    const idx = Number(t.idx);
    const row = own.get(idx) ?? new Array<string | null>(levels).fill(null);
    row[level - 1] = t.target;
    own.set(idx, row);
  }
  return segments.map((s) => ({
    index: Number(s.idx),
    source: s.source,
    imported: s.importedTarget,
    own: own.get(Number(s.idx)) ?? new Array<string | null>(levels).fill(null),
  }));
}

/** The project's last workflow level (1 for a project without workflow steps). */
export async function lastWorkflowLevel(db: Kysely<DB>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('projectWorkflowSteps')
    .select((eb) => eb.fn.max('workflowLevel').as('level'))
    .where('projectId', '=', projectId)
    .executeTakeFirst();
  return row?.level === null || row?.level === undefined ? 1 : Number(row.level);
}
