import { sql } from 'kysely';
import type { Selectable, Updateable } from 'kysely';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { Id } from '../../../db/schema.js';
import type { ImportSettingsTable } from '../../../db/tables/import-settings.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type ImportSettingsRow = Selectable<ImportSettingsTable>;

/** The name the organization's default import settings get when they are first stored. */
export const DEFAULT_SETTINGS_NAME = 'Default';

/** The organization's import settings (named or its default) with this uid. */
export function findImportSettings(db: Db, organizationId: string, uid: string): Promise<ImportSettingsRow | undefined> {
  return db.selectFrom('importSettings').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export function findDefaultImportSettings(db: Db, organizationId: string): Promise<ImportSettingsRow | undefined> {
  return db.selectFrom('importSettings').selectAll().where('defaultForOrganizationId', '=', organizationId).executeTakeFirst();
}

/**
 * The organization's default import settings row, stored (with the system defaults: an empty
 * document) the first time it is asked for. Two requests racing both end with the same row.
 */
export async function ensureDefaultImportSettings(
  db: Db,
  organizationId: string,
  now: string,
  userId: string | null,
): Promise<ImportSettingsRow> {
  const found = await findDefaultImportSettings(db, organizationId);
  if (found) return found;
  await db
    .insertInto('importSettings')
    .values({
      uid: newUid(),
      organizationId,
      name: DEFAULT_SETTINGS_NAME,
      settings: '{}',
      defaultForOrganizationId: organizationId,
      hasXmlRules: false,
      createdAt: now,
      createdById: userId,
      updatedAt: now,
      updatedById: userId,
    })
    .onConflict((oc) => oc.column('defaultForOrganizationId').doNothing())
    .execute();
  return (await findDefaultImportSettings(db, organizationId))!;
}

/** Named import settings (not the default), by name ignoring case, optionally filtered by part of the name. */
export async function listNamedImportSettings(
  db: Db,
  organizationId: string,
  name: string | undefined,
  page: PageRequest,
): Promise<{ rows: ImportSettingsRow[]; total: number }> {
  const query = db
    .selectFrom('importSettings')
    .where('organizationId', '=', organizationId)
    .where('defaultForOrganizationId', 'is', null)
    .$if(name !== undefined && name !== '', (q) => q.where(sql<boolean>`lower(name) like ${likePattern(name!)} escape '\\'`));
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query
    .selectAll()
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total: num(total) };
}

/** The named import settings that hold XML rules: the organization's XML assistant profiles. */
export function xmlRuleImportSettings(db: Db, organizationId: string): Promise<ImportSettingsRow[]> {
  return db
    .selectFrom('importSettings')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('defaultForOrganizationId', 'is', null)
    .where('hasXmlRules', '=', true)
    .orderBy('id')
    .execute();
}

export function insertImportSettings(
  db: Db,
  values: { organizationId: string; name: string; settings: string; hasXmlRules: boolean; now: string; userId: string | null },
): Promise<ImportSettingsRow> {
  return db
    .insertInto('importSettings')
    .values({
      uid: newUid(),
      organizationId: values.organizationId,
      name: values.name,
      settings: values.settings,
      defaultForOrganizationId: null,
      hasXmlRules: values.hasXmlRules,
      createdAt: values.now,
      createdById: values.userId,
      updatedAt: values.now,
      updatedById: values.userId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateImportSettingsRow(db: Db, id: Id, values: Updateable<ImportSettingsTable>): Promise<ImportSettingsRow> {
  return db.updateTable('importSettings').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteImportSettingsRow(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('importSettings').where('id', '=', id).execute();
}

/** `%part%` for `like`, with `%`, `_` and `\` taken literally; lower-case. */
export function likePattern(part: string): string {
  return `%${part.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
