import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { resourceReferenceViews } from '../../organization-setup/setup-records/index.js';
import { langsOf } from './term-bases.repository.js';
import type { TermBaseRow } from './term-bases.repository.js';
import type { TermBaseDto } from './term-bases.schemas.js';

/** Term bases in the published shape (`TermBaseDto`), references loaded once per page. */
export async function toTermBaseDtos(db: Kysely<DB>, organizationId: Id, rows: readonly TermBaseRow[]): Promise<TermBaseDto[]> {
  const references = await resourceReferenceViews(db, organizationId, rows);
  return rows.map((row) => ({
    id: String(row.id),
    uid: row.uid,
    internalId: row.internalId,
    name: row.name,
    langs: langsOf(row),
    ...references(row),
    dateCreated: row.createdAt,
    note: row.note,
    canShow: true,
  }));
}
