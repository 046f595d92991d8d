import type { Kysely, Selectable } from 'kysely';
import type { DB, OrganizationsTable } from '../../../db/schema.js';
import { newUid, nowIso } from '../../../db/ids.js';
import { seedOrganizationDefaults } from './organization-defaults.js';

export type OrganizationRow = Selectable<OrganizationsTable>;

export interface NewOrganization {
  name: string;
  isSystem?: boolean;
  ssoOnly?: boolean;
  apiTokenSsoEnforced?: boolean;
  seatLimit?: number | null;
  rateLimitPerMinute?: number | null;
  businessUnitsEnabled?: boolean;
}

/** Creates an organization with its default records (organization-defaults.ts); pass a transaction. */
export async function insertOrganization(db: Kysely<DB>, input: string | NewOrganization): Promise<OrganizationRow> {
  const org = typeof input === 'string' ? { name: input } : input;
  const row = await db
    .insertInto('organizations')
    .values({
      uid: newUid(),
      name: org.name,
      createdAt: nowIso(),
      isSystem: org.isSystem ?? false,
      ssoOnly: org.ssoOnly ?? false,
      apiTokenSsoEnforced: org.apiTokenSsoEnforced ?? false,
      seatLimit: org.seatLimit ?? null,
      rateLimitPerMinute: org.rateLimitPerMinute ?? null,
      businessUnitsEnabled: org.businessUnitsEnabled ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (!org.isSystem) await seedOrganizationDefaults(db, row);
  return row;
}

export function findOrganizationByUid(db: Kysely<DB>, uid: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('uid', '=', uid).where('isSystem', '=', false).executeTakeFirst();
}

export function findSystemOrganization(db: Kysely<DB>): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('isSystem', '=', true).executeTakeFirst();
}

export type OrganizationChanges = Partial<
  Pick<OrganizationRow, 'name' | 'ssoOnly' | 'apiTokenSsoEnforced' | 'seatLimit' | 'rateLimitPerMinute' | 'businessUnitsEnabled'>
>;

export function updateOrganization(db: Kysely<DB>, id: string, changes: OrganizationChanges): Promise<OrganizationRow> {
  return db.updateTable('organizations').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function listOrganizations(
  db: Kysely<DB>,
  offset: number,
  limit: number,
): Promise<{ rows: OrganizationRow[]; total: number }> {
  const base = db.selectFrom('organizations').where('isSystem', '=', false);
  const { total } = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('id').limit(limit).offset(offset).execute();
  return { rows, total: Number(total) };
}

export function findOrganizationById(db: Kysely<DB>, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Organizations of customers, leaving out the installation's system organization. */
export async function countOrganizations(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('isSystem', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
