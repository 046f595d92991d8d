import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import type { AppDeps } from '../src/deps.js';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { readXlsxTm, writeXlsxTm } from '../src/formats/tm-xlsx.js';
import type { Caller } from '../src/http/access.js';
import {
  tmCleanedExportTask,
  tmClearTask,
  tmExportTask,
  tmImportTask,
} from '../src/modules/language-resources/translation-memories/index.js';
import { insertTransMemory } from '../src/modules/language-resources/translation-memories/translation-memories.repository.js';
import { requestTmImport, TM_IMPORT_BATCH_UNITS } from '../src/modules/language-resources/translation-memories/tm-import.task.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { apiToken, loginAs, makeClient, makeOrganization, makeUser, signedInUser } from './factories.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { asyncResponseOf, uploadOctetStream } from './support/async-requests.js';
import { withTimeout } from './support/child-process.js';
import { workerProcessFixture } from './support/worker-process-fixture.js';
import type { WorkerProcessFixture } from './support/worker-process-fixture.js';
import { omegatSchema } from './support/omegat-schema.js';
import { waitFor } from './support/wait.js';

/**
 * TM imports and exports (docs/translation-memory.md, "Import and export"): importTransMemoryV2,
 * exportV2, exportByQueryAsync, downloadSearchResult, exportCleanedTMs, downloadCleanedTM,
 * clearTransMemoryV2, getBackgroundTasks_1, through the API with a worker, and the import killed
 * with -9 in a worker process.
 */

interface AsyncResponse {
  errorCode: string | null;
  errorDesc: string | null;
  warnings: { code: string; message?: string; args?: Record<string, unknown> }[];
  acceptedSegmentsCount?: number | null;
}

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="test" adminlang="en" srclang="en" datatype="plaintext"/>
  <body>
    <tu creationdate="20240102T030405Z" creationid="alice" changedate="20240203T040506Z" changeid="bob">
      <prop type="x-context-prev">Before</prop>
      <prop type="x-context-next">After</prop>
      <tuv xml:lang="en"><seg>Hello <bpt i="1" type="bold">&lt;b&gt;</bpt>world<ept i="1">&lt;/b&gt;</ept></seg></tuv>
      <tuv xml:lang="de-DE"><seg>Hallo <bpt i="1" type="bold">&lt;b&gt;</bpt>Welt<ept i="1">&lt;/b&gt;</ept></seg></tuv>
      <tuv xml:lang="fr"><seg>Bonjour le monde</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en"><seg>Good morning</seg></tuv>
      <tuv xml:lang="de"><seg>Guten Morgen</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en"><seg>Save the file</seg></tuv>
      <tuv xml:lang="de"><seg>Datei speichern</seg></tuv>
      <tuv xml:lang="es"><seg>Guardar el archivo</seg></tuv>
    </tu>
  </body>
</tmx>
`;

/** TMX 1.4b, `lang` for `xml:lang`, `en_US`, ph/it/hi, a language no one knows. */
const LENIENT_TMX = `<?xml version="1.0"?>
<tmx version="1.4b">
  <header creationtool="x" srclang="en_US" datatype="html"/>
  <body>
    <tu>
      <tuv lang="en_US"><seg>Press <ph x="1">&lt;br/&gt;</ph> now <it pos="begin">&lt;i&gt;</it>here <hi type="b">there</hi></seg></tuv>
      <tuv lang="de_DE"><seg>Drücken <ph x="1">&lt;br/&gt;</ph> jetzt <it pos="begin">&lt;i&gt;</it>hier <hi type="b">dort</hi></seg></tuv>
      <tuv lang="xx"><seg>???</seg></tuv>
    </tu>
    <tu>
      <tuv lang="EN-us"><seg>Cancel</seg></tuv>
      <tuv lang="de-de"><seg>Abbrechen</seg></tuv>
    </tu>
  </body>
</tmx>
`;

const XLIFF = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="a.txt" source-language="en" target-language="de" datatype="plaintext">
    <body>
      <trans-unit id="1" resname="greeting"><source>Welcome</source><target state="translated">Willkommen</target></trans-unit>
      <trans-unit id="2"><source>Goodbye</source><target state="needs-translation">Goodbye</target></trans-unit>
      <trans-unit id="3"><source>Open</source><target state="final">Öffnen</target></trans-unit>
      <trans-unit id="4"><source>Close</source></trans-unit>
    </body>
  </file>
</xliff>
`;

