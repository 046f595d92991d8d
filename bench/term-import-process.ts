/**
 * The process that imports one term file for bench/term-import.bench.ts, started by it with
 * `fork` (never run by hand): it imports only the service's code, so that its peak RSS is the
 * import's. The job comes as JSON in TERM_IMPORT_JOB; the figures go back to the parent over the
 * IPC channel as one message.
 *
 * It opens the bench's database (migrating it when needed), makes an organization, an ADMIN and a
 * term base en+de, starts the task worker with the term import's handler (as
 * test/term-base-transfers.test.ts does), then calls `requestTermImport` with the file as a
 * stream, the v2 upload's defaults (updateTerms=true, i.e. duplicates `update`; no strict
 * language matching). Timed: storing the upload (`requestTermImport`, until it returns), and the
 * import, from then to the async request's `finishedAt` (written by the service's clock, read
 * when the request is seen finished; polled every 25 ms).
 */
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { AppDeps } from '../src/deps.js';
import type { Caller } from '../src/http/access.js';
import { insertOrganization } from '../src/modules/identity/organizations/organizations.repository.js';
import { insertUser } from '../src/modules/identity/users/users.repository.js';
import { insertTermBase } from '../src/modules/language-resources/term-bases/term-bases.repository.js';
import { requestTermImport, termImportTask } from '../src/modules/language-resources/term-bases/term-import.task.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { startWorker } from '../src/queue/worker.js';
import { localBlobStore } from '../src/storage/blob-store.js';

export interface ImportJob {
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };
  blobDir: string;
  /** The file to import, and the name it is uploaded under. */
  file: string;
  filename: string;
  label: string;
  /** Import the file once before the timed import into the same term base (the timed one then updates). */
  reimport?: boolean;
}

export interface ImportFigures {
  label: string;
  storeMs: number;
  importMs: number;
  /** Entries read from the file (the transfer's `entries`). */
  entries: number;
  /** Concepts the term base holds afterwards. */
  concepts: number;
  termsInBase: number;
  createdTerms: number;
  updatedTerms: number;
  skippedTerms: number;
  errorCode: string | null;
  errorDesc: string | null;
  warnings: number;
  /**
   * RSS before the upload, and the peak over the process's life: `process.resourceUsage().maxRSS`
   * read before the reset below (set-up, and a re-import's first run) and at the end.
   */
  rssBeforeBytes: number;
  maxRssBytes: number;
  /** VmHWM after a reset through /proc/self/clear_refs just before the upload: the import's own peak (null when unavailable). */
  importHwmBytes: number | null;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function procStatusBytes(field: string): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Resets VmHWM to the current RSS (Linux); false when the kernel does not allow it. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

async function run(job: ImportJob): Promise<ImportFigures> {
  const database: Database =
    job.database.kind === 'sqlite'
      ? openDatabase({ kind: 'sqlite', path: job.database.path })
      : openDatabase({ kind: 'postgres', url: job.database.url, schema: job.database.schema });
  await migrateToLatest(database);
  const deps: AppDeps = {
    config: loadConfig({ LOG_LEVEL: 'silent', ...(job.database.kind === 'postgres' ? { DATABASE_URL: job.database.url } : {}) }),
    database,
    clock: () => new Date(),
    taskWakeup: createTaskWakeup(),
    blobs: localBlobStore(job.blobDir),
  };
  const db = database.db;
  const now = new Date().toISOString();
  const { organization, user, termBase } = await db.transaction().execute(async (trx) => {
    const organization = await insertOrganization(trx, `Term import bench ${job.label}`);
    const user = await insertUser(trx, {
      organizationId: organization.id,
      userName: `term-import-bench-${process.pid}-${Date.now()}`,
      email: `term-import-bench-${process.pid}@example.test`,
      firstName: 'Bench',
      lastName: 'Importer',
      role: 'ADMIN',
      passwordHash: null,
    });
    const termBase = await insertTermBase(trx, {
      organizationId: organization.id,
      name: `Bench ${job.label}`,
      langs: ['en', 'de'],
      clientId: null,
      businessUnitId: null,
      domainId: null,
      subDomainId: null,
      ownerId: user.id,
      note: null,
      createdById: user.id,
      now,
    });
    return { organization, user, termBase };
  });
  const caller: Caller = {
    userId: user.id,
    userUid: user.uid,
    userName: user.userName,
    organizationId: organization.id,
    role: 'ADMIN',
    isBot: false,
    settings: null,
    credential: { kind: 'api_token', id: 'bench' },
    scopes: null,
    impersonatorId: null,
    csrfTokenHash: null,
  };
  const worker = startWorker(deps, createTaskRegistry([termImportTask]), { listenConnectionString: null, pollMilliseconds: 20 });
  /** One import of the file: requested (the upload stored), then waited for until its async request finished. */
  const importOnce = async () => {
    const began = Date.now();
    const request = await requestTermImport(
      deps,
      caller,
      termBase,
      { filename: job.filename, body: createReadStream(job.file) },
      { duplicates: 'update', strictLangMatching: false },
    );
    const stored = Date.now();
    for (;;) {
      const finished = await db
        .selectFrom('asyncRequests')
        .select(['finishedAt', 'response'])
        .where('id', '=', request.id)
        .executeTakeFirst();
      if (finished?.finishedAt)
        return { request, began, stored, finished: { finishedAt: finished.finishedAt, response: finished.response } };
      await sleep(25);
    }
  };
  try {
    // A re-import: the file once untimed, so that the timed run finds every term already held.
    if (job.reimport) await importOnce();
    globalThis.gc?.();
    const rssBeforeBytes = process.memoryUsage().rss;
    // Read before the reset: on Linux, maxRSS follows the peak that the reset lowers.
    const setupPeakBytes = process.resourceUsage().maxRSS * 1024;
    const peakReset = resetPeak();
    const { request, began, stored, finished } = await importOnce();
    const importHwmBytes = peakReset ? procStatusBytes('VmHWM') : null;
    const response = JSON.parse(finished.response ?? '{}') as {
      errorCode?: string | null;
      errorDesc?: string | null;
      warnings?: unknown[];
    };
    const transfer = await db
      .selectFrom('tbTransfers')
      .select(['entries', 'createdTerms', 'updatedTerms', 'skippedTerms'])
      .where('asyncRequestId', '=', request.id)
      .executeTakeFirstOrThrow();
    const count = async (table: 'tbConcepts' | 'tbTerms') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('termBaseId', '=', termBase.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      label: job.label,
      storeMs: stored - began,
      importMs: Date.parse(finished.finishedAt) - stored,
      entries: Number(transfer.entries),
      concepts: await count('tbConcepts'),
      termsInBase: await count('tbTerms'),
      createdTerms: Number(transfer.createdTerms),
      updatedTerms: Number(transfer.updatedTerms),
      skippedTerms: Number(transfer.skippedTerms),
      errorCode: response.errorCode ?? null,
      errorDesc: response.errorDesc ?? null,
      warnings: response.warnings?.length ?? 0,
      rssBeforeBytes,
      maxRssBytes: Math.max(setupPeakBytes, process.resourceUsage().maxRSS * 1024, importHwmBytes ?? 0),
      importHwmBytes,
    };
  } finally {
    await worker.stop();
    await database.close();
  }
}

if (!process.send || !process.env.TERM_IMPORT_JOB) {
  console.error('bench/term-import-process.ts is started by bench/term-import.bench.ts');
  process.exit(2);
}
try {
  const figures = await run(JSON.parse(process.env.TERM_IMPORT_JOB) as ImportJob);
  process.send(figures, () => process.exit(0));
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
}
