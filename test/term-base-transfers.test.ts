import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termImportTask } from '../src/modules/language-resources/term-bases/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { uniqueName } from './support/api.js';
import { asyncResponseOf, uploadOctetStream } from './support/async-requests.js';
import { omegatSchema } from './support/omegat-schema.js';

/** Issue 16: term base import and export through the API (docs/terminology.md, "Import and export"). */

/* eslint-disable @typescript-eslint/no-explicit-any */

const schema = omegatSchema('schemas/tbx.xsd', 'the TBX schema');

const TBX = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en">
  <martifHeader><fileDesc><sourceDesc><p>sample</p></sourceDesc></fileDesc></martifHeader>
  <text><body>
    <termEntry id="e1">
      <descrip type="definition">A place that stores files.</descrip>
      <descrip type="subjectField">Computing</descrip>
      <langSet xml:lang="en-US">
        <tig>
          <term>file system</term>
          <termNote type="partOfSpeech">noun</termNote>
          <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
          <note>the disk kind</note>
        </tig>
        <tig><term>filesystem</term></tig>
      </langSet>
      <langSet xml:lang="de"><ntig><termGrp><term>Dateisystem</term><termNote type="grammaticalGender">neuter</termNote></termGrp></ntig></langSet>
      <langSet xml:lang="ja"><tig><term>ファイルシステム</term></tig></langSet>
    </termEntry>
    <termEntry id="e2">
      <langSet xml:lang="en"><tig><term>folder</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig></langSet>
      <langSet xml:lang="de"><tig><term>Ordner</term></tig></langSet>
    </termEntry>
    <termEntry id="e3"><langSet xml:lang="en"></langSet></termEntry>
  </body></text>
