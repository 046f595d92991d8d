import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { AppDeps } from '../../../deps.js';
import { SIGNING_ALGORITHM, signingKey } from './signing-keys.js';
import { formatSource } from './token-sources.repository.js';
import type { TokenSource } from './token-sources.repository.js';

/** Default lifetime of an access token (OPENTMS_ACCESS_TOKEN_TTL_SECONDS overrides it). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** The `typ` header of JWT access tokens (RFC 9068), so that no other kind of JWT passes for one. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/** `iss`: the installation's public URL when configured, else a fixed name. */
export function issuer(deps: AppDeps): string {
  return deps.config.publicUrl ?? 'opentms';
}

export interface AccessTokenClaims {
  /** uid of the user the token acts as (for service accounts, its bot user). */
  readonly subject: string;
  readonly organizationUid: string;
  /** Product uids the token is for. */
  readonly audience: readonly string[];
  /** Space-separated `<product>:<scope>` entries. */
  readonly scope: string;
  readonly source: TokenSource;
  /** For client-credentials tokens (RFC 9068, section 2.2). */
  readonly clientId?: string;
  /** Latest moment the token may live to (the API token's own expiry). */
  readonly notAfter?: Date | null;
}

/** Signs a JWT access token; times come from the injectable clock. */
export async function issueAccessToken(deps: AppDeps, claims: AccessTokenClaims): Promise<{ token: string; expiresIn: number }> {
  const now = deps.clock();
  const issuedAt = Math.floor(now.getTime() / 1000);
  let expiresAt = issuedAt + deps.config.accessTokenTtlSeconds;
  if (claims.notAfter) expiresAt = Math.min(expiresAt, Math.floor(claims.notAfter.getTime() / 1000));
  const { kid, privateKey } = await signingKey(deps);
  const token = await new SignJWT({
    org: claims.organizationUid,
    scope: claims.scope,
    src: formatSource(claims.source),
    ...(claims.clientId ? { client_id: claims.clientId } : {}),
  })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: ACCESS_TOKEN_TYPE })
    .setIssuer(issuer(deps))
    .setSubject(claims.subject)
    .setAudience([...claims.audience])
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(randomUUID())
    .sign(privateKey);
  return { token, expiresIn: expiresAt - issuedAt };
}
