import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';

/**
 * What a JWT was issued from, as recorded in its `src` claim: a personal API token (token
 * exchange) or a service account (client credentials). Every request with a JWT checks that its
 * source is still valid, so revoking the API token or deleting the account takes effect at once.
 */
export type TokenSource = { readonly kind: 'api_token'; readonly id: string } | { readonly kind: 'service_account'; readonly id: string };

const SOURCE = /^(api_token|service_account):([0-9]{1,19})$/;

export function formatSource(source: TokenSource): string {
  return `${source.kind}:${source.id}`;
}

export function parseSource(claim: unknown): TokenSource | null {
  if (typeof claim !== 'string') return null;
  const match = SOURCE.exec(claim);
  return match ? { kind: match[1] as TokenSource['kind'], id: match[2]! } : null;
}

/**
 * The user id a source stands for, when the source is still valid and belongs to the user with
 * uid `subject`: a live (not revoked, not expired) API token of that user, or a service account
 * whose bot user that is.
 */
export async function liveSourceUserId(db: Kysely<DB>, source: TokenSource, subject: string, now: Date): Promise<string | null> {
  if (source.kind === 'api_token') {
    const row = await db
      .selectFrom('apiTokens')
      .innerJoin('users', 'users.id', 'apiTokens.userId')
      .select('apiTokens.userId')
      .where('apiTokens.id', '=', source.id)
      .where('users.uid', '=', subject)
      .where('apiTokens.revokedAt', 'is', null)
      .where((eb) => eb.or([eb('apiTokens.expiresAt', 'is', null), eb('apiTokens.expiresAt', '>', now.toISOString())]))
      .executeTakeFirst();
    return row ? row.userId : null;
  }
  const row = await db
    .selectFrom('serviceAccounts')
    .innerJoin('users', 'users.id', 'serviceAccounts.botUserId')
    .select('serviceAccounts.botUserId')
    .where('serviceAccounts.id', '=', source.id)
    .where('users.uid', '=', subject)
    .executeTakeFirst();
  return row ? row.botUserId : null;
}

/** The uid of an organization, for the `org` claim. */
export async function organizationUid(db: Kysely<DB>, organizationId: string): Promise<string> {
  const row = await db.selectFrom('organizations').select('uid').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return row.uid;
}
