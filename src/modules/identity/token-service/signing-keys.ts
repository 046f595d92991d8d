import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';

/**
 * The keys that sign the token service's JWTs, persisted in `signing_keys` so that tokens survive
 * a restart and every process of an installation signs and verifies with the same keys.
 *
 * ES256 (ECDSA P-256): short signatures, and verifiers need only the public half, which the
 * JWKS endpoint publishes. Rotation (retiring a key and making a new one) is not built yet; a
 * retired key still verifies tokens until they have all expired.
 */
export const SIGNING_ALGORITHM = 'ES256';

interface LoadedKey {
  readonly kid: string;
  readonly createdAt: string;
  readonly retiredAt: string | null;
  readonly publicJwk: JWK;
  readonly publicKey: CryptoKey;
  readonly privateJwk: JWK;
  privateKey?: CryptoKey;
}

/** Keys held in memory; one store per app (per `deps`), so that two apps in one process never mix databases. */
class KeyStore {
  keys = new Map<string, LoadedKey>();
  /** A signing key is created at most once per process at a time. */
  creating: Promise<LoadedKey> | null = null;

  constructor(private readonly db: Kysely<DB>) {}

  async reload(): Promise<void> {
    const rows = await this.db
      .selectFrom('signingKeys')
      .selectAll()
      .where('algorithm', '=', SIGNING_ALGORITHM)
      .orderBy('id', 'asc')
      .execute();
    const next = new Map<string, LoadedKey>();
    for (const row of rows) {
      const known = this.keys.get(row.kid);
      if (known && known.retiredAt === row.retiredAt) {
        next.set(row.kid, known);
        continue;
      }
      const publicJwk = JSON.parse(row.publicJwk) as JWK;
      next.set(row.kid, {
        kid: row.kid,
        createdAt: row.createdAt,
        retiredAt: row.retiredAt,
        publicJwk,
        publicKey: (await importJWK(publicJwk, SIGNING_ALGORITHM)) as CryptoKey,
        privateJwk: JSON.parse(row.privateJwk) as JWK,
      });
    }
    this.keys = next;
  }

  /**
   * The key to sign with: the OLDEST key that is not retired. Choosing the oldest makes two
   * processes that both found no key and both inserted one converge on the same key (the extra
   * one is harmless: it is published and verifies whatever it signed, which is nothing).
   */
  activeKey(): LoadedKey | undefined {
    for (const key of this.keys.values()) if (!key.retiredAt) return key;
    return undefined;
  }
}

const stores = new WeakMap<AppDeps, KeyStore>();

function storeOf(deps: AppDeps): KeyStore {
  let store = stores.get(deps);
  if (!store) {
    store = new KeyStore(deps.database.db);
    stores.set(deps, store);
  }
  return store;
}

async function createKey(deps: AppDeps, store: KeyStore): Promise<LoadedKey> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const kid = randomBytes(16).toString('base64url');
  await deps.database.db
    .insertInto('signingKeys')
    .values({
      kid,
      algorithm: SIGNING_ALGORITHM,
      privateJwk: JSON.stringify(await exportJWK(privateKey)),
      publicJwk: JSON.stringify(await exportJWK(publicKey)),
      createdAt: deps.clock().toISOString(),
      retiredAt: null,
    })
    .execute();
  // Re-read rather than use the key just made: another process may have made one first.
  await store.reload();
  const active = store.activeKey();
  if (!active) throw new Error('no signing key after creating one');
  return active;
}

/** The key to sign new tokens with, with its private half; made (and persisted) on first need. */
export async function signingKey(deps: AppDeps): Promise<{ kid: string; privateKey: CryptoKey }> {
  const store = storeOf(deps);
  let key = store.activeKey();
  if (!key) {
    await store.reload();
    key = store.activeKey();
  }
  if (!key) {
    store.creating ??= createKey(deps, store).finally(() => {
      store.creating = null;
    });
    key = await store.creating;
  }
  key.privateKey ??= (await importJWK(key.privateJwk, SIGNING_ALGORITHM)) as CryptoKey;
  return { kid: key.kid, privateKey: key.privateKey };
}

/** The public key of `kid`, reloading from the database once when it is not known yet (made by another process). */
export async function verificationKey(deps: AppDeps, kid: string): Promise<CryptoKey | undefined> {
  const store = storeOf(deps);
  if (!store.keys.has(kid)) await store.reload();
  return store.keys.get(kid)?.publicKey;
}

/** The public JWKs to publish: every key that may have signed a token that has not expired yet. */
export async function publicJwks(deps: AppDeps): Promise<JWK[]> {
  const store = storeOf(deps);
  await store.reload();
  const oldestValid = new Date(deps.clock().getTime() - deps.config.accessTokenTtlSeconds * 1000).toISOString();
  return [...store.keys.values()]
    .filter((key) => !key.retiredAt || key.retiredAt > oldestValid)
    .map((key) => ({ ...key.publicJwk, kid: key.kid, alg: SIGNING_ALGORITHM, use: 'sig' }));
}
