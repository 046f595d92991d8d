/**
 * The SQL statements one request runs (docs/performance.md, "Queries per request"): the app is
 * built in-process as main.ts builds it, on a fresh SQLite file (or, with
 * `DATABASE_URL=postgres://…`, in a schema of its own, dropped at the end), with a Kysely plugin
 * that records every statement executed. The data is made through the API (login, a project, one
 * uploaded file imported by the real worker); then each read operation of the API bench is called
 * twice and the statements of the second call are listed (the first warms per-process caches,
 * such as the organization's rate limit, read at most every 30 s).
 *
 * Run: `npx tsx bench/request-queries.ts`. Prints, asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { AppDeps } from '../src/deps.js';
import { ensureFirstAdmin } from '../src/modules/identity/organization-admin/index.js';
import { buildTaskRegistry } from '../src/task-handlers.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { startWorker } from '../src/queue/worker.js';
import { localBlobStore } from '../src/storage/blob-store.js';

const PASSWORD = 'request-queries-password';

/** Records the SQL of every statement that was executed (its result came back), in that order. */
class StatementRecorder implements KyselyPlugin {
  readonly executed: string[] = [];
  readonly #pending = new WeakMap<object, string>();
  #compile: ((node: RootOperationNode, queryId: PluginTransformQueryArgs['queryId']) => string) | null = null;

  /** The recorder compiles with the database's own compiler, after the CamelCase plugin ran. */
  attach(compile: (node: RootOperationNode, queryId: PluginTransformQueryArgs['queryId']) => string): void {
    this.#compile = compile;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.#compile) this.#pending.set(args.queryId, this.#compile(args.node, args.queryId));
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const statement = this.#pending.get(args.queryId);
    if (statement) this.executed.push(statement);
    return args.result;
  }
}

/** A fresh database: a SQLite file in a temporary folder, or a PostgreSQL schema of its own. */
async function freshDatabase(folder: string): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL || null;
  if (!url) {
    const database = openDatabase({ kind: 'sqlite', path: join(folder, 'opentms.sqlite') });
    return { database, drop: () => database.close() };
  }
  const schema = `request_queries_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openDatabase({ kind: 'postgres', url, schema });
  return {
    database,
    async drop() {
      await database.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'opentms-request-queries-'));
  const { database, drop } = await freshDatabase(folder);
  try {
    await migrateToLatest(database);
    const recorder = new StatementRecorder();
    const traced = database.db.withPlugin(recorder);
    recorder.attach((node, queryId) => traced.getExecutor().compileQuery(node, queryId).sql);
    // The same settings as the API bench's server: rate limits off, quiet log.
    const config = loadConfig({
      OPENTMS_DATA_DIR: folder,
      OPENTMS_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'silent',
      OPENTMS_RATE_LIMIT_PER_TOKEN: '0',
      OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '0',
      OPENTMS_RATE_LIMIT_PER_IP: '0',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    });
    const deps: AppDeps = {
      config,
      database: { ...database, db: traced },
      clock: () => new Date(),
      taskWakeup: createTaskWakeup(),
      blobs: localBlobStore(join(folder, 'blobs')),
    };
    const app = await buildApp(deps, { logger: false });
    await ensureFirstAdmin(traced, config, app.log);
    // No LISTEN connection: the worker only has to import one file, and polls for it.
    const worker = startWorker(deps, buildTaskRegistry(), { listenConnectionString: null });
    try {
      const token = (
        await app.inject({ method: 'POST', url: '/api2/v3/auth/login', payload: { userName: 'admin', password: PASSWORD } })
      ).json<{ token: string }>().token;
      const headers = { authorization: `ApiToken ${token}` };
      const project = (
        await app.inject({
          method: 'POST',
          url: '/api2/v3/projects',
          headers,
          payload: { name: 'Queries', sourceLang: 'en', targetLangs: ['de', 'fr'] },
        })
      ).json<{ uid: string }>();
      const created = await app.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: {
          ...headers,
          'content-type': 'application/octet-stream',
          'content-disposition': "attachment; filename*=UTF-8''a.txt",
          memsource: JSON.stringify({ targetLangs: ['de', 'fr'] }),
        },
        payload: 'One sentence. Another one.\nA second line.',
      });
      const jobUid = created.json<{ jobs: Array<{ uid: string }> }>().jobs[0]!.uid;
      await waitForImport(app, headers, project.uid, jobUid);
      await worker.stop(); // its polling would mix into the lists below

      const requests: Array<[string, string]> = [
        ['GET job (v1)', `/api2/v1/projects/${project.uid}/jobs/${jobUid}`],
        ['list jobs v2', `/api2/v2/projects/${project.uid}/jobs?pageNumber=0&pageSize=50`],
        ['GET project (v1)', `/api2/v1/projects/${project.uid}`],
      ];
      console.log(`database: ${database.dialect}`);
      for (const [label, url] of requests) {
        await app.inject({ method: 'GET', url, headers });
        recorder.executed.length = 0;
        const response = await app.inject({ method: 'GET', url, headers });
        console.log(`\n${label}: ${response.statusCode}, ${recorder.executed.length} statements`);
        recorder.executed.forEach((statement, i) => console.log(`  ${String(i + 1).padStart(2)}. ${statement}`));
      }
    } finally {
      await worker.stop();
      await app.close();
    }
  } finally {
    await drop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Polls GET job until its import is done (bounded). */
async function waitForImport(
  app: Awaited<ReturnType<typeof buildApp>>,
  headers: Record<string, string>,
  projectUid: string,
  jobUid: string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const job = (await app.inject({ method: 'GET', url: `/api2/v1/projects/${projectUid}/jobs/${jobUid}`, headers })).json<{
      imported: boolean;
    }>();
    if (job.imported) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('the job was not imported within 30 s');
}

await main();
