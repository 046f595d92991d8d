import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A new record uid: 22 characters of base62 (about 131 bits), URL-safe and unguessable,
 * the same shape as the uids of the published API.
 */
export function newUid(): string {
  const bytes = randomBytes(32);
  let out = '';
  for (const byte of bytes) {
    // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
    if (out.length === 22) return out;
  }
  return out + newUid().slice(out.length);
}

/** The current time as the ISO 8601 UTC string every table stores. */
export function nowIso(clock: () => Date = () => new Date()): string {
  return clock().toISOString();
}
