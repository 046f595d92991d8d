import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { DB, Id } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { forgetSettingReferences, userReferenceLookup, UserReference } from '../../identity/users/index.js';

/**
 * References to the organization's price lists and net rate schemes from clients, vendors,
 * services, project and template financial settings, and linguists' role settings (description,
 * "Behaviour of other operations" 1: null clears the association). The two tables belong to the
 * price-lists and net-rate-schemes modules; this file reads them with plain queries so that every
 * module holding a reference resolves it through the setup-records front door, and clears every
 * reference when a list or a scheme is deleted (in the delete's transaction).
 */

export type PricingReferenceKind = 'priceList' | 'netRateScheme';

const TABLE = { priceList: 'priceLists', netRateScheme: 'netRateSchemes' } as const;
const LABEL = { priceList: 'price list', netRateScheme: 'net rate scheme' } as const;

/** Spec definition `PriceListReference`. */
export const PriceListReference = Type.Object(
  { id: Type.String(), uid: Type.String(), name: Type.String() },
  { title: 'PriceListReference' },
);
export type PriceListReference = Static<typeof PriceListReference>;

/** Spec definitions `NetRateSchemeReference` and `DiscountSchemeReference` (the same fields). */
export const NetRateSchemeReference = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
  },
  { title: 'NetRateSchemeReference' },
);
export type NetRateSchemeReference = Static<typeof NetRateSchemeReference>;

const isNumericId = (value: string) => /^\d{1,18}$/.test(value);

/**
 * The id of the organization's price list or net rate scheme that `ref` names, or 400
 * ReferenceNotFound naming `field`. An `{id}` reference (the spec's IdReference: clients, project
 * financial settings) takes the numeric id or the uid, as the other IdReferences do; a `{uid}`
 * reference (UidReference: vendors, services, users) takes the uid.
 */
export async function resolvePricingReference(
  db: Kysely<DB>,
  organizationId: string,
  kind: PricingReferenceKind,
  field: string,
  ref: { id: string } | { uid: string },
): Promise<Id> {
  const byId = 'id' in ref;
  const key = byId ? ref.id : ref.uid;
  const row = await db
    .selectFrom(TABLE[kind])
    .select('id')
    .where('organizationId', '=', organizationId)
    .where((eb) => (byId && isNumericId(key) ? eb.or([eb('uid', '=', key), eb('id', '=', key)]) : eb('uid', '=', key)))
    .executeTakeFirst();
  if (!row) throw errors.ReferenceNotFound({ what: LABEL[kind], key, keyName: byId ? 'id' : 'uid', field });
  return row.id;
}

/**
 * The column value a body's reference sets: undefined when the field is left out (keep), null
 * when it is null (clear), else the referenced record's id (400 when there is none).
 */
export async function pricingReferenceColumn(
  db: Kysely<DB>,
  organizationId: string,
  kind: PricingReferenceKind,
  field: string,
  ref: { id: string } | { uid: string } | null | undefined,
): Promise<Id | null | undefined> {
  if (ref === undefined) return undefined;
  if (ref === null) return null;
  return resolvePricingReference(db, organizationId, kind, field, ref);
}

const wanted = (ids: ReadonlyArray<Id | null | undefined>) => [...new Set(ids.filter((id): id is Id => id !== null && id !== undefined))];

/** Price list references of the organization by id (an id of no list of the organization is left out). */
export async function priceListReferences(
  db: Kysely<DB>,
  organizationId: string,
  ids: ReadonlyArray<Id | null | undefined>,
): Promise<Map<string, PriceListReference>> {
  const keys = wanted(ids);
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('priceLists')
    .select(['id', 'uid', 'name'])
    .where('organizationId', '=', organizationId)
    .where('id', 'in', keys)
    .execute();
  return new Map(rows.map((r) => [String(r.id), { id: String(r.id), uid: r.uid, name: r.name }]));
}

/** Net rate scheme references of the organization by id, with their creators. */
export async function netRateSchemeReferences(
  db: Kysely<DB>,
  organizationId: string,
  ids: ReadonlyArray<Id | null | undefined>,
): Promise<Map<string, NetRateSchemeReference>> {
  const keys = wanted(ids);
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('netRateSchemes')
    .select(['id', 'uid', 'name', 'createdAt', 'createdById'])
    .where('organizationId', '=', organizationId)
    .where('id', 'in', keys)
    .execute();
  const users = await userReferenceLookup(
    db,
    organizationId,
    rows.map((r) => r.createdById),
  );
  return new Map(
    rows.map((r) => [
      String(r.id),
      { id: String(r.id), uid: r.uid, name: r.name, dateCreated: r.createdAt, createdBy: users(r.createdById) },
    ]),
  );
}

