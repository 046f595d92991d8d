import type { Kysely, Selectable } from 'kysely';
import type { DB, OrganizationsTable } from '../../db/schema.js';
import { newUid, nowIso } from '../../db/ids.js';

export type OrganizationRow = Selectable<OrganizationsTable>;

export function insertOrganization(db: Kysely<DB>, name: string): Promise<OrganizationRow> {
  return db
    .insertInto('organizations')
    .values({ uid: newUid(), name, createdAt: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findOrganizationById(db: Kysely<DB>, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countOrganizations(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('organizations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
