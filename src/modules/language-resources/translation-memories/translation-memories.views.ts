import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { resourceReferenceViews } from '../../organization-setup/setup-records/index.js';
import { targetLangsOf } from './translation-memories.repository.js';
import type { TransMemoryRow } from './translation-memories.repository.js';
import type { TransMemoryDto } from './translation-memories.schemas.js';

/** TMs in the published shape (`TransMemoryDto`; V3 leaves out the owner), references loaded once per page. */
export async function toTransMemoryDtos(db: Kysely<DB>, organizationId: Id, rows: readonly TransMemoryRow[]): Promise<TransMemoryDto[]> {
  const references = await resourceReferenceViews(db, organizationId, rows);
  return rows.map((row) => {
    const { client, businessUnit, domain, subDomain, createdBy, owner } = references(row);
    return {
      id: String(row.id),
      uid: row.uid,
      internalId: row.internalId,
      name: row.name,
      sourceLang: row.sourceLang,
      targetLangs: targetLangsOf(row),
      client,
      businessUnit,
      domain,
      subDomain,
      note: row.note,
      dateCreated: row.createdAt,
      createdBy,
      owner,
    };
  });
}

/** The V3 shape (no owner). */
export function withoutOwner(dto: TransMemoryDto): Omit<TransMemoryDto, 'owner'> {
  const { owner: _owner, ...rest } = dto;
  return rest;
}
