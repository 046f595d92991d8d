import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { ENGINE_TYPES } from './engines/index.js';
import { argsOf, langsOf } from './mt-settings.repository.js';
import type { MtSettingsRow } from './mt-settings.repository.js';
import type { MtSettingsDto } from './mt-settings.schemas.js';
import { monthOf } from './mt-usage.js';

/** Characters sent this month through each of the settings. */
async function charactersThisMonth(db: Kysely<DB>, organizationId: Id, uids: readonly string[], now: Date): Promise<Map<string, number>> {
  if (uids.length === 0) return new Map();
  const rows = await db
    .selectFrom('mtUsage')
    .select(['mtSettingsUid', 'characters'])
    .where('organizationId', '=', organizationId)
    .where('month', '=', monthOf(now))
    .where('mtSettingsUid', 'in', [...uids])
    .execute();
  return new Map(rows.map((row) => [row.mtSettingsUid, Number(row.characters)]));
}

const baseNameOf = (type: string) => ENGINE_TYPES.find((engine) => engine.type === type)?.name ?? type;

/** Settings in the published shape (`MachineTranslateSettingsPbmDto`); credentials never appear. */
export async function toMtSettingsDtos(
  db: Kysely<DB>,
  organizationId: Id,
  rows: readonly MtSettingsRow[],
  now: Date,
): Promise<MtSettingsDto[]> {
  const characters = await charactersThisMonth(
    db,
    organizationId,
    rows.map((row) => row.uid),
    now,
  );
  return rows.map((row) => {
    const langs = langsOf(row);
    return {
      id: String(row.id),
      uid: row.uid,
      baseName: baseNameOf(row.type),
      name: row.name,
      type: row.type,
      default_: bool(row.isDefault),
      includeTags: bool(row.includeTags),
      mtQualityEstimation: false,
      args: argsOf(row),
      payForMtPossible: false,
      payForMtActive: false,
      charCount: Math.min(2 ** 31 - 1, characters.get(row.uid) ?? 0),
      sharingSettings: 0,
      langs: langs ? { id: null, ...langs } : null,
    };
  });
}

/** Settings as Language AI profiles (`MemsourceTranslateProfileSimpleDto`): each applies the active glossary. */
export async function toTranslateProfileDtos(db: Kysely<DB>, organizationId: Id, rows: readonly MtSettingsRow[], now: Date) {
  const characters = await charactersThisMonth(
    db,
    organizationId,
    rows.map((row) => row.uid),
    now,
  );
  const users = await userReferenceLookup(
    db,
    organizationId,
    rows.map((row) => row.createdById),
  );
  return rows.map((row) => ({
    uid: row.uid,
    name: row.name,
    dateCreated: row.createdAt,
    createdBy: users(row.createdById),
    memsourceTranslate: { glossarySupported: true, charCount: Math.min(2 ** 31 - 1, characters.get(row.uid) ?? 0) },
    locked: false,
  }));
}