/** Both kinds of reference of a page of records, in two queries; `priceList(id)` / `netRateScheme(id)` answer null for none. */
export async function pricingReferenceLookup(
  db: Kysely<DB>,
  organizationId: string,
  rows: ReadonlyArray<{ priceListId?: Id | null; netRateSchemeId?: Id | null }>,
): Promise<{
  priceList: (id: Id | null | undefined) => PriceListReference | null;
  netRateScheme: (id: Id | null | undefined) => NetRateSchemeReference | null;
}> {
  const [lists, schemes] = await Promise.all([
    priceListReferences(
      db,
      organizationId,
      rows.map((r) => r.priceListId),
    ),
    netRateSchemeReferences(
      db,
      organizationId,
      rows.map((r) => r.netRateSchemeId),
    ),
  ]);
  return {
    priceList: (id) => (id === null || id === undefined ? null : (lists.get(String(id)) ?? null)),
    netRateScheme: (id) => (id === null || id === undefined ? null : (schemes.get(String(id)) ?? null)),
  };
}

// ---------------------------------------------------------------------------------------------
// Financial settings of projects and templates
// ---------------------------------------------------------------------------------------------

/**
 * The `financialSettings` document of a project's or a template's settings JSON, as stored: the
 * ids of the price list and net rate scheme (a project made from a template copies it as it is).
 */
export interface StoredFinancialSettings {
  priceListId: string | null;
  netRateSchemeId: string | null;
}

/** The stored financial settings in a settings document (any other shape, an old `null` included, reads as none). */
export function storedFinancialSettings(value: unknown): StoredFinancialSettings {
  const doc = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const id = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return { priceListId: id(doc.priceListId), netRateSchemeId: id(doc.netRateSchemeId) };
}

/** Tables whose `settings` JSON holds a `financialSettings` document. */
const SETTINGS_TABLES = ['projects', 'projectTemplates'] as const;

/** Removes a deleted list or scheme from the financial settings of every project and template of the organization. */
async function clearFinancialSettings(trx: Kysely<DB>, organizationId: string, key: keyof StoredFinancialSettings, id: Id): Promise<void> {
  // The documents are JSON.stringify output: the reference reads exactly `"priceListId":"12"`.
  const needle = `%${JSON.stringify({ [key]: String(id) }).slice(1, -1)}%`;
  for (const table of SETTINGS_TABLES) {
    const rows = await trx
      .selectFrom(table)
      .select(['id', 'settings'])
      .where('organizationId', '=', organizationId)
      .where('settings', 'like', needle)
      .execute();
    for (const row of rows) {
      let settings: Record<string, unknown>;
      try {
        settings = JSON.parse(row.settings) as Record<string, unknown>;
      } catch {
        continue;
      }
      const stored = storedFinancialSettings(settings.financialSettings);
      if (stored[key] !== String(id)) continue;
      const next = { ...stored, [key]: null };
      if (next.priceListId === null && next.netRateSchemeId === null) delete settings.financialSettings;
      else settings.financialSettings = next;
      await trx
        .updateTable(table)
        .set({ settings: JSON.stringify(settings) })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

/**
 * Clears every reference to the price list (clients, vendors, services, projects, templates,
 * linguists): run it in the transaction that deletes the list.
 */
export async function clearPriceListReferences(trx: Kysely<DB>, organizationId: string, priceList: { id: Id; uid: string }): Promise<void> {
  await trx
    .updateTable('clients')
    .set({ priceListId: null })
    .where('organizationId', '=', organizationId)
    .where('priceListId', '=', priceList.id)
    .execute();
  await trx
    .updateTable('vendors')
    .set({ priceListId: null })
    .where('buyerOrganizationId', '=', organizationId)
    .where('priceListId', '=', priceList.id)
    .execute();
  await trx
    .updateTable('services')
    .set({ priceListId: null })
    .where('organizationId', '=', organizationId)
    .where('priceListId', '=', priceList.id)
    .execute();
  await clearFinancialSettings(trx, organizationId, 'priceListId', priceList.id);
  await forgetSettingReferences(trx, organizationId, 'priceList', [priceList.uid]);
}

/**
 * Clears every reference to the net rate scheme (clients, vendors, projects, templates,
 * linguists): run it in the transaction that deletes the scheme.
 */
export async function clearNetRateSchemeReferences(
  trx: Kysely<DB>,
  organizationId: string,
  scheme: { id: Id; uid: string },
): Promise<void> {
  await trx
    .updateTable('clients')
    .set({ netRateSchemeId: null })
    .where('organizationId', '=', organizationId)
    .where('netRateSchemeId', '=', scheme.id)
    .execute();
  await trx
    .updateTable('vendors')
    .set({ netRateSchemeId: null })
    .where('buyerOrganizationId', '=', organizationId)
    .where('netRateSchemeId', '=', scheme.id)
    .execute();
  await clearFinancialSettings(trx, organizationId, 'netRateSchemeId', scheme.id);
  await forgetSettingReferences(trx, organizationId, 'netRateScheme', [scheme.uid]);
}