function generatedTmx(units: number, tail = '  </body>\n</tmx>\n'): string {
  let body = '';
  for (let i = 0; i < units; i++) {
    body += `    <tu><tuv xml:lang="en"><seg>Sentence number ${i} of the generated file</seg></tuv><tuv xml:lang="de"><seg>Satz Nummer ${i} der erzeugten Datei</seg></tuv></tu>\n`;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="gen" creationtoolversion="1" segtype="sentence" o-tmf="gen" adminlang="en" srclang="en" datatype="plaintext"/>\n  <body>\n${body}${tail}`;
}

async function xlsxBuffer(rows: { en: string; de?: string; fr?: string }[]): Promise<Buffer> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const units = rows.map((row) => ({
    sourceLang: 'en',
    variants: [
      { lang: 'en', text: row.en, tags: [] },
      ...(row.de ? [{ lang: 'de', text: row.de, tags: [] }] : []),
      ...(row.fr ? [{ lang: 'fr', text: row.fr, tags: [] }] : []),
    ],
  }));
  await writeXlsxTm(output, units, { sourceLang: 'en', targetLangs: ['de', 'fr'] });
  return Buffer.concat(chunks);
}

/** OmegaT's jar ships tmx14.xsd (test/support/omegat-schema.ts). */
const schema = omegatSchema('schemas/tmx14.xsd', 'the TMX 1.4 schema');
const hasUnzip = spawnSync('unzip', ['-v']).status === 0;

describe(`translation memory imports and exports (${testDialect})`, () => {
  let t: TestApp;
  let worker: Worker;
  let headers: Record<string, string>;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    organizationId = admin.organization.id;
    worker = startWorker(t.deps, createTaskRegistry([tmImportTask, tmExportTask, tmCleanedExportTask, tmClearTask]), {
      listenConnectionString: null,
      pollMilliseconds: 20,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
    schema.dispose();
  });

  async function createTm(name: string, targetLangs = ['de', 'fr'], extra: Record<string, unknown> = {}, as = headers): Promise<string> {
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v1/transMemories',
      headers: as,
      payload: { name, sourceLang: 'en', targetLangs, ...extra },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ uid: string }>().uid;
  }

  function upload(tmUid: string, filename: string, content: string | Buffer, query = '', as = headers) {
    return uploadOctetStream(t, `/api2/v2/transMemories/${tmUid}/import${query}`, as, filename, content);
  }

  const finished = (id: string) => asyncResponseOf<AsyncResponse>(t, headers, id);

  async function importFile(tmUid: string, filename: string, content: string | Buffer, query = ''): Promise<AsyncResponse> {
    const response = await upload(tmUid, filename, content, query);
    expect(response.statusCode, response.body).toBe(202);
    const { asyncRequest } = response.json<{ asyncRequest: { id: string; action: string } }>();
    expect(asyncRequest.action).toBe('IMPORT_TMX');
    return finished(asyncRequest.id);
  }

  async function metadata(tmUid: string) {
    const response = await t.inject({ url: `/api2/v1/transMemories/${tmUid}/metadata?byLanguage=true`, headers });
    expect(response.statusCode).toBe(200);
    return response.json<{
      segmentsCount: number;
      deduplicatedSegmentsCount: number;
      metadataByLanguage: Record<string, { segmentsCount: number }>;
    }>();
  }

  async function exportTm(tmUid: string, body: Record<string, unknown> = {}, as = headers): Promise<string> {
    const response = await t.inject({ method: 'POST', url: `/api2/v2/transMemories/${tmUid}/export`, headers: as, payload: body });
    expect(response.statusCode, response.body).toBe(200);
    const id = response.json<{ asyncRequest: { id: string } }>().asyncRequest.id;
    const outcome = await finished(id);
    expect(outcome.errorCode, outcome.errorDesc ?? '').toBeNull();
    return id;
  }

  async function download(id: string, format = 'TMX', as = headers) {
    const response = await t.inject({ url: `/api2/v1/transMemories/downloadExport/${id}?format=${format}`, headers: as });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  }

  function validateTmx(xml: string): void {
    schema.validate(xml, `export-${Date.now()}.tmx`);
  }

  it('imports a TMX (languages matched, context and stamps kept, others warned), finds it, exports it and imports the export again', async () => {
    const tmUid = await createTm('Round trip');
    const outcome = await importFile(tmUid, 'sample.tmx', TMX);
    expect(outcome.errorCode).toBeNull();
    expect(outcome.acceptedSegmentsCount).toBe(4);
    expect(outcome.warnings).toEqual([expect.objectContaining({ code: 'LanguageSkipped', args: { lang: 'es', count: 1 } })]);
    const counts = await metadata(tmUid);
    expect(counts).toMatchObject({
      segmentsCount: 4,
      deduplicatedSegmentsCount: 3,
      metadataByLanguage: { de: { segmentsCount: 3 }, fr: { segmentsCount: 1 } },
    });

    const search = await t.inject({
      method: 'POST',
      url: `/api2/v1/transMemories/${tmUid}/search`,
      headers,
      payload: { query: 'Hello {1>world<1}', sourceLang: 'en', targetLangs: ['de'], previousSegment: 'Before', nextSegment: 'After' },
    });
    expect(search.statusCode).toBe(200);
    const [hit] = search.json<{
      searchResults: { score: number; translations: { text: string; createdAt: number; modifiedAt: number; createdBy: unknown }[] }[];
    }>().searchResults;
    expect(hit!.score).toBe(1.01);
    expect(hit!.translations[0]).toMatchObject({
      text: 'Hallo {1>Welt<1}',
      createdAt: Date.parse('2024-01-02T03:04:05Z'),
      modifiedAt: Date.parse('2024-02-03T04:05:06Z'),
      createdBy: null,
    });

    const exportId = await exportTm(tmUid);
    const file = await download(exportId);
    expect(file.headers['content-disposition']).toContain('Round%20trip.tmx');
    const xml = file.body;
    expect(xml).toContain('<prop type="x-context-prev">Before</prop>');
    expect(xml).toContain('creationdate="20240102T030405Z"');
    // stripNativeCodes (the default): the tag stays, its native code does not.
    expect(xml).toContain('<seg>Hello <bpt i="1" x="1" type="bold"/>world<ept i="1"/></seg>');
    expect(xml.match(/<tu /g)).toHaveLength(4);
    if (schema.xsd) validateTmx(xml);
    else console.warn(`export not checked against the TMX 1.4 schema: ${schema.missing} is missing`);

    const copyUid = await createTm('Round trip copy');
    const again = await importFile(copyUid, 'export.tmx', xml);
    expect(again.acceptedSegmentsCount).toBe(4);
    expect(await metadata(copyUid)).toEqual(counts);

    // The last background task of the TM is its export.
    const last = await t.inject({ url: `/api2/v1/transMemories/${tmUid}/lastBackgroundTask`, headers });
    expect(last.statusCode).toBe(200);
    expect(last.json()).toMatchObject({
      status: 'OK',
      asyncRequest: { action: 'EXPORT_TMX' },
      metadata: { segmentsCount: 4 },
      lastTaskString: 'EXPORT_TMX: 4 units',
    });
  });

  it.skipIf(schema.missing !== null)(
    `the export of tags, notes and every language validates against OmegaT's tmx14.xsd${schema.missing ? ` — skipped: ${schema.missing} is missing` : ''}`,
    async () => {
      const tmUid = await createTm('Schema', ['de_de', 'fr', 'sr_latn_rs']);
      await importFile(tmUid, 'lenient.tmx', LENIENT_TMX);
      await t.inject({
        method: 'POST',
        url: `/api2/v1/transMemories/${tmUid}/segments`,
        headers,
        payload: { targetLang: 'sr_latn_rs', sourceSegment: 'A & B < C {1}', targetSegment: 'A & B < C {1}', previousSourceSegment: '"x"' },
      });
      validateTmx((await download(await exportTm(tmUid))).body);
    },
  );

  it('reads TMX leniently: 1.4b, lang, en_US, ph/it/hi; an unknown language is a warning; strictLangMatching keeps en_us apart from en', async () => {
    const tmUid = await createTm('Lenient');
    const outcome = await importFile(tmUid, 'lenient.TMX', LENIENT_TMX);
    expect(outcome.errorCode).toBeNull();
    expect(outcome.acceptedSegmentsCount).toBe(2);
    expect(outcome.warnings.some((w) => w.code === 'FileWarning' && /xx/.test(w.message ?? ''))).toBe(true);
    const search = await t.inject({
      method: 'POST',
      url: `/api2/v1/transMemories/${tmUid}/wildCardSearch`,
      headers,
      payload: { query: 'Press*', sourceLang: 'en' },
    });
    const [hit] = search.json<{
      searchResults: { source: { text: string; tagMetadata: unknown[] }; translations: { text: string; lang: string }[] }[];
    }>().searchResults;
    expect(hit!.source.text).toMatch(/^Press \{1\} now \{2\}here \{3>there<3\}$/);
    expect(hit!.source.tagMetadata).toHaveLength(4);
    expect(hit!.translations[0]!.lang).toBe('de');

    // Strict: the file's en_US is not the TM's en, nor its de_DE the TM's de.
    const strictUid = await createTm('Strict');
    const strict = await importFile(strictUid, 'lenient.tmx', LENIENT_TMX, '?strictLangMatching=true');
    expect(strict.acceptedSegmentsCount).toBe(0);
    expect(strict.warnings.some((w) => w.code === 'SourceMissing')).toBe(true);
    // ... while a TM in en_us and de_de takes it, and the other way round a file's `de` goes to the TM's de_de.
    const regionalUid = await t
      .inject({
        method: 'POST',
        url: '/api2/v1/transMemories',
        headers,
        payload: { name: 'Regional', sourceLang: 'en_us', targetLangs: ['de_de'] },
      })
      .then((r) => r.json<{ uid: string }>().uid);
    expect((await importFile(regionalUid, 'lenient.tmx', LENIENT_TMX, '?strictLangMatching=true')).acceptedSegmentsCount).toBe(2);
    expect((await importFile(regionalUid, 'sample.tmx', TMX, '?strictLangMatching=true')).acceptedSegmentsCount).toBe(0);
    expect((await importFile(regionalUid, 'sample.tmx', TMX)).acceptedSegmentsCount).toBe(3);
  });

  it('keeps the native codes of tags with stripNativeCodes=false', async () => {
    const tmUid = await createTm('Native codes');
    await importFile(tmUid, 'sample.tmx', TMX, '?stripNativeCodes=false');
    const xml = (await download(await exportTm(tmUid))).body;
    expect(xml).toContain('<seg>Hello <bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>world<ept i="1">&lt;/b&gt;</ept></seg>');
  });

  it('imports XLIFF 1.2 (targets that are no translation yet left out, the resname as key) and XLSX', async () => {
    const tmUid = await createTm('Bilingual');
    const xliff = await importFile(tmUid, 'job.mxliff', XLIFF);
    expect(xliff.errorCode).toBeNull();
    expect(xliff.acceptedSegmentsCount).toBe(2);
    expect(xliff.warnings).toEqual([expect.objectContaining({ code: 'NotTranslated' })]);
    const xlsx = await importFile(
      tmUid,
      'sheet.xlsx',
      await xlsxBuffer([
        { en: 'One', de: 'Eins', fr: 'Un' },
        { en: 'Two', de: 'Zwei' },
      ]),
    );
    expect(xlsx.errorCode, xlsx.errorDesc ?? '').toBeNull();
    expect(xlsx.acceptedSegmentsCount).toBe(3);
    expect(await metadata(tmUid)).toMatchObject({
      segmentsCount: 5,
      metadataByLanguage: { de: { segmentsCount: 4 }, fr: { segmentsCount: 1 } },
    });
    const welcome = await t.inject({
      method: 'POST',
      url: `/api2/v1/transMemories/${tmUid}/wildCardSearch`,
      headers,
      payload: { query: 'Welcome', sourceLang: 'en' },
    });
    expect(welcome.json().searchResults[0].translations[0]).toMatchObject({ text: 'Willkommen', key: 'greeting' });
  });

  it('exports as XLSX (converted from the export as it is sent)', async () => {
    const tmUid = await createTm('Spreadsheet');
    await importFile(tmUid, 'sample.tmx', TMX);
    const id = await exportTm(tmUid, { exportTargetLangs: ['de'] });
    const file = await download(id, 'XLSX&fields=TEXT&fields=PREVIOUS_SEGMENT');
    expect(file.headers['content-disposition']).toContain('.xlsx');
    const units = [];
    for await (const batch of readXlsxTm(Readable.from([file.rawPayload]), { sourceLang: 'en' })) units.push(...batch);
    expect(units).toHaveLength(3);
    expect(units.find((u) => u.variants[0]!.text === 'Good morning')!.variants[1]).toMatchObject({ lang: 'de', text: 'Guten Morgen' });
    expect(units.find((u) => u.variants[0]!.text.startsWith('Hello'))!.contextPrev).toBe('Before');
  });

  it('exports by query: wildcards over source or target in the query languages, dates, creator, file name', async () => {
    const tmUid = await createTm('By query');
    await importFile(tmUid, 'sample.tmx', TMX);
    const run = async (body: Record<string, unknown>) => {
      const response = await t.inject({
        method: 'POST',
        url: `/api2/v1/transMemories/${tmUid}/exportByQueryAsync`,
        headers,
        payload: { exportTargetLangs: [], queryLangs: ['en'], queries: [], ...body },
      });
      expect(response.statusCode, response.body).toBe(200);
      const json = response.json<{ asyncRequest: { id: string; action: string }; asyncExport: { queries: unknown[] } }>();
      expect(json.asyncRequest.action).toBe('EXPORT_TMX_BY_QUERY');
      const outcome = await finished(json.asyncRequest.id);
      expect(outcome.errorCode).toBeNull();
      const xml = (await download(json.asyncRequest.id)).body;
      return [...xml.matchAll(/<tuv xml:lang="en">\s*<seg>([^<]*)/g)].map((m) => m[1]).sort();
    };
    expect(await run({ queries: ['good*', 'save the ???e'] })).toEqual(['Good morning', 'Save the file']);
    expect(await run({ queries: ['*speichern'], queryLangs: ['de'] })).toEqual(['Save the file']);
    expect(await run({ queries: ['*speichern'] })).toEqual([]);
    expect(await run({ queries: ['Bonjour*'], queryLangs: ['fr'], exportTargetLangs: ['fr'] })).toEqual(['Hello ']);
    expect(await run({ createdAtMax: '2024-12-31T00:00:00Z' })).toEqual(['Hello ', 'Hello ']);
    expect(await run({ filename: 'nope.txt' })).toEqual([]);
    const missingUser = await t.inject({
      method: 'POST',
      url: `/api2/v1/transMemories/${tmUid}/exportByQueryAsync`,
      headers,
      payload: { exportTargetLangs: [], queryLangs: ['en'], queries: [], createdBy: { id: 'nobody' } },
    });
    expect(missingUser.statusCode).toBe(400);
  });

  it('a malformed file fails the request with a readable error and keeps the batches before it; a rerun adds no duplicates', async () => {
    const tmUid = await createTm('Malformed');
    const units = TM_IMPORT_BATCH_UNITS * 2 + 500;
    const broken = generatedTmx(units, '    <tu><tuv xml:lang="en"><seg>x</seg></tuv></oops>\n');
    const outcome = await importFile(tmUid, 'broken.tmx', broken);
    expect(outcome.errorCode).toBe('ImportFailed');
    expect(outcome.errorDesc).toMatch(/broken\.tmx: .*line \d+/);
    const kept = (await metadata(tmUid)).segmentsCount;
    expect(kept).toBeGreaterThanOrEqual(TM_IMPORT_BATCH_UNITS);
    expect(kept % TM_IMPORT_BATCH_UNITS).toBe(0);
    expect(outcome.errorDesc).toContain(`${kept} units read before the error were imported`);
    const last = await t.inject({ url: `/api2/v1/transMemories/${tmUid}/lastBackgroundTask`, headers });
    expect(last.json()).toMatchObject({ status: 'ERROR', lastTaskError: outcome.errorDesc });

    const whole = generatedTmx(units);
    expect((await importFile(tmUid, 'whole.tmx', whole)).acceptedSegmentsCount).toBe(units);
    const first = await metadata(tmUid);
    expect(first.segmentsCount).toBe(units);
    expect((await importFile(tmUid, 'whole.tmx', whole)).acceptedSegmentsCount).toBe(units);
    expect(await metadata(tmUid)).toEqual(first);
  });

  it('refuses a file of another kind with 400 before storing anything or recording a request', async () => {
    const tmUid = await createTm('Refusals');
    const before = await t.database.db
      .selectFrom('asyncRequests')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const response = await upload(tmUid, 'notes.docx', 'PK...');
    expect(response.statusCode).toBe(400);
    expect(response.json().errorDescription).toContain('notes.docx');
    const after = await t.database.db
      .selectFrom('asyncRequests')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const files = await t.database.db.selectFrom('storedFiles').select('sha256').execute();
    const sha = await t.deps.blobs.put('PK...');
    expect(files.map((f) => f.sha256)).not.toContain(sha.sha256);
    const noName = await t.inject({
      method: 'POST',
      url: `/api2/v2/transMemories/${tmUid}/import`,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: TMX,
    });
    expect(noName.statusCode).toBe(400);
  });

  it('clears a TM in the background (v2) and shows it as the last background task', async () => {
    const tmUid = await createTm('Clear');
    await importFile(tmUid, 'sample.tmx', TMX);
    const response = await t.inject({ method: 'DELETE', url: `/api2/v2/transMemories/${tmUid}/segments`, headers });
    expect(response.statusCode).toBe(202);
    const { asyncRequest } = response.json<{ asyncRequest: { id: string; action: string } }>();
    expect(asyncRequest.action).toBe('CLEAR_TM');
    expect((await finished(asyncRequest.id)).errorCode).toBeNull();
    expect((await metadata(tmUid)).segmentsCount).toBe(0);
    const last = await t.inject({ url: `/api2/v1/transMemories/${tmUid}/lastBackgroundTask`, headers });
    expect(last.json()).toMatchObject({
      status: 'OK',
      asyncRequest: { id: asyncRequest.id, action: 'CLEAR_TM' },
      metadata: { segmentsCount: 0 },
    });
    const fresh = await createTm('Never touched');
    expect((await t.inject({ url: `/api2/v1/transMemories/${fresh}/lastBackgroundTask`, headers })).json()).toMatchObject({
      status: 'NONE',
      asyncRequest: null,
    });
  });

  it.skipIf(!hasUnzip)(`extracts cleaned TMs as TSV and TXT in a ZIP${hasUnzip ? '' : ' — skipped: unzip is missing'}`, async () => {
    const tmUid = await createTm('Cleaned');
    await importFile(tmUid, 'sample.tmx', TMX);
    await t.inject({
      method: 'POST',
      url: `/api2/v1/transMemories/${tmUid}/segments`,
      headers,
      payload: { targetLang: 'de', sourceSegment: 'Tab\there', targetSegment: 'Ein sehr, sehr, sehr langer Satz mit Tab\tund so' },
    });
    const extract = async (body: Record<string, unknown>) => {
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v1/transMemories/extractCleaned',
        headers,
        payload: { uids: [tmUid], ...body },
      });
      expect(response.statusCode, response.body).toBe(202);
      const { asyncRequest } = response.json<{ asyncRequest: { id: string; action: string } }>();
      expect(asyncRequest.action).toBe('EXTRACT_CLEANED_TMS');
      expect((await finished(asyncRequest.id)).errorCode).toBeNull();
      const file = await t.inject({ url: `/api2/v1/transMemories/downloadCleaned/${asyncRequest.id}`, headers });
      expect(file.statusCode).toBe(200);
      const dir = mkdtempSync(join(tmpdir(), 'cleaned-'));
      try {
        writeFileSync(join(dir, 'c.zip'), file.rawPayload);
        const read = (entry: string) => execFileSync('unzip', ['-p', join(dir, 'c.zip'), entry], { encoding: 'utf8' });
        const names = execFileSync('unzip', ['-Z1', join(dir, 'c.zip')], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .sort();
        return { names, read };
      } finally {
        setTimeout(() => rmSync(dir, { recursive: true, force: true }), 1000);
      }
    };
    const tsv = await extract({ outputFormat: 'TSV', targetLangs: ['de'] });
    expect(tsv.names).toEqual(['Cleaned_en_de.tsv']);
    expect(tsv.read('Cleaned_en_de.tsv').split('\n').filter(Boolean).sort()).toEqual(
      [
        'Good morning\tGuten Morgen',
        'Hello world\tHallo Welt',
        'Save the file\tDatei speichern',
        'Tab\\there\tEin sehr, sehr, sehr langer Satz mit Tab\\tund so',
      ].sort(),
    );
    const txt = await extract({ outputFormat: 'TXT', preserveRatio: 0.5 });
    expect(txt.names).toEqual(['Cleaned_en_de.de.txt', 'Cleaned_en_de.en.txt', 'Cleaned_en_fr.en.txt', 'Cleaned_en_fr.fr.txt']);
    // The long translation of "Tab\there" is more than twice its source's length: left out.
    expect(txt.read('Cleaned_en_de.en.txt').split('\n').filter(Boolean)).toHaveLength(3);
    expect(txt.read('Cleaned_en_de.de.txt').split('\n').filter(Boolean)).toHaveLength(3);
    expect(txt.read('Cleaned_en_fr.fr.txt')).toBe('Bonjour le monde\n');
  });

  it('access: a linguist is refused, another organization sees nothing, a guest exports the TMs of the guest’s client', async () => {
    const tmUid = await createTm('Guarded');
    await importFile(tmUid, 'sample.tmx', TMX);
    const exportId = await exportTm(tmUid);
    const linguist = apiToken(await loginAs(t, await makeUser(t.database.db, { id: organizationId } as never, { role: 'LINGUIST' })));
    expect((await upload(tmUid, 'a.tmx', TMX, '', linguist)).statusCode).toBe(403);
    expect(
      (await t.inject({ method: 'POST', url: `/api2/v2/transMemories/${tmUid}/export`, headers: linguist, payload: {} })).statusCode,
    ).toBe(403);

    const other = await signedInUser(t, 'ADMIN');
    expect((await upload(tmUid, 'a.tmx', TMX, '', other.headers)).statusCode).toBe(404);
    expect(
      (await t.inject({ method: 'POST', url: `/api2/v2/transMemories/${tmUid}/export`, headers: other.headers, payload: {} })).statusCode,
    ).toBe(404);
    expect((await t.inject({ url: `/api2/v1/transMemories/downloadExport/${exportId}`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.inject({ url: `/api2/v1/transMemories/${tmUid}/lastBackgroundTask`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.inject({ method: 'DELETE', url: `/api2/v2/transMemories/${tmUid}/segments`, headers: other.headers })).statusCode).toBe(
      404,
    );
    const cleaned = await t.inject({
      method: 'POST',
      url: '/api2/v1/transMemories/extractCleaned',
      headers: other.headers,
      payload: { uids: [tmUid] },
    });
    expect(cleaned.statusCode).toBe(404);

    const organization = await t.database.db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', organizationId)
      .executeTakeFirstOrThrow();
    const client = await makeClient(t.database.db, organization);
    const guest = await makeUser(t.database.db, organization, { role: 'GUEST' });
    await t.database.db
      .updateTable('users')
      .set({ guestClientId: client.id, roleSettings: JSON.stringify(parseRoleSettings('GUEST', '{}')) })
      .where('id', '=', guest.id)
      .execute();
    const guestHeaders = apiToken(await loginAs(t, guest));
    const clientTm = await createTm('Of the client', ['de'], { client: { id: client.uid } });
    await importFile(clientTm, 'sample.tmx', TMX);
    const guestExport = await exportTm(clientTm, {}, guestHeaders);
    expect((await download(guestExport, 'TMX', guestHeaders)).body).toContain('Guten Morgen');
    // Another TM (no client) and its export: not there for the guest.
    expect(
      (await t.inject({ method: 'POST', url: `/api2/v2/transMemories/${tmUid}/export`, headers: guestHeaders, payload: {} })).statusCode,
    ).toBe(404);
    expect((await t.inject({ url: `/api2/v1/transMemories/downloadExport/${exportId}`, headers: guestHeaders })).statusCode).toBe(404);
    // A guest does not import.
    expect((await upload(clientTm, 'a.tmx', TMX, '', guestHeaders)).statusCode).toBe(403);
  });
});

/**
 * The import in a worker process of its own (test/support/worker-process.ts), killed with -9
 * half way: the batches committed stay, and the next worker finishes the task with no duplicate.
 */
describe(`a TM import killed with -9 (${testDialect})`, () => {
  let fixture: WorkerProcessFixture;
  let database: Database;
  let deps: AppDeps;

  beforeAll(async () => {
    fixture = await workerProcessFixture('opentms-tm-kill-');
    ({ database, deps } = fixture);
  });
  afterAll(() => fixture?.close());

  const startWorkerProcess = () => fixture.startWorkerProcess();

  it('keeps the committed batches, and a new worker finishes the import with every unit once', async () => {
    const db = database.db;
    const organization = await makeOrganization(db);
    const admin = await makeUser(db, organization, { role: 'ADMIN' });
    const tm = await insertTransMemory(db, {
      organizationId: organization.id,
      name: 'Large',
      sourceLang: 'en',
      targetLangs: ['de'],
      clientId: null,
      businessUnitId: null,
      domainId: null,
      subDomainId: null,
      note: null,
      createdById: admin.id,
      now: new Date().toISOString(),
    });
    const caller = { organizationId: organization.id, userId: admin.id } as Caller;
    const units = 50_000;
    const request = await requestTmImport(
      deps,
      caller,
      tm,
      { filename: 'large.tmx', body: Readable.from([Buffer.from(generatedTmx(units))]) },
      { strictLangMatching: false, stripNativeCodes: true },
    );
    const count = async () => {
      const { rows } = await sql<{ n: string | number }>`select count(*) as n from tm_units where tm_id = ${tm.id}`.execute(db);
      return Number(rows[0]!.n);
    };

    const first = await startWorkerProcess();
    await waitFor('the first batches to be committed', async () => (await count()) >= TM_IMPORT_BATCH_UNITS, 30_000, 5);
    first.child.kill('SIGKILL');
    await withTimeout(first.exited, 10_000, 'the killed worker to exit');
    const kept = await count();
    expect(kept).toBeGreaterThanOrEqual(TM_IMPORT_BATCH_UNITS);
    expect(kept % TM_IMPORT_BATCH_UNITS).toBe(0);
    expect(kept).toBeLessThan(units);
    const pending = await db.selectFrom('asyncRequests').select('finishedAt').where('id', '=', request.id).executeTakeFirstOrThrow();
    expect(pending.finishedAt).toBeNull();

    const second = await startWorkerProcess();
    const response = await waitFor(
      'the import to finish in the new worker',
      async () => {
        const row = await db.selectFrom('asyncRequests').select('response').where('id', '=', request.id).executeTakeFirstOrThrow();
        return row.response ? (JSON.parse(row.response) as AsyncResponse) : null;
      },
      90_000,
      50,
    );
    expect(response.errorCode).toBeNull();
    expect(response.acceptedSegmentsCount).toBe(units);
    expect(await count()).toBe(units);
    const { rows } = await sql<{
      n: string | number;
    }>`select count(distinct source_hash) as n from tm_units where tm_id = ${tm.id}`.execute(db);
    expect(Number(rows[0]!.n)).toBe(units);
    // The upload is released once the import has finished.
    const transfer = await db.selectFrom('tmTransfers').selectAll().where('asyncRequestId', '=', request.id).executeTakeFirstOrThrow();
    expect(transfer.uploadSha256).toBeNull();
    second.child.kill('SIGTERM');
    expect(await withTimeout(second.exited, 15_000, 'the worker to stop')).toBe(0);
  }, 150_000);
});
