import type { AppDeps } from '../../deps.js';

/** What a valid JWT access token of the token service stands for. */
export interface VerifiedAccessToken {
  readonly userId: string;
  /** Identifies what the token was issued from (`api_token:<id>` or `service_account:<id>`), for revocation. */
  readonly credentialId: string;
  /** TMS scopes the token grants (`read`, `write`); null = unrestricted. */
  readonly scopes: readonly string[] | null;
}

/**
 * Verifies a JWT access token: signature against the persisted signing keys, expiry, audience
 * (the TMS product), and that what it was issued from still exists and is not revoked.
 * Placeholder until the token service lands: refuses every JWT.
 */
export async function verifyAccessToken(_deps: AppDeps, _jwt: string): Promise<VerifiedAccessToken | null> {
  return null;
}
