/**
 * The HTTP request path's figures (docs/performance.md). The real service runs as a user starts
 * it (`node dist/main.js` in a child process, on SQLite in a fresh data folder, then on
 * PostgreSQL in a fresh database), is seeded through its API (a project with more than 50 jobs),
 * and autocannon loads a few read operations over loopback next to a bare Fastify route, the
 * ceiling of this machine. Prints figures and the issue's targets; asserts nothing.
 *
 * Run: `npx tsx bench/api.bench.ts`. Environment (all optional):
 *   BENCH_SECONDS         measured seconds per run (default 10)
 *   BENCH_WARMUP_SECONDS  warm-up seconds before each measured run (default 2)
 *   BENCH_CONNECTIONS     connection counts, comma-separated (default 50,200; 50 with BENCH_CPU_PROF)
 *   BENCH_DATABASES       which databases, comma-separated: sqlite, postgres (default both)
 *   BENCH_POSTGRES_URL    server on which a database opentms_bench_<pid> is created and dropped
 *                         (default postgres://postgres@127.0.0.1:5432)
 *   BENCH_CPU_PROF=<dir>  profile mode: the server runs with --cpu-prof, only one operation is loaded
 *                         (GET job, or BENCH_PROFILE_TARGET: getJob, listJobs, getProject), and
 *                         <dir>/opentms-<database>.cpuprofile (+ .window.json, the measured
 *                         window) is left for `npx tsx bench/profile-summary.ts`.
 *
 * The server, the bare route, autocannon (and PostgreSQL) share the machine: on a 2-core machine
 * autocannon takes a good part of one core, so the figures are a floor, comparable between runs on
 * one machine. The table shows how much CPU the server, autocannon and the rest of the machine
 * used during each measured run (Linux), which tells a busy server from one that waits.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
export const ADMIN_PASSWORD = 'bench-admin-password';

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

export type DatabaseKind = 'sqlite' | 'postgres';
type TargetName = 'bare' | 'getJob' | 'listJobs' | 'getProject';

/** A positive number from the environment, or `fallback` when unset. */
export function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/** A comma-separated list from the environment, or `fallback` when unset. */
export function listFromEnv(name: string, fallback: string[]): string[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

const profileDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
const settings = {
  seconds: numberFromEnv('BENCH_SECONDS', 10),
  warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 2),
  connections: listFromEnv('BENCH_CONNECTIONS', profileDir ? ['50'] : ['50', '200']).map(Number),
  databases: listFromEnv('BENCH_DATABASES', ['sqlite', 'postgres']) as DatabaseKind[],
  postgresUrl: process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432',
  profileDir,
};
for (const database of settings.databases) {
  if (database !== 'sqlite' && database !== 'postgres')
    throw new Error(`BENCH_DATABASES: unknown database "${database}" (use sqlite, postgres)`);
}
if (settings.connections.some((c) => !Number.isInteger(c) || c < 1))
  throw new Error('BENCH_CONNECTIONS must list whole numbers of connections');

/** The seeded project: 12 target languages x 6 uploaded files = 72 jobs, more than one page of 50. */
const SEED = {
  targetLangs: ['de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da', 'fi', 'cs', 'ja'],
  files: 6,
  importTimeoutMs: 60_000,
};
const EXPECTED_JOBS = SEED.targetLangs.length * SEED.files;

// ---------------------------------------------------------------------------------------------
// Clean-up: everything started registers how to undo it; run in reverse order, even on failure.
// ---------------------------------------------------------------------------------------------

const cleanups: Array<{ what: string; run: () => Promise<void> | void }> = [];

export function onCleanUp(what: string, run: () => Promise<void> | void): void {
  cleanups.push({ what, run });
}

let cleaningUp: Promise<void> | null = null;

/**
 * Runs the clean-ups. A second call while one runs (SIGINT's, and the failing main's) waits for
 * the same run, so that neither exits while the other still drops a database.
 */
