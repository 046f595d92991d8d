import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { displayTokensOf } from '../../../domain/translation-memory/tm-text.js';
import type { InlineTag } from '../../../formats/types.js';
import { writeUnits } from '../../language-resources/translation-memories/index.js';
import type { NewTmUnit } from '../../language-resources/translation-memories/index.js';
import type { JobRow } from '../kernel/index.js';
import { projectTransMemoryTargets, transMemoryLangFor } from './tm-settings.js';

/**
 * Write-back (docs/translation-memory.md, "Write-back"): the confirmed translations of a job go
 * into the project's TMs with write enabled for the job's target language and workflow step, in
 * the transaction that confirms them. Each unit carries the source and the target with inline
 * tags as display tokens and their tags (the source segment's, matched to the target's tokens),
 * the previous and next source segments of the job as context, the file's key, and where it came
 * from (project, job, file name, user).
 */

export interface ConfirmedSegment {
  idx: number;
  target: string;
}

function parseTags(json: string | null | undefined): InlineTag[] {
  if (!json) return [];
  try {
    const tags = JSON.parse(json) as unknown;
    return Array.isArray(tags) ? (tags as InlineTag[]) : [];
  } catch {
    return [];
  }
}

/** The target's tags: the source tag of each display token, else one made from the token. */
function targetTagsOf(target: string, sourceTags: readonly InlineTag[]): string | null {
  const tokens = displayTokensOf(target);
  if (tokens.length === 0) return null;
  const tags = tokens.map((display): InlineTag => {
    const known = sourceTags.find((tag) => tag.display === display);
    if (known) return known;
    const kind = display.startsWith('<') ? 'close' : display.endsWith('>') ? 'open' : 'standalone';
    return { id: Number(display.replace(/\D/g, '')), kind, original: display, display } as InlineTag;
  });
  return JSON.stringify(tags);
}

/** Writes the confirmed segments of `job` into its write TMs, in `trx`; nothing when none is set up. */
export async function writeConfirmedToTransMemories(
  trx: Kysely<DB>,
  job: Pick<JobRow, 'uid' | 'projectId' | 'jobSourceId' | 'targetLang' | 'projectWorkflowStepId' | 'beginIndex' | 'endIndex'>,
  confirmed: readonly ConfirmedSegment[],
  userId: Id | null,
  now: string,
): Promise<void> {
  const segments = confirmed.filter((s) => s.target.trim() !== '');
  if (segments.length === 0) return;
  const targets = await projectTransMemoryTargets(trx, job.projectId, job.targetLang, job.projectWorkflowStepId, 'write');
  if (targets.length === 0) return;
  const source = await trx.selectFrom('jobSources').select(['filename']).where('id', '=', job.jobSourceId).executeTakeFirst();
  const wanted = [...new Set(segments.flatMap((s) => [s.idx - 1, s.idx, s.idx + 1]))].filter((i) => i >= 0);
  const sources = new Map<number, { source: string; tags: string; key: string | null }>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await trx
      .selectFrom('sourceSegments')
      .select(['idx', 'source', 'tags', 'key'])
      .where('jobSourceId', '=', job.jobSourceId)
      .where('idx', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const row of rows) sources.set(Number(row.idx), { source: row.source, tags: row.tags, key: row.key });
  }
  const inJob = (idx: number) => (job.beginIndex === null || idx >= job.beginIndex) && (job.endIndex === null || idx <= job.endIndex);
  const neighbour = (idx: number) => (inJob(idx) ? (sources.get(idx)?.source ?? null) : null);
  const units: Omit<NewTmUnit, 'targetLang'>[] = [];
  for (const segment of segments) {
    const src = sources.get(segment.idx);
    if (!src || src.source.trim() === '') continue;
    const tags = parseTags(src.tags);
    units.push({
      source: src.source,
      target: segment.target,
      sourceTags: tags.length ? JSON.stringify(tags) : null,
      targetTags: targetTagsOf(segment.target, tags),
      previousSource: neighbour(segment.idx - 1),
      nextSource: neighbour(segment.idx + 1),
      contextKey: src.key,
      createdById: userId,
      modifiedById: userId,
      projectId: job.projectId,
      jobUid: job.uid,
      filename: source?.filename ?? null,
    });
  }
  if (units.length === 0) return;
  for (const target of targets) {
    const targetLang = transMemoryLangFor(target.tm, job.targetLang);
    if (targetLang === null) continue;
    await writeUnits(
      trx,
      target.tm.id,
      units.map((unit) => ({ ...unit, targetLang })),
      now,
    );
  }
}
