import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import type { MtAssignment } from '../../../domain/machine-translation/index.js';
import { mtSettingsByIds, mtSettingsByUids } from '../../language-resources/machine-translation/index.js';
import type { MtSettingsRow } from '../../language-resources/machine-translation/index.js';

/**
 * The MT settings a project or template uses (`mt_settings_assignments`, migration
 * 2026-11-29T1200_machine_translation): one row with `target_lang` null for every target language,
 * or one row per target language. The service keeps the two forms apart (never both); should
 * both be found, the per-language rows win for their languages.
 */

/** A project or template whose MT settings are read or written. */
export interface MtOwner {
  kind: 'project' | 'template';
  id: Id;
}

export interface AssignmentRow {
  targetLang: string | null;
  mtSettingsId: Id;
}

export async function assignmentRows(db: Kysely<DB>, owner: MtOwner): Promise<AssignmentRow[]> {
  const rows = await db
    .selectFrom('mtSettingsAssignments')
    .select(['targetLang', 'mtSettingsId'])
    .where(owner.kind === 'project' ? 'projectId' : 'templateId', '=', owner.id)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ targetLang: r.targetLang, mtSettingsId: String(r.mtSettingsId) }));
}

/** The stored rows as the domain's assignment (per-language rows, when there are any, win over an all-languages row). */
export function assignmentOf(rows: readonly AssignmentRow[]): MtAssignment {
  const perLanguage = rows.filter((r) => r.targetLang !== null);
  if (perLanguage.length) return { kind: 'perLanguage', byLang: new Map(perLanguage.map((r) => [r.targetLang!, r.mtSettingsId])) };
  const all = rows.find((r) => r.targetLang === null);
  return all ? { kind: 'all', settingsId: all.mtSettingsId } : { kind: 'none' };
}

/** Replaces the owner's rows by `assignment`, in the caller's transaction. */
export async function writeAssignment(trx: Kysely<DB>, owner: MtOwner, assignment: MtAssignment): Promise<void> {
  const column = owner.kind === 'project' ? 'projectId' : 'templateId';
  await trx.deleteFrom('mtSettingsAssignments').where(column, '=', owner.id).execute();
  const rows: AssignmentRow[] =
    assignment.kind === 'none'
      ? []
      : assignment.kind === 'all'
        ? [{ targetLang: null, mtSettingsId: assignment.settingsId }]
        : [...assignment.byLang].flatMap(([targetLang, id]) => (id === null ? [] : [{ targetLang, mtSettingsId: id }]));
  if (rows.length === 0) return;
  await trx
    .insertInto('mtSettingsAssignments')
    .values(
      rows.map((r) => ({
        projectId: owner.kind === 'project' ? owner.id : null,
        templateId: owner.kind === 'template' ? owner.id : null,
        targetLang: r.targetLang,
        mtSettingsId: r.mtSettingsId,
      })),
    )
    .execute();
}

/** Keys that may be a numeric record id (anything else would make PostgreSQL refuse the comparison with a bigint). */
const isNumericId = (key: string) => /^\d{1,18}$/.test(key);

/** The organization's MT settings named by `keys` (each a uid or a numeric id), by key. */
export async function mtSettingsByKeys(db: Kysely<DB>, organizationId: Id, keys: readonly string[]): Promise<Map<string, MtSettingsRow>> {
  const unique = [...new Set(keys)];
  const [byUid, byId] = await Promise.all([mtSettingsByUids(db, organizationId, unique), mtSettingsByIds(db, unique.filter(isNumericId))]);
  const found = new Map<string, MtSettingsRow>();
  for (const row of byId) if (String(row.organizationId) === String(organizationId)) found.set(String(row.id), row);
  for (const row of byUid) found.set(row.uid, row);
  return found;
}