export function cleanUp(): Promise<void> {
  cleaningUp ??= (async () => {
    while (cleanups.length) {
      const { what, run } = cleanups.pop()!;
      try {
        await run();
      } catch (error) {
        console.error(`clean-up of ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })().finally(() => (cleaningUp = null));
  return cleaningUp;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// ---------------------------------------------------------------------------------------------
// Build: the service is measured as `node dist/main.js`, so dist/ must match src/.
// ---------------------------------------------------------------------------------------------

/** The newest modification time under `folder` (files and folders, so that a deletion counts too). */
function newestMtime(folder: string): { mtimeMs: number; path: string } {
  let newest = { mtimeMs: statSync(folder).mtimeMs, path: folder };
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    const candidate = entry.isDirectory() ? newestMtime(path) : { mtimeMs: statSync(path).mtimeMs, path };
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
}

export async function ensureBuilt(): Promise<void> {
  const main = join(ROOT, 'dist', 'main.js');
  const newest = newestMtime(join(ROOT, 'src'));
  if (existsSync(main) && statSync(main).mtimeMs >= newest.mtimeMs) {
    console.log('build: dist/main.js is newer than every file in src/, not rebuilt');
    return;
  }
  const reason = existsSync(main) ? `${relative(ROOT, newest.path)} is newer than dist/main.js` : 'dist/main.js is missing';
  const began = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const code = await withTimeout(new Promise<number | null>((done) => child.on('exit', done)), 300_000, 'the build');
  if (code !== 0) throw new Error(`the build (tsc -p tsconfig.build.json) failed with exit code ${code}`);
  console.log(`build: ${reason}; ran tsc -p tsconfig.build.json (${((performance.now() - began) / 1000).toFixed(1)} s)`);
}

// ---------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------

export interface Server {
  readonly name: string;
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly exited: Promise<number | null>;
  /** Sends SIGTERM (SIGKILL after `graceMs`) and waits for the exit. */
  stop(graceMs?: number): Promise<void>;
}

/** A port nobody listens on right now (main.ts does not log its port below LOG_LEVEL=info). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * The environment of a server child: the caller's, without the service's own settings (a
 * DATABASE_URL in the shell must not turn the SQLite run into a PostgreSQL one) and without
 * NODE_OPTIONS (loaders of the bench's own runner do not belong in the measured process).
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('OPENTMS_') || ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'LOG_LEVEL', 'NODE_OPTIONS'].includes(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Echoes a child's output with its name, up to a limit, so that a failing server explains itself. */
function echoOutput(name: string, child: ChildProcess): void {
  let lines = 0;
  const MAX_LINES = 20;
  const echo = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines++;
      if (lines <= MAX_LINES) console.log(`  [${name}] ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`);
      else if (lines === MAX_LINES + 1) console.log(`  [${name}] (further output suppressed)`);
    }
  };
  child.stdout?.on('data', echo);
  child.stderr?.on('data', echo);
}

/** Polls `url` until it answers 200; fails when the child exits or after `timeoutMs`. */
async function waitUntilAnswering(url: string, server: { name: string; child: ChildProcess }, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited with code ${server.child.exitCode} before answering`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${server.name} did not answer ${url} within ${timeoutMs / 1000} s`);
}

async function startServer(name: string, args: string[], env: Record<string, string>, readyPath: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: childEnv({ ...env, PORT: String(port), HOST }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  echoOutput(name, child);
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    try {
      await withTimeout(exited, graceMs, `stopping ${name}`);
    } catch {
      child.kill('SIGKILL');
      await withTimeout(exited, 5_000, `killing ${name}`);
    }
  };
  onCleanUp(name, () => stop());
  const server: Server = { name, child, baseUrl: `http://${HOST}:${port}`, exited, stop };
  await waitUntilAnswering(`${server.baseUrl}${readyPath}`, server);
  return server;
}

/** A Fastify 5 server with one route answering a small JSON object: the ceiling of this machine. */
const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world', answer: 42 }));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST });
`;

function startBareServer(): Promise<Server> {
  // Evaluated from the project folder, so that `fastify` resolves to the service's own copy.
  return startServer('bare fastify', ['--input-type=module', '-e', BARE_SERVER], {}, '/');
}

/**
 * Starts `node dist/main.js` (both roles, or those of `args`, e.g. `--role=api`) in a fresh data
 * folder, or in `extraEnv.OPENTMS_DATA_DIR` when given (a worker started beside it shares it).
 */
export function startOpenTms(
  database: DatabaseKind,
  databaseUrl: string | null,
  extraEnv: Record<string, string> = {},
  args: string[] = [],
): Promise<Server> {
  const dataDir = extraEnv.OPENTMS_DATA_DIR ?? mkdtempSync(join(tmpdir(), `opentms-bench-${database}-`));
  onCleanUp(`temporary folder ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
  const profileFlags = settings.profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`, `--cpu-prof-name=${profileName(database)}`]
    : [];
  const env: Record<string, string> = {
    OPENTMS_DATA_DIR: dataDir,
    OPENTMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    // The limits would refuse a benchmark's load; their own cost is in bench/rate-limit.bench.ts.
    OPENTMS_RATE_LIMIT_PER_TOKEN: '0',
    OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '0',
    OPENTMS_RATE_LIMIT_PER_IP: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extraEnv,
  };
  return startServer(
    `opentms ${database}${args.length ? ` ${args.join(' ')}` : ''}`,
    [...profileFlags, 'dist/main.js', ...args],
    env,
    '/health',
  );
}

/**
 * Starts `node dist/main.js --role=worker` (no HTTP) over the database and data folder of a server
 * started with `--role=api`; returns the child, stopped (SIGTERM) at clean-up.
 */
export function startOpenTmsWorker(
  database: DatabaseKind,
  databaseUrl: string | null,
  dataDir: string,
  nodeFlags: string[] = [],
): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, 'dist/main.js', '--role=worker'], {
    cwd: ROOT,
    env: childEnv({
      OPENTMS_DATA_DIR: dataDir,
      OPENTMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  echoOutput(`opentms ${database} worker`, child);
  onCleanUp(`opentms ${database} worker`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    try {
      await withTimeout(exited, 10_000, 'stopping the worker');
    } catch {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return child;
}

const profileName = (database: DatabaseKind) => `opentms-${database}.cpuprofile`;

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a database of its own, dropped at the end
// ---------------------------------------------------------------------------------------------

function postgresUrl(database: string): string {
  const url = new URL(settings.postgresUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withPostgres<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl('postgres'), connectionTimeoutMillis: 5_000, query_timeout: 30_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates `opentms_bench_<pid>` and returns its URL, or null (after saying why) when PostgreSQL is not there. */
export async function createPostgresDatabase(): Promise<string | null> {
  const name = `opentms_bench_${process.pid}`;
  try {
    await withPostgres((client) => client.query(`create database ${name}`));
  } catch (error) {
    console.log(
      `skipped PostgreSQL: cannot create a database on ${settings.postgresUrl}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
  // `with (force)` ends connections a killed server may have left behind.
  onCleanUp(`PostgreSQL database ${name}`, () =>
    withPostgres((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  );
  return postgresUrl(name);
}

// ---------------------------------------------------------------------------------------------
// Seeding through the API, as a client would
// ---------------------------------------------------------------------------------------------

interface ApiAnswer {
  status: number;
  body: unknown;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `ApiToken ${options.token}`;
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: response.status, body: parsed };
}

export function expectStatus(answer: ApiAnswer, status: number, what: string): Record<string, unknown> {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer.body as Record<string, unknown>;
}

export interface Seeded {
  token: string;
  projectUid: string;
  jobUid: string;
}

interface JobPage {
  totalElements: number;
  content: Array<{ uid: string; importStatus: { status: string; errorMessage: string | null } }>;
}

/** The jobs of the project, all pages. */
async function listAllJobs(baseUrl: string, token: string, projectUid: string): Promise<JobPage['content']> {
  const jobs: JobPage['content'] = [];
  for (let pageNumber = 0; pageNumber < 100; pageNumber++) {
    const page = expectStatus(
      await call(baseUrl, 'GET', `/api2/v2/projects/${projectUid}/jobs?pageNumber=${pageNumber}&pageSize=50`, { token }),
      200,
      'list jobs',
    ) as unknown as JobPage;
    jobs.push(...page.content);
    if (jobs.length >= page.totalElements || page.content.length === 0) break;
  }
  return jobs;
}

/** Logs in as the admin, creates a project and uploads files until it has EXPECTED_JOBS imported jobs. */
export async function seed(server: Server): Promise<Seeded> {
  const began = performance.now();
  const login = expectStatus(
    await call(server.baseUrl, 'POST', '/api2/v3/auth/login', { json: { userName: 'admin', password: ADMIN_PASSWORD } }),
    200,
    'login',
  );
  const token = String(login.token);
  const project = expectStatus(
    await call(server.baseUrl, 'POST', '/api2/v3/projects', {
      token,
      json: { name: 'API benchmark', sourceLang: 'en', targetLangs: SEED.targetLangs },
    }),
    201,
    'create project',
  );
  const projectUid = String(project.uid);

  // One job per target language per file (the project has no workflow steps): the import runs in
  // the worker, which `node dist/main.js` starts beside the API.
  for (let file = 1; file <= SEED.files; file++) {
    const text = Array.from({ length: 20 }, (_, line) => `Sentence ${line + 1} of benchmark file ${file}. It has a second sentence.`).join(
      '\n',
    );
    expectStatus(
      await call(server.baseUrl, 'POST', `/api2/v1/projects/${projectUid}/jobs`, {
        token,
        body: Buffer.from(text, 'utf8'),
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename*=UTF-8''bench-${file}.txt`,
          memsource: JSON.stringify({ targetLangs: SEED.targetLangs }),
        },
      }),
      201,
      `create jobs from file ${file}`,
    );
  }

  const deadline = Date.now() + SEED.importTimeoutMs;
  for (;;) {
    const jobs = await listAllJobs(server.baseUrl, token, projectUid);
    const failed = jobs.find((job) => job.importStatus.status === 'ERROR');
    if (failed) throw new Error(`the import of job ${failed.uid} failed: ${failed.importStatus.errorMessage ?? ''}`);
    const imported = jobs.filter((job) => job.importStatus.status === 'OK').length;
    if (jobs.length >= EXPECTED_JOBS && imported === jobs.length) {
      console.log(`seeded through the API: 1 project, ${jobs.length} jobs imported (${((performance.now() - began) / 1000).toFixed(1)} s)`);
      return { token, projectUid, jobUid: jobs[0]!.uid };
    }
    if (Date.now() > deadline)
      throw new Error(`after ${SEED.importTimeoutMs / 1000} s only ${imported} of ${EXPECTED_JOBS} jobs are imported`);
    await sleep(250);
  }
}

// ---------------------------------------------------------------------------------------------
// CPU accounting (Linux /proc): whether the server was busy or waiting, and how busy the machine was
// ---------------------------------------------------------------------------------------------

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux Node supports). */
const TICKS_PER_SECOND = 100;

interface CpuSnapshot {
  /** user + system ticks of the server process */
  server: number;
  /** busy and total ticks of all cores together */
  machineBusy: number;
  machineTotal: number;
}

/** CPU times now, or null where /proc is not there (the columns then show "—"). */
function cpuSnapshot(pid: number | undefined): CpuSnapshot | null {
  try {
    // /proc/<pid>/stat: the command may hold spaces, so count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const server = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    const machine = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = machine[3]! + machine[4]!; // idle + iowait
    const total = machine.reduce((a, b) => a + b, 0);
    return { server, machineBusy: total - idle, machineTotal: total };
  } catch {
    return null;
  }
}

interface CpuUse {
  /** the server process, in % of one core */
  server: number | null;
  /** this process (autocannon), in % of one core */
  loadGenerator: number;
  /** everything else on the machine (PostgreSQL, other people's processes), in % of one core */
  rest: number | null;
}

/** CPU use between two snapshots; `benchMicros` is this process's user + system time meanwhile. */
function cpuUse(before: CpuSnapshot | null, after: CpuSnapshot | null, benchMicros: number, seconds: number): CpuUse {
  const loadGenerator = (benchMicros / 1e6 / seconds) * 100;
  if (!before || !after) return { server: null, loadGenerator, rest: null };
  const server = ((after.server - before.server) / TICKS_PER_SECOND / seconds) * 100;
  const total = after.machineTotal - before.machineTotal;
  const machine = total > 0 ? ((after.machineBusy - before.machineBusy) / total) * availableParallelism() * 100 : null;
  return { server, loadGenerator, rest: machine === null ? null : Math.max(0, machine - server - loadGenerator) };
}

// ---------------------------------------------------------------------------------------------
// Targets and measurements
// ---------------------------------------------------------------------------------------------

export interface Target {
  name: TargetName;
  label: string;
  /** The process answering, whose CPU time is read around the measured run. */
  pid: number | undefined;
  url: string;
  headers: Record<string, string>;
  /** What a correct answer looks like; checked once before the target is measured. */
  check(body: Record<string, unknown>): string | null;
}

function bareTarget(bare: Server): Target {
  return {
    name: 'bare',
    label: 'bare Fastify route',
    pid: bare.child.pid,
    url: `${bare.baseUrl}/`,
    headers: {},
    check: (body) => (body.hello === 'world' ? null : 'no "hello"'),
  };
}

export function openTmsTargets(server: Server, seeded: Seeded): Target[] {
  const headers = { authorization: `ApiToken ${seeded.token}` };
  const api = `${server.baseUrl}/api2`;
  return [
    {
      name: 'getJob',
      label: 'GET job (v1)',
      pid: server.child.pid,
      url: `${api}/v1/projects/${seeded.projectUid}/jobs/${seeded.jobUid}`,
      headers,
      check: (body) => (body.uid === seeded.jobUid && body.imported === true ? null : 'not the imported job asked for'),
    },
    {
      name: 'listJobs',
      label: 'list jobs v2 (50)',
      pid: server.child.pid,
      url: `${api}/v2/projects/${seeded.projectUid}/jobs?pageNumber=0&pageSize=50`,
      headers,
      check: (body) =>
        Array.isArray(body.content) && body.content.length === 50 && body.totalElements === EXPECTED_JOBS ? null : 'not a full page of 50',
    },
    {
      name: 'getProject',
      label: 'GET project (v1)',
      pid: server.child.pid,
      url: `${api}/v1/projects/${seeded.projectUid}`,
      headers,
      check: (body) => (body.uid === seeded.projectUid ? null : 'not the project asked for'),
    },
  ];
}

export async function verifyTarget(target: Target): Promise<void> {
  const response = await fetch(target.url, { headers: target.headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${target.label} answered ${response.status}: ${text.slice(0, 300)}`);
  const problem = target.check(JSON.parse(text) as Record<string, unknown>);
  if (problem) throw new Error(`${target.label} answered 200 but ${problem}: ${text.slice(0, 300)}`);
}

interface Measurement {
  target: Target;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** CPU during the measured run (null without /proc) */
  cpu: CpuUse;
  /** Monotonic clock (µs, the clock of V8's CPU profiles) at the start and end of the measured run. */
  fromMicros: number;
  toMicros: number;
}

const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function load(target: Target, connections: number, seconds: number): Promise<autocannon.Result> {
  // autocannon stops by itself after `duration`; requests unanswered for 10 s count as timeouts.
  return autocannon({ url: target.url, headers: target.headers, connections, duration: seconds, timeout: 10, pipelining: 1 });
}

/**
 * A warm-up run, then the measured run. Each run opens its connections anew, as a new set of
 * clients would; on a saturated event loop accepting them takes a while, which the measured
 * figures include (docs/performance.md, "Other findings").
 */
async function measure(target: Target, connections: number): Promise<Measurement> {
  await load(target, connections, settings.warmupSeconds);
  const fromMicros = monotonicMicros();
  const cpuBefore = cpuSnapshot(target.pid);
  const benchBefore = process.cpuUsage();
  const result = await load(target, connections, settings.seconds);
  const bench = process.cpuUsage(benchBefore);
  const cpu = cpuUse(cpuBefore, cpuSnapshot(target.pid), bench.user + bench.system, (monotonicMicros() - fromMicros) / 1e6);
  const toMicros = monotonicMicros();
  return {
    target,
    connections,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    cpu,
    fromMicros,
    toMicros,
  };
}

// ---------------------------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------------------------

const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)} %` : '—');

function bareFor(results: Measurement[], connections: number): Measurement | undefined {
  return results.find((m) => m.target.name === 'bare' && m.connections === connections);
}

function printTable(title: string, results: Measurement[]): void {
  const header = [
    'target',
    'conn',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'timeouts',
    'non-2xx',
    'vs bare',
    'CPU server',
    'autocannon',
    'rest',
  ];
  const cpu = (value: number | null) => (value === null ? '—' : `${value.toFixed(0)} %`);
  const rows = results.map((m) => [
    m.target.label,
    String(m.connections),
    Math.round(m.requestsPerSecond).toLocaleString('en-US'),
    m.p50.toFixed(1),
    m.p99.toFixed(1),
    String(m.errors),
    String(m.timeouts),
    String(m.non2xx),
    m.target.name === 'bare' ? '100 %' : percent(m.requestsPerSecond, bareFor(results, m.connections)?.requestsPerSecond ?? 0),
    cpu(m.cpu.server),
    cpu(m.cpu.loadGenerator),
    cpu(m.cpu.rest),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log(
    `(CPU in % of one core, user + system, of the ${availableParallelism() * 100} % this machine has: the process answering, autocannon, ` +
      'and the rest of the machine: PostgreSQL and any other process)',
  );
}

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** The issue's targets, each with the figure it was judged on. Information only. */
function printTargets(byDatabase: Map<DatabaseKind, Measurement[]>): void {
  console.log('\nTargets of the issue (information, nothing is asserted):');
  const share: Record<DatabaseKind, number> = { sqlite: 30, postgres: 15 };
  for (const [database, results] of byDatabase) {
    for (const m of results.filter((r) => r.target.name === 'getJob')) {
      const bare = bareFor(results, m.connections);
      if (!bare) continue;
      const ratio = (m.requestsPerSecond / bare.requestsPerSecond) * 100;
      console.log(
        `  GET job on ${database} >= ${share[database]} % of bare, ${m.connections} connections: ${ratio.toFixed(1)} % -> ${verdict(ratio >= share[database])}`,
      );
    }
  }
  for (const [database, results] of byDatabase) {
    for (const m of results.filter((r) => r.target.name !== 'bare' && r.connections === 50)) {
      console.log(`  p99 < 20 ms at 50 connections, ${database} ${m.target.label}: ${m.p99.toFixed(1)} ms -> ${verdict(m.p99 < 20)}`);
    }
  }
  for (const [database, results] of byDatabase) {
    for (const m of results.filter((r) => r.target.name !== 'bare' && r.connections === 200)) {
      console.log(
        `  no errors and no timeouts at 200 connections, ${database} ${m.target.label}: ${m.errors} errors, ${m.timeouts} timeouts -> ${verdict(m.errors === 0 && m.timeouts === 0)}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// One database
// ---------------------------------------------------------------------------------------------

async function benchDatabase(database: DatabaseKind, bare: Server | null): Promise<Measurement[] | null> {
  console.log(`\n=== ${database} ===`);
  const databaseUrl = database === 'postgres' ? await createPostgresDatabase() : null;
  if (database === 'postgres' && !databaseUrl) return null;

  const server = await startOpenTms(database, databaseUrl);
  const seeded = await seed(server);
  const all = [...(bare ? [bareTarget(bare)] : []), ...openTmsTargets(server, seeded)];
  // In profile mode only one operation runs, so that the profile shows it alone.
  const profiled = process.env.BENCH_PROFILE_TARGET || 'getJob';
  const targets = settings.profileDir ? all.filter((t) => t.name === profiled) : all;
  if (targets.length === 0) throw new Error(`BENCH_PROFILE_TARGET: unknown operation "${profiled}" (use getJob, listJobs, getProject)`);
  for (const target of targets) await verifyTarget(target);

  const results: Measurement[] = [];
  for (const connections of settings.connections) {
    for (const target of targets) {
      const m = await measure(target, connections);
      console.log(`  ${target.label}, ${connections} connections: ${Math.round(m.requestsPerSecond)} req/s, p99 ${m.p99.toFixed(1)} ms`);
      results.push(m);
    }
  }

  // autocannon walks away from the requests in flight when its time is up; stopping the server
  // while their handlers still run would log errors of requests nobody waits for any more.
  await sleep(2_000);
  if (settings.profileDir) await finishProfile(database, server, results);
  else await server.stop();
  return results;
}

/** Stops the server so that it writes its profile, and writes the measured window beside it. */
async function finishProfile(database: DatabaseKind, server: Server, results: Measurement[]): Promise<void> {
  await server.stop(60_000); // writing a large profile takes a while
  const profile = join(settings.profileDir!, profileName(database));
  if (!existsSync(profile)) {
    console.log(`no profile at ${profile} (did the server exit cleanly?)`);
    return;
  }
  const windowFile = profile.replace(/\.cpuprofile$/, '.window.json');
  const windows = results.map((m) => ({
    target: m.target.label,
    connections: m.connections,
    fromMicros: m.fromMicros,
    toMicros: m.toMicros,
  }));
  writeFileSync(windowFile, `${JSON.stringify({ database, measured: windows }, null, 2)}\n`);
  console.log(`CPU profile: ${profile} (${(statSync(profile).size / 2 ** 20).toFixed(1)} MiB); measured window: ${windowFile}`);
  const shown = relative(process.cwd(), profile).startsWith('..') ? profile : relative(process.cwd(), profile);
  console.log(`  summary: npx tsx bench/profile-summary.ts ${shown}`);
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  console.log(
    `API benchmark: ${settings.warmupSeconds} s warm-up + ${settings.seconds} s measured per run; connections ${settings.connections.join(', ')}; ` +
      `databases ${settings.databases.join(', ')}${settings.profileDir ? `; CPU profiles into ${settings.profileDir} (GET job only)` : ''}`,
  );
  console.log(`machine: ${availableParallelism()} cores, load average ${loadAverage()} before the run`);
  if (settings.profileDir) mkdirSync(settings.profileDir, { recursive: true });
  await ensureBuilt();
  const bare = settings.profileDir ? null : await startBareServer();

  const byDatabase = new Map<DatabaseKind, Measurement[]>();
  for (const database of settings.databases) {
    const results = await benchDatabase(database, bare);
    if (!results) continue;
    byDatabase.set(database, results);
    printTable(`${database}: ${new Date().toISOString()}`, results);
  }
  if (!settings.profileDir) printTargets(byDatabase);
  console.log(`\nload average ${loadAverage()} at the end`);
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

/**
 * Runs a bench's `main` as a script: cleans up (servers, temporary folders, databases) on
 * SIGINT/SIGTERM, on failure and at the end, then exits, since autocannon or a pg socket could
 * keep the loop alive once everything worth waiting for is done.
 */
export async function runBenchScript(run: () => Promise<void>): Promise<never> {
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      console.error(`\n${signal}: cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    await run();
  } catch (error) {
    if (!interrupted) {
      console.error(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanUp();
  }
  process.exit(process.exitCode ?? 0);
}

// Run as a script; the other benches import the helpers above without running it.
const runAsScript = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (runAsScript) await runBenchScript(main);
