import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { namedReferences } from './record-references.js';

/** The references a language resource (a TM, a term base) carries. */
export interface ResourceReferenceRow {
  clientId: Id | null;
  businessUnitId: Id | null;
  domainId: Id | null;
  subDomainId: Id | null;
  createdById: Id | null;
  ownerId: Id | null;
}

/**
 * The published references of a page of language resources (client, business unit, domain,
 * subdomain, creator, owner), each kind loaded once for the page; the answer maps a row to them.
 */
export async function resourceReferenceViews(db: Kysely<DB>, organizationId: Id, rows: readonly ResourceReferenceRow[]) {
  const ids = (pick: (row: ResourceReferenceRow) => Id | null) => rows.map(pick).filter((id): id is Id => id !== null);
  const [clients, domains, subDomains, users] = await Promise.all([
    namedReferences(
      db,
      'client',
      ids((r) => r.clientId),
    ),
    namedReferences(
      db,
      'domain',
      ids((r) => r.domainId),
    ),
    namedReferences(
      db,
      'subDomain',
      ids((r) => r.subDomainId),
    ),
    userReferenceLookup(
      db,
      organizationId,
      rows.flatMap((r) => [r.createdById, r.ownerId]),
    ),
  ]);
  const unitIds = [...new Set(ids((r) => r.businessUnitId))];
  const businessUnits = new Map(
    (unitIds.length ? await db.selectFrom('businessUnits').select(['id', 'uid', 'name']).where('id', 'in', unitIds).execute() : []).map(
      (b) => [String(b.id), { id: String(b.id), uid: b.uid, name: b.name }],
    ),
  );
  const lookup = <T>(map: Map<string, T>, id: Id | null) => (id === null ? null : (map.get(String(id)) ?? null));
  return (row: ResourceReferenceRow) => ({
    client: lookup(clients, row.clientId),
    businessUnit: lookup(businessUnits, row.businessUnitId),
    domain: lookup(domains, row.domainId),
    subDomain: lookup(subDomains, row.subDomainId),
    createdBy: users(row.createdById),
    owner: users(row.ownerId),
  });
}
