/**
 * Load (docs/performance.md, "Load"; issue 13): two hundred connections for 60 seconds over
 * loopback against `GET` job, with the rate limits ON (set high enough for the load through the
 * OPENTMS_RATE_LIMIT_* settings), must give zero errors and zero time-outs. The real service runs
 * as a user starts it (`node dist/main.js`, API and worker in one process) on SQLite, then on
 * PostgreSQL, seeded through its API by bench/api.bench.ts's helpers. Prints req/s, p50, p99,
 * errors, time-outs and non-2xx answers (a 429 would be one) per database; asserts nothing, and
 * stops by itself (autocannon's duration, then the server is stopped).
 *
 * Run: `npx tsx bench/load.bench.ts`. Environment (all optional):
 *   BENCH_DATABASES        sqlite, postgres (default both)
 *   BENCH_LOAD_CONNECTIONS connections (default 200)
 *   BENCH_LOAD_SECONDS     seconds of load (default 60)
 *   BENCH_POSTGRES_URL     as for bench/api.bench.ts
 */
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import {
  createPostgresDatabase,
  listFromEnv,
  numberFromEnv,
  runBenchScript,
  ensureBuilt,
  openTmsTargets,
  seed,
  sleep,
  startOpenTms,
  verifyTarget,
} from './api.bench.js';
import type { DatabaseKind, Target } from './api.bench.js';

const connections = numberFromEnv('BENCH_LOAD_CONNECTIONS', 200);
const seconds = numberFromEnv('BENCH_LOAD_SECONDS', 60);
const databases = listFromEnv('BENCH_DATABASES', ['sqlite', 'postgres']) as DatabaseKind[];

/**
 * The rate limits of the run: ON, with the per-minute budgets above what the run can spend (a
 * 2-core machine answers a few thousand `GET` job a second, so about 200,000 a minute).
 */
const RATE_LIMITS = {
  OPENTMS_RATE_LIMIT_PER_TOKEN: '10000000',
  OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '10000000',
  OPENTMS_RATE_LIMIT_PER_IP: '600',
};

interface LoadResult {
  database: DatabaseKind;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

/** The target answers 200 with the right job, and carries the rate-limit headers (the limits are on). */
async function verifyLimitsOn(target: Target): Promise<void> {
  await verifyTarget(target);
  const response = await fetch(target.url, { headers: target.headers, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  const limit = response.headers.get('x-rate-limit-limit');
  if (limit !== RATE_LIMITS.OPENTMS_RATE_LIMIT_PER_TOKEN)
    throw new Error(`the rate limits are not on as configured: X-Rate-Limit-Limit is ${limit ?? 'absent'}`);
}

async function loadDatabase(database: DatabaseKind): Promise<LoadResult | null> {
  console.log(`\n=== ${database} ===`);
  const databaseUrl = database === 'postgres' ? await createPostgresDatabase() : null;
  if (database === 'postgres' && !databaseUrl) return null;
  const server = await startOpenTms(database, databaseUrl, RATE_LIMITS);
  const seeded = await seed(server);
  const target = openTmsTargets(server, seeded).find((t) => t.name === 'getJob')!;
  await verifyLimitsOn(target);
  console.log(`  ${target.label}: ${connections} connections for ${seconds} s (load average ${loadAverage()})`);
  // autocannon stops by itself after `duration`; a request unanswered for 10 s counts as a time-out.
  const result = await autocannon({ url: target.url, headers: target.headers, connections, duration: seconds, timeout: 10, pipelining: 1 });
  // Let the requests autocannon walked away from finish before the server stops.
  await sleep(2_000);
  await server.stop();
  return {
    database,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

function printTable(results: LoadResult[]): void {
  const header = ['database', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'timeouts', 'non-2xx', 'verdict'];
  const rows = results.map((r) => [
    r.database,
    r.requests.toLocaleString('en-US'),
    Math.round(r.requestsPerSecond).toLocaleString('en-US'),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    r.max.toFixed(0),
    String(r.errors),
    String(r.timeouts),
    String(r.non2xx),
    r.errors === 0 && r.timeouts === 0 && r.non2xx === 0 ? 'met' : 'NOT met',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\nGET job, ${connections} connections, ${seconds} s, rate limits on (${new Date().toISOString()})`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('(target: zero errors, zero time-outs, and no 429 or other non-2xx answer)');
}

async function main(): Promise<void> {
  for (const database of databases) {
    if (database !== 'sqlite' && database !== 'postgres') throw new Error(`BENCH_DATABASES: unknown database "${database}"`);
  }
  console.log(
    `Load benchmark: GET job, ${connections} connections, ${seconds} s per database (${databases.join(', ')}); ` +
      `${availableParallelism()} cores, load average ${loadAverage()} before the run`,
  );
  await ensureBuilt();
  const results: LoadResult[] = [];
  for (const database of databases) {
    const result = await loadDatabase(database);
    if (result) results.push(result);
  }
  printTable(results);
  console.log(`\nload average ${loadAverage()} at the end`);
}

await runBenchScript(main);
