/**
 * The pre-translation analysis's figures (issue 15, docs/analysis.md "Performance"), through the
 * real service: `node dist/main.js` (built first when src/ is newer, as bench/api.bench.ts does),
 * on SQLite with the API and the worker in one process as `npm start` runs it, and on PostgreSQL
 * (a database of its own, skipped with a message when the server is not there) with an API
 * process and a worker process, as the README scales it. Prints figures and the targets (`ok` /
 * `MISSED`); asserts nothing; the last line is the figures as JSON.
 *
 * Data (bench/analysis-data.ts; generated at bench time from the machine's gettext catalogs via
 * `../shared/data/catalog-tmx.mjs`, never committed; skipped with a message without them):
 * - a TM en→de of ANALYSIS_BENCH_TM_UNITS units: the de catalogs' distinct English sources with
 *   their German translations, 30 % of them held out, plus variants of the sources up to that
 *   many distinct sources; written as TMX and imported through the API (importTransMemoryV2,
 *   polled until the async request ends);
 * - a project en→de with that TM read-enabled, and jobs of ANALYSIS_BENCH_SEGMENTS segments in
 *   all: the catalogs' English sources in catalog order, language after language, as plain-text
 *   files of at most ANALYSIS_BENCH_FILE_SEGMENTS segments (POST /api2/v1/projects/{uid}/jobs,
 *   waited for until every job is imported). The share of repetitions is printed.
 *
 * Measured, per database:
 * - POST /api2/v2/analyses for all the jobs (separateFuzzyRepetitions and
 *   includeNonTranslatables on, so that every band shows): time from the request to the async
 *   request's end; segments/s; per worker core (see `CORE_NOTE`); the worker process's CPU time
 *   meanwhile (/proc/<pid>/stat); its peak RSS (VmRSS sampled every 100 ms, and VmHWM after a
 *   reset through /proc/<pid>/clear_refs); while the analysis runs, GET
 *   /api2/v1/projects/{uid}/jobs/{jobUid} one at a time (at most ANALYSIS_BENCH_GET_MAX, ~10 ms
 *   apart): p50/p95/p99/max; the analysis's bands.
 * - The same analysis again (POST /api2/v1/analyses/recalculate): the warm index's figures; the
 *   first run includes loading the TM's index (1 M units) in the worker.
 *
 * Run: `npx tsx bench/analysis.bench.ts` (full size: about 1 M units and 300 k segments; expect
 * tens of minutes). A quick run: `ANALYSIS_BENCH_TM_UNITS=20000 ANALYSIS_BENCH_SEGMENTS=10000
 * ANALYSIS_BENCH_DATABASES=sqlite npx tsx bench/analysis.bench.ts`. Environment (all optional):
 *   ANALYSIS_BENCH_TM_UNITS        distinct sources of the TM (default 1000000)
 *   ANALYSIS_BENCH_SEGMENTS        segments of the analysed jobs (default 300000)
 *   ANALYSIS_BENCH_FILE_SEGMENTS   segments of one job file at most (default 25000)
 *   ANALYSIS_BENCH_HELD_OUT        share of the de sources kept out of the TM (default 0.3)
 *   ANALYSIS_BENCH_SEED            seed of the held-out choice and the variants (default 15)
 *   ANALYSIS_BENCH_DATABASES       sqlite, postgres (default both)
 *   ANALYSIS_BENCH_GET_MAX         GET job requests per analysis run at most (default 100000)
 *   ANALYSIS_BENCH_TIMEOUT_MINUTES the whole bench's limit (default 60): past it, everything
 *                                  started is stopped and the bench fails
 *   ANALYSIS_BENCH_PG_ANALYZE=1    on PostgreSQL, run ANALYZE on the bench database after the TM
 *                                  import (off by default: the service is measured as it is; a
 *                                  server with autovacuum off, or one whose autoanalyze has not
 *                                  run yet, has no statistics of the freshly imported 1 M rows,
 *                                  and the TM's unit reads by source hash then scan every row)
 *   ANALYSIS_BENCH_WORKER_NODE_FLAGS  on PostgreSQL, Node's flags for the worker process (space
 *                                  separated, e.g. \`--max-semi-space-size=4\`), to measure a setting
 *   ANALYSIS_BENCH_WORKER_PROFILE_DIR  on PostgreSQL, write V8 CPU profiles of the worker process
 *                                  and of each of its threads there (\`--cpu-prof\`)
 *   BENCH_POSTGRES_URL             PostgreSQL server on which a database opentms_bench_<pid> is
 *                                  created and dropped (default postgres://postgres@127.0.0.1:5432)
 * Everything listens on loopback only; the servers, the temporary files and the database are
 * removed at the end, on failure, on the global timeout and on SIGINT.
 */