</martif>
`;

interface AsyncResponse {
  errorCode: string | null;
  errorDesc: string | null;
  warnings: { code: string; message: string }[];
  acceptedSegmentsCount?: number | null;
}

describe(`term base imports and exports (${testDialect})`, () => {
  let t: TestApp;
  let worker: Worker;
  let headers: Record<string, string>;
  let organization: Awaited<ReturnType<typeof signedInUser>>['organization'];

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    organization = admin.organization;
    worker = startWorker(t.deps, createTaskRegistry([termImportTask]), { listenConnectionString: null, pollMilliseconds: 20 });
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
    schema.dispose();
  });

  async function createTermBase(langs = ['en', 'de']): Promise<string> {
    const response = await t.inject({ method: 'POST', url: '/api2/v1/termBases', headers, payload: { name: uniqueName('TB'), langs } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().uid;
  }
  function upload(uid: string, filename: string, content: string | Buffer, query = '', version = 'v2', as = headers) {
    return uploadOctetStream(t, `/api2/${version}/termBases/${uid}/upload${query}`, as, filename, content);
  }
  const finished = (id: string) => asyncResponseOf<AsyncResponse>(t, headers, id);
  async function importFile(uid: string, filename: string, content: string | Buffer, query = ''): Promise<AsyncResponse> {
    const response = await upload(uid, filename, content, query);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().asyncRequest.action).toBe('IMPORT_TBX');
    return finished(response.json().asyncRequest.id);
  }
  async function get(url: string): Promise<any> {
    const response = await t.inject({ url: `/api2/v1/${url}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }
  async function exportFile(uid: string, query = ''): Promise<{ body: string; raw: Buffer; headers: Record<string, unknown> }> {
    const response = await t.inject({ url: `/api2/v1/termBases/${uid}/export${query}`, headers });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    return { body: response.body, raw: response.rawPayload, headers: response.headers };
  }
  /** Every concept with its terms, without ids and stamps: what a round trip must keep. */
  async function content(uid: string) {
    const { concepts } = await get(`termBases/${uid}/concepts?pageSize=50`);
    const out = [];
    for (const concept of concepts) {
      const { terms } = await get(`termBases/${uid}/concepts/${concept.id}/terms`);
      out.push({
        definition: concept.definition,
        domain: concept.domain?.name,
        note: concept.conceptNote,
        url: concept.url,
        terms: terms.flat().map((term: any) => {
          const rest = { ...term };
          for (const stamp of ['id', 'conceptId', 'createdAt', 'modifiedAt', 'createdBy', 'modifiedBy', 'writable']) delete rest[stamp];
          return rest;
        }),
      });
    }
    return out.sort((a, b) => a.terms[0].text.localeCompare(b.terms[0].text));
  }

  it('imports TBX: concepts, terms and their fields; other languages are skipped with a warning', async () => {
    const uid = await createTermBase();
    const result = await importFile(uid, 'sample.tbx', TBX);
    expect(result.errorCode).toBeNull();
    expect(result.acceptedSegmentsCount).toBe(5);
    const messages = result.warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/1 term in ja/);
    expect(messages).toMatch(/line 24/);
    const [fileSystem, folder] = await content(uid);
    expect(fileSystem).toMatchObject({ definition: 'A place that stores files.', domain: 'Computing' });
    expect(fileSystem!.terms).toEqual([
      expect.objectContaining({
        text: 'file system',
        lang: 'en',
        partOfSpeech: 'NOUN',
        usage: 'preferred',
        preferred: true,
        note: 'the disk kind',
      }),
      expect.objectContaining({ text: 'filesystem', lang: 'en' }),
      expect.objectContaining({ text: 'Dateisystem', lang: 'de', gender: 'NEUTRAL' }),
    ]);
    expect(folder!.terms.map((x: any) => [x.text, x.usage])).toEqual([
      ['folder', 'deprecated'],
      ['Ordner', undefined],
    ]);
    const task = await get(`termBases/${uid}/lastBackgroundTask`);
    expect(task).toMatchObject({ status: 'OK', metadata: { segmentsCount: 5, metadataByLanguage: { en: { segmentsCount: 3 } } } });
    expect(task.lastTaskString).toContain('2 entries, 5 terms created');
  });

  it('strict language matching keeps en-US out of en', async () => {
    const uid = await createTermBase();
    const result = await importFile(uid, 'sample.tbx', TBX, '?strictLangMatching=true');
    expect(result.warnings.map((w) => w.message).join('\n')).toMatch(/2 terms in en_us/);
    expect((await get(`termBases/${uid}/metadata`)).metadataByLanguage).toEqual({ en: 1, de: 2 });
  });

  it('handles duplicates by updateTerms and the duplicates extension', async () => {
    const uid = await createTermBase();
    const first = `Entry_ID,en,en_Note,de
,disk,first,Platte
`;
    await importFile(uid, 'terms.csv', first);
    // The same English term again with another note and a new German synonym.
    const again = `en,en_Note,de
disk,second,Festplatte
`;
    const updated = await importFile(uid, 'terms.csv', again);
    expect(updated.errorCode).toBeNull();
    let [concept] = await content(uid);
    expect(concept!.terms.map((x: any) => [x.text, x.note])).toEqual([
      ['disk', 'second'],
      ['Platte', undefined],
      ['Festplatte', undefined],
    ]);
    // updateTerms=false: the duplicate stays as it is; new terms still join the concept.
    await importFile(uid, 'terms.csv', 'en,en_Note,de\ndisk,third,Scheibe\n', '?updateTerms=false');
    [concept] = await content(uid);
    expect(concept!.terms.find((x: any) => x.text === 'disk').note).toBe('second');
    expect(concept!.terms.map((x: any) => x.text)).toContain('Scheibe');
    // duplicates=add: a new concept, duplicate or not.
    await importFile(uid, 'terms.csv', 'en\ndisk\n', '?duplicates=add');
    expect((await get(`termBases/${uid}/concepts`)).totalCount).toBe(2);
    // Importing the same file twice (update) adds nothing.
    const before = await get(`termBases/${uid}/metadata`);
    await importFile(uid, 'terms.csv', again);
    expect(await get(`termBases/${uid}/metadata`)).toEqual(before);
  });

  it('skips a bad row with a warning naming it and imports the rest', async () => {
    const uid = await createTermBase();
    const csv = 'en,en_Part_of_speech,de\ngood,noun,gut\nbad,sometimes,schlecht\nfine,verb,fein\n';
    const result = await importFile(uid, 'rows.csv', csv);
    expect(result.errorCode).toBeNull();
    expect(result.warnings.some((w) => /row 3/.test(w.message) && /sometimes/.test(w.message))).toBe(true);
    expect((await content(uid)).map((c) => c.terms[0].text)).toEqual(['fine', 'good']);
  });

  it('refuses a file it cannot import: an unknown extension before anything is stored, malformed TBX as ImportFailed', async () => {
    const uid = await createTermBase();
    const refused = await upload(uid, 'terms.docx', 'x');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorDescription).toMatch(/TBX/);
    const noName = await t.inject({
      method: 'POST',
      url: `/api2/v2/termBases/${uid}/upload`,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: 'x',
    });
    expect(noName.statusCode).toBe(400);
    const broken = await importFile(uid, 'broken.tbx', TBX.replace('</termEntry>\n    <termEntry id="e2">', '<termEntry id="e2">'));
    expect(broken.errorCode).toBe('ImportFailed');
    expect(broken.errorDesc).toMatch(/line \d+/);
    expect((await get(`termBases/${uid}/lastBackgroundTask`)).status).toBe('ERROR');
    const v1 = await upload(uid, 'broken.tbx', '<martif><text><body><termEntry>', '', 'v1');
    expect(v1.statusCode).toBe(400);
  });

  it('answers the v1 upload when the import is done, with its counts', async () => {
    const uid = await createTermBase();
    const response = await upload(uid, 'sample.tbx', TBX, '', 'v1');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ langs: ['en', 'de'], createdTermsCount: 5, updatedTermsCount: 0 });
    const again = await upload(uid, 'sample.tbx', TBX, '', 'v1');
    expect(again.json()).toEqual({ langs: ['en', 'de'], createdTermsCount: 0, updatedTermsCount: 5 });
  });

  it.skipIf(schema.missing !== null)(
    `exports TBX valid against the TBX schema that imports back to the same content${schema.missing ? ` — skipped: ${schema.missing} is missing` : ''}`,
    async () => {
      const uid = await createTermBase(['en', 'de', 'fr']);
      await importFile(uid, 'sample.tbx', TBX);
      const exported = await exportFile(uid);
      expect(exported.headers['content-disposition']).toMatch(/\.tbx/);
      schema.validate(exported.body, 'export.tbx');
      const copy = await createTermBase(['en', 'de', 'fr']);
      await importFile(copy, 'export.tbx', exported.body);
      expect(await content(copy)).toEqual(await content(uid));
    },
  );

  for (const format of ['Xlsx', 'Csv'] as const) {
    it(`exports ${format} that imports back to the same content`, async () => {
      const domain = await t.inject({ method: 'POST', url: '/api2/v1/domains', headers, payload: { name: uniqueName('Domain') } });
      const uid = await createTermBase(['en', 'de']);
      const term = await t.inject({
        method: 'POST',
        url: `/api2/v1/termBases/${uid}/terms`,
        headers,
        payload: {
          lang: 'en',
          text: 'Save, "quoted"\nline',
          caseSensitive: true,
          exactMatch: true,
          forbidden: true,
          status: 'Approved',
          usage: 'forbidden',
          note: 'n',
          shortTranslation: 's',
          termType: 'PHRASE',
          partOfSpeech: 'VERB',
          gender: 'FEMININE',
          number: 'PLURAL',
        },
      });
      expect(term.statusCode, term.body).toBe(201);
      const conceptId = term.json().conceptId;
      await t.inject({
        method: 'PUT',
        url: `/api2/v1/termBases/${uid}/concepts/${conceptId}`,
        headers,
        payload: { definition: 'd', url: 'https://example.test', conceptNote: 'cn', domain: { uid: domain.json().uid } },
      });
      for (const text of ['Speichern', 'Sichern']) {
        await t.inject({ method: 'POST', url: `/api2/v1/termBases/${uid}/terms`, headers, payload: { lang: 'de', text, conceptId } });
      }
      await t.inject({ method: 'POST', url: `/api2/v1/termBases/${uid}/terms`, headers, payload: { lang: 'de', text: 'allein' } });
      const exported = await exportFile(uid, `?format=${format}`);
      const copy = await createTermBase(['en', 'de']);
      const result = await importFile(copy, `export.${format.toLowerCase()}`, exported.raw);
      expect(result.errorCode).toBeNull();
      expect(await content(copy)).toEqual(await content(uid));
    });
  }

  it('filters the export by term status', async () => {
    const uid = await createTermBase();
    await t.inject({
      method: 'POST',
      url: `/api2/v1/termBases/${uid}/terms`,
      headers,
      payload: { lang: 'en', text: 'approved one', status: 'Approved' },
    });
    await t.inject({ method: 'POST', url: `/api2/v1/termBases/${uid}/terms`, headers, payload: { lang: 'en', text: 'new one' } });
    const approved = await exportFile(uid, '?format=Csv&termStatus=APPROVED');
    expect(approved.body).toContain('approved one');
    expect(approved.body).not.toContain('new one');
    const fresh = await exportFile(uid, '?format=Csv&termStatus=NEW');
    expect(fresh.body).toContain('new one');
    expect(fresh.body).not.toContain('approved one');
  });

  it('keeps imports and exports to managers of the organization with the rights', async () => {
    const uid = await createTermBase();
    const linguist = apiToken(await loginAs(t, await makeUser(t.database.db, organization, { role: 'LINGUIST' })));
    expect((await upload(uid, 'a.csv', 'en\nx\n', '', 'v2', linguist)).statusCode).toBe(403);
    const stranger = (await signedInUser(t, 'ADMIN')).headers;
    expect((await upload(uid, 'a.csv', 'en\nx\n', '', 'v2', stranger)).statusCode).toBe(404);
    expect((await t.inject({ url: `/api2/v1/termBases/${uid}/export`, headers: stranger })).statusCode).toBe(404);
    expect((await get(`termBases/${uid}/metadata`)).termsCount).toBe(0);
  });
});
