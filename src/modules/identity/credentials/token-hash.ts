import { createHash } from 'node:crypto';

/** Tokens are looked up by their SHA-256: a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
