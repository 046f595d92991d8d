import { jwtVerify } from 'jose';
import type { AppDeps } from '../../../deps.js';
import { scopesForProduct } from '../../../domain/auth/products.js';
import { ACCESS_TOKEN_TYPE, issuer } from './access-tokens.js';
import { SIGNING_ALGORITHM, verificationKey } from './signing-keys.js';
import { formatSource, liveSourceUserId, parseSource } from './token-sources.repository.js';

/** What a valid JWT access token of the token service stands for. */
export interface VerifiedAccessToken {
  readonly userId: string;
  /** Identifies what the token was issued from (`api_token:<id>` or `service_account:<id>`), for revocation. */
  readonly credentialId: string;
  /** TMS scopes the token grants (`read`, `write`); null = unrestricted. */
  readonly scopes: readonly string[] | null;
  /** When the token expires, in milliseconds since the epoch. */
  readonly expiresAt: number;
}

/** The product this API is: a JWT must name it in `aud`. */
const TMS_AUDIENCE = 'tms';

/**
 * Verifies a JWT access token: signature against the persisted signing keys (by `kid`), type,
 * issuer, expiry against the injectable clock, audience (the TMS product), and that what it was
 * issued from still exists and is not revoked. Null for anything that does not pass.
 *
 * Tokens exchanged from a personal API token are unrestricted (the user's own rights apply);
 * client-credentials tokens grant the `tms:` scopes they carry.
 */
export async function verifyAccessToken(deps: AppDeps, jwt: string): Promise<VerifiedAccessToken | null> {
  const now = deps.clock();
  let payload;
  try {
    ({ payload } = await jwtVerify(
      jwt,
      async (header) => {
        const key = header.kid ? await verificationKey(deps, header.kid) : undefined;
        if (!key) throw new Error('unknown signing key');
        return key;
      },
      {
        algorithms: [SIGNING_ALGORITHM],
        typ: ACCESS_TOKEN_TYPE,
        issuer: issuer(deps),
        audience: TMS_AUDIENCE,
        currentDate: now,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      },
    ));
  } catch {
    return null;
  }
  const source = parseSource(payload.src);
  if (!source || !payload.sub) return null;
  const userId = await liveSourceUserId(deps.database.db, source, payload.sub, now);
  if (!userId) return null;
  const scopes =
    source.kind === 'api_token' ? null : scopesForProduct(typeof payload.scope === 'string' ? payload.scope : '', TMS_AUDIENCE);
  return { userId, credentialId: formatSource(source), scopes, expiresAt: (payload.exp ?? 0) * 1000 };
}
