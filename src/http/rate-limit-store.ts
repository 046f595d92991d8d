import { Redis } from 'ioredis';

/**
 * Rate-limit counters: the window arithmetic and the two stores (process memory, Redis).
 *
 * The algorithm is a sliding window over sub-windows ("slots"): the 60-second window is cut into
 * SLOTS slots of 5 s, each slot counts the requests admitted in it, and at time t the window's
 * count is
 *
 *     estimate = oldest slot × (share of it still inside the window) + the SLOTS newer slots
 *
 * i.e. the sum over the last 60 s, where only the one slot that straddles the window's start is
 * interpolated (as if its requests were spread evenly over its 5 s). The error is therefore at most
 * the number of requests of that one slot, and is zero when they were evenly spread; a burst
 * leaves the window at most 5 s later than it would with an exact log. See docs/rate-limits.md.
 *
 * A request is admitted when `estimate + 1 <= limit` for every key it is counted against, and is
 * then counted against all of them at once; a refused request counts against none, so a client
 * that keeps retrying while refused is not locked out for longer.
 */

export interface WindowShape {
  /** Length of the window, in milliseconds. */
  readonly windowMs: number;
  /** Number of slots the window is cut into; one more slot (the straddling one) is kept. */
  readonly slots: number;
}

export const MINUTE_WINDOW: WindowShape = Object.freeze({ windowMs: 60_000, slots: 12 });

export interface LimitKey {
  /** Store key, e.g. `t:login:42`, `o:7`, `ip:203.0.113.9`. */
  readonly key: string;
  /** Requests per window; always at least 1 (disabled limits are not passed to the store). */
  readonly limit: number;
}

export interface HitResult {
  /** Whether the request was admitted (and counted against every key). */
  readonly admitted: boolean;
  /**
   * Per key (in the order given), the counts of slots `current - slots` … `current`, oldest first,
   * after this request was counted when it was admitted.
   */
  readonly counts: readonly (readonly number[])[];
}

export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  /**
   * Atomically checks every key and, when all admit the request, counts it against all of them.
   * Null when the store cannot answer (Redis unreachable): the caller serves the request.
   */
  hit(keys: readonly LimitKey[], nowMs: number): Promise<HitResult | null>;
  close(): Promise<void>;
}

const EPSILON = 1e-9;

function slotOf(nowMs: number, shape: WindowShape): { slot: number; fraction: number; slotMs: number } {
  const slotMs = shape.windowMs / shape.slots;
  const slot = Math.floor(nowMs / slotMs);
  return { slot, fraction: (nowMs - slot * slotMs) / slotMs, slotMs };
}

/** The window's count at `fraction` into the current slot; counts oldest first, current last. */
export function estimate(counts: readonly number[], fraction: number): number {
  let sum = (counts[0] ?? 0) * (1 - fraction);
  for (let i = 1; i < counts.length; i++) sum += counts[i]!;
  return sum;
}

/** Whether one more request fits under `limit`. */
export function admits(counts: readonly number[], fraction: number, limit: number): boolean {
  return estimate(counts, fraction) + 1 <= limit + EPSILON;
}

export interface WindowState {
  readonly limit: number;
  /** Requests that can still be made now (whole requests). */
  readonly remaining: number;
  /** Milliseconds until one more request fits; 0 when one fits now. */
  readonly retryAfterMs: number;
  /** When the window holds no counted request any more (UNIX milliseconds), if none is added. */
  readonly resetAtMs: number;
}

/** What the counts of one key mean for a client at `nowMs`: remaining, retry delay and reset time. */
export function describeWindow(counts: readonly number[], nowMs: number, limit: number, shape: WindowShape = MINUTE_WINDOW): WindowState {
  const { slot, fraction, slotMs } = slotOf(nowMs, shape);
  const n = counts.length; // slots + 1
  const remaining = Math.max(0, Math.floor(limit - estimate(counts, fraction) + EPSILON));

  // Slot i (oldest = 0) is slot number `slot - slots + i`, which leaves the window entirely at the
  // end of slot `slot + i`. The window is empty once the newest non-empty slot has left.
  let newest = -1;
  for (let i = n - 1; i >= 0; i--) {
    if (counts[i]! > 0) {
      newest = i;
      break;
    }
  }
  const resetAtMs = newest < 0 ? nowMs : (slot + newest + 1) * slotMs;

  // Walk forward slot by slot: during the j-th slot from now, counts[j] is the straddling slot and
  // fades out linearly while the newer ones stay whole.
  let retryAfterMs = 0;
  let rest = 0;
  for (let i = 1; i < n; i++) rest += counts[i]!;
  for (let j = 0; j < n; j++) {
    const oldest = counts[j]!;
    const from = j === 0 ? fraction : 0;
    if (rest + 1 <= limit + EPSILON) {
      const needed = oldest * (1 - from) + rest + 1 - limit; // how much of `oldest` must fade
      const phase = needed <= EPSILON ? from : 1 - (limit - 1 - rest) / oldest;
      retryAfterMs = Math.max(0, (j + phase - fraction) * slotMs);
      break;
    }
    rest -= counts[j + 1] ?? 0;
  }
  return { limit, remaining, retryAfterMs, resetAtMs };
}