import type { ChildProcess } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import {
  ADMIN_PASSWORD,
  call,
  cleanUp,
  createPostgresDatabase,
  ensureBuilt,
  expectStatus,
  listFromEnv,
  numberFromEnv,
  onCleanUp,
  runBenchScript,
  sleep,
  startOpenTms,
  startOpenTmsWorker,
} from './api.bench.js';
import type { DatabaseKind, Server } from './api.bench.js';
import { generateAnalysisData } from './analysis-data.js';
import type { AnalysisData } from './analysis-data.js';
import { catalogsMissing, mark, ms, percentile } from './tm-data.js';

const settings = {
  tmUnits: numberFromEnv('ANALYSIS_BENCH_TM_UNITS', 1_000_000),
  segments: numberFromEnv('ANALYSIS_BENCH_SEGMENTS', 300_000),
  fileSegments: numberFromEnv('ANALYSIS_BENCH_FILE_SEGMENTS', 25_000),
  heldOut: numberFromEnv('ANALYSIS_BENCH_HELD_OUT', 0.3),
  seed: numberFromEnv('ANALYSIS_BENCH_SEED', 15),
  databases: listFromEnv('ANALYSIS_BENCH_DATABASES', ['sqlite', 'postgres']),
  getMax: numberFromEnv('ANALYSIS_BENCH_GET_MAX', 100_000),
  timeoutMinutes: numberFromEnv('ANALYSIS_BENCH_TIMEOUT_MINUTES', 60),
  pgAnalyze: process.env.ANALYSIS_BENCH_PG_ANALYZE === '1',
  workerProfileDir: process.env.ANALYSIS_BENCH_WORKER_PROFILE_DIR || null,
  workerNodeFlags: (process.env.ANALYSIS_BENCH_WORKER_NODE_FLAGS ?? '').split(' ').filter(Boolean),
};

const TARGETS = {
  segmentsPerCoreSecond: 5_000,
  requestSeconds: 60,
  peakRssMb: 500,
  getP99: 50,
};

const RSS_SAMPLE_MS = 100;
const GET_PAUSE_MS = 10;
const POLL_MS = 200;
/** Threads of the worker an analysis keeps busy: the main thread (reads pages, asks the index, writes), the analysis thread, the TM index thread. */
const WORKER_THREADS = 3;
const CORES_USED = Math.min(WORKER_THREADS, availableParallelism());
const CORE_NOTE = `÷ ${CORES_USED}: the worker's main thread, its analysis thread and its TM index thread are ${WORKER_THREADS} threads, on a machine of ${availableParallelism()} CPUs`;

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const mbOf = (bytes: number | null) => (bytes === null ? null : Math.round(bytes / 1e5) / 10);
const seconds = (millis: number) => (millis / 1000).toFixed(1);
const perSecond = (count: number, millis: number) => Math.round(count / (millis / 1000));
const thousands = (value: number) => value.toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------
// /proc: the worker's memory and CPU time
// ---------------------------------------------------------------------------------------------

/** A `kB` field of /proc/<pid>/status in bytes, or null (no /proc, or the process is gone). */
function statusField(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Resets the peak RSS (VmHWM); false when the kernel does not let us. */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** User + system CPU seconds of the process (all its threads), or null. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The API
// ---------------------------------------------------------------------------------------------

interface AsyncOutcome {
  errorCode: string | null;
  errorDesc: string | null;
  acceptedSegmentsCount?: number | null;
}

async function login(server: Server): Promise<string> {
  const answer = expectStatus(
    await call(server.baseUrl, 'POST', '/api2/v3/auth/login', { json: { userName: 'admin', password: ADMIN_PASSWORD } }),
    200,
    'login',
  );
  return String(answer.token);
}

/** Polls the async request until its asyncResponse is there. */
async function finished(server: Server, token: string, id: string, timeoutMs: number): Promise<AsyncOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const request = expectStatus(await call(server.baseUrl, 'GET', `/api2/v1/async/${id}`, { token }), 200, `async request ${id}`);
    const outcome = request.asyncResponse as AsyncOutcome | null;
    if (outcome) return outcome;
    if (Date.now() > deadline) throw new Error(`async request ${id} did not finish within ${timeoutMs / 1000} s`);
    await sleep(POLL_MS);
  }
}

