import type { Kysely, Selectable } from 'kysely';
import type { DB, ServiceAccountsTable } from '../../../db/schema.js';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { ProductGrant } from '../../../domain/auth/products.js';
import { isProduct } from '../../../domain/auth/products.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';

export type ServiceAccountRow = Selectable<ServiceAccountsTable>;

export interface NewServiceAccount {
  organizationId: string;
  name: string;
  clientId: string;
  clientSecretHash: string;
  products: readonly ProductGrant[];
  botUserId: string;
  createdById: string;
  now: Date;
}

export function insertServiceAccount(db: Kysely<DB>, input: NewServiceAccount): Promise<ServiceAccountRow> {
  return db
    .insertInto('serviceAccounts')
    .values({
      uid: newUid(),
      organizationId: input.organizationId,
      name: input.name,
      clientId: input.clientId,
      clientSecretHash: input.clientSecretHash,
      products: JSON.stringify(input.products),
      botUserId: input.botUserId,
      createdAt: input.now.toISOString(),
      createdById: input.createdById,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The stored grants; anything not in today's product catalogue is ignored. */
export function productsOf(row: ServiceAccountRow): ProductGrant[] {
  const stored = JSON.parse(row.products) as { product: string; scopes: string[] }[];
  return stored.flatMap((grant) => (isProduct(grant.product) ? [{ product: grant.product, scopes: grant.scopes }] : []));
}

export function findServiceAccountByUid(db: Kysely<DB>, organizationId: string, uid: string): Promise<ServiceAccountRow | undefined> {
  return db
    .selectFrom('serviceAccounts')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('uid', '=', uid)
    .executeTakeFirst();
}

/** For client authentication, which knows only the client id (it is unique installation-wide). */
export function findServiceAccountByClientId(db: Kysely<DB>, clientId: string): Promise<ServiceAccountRow | undefined> {
  return db.selectFrom('serviceAccounts').selectAll().where('clientId', '=', clientId).executeTakeFirst();
}

export async function listServiceAccounts(
  db: Kysely<DB>,
  organizationId: string,
  page: PageRequest,
): Promise<{ rows: ServiceAccountRow[]; total: number }> {
  const query = db.selectFrom('serviceAccounts').where('organizationId', '=', organizationId);
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll().orderBy('id', 'asc').limit(limit).offset(offset).execute();
  return { rows, total: num(total as string | number) };
}

export async function deleteServiceAccountRow(db: Kysely<DB>, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('serviceAccounts').where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

/**
 * Deletes a service account's bot user; only the account's deletion calls this (description:
 * "the only way to remove one is to delete its service account"). Login tokens and API tokens
 * of the user go with it (foreign keys cascade).
 */
export async function deleteBotUser(db: Kysely<DB>, organizationId: string, userId: string): Promise<void> {
  await db.deleteFrom('users').where('organizationId', '=', organizationId).where('id', '=', userId).where('isBot', '=', true).execute();
}
