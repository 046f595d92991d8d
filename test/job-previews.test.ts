import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_FILTERS } from '../src/formats/index.js';
import { libreOfficeMissing, pdfText, zipOf } from '../src/formats/ooxml-test-helpers.js';
import { importJobTask } from '../src/modules/translation-workflow/jobs/index.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { OfficeConverter } from '../src/modules/translation-workflow/job-previews/office-pdf.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { signedInUser } from './factories.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { multipart } from './support/upload-bodies.js';
import { waitFor } from './support/wait.js';
import { makeProject } from './support/workflow-factories.js';

/** Job previews (docs/previews.md), on jobs created and imported through the API. */

const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A minimal DOCX with one paragraph per text. */
function docx(paragraphs: string[]): Promise<Buffer> {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`).join('');
  return zipOf([
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ],
    [
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ],
    [
      'word/document.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${NS}><w:body>${body}<w:sectPr/></w:body></w:document>`,
    ],
  ]);
}

/** A ZIP whose entry `xx/evil.html` is renamed `../evil.html` in its headers (yazl refuses to write such names). */
async function traversalZip(): Promise<Buffer> {
  const zip = await zipOf([
    ['index.html', '<p>ok</p>'],
    ['xx/evil.html', '<p>evil</p>'],
  ]);
  const from = Buffer.from('xx/evil.html');
  const to = Buffer.from('../evil.html');
  for (let at = zip.indexOf(from); at >= 0; at = zip.indexOf(from, at + 1)) to.copy(zip, at);
  return zip;
}

