import { randomBytes } from 'node:crypto';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { num } from '../../../db/database.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { OrganizationVendorTokensTable, VendorsTable } from '../../../db/tables/vendors.js';
import { containsText } from '../../../db/text-match.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';

export type VendorRow = Selectable<VendorsTable>;
export type VendorTokenRow = Selectable<OrganizationVendorTokensTable>;

/** A link with the name of the organization on the other side (vendor for buyers, buyer for vendors). */
export type VendorLinkRow = VendorRow & { partnerName: string; partnerUid: string };

// ---------------------------------------------------------------------------------------------
// Vendor tokens
// ---------------------------------------------------------------------------------------------

/** 24 random bytes: 192 bits, 32 URL-safe characters. */
const newVendorToken = () => randomBytes(24).toString('base64url');

/** The organization's vendor token, created on first use (a concurrent first use reads the winner's). */
export async function vendorTokenOf(db: Kysely<DB>, organizationId: string, now: string): Promise<VendorTokenRow> {
  const existing = await db
    .selectFrom('organizationVendorTokens')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .executeTakeFirst();
  if (existing) return existing;
  try {
    return await db
      .insertInto('organizationVendorTokens')
      .values({ organizationId, token: newVendorToken(), createdAt: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return db.selectFrom('organizationVendorTokens').selectAll().where('organizationId', '=', organizationId).executeTakeFirstOrThrow();
  }
}

/** A new token replaces the old one, which no longer links the organization (existing links stay). */
export async function regenerateVendorToken(db: Kysely<DB>, organizationId: string, now: string): Promise<VendorTokenRow> {
  await vendorTokenOf(db, organizationId, now);
  return db
    .updateTable('organizationVendorTokens')
    .set({ token: newVendorToken(), createdAt: now })
    .where('organizationId', '=', organizationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The organization a vendor token belongs to (never the installation's system organization). */
export function organizationByVendorToken(db: Kysely<DB>, token: string) {
  return db
    .selectFrom('organizationVendorTokens')
    .innerJoin('organizations', 'organizations.id', 'organizationVendorTokens.organizationId')
    .select(['organizations.id', 'organizations.uid', 'organizations.name'])
    .where('organizationVendorTokens.token', '=', token)
    .where('organizations.isSystem', '=', false)
    .executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// Links
// ---------------------------------------------------------------------------------------------

/** Which side of the links the caller's organization is on. */
export type Side = 'buyer' | 'vendor';

const OWN = { buyer: 'vendors.buyerOrganizationId', vendor: 'vendors.vendorOrganizationId' } as const;
const PARTNER = { buyer: 'vendors.vendorOrganizationId', vendor: 'vendors.buyerOrganizationId' } as const;

function links(db: Kysely<DB>, side: Side, organizationId: string) {
  return db.selectFrom('vendors').innerJoin('organizations', 'organizations.id', PARTNER[side]).where(OWN[side], '=', organizationId);
}

export function findLink(db: Kysely<DB>, side: Side, organizationId: string, uid: string): Promise<VendorLinkRow | undefined> {
  return links(db, side, organizationId)
    .selectAll('vendors')
    .select(['organizations.name as partnerName', 'organizations.uid as partnerUid'])
    .where('vendors.uid', '=', uid)
    .executeTakeFirst();
}

export function findLinksByUids(db: Kysely<DB>, organizationId: string, uids: string[]): Promise<VendorRow[]> {
  return db.selectFrom('vendors').selectAll().where('buyerOrganizationId', '=', organizationId).where('uid', 'in', uids).execute();
}

export interface LinkFilter {
  name?: string | undefined;
  active?: boolean | undefined;
  /** Only links created by this user (project managers without vendorViewOther). */
  createdById?: string | undefined;
}

export async function listLinks(
  db: Kysely<DB>,
  side: Side,
  organizationId: string,
  filter: LinkFilter,
  page: PageRequest,
): Promise<{ rows: VendorLinkRow[]; total: number }> {
  let query = links(db, side, organizationId);
  if (filter.name) query = query.where(containsText('organizations.name', filter.name));
  if (filter.active !== undefined) query = query.where('vendors.active', '=', filter.active);
  if (filter.createdById !== undefined) query = query.where('vendors.createdById', '=', filter.createdById);
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query
    .selectAll('vendors')
    .select(['organizations.name as partnerName', 'organizations.uid as partnerUid'])
    .orderBy('vendors.id', 'asc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total: num(total as string | number) };
}

export function linkExists(db: Kysely<DB>, buyerOrganizationId: string, vendorOrganizationId: string) {
  return db
    .selectFrom('vendors')
    .select('id')
    .where('buyerOrganizationId', '=', buyerOrganizationId)
    .where('vendorOrganizationId', '=', vendorOrganizationId)
    .executeTakeFirst();
}

/** The ids a link references, per link id, in the order they were stored. */
export interface LinkReferenceIds {
  clients: Map<string, Id[]>;
  domains: Map<string, Id[]>;
  subDomains: Map<string, Id[]>;
  workflowSteps: Map<string, Id[]>;
}

function group<T extends { vendorId: Id }>(rows: T[], id: (row: T) => Id): Map<string, Id[]> {
  const map = new Map<string, Id[]>();
  for (const row of rows) {
    const key = row.vendorId;
    map.set(key, [...(map.get(key) ?? []), id(row)]);
  }
  return map;
}

export async function linkReferenceIds(db: Kysely<DB>, vendorIds: Id[]): Promise<LinkReferenceIds> {
  if (vendorIds.length === 0) return { clients: new Map(), domains: new Map(), subDomains: new Map(), workflowSteps: new Map() };
  const ids = vendorIds.map(String);
  const [clients, domains, subDomains, workflowSteps] = await Promise.all([
    db.selectFrom('vendorClients').selectAll().where('vendorId', 'in', ids).orderBy('clientId').execute(),
    db.selectFrom('vendorDomains').selectAll().where('vendorId', 'in', ids).orderBy('domainId').execute(),
    db.selectFrom('vendorSubDomains').selectAll().where('vendorId', 'in', ids).orderBy('subDomainId').execute(),
    db.selectFrom('vendorWorkflowSteps').selectAll().where('vendorId', 'in', ids).orderBy('workflowStepId').execute(),
  ]);
  return {
    clients: group(clients, (r) => r.clientId),
    domains: group(domains, (r) => r.domainId),
    subDomains: group(subDomains, (r) => r.subDomainId),
    workflowSteps: group(workflowSteps, (r) => r.workflowStepId),
  };
}

/** Writes a link's references (new links only: references are set when linking). */
export async function insertLinkReferences(
  db: Kysely<DB>,
  vendorId: Id,
  refs: { clients: string[]; domains: string[]; subDomains: string[]; workflowSteps: string[] },
): Promise<void> {
  if (refs.clients.length)
    await db
      .insertInto('vendorClients')
      .values(refs.clients.map((clientId) => ({ vendorId, clientId })))
      .execute();
  if (refs.domains.length)
    await db
      .insertInto('vendorDomains')
      .values(refs.domains.map((domainId) => ({ vendorId, domainId })))
      .execute();
  if (refs.subDomains.length)
    await db
      .insertInto('vendorSubDomains')
      .values(refs.subDomains.map((subDomainId) => ({ vendorId, subDomainId })))
      .execute();
  if (refs.workflowSteps.length)
    await db
      .insertInto('vendorWorkflowSteps')
      .values(refs.workflowSteps.map((workflowStepId) => ({ vendorId, workflowStepId })))
      .execute();
}

/** A new link (buyer to vendor); its references follow with insertLinkReferences. */
export function insertLink(db: Kysely<DB>, values: Omit<Insertable<VendorsTable>, 'uid'>): Promise<{ id: Id; uid: string }> {
  return db
    .insertInto('vendors')
    .values({ uid: newUid(), ...values })
    .returning(['id', 'uid'])
    .executeTakeFirstOrThrow();
}

export async function updateLink(db: Kysely<DB>, id: Id, changes: Updateable<VendorsTable>): Promise<void> {
  await db.updateTable('vendors').set(changes).where('id', '=', id).execute();
}

/** Unlinks; the links' references go with them (foreign keys cascade). */
export async function deleteLinks(db: Kysely<DB>, ids: Id[]): Promise<void> {
  await db.deleteFrom('vendors').where('id', 'in', ids).execute();
}
