import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobTask } from '../src/modules/translation-workflow/jobs/job-import.task.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { zipOf } from '../src/formats/ooxml-test-helpers.js';
import { readMxliff } from '../src/formats/mxliff.js';
import { streamOf } from '../src/formats/testing.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';
import { waitFor } from './support/wait.js';
import { makeProject } from './support/workflow-factories.js';

/**
 * Issue 18 over HTTP: files of the new formats imported by createJob and a real worker, their
 * segments, and the target file downloaded byte for byte where nothing is translated; a custom
 * file type choosing the rules of an XML file; what a bilingual job file says about its units.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

const DOCUMENT = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;

const FILES: [string, string | (() => Promise<Buffer>), string[]][] = [
  [
    'strings.xml',
    '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="hello">Hello %1$s!</string>\n</resources>\n',
    ['Hello {1}!'],
  ],
  [
    'page.html',
    '<!DOCTYPE html>\n<html lang="en"><body><h1>Title</h1><p>Some <b>bold</b> text.</p></body></html>\n',
    ['Title', 'Some {1>bold<1} text.'],
  ],
  ['README.md', '# Guide\n\nRead **this** first.\n', ['Guide', 'Read {1>this<1} first.']],
  ['en.yml', 'en:\n  greeting: "Hello"\n  farewell: Bye %{name}\n', ['Hello', 'Bye {1}']],
  [
    'messages.po',
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n#, c-format\nmsgid "%d files"\nmsgstr ""\n',
    ['{1} files'],
  ],
  ['movie.srt', '1\n00:00:01,000 --> 00:00:02,000\nHello there.\n', ['Hello there.']],
  ['table.csv', 'key,text\nk1,First row.\n', ['key', 'text', 'k1', 'First row.']],
  [
    'letter.docx',
    () =>
      zipOf([
        [
          '[Content_Types].xml',
          '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        ],
        [
          '_rels/.rels',
          '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
        ],
        ['word/document.xml', DOCUMENT('<w:p><w:r><w:t>Dear reader,</w:t></w:r></w:p><w:p><w:r><w:t>thank you.</w:t></w:r></w:p>')],
      ]),
    ['Dear reader,', 'thank you.'],
  ],
];

describe(`file formats through the import (${testDialect})`, () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let worker: Worker;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    worker = startWorker(t.deps, createTaskRegistry([importJobTask]), { listenConnectionString: null, pollMilliseconds: 20 });
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  async function imported(filename: string, content: string | Buffer, project?: ProjectRow, request: Record<string, unknown> = {}) {
    project ??= await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de'], workflowStepUids: [] });
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs`,
      headers: {
        ...home.headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
        memsource: JSON.stringify({ targetLangs: ['de'], ...request }),
      },
      payload: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    });
    expect(response.statusCode, response.body).toBe(201);
    const jobUid = response.json().jobs[0].uid as string;
    const job = await waitFor(
      `import of ${filename}`,
      async () => {
        const body = (
          await t.inject({ method: 'GET', url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}`, headers: home.headers })
        ).json();
        return body.importStatus.status === 'RUNNING' ? null : body;
      },
      60_000,
    );
    const segments = (
      await t.inject({
        method: 'GET',
        url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}/segments?beginIndex=0&endIndex=999`,
        headers: home.headers,
      })
    ).json();
    return { project, job, jobUid, segments: segments.segments as any[] };
  }

  it.each(FILES)('imports %s into segments and writes it back byte for byte', async (filename, make, expected) => {
    const content = typeof make === 'string' ? Buffer.from(make, 'utf8') : await make();
    const { project, job, jobUid, segments } = await imported(filename, content);
    expect(job.importStatus.status, JSON.stringify(job.importStatus)).toBe('OK');
    expect(segments.map((s) => s.source)).toEqual(expected);
    const target = await t.inject({
      method: 'GET',
      url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}/targetFile`,
      headers: home.headers,
    });
    expect(target.statusCode).toBe(200);
    // Untranslated segments are written with their source: monolingual files come back unchanged.
    if (!filename.endsWith('.po')) expect(target.rawPayload.equals(content)).toBe(true);
  });

  it('lets a custom file type choose the rules of an XML file by its name', async () => {
    const xml = '<?xml version="1.0"?>\n<book><title>Guide</title><meta>internal-id-7</meta><para>First <em>step</em>.</para></book>\n';
    const plain = await imported('guide.xml', xml);
    expect(plain.segments.map((s) => s.source)).toEqual(['Guide', 'internal-id-7', 'First {1>step<1}.']);
    const created = await t.inject({
      method: 'POST',
      url: '/api2/v1/customFileTypes',
      headers: home.headers,
      payload: {
        name: 'Books',
        filenamePattern: '*.book.xml',
        type: 'xml',
        fileImportSettings: {
          xml: { rulesFormat: 'PLAIN', includeElementsPlain: 'title,para', excludeElementsPlain: 'meta', inlineElementsPlain: 'em' },
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const chosen = await imported('guide.book.xml', xml);
    expect(chosen.job.importStatus.status).toBe('OK');
    expect(chosen.segments.map((s) => s.source)).toEqual(['Guide', 'First {1>step<1}.']);
  });

  it('imports with the named import settings or the XML assistant profile createJob names', async () => {
    const xml = '<?xml version="1.0"?>\n<manual><title>Guide</title><note>Internal</note><para>Step one.</para></manual>\n';
    const named = await t.inject({
      method: 'POST',
      url: '/api2/v1/importSettings',
      headers: home.headers,
      payload: {
        name: 'Manuals',
        fileImportSettings: { xml: { rulesFormat: 'PLAIN', includeElementsPlain: 'para', excludeElementsPlain: 'title,note' } },
      },
    });
    expect(named.statusCode, named.body).toBe(201);
    const bySettings = await imported('manual.xml', xml, undefined, { importSettings: { uid: named.json().uid } });
    expect(bySettings.segments.map((s) => s.source)).toEqual(['Step one.']);
    const byProfile = await imported('manual.xml', xml, undefined, { xmlAssistantProfile: { uid: named.json().uid } });
    expect(byProfile.segments.map((s) => s.source)).toEqual(['Step one.']);
  });

  it('keeps what a bilingual job file says about its units (MXLIFF: confirmed, locked, score)', async () => {
    const mxliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:m="http://www.memsource.com/mxlf/2.0" version="1.2">
  <file original="a.txt" source-language="en" target-language="de" m:task-id="T1"><body>
    <group id="0"><trans-unit id="T1:0" m:confirmed="1" m:locked="true" m:score="1.01" m:trans-origin="tm"><source>Hello.</source><target>Hallo.</target></trans-unit></group>
    <group id="1"><trans-unit id="T1:1" m:confirmed="0"><source>Bye.</source><target/></trans-unit></group>
  </body></file>
</xliff>
`;
    const { project, jobUid, job, segments } = await imported('old-job.mxliff', mxliff);
    expect(job.importStatus.status).toBe('OK');
    expect(segments.map((s) => [s.source, s.translation])).toEqual([
      ['Hello.', 'Hallo.'],
      ['Bye.', null],
    ]);
    const rows = await t.database.db
      .selectFrom('sourceSegments')
      .innerJoin('jobSources', 'jobSources.id', 'sourceSegments.jobSourceId')
      .select(['sourceSegments.idx', 'sourceSegments.unitFacts', 'jobSources.format'])
      .where('jobSources.filename', '=', 'old-job.mxliff')
      .orderBy('sourceSegments.idx')
      .execute();
    expect(rows.map((r) => [r.format, r.unitFacts === null ? null : JSON.parse(r.unitFacts)])).toEqual([
      ['mxliff', { confirmed: true, locked: true, score: 1.01, origin: 'tm' }],
      ['mxliff', null],
    ]);
    // The new job's bilingual file carries that state on.
    const bilingual = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/bilingualFile`,
      headers: home.headers,
      payload: { jobs: [{ uid: jobUid }] },
    });
    const [read] = await readMxliff(streamOf(bilingual.body));
    expect(read!.segments.map((s) => [s.target, s.confirmedLevel, s.locked, s.score, s.origin])).toEqual([
      ['Hallo.', 1, true, 1.01, 'tm'],
      ['', 0, false, 0, null],
    ]);
  });
});
