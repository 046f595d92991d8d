import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook body signatures (docs/outbound-http.md): `X-OpenTMS-Signature: sha256=<hex>`, the
 * HMAC-SHA256 of the exact body bytes (UTF-8) keyed by the webhook's signing secret.
 */
export const SIGNATURE_HEADER = 'X-OpenTMS-Signature';

const PREFIX = 'sha256=';

/** `sha256=<lower-case hex HMAC-SHA256 of body>`. */
export function signBody(secret: string, body: string): string {
  return PREFIX + createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/**
 * Whether `header` is the signature of `body` under `secret`. `body` is the raw request body as
 * received (a string is taken as UTF-8). Compares in constant time; a missing, repeated or
 * malformed header is simply not valid.
 */
export function verifySignature(secret: string, body: string | Uint8Array, header: string | string[] | undefined | null): boolean {
  if (typeof header !== 'string') return false;
  const value = header.trim();
  if (value.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return false;
  const hex = value.slice(PREFIX.length);
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  const hmac = createHmac('sha256', secret);
  if (typeof body === 'string') hmac.update(body, 'utf8');
  else hmac.update(body);
  const expected = hmac.digest();
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}
