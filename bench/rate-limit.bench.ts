/**
 * Overhead of the rate-limit check per request (docs/rate-limits.md). Prints figures, asserts
 * nothing. Run: `npx tsx bench/rate-limit.bench.ts`.
 *
 * - the memory store's `hitSync` for one key (an anonymous client);
 * - `checkLimits` for two keys (token + organization, what an authenticated request costs),
 *   including the window arithmetic behind the headers;
 * - the same with 100,000 distinct clients in rotation (a spread-out load, keys expiring);
 * - the Redis store's round trip, when a Redis answers on 127.0.0.1:6379.
 */
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { checkLimits } from '../src/http/rate-limit.js';
import { MemoryStore, RedisStore } from '../src/http/rate-limit-store.js';
import type { LimitKey } from '../src/http/rate-limit-store.js';

const start = Date.UTC(2026, 10, 21, 12);

function report(name: string, operations: number, elapsedMs: number): void {
  const perSecond = (operations / elapsedMs) * 1000;
  const nsPerOp = (elapsedMs * 1e6) / operations;
  console.log(
    `${name.padEnd(58)} ${Math.round(perSecond).toLocaleString('en-US').padStart(12)} ops/s  ${nsPerOp.toFixed(0).padStart(7)} ns/op`,
  );
}

function timeSync(name: string, operations: number, run: (i: number) => void): void {
  for (let i = 0; i < Math.min(10_000, operations); i++) run(i); // warm up
  const began = performance.now();
  for (let i = 0; i < operations; i++) run(i);
  report(name, operations, performance.now() - began);
}

async function timeAsync(name: string, operations: number, run: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < Math.min(1_000, operations); i++) await run(i);
  const began = performance.now();
  for (let i = 0; i < operations; i++) await run(i);
  report(name, operations, performance.now() - began);
}

const huge = 1_000_000_000; // never refuses: every operation counts and updates the window

{
  const store = new MemoryStore();
  const keys: LimitKey[] = [{ key: 'ip:203.0.113.9', limit: huge }];
  timeSync('memory hitSync, 1 key, 1 client', 1_000_000, (i) => store.hitSync(keys, start + i));
}
{
  const store = new MemoryStore();
  const keys: LimitKey[] = [
    { key: 't:login:42', limit: huge },
    { key: 'o:7', limit: huge },
  ];
  await timeAsync('checkLimits (memory), 2 keys (token + organization)', 1_000_000, (i) => checkLimits(store, keys, start + i));
}
{
  const store = new MemoryStore();
  const clients = 100_000;
  const keySets: LimitKey[][] = Array.from({ length: clients }, (_, c) => [
    { key: `t:api_token:${c}`, limit: huge },
    { key: `o:${c % 1_000}`, limit: huge },
  ]);
  // 1,000,000 requests over ~17 minutes of simulated time: keys expire and are swept as they go.
  await timeAsync('checkLimits (memory), 2 keys, 100,000 clients in rotation', 1_000_000, (i) =>
    checkLimits(store, keySets[i % clients]!, start + i),
  );
  const heap = process.memoryUsage().heapUsed;
  console.log(
    `  keys held at the end: ${store.size.toLocaleString('en-US')} (those of the last 65 s); heap used ${(heap / 2 ** 20).toFixed(0)} MiB`,
  );
}

const redisUp = await new Promise<boolean>((resolve) => {
  const socket = createConnection({ host: '127.0.0.1', port: 6379 });
  const done = (ok: boolean) => {
    socket.destroy();
    resolve(ok);
  };
  socket.setTimeout(500, () => done(false));
  socket.once('connect', () => done(true));
  socket.once('error', () => done(false));
});
if (redisUp) {
  let failures = 0;
  const store = await RedisStore.open({
    url: 'redis://127.0.0.1:6379',
    keyPrefix: `opentms-bench:${randomBytes(4).toString('hex')}:`,
    onError: () => failures++,
  });
  const keys: LimitKey[] = [
    { key: 't:login:42', limit: huge },
    { key: 'o:7', limit: huge },
  ];
  await timeAsync('checkLimits (Redis on loopback), 2 keys, one at a time', 20_000, (i) => checkLimits(store, keys, start + i));
  // 100 requests in flight at a time, as 100 concurrent clients of one API process would be.
  const began = performance.now();
  const rounds = 200;
  for (let round = 0; round < rounds; round++) {
    await Promise.all(Array.from({ length: 100 }, (_, i) => checkLimits(store, keys, start + 30_000 + round * 100 + i)));
  }
  report('checkLimits (Redis on loopback), 2 keys, 100 in flight', rounds * 100, performance.now() - began);
  console.log(`  Redis calls that failed (served without a limit): ${failures}`);
  await store.close();
} else {
  console.log('Redis store: skipped (no Redis answers on 127.0.0.1:6379)');
}
