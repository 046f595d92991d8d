import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { AppDeps } from '../src/deps.js';
import type { Caller } from '../src/http/access.js';
import { createAnalyses } from '../src/modules/quoting/analyses/analyses.service.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { localBlobStore } from '../src/storage/blob-store.js';
import { makeOrganization, makeUser } from './factories.js';
import { createTestDatabase, testDialect, TEST_DATABASE_URL } from './harness.js';
import type { TestApp } from './harness.js';
import { killAllStarted, startProcess, withTimeout } from './support/child-process.js';
import { waitFor } from './support/wait.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * Issue 15, point 8: an analysis whose worker is killed with -9 while it runs is finished by the
 * next worker (the task's lease expires) with the same result as an analysis never interrupted,
 * and nothing of it is visible before that (docs/analysis.md, "Where it runs").
 */
describe(`an analysis killed with -9 (${testDialect})`, () => {
  let database: Database;
  let env: Record<string, string>;
  let deps: AppDeps;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'opentms-analysis-kill-'));
    if (TEST_DATABASE_URL) {
      const created = await createTestDatabase();
      database = created.database;
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${created.schema}`);
      env = { DATABASE_URL: url.toString(), OPENTMS_DATA_DIR: dataDir };
      cleanup = async () => {
        await created.drop();
        rmSync(dataDir, { recursive: true, force: true });
      };
    } else {
      database = openDatabase({ kind: 'sqlite', path: join(dataDir, 'opentms.sqlite') });
      await migrateToLatest(database);
      env = { OPENTMS_DATA_DIR: dataDir };
      cleanup = async () => {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      };
    }
    deps = {
      config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
      database,
      clock: () => new Date(),
      taskWakeup: createTaskWakeup(),
      blobs: localBlobStore(join(dataDir, 'blobs')),
    };
  });
  afterAll(async () => {
    await killAllStarted();
    await cleanup?.();
  });

  const startWorkerProcess = () =>
    startProcess(
      'test/support/worker-process.ts',
      [],
      { LOG_LEVEL: 'info', OPENTMS_TASK_LEASE_SECONDS: '1', OPENTMS_TASK_POLL_MS: '50', ...env },
      (line) => line.msg === 'worker started',
      'the worker',
    );

  it('finishes after a restart with the result of an uninterrupted run', async () => {
    const db = database.db;
    const organization = await makeOrganization(db);
    const admin = await makeUser(db, organization, { role: 'ADMIN' });
    const t = { database, deps, clock: () => new Date() } as unknown as TestApp;
    const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
    // Enough text for the analysis to run a few seconds: sentences that repeat and vary.
    const words = ['file', 'folder', 'window', 'message', 'printer', 'server', 'account', 'setting', 'backup', 'update'];
    const segments = Array.from({ length: 10_000 }, (_, i) => {
      const a = words[i % 10]!;
      const b = words[Math.floor(i / 10) % 10]!;
      return `Open the ${a} and the ${b} number ${i % 997} before you close the ${words[(i * 7) % 10]} again.`;
    });
    // In files of 2,000 segments (one insert each stays under SQLite's variable limit).
    const jobUids: string[] = [];
    for (let from = 0; from < segments.length; from += 2000) {
      const { jobs } = await makeJobs(t, project, {
        filename: `part-${from}.txt`,
        segments: segments.slice(from, from + 2000),
        targetLangs: ['de'],
        createdById: admin.id,
      });
      jobUids.push(jobs[0]!.uid);
    }
    const caller = { organizationId: organization.id, userId: admin.id, role: 'ADMIN' } as Caller;
    const run = (name: string) => createAnalyses(deps, caller, { jobs: jobUids.map((uid) => ({ uid })), name }, 'single');
    const [killed] = await run('Killed');

    const first = await startWorkerProcess();
    await waitFor(
      'the analysis task to run',
      async () =>
        (await db.selectFrom('tasks').select('status').where('asyncRequestId', '=', killed!.asyncRequest.id).executeTakeFirst())?.status ===
        'running',
      30_000,
      5,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.child.kill('SIGKILL');
    await withTimeout(first.exited, 10_000, 'the killed worker to exit');
    // Nothing of the analysis is visible yet: it still runs, and no part has results.
    const during = await db.selectFrom('analyses').select('status').where('id', '=', killed!.analysis.id).executeTakeFirstOrThrow();
    expect(during.status).toBe('RUNNING');
    const parts = await db.selectFrom('analysisLanguageParts').select('tallies').where('analysisId', '=', killed!.analysis.id).execute();
    expect(parts.every((p) => p.tallies === null)).toBe(true);

    const second = await startWorkerProcess();
    const done = (id: string) =>
      waitFor(
        `analysis ${id} to finish`,
        async () => {
          const row = await db.selectFrom('analyses').select(['status']).where('id', '=', id).executeTakeFirstOrThrow();
          return row.status === 'RUNNING' ? null : row.status;
        },
        120_000,
        50,
      );
    expect(await done(killed!.analysis.id)).toBe('OK');
    const [clean] = await run('Uninterrupted');
    expect(await done(clean!.analysis.id)).toBe('OK');
    const tallies = async (analysisId: string) =>
      (await db.selectFrom('analysisJobs').select('tallies').where('analysisId', '=', analysisId).orderBy('position').execute()).map(
        (r) => r.tallies,
      );
    const resumed = await tallies(killed!.analysis.id);
    expect(resumed[0]).not.toBeNull();
    expect(resumed).toEqual(await tallies(clean!.analysis.id));
    const request = await db
      .selectFrom('asyncRequests')
      .select('response')
      .where('id', '=', killed!.asyncRequest.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(request.response!).errorCode).toBeNull();
    second.child.kill('SIGTERM');
    expect(await withTimeout(second.exited, 15_000, 'the worker to stop')).toBe(0);
  }, 240_000);
});