/** Uploads a file as a stream to an import operation; the parsed answer. */
async function upload(
  url: string,
  token: string,
  path: string,
  filename: string,
  extraHeaders: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `ApiToken ${token}`,
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
      ...extraHeaders,
    },
    body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
    duplex: 'half',
    signal: AbortSignal.timeout(timeoutMs),
  } as RequestInit);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the error message shows the text
  }
  return { status: response.status, body };
}

async function importTm(server: Server, token: string, data: AnalysisData): Promise<{ tmUid: string; figures: Record<string, unknown> }> {
  const tm = expectStatus(
    await call(server.baseUrl, 'POST', '/api2/v1/transMemories', {
      token,
      json: { name: 'Analysis bench TM (catalogs + variants)', sourceLang: 'en', targetLangs: ['de'] },
    }),
    201,
    'create the TM',
  );
  const tmUid = String(tm.uid);
  const began = performance.now();
  const timeoutMs = 600_000 + Math.round((data.tmx.bytes / 1e6) * 5000);
  const accepted = await upload(
    `${server.baseUrl}/api2/v2/transMemories/${tmUid}/import`,
    token,
    data.tmx.path,
    'memory.tmx',
    {},
    timeoutMs,
  );
  const body = expectStatus(accepted, 202, 'import of the TM') as { asyncRequest?: { id?: string } };
  const id = body.asyncRequest?.id;
  if (!id) throw new Error(`import of the TM: no asyncRequest.id in ${JSON.stringify(accepted.body).slice(0, 300)}`);
  const outcome = await finished(server, token, id, timeoutMs);
  const importMs = performance.now() - began;
  if (outcome.errorCode !== null) throw new Error(`the import of the TM failed: ${outcome.errorCode} ${outcome.errorDesc ?? ''}`);
  const units = outcome.acceptedSegmentsCount ?? 0;
  console.log(
    `  TM import           ${thousands(units)} units (${mib(data.tmx.bytes)} MiB TMX) in ${seconds(importMs)} s, upload included: ${thousands(perSecond(units, importMs))} units/s`,
  );
  return { tmUid, figures: { units, importMs } };
}

interface JobRow {
  uid: string;
  importStatus: { status: string; errorMessage: string | null };
}

async function createProjectWithJobs(
  server: Server,
  token: string,
  tmUid: string,
  data: AnalysisData,
): Promise<{ projectUid: string; jobUids: string[]; importMs: number }> {
  const project = expectStatus(
    await call(server.baseUrl, 'POST', '/api2/v3/projects', {
      token,
      json: { name: 'Analysis bench', sourceLang: 'en', targetLangs: ['de'] },
    }),
    201,
    'create the project',
  );
  const projectUid = String(project.uid);
  expectStatus(
    await call(server.baseUrl, 'PUT', `/api2/v3/projects/${projectUid}/transMemories`, {
      token,
      json: { dataPerContext: [{ transMemories: [{ transMemory: { uid: tmUid }, readMode: true, writeMode: false }] }] },
    }),
    200,
    'set the project TM',
  );
  const began = performance.now();
  const jobUids: string[] = [];
  for (const file of data.files) {
    const created = expectStatus(
      await upload(
        `${server.baseUrl}/api2/v1/projects/${projectUid}/jobs`,
        token,
        file.path,
        file.name,
        { memsource: JSON.stringify({ targetLangs: ['de'] }) },
        120_000,
      ),
      201,
      `create the job of ${file.name}`,
    ) as { jobs?: Array<{ uid: string }> };
    for (const job of created.jobs ?? []) jobUids.push(job.uid);
  }
  if (jobUids.length !== data.files.length)
    throw new Error(`expected ${data.files.length} jobs from ${data.files.length} files, got ${jobUids.length}`);
  const deadline = Date.now() + 600_000 + data.segments.total * 10;
  for (;;) {
    const rows: JobRow[] = [];
    for (let pageNumber = 0; pageNumber < 100; pageNumber++) {
      const page = expectStatus(
        await call(server.baseUrl, 'GET', `/api2/v2/projects/${projectUid}/jobs?pageNumber=${pageNumber}&pageSize=50`, { token }),
        200,
        'list jobs',
      ) as unknown as { totalElements: number; content: JobRow[] };
      rows.push(...page.content);
      if (rows.length >= page.totalElements || page.content.length === 0) break;
    }
    const failed = rows.find((job) => job.importStatus.status === 'ERROR');
    if (failed) throw new Error(`the import of job ${failed.uid} failed: ${failed.importStatus.errorMessage ?? ''}`);
    if (rows.length >= jobUids.length && rows.every((job) => job.importStatus.status === 'OK')) break;
    if (Date.now() > deadline) throw new Error('the jobs were not imported in time');
    await sleep(500);
  }
  const importMs = performance.now() - began;
  console.log(
    `  jobs                ${jobUids.length} jobs from ${data.files.length} plain-text files (${thousands(data.segments.total)} segments planned) imported in ${seconds(importMs)} s, upload included`,
  );
  return { projectUid, jobUids, importMs };
}

