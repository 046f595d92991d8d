import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { errors } from '../errors/index.js';
import { MINUTE_WINDOW, MemoryStore, RedisStore, describeWindow } from './rate-limit-store.js';
import type { LimitKey, RateLimitStore, WindowState } from './rate-limit-store.js';

/**
 * Request rate limits (docs/rate-limits.md). Every request that reaches an authenticated route is
 * counted against its token and its organization; every request to a public route (login, the
 * token service) against the client's IP address. Health, the OpenAPI document and /docs are not
 * limited, nor are requests that match no route or fail authentication.
 *
 * Per-request cost: no database access. An organization's own limit
 * (`organizations.rate_limit_per_minute`) is read once per ORGANIZATION_CACHE_MS and kept in
 * memory; counters live in process memory, or in Redis when REDIS_URL is set.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` exempts a route from rate limiting (health checks, documentation). */
    rateLimit?: false;
  }
  interface FastifyInstance {
    readonly rateLimits: RateLimits;
  }
}

export interface RateLimits {
  readonly store: RateLimitStore;
  /** Forgets the cached limit of an organization, e.g. after its `rate_limit_per_minute` changed. */
  forgetOrganization(organizationId: string): void;
}

/** How long an organization's own limit is cached in memory. */
export const ORGANIZATION_CACHE_MS = 30_000;
/** At most one warning about an unreachable Redis per this period. */
const STORE_WARNING_INTERVAL_MS = 30_000;

/** Paths never limited: a load balancer's health probe and the API's own documentation. */
export function isExemptPath(url: string): boolean {
  return url === '/health' || url === '/docs' || url.startsWith('/docs/') || url === '/api2/openapi.json';
}

/**
 * The key an anonymous client is counted under: its IPv4 address, or the /64 network of its IPv6
 * address (one subscriber usually holds a whole /64, so single addresses would be free to rotate).
 */
export function clientAddressKey(ip: string): string {
  let address = ip.trim();
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  if (!address.includes(':')) return `ip:${address}`;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return `ip:${mapped[1]}`;
  const [head = '', tail = ''] = address.toLowerCase().split('::', 2);
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = address.includes('::')
    ? [...left, ...new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  const network = groups.slice(0, 4).map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? g.replace(/^0+(?=.)/, '') : g));
  return `ip6:${network.join(':')}::/64`;
}

/** A counted limit of one request: which key, and what the window looks like for the client. */
interface Verdict {
  readonly admitted: boolean;
  /** The window reported in the headers: the one with the least remaining. */
  readonly reported: WindowState | null;
  /** Milliseconds until every refusing limit admits one request again. */
  readonly retryAfterMs: number;
}

/** Checks and counts one request against `keys`; null when the store could not answer. */
export async function checkLimits(store: RateLimitStore, keys: readonly LimitKey[], nowMs: number): Promise<Verdict | null> {
  const result = await store.hit(keys, nowMs);
  if (!result) return null;
  let reported: WindowState | null = null;
  let retryAfterMs = 0;
  keys.forEach(({ limit }, k) => {
    const state = describeWindow(result.counts[k]!, nowMs, limit, MINUTE_WINDOW);
    if (!result.admitted) retryAfterMs = Math.max(retryAfterMs, state.retryAfterMs);
    if (
      !reported ||
      state.remaining < reported.remaining ||
      (state.remaining === reported.remaining && state.retryAfterMs > reported.retryAfterMs)
    ) {
      reported = state;
    }
  });
  return { admitted: result.admitted, reported, retryAfterMs };
}

function rateHeaders(state: WindowState): Record<string, string> {
  return {
    'x-rate-limit-limit': String(state.limit),
    'x-rate-limit-remaining': String(state.remaining),
    'x-rate-limit-reset': String(Math.ceil(state.resetAtMs / 1000)),
  };
}

