import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../../../config.js';

/**
 * Engine credentials sealed at rest (docs/machine-translation.md, "Credentials"): AES-256-GCM with
 * a random 96-bit nonce per value, stored as `v1.<nonce>.<tag>.<ciphertext>` (base64url). The key
 * is OPENTMS_SECRET_KEY, or else the file `<dataDir>/secret.key` (32 random bytes, mode 0600) made
 * on first use: the database alone never holds what opens it. Installations with several hosts set
 * OPENTMS_SECRET_KEY on each. A value sealed under another key does not open (`null`), and its
 * settings then answer that the credentials must be entered again.
 */

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';
const keys = new Map<string, Buffer>();

function keyOf(config: Pick<Config, 'dataDir' | 'machineTranslation'>): Buffer {
  if (config.machineTranslation.secretKey) return config.machineTranslation.secretKey;
  const file = join(config.dataDir, 'secret.key');
  let key = keys.get(file);
  if (key) return key;
  try {
    key = readFileSync(file);
  } catch {
    mkdirSync(dirname(file), { recursive: true });
    try {
      // `wx`: of two processes making it at once, one wins and the other reads the winner's key.
      writeFileSync(file, randomBytes(32), { flag: 'wx', mode: 0o600 });
      chmodSync(file, 0o600);
    } catch {
      // made by another process meanwhile
    }
    key = readFileSync(file);
  }
  if (key.length !== 32) throw new Error(`${file} must hold exactly 32 bytes (the key that seals MT credentials)`);
  keys.set(file, key);
  return key;
}

/** The secrets, sealed; null when there are none. */
export function sealCredentials(config: Pick<Config, 'dataDir' | 'machineTranslation'>, secrets: Record<string, string>): string | null {
  if (Object.keys(secrets).length === 0) return null;
  const nonce = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, keyOf(config), nonce);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [VERSION, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The secrets of a sealed value; {} for none; null when the value does not open under this key. */
export function openCredentials(
  config: Pick<Config, 'dataDir' | 'machineTranslation'>,
  sealed: string | null,
): Record<string, string> | null {
  if (sealed === null || sealed === '') return {};
  const [version, nonce, tag, data] = sealed.split('.');
  if (version !== VERSION || !nonce || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv(ALGORITHM, keyOf(config), Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, string>) : null;
  } catch {
    return null;
  }
}