// ---------------------------------------------------------------------------------------------
// One analysis run, measured
// ---------------------------------------------------------------------------------------------

interface Bands {
  segments: number;
  words: number;
  rows: Array<{ name: string; segments: number; words: number }>;
}

interface GetFigures {
  count: number;
  /** From the request to the last GET's answer: the part of the analysis the GETs covered. */
  coveredMs: number;
  errors: string[];
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

interface RunFigures {
  ms: number;
  errorCode: string | null;
  errorDesc: string | null;
  segments: number;
  segmentsPerSecond: number;
  perCore: number;
  cpuSeconds: number | null;
  segmentsPerCpuSecond: number | null;
  sampledRssMb: number | null;
  peakRssMb: number | null;
  rssBeforeMb: number | null;
  gets: GetFigures;
  bands: Bands | null;
}

type Counts = { segments: number; words: number };
type Data = {
  all: Counts;
  repetitions: Counts;
  transMemoryMatches: Record<string, Counts>;
  internalFuzzyMatches: Record<string, Counts>;
  nonTranslatablesMatches: Record<string, Counts>;
  machineTranslationMatches: Record<string, Counts>;
};

function bandsOf(data: Data): Bands {
  const row = (name: string, counts: Counts) => ({ name, segments: counts.segments, words: counts.words });
  const rows: Bands['rows'] = [row('repetitions', data.repetitions)];
  for (const band of ['match101', 'match100', 'match95', 'match85', 'match75', 'match50', 'match0'])
    rows.push(row(`TM ${band.slice(5)}`, data.transMemoryMatches[band]!));
  for (const band of ['match100', 'match95', 'match85', 'match75', 'match50'])
    rows.push(row(`internal fuzzy ${band.slice(5)}`, data.internalFuzzyMatches[band]!));
  rows.push(row('non-translatable', data.nonTranslatablesMatches.match100!));
  return { segments: data.all.segments, words: data.all.words, rows };
}

async function measuredRun(
  label: string,
  server: Server,
  workerPid: number,
  token: string,
  projectUid: string,
  jobUid: string,
  start: () => Promise<{ asyncId: string; analysisUid: string }>,
): Promise<RunFigures> {
  const rssBefore = statusField(workerPid, 'VmRSS');
  const reset = resetPeakRss(workerPid);
  let sampledRss = 0;
  const sampler = setInterval(() => {
    const rss = statusField(workerPid, 'VmRSS');
    if (rss !== null) sampledRss = Math.max(sampledRss, rss);
  }, RSS_SAMPLE_MS);
  onCleanUp('the RSS sampler', () => clearInterval(sampler));

  let running = true;
  const samples: number[] = [];
  const errors: string[] = [];
  let lastAnswer = 0;
  const getLoop = (async () => {
    while (running && samples.length + errors.length < settings.getMax) {
      const began = performance.now();
      try {
        const response = await fetch(`${server.baseUrl}/api2/v1/projects/${projectUid}/jobs/${jobUid}`, {
          headers: { authorization: `ApiToken ${token}` },
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        if (response.status === 200) samples.push(performance.now() - began);
        else errors.push(`HTTP ${response.status}`);
      } catch (error) {
        errors.push(error instanceof Error && error.name === 'TimeoutError' ? 'no answer within 30 s' : String(error));
      }
      lastAnswer = performance.now();
      await sleep(GET_PAUSE_MS);
    }
  })();

  const cpuBefore = cpuSeconds(workerPid);
  const began = performance.now();
  let outcome: AsyncOutcome;
  let analysisUid: string;
  try {
    const started = await start();
    analysisUid = started.analysisUid;
    outcome = await finished(server, token, started.asyncId, settings.timeoutMinutes * 60_000);
  } finally {
    running = false;
    clearInterval(sampler);
  }
  const elapsed = performance.now() - began;
  const cpuAfter = cpuSeconds(workerPid);
  const peak = reset ? statusField(workerPid, 'VmHWM') : null;
  await getLoop;

  let bands: Bands | null = null;
  if (outcome.errorCode === null) {
    const analysis = expectStatus(
      await call(server.baseUrl, 'GET', `/api2/v3/analyses/${analysisUid}`, { token }),
      200,
      'get the analysis',
    ) as { analyseLanguageParts: Array<{ data: Data }> };
    bands = bandsOf(analysis.analyseLanguageParts[0]!.data);
  }
  const segments = bands?.segments ?? 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  const figures: RunFigures = {
    ms: elapsed,
    errorCode: outcome.errorCode,
    errorDesc: outcome.errorDesc,
    segments,
    segmentsPerSecond: perSecond(segments, elapsed),
    perCore: Math.round(perSecond(segments, elapsed) / CORES_USED),
    cpuSeconds: cpu === null ? null : Math.round(cpu * 10) / 10,
    segmentsPerCpuSecond: cpu === null || cpu === 0 ? null : Math.round(segments / cpu),
    sampledRssMb: sampledRss === 0 ? null : mbOf(sampledRss),
    peakRssMb: mbOf(peak),
    rssBeforeMb: mbOf(rssBefore),
    gets: {
      count: samples.length,
      coveredMs: Math.min(elapsed, Math.max(0, lastAnswer - began)),
      errors,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      max: sorted[sorted.length - 1] ?? NaN,
    },
    bands,
  };

  console.log(`\n  ${label}`);
  if (outcome.errorCode !== null) console.log(`  analysis FAILED     ${outcome.errorCode}: ${outcome.errorDesc ?? ''}`);
  console.log(
    `  request → end       ${seconds(elapsed)} s   target < ${TARGETS.requestSeconds} s   ${mark(outcome.errorCode === null && elapsed < TARGETS.requestSeconds * 1000)}`,
  );
  console.log(`  segments/s          ${thousands(figures.segmentsPerSecond)} (${thousands(segments)} segments)`);
  console.log(
    `  per worker core     ${thousands(figures.perCore)} segments/s (${CORE_NOTE})   target ≥ ${thousands(TARGETS.segmentsPerCoreSecond)}   ${mark(figures.perCore >= TARGETS.segmentsPerCoreSecond)}`,
  );
  if (cpu !== null)
    console.log(
      `  worker CPU          ${cpu.toFixed(1)} s of CPU in ${seconds(elapsed)} s (${(cpu / (elapsed / 1000)).toFixed(2)} cores busy on average): ${thousands(figures.segmentsPerCpuSecond ?? 0)} segments per CPU second`,
    );
  console.log(
    `  worker peak RSS     ${figures.peakRssMb ?? '-'} MB (VmHWM${reset ? ', reset before the request' : ' not resettable: not shown'})   highest sampled VmRSS ${figures.sampledRssMb ?? '-'} MB (every ${RSS_SAMPLE_MS} ms; ${figures.rssBeforeMb ?? '-'} MB before)   target < ${TARGETS.peakRssMb} MB   ${mark(Math.max(figures.peakRssMb ?? 0, figures.sampledRssMb ?? Infinity) < TARGETS.peakRssMb)}`,
  );
  const gets = figures.gets;
  console.log(
    `  GET job meanwhile   ${gets.count} requests (one at a time, ${GET_PAUSE_MS} ms apart, over ${seconds(gets.coveredMs)} s of the ${seconds(elapsed)} s)   p50 ${ms(gets.p50)}   p95 ${ms(gets.p95)}   p99 ${ms(gets.p99)}   max ${ms(gets.max)} ms${gets.errors.length ? `   ${gets.errors.length} errors (${gets.errors[0]})` : ''}   p99 target ≤ ${TARGETS.getP99} ms   ${mark(gets.count > 0 && gets.errors.length === 0 && gets.p99 <= TARGETS.getP99)}`,
  );
  if (bands !== null) {
    const line = bands.rows
      .filter((row) => row.segments > 0 || row.name.startsWith('TM') || row.name === 'repetitions')
      .map((row) => `${row.name} ${thousands(row.segments)} (${((row.segments / Math.max(1, bands!.segments)) * 100).toFixed(1)} %)`)
      .join(', ');
    console.log(`  bands (segments)    ${line}; all ${thousands(bands.segments)} segments, ${thousands(bands.words)} words`);
  }
  return figures;
}

async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Whether tm_units has planner statistics, and whether autovacuum (which would make them) is on. */
async function pgStatistics(url: string): Promise<string> {
  return withPg(url, async (client) => {
    const autovacuum = (await client.query<{ autovacuum: string }>('show autovacuum')).rows[0]?.autovacuum;
    const table = (
      await client.query<{ last_analyze: Date | null; last_autoanalyze: Date | null }>(
        "select last_analyze, last_autoanalyze from pg_stat_user_tables where relname = 'tm_units'",
      )
    ).rows[0];
    const analysed = table?.last_analyze ?? table?.last_autoanalyze ?? null;
    return `${analysed === null ? 'none yet (never analysed)' : `analysed at ${analysed.toISOString()}`}; autovacuum ${autovacuum ?? '?'} on the server`;
  });
}

// ---------------------------------------------------------------------------------------------
// One database
// ---------------------------------------------------------------------------------------------

interface DatabaseFigures {
  layout: string;
  tm: Record<string, unknown>;
  jobsImportMs: number;
  first: RunFigures;
  warm: RunFigures;
}

async function benchDatabase(database: DatabaseKind, databaseUrl: string | null, data: AnalysisData): Promise<DatabaseFigures> {
  const env = {
    OPENTMS_UPLOAD_LIMIT_BYTES: String(Math.max(2 * 2 ** 30, data.tmx.bytes * 2)),
    // The planned count is the segmenter's; the import may differ by a few: the limit must not refuse the bench.
    OPENTMS_ANALYSIS_MAX_SEGMENTS: String(Math.max(300_000, Math.ceil(data.segments.total * 1.1))),
  };
  let server: Server;
  let workerPid: number;
  let worker: ChildProcess | null = null;
  let layout: string;
  if (database === 'sqlite') {
    server = await startOpenTms(database, databaseUrl, env);
    workerPid = server.child.pid!;
    layout = `\`node dist/main.js\` (API and worker in one process, pid ${workerPid}): the RSS is the whole service's`;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'opentms-analysis-bench-postgres-'));
    server = await startOpenTms(database, databaseUrl, { ...env, OPENTMS_DATA_DIR: dataDir }, ['--role=api']);
    // One profile per thread (the file names carry the thread id).
    const profileFlags = settings.workerProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.workerProfileDir}`] : [];
    worker = startOpenTmsWorker(database, databaseUrl, dataDir, [...settings.workerNodeFlags, ...profileFlags]);
    workerPid = worker.pid!;
    layout = `\`node dist/main.js --role=api\` (pid ${server.child.pid}) and \`--role=worker\` (pid ${workerPid}): the RSS and CPU are the worker's`;
    // The worker has no HTTP to wait for: give it the API's start time to load and migrate.
    await sleep(3000);
  }
  console.log(`\n${database}: ${layout}`);
  try {
    const token = await login(server);
    const { tmUid, figures: tm } = await importTm(server, token, data);
    if (database === 'postgres' && databaseUrl !== null) {
      const statistics = await pgStatistics(databaseUrl);
      console.log(`  tm_units statistics ${statistics}`);
      if (settings.pgAnalyze) {
        const began = performance.now();
        await withPg(databaseUrl, (client) => client.query('analyze'));
        console.log(`  ANALYZE             run by the bench (ANALYSIS_BENCH_PG_ANALYZE=1) in ${seconds(performance.now() - began)} s`);
      }
    }
    const { projectUid, jobUids, importMs } = await createProjectWithJobs(server, token, tmUid, data);
    if (worker !== null && worker.exitCode !== null) throw new Error(`the worker exited with code ${worker.exitCode}`);
    let analysisId = '';
    const first = await measuredRun(
      'first analysis (POST /api2/v2/analyses; loads the TM index in the worker)',
      server,
      workerPid,
      token,
      projectUid,
      jobUids[0]!,
      async () => {
        const created = expectStatus(
          await call(server.baseUrl, 'POST', '/api2/v2/analyses', {
            token,
            json: {
              jobs: jobUids.map((uid) => ({ uid })),
              name: 'Analysis bench',
              separateFuzzyRepetitions: true,
              includeNonTranslatables: true,
            },
          }),
          200,
          'create the analysis',
        ) as { asyncRequests: Array<{ asyncRequest: { id: string }; analyse: { id: string; uid: string } }> };
        const item = created.asyncRequests[0]!;
        analysisId = item.analyse.id;
        return { asyncId: item.asyncRequest.id, analysisUid: item.analyse.uid };
      },
    );
    let analysisUid = '';
    const warm = await measuredRun(
      'second analysis (POST /api2/v1/analyses/recalculate; the index is loaded)',
      server,
      workerPid,
      token,
      projectUid,
      jobUids[0]!,
      async () => {
        const created = expectStatus(
          await call(server.baseUrl, 'POST', '/api2/v1/analyses/recalculate', { token, json: { analyses: [{ id: analysisId }] } }),
          200,
          'recalculate the analysis',
        ) as { analyses: Array<{ asyncRequest: { id: string }; analyse: { id: string; uid: string } }> };
        const item = created.analyses[0]!;
        analysisUid = item.analyse.uid;
        return { asyncId: item.asyncRequest.id, analysisUid };
      },
    );
    return { layout, tm, jobsImportMs: importMs, first, warm };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function printSummary(byDatabase: Partial<Record<DatabaseKind, DatabaseFigures | string>>, data: AnalysisData): void {
  console.log(
    `\nsummary: ${thousands(data.segments.total)} segments (${((data.segments.repeated / data.segments.total) * 100).toFixed(1)} % repeated texts) against a TM of ${thousands(data.tmx.units)} units; per worker core ${CORE_NOTE}`,
  );
  const header = `  ${'figure'.padEnd(46)}${'target'.padStart(14)}${'first'.padStart(14)}${'warm'.padStart(14)}   verdict (first / warm)`;
  for (const [database, figures] of Object.entries(byDatabase)) {
    console.log(`\n  ${database}`);
    if (typeof figures === 'string') {
      console.log(`  skipped: ${figures}`);
      continue;
    }
    console.log(header);
    const row = (name: string, target: string, a: string, b: string, okA?: boolean, okB?: boolean) =>
      console.log(
        `  ${name.padEnd(46)}${target.padStart(14)}${a.padStart(14)}${b.padStart(14)}${okA === undefined ? '' : `   ${mark(okA)} / ${mark(okB!)}`}`,
      );
    const { first, warm } = figures!;
    const good = (run: RunFigures) => run.errorCode === null;
    row(
      'segments/s per worker core',
      `≥ ${thousands(TARGETS.segmentsPerCoreSecond)}`,
      thousands(first.perCore),
      thousands(warm.perCore),
      good(first) && first.perCore >= TARGETS.segmentsPerCoreSecond,
      good(warm) && warm.perCore >= TARGETS.segmentsPerCoreSecond,
    );
    row('segments/s (whole worker)', '', thousands(first.segmentsPerSecond), thousands(warm.segmentsPerSecond));
    row(
      'the whole request (s)',
      `< ${TARGETS.requestSeconds}`,
      seconds(first.ms),
      seconds(warm.ms),
      good(first) && first.ms < TARGETS.requestSeconds * 1000,
      good(warm) && warm.ms < TARGETS.requestSeconds * 1000,
    );
    const rss = (run: RunFigures) => Math.max(run.peakRssMb ?? 0, run.sampledRssMb ?? 0);
    row(
      'peak RSS of the worker (MB)',
      `< ${TARGETS.peakRssMb}`,
      String(rss(first)),
      String(rss(warm)),
      rss(first) > 0 && rss(first) < TARGETS.peakRssMb,
      rss(warm) > 0 && rss(warm) < TARGETS.peakRssMb,
    );
    const p99ok = (run: RunFigures) => run.gets.count > 0 && run.gets.errors.length === 0 && run.gets.p99 <= TARGETS.getP99;
    row('GET job p99 during the analysis (ms)', `≤ ${TARGETS.getP99}`, ms(first.gets.p99), ms(warm.gets.p99), p99ok(first), p99ok(warm));
    console.log(
      `  (ratio warm / first: time ${(warm.ms / first.ms).toFixed(2)}; the first includes loading the TM's index into the worker's index thread)`,
    );
  }
  console.log(
    `\ncommands: full size \`npx tsx bench/analysis.bench.ts\`; this run \`ANALYSIS_BENCH_TM_UNITS=${settings.tmUnits} ANALYSIS_BENCH_SEGMENTS=${settings.segments} ANALYSIS_BENCH_DATABASES=${settings.databases.join(',')}${settings.pgAnalyze ? ' ANALYSIS_BENCH_PG_ANALYZE=1' : ''} npx tsx bench/analysis.bench.ts\``,
  );
}

/** Builds dist/ when src/ is newer; another agent may be mid-edit, so a failing build is tried again. */
async function buildWithRetries(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureBuilt();
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
      console.log(`build failed (attempt ${attempt}; src/ may be mid-edit): trying again in 30 s`);
      await sleep(30_000);
    }
  }
}