/** The organization's own limit, read at most once per ORGANIZATION_CACHE_MS per organization. */
function organizationLimits(deps: AppDeps) {
  const cache = new Map<string, { limit: number | null; expiresAtMs: number }>();
  const pending = new Map<string, Promise<number | null>>();

  async function load(organizationId: string): Promise<number | null> {
    const row = await deps.database.db
      .selectFrom('organizations')
      .select('rateLimitPerMinute')
      .where('id', '=', organizationId)
      .executeTakeFirst();
    const value = row?.rateLimitPerMinute;
    return value === null || value === undefined ? null : Number(value);
  }

  return {
    /** The organization's own limit per minute, or null for the configured default. */
    async get(organizationId: string, nowMs: number): Promise<number | null> {
      const cached = cache.get(organizationId);
      if (cached && cached.expiresAtMs > nowMs) return cached.limit;
      let loading = pending.get(organizationId);
      if (!loading) {
        loading = load(organizationId).finally(() => pending.delete(organizationId));
        pending.set(organizationId, loading);
      }
      const limit = await loading;
      if (cache.size >= 10_000) {
        for (const [id, entry] of cache) if (entry.expiresAtMs <= nowMs) cache.delete(id);
      }
      cache.set(organizationId, { limit, expiresAtMs: nowMs + ORGANIZATION_CACHE_MS });
      return limit;
    },
    forget(organizationId: string): void {
      cache.delete(organizationId);
    },
  };
}

/**
 * Installs the limits as an `onRequest` hook. Registered after the access hook, so that on
 * authenticated routes `request.caller` is known (a request that fails authentication never
 * gets here). Public routes are checked before their body is even read, so a refused login
 * costs no password hashing.
 */
export async function installRateLimit(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { perToken, perOrganization, perIp } = deps.config.rateLimit;
  let lastWarningMs = Number.NEGATIVE_INFINITY;
  const warn = (error: Error) => {
    const now = deps.clock().getTime();
    if (now - lastWarningMs < STORE_WARNING_INTERVAL_MS) return;
    lastWarningMs = now;
    app.log.warn(
      { err: { message: error.message } },
      'rate limits: Redis is unreachable; requests are served without rate limiting until it answers again',
    );
  };
  const store: RateLimitStore = deps.config.redisUrl
    ? await RedisStore.open({ url: deps.config.redisUrl, keyPrefix: deps.config.redisKeyPrefix, onError: warn })
    : new MemoryStore();
  const organizations = organizationLimits(deps);

  app.decorate('rateLimits', { store, forgetOrganization: (id: string) => organizations.forget(id) } satisfies RateLimits);
  app.addHook('onClose', async () => {
    await store.close();
  });

  async function keysFor(request: FastifyRequest, nowMs: number): Promise<LimitKey[] | null> {
    const { config, url } = request.routeOptions;
    // No route matched (404/405): nothing behind it is worth protecting.
    if (url === undefined || config.rateLimit === false || isExemptPath(url)) return null;
    const caller = request.caller;
    if (caller) {
      const keys: LimitKey[] = [];
      if (perToken > 0) keys.push({ key: `t:${caller.credential.kind}:${caller.credential.id}`, limit: perToken });
      const own = await organizations.get(caller.organizationId, nowMs);
      const organizationLimit = own === null || own < 0 ? perOrganization : own;
      if (organizationLimit > 0) keys.push({ key: `o:${caller.organizationId}`, limit: organizationLimit });
      return keys;
    }
    if (config.access?.public && perIp > 0) return [{ key: clientAddressKey(request.ip), limit: perIp }];
    return null;
  }

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const nowMs = deps.clock().getTime();
    const keys = await keysFor(request, nowMs);
    if (!keys || keys.length === 0) return;
    const verdict = await checkLimits(store, keys, nowMs);
    if (!verdict?.reported) return; // the store failed: serve the request (fail open)
    const headers = rateHeaders(verdict.reported);
    if (!verdict.admitted) {
      const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw errors.TooManyRequests({ retryAfterSeconds: seconds, rateHeaders: headers });
    }
    reply.headers(headers);
  });
}
