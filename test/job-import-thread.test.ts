import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterFor } from '../src/formats/index.js';
import { filterOptionsFromImportSettings } from '../src/formats/import-settings.js';
import { streamOf } from '../src/formats/testing.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import { importJobTask } from '../src/modules/translation-workflow/jobs/job-import.task.js';
import { segmentUnit } from '../src/modules/translation-workflow/jobs/unit-segments.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { sharedThreadPool } from '../src/queue/thread-pool.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { signedInUser } from './factories.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import type { Headers } from './support/api.js';
import { waitFor } from './support/wait.js';
import { makeProject } from './support/workflow-factories.js';

/**
 * Issue 13, "The API stays responsive while heavy work runs": the job import parses, segments
 * and counts in a worker thread (job-import.thread.ts through src/queue/thread-pool.ts) and
 * writes on the main thread. The rows it writes are those the same pure functions give when run
 * here, on this thread, as the import did before: every column of every segment, over several
 * insert batches.
 */

/** Units of every kind the filter and the segmenter treat apart: tags, targets, notes, keys, skipped units, several sentences. */
function xliff(units: number): string {
  const body: string[] = [];
  for (let i = 0; i < units; i++) {
    if (i % 7 === 3) body.push(`<trans-unit id="skip${i}" translate="no"><source>Internal ${i}</source></trans-unit>`);
    else if (i % 5 === 1)
      body.push(
        `<trans-unit id="t${i}" resname="key.${i}"><source>Saved ${i} files.</source><target>${i} Dateien gespeichert.</target></trans-unit>`,
      );
    else
      body.push(
        `<trans-unit id="u${i}"><source>Hello <g id="1">world ${i}</g>. How are <x id="2"/>you? Fine, thanks.</source><note>note ${i}</note></trans-unit>`,
      );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en" target-language="de" datatype="plaintext"><body>
${body.join('\n')}
  </body></file>
</xliff>
`;
}

/** What the import wrote before the thread: filter, segmentation and counting on this thread. */
async function expectedRows(filename: string, bytes: Buffer, language: string) {
  const filter = filterFor(filename, bytes.subarray(0, 4096))!;
  const rows = [];
  for await (const unit of filter.parse(streamOf(bytes, 7_919), filterOptionsFromImportSettings(filter.name, '{}'))) {
    if (!unit.translatable) continue;
    for (const segment of segmentUnit(unit, language)) {
      rows.push({
        unitLocator: segment.unitLocator,
        unitIndex: Number(segment.unitIndex),
        key: segment.key,
        source: segment.source,
        tags: JSON.parse(JSON.stringify(segment.tags)) as unknown,
        gapBefore: segment.gapBefore,
        gapAfter: segment.gapAfter,
        importedTarget: segment.importedTarget,
        note: segment.note,
        words: Math.round(segment.words),
      });
    }
  }
  return rows;
}

describe(`the job import runs in a worker thread (${testDialect})`, () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let headers: Headers;
  let worker: Worker;

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, headers } = await signedInUser(t, 'ADMIN'));
    worker = startWorker(t.deps, createTaskRegistry([importJobTask]), { listenConnectionString: null, pollMilliseconds: 20 });
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  it('writes the same segments, words and totals as the pure functions give on this thread, and the pool ran it', async () => {
    const project = await makeProject(t, organization.id, { targetLangs: ['de'] });
    const content = Buffer.from(xliff(1_800), 'utf8');
    const before = sharedThreadPool().completed;
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs`,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''app.xlf`,
        memsource: JSON.stringify({ targetLangs: ['de'] }),
      },
      payload: content,
    });
    expect(response.statusCode).toBe(201);
    const jobUid = response.json().jobs[0].uid as string;
    const job = await waitFor(
      'the import',
      async () => {
        const body = (await t.inject({ url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}`, headers })).json();
        return body.importStatus.status === 'RUNNING' ? null : body;
      },
      30_000,
    );
    expect(job.importStatus).toEqual({ status: 'OK', errorMessage: null });
    // The parse ran as a call of the thread pool (not on this thread).
    expect(sharedThreadPool().completed - before).toBe(1);

    const expected = await expectedRows('app.xlf', content, 'en');
    // More rows than one insert batch (500), so that batches and their order are covered.
    expect(expected.length).toBeGreaterThan(1_500);
    const source = await t.database.db
      .selectFrom('jobSources')
      .innerJoin('jobs', 'jobs.jobSourceId', 'jobSources.id')
      .select(['jobSources.id', 'jobSources.segmentCount', 'jobSources.wordCount', 'jobSources.format'])
      .where('jobs.uid', '=', jobUid)
      .executeTakeFirstOrThrow();
    const written = await t.database.db
      .selectFrom('sourceSegments')
      .selectAll()
      .where('jobSourceId', '=', source.id)
      .orderBy('idx')
      .execute();
    expect(written.map((row) => Number(row.idx))).toEqual(expected.map((_, i) => i));
    expect(
      written.map((row) => ({
        unitLocator: row.unitLocator,
        unitIndex: Number(row.unitIndex),
        key: row.key,
        source: row.source,
        tags: JSON.parse(row.tags) as unknown,
        gapBefore: row.gapBefore,
        gapAfter: row.gapAfter,
        importedTarget: row.importedTarget,
        note: row.note,
        words: Number(row.words),
      })),
    ).toEqual(expected);
    expect(Number(source.segmentCount)).toBe(expected.length);
    expect(source.format).toBe(filterFor('app.xlf', content)!.name);
    expect(Number(source.wordCount)).toBeGreaterThan(0);
  });

  it("a file its filter cannot read fails the job's import with the filter's message, through the thread", async () => {
    const project = await makeProject(t, organization.id, { targetLangs: ['de'] });
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs`,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''broken.xlf`,
        memsource: JSON.stringify({ targetLangs: ['de'] }),
      },
      payload: Buffer.from('<?xml version="1.0"?><xliff version="1.2"><file><body><trans-unit id="1"><source>never closed', 'utf8'),
    });
    expect(response.statusCode).toBe(201);
    const jobUid = response.json().jobs[0].uid as string;
    const job = await waitFor('the import', async () => {
      const body = (await t.inject({ url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}`, headers })).json();
      return body.importStatus.status === 'RUNNING' ? null : body;
    });
    expect(job.importStatus.status).toBe('ERROR');
    expect(job.importStatus.errorMessage).toBeTruthy();
  });
});
