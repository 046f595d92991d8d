/**
 * The job import's figures (docs/jobs.md): a large XLIFF built from the machine's gettext catalogs
 * (real software strings, via ../shared/data/catalog-tmx.mjs) is imported by the real import code
 * (filter → segmentation → word counts → batched inserts); prints segments per second and the peak
 * memory seen while importing. Asserts nothing.
 *
 * Run: `npx tsx bench/import.bench.ts [units]` (default 200,000 trans-units; the catalogs are
 * repeated as needed) on SQLite (a file, WAL, synchronous=FULL, as in production), or with
 * `DATABASE_URL=postgres://…` in a schema of its own. Without ../shared it says so and stops.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { newUid } from '../src/db/ids.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { AppDeps } from '../src/deps.js';
import { importJobSource } from '../src/modules/translation-workflow/jobs/job-import.task.js';
import { insertOrganization } from '../src/modules/identity/organizations/organizations.repository.js';
import { insertProject } from '../src/modules/translation-workflow/projects/projects.repository.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { localBlobStore } from '../src/storage/blob-store.js';
import { recordStoredFile } from '../src/storage/stored-files.js';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'data', 'catalog-tmx.mjs');
if (!existsSync(script)) {
  console.log(`import benchmark skipped: ${script} not found (it needs ../shared next to the project)`);
  process.exit(0);
}

const wanted = Number(process.argv[2] ?? 200_000);
const catalog = JSON.parse(
  execFileSync(process.execPath, [script, '--target', 'de', '--format', 'json'], {
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString('utf8'),
) as Array<{
  src: string;
  domain: string;
}>;
if (catalog.length === 0) {
  console.log('import benchmark skipped: the machine has no German gettext catalogs under /usr/share/locale');
  process.exit(0);
}

const escapeXml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** The XLIFF, produced in chunks: the file never exists as a whole in memory. */
function* xliffChunks(): Generator<Buffer> {
  yield Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="catalogs" source-language="en" target-language="de" datatype="plaintext"><body>\n',
  );
  let batch = '';
  for (let i = 0; i < wanted; i++) {
    const unit = catalog[i % catalog.length]!;
    batch += `<trans-unit id="u${i}" resname="${escapeXml(unit.domain)}.${i}"><source>${escapeXml(unit.src)}</source></trans-unit>\n`;
    if (batch.length > 60_000) {
      yield Buffer.from(batch);
      batch = '';
    }
  }
  yield Buffer.from(`${batch}</body></file></xliff>\n`);
}

const url = process.env.DATABASE_URL || null;
const dir = mkdtempSync(join(tmpdir(), 'opentms-bench-import-'));
let database: Database;
let dropSchema: () => Promise<void> = async () => {};
if (url) {
  const schema = `bench_import_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  database = openDatabase({ kind: 'postgres', url, schema });
  dropSchema = async () => {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  };
} else {
  database = openDatabase({ kind: 'sqlite', path: join(dir, 'bench.sqlite') });
}
await migrateToLatest(database);
const deps: AppDeps = {
  config: loadConfig({ LOG_LEVEL: 'silent', ...(url ? { DATABASE_URL: url } : {}) }),
  database,
  clock: () => new Date(),
  taskWakeup: createTaskWakeup(),
  blobs: localBlobStore(join(dir, 'blobs')),
};
const db = database.db;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

console.log(
  `job import on ${database.dialect}, node ${process.version}: ${wanted.toLocaleString('en-US')} trans-units from ${catalog.length.toLocaleString('en-US')} catalog strings (en)`,
);
const blob = await deps.blobs.put(Readable.from(xliffChunks()));
const now = new Date().toISOString();
const organization = await insertOrganization(db, 'Bench organization');
const jobSourceId = await db.transaction().execute(async (trx) => {
  const project = await insertProject(trx, {
    organizationId: organization.id,
    name: 'Bench',
    sourceLang: 'en',
    targetLangs: ['de'],
    workflowStepIds: [],
    ownerId: null,
    createdById: null,
    now,
  });
  await recordStoredFile(deps, trx, blob);
  const source = await trx
    .insertInto('jobSources')
    .values({
      uid: newUid(),
      organizationId: organization.id,
      projectId: project.id,
      innerId: 1,
      filename: 'catalogs.xlf',
      directory: null,
      sha256: blob.sha256,
      size: blob.size,
      contentType: null,
      importError: null,
      format: null,
      createdAt: now,
      createdById: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return source.id;
});

globalThis.gc?.();
const baseline = process.memoryUsage();
let peakHeap = baseline.heapUsed;
let peakRss = baseline.rss;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peakHeap = Math.max(peakHeap, usage.heapUsed);
  peakRss = Math.max(peakRss, usage.rss);
}, 20);
const began = performance.now();
const outcome = await importJobSource(deps, jobSourceId);
const ms = performance.now() - began;
clearInterval(sampler);
if (outcome) throw new Error(`the import failed: ${outcome.errorDesc}`);

const source = await db
  .selectFrom('jobSources')
  .select(['segmentCount', 'wordCount'])
  .where('id', '=', jobSourceId)
  .executeTakeFirstOrThrow();
const segments = Number(source.segmentCount);
console.log(`file                ${mb(Number(blob.size))}`);
console.log(`segments            ${segments.toLocaleString('en-US')} (${Number(source.wordCount).toLocaleString('en-US')} words)`);
console.log(`time                ${(ms / 1000).toFixed(1)} s`);
console.log(
  `throughput          ${Math.round((segments / ms) * 1000).toLocaleString('en-US')} segments/s, ${Math.round((wanted / ms) * 1000).toLocaleString('en-US')} units/s`,
);
console.log(
  `peak heap           +${mb(peakHeap - baseline.heapUsed)} over ${mb(baseline.heapUsed)}${globalThis.gc ? '' : ' (run with node --expose-gc for a cleaner baseline)'}`,
);
console.log(`peak RSS            ${mb(peakRss)}`);

await database.close();
await dropSchema();
rmSync(dir, { recursive: true, force: true });
