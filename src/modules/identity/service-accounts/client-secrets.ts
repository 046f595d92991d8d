import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newUid } from '../../../db/ids.js';

/** Client secrets start with this prefix, so that a leaked one is recognisable (and greppable). */
export const CLIENT_SECRET_PREFIX = 'otmscs_';

/** A new client id (public, but unguessable) and client secret (shown once). */
export function newClientCredentials(): { clientId: string; clientSecret: string } {
  return { clientId: newUid(), clientSecret: CLIENT_SECRET_PREFIX + randomBytes(32).toString('base64url') };
}

/**
 * Client secrets are stored as SHA-256, not with the slow password hash: the secret is 256 random
 * bits, so no dictionary or brute-force attack on a leaked hash can succeed, and a slow hash would
 * only make every token request cost ~50 ms of CPU (an easy way to overload the token endpoint).
 * Passwords need scrypt because people choose them; generated secrets do not.
 */
export function hashClientSecret(secret: string): string {
  return `sha256$${createHash('sha256').update(secret).digest('hex')}`;
}

export function verifyClientSecret(secret: string, stored: string): boolean {
  const actual = Buffer.from(hashClientSecret(secret));
  const expected = Buffer.from(stored);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
