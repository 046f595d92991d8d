import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Caller } from '../../http/access.js';
import type { DB } from '../../db/schema.js';
import { bool } from '../../db/database.js';

/** Tokens are looked up by their SHA-256: a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createLoginToken(
  db: Kysely<DB>,
  input: { userId: string; organizationId: string; now: Date; ttlSeconds: number },
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
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
    })
    .execute();
  return { token, expiresAt };
}

/** The caller a token stands for, or null when it is unknown, expired, revoked or its user gone. */
export async function findCallerByToken(db: Kysely<DB>, token: string, now: Date): Promise<Caller | null> {
  const row = await db
    .selectFrom('loginTokens as t')
    .innerJoin('users as u', 'u.id', 't.userId')
    .select(['t.id as tokenId', 'u.id as userId', 'u.uid as userUid', 'u.organizationId', 'u.role', 'u.active'])
    .where('t.tokenHash', '=', hashToken(token))
    .where('t.revokedAt', 'is', null)
    .where('t.expiresAt', '>', now.toISOString())
    .where('u.deletedAt', 'is', null)
    .executeTakeFirst();
  if (!row || !bool(row.active)) return null;
  return {
    tokenId: String(row.tokenId),
    userId: String(row.userId),
    userUid: row.userUid,
    organizationId: String(row.organizationId),
    role: row.role,
  };
}
