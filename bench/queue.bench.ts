/**
 * The task queue's figures (docs/async-and-webhooks.md, "Task queue"). Prints, asserts nothing.
 * Run: `npx tsx bench/queue.bench.ts` (SQLite: a file in a temporary folder, WAL, synchronous=FULL
 * as in production) or `DATABASE_URL=postgres://… npx tsx bench/queue.bench.ts` (a schema of its
 * own, dropped at the end).
 *
 * - enqueue: one task per transaction (what a request does), and 100 per transaction;
 * - claim + run + complete of no-op tasks through the real worker, concurrency 1 and 4;
 * - the latency of one claim with 100,000 queued tasks in 100 organizations (and with 100,000 in
 *   one organization plus one task in another, the starvation case), through `claimNext`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localBlobStore } from '../src/storage/blob-store.js';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { AppDeps } from '../src/deps.js';
import { insertOrganization } from '../src/modules/identity/organizations/organizations.repository.js';
import { createTaskRegistry, enqueue } from '../src/queue/queue.js';
import { claimNext } from '../src/queue/store.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { startWorker } from '../src/queue/worker.js';

const url = process.env.DATABASE_URL || null;
let database: Database;
let dispose: () => Promise<void>;
if (url) {
  const schema = `bench_queue_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  database = openDatabase({ kind: 'postgres', url, schema });
  dispose = async () => {
    await database.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  };
} else {
  const dir = mkdtempSync(join(tmpdir(), 'opentms-bench-queue-'));
  database = openDatabase({ kind: 'sqlite', path: join(dir, 'bench.sqlite') });
  dispose = async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
await migrateToLatest(database);
const db = database.db;
const deps: AppDeps = {
  config: loadConfig({ LOG_LEVEL: 'silent', ...(url ? { DATABASE_URL: url } : {}) }),
  database,
  clock: () => new Date(),
  taskWakeup: createTaskWakeup(),
  // The queue benchmark stores no files.
  blobs: localBlobStore(join(tmpdir(), 'opentms-bench-blobs')),
};
console.log(`task queue on ${database.dialect}${url ? '' : ' (file, WAL, synchronous=FULL)'}, node ${process.version}`);

const organizations: string[] = [];
for (let i = 0; i < 100; i++) organizations.push((await insertOrganization(db, `Bench organization ${i}`)).id);

function line(name: string, value: string): void {
  console.log(`${name.padEnd(62)} ${value}`);
}
const rate = (count: number, ms: number) =>
  `${Math.round((count / ms) * 1000)
    .toLocaleString('en-US')
    .padStart(9)} /s`;

async function clear(): Promise<void> {
  await db.deleteFrom('tasks').execute();
  await db.deleteFrom('taskTurns').execute();
}

// --- enqueue ------------------------------------------------------------------------------------
{
  const count = 2_000;
  const began = performance.now();
  for (let i = 0; i < count; i++) {
    await db
      .transaction()
      .execute((trx) => enqueue(trx, { kind: 'test.bench-noop', payload: { i }, organizationId: organizations[i % 100]! }, new Date()));
  }
  line(`enqueue, one task per transaction (${count.toLocaleString('en-US')})`, rate(count, performance.now() - began));
}
{
  const count = 20_000;
  const began = performance.now();
  for (let batch = 0; batch < count / 100; batch++) {
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 100; i++)
        await enqueue(trx, { kind: 'test.bench-noop', payload: { i }, organizationId: organizations[i]! }, new Date());
    });
  }
  line(`enqueue, 100 tasks per transaction (${count.toLocaleString('en-US')})`, rate(count, performance.now() - began));
}

// --- claim + run + complete through the worker --------------------------------------------------
for (const concurrency of [1, 4]) {
  await clear();
  const count = 2_000;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i++)
      await enqueue(trx, { kind: 'test.bench-noop', payload: null, organizationId: organizations[i % 10]! }, new Date());
  });
  let ran = 0;
  let allRan!: () => void;
  const finished = new Promise<void>((resolve) => (allRan = resolve));
  const began = performance.now();
  const worker = startWorker(
    deps,
    createTaskRegistry([
      {
        kind: 'test.bench-noop',
        async run() {
          if (++ran === count) allRan();
        },
      },
    ]),
    { concurrency, listenConnectionString: null },
  );
  await finished;
  await worker.stop(); // the last tasks are marked done
  const ms = performance.now() - began;
  const done = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'done')
    .executeTakeFirstOrThrow();
  line(
    `claim + run + complete, concurrency ${concurrency} (${count.toLocaleString('en-US')} no-op tasks, ${Number(done.n)} done)`,
    rate(count, ms),
  );
}

// --- claim latency with 100,000 queued tasks ----------------------------------------------------
async function fill(total: number, organizationOf: (i: number) => string): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < total; start += 5_000) {
    await db.transaction().execute(async (trx) => {
      for (let offset = 0; offset < 5_000 && start + offset < total; offset += 500) {
        const rows = [];
        for (let j = 0; j < 500 && start + offset + j < total; j++) {
          const i = start + offset + j;
          const organizationId = organizationOf(i);
          const at = new Date(now - total + i).toISOString();
          rows.push({
            kind: 'test.bench-noop',
            payload: '{}',
            organizationId,
            lane: organizationId,
            status: 'queued' as const,
            maxAttempts: null,
            runAt: at,
            createdAt: at,
            lockedBy: null,
            leaseUntil: null,
            lastError: null,
            asyncRequestId: null,
            startedAt: null,
            finishedAt: null,
          });
        }
        await trx.insertInto('tasks').values(rows).execute();
      }
    });
  }
  if (database.dialect === 'postgres') await sql`analyze tasks`.execute(db);
  else await sql`analyze`.execute(db);
}

async function claimLatency(name: string, claims: number): Promise<string[]> {
  const times: number[] = [];
  const lanes: string[] = [];
  for (let i = 0; i < claims; i++) {
    const began = performance.now();
    const task = await claimNext(database, 'bench', new Date(), 60_000);
    times.push(performance.now() - began);
    if (!task) throw new Error('nothing to claim');
    lanes.push(task.organizationId ?? '-');
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  line(
    `claim latency, ${name} (${claims} claims)`,
    `p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms  max ${times.at(-1)!.toFixed(2)} ms`,
  );
  return lanes;
}

{
  await clear();
  const began = performance.now();
  await fill(100_000, (i) => organizations[i % 100]!);
  line('(inserting 100,000 queued tasks in 100 organizations took)', `${((performance.now() - began) / 1000).toFixed(1)} s`);
  const lanes = await claimLatency('100,000 queued in 100 organizations', 1_000);
  line('  organizations served by the first 100 claims', String(new Set(lanes.slice(0, 100)).size));
}
{
  await clear();
  await fill(100_000, () => organizations[0]!);
  const late = await enqueue(db, { kind: 'test.bench-noop', payload: null, organizationId: organizations[1]! }, new Date());
  const lanes = await claimLatency('100,000 queued in one organization + 1 in another', 200);
  line("  position of the other organization's task among the claims", String(lanes.indexOf(organizations[1]!) + 1));
  void late;
}
{
  // Nothing due: what an idle worker's poll costs while 100,000 tasks wait for their retry time.
  await clear();
  await fill(100_000, (i) => organizations[i % 100]!);
  await db
    .updateTable('tasks')
    .set({ runAt: new Date(Date.now() + 3_600_000).toISOString() })
    .execute();
  // What autovacuum does after such a mass update (the dead index entries would be walked).
  await sql`${sql.raw(database.dialect === 'postgres' ? 'vacuum analyze tasks' : 'analyze')}`.execute(db);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const began = performance.now();
    if (await claimNext(database, 'bench', new Date(), 60_000)) throw new Error('claimed a task that is not due');
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  line(
    'empty poll, 100,000 tasks not yet due in 100 organizations',
    `p50 ${times[100]!.toFixed(2)} ms  max ${times.at(-1)!.toFixed(2)} ms`,
  );
}

await dispose();
