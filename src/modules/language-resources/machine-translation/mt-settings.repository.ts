import type { Kysely, Selectable } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import type { MtSettingsTable } from '../../../db/tables/machine-translation.js';
import { newUid } from '../../../db/ids.js';
import type { PageRequest } from '../../../http/paging.js';
import { containsText } from '../../../db/text-match.js';

/** Rows of `mt_settings` (docs/machine-translation.md, "Records"). */

export type MtSettingsRow = Selectable<MtSettingsTable>;

export interface NewMtSettings {
  organizationId: Id;
  name: string;
  type: string;
  isDefault: boolean;
  includeTags: boolean;
  args: Record<string, string>;
  credentials: string | null;
  langs: { sourceLang: string; targetLangs: string[] } | null;
  createdById: Id | null;
  now: string;
}

export function argsOf(row: Pick<MtSettingsRow, 'args'>): Record<string, string> {
  try {
    const value: unknown = JSON.parse(row.args);
    return typeof value === 'object' && value !== null ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function langsOf(row: Pick<MtSettingsRow, 'langs'>): { sourceLang: string; targetLangs: string[] } | null {
  if (!row.langs) return null;
  try {
    return JSON.parse(row.langs) as { sourceLang: string; targetLangs: string[] };
  } catch {
    return null;
  }
}

export function findMtSettings(db: Kysely<DB>, organizationId: Id, uid: string): Promise<MtSettingsRow | undefined> {
  return db.selectFrom('mtSettings').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export function mtSettingsByIds(db: Kysely<DB>, ids: readonly Id[]): Promise<MtSettingsRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('mtSettings')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export function mtSettingsByUids(db: Kysely<DB>, organizationId: Id, uids: readonly string[]): Promise<MtSettingsRow[]> {
  if (uids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('mtSettings')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('uid', 'in', [...uids])
    .execute();
}

export function defaultMtSettings(db: Kysely<DB>, organizationId: Id): Promise<MtSettingsRow | undefined> {
  return db
    .selectFrom('mtSettings')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('isDefault', '=', true)
    .orderBy('id')
    .executeTakeFirst();
}

export async function listMtSettingsRows(
  db: Kysely<DB>,
  organizationId: Id,
  filter: { name?: string | undefined; order: 'asc' | 'desc' },
  page: PageRequest,
): Promise<{ rows: MtSettingsRow[]; total: number }> {
  let query = db.selectFrom('mtSettings').where('organizationId', '=', organizationId);
  if (filter.name) query = query.where(containsText('mtSettings.name', filter.name));
  const [{ total }] = (await query.select((eb) => eb.fn.countAll<number | string>().as('total')).execute()) as [{ total: number | string }];
  const rows = await query
    .selectAll()
    .orderBy('name', filter.order)
    .orderBy('id', filter.order)
    .limit(page.pageSize)
    .offset(page.pageNumber * page.pageSize)
    .execute();
  return { rows, total: Number(total) };
}

export async function insertMtSettings(trx: Kysely<DB>, record: NewMtSettings): Promise<MtSettingsRow> {
  if (record.isDefault) await clearDefault(trx, record.organizationId);
  return trx
    .insertInto('mtSettings')
    .values({
      uid: newUid(),
      organizationId: record.organizationId,
      name: record.name,
      type: record.type,
      isDefault: record.isDefault,
      includeTags: record.includeTags,
      args: JSON.stringify(record.args),
      credentials: record.credentials,
      langs: record.langs ? JSON.stringify(record.langs) : null,
      createdAt: record.now,
      createdById: record.createdById,
      modifiedAt: record.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateMtSettings(
  trx: Kysely<DB>,
  row: MtSettingsRow,
  change: Omit<NewMtSettings, 'organizationId' | 'createdById' | 'type'>,
): Promise<MtSettingsRow> {
  if (change.isDefault) await clearDefault(trx, row.organizationId);
  return trx
    .updateTable('mtSettings')
    .set({
      name: change.name,
      isDefault: change.isDefault,
      includeTags: change.includeTags,
      args: JSON.stringify(change.args),
      credentials: change.credentials,
      langs: change.langs ? JSON.stringify(change.langs) : null,
      modifiedAt: change.now,
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function clearDefault(trx: Kysely<DB>, organizationId: Id): Promise<void> {
  await trx
    .updateTable('mtSettings')
    .set({ isDefault: false })
    .where('organizationId', '=', organizationId)
    .where('isDefault', '=', true)
    .execute();
}

/** Removes the settings; their assignments to projects and templates and their cache go with them (cascade). */
export async function deleteMtSettingsRow(trx: Kysely<DB>, id: Id): Promise<void> {
  await trx.deleteFrom('mtSettings').where('id', '=', id).execute();
}
