import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { enqueue } from '../src/queue/queue.js';
import { createTestDatabase, testDialect, TEST_DATABASE_URL } from './harness.js';
import { waitFor } from './support/wait.js';
import { killAllStarted, runToExit, startProcess, withTimeout } from './support/child-process.js';
import type { StartedProcess } from './support/child-process.js';

/**
 * `src/main.ts --role=…` as a child process: the API and a worker by default, one of them with
 * `--role=api` or `--role=worker`, exit 2 for anything else. Bounded waits; children killed.
 */
let env: Record<string, string>;
let cleanup: () => Promise<void>;
let database: Database | null = null;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'opentms-roles-'));
  env = { OPENTMS_DATA_DIR: dataDir, OPENTMS_TASK_POLL_MS: '50' };
  let drop = async () => undefined as void;
  if (TEST_DATABASE_URL) {
    const created = await createTestDatabase({ migrate: false });
    drop = created.drop;
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${created.schema}`);
    env.DATABASE_URL = url.toString();
  }
  cleanup = async () => {
    await database?.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});

afterAll(async () => {
  await killAllStarted();
  await cleanup?.();
});

type Started = StartedProcess;

/** Starts main.ts and resolves once a log line matches `ready`. */
function startMain(args: string[], ready: (line: Record<string, unknown>) => boolean): Promise<Started> {
  return startProcess('src/main.ts', args, { HOST: '127.0.0.1', PORT: '0', ...env }, ready, `main.ts ${args.join(' ')}`);
}

const listening = (l: Record<string, unknown>) => /listening at http/.test(String(l.msg));
const workerStarted = (l: Record<string, unknown>) => l.msg === 'worker started';

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  expect(await withTimeout(started.exited, 10_000, 'stopping')).toBe(0);
  expect(started.lines.some((l) => l.msg === 'stopped')).toBe(true);
}

describe(`roles of src/main.ts (${testDialect})`, () => {
  it('runs the API and a worker by default, and says so', async () => {
    let seen = 0;
    const started = await startMain([], (l) => (listening(l) || workerStarted(l)) && ++seen === 2);
    expect(started.lines.find((l) => Array.isArray(l.roles))).toMatchObject({ roles: ['api', 'worker'], msg: 'starting: api and worker' });
    expect(started.lines.find(workerStarted)).toMatchObject({ component: 'worker' });
    await stop(started);
    expect(started.lines.some((l) => l.msg === 'worker stopped')).toBe(true);
  });

  it('--role=api runs the API only', async () => {
    const started = await startMain(['--role=api'], listening);
    expect(started.lines.find((l) => Array.isArray(l.roles))).toMatchObject({ roles: ['api'] });
    await new Promise((done) => setTimeout(done, 100));
    expect(started.lines.some(workerStarted)).toBe(false);
    await stop(started);
  });

  it('--role=worker runs a worker without HTTP, which runs tasks, and stops on SIGTERM', async () => {
    const started = await startMain(['--role', 'worker'], workerStarted);
    expect(started.lines.find((l) => Array.isArray(l.roles))).toMatchObject({ roles: ['worker'], msg: 'starting: worker' });
    expect(started.lines.some(listening)).toBe(false);

    // The worker claims what is enqueued: a kind nobody handles fails with the registry's message.
    database = TEST_DATABASE_URL
      ? openDatabase({ kind: 'postgres', url: env.DATABASE_URL! })
      : openDatabase({ kind: 'sqlite', path: join(env.OPENTMS_DATA_DIR!, 'opentms.sqlite') });
    const id = await enqueue(database.db, { kind: 'test.unhandled', payload: null, organizationId: null }, new Date());
    const row = await waitFor(
      'the worker process to fail the task',
      async () => {
        const current = await database!.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return current.status === 'failed' ? current : null;
      },
      10_000,
    );
    expect(row.lastError).toContain('no handler is registered for task kind "test.unhandled"');
    await stop(started);
  });

  it('refuses an unknown role with exit code 2 and a message', async () => {
    const { code, stderr } = await runToExit('src/main.ts', ['--role=scheduler'], env);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown role "scheduler"');
    expect(stderr).toContain('--role=api|--role=worker');
  });
});
