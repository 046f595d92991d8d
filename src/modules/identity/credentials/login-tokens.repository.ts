import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DB, LoginTokensTable } from '../../../db/schema.js';
import { hashToken } from './token-hash.js';

export type LoginTokenRow = Selectable<LoginTokensTable>;

export interface NewLoginToken {
  userId: string;
  organizationId: string;
  now: Date;
  ttlSeconds: number;
  kind?: 'login' | 'session';
  impersonatorId?: string | null;
}

/** Issues a login token (or a session with its CSRF token); only hashes are stored. */
export async function createLoginToken(
  db: Kysely<DB>,
  input: NewLoginToken,
): Promise<{ token: string; expiresAt: string; csrfToken: string | null }> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = input.kind === 'session' ? randomBytes(24).toString('base64url') : null;
  const expiresAt = new Date(input.now.getTime() + input.ttlSeconds * 1000).toISOString();
  await db
    .insertInto('loginTokens')
    .values({
      tokenHash: hashToken(token),
      userId: input.userId,
      organizationId: input.organizationId,
      createdAt: input.now.toISOString(),
      expiresAt,
      revokedAt: null,
      kind: input.kind ?? 'login',
      csrfTokenHash: csrfToken ? hashToken(csrfToken) : null,
      impersonatorId: input.impersonatorId ?? null,
    })
    .execute();
  return { token, expiresAt, csrfToken };
}

/** The live token row (not revoked, not expired) for a presented token of the given kind. */
export function findLiveLoginToken(
  db: Kysely<DB>,
  token: string,
  kind: 'login' | 'session',
  now: Date,
): Promise<LoginTokenRow | undefined> {
  return db
    .selectFrom('loginTokens')
    .selectAll()
    .where('tokenHash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', now.toISOString())
    .executeTakeFirst();
}

export async function revokeLoginToken(db: Kysely<DB>, id: string, now: Date): Promise<void> {
  await db.updateTable('loginTokens').set({ revokedAt: now.toISOString() }).where('id', '=', id).where('revokedAt', 'is', null).execute();
}

/**
 * Revokes every login token and session of a user (password change, deletion, deactivation),
 * except `keepId`: the token of a user who changes their own password stays valid.
 */
export async function revokeUserLoginTokens(db: Kysely<DB>, userId: string, now: Date, keepId?: string): Promise<void> {
  let query = db
    .updateTable('loginTokens')
    .set({ revokedAt: now.toISOString() })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null);
  if (keepId) query = query.where('id', '!=', keepId);
  await query.execute();
}
