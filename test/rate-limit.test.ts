import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localBlobStore } from '../src/storage/blob-store.js';
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { loadConfig } from '../src/config.js';
import { clientAddressKey } from '../src/http/rate-limit.js';
import { MINUTE_WINDOW, MemoryStore, describeWindow, estimate } from '../src/http/rate-limit-store.js';
import { apiToken, loginAs, makeOrganization, makeUser, signedInUser } from './factories.js';
import { createTestApp, createTestDatabase, testClock } from './harness.js';
import type { TestApp } from './harness.js';

/** Issue 3, point 10: rate limits per token, per organization and per client IP. */

const MINUTE = 60_000;

function expectLimited(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ errorCode: 'TooManyRequests', errorDescription: expect.any(String), errorDetails: [] });
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(response.headers['x-rate-limit-remaining']).toBe('0');
}

function rateHeaders(response: LightMyRequestResponse) {
  return {
    limit: response.headers['x-rate-limit-limit'],
    remaining: response.headers['x-rate-limit-remaining'],
    reset: response.headers['x-rate-limit-reset'],
  };
}

const users = (t: TestApp, headers: Record<string, string>) => t.inject({ url: '/api2/v1/users', headers });
let attempt = 0;
/** A failed login; each with a user name of its own, so the per-name login throttle never answers instead. */
const badLogin = (t: TestApp, remoteAddress: string, version = 'v3') =>
  t.inject({
    method: 'POST',
    url: `/api2/${version}/auth/login`,
    remoteAddress,
    payload: { userName: `nobody-${++attempt}`, password: 'wrong password' },
  });