/* ------------------------------------------------------------------------------------------------
 * Process memory
 * --------------------------------------------------------------------------------------------- */

interface MemoryEntry {
  readonly key: string;
  /** Ring of slot counts, indexed by slot number modulo its length. */
  readonly ring: number[];
  /** The newest slot the ring holds. */
  slot: number;
}

export interface MemoryStoreOptions {
  shape?: WindowShape;
  /**
   * Most keys kept at once. Expired keys are dropped as time passes; beyond this bound the keys
   * least recently counted are dropped too (their clients then start from zero).
   */
  maxKeys?: number;
}

/**
 * Counters in this process's memory. The Map is kept in order of each key's newest slot (a key is
 * moved to the end when it enters a new slot), so expired keys are always at the front and every
 * call drops them in amortised constant time: memory follows the keys active in the last minute.
 */
export class MemoryStore implements RateLimitStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, MemoryEntry>();
  private readonly shape: WindowShape;
  private readonly maxKeys: number;
  /** The slot of the last sweep: expired keys are looked for once per slot, not per call. */
  private sweptSlot = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryStoreOptions = {}) {
    this.shape = options.shape ?? MINUTE_WINDOW;
    this.maxKeys = options.maxKeys ?? 500_000;
  }

  /** Number of keys held (for tests and the benchmark). */
  get size(): number {
    return this.entries.size;
  }

  async hit(keys: readonly LimitKey[], nowMs: number): Promise<HitResult> {
    return this.hitSync(keys, nowMs);
  }

  /** `hit` without the promise, for the benchmark. */
  hitSync(keys: readonly LimitKey[], nowMs: number): HitResult {
    const { slot, fraction } = slotOf(nowMs, this.shape);
    if (slot > this.sweptSlot) this.sweep(slot);
    const width = this.shape.slots + 1;
    const counts: number[][] = [];
    let admitted = true;
    for (const { key, limit } of keys) {
      const entry = this.entries.get(key);
      const window = new Array<number>(width);
      if (entry) {
        this.advance(entry, slot);
        for (let i = 0; i < width; i++) window[i] = entry.ring[(entry.slot - this.shape.slots + i) % width]!;
      } else {
        window.fill(0);
      }
      counts.push(window);
      if (!admits(window, fraction, limit)) admitted = false;
    }
    if (admitted) {
      keys.forEach(({ key }, k) => {
        let entry = this.entries.get(key);
        if (!entry) {
          entry = { key, ring: new Array<number>(width).fill(0), slot };
          this.entries.set(key, entry);
        }
        entry.ring[entry.slot % width]! += 1;
        counts[k]![width - 1]! += 1;
      });
      if (this.entries.size > this.maxKeys) this.dropOldest();
    }
    return { admitted, counts };
  }

  /** Brings an entry to `slot`, zeroing the slots that have left the window since it was used. */
  private advance(entry: MemoryEntry, slot: number): void {
    // A clock that steps back is treated as standing still.
    if (slot <= entry.slot) return;
    const width = entry.ring.length;
    const steps = Math.min(slot - entry.slot, width);
    for (let i = 1; i <= steps; i++) entry.ring[(entry.slot + i) % width] = 0;
    entry.slot = slot;
    // Keep the Map ordered by newest slot: move the key to the end.
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
  }

  /**
   * Drops the keys whose every slot has left the window. (Starting a Map iteration skips the
   * holes left by earlier deletions at its front, so it is done once per slot, not per call.)
   */
  private sweep(slot: number): void {
    this.sweptSlot = slot;
    for (const [key, entry] of this.entries) {
      if (entry.slot >= slot - this.shape.slots) break;
      this.entries.delete(key);
    }
  }

  /** Over maxKeys: drops the least recently counted tenth at once, for the same reason. */
  private dropOldest(): void {
    let excess = this.entries.size - Math.floor(this.maxKeys * 0.9);
    for (const key of this.entries.keys()) {
      if (excess-- <= 0) break;
      this.entries.delete(key);
    }
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

/* ------------------------------------------------------------------------------------------------
 * Redis
 * --------------------------------------------------------------------------------------------- */

/**
 * One round trip per request: reads every key's slots, decides, and when admitted increments the
 * current slot of every key and renews its expiry, atomically (scripts run alone on the server).
 * Each key is a hash of slot number -> count. When a request opens a new slot of a key, the key's
 * expiry is set to the window plus two slots (it is needed until that slot has left the window)
 * and the slots that have left the window are deleted; other requests cost one HMGET and one
 * HINCRBY per key.
 *
 * KEYS: the limit keys. ARGV: now (ms), slot length (ms), slots, expiry (ms), then one limit per key.
 * Returns {admitted (0/1), counts of key 1 (slots + 1 values, oldest first), counts of key 2, …}.
 */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local slotMs = tonumber(ARGV[2])
local slots = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
local slot = math.floor(now / slotMs)
local fraction = (now - slot * slotMs) / slotMs
local fields = {}
for i = 0, slots do fields[i + 1] = string.format('%d', slot - slots + i) end
local admitted = 1
local all = {}
for k = 1, #KEYS do
  local raw = redis.call('HMGET', KEYS[k], unpack(fields))
  local counts = {}
  local sum = 0
  for i = 1, slots + 1 do
    local c = tonumber(raw[i]) or 0
    counts[i] = c
    if i == 1 then sum = sum + c * (1 - fraction) else sum = sum + c end
  end
  if sum + 1 > tonumber(ARGV[4 + k]) + 1e-9 then admitted = 0 end
  all[k] = counts
end
if admitted == 1 then
  for k = 1, #KEYS do
    all[k][slots + 1] = all[k][slots + 1] + 1
    -- A new slot: renew the expiry (the key is needed until this slot has left the window) and
    -- delete the slots that have left it. Done once per slot and key, not on every request.
    if redis.call('HINCRBY', KEYS[k], fields[slots + 1], 1) == 1 then
      redis.call('PEXPIRE', KEYS[k], ttl)
      if redis.call('HLEN', KEYS[k]) > slots + 1 then
        for _, name in ipairs(redis.call('HKEYS', KEYS[k])) do
          if tonumber(name) < slot - slots then redis.call('HDEL', KEYS[k], name) end
        end
      end
    end
  end
end
local out = { admitted }
for k = 1, #KEYS do
  for i = 1, slots + 1 do out[#out + 1] = all[k][i] end
end
return out
`;

interface RateLimitCommands {
  opentmsRateLimitHit(numberOfKeys: number, ...args: (string | number)[]): Promise<number[]>;
}

export interface RedisStoreOptions {
  url: string;
  /** Prepended to every key (`<prefix>rl:<key>`). */
  keyPrefix: string;
  shape?: WindowShape;
  /** Called when Redis fails or is unreachable; the request is then served (fail open). */
  onError(error: Error): void;
  /** Longest wait for one command before the request is served without it. */
  commandTimeoutMs?: number;
  /** Longest wait for the first connection at start. */
  connectTimeoutMs?: number;
}

/**
 * Counters in Redis, shared by every API process that uses the same Redis and key prefix.
 * Commands are never queued while Redis is unreachable (`enableOfflineQueue: false`): they fail at
 * once and the request is served; the client reconnects in the background.
 */
export class RedisStore implements RateLimitStore {
  readonly kind = 'redis' as const;
  private readonly redis: Redis;
  private readonly shape: WindowShape;
  private readonly prefix: string;
  private readonly onError: (error: Error) => void;

  private constructor(redis: Redis, options: RedisStoreOptions) {
    this.redis = redis;
    this.shape = options.shape ?? MINUTE_WINDOW;
    this.prefix = `${options.keyPrefix}rl:`;
    this.onError = options.onError;
  }

  /** Connects, waiting at most `connectTimeoutMs` for the first connection; never throws. */
  static async open(options: RedisStoreOptions): Promise<RedisStore> {
    const redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 500,
      connectTimeout: options.connectTimeoutMs ?? 2_000,
      // Reconnect forever, backing off to one attempt every 5 s.
      retryStrategy: (times) => Math.min(times * 200, 5_000),
    });
    redis.defineCommand('opentmsRateLimitHit', { lua: HIT_SCRIPT });
    // Without a listener ioredis prints every connection error itself.
    redis.on('error', (error: Error) => options.onError(error));
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, (options.connectTimeoutMs ?? 2_000) + 100);
      redis.once('ready', done);
      redis.once('error', done);
    });
    return new RedisStore(redis, options);
  }

  async hit(keys: readonly LimitKey[], nowMs: number): Promise<HitResult | null> {
    const { windowMs, slots } = this.shape;
    const slotMs = windowMs / slots;
    const args: (string | number)[] = keys.map(({ key }) => this.prefix + key);
    args.push(nowMs, slotMs, slots, windowMs + 2 * slotMs, ...keys.map(({ limit }) => limit));
    let reply: number[];
    try {
      reply = await (this.redis as unknown as RateLimitCommands).opentmsRateLimitHit(keys.length, ...args);
    } catch (error) {
      this.onError(error instanceof Error ? error : new Error(String(error)));
      return null;
    }
    const width = slots + 1;
    const counts = keys.map((_, k) => reply.slice(1 + k * width, 1 + (k + 1) * width).map(Number));
    return { admitted: Number(reply[0]) === 1, counts };
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') {
      try {
        await this.redis.quit();
        return;
      } catch {
        // fall through to a hard disconnect
      }
    }
    this.redis.disconnect();
  }
}
