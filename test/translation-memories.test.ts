import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { makeClient, makeUser, loginAs, apiToken, signedInUser } from './factories.js';

/**
 * Issue 14: translation memory records, units and search through the API (docs/translation-memory.md).
 * Import and export are in translation-memory-transfers.test.ts; project and job settings in
 * project-trans-memories.test.ts.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('translation memories', () => {
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
  const createTm = (payload: Record<string, unknown> = {}, headers: Headers = home.headers) =>
    ok('POST', 'transMemories', headers, { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['de', 'fr'], ...payload }, 201);
  const insert = (uid: string, source: string, target: string, extra: Record<string, unknown> = {}, lang = 'de') =>
    ok(
      'POST',
      `transMemories/${uid}/segments`,
      home.headers,
      { targetLang: lang, sourceSegment: source, targetSegment: target, ...extra },
      204,
    );
  async function managerWith(rights: Record<string, boolean>): Promise<Headers> {
    const manager = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    const settings = parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights }));
    await t.database.db
      .updateTable('users')
      .set({ roleSettings: JSON.stringify(settings) })
      .where('id', '=', manager.id)
      .execute();
    return apiToken(await loginAs(t, manager));
  }
  const search = (uid: string, query: string, extra: Record<string, unknown> = {}) =>
    ok('POST', `transMemories/${uid}/search`, home.headers, { query, sourceLang: 'en', ...extra });

  it('creates, gets, lists, edits and deletes a TM', async () => {
    const client = await makeClient(t.database.db, home.organization);
    const tm = await createTm({ client: { id: client.uid }, note: 'n' });
    expect(tm).toMatchObject({
      sourceLang: 'en',
      targetLangs: ['de', 'fr'],
      client: { uid: client.uid },
      note: 'n',
      internalId: expect.any(Number),
    });
    expect(await ok('GET', `transMemories/${tm.uid}`, home.headers)).toEqual(tm);
    // The numeric id names it too.
    expect((await ok('GET', `transMemories/${tm.id}`, home.headers)).uid).toBe(tm.uid);
    const list = await ok('GET', `transMemories?name=${encodeURIComponent(tm.name)}`, home.headers);
    expect(list.content.map((x: any) => x.uid)).toEqual([tm.uid]);
    expect((await ok('GET', `transMemories?targetLang=fr&clientId=${client.id}`, home.headers)).content.map((x: any) => x.uid)).toContain(
      tm.uid,
    );
    expect((await ok('GET', 'transMemories?targetLang=ja', home.headers)).content.map((x: any) => x.uid)).not.toContain(tm.uid);

    const edited = await ok('PUT', `transMemories/${tm.uid}`, home.headers, { name: 'Renamed', targetLangs: ['de', 'fr', 'it'] });
    expect(edited).toMatchObject({ name: 'Renamed', targetLangs: ['de', 'fr', 'it'], client: null, note: null });
    const added = await ok('POST', `transMemories/${tm.uid}/targetLanguages`, home.headers, { language: 'es' }, 201);
    expect(added.targetLangs).toEqual(['de', 'fr', 'it', 'es']);

    await ok('DELETE', `transMemories/${tm.uid}`, home.headers, undefined, 204);
    expect((await api('GET', `transMemories/${tm.uid}`, home.headers)).statusCode).toBe(404);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    expect((await api('POST', 'transMemories', home.headers, { name: 'x', sourceLang: 'xx-nope', targetLangs: ['de'] })).statusCode).toBe(
      400,
    );
    expect((await api('POST', 'transMemories', home.headers, { name: 'x', sourceLang: 'en', targetLangs: ['en'] })).statusCode).toBe(400);
    expect(
      (await api('POST', 'transMemories', home.headers, { name: 'x', sourceLang: 'en', targetLangs: ['de'], client: { id: 'nope' } }))
        .statusCode,
    ).toBe(400);
    const tm = await createTm();
    expect(
      (await api('POST', `transMemories/${tm.uid}/segments`, home.headers, { targetLang: 'ja', sourceSegment: 'a', targetSegment: 'b' }))
        .statusCode,
    ).toBe(400);
    const meta = await ok('GET', `transMemories/${tm.uid}/metadata`, home.headers);
    expect(meta.segmentsCount).toBe(0);
  });

  it('clears the client reference when the client is deleted', async () => {
    const client = await makeClient(t.database.db, home.organization);
    const tm = await createTm({ client: { id: client.id } });
    expect(tm.client.uid).toBe(client.uid);
    await ok('DELETE', `clients/${client.uid}`, home.headers, undefined, 204);
    expect((await ok('GET', `transMemories/${tm.uid}`, home.headers)).client).toBeNull();
  });

  it('inserts units as upserts and finds them, exact and fuzzy, best first', async () => {
    const tm = await createTm();
    await insert(tm.uid, 'The file {1>report.txt<1} was saved.', 'Die Datei {1>report.txt<1} wurde gespeichert.', {
      sourceTagMetadata: [{ content: '<b>' }, { content: '</b>' }],
    });
    await insert(tm.uid, 'The file was deleted.', 'Die Datei wurde gelöscht.');
    await insert(tm.uid, 'The file was deleted.', 'Die Datei wurde gelöscht.'); // the same again: an update
    await insert(tm.uid, 'The file was deleted.', 'Die Datei ist gelöscht worden.'); // another translation: kept beside
    const meta = await ok('GET', `transMemories/${tm.uid}/metadata?byLanguage=true`, home.headers);
    expect(meta).toEqual({
      segmentsCount: 3,
      deduplicatedSegmentsCount: 2,
      metadataByLanguage: { de: { segmentsCount: 3 }, fr: { segmentsCount: 0 } },
    });

    const exact = await search(tm.uid, 'The file was deleted.');
    expect(exact.searchResults[0]).toMatchObject({ score: 1, grossScore: 1, source: { text: 'The file was deleted.', lang: 'en' } });
    expect(exact.searchResults[0].translations.map((x: any) => x.text).sort()).toEqual([
      'Die Datei ist gelöscht worden.',
      'Die Datei wurde gelöscht.',
    ]);

    const fuzzy = await search(tm.uid, 'The files were deleted.');
    expect(fuzzy.searchResults.length).toBeGreaterThan(0);
    expect(fuzzy.searchResults[0].score).toBeLessThan(1);
    expect(fuzzy.searchResults[0].score).toBeGreaterThanOrEqual(0.7);

    // A difference only in a tag never scores 100.
    const tagged = await search(tm.uid, 'The file {2>report.txt<2} was saved.');
    expect(tagged.searchResults[0].score).toBeLessThan(1);
    expect(tagged.searchResults[0].score).toBeGreaterThanOrEqual(0.95);
    const withTags = await search(tm.uid, 'The file {1>report.txt<1} was saved.');
    expect(withTags.searchResults[0].score).toBe(1);
    expect(withTags.searchResults[0].source.tagMetadata.map((x: any) => x.content)).toEqual(['<b>', '</b>']);

    // Nothing below the minimum score.
    expect((await search(tm.uid, 'Completely unrelated words here')).searchResults).toEqual([]);
    // The target language filter.
    expect((await search(tm.uid, 'The file was deleted.', { targetLangs: ['fr'] })).searchResults).toEqual([]);
  });

  it('scores 101 in context and keeps scores stable', async () => {
    const tm = await createTm();
    await insert(tm.uid, 'Open the door.', 'Öffne die Tür.', { previousSourceSegment: 'Stand up.', nextSourceSegment: 'Go out.' });
    const inContext = await search(tm.uid, 'Open the door.', { previousSegment: 'Stand up.', nextSegment: 'Go out.' });
    expect(inContext.searchResults[0].score).toBe(1.01);
    const outOfContext = await search(tm.uid, 'Open the door.', { previousSegment: 'Sit down.', nextSegment: 'Go out.' });
    expect(outOfContext.searchResults[0].score).toBe(1);
    const numbers = await search(tm.uid, 'Open the door 2.');
    const again = await search(tm.uid, 'Open the door 2.');
    expect(numbers.searchResults.map((r: any) => r.score)).toEqual(again.searchResults.map((r: any) => r.score));
  });

  it('edits and deletes translations and units by segment id', async () => {
    const tm = await createTm();
    await insert(tm.uid, 'Save the file.', 'Speichern Sie die Datei.');
    await insert(tm.uid, 'Save the file.', 'Enregistrez le fichier.', {}, 'fr');
    const [hit] = (await search(tm.uid, 'Save the file.')).searchResults;
    const segmentId = hit.segmentId as string;

    await ok('PUT', `transMemories/${tm.uid}/segments/${segmentId}`, home.headers, { lang: 'de', text: 'Datei speichern.' }, 204);
    const afterEdit = (await search(tm.uid, 'Save the file.', { targetLangs: ['de'] })).searchResults[0];
    expect(afterEdit.translations.map((x: any) => x.text)).toEqual(['Datei speichern.']);

    await ok('DELETE', `transMemories/${tm.uid}/segments/${segmentId}/lang/de`, home.headers, undefined, 204);
    const afterLang = (await search(tm.uid, 'Save the file.')).searchResults[0];
    expect(afterLang.translations.map((x: any) => x.lang)).toEqual(['fr']);

    await ok('DELETE', `transMemories/${tm.uid}/segments/${segmentId}`, home.headers, undefined, 204);
    expect((await search(tm.uid, 'Save the file.')).searchResults).toEqual([]);
    expect((await api('DELETE', `transMemories/${tm.uid}/segments/${segmentId}`, home.headers)).statusCode).toBe(404);
    expect((await api('DELETE', `transMemories/${tm.uid}/segments/not-a-segment`, home.headers)).statusCode).toBe(404);
  });

  it('wildcard search matches * and ? over the whole source', async () => {
    const tm = await createTm();
    await insert(tm.uid, 'Print the page.', 'Drucken Sie die Seite.');
    await insert(tm.uid, 'Print the pages.', 'Drucken Sie die Seiten.');
    await insert(tm.uid, 'Close the window.', 'Schließen Sie das Fenster.');
    const wild = (query: string, extra: Record<string, unknown> = {}) =>
      ok('POST', `transMemories/${tm.uid}/wildCardSearch`, home.headers, { query, sourceLang: 'en', ...extra });
    expect((await wild('print*')).searchResults.map((r: any) => r.source.text)).toEqual(['Print the page.', 'Print the pages.']);
    expect((await wild('Print the page?')).searchResults.map((r: any) => r.source.text)).toEqual(['Print the page.']);
    expect((await wild('Print the page?.')).searchResults.map((r: any) => r.source.text)).toEqual(['Print the pages.']);
    expect((await wild('*the*', { count: 1, offset: 1 })).searchResults.map((r: any) => r.source.text)).toEqual(['Print the pages.']);
  });

  it('clears all units (v1) and the TM is searchable again afterwards', async () => {
    const tm = await createTm();
    await insert(tm.uid, 'One two three.', 'Eins zwei drei.');
    expect((await search(tm.uid, 'One two three.')).searchResults).toHaveLength(1);
    await ok('DELETE', `transMemories/${tm.uid}/segments`, home.headers, undefined, 204);
    expect((await search(tm.uid, 'One two three.')).searchResults).toEqual([]);
    await insert(tm.uid, 'Four five six.', 'Vier fünf sechs.');
    expect((await search(tm.uid, 'Four five six.')).searchResults).toHaveLength(1);
  });

  it('bulk deletes all or none', async () => {
    const a = await createTm();
    const b = await createTm();
    const missing = await api('DELETE', 'transMemories/bulk', home.headers, { transMemories: [{ uid: a.uid }, { uid: 'nope' }] });
    expect(missing.statusCode).toBe(404);
    expect((await api('GET', `transMemories/${a.uid}`, home.headers)).statusCode).toBe(200);
    await ok('DELETE', 'transMemories/bulk', home.headers, { transMemories: [{ uid: a.uid }, { uid: b.uid }] }, 204);
    expect((await api('GET', `transMemories/${b.uid}`, home.headers)).statusCode).toBe(404);
  });

  it('shows TMs to admins and project managers of the organization only', async () => {
    const tm = await createTm();
    expect((await api('GET', `transMemories/${tm.uid}`, other.headers)).statusCode).toBe(404);
    expect((await api('POST', `transMemories/${tm.uid}/search`, other.headers, { query: 'x', sourceLang: 'en' })).statusCode).toBe(404);
    const linguist = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    const linguistHeaders = apiToken(await loginAs(t, linguist));
    expect((await api('GET', `transMemories/${tm.uid}`, linguistHeaders)).statusCode).toBe(403);
    expect((await api('GET', 'transMemories', linguistHeaders)).statusCode).toBe(403);

    const manager = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    const managerHeaders = apiToken(await loginAs(t, manager));
    expect((await api('GET', `transMemories/${tm.uid}`, managerHeaders)).statusCode).toBe(200);
    // Without transMemoryViewOther a project manager sees only their own TMs.
    const narrowHeaders = await managerWith({ transMemoryViewOther: false });
    expect((await api('GET', `transMemories/${tm.uid}`, narrowHeaders)).statusCode).toBe(404);
    const own = await createTm({}, narrowHeaders);
    expect((await api('GET', `transMemories/${own.uid}`, narrowHeaders)).statusCode).toBe(200);
    // Without transMemoryEditOther a manager may read but not change others' TMs.
    const readOnlyHeaders = await managerWith({ transMemoryEditOther: false });
    expect((await api('GET', `transMemories/${tm.uid}`, readOnlyHeaders)).statusCode).toBe(200);
    expect(
      (await api('POST', `transMemories/${tm.uid}/segments`, readOnlyHeaders, { targetLang: 'de', sourceSegment: 'a', targetSegment: 'b' }))
        .statusCode,
    ).toBe(403);
  });
});
