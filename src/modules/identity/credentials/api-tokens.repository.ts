import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ApiTokensTable, DB } from '../../../db/schema.js';
import { num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import { hashToken } from './token-hash.js';

export type ApiTokenRow = Selectable<ApiTokensTable>;

/** Personal API tokens start with this prefix, so a leaked one is recognisable (and greppable). */
export const API_TOKEN_PREFIX = 'otms_';

export function looksLikeApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

export async function insertApiToken(
  db: Kysely<DB>,
  input: { userId: string; organizationId: string; name: string; expiresAt: string | null; now: Date },
): Promise<{ row: ApiTokenRow; token: string }> {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = await db
    .insertInto('apiTokens')
    .values({
      uid: newUid(),
      tokenHash: hashToken(token),
      userId: input.userId,
      organizationId: input.organizationId,
      name: input.name,
      createdAt: input.now.toISOString(),
      expiresAt: input.expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, token };
}

/** The live token row for a presented token: not revoked and not expired. */
export function findLiveApiToken(db: Kysely<DB>, token: string, now: Date): Promise<ApiTokenRow | undefined> {
  return db
    .selectFrom('apiTokens')
    .selectAll()
    .where('tokenHash', '=', hashToken(token))
    .where('revokedAt', 'is', null)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now.toISOString())]))
    .executeTakeFirst();
}

export function findLiveApiTokenById(db: Kysely<DB>, id: string, now: Date): Promise<ApiTokenRow | undefined> {
  return db
    .selectFrom('apiTokens')
    .selectAll()
    .where('id', '=', id)
    .where('revokedAt', 'is', null)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now.toISOString())]))
    .executeTakeFirst();
}

/** Records use at most once a minute, so that reading with a token is not a write per request. */
/** How often a token's `lastUsedAt` is written while it is used: about once a minute, not on every request. */
export const API_TOKEN_TOUCH_MS = 60_000;

/** Records that a token was used, at most once per `API_TOKEN_TOUCH_MS`. */
export async function touchApiToken(db: Kysely<DB>, row: Pick<ApiTokenRow, 'id' | 'lastUsedAt'>, now: Date): Promise<void> {
  if (row.lastUsedAt && now.getTime() - Date.parse(row.lastUsedAt) < API_TOKEN_TOUCH_MS) return;
  await db.updateTable('apiTokens').set({ lastUsedAt: now.toISOString() }).where('id', '=', row.id).execute();
}

export function listApiTokens(db: Kysely<DB>, userId: string): Promise<ApiTokenRow[]> {
  return db.selectFrom('apiTokens').selectAll().where('userId', '=', userId).orderBy('id', 'asc').execute();
}

/** Revokes one of the user's tokens; false when the user has no such live token. */
export async function revokeApiToken(db: Kysely<DB>, userId: string, uid: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('apiTokens')
    .set({ revokedAt: now.toISOString() })
    .where('userId', '=', userId)
    .where('uid', '=', uid)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** One page of a user's tokens, revoked and expired ones included, oldest first. */
export async function listApiTokensPage(
  db: Kysely<DB>,
  organizationId: string,
  userId: string,
  page: PageRequest,
): Promise<{ rows: ApiTokenRow[]; total: number }> {
  const query = db.selectFrom('apiTokens').where('organizationId', '=', organizationId).where('userId', '=', userId);
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll().orderBy('id', 'asc').limit(limit).offset(offset).execute();
  return { rows, total: num(total as string | number) };
}

/** One of the user's own tokens by uid, live or not; someone else's is not found. */
export function findOwnApiToken(db: Kysely<DB>, organizationId: string, userId: string, uid: string): Promise<ApiTokenRow | undefined> {
  return db
    .selectFrom('apiTokens')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .where('uid', '=', uid)
    .executeTakeFirst();
}
