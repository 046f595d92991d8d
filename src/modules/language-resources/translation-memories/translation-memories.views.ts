import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { namedReferences } from '../../organization-setup/setup-records/index.js';
import { targetLangsOf } from './translation-memories.repository.js';
import type { TransMemoryRow } from './translation-memories.repository.js';
import type { TransMemoryDto } from './translation-memories.schemas.js';

/** TMs in the published shape (`TransMemoryDto`; V3 leaves out the owner), references loaded once per page. */
export async function toTransMemoryDtos(db: Kysely<DB>, organizationId: Id, rows: readonly TransMemoryRow[]): Promise<TransMemoryDto[]> {
  const ids = (pick: (row: TransMemoryRow) => Id | null) => rows.map(pick).filter((id): id is Id => id !== null);
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
  return rows.map((row) => ({
    id: String(row.id),
    uid: row.uid,
    internalId: row.internalId,
    name: row.name,
    sourceLang: row.sourceLang,
    targetLangs: targetLangsOf(row),
    client: lookup(clients, row.clientId),
    businessUnit: lookup(businessUnits, row.businessUnitId),
    domain: lookup(domains, row.domainId),
    subDomain: lookup(subDomains, row.subDomainId),
    note: row.note,
    dateCreated: row.createdAt,
    createdBy: users(row.createdById),
    owner: users(row.ownerId),
  }));
}

/** The V3 shape (no owner). */
export function withoutOwner(dto: TransMemoryDto): Omit<TransMemoryDto, 'owner'> {
  const { owner: _owner, ...rest } = dto;
  return rest;
}
