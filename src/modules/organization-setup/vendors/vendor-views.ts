import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { toUserReference } from '../../identity/users/index.js';
import type { UserReference } from '../../identity/users/index.js';
import { inWorkflowOrder, namedReferences, pricingReferenceLookup, workflowStepReferences } from '../setup-records/index.js';
import type { NamedReference, NetRateSchemeReference, PriceListReference } from '../setup-records/index.js';
import { linkReferenceIds } from './vendors.repository.js';
import type { VendorLinkRow } from './vendors.repository.js';
import type { BuyerSchema, VendorSchema } from './vendors.schemas.js';

/**
 * The users a page of links points at, by id, in one query. A link's users belong to either
 * organization (createdBy to the buyer, buyerOwner to the vendor): the writes check that, so the
 * lookup is by id alone.
 */
async function userLookup(db: Kysely<DB>, ids: (Id | null)[]): Promise<(id: Id | null) => UserReference | null> {
  const wanted = [...new Set(ids.filter((id): id is Id => id !== null).map(String))];
  const rows = wanted.length ? await db.selectFrom('users').selectAll().where('id', 'in', wanted).execute() : [];
  const users = new Map(rows.map((u) => [u.id, toUserReference(u)]));
  return (id) => (id === null ? null : (users.get(id) ?? null));
}

const locales = (json: string) => JSON.parse(json) as string[];

/** The price list and net rate scheme of each link, looked up in its buyer's organization. */
async function pricingLookup(
  db: Kysely<DB>,
  rows: VendorLinkRow[],
): Promise<(row: VendorLinkRow) => { priceList: PriceListReference | null; netRateScheme: NetRateSchemeReference | null }> {
  const buyers = [...new Set(rows.map((r) => String(r.buyerOrganizationId)))];
  const lookups = new Map(
    await Promise.all(
      buyers.map(
        async (buyer) =>
          [
            buyer,
            await pricingReferenceLookup(
              db,
              buyer,
              rows.filter((r) => String(r.buyerOrganizationId) === buyer),
            ),
          ] as const,
      ),
    ),
  );
  return (row) => {
    const lookup = lookups.get(String(row.buyerOrganizationId))!;
    return { priceList: lookup.priceList(row.priceListId), netRateScheme: lookup.netRateScheme(row.netRateSchemeId) };
  };
}

export async function toVendorDtos(db: Kysely<DB>, rows: VendorLinkRow[]): Promise<Static<typeof VendorSchema>[]> {
  const refs = await linkReferenceIds(
    db,
    rows.map((r) => r.id),
  );
  const all = (map: Map<string, Id[]>) => [...map.values()].flat();
  const [users, clients, domains, subDomains, steps, pricing] = await Promise.all([
    userLookup(
      db,
      rows.flatMap((r) => [r.createdById, r.buyerOwnerId]),
    ),
    namedReferences(db, 'client', all(refs.clients)),
    namedReferences(db, 'domain', all(refs.domains)),
    namedReferences(db, 'subDomain', all(refs.subDomains)),
    workflowStepReferences(db, all(refs.workflowSteps)),
    // The price list and net rate scheme are the buyer's (the links of one page share their buyer).
    pricingLookup(db, rows),
  ]);
  const pick = <T>(map: Map<string, Id[]>, lookup: Map<string, T>, id: Id): T[] =>
    (map.get(id) ?? []).map((ref) => lookup.get(ref)).filter((r): r is T => r !== undefined);
  const byName = (list: NamedReference[]) => [...list].sort((a, b) => a.name.localeCompare(b.name) || Number(a.id) - Number(b.id));
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    name: row.partnerName,
    vendorToken: row.vendorToken,
    priceList: pricing(row).priceList,
    netRateScheme: pricing(row).netRateScheme,
    sourceLocales: locales(row.sourceLocales),
    targetLocales: locales(row.targetLocales),
    clients: byName(pick(refs.clients, clients, row.id)),
    domains: byName(pick(refs.domains, domains, row.id)),
    subDomains: byName(pick(refs.subDomains, subDomains, row.id)),
    workflowSteps: inWorkflowOrder(pick(refs.workflowSteps, steps, row.id)),
    active: bool(row.active),
    buyerOwner: users(row.buyerOwnerId),
    createdBy: users(row.createdById),
    dateCreated: row.createdAt,
    timezone: row.timezone,
  }));
}

export async function toBuyerDtos(db: Kysely<DB>, rows: VendorLinkRow[]): Promise<Static<typeof BuyerSchema>[]> {
  const users = await userLookup(
    db,
    rows.flatMap((r) => [r.createdById, r.buyerOwnerId]),
  );
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    name: row.partnerName,
    organization: { uid: row.partnerUid, name: row.partnerName },
    active: bool(row.active),
    buyerOwner: users(row.buyerOwnerId),
    timezone: row.timezone,
    sourceLocales: locales(row.sourceLocales),
    targetLocales: locales(row.targetLocales),
    createdBy: users(row.createdById),
    dateCreated: row.createdAt,
  }));
}
