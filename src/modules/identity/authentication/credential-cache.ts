import type { Database } from '../../../db/database.js';
import { startNotificationListener } from '../../../db/notification-listener.js';
import type { ListenerLogger, NotificationListener } from '../../../db/notification-listener.js';
import type { Write } from '../../../db/write-observer.js';
import type { Caller } from '../../../http/access.js';

/**
 * Verified credentials kept for a short while (issue 12: "a short-lived cache for token
 * verification that revocation still clears at once"), so that a request with a known token
 * costs no database round trip for its caller.
 *
 * Any change to what a verification reads empties the cache at once, in every process:
 * - in this process, the database's write observer tells of every insert, update and delete
 *   (`CREDENTIAL_TABLES` below) before it runs;
 * - on PostgreSQL, triggers (migration 2026-11-24T1200) notify `opentms_credentials` when such a
 *   write commits, which every API process listens to; while that connection is down the cache
 *   is not used at all.
 *
 * A load that started before a change is not kept (the generation moved on meanwhile), and an
 * entry never outlives its credential's own expiry.
 */

export const CREDENTIALS_CHANNEL = 'opentms_credentials';

/** Tables whose writes may change what a credential stands for, and the columns whose changes do not (touches). */
const CREDENTIAL_TABLES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['users', new Set(['last_login_at'])],
  ['login_tokens', new Set<string>()],
  ['api_tokens', new Set(['last_used_at'])],
  ['service_accounts', new Set<string>()],
  ['signing_keys', new Set<string>()],
  ['organizations', new Set(['last_project_internal_id'])],
]);

/** Whether `write` may change a cached credential's caller (inserts never do: they add credentials). */
export function affectsCredentials(write: Write): boolean {
  const touches = CREDENTIAL_TABLES.get(write.table);
  if (!touches || write.kind === 'insert') return false;
  if (write.kind === 'update' && write.columns && write.columns.length > 0) return write.columns.some((column) => !touches.has(column));
  return true;
}

interface Entry {
  readonly caller: Caller;
  /** Milliseconds since the epoch after which the entry is not used. */
  readonly until: number;
  /** Personal API tokens: the row's id and when its `lastUsedAt` was last written. */
  touched?: { readonly tokenId: string; at: number };
}

export interface CredentialCacheOptions {
  /** How long a verified credential is kept; 0 keeps none. */
  readonly ttlMs: number;
  /** Most credentials kept; the oldest go first. */
  readonly maxEntries?: number;
}

export class CredentialCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  #generation = 0;
  #usable: () => boolean = () => true;

  constructor(options: CredentialCacheOptions) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** Counts changes: a load records it first, and is kept only if no change came meanwhile. */
  get generation(): number {
    return this.#generation;
  }

  /** Whether entries may be served now (false while cross-process notifications are not arriving). */
  usableWhen(check: () => boolean): void {
    this.#usable = check;
  }

  get(key: string, now: number): Entry | null {
    if (this.#ttlMs <= 0 || !this.#usable()) return null;
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return null;
    }
    return entry;
  }

  /** Keeps `caller` for `key` unless a change came after `generation` was read; never past `expiresAt`. */
  set(key: string, entry: Omit<Entry, 'until'>, generation: number, now: number, expiresAt: number | null): void {
    if (this.#ttlMs <= 0 || generation !== this.#generation) return;
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { ...entry, until: Math.min(now + this.#ttlMs, expiresAt ?? Number.POSITIVE_INFINITY) });
  }

  /** Forgets every credential: something they stand for changed. */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

export interface RunningCredentialCache {
  readonly cache: CredentialCache;
  close(): Promise<void>;
}

/**
 * The app's credential cache, emptied by this process's writes and, on PostgreSQL, by the
 * notifications of every process. `listenConnectionString` null: no LISTEN (tests of one process).
 */
export function startCredentialCache(
  database: Database,
  options: CredentialCacheOptions & { listenConnectionString: string | null; log: ListenerLogger },
): RunningCredentialCache {
  const cache = new CredentialCache(options);
  const unsubscribe = database.observeWrites((write) => {
    if (affectsCredentials(write)) cache.clear();
  });
  let listener: NotificationListener | null = null;
  if (database.dialect === 'postgres' && options.listenConnectionString && options.ttlMs > 0) {
    listener = startNotificationListener({
      connectionString: options.listenConnectionString,
      schema: database.schema,
      applicationName: 'opentms-credentials',
      channel: CREDENTIALS_CHANNEL,
      onNotify: () => cache.clear(),
      onDisconnect: () => cache.clear(),
      log: options.log,
    });
    const running = listener;
    cache.usableWhen(() => running.connected);
  }
  return {
    cache,
    async close() {
      unsubscribe();
      await listener?.close();
    },
  };
}
