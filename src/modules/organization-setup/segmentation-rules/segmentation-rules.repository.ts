import { sql } from 'kysely';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import { NUMERIC_ID } from '../../../db/record-ids.js';
import type { Id } from '../../../db/schema.js';
import type { SegmentationRulesTable } from '../../../db/tables/segmentation-rules.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';

export type SegmentationRuleRow = Selectable<SegmentationRulesTable>;
/** A rule without its file (lists and references). */
export type SegmentationRuleMeta = Omit<SegmentationRuleRow, 'srx'>;

const META_COLUMNS = ['id', 'uid', 'organizationId', 'name', 'locale', 'isPrimary', 'filename', 'createdAt', 'createdById'] as const;

/** The organization's rule named by its uid, or by its numeric id. */
export function findSegmentationRule(db: Db, organizationId: string, key: string): Promise<SegmentationRuleRow | undefined> {
  return db
    .selectFrom('segmentationRules')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where((eb) => (NUMERIC_ID.test(key) ? eb.or([eb('uid', '=', key), eb('id', '=', key)]) : eb('uid', '=', key)))
    .executeTakeFirst();
}

/** The organization's rules among `ids` (numeric ids; others find nothing), without their files. */
export async function segmentationRulesByIds(
  db: Db,
  organizationId: string,
  ids: readonly string[],
): Promise<Map<string, SegmentationRuleMeta>> {
  const numeric = [...new Set(ids.filter((id) => NUMERIC_ID.test(id)))];
  if (numeric.length === 0) return new Map();
  const rows = await db
    .selectFrom('segmentationRules')
    .select(META_COLUMNS)
    .where('organizationId', '=', organizationId)
    .where('id', 'in', numeric)
    .execute();
  return new Map(rows.map((row) => [String(row.id), row]));
}

/** The SRX text of rule `id` of the organization, if it exists. */
export async function segmentationRuleSrx(db: Db, organizationId: string, id: string): Promise<string | undefined> {
  if (!NUMERIC_ID.test(id)) return undefined;
  const row = await db
    .selectFrom('segmentationRules')
    .select('srx')
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.srx;
}

/** The SRX text of the organization's primary rule for one of `locales` (the first that has one), if any. */
export async function primarySegmentationRuleSrx(db: Db, organizationId: string, locales: readonly string[]): Promise<string | undefined> {
  if (locales.length === 0) return undefined;
  const rows = await db
    .selectFrom('segmentationRules')
    .select(['locale', 'srx'])
    .where('organizationId', '=', organizationId)
    .where('isPrimary', '=', true)
    .where('locale', 'in', [...locales])
    .execute();
  for (const locale of locales) {
    const row = rows.find((r) => r.locale === locale);
    if (row) return row.srx;
  }
  return undefined;
}

export async function listSegmentationRules(
  db: Db,
  organizationId: string,
  locales: readonly string[] | null,
  page: PageRequest,
): Promise<{ rows: SegmentationRuleMeta[]; total: number }> {
  const query = db
    .selectFrom('segmentationRules')
    .where('organizationId', '=', organizationId)
    .$if(locales !== null, (q) => q.where('locale', 'in', locales!.length ? [...locales!] : ['']));
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query
    .select(META_COLUMNS)
    .orderBy('locale')
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total: num(total) };
}

/** The users who created rules of the organization (ids), by user id. */
export async function listSegmentationRuleOwners(
  db: Db,
  organizationId: string,
  page: PageRequest,
): Promise<{ ids: string[]; total: number }> {
  const owners = db
    .selectFrom('segmentationRules')
    .select('createdById')
    .distinct()
    .where('organizationId', '=', organizationId)
    .where('createdById', 'is not', null);
  const { total } = await db
    .selectFrom(owners.as('owners'))
    .select((eb) => eb.fn.countAll<string | number>().as('total'))
    .executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await owners.orderBy('createdById').limit(limit).offset(offset).execute();
  return { ids: rows.map((r) => String(r.createdById)), total: num(total) };
}

export function insertSegmentationRule(db: Db, values: Omit<Insertable<SegmentationRulesTable>, 'uid'>): Promise<SegmentationRuleRow> {
  return db
    .insertInto('segmentationRules')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateSegmentationRuleRow(db: Db, id: Id, values: Updateable<SegmentationRulesTable>): Promise<SegmentationRuleRow> {
  return db.updateTable('segmentationRules').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Makes every other rule of the organization for `locale` not primary (one primary rule per locale). */
export async function clearPrimary(db: Db, organizationId: string, locale: string, exceptId?: Id): Promise<void> {
  await db
    .updateTable('segmentationRules')
    .set({ isPrimary: false })
    .where('organizationId', '=', organizationId)
    .where('locale', '=', locale)
    .where('isPrimary', '=', true)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .execute();
}

export async function deleteSegmentationRuleRow(db: Db, id: Id): Promise<void> {
  await db.deleteFrom('segmentationRules').where('id', '=', id).execute();
}
