import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { langsOf } from './glossaries.repository.js';
import type { GlossaryRow } from './glossaries.repository.js';
import type { GlossaryDto } from './glossaries.schemas.js';

/**
 * Glossaries in the published shape (`GlossaryDto`), users loaded once per page. No machine
 * translation profile uses a glossary yet (issue 17): `profileCount` 0, `profiles` empty.
 */
export async function toGlossaryDtos(db: Kysely<DB>, organizationId: Id, rows: readonly GlossaryRow[]): Promise<GlossaryDto[]> {
  const users = await userReferenceLookup(
    db,
    organizationId,
    rows.flatMap((row) => [row.createdById, row.ownerId]),
  );
  return rows.map((row) => ({
    id: String(row.id),
    uid: row.uid,
    internalId: row.internalId,
    name: row.name,
    langs: langsOf(row),
    createdBy: users(row.createdById),
    owner: users(row.ownerId),
    dateCreated: row.createdAt,
    profileCount: 0,
    active: bool(row.active),
    profiles: [],
  }));
}
