/**
 * Heavy work beside requests (docs/performance.md, "Heavy work beside requests"; issue 13): the
 * real service (`node dist/main.js`, API and worker in one process, as `npm start` runs it) is
 * seeded through its API (bench/api.bench.ts), then autocannon loads `GET` job while a hostile
 * 10 MB XLIFF is imported, generated here:
 *
 * - `units`: 100,000 small trans-units;
 * - `tags`:  trans-units of 40,000 inline tags each (`<x/>` between one-letter words), 10 MB in all.
 *
 * Prints, per file, the p50/p99/max of the `GET` during the import and the import's duration
 * (upload answered -> importStatus no longer RUNNING), and, for comparison, the same load with no
 * import running. Asserts nothing.
 *
 * Run: `npx tsx bench/import-responsiveness.bench.ts`. Environment (all optional):
 *   BENCH_DATABASES    sqlite, postgres (default sqlite)
 *   BENCH_FILES        units, tags (default both)
 *   BENCH_CONNECTIONS  autocannon connections on `GET` job (default 10)
 *   BENCH_SECONDS      seconds of the baseline load with no import (default 10)
 *   BENCH_IMPORT_TIMEOUT_SECONDS  how long an import may take before the bench gives up (default 600)
 */
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import {
  call,
  createPostgresDatabase,
  ensureBuilt,
  expectStatus,
  listFromEnv,
  numberFromEnv,
  openTmsTargets,
  runBenchScript,
  seed,
  sleep,
  startOpenTms,
  verifyTarget,
} from './api.bench.js';
import type { DatabaseKind, Seeded, Server, Target } from './api.bench.js';

const TEN_MB = 10 * 1024 * 1024;

const databases = listFromEnv('BENCH_DATABASES', ['sqlite']) as DatabaseKind[];
const files = listFromEnv('BENCH_FILES', ['units', 'tags']);
const connections = numberFromEnv('BENCH_CONNECTIONS', 10);
const baselineSeconds = numberFromEnv('BENCH_SECONDS', 10);
const importTimeoutMs = numberFromEnv('BENCH_IMPORT_TIMEOUT_SECONDS', 600) * 1000;

// ---------------------------------------------------------------------------------------------
// Hostile files
// ---------------------------------------------------------------------------------------------

const XLIFF_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n' +
  '<file original="hostile" source-language="en" target-language="de" datatype="plaintext"><body>\n';
const XLIFF_TAIL = '</body></file></xliff>\n';

/** Trans-units from `unit(i)` until the file reaches about `bytes`. */
function xliffOf(bytes: number, unit: (i: number) => string): Buffer {
  const parts = [XLIFF_HEAD];
  let size = XLIFF_HEAD.length + XLIFF_TAIL.length;
  for (let i = 0; size < bytes; i++) {
    const text = unit(i);
    parts.push(text);
    size += text.length;
  }
  parts.push(XLIFF_TAIL);
  return Buffer.from(parts.join(''), 'utf8');
}

const HOSTILE: Record<string, { label: string; make: () => Buffer }> = {
  units: {
    label: '100,000 small units',
    make: () => {
      // About 105 bytes per unit: 100,000 units make 10 MB.
      const units: string[] = [];
      for (let i = 0; i < 100_000; i++)
        units.push(`<trans-unit id="u${i}"><source>Unit ${i} says hello to the world. Fine?</source></trans-unit>\n`);
      return Buffer.from(XLIFF_HEAD + units.join('').padEnd(TEN_MB - XLIFF_HEAD.length - XLIFF_TAIL.length, ' ') + XLIFF_TAIL, 'utf8');
    },
  },
  tags: {
    label: '40,000 inline tags per unit',
    make: () =>
      xliffOf(TEN_MB, (i) => {
        const pieces: string[] = [];
        for (let tag = 1; tag <= 40_000; tag++) pieces.push(`<x id="${tag}"/>w`);
        return `<trans-unit id="t${i}"><source>${pieces.join('')}</source></trans-unit>\n`;
      }),
  },
};

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