describe(`job previews (${testDialect})`, () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Awaited<ReturnType<typeof signedInUser>>;
  let worker: Worker;
  let project: ProjectRow;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    linguist = await signedInUser(t, 'LINGUIST', home.organization);
    worker = startWorker(t.deps, createTaskRegistry([importJobTask]), { listenConnectionString: null });
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de'] });
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  /** Creates a job from `content` named `filename` and waits for its import; 'ERROR' imports fail the test with their message. */
  async function createJob(filename: string, content: string | Buffer) {
    const created = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs`,
      headers: {
        ...home.headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
        memsource: JSON.stringify({ targetLangs: ['de'] }),
      },
      payload: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    });
    expect(created.statusCode, created.body).toBe(201);
    const uid = created.json().jobs[0].uid as string;
    const db = t.database.db;
    const job = await db.selectFrom('jobs').select(['id', 'jobSourceId']).where('uid', '=', uid).executeTakeFirstOrThrow();
    const source = await waitFor(
      `the import of ${filename}`,
      async () => {
        const row = await db
          .selectFrom('jobSources')
          .select(['importStatus', 'importError'])
          .where('id', '=', job.jobSourceId)
          .executeTakeFirstOrThrow();
        return row.importStatus === 'RUNNING' ? null : row;
      },
      30_000,
      50,
    );
    expect(source.importError, `import of ${filename}`).toBeNull();
    const segments = await db
      .selectFrom('sourceSegments')
      .select(['idx', 'source'])
      .where('jobSourceId', '=', job.jobSourceId)
      .orderBy('idx')
      .execute();
    return { uid, id: job.id, segments: segments.map((s) => ({ idx: Number(s.idx), source: s.source })) };
  }

  /** Writes translations: source text -> target text. */
  async function translate(job: Awaited<ReturnType<typeof createJob>>, targets: Record<string, string>) {
    for (const segment of job.segments) {
      const target = targets[segment.source];
      if (target === undefined) continue;
      await t.database.db
        .insertInto('jobSegments')
        .values({
          jobId: job.id,
          idx: segment.idx,
          target,
          modifiedAt: t.clock().toISOString(),
          modifiedById: home.user.id,
          origin: null,
          originScore: null,
          originResource: null,
          mtWarnings: null,
        })
        .execute();
    }
  }

  const preview = (jobUid: string, headers = home.headers) =>
    t.inject({ method: 'GET', url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}/preview`, headers });

  it('previews an HTML job as the translated document without scripts, under a strict CSP', async () => {
    const job = await createJob(
      'page.html',
      '<!DOCTYPE html><html><head><title>Page</title><script>alert(1)</script></head><body><p>Hello world.</p><p onclick="steal()">Second paragraph.</p></body></html>',
    );
    await translate(job, { 'Hello world.': 'Hallo Welt.', 'Second paragraph.': 'Zweiter Absatz.' });
    const response = await preview(job.uid);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''page-de-preview.html");
    expect(response.body).toContain('<p>Hallo Welt.</p>');
    expect(response.body).toContain('<p>Zweiter Absatz.</p>');
    expect(response.body).not.toMatch(/<script|onclick|alert/);
  });

  it('previews a Markdown job rendered as HTML', async () => {
    const job = await createJob('readme.md', '# Title\n\nHello *world*.\n\n<script>alert(1)</script>\n');
    await translate(
      job,
      Object.fromEntries(job.segments.map((s) => [s.source, s.source.replace('Title', 'Titel').replace('Hello', 'Hallo')])),
    );
    const response = await preview(job.uid);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<h1>Titel</h1>');
    expect(response.body).toContain('Hallo <em>world</em>.');
    expect(response.body).not.toContain('<script');
  });

  it('previews a PO job as a listing of its units with their translations', async () => {
    const job = await createJob(
      'messages.po',
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello <b>world</b>"\nmsgstr ""\n\nmsgid "Untouched"\nmsgstr ""\n',
    );
    await translate(job, { 'Hello <b>world</b>': 'Hallo <b>Welt</b>' });
    const response = await preview(job.uid);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain('sandbox');
    expect(response.body).toContain('<td class="t" lang="de">Hallo &lt;b&gt;Welt&lt;/b&gt;</td>');
    expect(response.body).toMatch(/<tr class="u">.*Untouched/);
    const urls = await t.inject({
      method: 'GET',
      url: `/api2/v1/projects/${project.uid}/jobs/${job.uid}/previewUrl`,
      headers: home.headers,
    });
    expect(urls.json()).toEqual({
      previews: [{ type: 'ORIGINAL', url: expect.stringMatching(new RegExp(`/api2/v1/projects/${project.uid}/jobs/${job.uid}/preview$`)) }],
    });
  });

  // Needs LibreOffice, and the DOCX filter among the import's filters.
  it.skipIf(libreOfficeMissing() !== null || !FORMAT_FILTERS.some((f) => f.name === 'docx'))(
    'previews a DOCX job as a PDF made by LibreOffice',
    async () => {
      const job = await createJob('letter.docx', await docx(['Hello world.', 'Kind regards.']));
      await translate(job, { 'Hello world.': 'Hallo Welt.', 'Kind regards.': 'Mit freundlichen Grüßen.' });
      const response = await preview(job.uid);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toContain("filename*=UTF-8''letter-de-preview.pdf");
      const pdf = response.rawPayload;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(pdf);
      if (text !== null) expect(text).toContain('Hallo Welt.');
      const urls = await t.inject({
        method: 'GET',
        url: `/api2/v1/projects/${project.uid}/jobs/${job.uid}/previewUrl`,
        headers: home.headers,
      });
      expect(urls.json().previews).toEqual([{ type: 'PDF', url: expect.stringContaining(`/jobs/${job.uid}/preview`) }]);
    },
    180_000,
  );

  it.skipIf(libreOfficeMissing() !== null)(
    'converts Office documents one at a time, in a private profile',
    async () => {
      const converter = new OfficeConverter();
      const bytes = await docx(['Hallo Welt.']);
      const pdfs = await Promise.all(
        [0, 1].map(() => converter.convert('docx', (path) => import('node:fs/promises').then((fs) => fs.writeFile(path, bytes)))),
      );
      for (const pdf of pdfs) {
        const chunks: Buffer[] = [];
        for await (const chunk of pdf.stream()) chunks.push(chunk as Buffer);
        const content = Buffer.concat(chunks);
        expect(content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(content.length).toBe(pdf.size);
        const text = pdfText(content);
        if (text !== null) expect(text).toContain('Hallo Welt.');
        await pdf.dispose();
      }
    },
    240_000,
  );

  it('says clearly when LibreOffice is not installed', async () => {
    const converter = new OfficeConverter({ commands: ['opentms-no-such-soffice'] });
    await expect(converter.convert('docx', async () => undefined)).rejects.toThrow('LibreOffice is not installed');
    expect(converter.knownMissing).toBe(true);
  });

  it('lists the target-file warnings: a dropped tag pair, characters the encoding lacks', async () => {
    const xliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="ui" source-language="en" target-language="de" datatype="plaintext"><body>
<trans-unit id="click"><source>Click <g id="1">here</g> now.</source></trans-unit>
<trans-unit id="fine"><source>Fine <g id="2">here</g>.</source></trans-unit>
</body></file></xliff>`;
    const job = await createJob('ui.xlf', xliff);
    await translate(job, { 'Click {1>here<1} now.': 'Jetzt hier klicken.', 'Fine {1>here<1}.': 'Gut {1>hier<1}.' });
    const warnings = async (jobUid: string) => {
      const response = await t.inject({
        method: 'GET',
        url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}/targetFileWarnings`,
        headers: home.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { warnings: string[] }).warnings;
    };
    expect(await warnings(job.uid)).toEqual([
      'Segment 1: the translation lacks the tag pair {1>…<1} of the source; the target file does not have it.',
    ]);
    // An all-ASCII properties file stays ASCII: the writer escapes the rest as \uXXXX.
    const properties = await createJob('ui.properties', 'size=Size\nok=OK\n');
    await translate(properties, { Size: 'Größe', OK: 'OK' });
    expect(await warnings(properties.uid)).toEqual([
      "Segment 1: “ö” (U+00F6), “ß” (U+00DF) cannot be written in the file's encoding US-ASCII; written as character references.",
    ]);
  });

  it('previews a bilingual file: its translations over the job’s', async () => {
    const job = await createJob('notes.po', 'msgid "Good morning"\nmsgstr ""\n\nmsgid "Good night"\nmsgstr ""\n');
    await translate(job, { 'Good morning': 'Guten Morgen', 'Good night': 'Gute Nacht' });
    const download = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/bilingualFile`,
      headers: home.headers,
      payload: { jobs: [{ uid: job.uid }] },
    });
    expect(download.statusCode, download.body).toBe(200);
    const mxliff = Buffer.from(download.body.replace('Guten Morgen', 'Moin'), 'utf8');
    const octet = { 'content-type': 'application/octet-stream' };

    const bilingual = await t.inject({
      method: 'POST',
      url: '/api2/v1/bilingualFiles/preview',
      headers: { ...home.headers, ...octet },
      payload: mxliff,
    });
    expect(bilingual.statusCode, bilingual.body).toBe(200);
    expect(bilingual.body).toContain('Moin');
    expect(bilingual.body).toContain('Gute Nacht');
    expect(bilingual.body).not.toContain('Guten Morgen');

    const onJob = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${job.uid}/preview`,
      headers: { ...home.headers, ...octet },
      payload: mxliff,
    });
    expect(onJob.statusCode, onJob.body).toBe(200);
    expect(onJob.body).toContain('Moin');
    // Without a body: the job's own translations.
    const plain = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${job.uid}/preview`,
      headers: home.headers,
    });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.body).toContain('Guten Morgen');

    // The file of another job, and a job the caller cannot see: 400.
    const other = await createJob('other.po', 'msgid "Other"\nmsgstr ""\n');
    const wrongJob = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${other.uid}/preview`,
      headers: { ...home.headers, ...octet },
      payload: mxliff,
    });
    expect(wrongJob.statusCode).toBe(400);
    expect(wrongJob.json().errorCode).toBe('BilingualFileMismatch');
    const unseen = await t.inject({
      method: 'POST',
      url: '/api2/v1/bilingualFiles/preview',
      headers: { ...linguist.headers, ...octet },
      payload: mxliff,
    });
    expect(unseen.statusCode).toBe(400);
    expect(unseen.json().errorCode).toBe('BilingualFileMismatch');
    const garbage = await t.inject({
      method: 'POST',
      url: '/api2/v1/bilingualFiles/preview',
      headers: { ...home.headers, ...octet },
      payload: Buffer.from('not xml'),
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().errorCode).toBe('BilingualFileUnreadable');
  });

  it('stores a preview package and serves its assets by uid, confined to the package', async () => {
    const job = await createJob('site.po', 'msgid "Site"\nmsgstr ""\n');
    const other = await createJob('site2.po', 'msgid "Site two"\nmsgstr ""\n');
    const zip = await zipOf([
      [
        'index.html',
        '<html><head><link rel="stylesheet" href="css/site.css"></head><body><p>Preview</p><script>alert(1)</script></body></html>',
      ],
      ['css/site.css', 'p { color: red }'],
      ['img/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ]);
    const body = await multipart([
      { name: 'file', filename: 'preview.zip', content: zip, type: 'application/zip' },
      { name: 'json', content: JSON.stringify({ jobs: [{ uid: job.uid }] }), type: 'application/json' },
    ]);
    const uploaded = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobPreviewPackage`,
      headers: { ...home.headers, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const pkg = uploaded.json() as {
      uid: string;
      jobs: { uid: string }[];
      assets: { uid: string; path: string; contentType: string; size: number }[];
    };
    expect(pkg.jobs).toEqual([{ uid: job.uid }]);
    expect(pkg.assets.map((a) => [a.path, a.contentType])).toEqual([
      ['index.html', 'text/html; charset=utf-8'],
      ['css/site.css', 'text/css; charset=utf-8'],
      ['img/logo.png', 'image/png'],
    ]);
    const asset = (path: string) => pkg.assets.find((a) => a.path === path)!.uid;
    const get = (jobUid: string, assetUid: string, headers = home.headers) =>
      t.inject({ method: 'GET', url: `/api2/v1/jobs/${jobUid}/previewPackage/asset/${assetUid}`, headers });

    const html = await get(job.uid, asset('index.html'));
    expect(html.statusCode, html.body).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['x-content-type-options']).toBe('nosniff');
    expect(html.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect(html.body).toContain('<p>Preview</p>');
    const css = await get(job.uid, asset('css/site.css'));
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['content-security-policy']).toBeUndefined();
    expect(css.body).toBe('p { color: red }');
    expect((await get(job.uid, asset('img/logo.png'))).rawPayload).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // Another job, an unknown asset, a path instead of a uid, a linguist who does not see the job: 404.
    expect((await get(other.uid, asset('index.html'))).statusCode).toBe(404);
    expect((await get(job.uid, 'index.html')).statusCode).toBe(404);
    expect((await get(job.uid, '..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
    expect((await get(job.uid, asset('index.html'), linguist.headers)).statusCode).toBe(404);

    // A package with a traversal name is refused whole.
    const evil = await multipart([{ name: 'file', filename: 'evil.zip', content: await traversalZip(), type: 'application/zip' }]);
    const refused = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobPreviewPackage`,
      headers: { ...home.headers, ...evil.headers },
      payload: evil.payload,
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errorCode).toBe('PreviewPackageInvalid');
    expect(refused.json().errorDescription).toContain('..');
    const notZip = await multipart([{ name: 'file', filename: 'x.zip', content: 'not a zip', type: 'application/zip' }]);
    const refusedToo = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobPreviewPackage`,
      headers: { ...home.headers, ...notZip.headers },
      payload: notZip.payload,
    });
    expect(refusedToo.statusCode).toBe(400);
    expect(refusedToo.json().errorCode).toBe('PreviewPackageInvalid');
    const packages = await t.database.db.selectFrom('jobPreviewPackages').select('uid').where('projectId', '=', project.id).execute();
    expect(packages.map((p) => p.uid)).toEqual([pkg.uid]);
  });
});