async function main(): Promise<void> {
  for (const database of settings.databases) {
    if (database !== 'sqlite' && database !== 'postgres')
      throw new Error(`ANALYSIS_BENCH_DATABASES: unknown database "${database}" (use sqlite, postgres)`);
  }
  const timer = setTimeout(() => {
    console.error(`\nANALYSIS_BENCH_TIMEOUT_MINUTES=${settings.timeoutMinutes} reached: stopping everything`);
    void cleanUp().finally(() => process.exit(1));
  }, settings.timeoutMinutes * 60_000);
  onCleanUp('the global timeout', () => clearTimeout(timer));

  const load = loadavg().map((value) => Math.round(value * 100) / 100);
  console.log(
    `analysis bench: ${availableParallelism()} CPUs, load average ${load.join(' ')} (other work on the machine makes the figures noisy)`,
  );
  const missing = catalogsMissing();
  if (missing !== null) {
    console.log(`analysis bench: skipped, ${missing}`);
    return;
  }
  await buildWithRetries();

  const data = await generateAnalysisData(settings);
  if (typeof data === 'string') {
    console.log(`analysis bench: skipped, ${data}`);
    return;
  }
  const s = data.segments;
  console.log(
    `TM: ${data.tmx.path}: ${mib(data.tmx.bytes)} MiB, ${thousands(data.tmx.units)} units en→de (${thousands(data.tmx.real)} catalog pairs, ${thousands(data.tmx.variants)} variants; ${thousands(data.tmx.heldOut)} distinct de sources held out), written in ${seconds(data.tmx.generationMs)} s`,
  );
  console.log(
    `jobs: ${data.files.length} plain-text files, ${thousands(s.total)} segments from the English sources of the ${s.languages.join(', ')} catalogs in catalog order${s.cycled ? ' (the catalogs taken more than once)' : ''}, written in ${seconds(s.generationMs)} s`,
  );
  console.log(
    `      ${thousands(s.distinct)} distinct texts, ${thousands(s.repeated)} repeated (${((s.repeated / s.total) * 100).toFixed(1)} % of the segments); of the distinct: ${thousands(s.distinctInTm)} a TM source as is, ${thousands(s.distinctHeldOut)} held out, ${thousands(s.distinctElsewhere)} in no TM unit (a sentence of a longer message, or not in the de catalogs)`,
  );

  const byDatabase: Partial<Record<DatabaseKind, DatabaseFigures | string>> = {};
  for (const database of settings.databases as DatabaseKind[]) {
    const databaseUrl = database === 'postgres' ? await createPostgresDatabase() : null;
    if (database === 'postgres' && databaseUrl === null) {
      byDatabase[database] = 'PostgreSQL is not reachable';
      continue;
    }
    byDatabase[database] = await benchDatabase(database, databaseUrl, data);
  }
  printSummary(byDatabase, data);
  console.log(
    `\nload average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')} at the end`,
  );
  console.log(
    `\n${JSON.stringify({ bench: 'analysis', settings, cpus: availableParallelism(), data: { tmx: { ...data.tmx, path: undefined }, segments: data.segments, files: data.files.length }, results: byDatabase })}`,
  );
}

await runBenchScript(main);