describe('rate limits on the TMS API (memory store)', () => {
  describe('per token', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        env: { OPENTMS_RATE_LIMIT_PER_TOKEN: '5', OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '0', OPENTMS_RATE_LIMIT_PER_IP: '0' },
      });
    });
    afterAll(() => t.close());

    it('answers 429 with the error body and Retry-After past the limit; other tokens are not affected; the window frees up', async () => {
      const organization = await makeOrganization(t.database.db);
      const first = await signedInUser(t, 'ADMIN', organization);
      const second = await signedInUser(t, 'ADMIN', organization);
      const startSeconds = Math.floor(t.clock().getTime() / 1000);

      for (let i = 1; i <= 5; i++) {
        const response = await users(t, first.headers);
        expect(response.statusCode).toBe(200);
        expect(rateHeaders(response)).toMatchObject({ limit: '5', remaining: String(5 - i) });
      }
      const refused = await users(t, first.headers);
      expectLimited(refused);
      expect(refused.headers['x-rate-limit-limit']).toBe('5');
      // All five requests were made at one instant at the start of a 5-second slot: the
      // interpolated window lets the sixth in after 61 s (see docs/rate-limits.md).
      expect(refused.headers['retry-after']).toBe('61');
      expect(Number(refused.headers['x-rate-limit-reset'])).toBe(startSeconds + 65);

      // The same organization's other token has a count of its own.
      const other = await users(t, second.headers);
      expect(other.statusCode).toBe(200);
      expect(rateHeaders(other)).toMatchObject({ limit: '5', remaining: '4' });

      // Refused requests do not count: retrying while refused does not push the window further.
      for (let i = 0; i < 3; i++) expectLimited(await users(t, first.headers));

      t.clock.advance(MINUTE);
      const stillRefused = await users(t, first.headers);
      expectLimited(stillRefused);
      expect(stillRefused.headers['retry-after']).toBe('1');

      t.clock.advance(1_000);
      const again = await users(t, first.headers);
      expect(again.statusCode).toBe(200);
      expect(rateHeaders(again)).toMatchObject({ limit: '5', remaining: '0' });

      // Once the whole window has passed, the full allowance is back.
      t.clock.advance(5_000);
      const fresh = await users(t, first.headers);
      expect(rateHeaders(fresh)).toMatchObject({ limit: '5', remaining: '3' });
    });

    it('counts the token of a request whatever the path or the outcome, and /web/api2 together with /api2', async () => {
      const { headers } = await signedInUser(t);
      expect((await users(t, headers)).statusCode).toBe(200);
      expect((await t.inject({ url: '/web/api2/v1/users', headers })).statusCode).toBe(200);
      // A 400 after the check still counts and still carries the headers.
      const invalid = await t.inject({ url: '/api2/v1/users?pageSize=0', headers });
      expect(invalid.statusCode).toBe(400);
      expect(rateHeaders(invalid)).toMatchObject({ limit: '5', remaining: '2' });
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers })).statusCode).toBe(200);
      expect((await users(t, headers)).statusCode).toBe(200);
      expectLimited(await t.inject({ url: '/web/api2/v1/auth/whoAmI', headers }));
    });

    it('does not count requests that fail authentication or match no route', async () => {
      const { headers } = await signedInUser(t);
      for (let i = 0; i < 10; i++) {
        const unknown = await t.inject({ url: '/api2/v1/nothingHere', headers });
        expect(unknown.statusCode).toBe(404);
        expect(unknown.headers['x-rate-limit-limit']).toBeUndefined();
      }
      const bad = await t.inject({ url: '/api2/v1/users', headers: apiToken('not-a-token') });
      expect(bad.statusCode).toBe(401);
      expect(bad.headers['x-rate-limit-limit']).toBeUndefined();
      expect(rateHeaders(await users(t, headers))).toMatchObject({ remaining: '4' });
    });
  });

  describe('per organization', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        env: { OPENTMS_RATE_LIMIT_PER_TOKEN: '100', OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '6', OPENTMS_RATE_LIMIT_PER_IP: '0' },
      });
    });
    afterAll(() => t.close());

    it('caps the tokens of one organization together, and reports the limit with the least remaining', async () => {
      const organization = await makeOrganization(t.database.db);
      const a = await signedInUser(t, 'ADMIN', organization);
      const b = await signedInUser(t, 'PROJECT_MANAGER', organization);
      const elsewhere = await signedInUser(t);

      for (let i = 1; i <= 6; i++) {
        const response = await users(t, i % 2 ? a.headers : b.headers);
        expect(response.statusCode).toBe(200);
        // The organization (limit 6) has less left than either token (limit 100).
        expect(rateHeaders(response)).toMatchObject({ limit: '6', remaining: String(6 - i) });
      }
      expectLimited(await users(t, a.headers));
      const refused = await users(t, b.headers);
      expectLimited(refused);
      expect(refused.headers['x-rate-limit-limit']).toBe('6');

      // Another organization is not affected.
      expect((await users(t, elsewhere.headers)).statusCode).toBe(200);
    });

    it("honours the organization's own rate_limit_per_minute, read at most every 30 s", async () => {
      const organization = await makeOrganization(t.database.db);
      const a = await signedInUser(t, 'ADMIN', organization);
      const b = await signedInUser(t, 'ADMIN', organization);
      for (let i = 0; i < 6; i++) expect((await users(t, i % 2 ? a.headers : b.headers)).statusCode).toBe(200);
      expectLimited(await users(t, a.headers));

      await t.database.db.updateTable('organizations').set({ rateLimitPerMinute: 8 }).where('id', '=', organization.id).execute();
      // The limit is cached: no database read per request, so the change is not seen at once.
      expectLimited(await users(t, a.headers));

      t.clock.advance(31_000);
      const raised = await users(t, b.headers);
      expect(raised.statusCode).toBe(200);
      expect(rateHeaders(raised)).toMatchObject({ limit: '8', remaining: '1' });
      expect((await users(t, a.headers)).statusCode).toBe(200);
      expectLimited(await users(t, a.headers));

      // Back to the default; forgetOrganization makes the change count at once.
      await t.database.db.updateTable('organizations').set({ rateLimitPerMinute: null }).where('id', '=', organization.id).execute();
      t.app.rateLimits.forgetOrganization(organization.id);
      t.clock.advance(MINUTE + 5_000);
      for (let i = 0; i < 6; i++) expect((await users(t, a.headers)).statusCode).toBe(200);
      const back = await users(t, a.headers);
      expectLimited(back);
      expect(back.headers['x-rate-limit-limit']).toBe('6');

      // 0 lifts the organization's limit; the per-token limit still applies.
      await t.database.db.updateTable('organizations').set({ rateLimitPerMinute: 0 }).where('id', '=', organization.id).execute();
      t.app.rateLimits.forgetOrganization(organization.id);
      const unlimited = await users(t, a.headers);
      expect(unlimited.statusCode).toBe(200);
      expect(rateHeaders(unlimited)).toMatchObject({ limit: '100' });
    });
  });

  describe('per client IP, for requests without a token', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        env: { OPENTMS_RATE_LIMIT_PER_IP: '3', OPENTMS_RATE_LIMIT_PER_TOKEN: '1', OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '1' },
      });
    });
    afterAll(() => t.close());

    it('limits login attempts per address, before the password is checked', async () => {
      for (let i = 1; i <= 3; i++) {
        const response = await badLogin(t, '198.51.100.7', i === 2 ? 'v1' : 'v3');
        expect(response.statusCode).toBe(401);
        expect(rateHeaders(response)).toMatchObject({ limit: '3', remaining: String(3 - i) });
      }
      expectLimited(await badLogin(t, '198.51.100.7'));
      expectLimited(await badLogin(t, '198.51.100.7', 'v1'));
      // Another address is not affected, nor a token's requests from the limited address.
      expect((await badLogin(t, '198.51.100.8')).statusCode).toBe(401);
      const user = await makeUser(t.database.db, await makeOrganization(t.database.db));
      const token = await loginAs(t, user);
      expect((await t.inject({ url: '/api2/v1/users', headers: apiToken(token), remoteAddress: '198.51.100.7' })).statusCode).toBe(200);

      t.clock.advance(MINUTE + 5_000);
      expect((await badLogin(t, '198.51.100.7')).statusCode).toBe(401);
    });

    it('counts an IPv6 client by its /64 network', async () => {
      for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::9']) {
        expect((await badLogin(t, address)).statusCode).toBe(401);
      }
      expectLimited(await badLogin(t, '2001:db8:1:2:aaaa:bbbb:cccc:dddd'));
      expect((await badLogin(t, '2001:db8:1:3::1')).statusCode).toBe(401);
    });

    it('never limits /health, the OpenAPI document or /docs, and sends no rate headers there', async () => {
      for (let i = 0; i < 10; i++) {
        const health = await t.inject({ url: '/health', remoteAddress: '203.0.113.5' });
        expect(health.statusCode).toBe(200);
        expect(health.headers['x-rate-limit-limit']).toBeUndefined();
        expect((await t.inject({ url: '/api2/openapi.json', remoteAddress: '203.0.113.5' })).statusCode).toBe(200);
        expect((await t.inject({ url: '/docs', remoteAddress: '203.0.113.5' })).statusCode).toBeLessThan(400);
      }
      expect((await badLogin(t, '203.0.113.5')).statusCode).toBe(401);
    });
  });

  it('sends the headers on normal responses, with the defaults of the configuration', async () => {
    const t = await createTestApp();
    try {
      const { headers } = await signedInUser(t);
      const response = await users(t, headers);
      expect(response.statusCode).toBe(200);
      // Token: 6,000 per minute with one used; organization: 30,000. The token has less left.
      expect(rateHeaders(response)).toEqual({
        limit: '6000',
        remaining: '5999',
        reset: String(Math.ceil(t.clock().getTime() / 1000) + 65),
      });
      const login = await badLogin(t, '192.0.2.1');
      expect(rateHeaders(login)).toMatchObject({ limit: '600', remaining: '599' });
    } finally {
      await t.close();
    }
  });

  it('sends no headers and limits nothing when every limit is 0', async () => {
    const t = await createTestApp({
      env: { OPENTMS_RATE_LIMIT_PER_TOKEN: '0', OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '0', OPENTMS_RATE_LIMIT_PER_IP: '0' },
    });
    try {
      const { headers } = await signedInUser(t);
      const response = await users(t, headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-rate-limit-limit']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('the sliding window', () => {
  const { windowMs, slots } = MINUTE_WINDOW;
  const slotMs = windowMs / slots;

  it('is exact for evenly spread traffic and never off by more than the straddling slot', () => {
    // Random traffic over several minutes, compared with an exact log of the last 60 s.
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const store = new MemoryStore();
    const log: number[] = [];
    let now = Date.UTC(2026, 10, 21, 12);
    for (let i = 0; i < 5_000; i++) {
      now += Math.floor(random() * 200);
      const result = store.hitSync([{ key: 'k', limit: 1_000_000 }], now);
      log.push(now);
      const counts = result.counts[0]!;
      const slot = Math.floor(now / slotMs);
      const fraction = (now - slot * slotMs) / slotMs;
      const exact = log.filter((at) => at > now - windowMs).length;
      expect(Math.abs(estimate(counts, fraction) - exact)).toBeLessThanOrEqual(counts[0]! + 1e-9);
    }
  });

  it('never admits more than the limit in a minute aligned to the slots, nor more than limit + one slot in any minute', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const store = new MemoryStore();
    const limit = 50;
    const admitted: number[] = [];
    let now = Date.UTC(2026, 10, 21, 12);
    for (let i = 0; i < 20_000; i++) {
      // Bursts: mostly back-to-back requests, now and then a pause of up to 20 s.
      now += random() < 0.02 ? Math.floor(random() * 20_000) : Math.floor(random() * 30);
      if (store.hitSync([{ key: 'k', limit }], now).admitted) admitted.push(now);
    }
    const perSlot = new Map<number, number>();
    for (const at of admitted) perSlot.set(Math.floor(at / slotMs), (perSlot.get(Math.floor(at / slotMs)) ?? 0) + 1);
    for (const first of perSlot.keys()) {
      let aligned = 0;
      for (let s = first; s < first + slots; s++) aligned += perSlot.get(s) ?? 0;
      expect(aligned).toBeLessThanOrEqual(limit);
    }
    const biggestSlot = Math.max(...perSlot.values());
    for (let i = 0, j = 0; i < admitted.length; i++) {
      while (admitted[j]! <= admitted[i]! - windowMs) j++;
      expect(i - j + 1).toBeLessThanOrEqual(limit + biggestSlot);
    }
    expect(admitted.length).toBeGreaterThan(limit * 10);
  });

  it('computes Retry-After as the moment one more request fits', () => {
    const counts = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5];
    const start = 1_000 * slotMs; // the start of a slot
    expect(describeWindow(counts, start, 5)).toMatchObject({ remaining: 0, retryAfterMs: 61_000, resetAtMs: start + 65_000 });
    expect(describeWindow(counts, start, 6)).toMatchObject({ remaining: 1, retryAfterMs: 0 });
    // Two slots of 4, the older one 2 slots ago: it straddles the window's start 10 slots from
    // now, and must then fade by half.
    const two = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 4];
    expect(describeWindow(two, start, 7).retryAfterMs).toBe(10.5 * slotMs);
  });

  it('keeps memory bounded: 100,000 distinct keys are dropped once their window has passed', () => {
    const store = new MemoryStore();
    const now = Date.UTC(2026, 10, 21, 12);
    for (let i = 0; i < 100_000; i++)
      store.hitSync([{ key: `ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, limit: 10 }], now + (i % 1_000));
    expect(store.size).toBe(100_000);
    store.hitSync([{ key: 'later', limit: 10 }], now + windowMs);
    expect(store.size).toBe(100_001);
    store.hitSync([{ key: 'later', limit: 10 }], now + windowMs + 2 * slotMs);
    expect(store.size).toBe(1);
  });

  it('keeps at most maxKeys keys, dropping the least recently counted', () => {
    const store = new MemoryStore({ maxKeys: 1_000 });
    const now = Date.UTC(2026, 10, 21, 12);
    for (let i = 0; i < 5_000; i++) {
      store.hitSync([{ key: `k${i}`, limit: 10 }], now + i);
      expect(store.size).toBeLessThanOrEqual(1_000);
    }
    expect(store.size).toBeGreaterThanOrEqual(900);
    // The newest keys are the ones kept.
    expect(store.hitSync([{ key: 'k4999', limit: 1 }], now + 5_000).admitted).toBe(false);
  });
});

describe('clientAddressKey', () => {
  it.each([
    ['203.0.113.9', 'ip:203.0.113.9'],
    ['::ffff:203.0.113.9', 'ip:203.0.113.9'],
    ['2001:db8::1', 'ip6:2001:db8:0:0::/64'],
    ['2001:0db8:0001:0002:0003:0004:0005:0006', 'ip6:2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'ip6:fe80:0:0:0::/64'],
    ['::1', 'ip6:0:0:0:0::/64'],
  ])('%s -> %s', (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key);
  });
});

/** A second app on the same database and clock, as a second API process would be. */
async function secondApp(t: TestApp): Promise<FastifyInstance> {
  return buildApp(t.deps, { logger: false });
}

async function redisAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const redisUp = await redisAnswers('127.0.0.1', 6379);
if (!redisUp) {
  console.warn('rate-limit.test.ts: no Redis answers on 127.0.0.1:6379; the shared-limit (Redis store) tests are skipped.');
}

describe.skipIf(!redisUp)('rate limits shared through Redis (127.0.0.1:6379)', () => {
  // A prefix of its own per run, so that parallel test files and runs never share counters.
  const prefix = `opentms-test:${process.pid}-${randomBytes(4).toString('hex')}:`;

  it('two API processes on one Redis enforce one limit', async () => {
    const t = await createTestApp({
      env: {
        REDIS_URL: 'redis://127.0.0.1:6379',
        OPENTMS_REDIS_KEY_PREFIX: prefix,
        OPENTMS_RATE_LIMIT_PER_TOKEN: '5',
        OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '0',
        OPENTMS_RATE_LIMIT_PER_IP: '0',
      },
    });
    const b = await secondApp(t);
    try {
      expect(t.app.rateLimits.store.kind).toBe('redis');
      const { headers } = await signedInUser(t);
      const viaB = await b.inject({ url: '/api2/v1/users', headers });
      expect(viaB.statusCode).toBe(200);
      expect(rateHeaders(viaB)).toMatchObject({ limit: '5', remaining: '4' });
      for (let i = 0; i < 2; i++) expect((await users(t, headers)).statusCode).toBe(200);
      for (let i = 0; i < 2; i++) expect((await b.inject({ url: '/api2/v1/users', headers })).statusCode).toBe(200);
      expectLimited(await users(t, headers));
      const refused = await b.inject({ url: '/api2/v1/users', headers });
      expectLimited(refused);
      expect(refused.headers['retry-after']).toBe('61');

      t.clock.advance(MINUTE + 1_000);
      expect((await b.inject({ url: '/api2/v1/users', headers })).statusCode).toBe(200);
    } finally {
      await b.close();
      await t.close();
    }
  });

  it('shares the per-IP limit of logins too', async () => {
    const t = await createTestApp({
      env: { REDIS_URL: 'redis://127.0.0.1:6379', OPENTMS_REDIS_KEY_PREFIX: prefix, OPENTMS_RATE_LIMIT_PER_IP: '2' },
    });
    const b = await secondApp(t);
    try {
      expect((await badLogin(t, '198.51.100.20')).statusCode).toBe(401);
      const viaB = await b.inject({
        method: 'POST',
        url: '/api2/v3/auth/login',
        remoteAddress: '198.51.100.20',
        payload: { userName: 'x', password: 'y' },
      });
      expect(viaB.statusCode).toBe(401);
      expectLimited(await badLogin(t, '198.51.100.20'));
    } finally {
      await b.close();
      await t.close();
    }
  });
});

describe('when Redis is unreachable', () => {
  it('serves every request (fail open) and warns at most once per 30 s', async () => {
    const { database, drop } = await createTestDatabase();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const clock = testClock();
    const config = loadConfig({
      LOG_LEVEL: 'warn',
      REDIS_URL: 'redis://127.0.0.1:1',
      OPENTMS_RATE_LIMIT_PER_TOKEN: '2',
      OPENTMS_RATE_LIMIT_PER_IP: '1',
    });
    const app = await buildApp(
      { config, database, clock, taskWakeup: createTaskWakeup(), blobs: localBlobStore(join(tmpdir(), 'opentms-rate-limit-blobs')) },
      { logger: { level: 'warn', stream } },
    );
    try {
      const user = await makeUser(database.db, await makeOrganization(database.db));
      const login = await app.inject({
        method: 'POST',
        url: '/api2/v3/auth/login',
        payload: { userName: user.userName, password: 'correct horse battery staple' },
      });
      expect(login.statusCode).toBe(200);
      const headers = apiToken((login.json() as { token: string }).token);
      for (let i = 0; i < 6; i++) {
        const response = await app.inject({ url: '/api2/v1/users', headers });
        expect(response.statusCode).toBe(200);
        expect(response.headers['x-rate-limit-limit']).toBeUndefined();
      }
      const warnings = () => lines.filter((line) => line.includes('Redis is unreachable')).length;
      expect(warnings()).toBe(1);
      clock.advance(31_000);
      expect((await app.inject({ url: '/api2/v1/users', headers })).statusCode).toBe(200);
      expect(warnings()).toBe(2);
    } finally {
      await app.close();
      await drop();
    }
  });
});
