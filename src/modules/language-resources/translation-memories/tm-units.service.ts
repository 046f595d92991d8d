import type { AppDeps } from '../../../deps.js';
import { nowIso } from '../../../db/ids.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { requireTargetLang, requireTransMemory } from './translation-memories.service.js';
import type { TransMemoryRow } from './translation-memories.repository.js';
import type { InsertSegmentBody } from './translation-memories.schemas.js';
import { tagsFromMetadata } from './tm-search.js';
import { bumpVersion, clearUnits, deleteSourceUnits, hasSource, unitsOfSources, upsertUnits, writeUnits } from './tm-units.repository.js';

/** Writing units through the API and from confirmed jobs (docs/translation-memory.md, "Records" and "Write-back"). */

const SEGMENT_ID = /^(.+)\.([A-Za-z0-9_-]{20})$/;

/** The source hash a segment id of this TM names, or 404. */
function sourceHashOf(tm: TransMemoryRow, segmentId: string): string {
  const match = SEGMENT_ID.exec(segmentId);
  if (!match || match[1] !== tm.uid) throw errors.ResourceNotFound({ what: 'Segment' });
  return match[2]!;
}

export async function insertSegment(deps: AppDeps, caller: Caller, uid: string, body: InsertSegmentBody): Promise<void> {
  const tm = await requireTransMemory(deps, caller, uid, 'transMemoryEditOther');
  const targetLang = requireTargetLang(tm, 'targetLang', body.targetLang);
  if (body.sourceSegment.trim() === '' || body.targetSegment.trim() === '') {
    throw errors.InvalidArguments({
      reason: 'The source and the target of a segment must not be empty.',
      details: [{ field: body.sourceSegment.trim() === '' ? 'sourceSegment' : 'targetSegment', message: 'empty' }],
    });
  }
  const now = nowIso(deps.clock);
  await deps.database.db.transaction().execute((trx) =>
    writeUnits(
      trx,
      tm.id,
      [
        {
          targetLang,
          source: body.sourceSegment,
          target: body.targetSegment,
          sourceTags: tagsFromMetadata(body.sourceSegment, body.sourceTagMetadata),
          targetTags: tagsFromMetadata(body.targetSegment, body.targetTagMetadata),
          previousSource: body.previousSourceSegment ?? null,
          nextSource: body.nextSourceSegment ?? null,
          createdById: caller.userId,
          modifiedById: caller.userId,
        },
      ],
      now,
    ),
  );
}

/**
 * Edits the translation of a segment in one language: the segment's translations in that language
 * are replaced by `text` (keeping the context and origin of the most recent one).
 */
export async function updateTranslation(
  deps: AppDeps,
  caller: Caller,
  uid: string,
  segmentId: string,
  lang: string,
  text: string,
): Promise<void> {
  const tm = await requireTransMemory(deps, caller, uid, 'transMemoryEditOther');
  const sourceHash = sourceHashOf(tm, segmentId);
  const targetLang = requireTargetLang(tm, 'lang', lang);
  const db = deps.database.db;
  const rows = await unitsOfSources(db, tm.id, [sourceHash], null);
  if (rows.length === 0) throw errors.ResourceNotFound({ what: 'Segment' });
  const model = [...rows].filter((r) => r.targetLang === targetLang).sort((a, b) => (a.modifiedAt < b.modifiedAt ? 1 : -1))[0] ?? rows[0]!;
  const now = nowIso(deps.clock);
  await db.transaction().execute(async (trx) => {
    const version = await bumpVersion(trx, tm.id);
    await deleteSourceUnits(trx, tm.id, version, sourceHash, targetLang);
    await upsertUnits(
      trx,
      tm.id,
      version,
      [
        {
          targetLang,
          source: model.source,
          target: text,
          sourceTags: model.sourceTags,
          targetTags: tagsFromMetadata(text, null),
          previousSource: model.previousSource,
          nextSource: model.nextSource,
          contextKey: model.contextKey,
          createdById: caller.userId,
          modifiedById: caller.userId,
          projectId: model.projectId,
          jobUid: model.jobUid,
          filename: model.filename,
        },
      ],
      now,
    );
  });
}

/** Deletes a segment's translation in `lang`, or (no `lang`) the source and every translation. */
export async function deleteSegment(deps: AppDeps, caller: Caller, uid: string, segmentId: string, lang: string | null): Promise<void> {
  const tm = await requireTransMemory(deps, caller, uid, 'transMemoryEditOther');
  const sourceHash = sourceHashOf(tm, segmentId);
  const targetLang = lang === null ? null : requireTargetLang(tm, 'lang', lang);
  const db = deps.database.db;
  if (!(await hasSource(db, tm.id, sourceHash, targetLang))) throw errors.ResourceNotFound({ what: 'Segment' });
  await db.transaction().execute(async (trx) => {
    const version = await bumpVersion(trx, tm.id);
    await deleteSourceUnits(trx, tm.id, version, sourceHash, targetLang);
  });
}

/** Deletes every unit of a TM (v1, synchronously). */
export async function clearTransMemory(deps: AppDeps, tm: TransMemoryRow): Promise<void> {
  await deps.database.db.transaction().execute((trx) => clearUnits(trx, tm.id));
}
