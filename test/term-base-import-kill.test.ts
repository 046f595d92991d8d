import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import type { AppDeps } from '../src/deps.js';
import type { Caller } from '../src/http/access.js';
import { insertTermBase } from '../src/modules/language-resources/term-bases/term-bases.repository.js';
import { requestTermImport, TERM_IMPORT_BATCH_ENTRIES } from '../src/modules/language-resources/term-bases/term-import.task.js';
import { makeOrganization, makeUser } from './factories.js';
import { testDialect } from './harness.js';
import { withTimeout } from './support/child-process.js';
import { workerProcessFixture } from './support/worker-process-fixture.js';
import type { WorkerProcessFixture } from './support/worker-process-fixture.js';
import { waitFor } from './support/wait.js';

/**
 * A term base import in a worker process of its own (test/support/worker-process.ts), killed with
 * -9 half way: the batches committed stay, and the next worker finishes the task with every entry
 * once — even with `duplicates=add`, where importing an entry twice would make two concepts.
 */

function generatedTbx(entries: number): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<martif type="TBX" xml:lang="en"><text><body>\n'];
  for (let i = 0; i < entries; i++) {
    parts.push(
      `<termEntry id="k${i}"><langSet xml:lang="en"><tig><term>term number ${i}</term></tig></langSet><langSet xml:lang="de"><tig><term>Begriff Nummer ${i}</term></tig></langSet></termEntry>\n`,
    );
  }
  parts.push('</body></text></martif>\n');
  return parts.join('');
}

describe(`a term base import killed with -9 (${testDialect})`, () => {
  let fixture: WorkerProcessFixture;
  let database: Database;
  let deps: AppDeps;

  beforeAll(async () => {
    fixture = await workerProcessFixture('opentms-tb-kill-');
    ({ database, deps } = fixture);
  });
  afterAll(() => fixture?.close());

  const startWorkerProcess = () => fixture.startWorkerProcess();

  it('keeps the committed batches, and a new worker imports every entry once', async () => {
    const db = database.db;
    const organization = await makeOrganization(db);
    const admin = await makeUser(db, organization, { role: 'ADMIN' });
    const termBase = await db.transaction().execute((trx) =>
      insertTermBase(trx, {
        organizationId: organization.id,
        name: 'Large',
        langs: ['en', 'de'],
        clientId: null,
        businessUnitId: null,
        domainId: null,
        subDomainId: null,
        ownerId: admin.id,
        note: null,
        createdById: admin.id,
        now: new Date().toISOString(),
      }),
    );
    const caller = { organizationId: organization.id, userId: admin.id } as Caller;
    const entries = 40_000;
    const request = await requestTermImport(
      deps,
      caller,
      termBase,
      { filename: 'large.tbx', body: Readable.from([Buffer.from(generatedTbx(entries))]) },
      { duplicates: 'add', strictLangMatching: false },
    );
    const progress = async () =>
      Number(
        (await db.selectFrom('tbTransfers').select('entries').where('asyncRequestId', '=', request.id).executeTakeFirstOrThrow()).entries,
      );
    const concepts = async () =>
      Number(
        (
          await db
            .selectFrom('tbConcepts')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('termBaseId', '=', termBase.id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    const first = await startWorkerProcess();
    await waitFor('the first batches to be committed', async () => (await progress()) >= TERM_IMPORT_BATCH_ENTRIES, 30_000, 5);
    first.child.kill('SIGKILL');
    await withTimeout(first.exited, 10_000, 'the killed worker to exit');
    const kept = await concepts();
    expect(kept).toBeGreaterThanOrEqual(TERM_IMPORT_BATCH_ENTRIES);
    expect(kept).toBeLessThan(entries);
    expect(await progress()).toBe(kept);
    const pending = await db.selectFrom('asyncRequests').select('finishedAt').where('id', '=', request.id).executeTakeFirstOrThrow();
    expect(pending.finishedAt).toBeNull();

    const second = await startWorkerProcess();
    const response = await waitFor(
      'the import to finish in the new worker',
      async () => {
        const row = await db.selectFrom('asyncRequests').select('response').where('id', '=', request.id).executeTakeFirstOrThrow();
        return row.response ? (JSON.parse(row.response) as { errorCode: string | null; acceptedSegmentsCount: number }) : null;
      },
      90_000,
      50,
    );
    expect(response.errorCode).toBeNull();
    expect(response.acceptedSegmentsCount).toBe(2 * entries);
    expect(await concepts()).toBe(entries);
    const terms = await db
      .selectFrom('tbTerms')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.count<number | string>('text').distinct().as('distinct')])
      .where('termBaseId', '=', termBase.id)
      .executeTakeFirstOrThrow();
    expect(Number(terms.n)).toBe(2 * entries);
    expect(Number(terms.distinct)).toBe(2 * entries);
    // The upload is released once the import has finished.
    const transfer = await db.selectFrom('tbTransfers').selectAll().where('asyncRequestId', '=', request.id).executeTakeFirstOrThrow();
    expect(transfer.uploadSha256).toBeNull();
    second.child.kill('SIGTERM');
    expect(await withTimeout(second.exited, 15_000, 'the worker to stop')).toBe(0);
  }, 150_000);
});