interface Latency {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

function latencyOf(result: autocannon.Result): Latency {
  return {
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/** GET job for `seconds` with nothing else running. */
async function baseline(target: Target): Promise<Latency> {
  const result = await autocannon({ url: target.url, headers: target.headers, connections, duration: baselineSeconds, timeout: 10 });
  return latencyOf(result);
}

/** Uploads `bytes` as a new job and loads GET job until its import is no longer RUNNING. */
async function duringImport(
  server: Server,
  seeded: Seeded,
  target: Target,
  filename: string,
  bytes: Buffer,
): Promise<{ latency: Latency; importMs: number; status: string; message: string | null }> {
  // autocannon runs until stopped (the duration is only a ceiling).
  let instance!: autocannon.Instance;
  const loading = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      { url: target.url, headers: target.headers, connections, duration: importTimeoutMs / 1000, timeout: 10 },
      (error, result) => (error ? reject(error as Error) : resolve(result)),
    );
  });
  await sleep(500);
  const created = expectStatus(
    await call(server.baseUrl, 'POST', `/api2/v1/projects/${seeded.projectUid}/jobs`, {
      token: seeded.token,
      body: bytes,
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${filename}`,
        memsource: JSON.stringify({ targetLangs: ['de'] }),
      },
    }),
    201,
    `upload ${filename}`,
  ) as { jobs: Array<{ uid: string }> };
  const began = performance.now();
  const jobUid = created.jobs[0]!.uid;
  let status = 'RUNNING';
  let message: string | null = null;
  while (performance.now() - began < importTimeoutMs) {
    const job = expectStatus(
      await call(server.baseUrl, 'GET', `/api2/v1/projects/${seeded.projectUid}/jobs/${jobUid}`, { token: seeded.token }),
      200,
      'get the imported job',
    ) as { importStatus: { status: string; errorMessage: string | null } };
    if (job.importStatus.status !== 'RUNNING') {
      status = job.importStatus.status;
      message = job.importStatus.errorMessage;
      break;
    }
    await sleep(100);
  }
  const importMs = performance.now() - began;
  instance.stop();
  const result = await loading;
  return { latency: latencyOf(result), importMs, status, message };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

interface Row {
  database: DatabaseKind;
  what: string;
  latency: Latency;
  importMs: number | null;
  outcome: string;
}

async function benchDatabase(database: DatabaseKind, made: Map<string, Buffer>): Promise<Row[]> {
  console.log(`\n=== ${database} ===`);
  const databaseUrl = database === 'postgres' ? await createPostgresDatabase() : null;
  if (database === 'postgres' && !databaseUrl) return [];
  const server = await startOpenTms(database, databaseUrl);
  const seeded = await seed(server);
  const target = openTmsTargets(server, seeded).find((t) => t.name === 'getJob')!;
  await verifyTarget(target);
  const rows: Row[] = [];

  const quiet = await baseline(target);
  console.log(`  GET job, no import: p99 ${quiet.p99} ms`);
  rows.push({ database, what: 'no import', latency: quiet, importMs: null, outcome: '—' });
  for (const name of files) {
    const bytes = made.get(name)!;
    const measured = await duringImport(server, seeded, target, `hostile-${name}.xlf`, bytes);
    const outcome = measured.status === 'ERROR' ? `ERROR: ${(measured.message ?? '').slice(0, 80)}` : measured.status;
    console.log(
      `  GET job during ${HOSTILE[name]!.label}: p99 ${measured.latency.p99} ms; import ${(measured.importMs / 1000).toFixed(1)} s, ${outcome}`,
    );
    rows.push({ database, what: HOSTILE[name]!.label, latency: measured.latency, importMs: measured.importMs, outcome });
  }
  await sleep(1_000);
  await server.stop();
  return rows;
}

async function main(): Promise<void> {
  for (const name of files)
    if (!HOSTILE[name]) throw new Error(`BENCH_FILES: unknown file "${name}" (use ${Object.keys(HOSTILE).join(', ')})`);
  console.log(`GET job with ${connections} connections beside hostile imports; ${availableParallelism()} cores`);
  const made = new Map<string, Buffer>();
  for (const name of files) {
    const bytes = HOSTILE[name]!.make();
    made.set(name, bytes);
    console.log(`file ${name}: ${HOSTILE[name]!.label}, ${(bytes.length / 2 ** 20).toFixed(1)} MiB`);
  }
  await ensureBuilt();
  const rows: Row[] = [];
  for (const database of databases) rows.push(...(await benchDatabase(database, made)));

  console.log(`\n| database | GET job while | requests | p50 ms | p99 ms | max ms | errors + time-outs | import s | import |`);
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
  for (const row of rows) {
    const l = row.latency;
    console.log(
      `| ${row.database} | ${row.what} | ${l.requests} | ${l.p50} | **${l.p99}** | ${l.max} | ${l.errors + l.timeouts} | ${
        row.importMs === null ? '—' : (row.importMs / 1000).toFixed(1)
      } | ${row.outcome} |`,
    );
  }
  console.log('\ntarget (issue 13): p99 of the GET under 100 ms while a hostile 10 MB import runs');
}

await runBenchScript(main);
