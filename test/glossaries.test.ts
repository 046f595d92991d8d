import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeXlsxTerms } from '../src/formats/term-sheets.js';
import type { TermEntry } from '../src/formats/term-entries.js';
import { activeGlossaryEntries } from '../src/modules/language-resources/glossaries/index.js';
import { GLOSSARY_UPLOAD_MAX_BYTES } from '../src/modules/language-resources/glossaries/glossary-files.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';

/** Issue 16, point 7: glossaries through the API (docs/terminology.md, "Glossaries (built)"). */

/* eslint-disable @typescript-eslint/no-explicit-any */

const CSV = [
  'en,de,fr,ja',
  'file system,Dateisystem,système de fichiers,ファイルシステム',
  'folder,Ordner,,',
  ',Nur Deutsch,,',
  'printer,,,プリンター',
].join('\r\n');

const TBX = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en">
  <martifHeader><fileDesc><sourceDesc><p>sample</p></sourceDesc></fileDesc></martifHeader>
  <text><body>
    <termEntry id="e1">
      <langSet xml:lang="en-US"><tig><term>file system</term></tig><tig><term>filesystem</term></tig></langSet>
      <langSet xml:lang="de"><tig><term>Dateisystem</term></tig><tig><term>Dateiablage</term></tig></langSet>
    </termEntry>
    <termEntry id="e2">
      <langSet xml:lang="en"><tig><term> window </term></tig></langSet>
      <langSet xml:lang="fr"><tig><term>fenêtre</term></tig></langSet>
    </termEntry>
  </body></text>
</martif>
`;

async function xlsxOf(entries: TermEntry[], langs: string[]): Promise<Buffer> {
  const output = new PassThrough();
  const parts: Buffer[] = [];
  output.on('data', (chunk: Buffer) => parts.push(chunk));
  await writeXlsxTerms([entries], output, { langs });
  return Buffer.concat(parts);
}

describe(`glossaries (${testDialect})`, () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let other: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    other = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  async function refused(method: Method, url: string, headers: Headers, payload: unknown, status: number, code: string): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json();
    expect(body).toMatchObject({ errorCode: code, errorDescription: expect.any(String), errorDetails: expect.any(Array) });
    return body;
  }
  const createGlossary = (payload: Record<string, unknown> = {}, headers: Headers = home.headers) =>
    ok('POST', 'glossaries', headers, { name: uniqueName('Glossary'), langs: ['en', 'de'], ...payload });
  function upload(uid: string, filename: string | null, content: string | Buffer, query = '', headers: Headers = home.headers) {
    return t.inject({
      method: 'POST',
      url: `/api2/v1/glossaries/${uid}/upload${query}`,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        ...(filename === null ? {} : { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}` }),
      },
      payload: content,
    });
  }
  async function uploaded(uid: string, filename: string, content: string | Buffer, query = ''): Promise<any> {
    const response = await upload(uid, filename, content, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }
  async function exported(uid: string, format: string) {
    const response = await t.inject({ url: `/api2/v1/glossaries/${uid}/export?format=${format}`, headers: home.headers });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    return response;
  }
  /** The glossary's entries as `source → lang:target`, sorted. */
  async function entries(uid: string): Promise<string[]> {
    const rows = await t.database.db
      .selectFrom('glossaryEntries')
      .innerJoin('glossaries', 'glossaries.id', 'glossaryEntries.glossaryId')
      .select(['glossaryEntries.sourceLang', 'glossaryEntries.sourceText', 'glossaryEntries.targetLang', 'glossaryEntries.targetText'])
      .where('glossaries.uid', '=', uid)
      .execute();
    return rows.map((r) => `${r.sourceLang}:${r.sourceText} → ${r.targetLang}:${r.targetText}`).sort();
  }

  it('creates, gets, lists, edits and deletes a glossary', async () => {
    const glossary = await createGlossary({ langs: ['EN', 'de', 'fr-FR'] });
    expect(glossary).toMatchObject({
      id: expect.any(String),
      uid: expect.any(String),
      internalId: expect.any(Number),
      langs: ['en', 'de', 'fr_fr'],
      createdBy: { uid: home.user.uid },
      owner: { uid: home.user.uid },
      dateCreated: expect.any(String),
      active: false,
      profileCount: 0,
      profiles: [],
    });
    const second = await createGlossary();
    expect(second.internalId).toBe(glossary.internalId + 1);
    expect(await ok('GET', `glossaries/${glossary.uid}`, home.headers)).toEqual(glossary);
    // The numeric id names it too.
    expect((await ok('GET', `glossaries/${glossary.id}`, home.headers)).uid).toBe(glossary.uid);

    const byName = await ok('GET', `glossaries?name=${encodeURIComponent(glossary.name.toUpperCase())}`, home.headers);
    expect(byName.content.map((g: any) => g.uid)).toEqual([glossary.uid]);
    const byLang = await ok('GET', 'glossaries?lang=fr_FR&lang=de', home.headers);
    expect(byLang.content.map((g: any) => g.uid)).toEqual([glossary.uid]);
    const paged = await ok('GET', 'glossaries?pageSize=1&pageNumber=1', home.headers);
    expect(paged).toMatchObject({ totalElements: 2, totalPages: 2, pageSize: 1, pageNumber: 1, numberOfElements: 1 });

    // Edit: languages keep their order, new ones are appended; the owner can change to a project manager.
    const manager = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    const edited = await ok('PUT', `glossaries/${glossary.uid}`, home.headers, {
      name: 'Renamed',
      langs: ['ja', 'fr_fr', 'de', 'en'],
      owner: { id: manager.uid },
    });
    expect(edited).toMatchObject({ name: 'Renamed', langs: ['en', 'de', 'fr_fr', 'ja'], owner: { uid: manager.uid } });
    // The owner stays when omitted.
    expect((await ok('PUT', `glossaries/${glossary.uid}`, home.headers, { name: 'Renamed', langs: edited.langs })).owner.uid).toBe(
      manager.uid,
    );

    await ok('DELETE', `glossaries/${glossary.uid}`, home.headers, undefined, 204);
    await refused('GET', `glossaries/${glossary.uid}`, home.headers, undefined, 404, 'ResourceNotFound');
    await ok('DELETE', `glossaries/${second.uid}?purge=true`, home.headers, undefined, 204);
    expect((await ok('GET', 'glossaries', home.headers)).totalElements).toBe(0);
  });

  it('refuses bad input with 400 in the error shape and changes nothing', async () => {
    const glossary = await createGlossary({ langs: ['en', 'de', 'fr'] });
    await refused('POST', 'glossaries', home.headers, { name: 'x', langs: [] }, 400, 'InvalidArguments');
    await refused('POST', 'glossaries', home.headers, { langs: ['en'] }, 400, 'InvalidArguments');
    await refused('POST', 'glossaries', home.headers, { name: 'x', langs: ['en', 'xx_yy'] }, 400, 'UnsupportedLanguage');
    const linguist = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    await refused('POST', 'glossaries', home.headers, { name: 'x', langs: ['en'], owner: { id: linguist.uid } }, 400, 'InvalidArguments');
    await refused('POST', 'glossaries', home.headers, { name: 'x', langs: ['en'], owner: { id: 'nobody' } }, 400, 'ReferenceNotFound');
    // Languages can only be added.
    const removed = await refused(
      'PUT',
      `glossaries/${glossary.uid}`,
      home.headers,
      { name: 'Renamed', langs: ['en', 'de', 'it'] },
      400,
      'GlossaryLanguagesRemoved',
    );
    expect(removed.errorDetails).toEqual([{ field: 'langs', message: 'cannot remove fr' }]);
    await refused('PUT', `glossaries/${glossary.uid}/activate`, home.headers, { active: 'yes' }, 400, 'InvalidArguments');
    await refused('GET', 'glossaries?pageSize=51', home.headers, undefined, 400, 'InvalidArguments');
    await refused('GET', 'glossaries/export', home.headers, undefined, 404, 'ResourceNotFound');
    await refused('GET', `glossaries/${glossary.uid}/export?format=Pdf`, home.headers, undefined, 400, 'InvalidArguments');
    expect(await ok('GET', `glossaries/${glossary.uid}`, home.headers)).toMatchObject({ name: glossary.name, langs: ['en', 'de', 'fr'] });
    expect((await ok('GET', 'glossaries', home.headers)).totalElements).toBe(1);
  });

  it('keeps one active glossary per language pair', async () => {
    const enDe = await createGlossary({ langs: ['en', 'de'] });
    const enFr = await createGlossary({ langs: ['en', 'fr'] });
    const enDeFr = await createGlossary({ langs: ['en', 'de', 'fr'] });
    const deEn = await createGlossary({ langs: ['de', 'en'] });
    const enOnly = await createGlossary({ langs: ['en'] });
    const active = async () =>
      (await ok('GET', 'glossaries', home.headers)).content
        .filter((g: any) => g.active)
        .map((g: any) => g.uid)
        .sort();

    expect((await ok('PUT', `glossaries/${enDe.uid}/activate`, home.headers, { active: true })).active).toBe(true);
    // en → fr is another pair: both stay active.
    await ok('PUT', `glossaries/${enFr.uid}/activate`, home.headers, {});
    expect(await active()).toEqual([enDe.uid, enFr.uid].sort());
    // en → de and en → fr: both others are deactivated in the same transaction.
    await ok('PUT', `glossaries/${enDeFr.uid}/activate`, home.headers, { active: true });
    expect(await active()).toEqual([enDeFr.uid]);
    // de → en is not en → de; a glossary of one language has no pair.
    await ok('PUT', `glossaries/${deEn.uid}/activate`, home.headers, { active: true });
    await ok('PUT', `glossaries/${enOnly.uid}/activate`, home.headers, { active: true });
    expect(await active()).toEqual([enDeFr.uid, deEn.uid, enOnly.uid].sort());
    // Activating an active glossary again changes nothing.
    await ok('PUT', `glossaries/${enDeFr.uid}/activate`, home.headers, { active: true });
    expect(await active()).toEqual([enDeFr.uid, deEn.uid, enOnly.uid].sort());
    // Deactivate.
    expect((await ok('PUT', `glossaries/${enDeFr.uid}/activate`, home.headers, { active: false })).active).toBe(false);
    expect(await active()).toEqual([deEn.uid, enOnly.uid].sort());

    // An active glossary that gains a pair another active glossary has takes it over.
    await ok('PUT', `glossaries/${enDe.uid}/activate`, home.headers, { active: true });
    await ok('PUT', `glossaries/${enFr.uid}/activate`, home.headers, { active: true });
    await ok('PUT', `glossaries/${enDe.uid}`, home.headers, { name: enDe.name, langs: ['en', 'de', 'fr'] });
    expect(await active()).toEqual([enDe.uid, deEn.uid, enOnly.uid].sort());
    // An inactive glossary that gains a language deactivates nobody.
    await ok('PUT', `glossaries/${enFr.uid}`, home.headers, { name: enFr.name, langs: ['en', 'fr', 'de'] });
    expect(await active()).toEqual([enDe.uid, deEn.uid, enOnly.uid].sort());

    // Another organization's glossaries are not touched by ours.
    const theirs = await createGlossary({ langs: ['en', 'de'] }, other.headers);
    await ok('PUT', `glossaries/${theirs.uid}/activate`, other.headers, { active: true });
    expect(await active()).toEqual([enDe.uid, deEn.uid, enOnly.uid].sort());

    // What machine translation will apply: the active glossary of the pair.
    await uploaded(enDe.uid, 'g.csv', 'en,de,fr\nprinter,Drucker,imprimante\n');
    const applied = await activeGlossaryEntries(t.database.db, home.organization.id, 'en', 'fr');
    expect(applied?.glossary.uid).toBe(enDe.uid);
    expect(applied?.entries).toEqual([{ sourceText: 'printer', targetText: 'imprimante' }]);
    expect(await activeGlossaryEntries(t.database.db, home.organization.id, 'fr', 'en')).toBeNull();
    for (const g of [enDe, enFr, enDeFr, deEn, enOnly]) await ok('DELETE', `glossaries/${g.uid}`, home.headers, undefined, 204);
  });

  it('keeps the rule when activations and uploads race', async () => {
    const first = await createGlossary({ langs: ['en', 'it'] });
    const second = await createGlossary({ langs: ['en', 'it', 'nl'] });
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([first, second].map((g) => api('PUT', `glossaries/${g.uid}/activate`, home.headers, {})));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      const states = await Promise.all([first, second].map(async (g) => (await ok('GET', `glossaries/${g.uid}`, home.headers)).active));
      expect(states.filter(Boolean)).toHaveLength(1);
    }
    const csv = 'en,it\n' + Array.from({ length: 300 }, (_, i) => `term ${i},termine ${i}`).join('\n');
    const answers = await Promise.all([upload(first.uid, 'a.csv', csv), upload(first.uid, 'b.csv', csv)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const counts = answers.map((a) => a.json());
    expect(counts.map((c) => c.createdTermsCount).sort()).toEqual([0, 300]);
    expect(counts.map((c) => c.updatedTermsCount).sort()).toEqual([0, 300]);
    expect(await entries(first.uid)).toHaveLength(300);
    for (const g of [first, second]) await ok('DELETE', `glossaries/${g.uid}`, home.headers, undefined, 204);
  });

  it('uploads CSV: each source term with its first term in each target language', async () => {
    const glossary = await createGlossary({ langs: ['en', 'de', 'fr'] });
    const answer = await uploaded(glossary.uid, 'terms.csv', CSV);
    expect(answer).toEqual({
      langs: ['en', 'de', 'fr'],
      createdTermsCount: 3,
      updatedTermsCount: 0,
      warnings: [
        '2 terms in ja: not a language of the glossary',
        '1 entry without a term in the source language en: skipped',
        '1 entry without a term in a target language: skipped',
      ],
    });
    expect(await entries(glossary.uid)).toEqual([
      'en:file system → de:Dateisystem',
      'en:file system → fr:système de fichiers',
      'en:folder → de:Ordner',
    ]);
    // Again: every entry is an update, nothing new; with updateTerms=false existing entries stay.
    const changed = 'en;de\nfolder;Verzeichnis\nwindow;Fenster\n';
    expect(await uploaded(glossary.uid, 'more.csv', changed, '?updateTerms=false')).toMatchObject({
      createdTermsCount: 1,
      updatedTermsCount: 0,
    });
    expect(await entries(glossary.uid)).toContain('en:folder → de:Ordner');
    expect(await uploaded(glossary.uid, 'more.csv', changed)).toMatchObject({ createdTermsCount: 0, updatedTermsCount: 2 });
    expect(await entries(glossary.uid)).toEqual([
      'en:file system → de:Dateisystem',
      'en:file system → fr:système de fichiers',
      'en:folder → de:Verzeichnis',
      'en:window → de:Fenster',
    ]);
  });

  it('uploads TBX and XLSX, mapping regional codes unless strictLangMatching', async () => {
    const glossary = await createGlossary({ langs: ['en', 'de', 'fr'] });
    expect(await uploaded(glossary.uid, 'terms.tbx', TBX)).toMatchObject({ createdTermsCount: 3, updatedTermsCount: 0, warnings: [] });
    // Synonyms of the source each become an entry; a second target term in a language is left out.
    expect(await entries(glossary.uid)).toEqual([
      'en:file system → de:Dateisystem',
      'en:filesystem → de:Dateisystem',
      'en:window → fr:fenêtre',
    ]);
    const strict = await createGlossary({ langs: ['en', 'de'] });
    const answer = await uploaded(strict.uid, 'terms.tbx', TBX, '?strictLangMatching=true');
    expect(answer).toMatchObject({ createdTermsCount: 0 });
    expect(answer.warnings).toContain('2 terms in en_us: not a language of the glossary (strict language matching)');

    const xlsx = await xlsxOf(
      [
        {
          id: '1',
          terms: [
            { lang: 'en', text: 'printer' },
            { lang: 'de', text: 'Drucker' },
          ],
        },
        {
          id: '2',
          terms: [
            { lang: 'en', text: 'screen' },
            { lang: 'fr', text: 'écran' },
          ],
        },
      ],
      ['en', 'de', 'fr'],
    );
    expect(await uploaded(glossary.uid, 'terms.xlsx', xlsx)).toMatchObject({ createdTermsCount: 2, updatedTermsCount: 0 });
    expect(await entries(glossary.uid)).toContain('en:printer → de:Drucker');
    expect(await entries(glossary.uid)).toContain('en:screen → fr:écran');
  });

  it('exports in each format, and each export uploads back to the same entries', async () => {
    const glossary = await createGlossary({ langs: ['en', 'de', 'fr'] });
    await uploaded(glossary.uid, 'terms.csv', CSV);
    await uploaded(glossary.uid, 'terms.tbx', TBX);
    await uploaded(glossary.uid, 'quotes.csv', 'en,de\n"a, ""quoted"" term","ein ""Begriff"""\n=1+1,-minus\n');
    const original = await entries(glossary.uid);
    expect(original).toHaveLength(7);
    for (const [format, extension, type] of [
      ['Xlsx', 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['Tbx', 'tbx', 'application/x-tbx+xml'],
      ['Csv', 'csv', 'text/csv; charset=utf-8'],
    ] as const) {
      const response = await exported(glossary.uid, format);
      expect(response.headers['content-type']).toBe(type);
      expect(String(response.headers['content-disposition'])).toContain(`.${extension}`);
      const copy = await createGlossary({ langs: ['en', 'de', 'fr'] });
      const answer = await uploaded(copy.uid, `back.${extension}`, response.rawPayload);
      expect(answer, format).toMatchObject({ createdTermsCount: 7, updatedTermsCount: 0 });
      expect(await entries(copy.uid), format).toEqual(original);
      // Into the glossary it came from: every entry again, nothing new.
      expect(await uploaded(glossary.uid, `back.${extension}`, response.rawPayload), format).toMatchObject({
        createdTermsCount: 0,
        updatedTermsCount: 7,
      });
    }
    // The default is Excel; the CSV has one row per source term, its targets side by side.
    const defaulted = await t.inject({ url: `/api2/v1/glossaries/${glossary.uid}/export`, headers: home.headers });
    expect(defaulted.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const csv = (await exported(glossary.uid, 'Csv')).body;
    expect(csv.split('\r\n').filter((line) => line.includes('file system'))).toHaveLength(1);
    expect(await entries(glossary.uid)).toEqual(original);
  });

  it('purges every entry and keeps the glossary', async () => {
    const glossary = await createGlossary({ langs: ['en', 'de'] });
    await ok('PUT', `glossaries/${glossary.uid}/activate`, home.headers, { active: true });
    await uploaded(glossary.uid, 'terms.csv', 'en,de\nfolder,Ordner\nfile,Datei\n');
    expect(await entries(glossary.uid)).toHaveLength(2);
    await ok('POST', `glossaries/${glossary.uid}/purge`, home.headers, undefined, 204);
    expect(await entries(glossary.uid)).toEqual([]);
    expect(await ok('GET', `glossaries/${glossary.uid}`, home.headers)).toMatchObject({ active: true, langs: ['en', 'de'] });
    // Purging an empty glossary is fine; an empty export uploads back to nothing.
    await ok('POST', `glossaries/${glossary.uid}/purge`, home.headers, undefined, 204);
    const empty = await exported(glossary.uid, 'Csv');
    expect(await uploaded(glossary.uid, 'empty.csv', empty.rawPayload)).toMatchObject({ createdTermsCount: 0, updatedTermsCount: 0 });
    await ok('DELETE', `glossaries/${glossary.uid}`, home.headers, undefined, 204);
  });

  it('refuses a file it cannot take with an error and writes nothing', async () => {
    const glossary = await createGlossary({ langs: ['en', 'de'] });
    await uploaded(glossary.uid, 'terms.csv', 'en,de\nfolder,Ordner\n');
    const before = await entries(glossary.uid);
    const check = async (response: Awaited<ReturnType<typeof upload>>, status: number, code: string) => {
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toMatchObject({ errorCode: code, errorDescription: expect.any(String), errorDetails: expect.any(Array) });
      expect(await entries(glossary.uid)).toEqual(before);
      return response.json();
    };
    // Broken XML after a good entry: nothing of the file is written.
    const broken = TBX.replace('</termEntry>\n    <termEntry id="e2">', '</termEntry>\n    <termEntry id="e2"><oops>');
    const error = await check(await upload(glossary.uid, 'broken.tbx', broken), 400, 'InvalidArguments');
    expect(error.errorDescription).toMatch(/^broken\.tbx cannot be read as TBX: .*line \d+/);
    await check(await upload(glossary.uid, 'sheet.xlsx', 'not a zip file'), 400, 'InvalidArguments');
    await check(await upload(glossary.uid, 'terms.csv', 'Note,Definition\nx,y\n'), 400, 'InvalidArguments');
    await check(await upload(glossary.uid, 'terms.pdf', 'en,de\nx,y\n'), 400, 'InvalidArguments');
    await check(await upload(glossary.uid, 'terms.csv', ''), 400, 'InvalidArguments');
    await check(await upload(glossary.uid, null, 'en,de\nx,y\n'), 400, 'ContentDispositionMissing');
    await check(
      await t.inject({
        method: 'POST',
        url: `/api2/v1/glossaries/${glossary.uid}/upload`,
        headers: { ...home.headers, 'content-type': 'application/json', 'content-disposition': "attachment; filename*=UTF-8''x.csv" },
        payload: { en: 'x' },
      }),
      415,
      'UnsupportedMediaType',
    );
    await check(await upload(glossary.uid, 'huge.csv', Buffer.alloc(GLOSSARY_UPLOAD_MAX_BYTES + 1, 0x61)), 413, 'FileTooLarge');
  });

  it("answers 404 for another organization's glossary and 403 to a linguist, on every operation", async () => {
    const glossary = await createGlossary();
    await uploaded(glossary.uid, 'terms.csv', 'en,de\nfolder,Ordner\n');
    const linguist = apiToken(await loginAs(t, await makeUser(t.database.db, home.organization, { role: 'LINGUIST' })));
    const manager = apiToken(await loginAs(t, await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' })));
    const body = { name: 'x', langs: ['en', 'de'] };
    const calls: [Method, string, unknown][] = [
      ['GET', `glossaries/${glossary.uid}`, undefined],
      ['GET', `glossaries/${glossary.id}`, undefined],
      ['PUT', `glossaries/${glossary.uid}`, body],
      ['PUT', `glossaries/${glossary.uid}/activate`, { active: true }],
      ['GET', `glossaries/${glossary.uid}/export`, undefined],
      ['POST', `glossaries/${glossary.uid}/purge`, undefined],
      ['DELETE', `glossaries/${glossary.uid}`, undefined],
    ];
    for (const [method, url, payload] of calls) {
      await refused(method, url, other.headers, payload, 404, 'ResourceNotFound');
      await refused(method, url, linguist, payload, 403, 'AccessDenied');
    }
    expect((await upload(glossary.uid, 'terms.csv', 'en,de\nx,y\n', '', other.headers)).statusCode).toBe(404);
    expect((await upload(glossary.uid, 'terms.csv', 'en,de\nx,y\n', '', linguist)).statusCode).toBe(403);
    await refused('GET', 'glossaries', linguist, undefined, 403, 'AccessDenied');
    await refused('POST', 'glossaries', linguist, body, 403, 'AccessDenied');
    expect((await ok('GET', 'glossaries', other.headers)).content.map((g: any) => g.uid)).not.toContain(glossary.uid);
    expect(await entries(glossary.uid)).toEqual(['en:folder → de:Ordner']);
    expect((await ok('GET', `glossaries/${glossary.uid}`, home.headers)).name).toBe(glossary.name);
    // A project manager manages the organization's glossaries.
    expect((await ok('GET', `glossaries/${glossary.uid}`, manager)).uid).toBe(glossary.uid);
    await ok('PUT', `glossaries/${glossary.uid}/activate`, manager, { active: true });
    expect((await upload(glossary.uid, 'terms.csv', 'en,de\nx,y\n', '', manager)).statusCode).toBe(200);
    await ok('POST', `glossaries/${glossary.uid}/purge`, manager, undefined, 204);
    await ok('DELETE', `glossaries/${glossary.uid}`, manager, undefined, 204);
  });
});
