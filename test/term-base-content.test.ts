import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';

/** Issue 16: concepts and terms of term bases through the API (docs/terminology.md, "Records"). */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('term base concepts and terms', () => {
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
  const createTermBase = (payload: Record<string, unknown> = {}, headers: Headers = home.headers) =>
    ok('POST', 'termBases', headers, { name: uniqueName('Term base'), langs: ['en', 'de'], ...payload });
  const addTerm = (uid: string, payload: Record<string, unknown>, headers: Headers = home.headers) =>
    ok('POST', `termBases/${uid}/terms`, headers, payload, 201);

  it('creates a term with every field, in a new concept, and answers it in the published shape', async () => {
    const termBase = await createTermBase();
    const term = await addTerm(termBase.uid, {
      lang: 'en',
      text: '  file system ',
      caseSensitive: true,
      exactMatch: true,
      forbidden: false,
      preferred: true,
      status: 'Approved',
      usage: 'preferred',
      note: 'the disk kind',
      shortTranslation: 'FS',
      termType: 'FULL_FORM',
      partOfSpeech: 'NOUN',
      gender: 'NEUTRAL',
      number: 'SINGULAR',
    });
    expect(term).toMatchObject({
      id: expect.any(String),
      text: 'file system',
      lang: 'en',
      rtl: false,
      caseSensitive: true,
      exactMatch: true,
      forbidden: false,
      preferred: true,
      status: 'Approved',
      conceptId: expect.any(String),
      usage: 'preferred',
      note: 'the disk kind',
      writable: true,
      shortTranslation: 'FS',
      termType: 'FULL_FORM',
      partOfSpeech: 'NOUN',
      gender: 'NEUTRAL',
      number: 'SINGULAR',
      subDomains: [],
      createdBy: { uid: home.user.uid },
      modifiedBy: { uid: home.user.uid },
    });
    expect(await ok('GET', `termBases/${termBase.uid}/terms/${term.id}`, home.headers)).toEqual(term);
    // A term in another language joins the concept.
    const german = await addTerm(termBase.uid, { lang: 'DE', text: 'Dateisystem', conceptId: term.conceptId });
    expect(german).toMatchObject({ lang: 'de', conceptId: term.conceptId, status: 'New', caseSensitive: false });
    const concept = await ok('GET', `termBases/${termBase.uid}/concepts/${term.conceptId}/terms`, home.headers);
    expect(concept.id).toBe(term.conceptId);
    expect(concept.writable).toBe(true);
    expect(concept.terms.map((group: any[]) => group.map((x) => x.text))).toEqual([['file system'], ['Dateisystem']]);
    expect(await ok('GET', `termBases/${termBase.uid}/metadata`, home.headers)).toEqual({
      termsCount: 2,
      metadataByLanguage: { en: 1, de: 1 },
    });
  });

  it('keeps concepts with their domain, subdomains, definition, note and URL', async () => {
    const domain = await ok('POST', 'domains', home.headers, { name: uniqueName('Domain') }, 201);
    const subDomain = await ok('POST', 'subDomains', home.headers, { name: uniqueName('Subdomain') }, 201);
    const termBase = await createTermBase();
    const concept = await ok(
      'POST',
      `termBases/${termBase.uid}/concepts`,
      home.headers,
      {
        domain: { uid: domain.uid },
        subdomains: [{ uid: subDomain.uid }],
        definition: 'A way to store files.',
        url: 'https://example.test/fs',
        conceptNote: 'note',
      },
      201,
    );
    expect(concept).toEqual({
      id: expect.any(String),
      domain: { id: String(domain.id), uid: domain.uid, name: domain.name },
      subdomains: [{ id: String(subDomain.id), uid: subDomain.uid, name: subDomain.name }],
      definition: 'A way to store files.',
      url: 'https://example.test/fs',
      conceptNote: 'note',
    });
    expect(await ok('GET', `termBases/${termBase.uid}/concepts/${concept.id}`, home.headers)).toEqual(concept);
    const term = await addTerm(termBase.uid, { lang: 'en', text: 'file system', conceptId: concept.id });
    expect(term).toMatchObject({
      definition: 'A way to store files.',
      domain: domain.name,
      subDomains: [subDomain.name],
      url: 'https://example.test/fs',
      conceptNote: 'note',
    });
    // Update replaces the concept's fields; its terms stay.
    const edited = await ok('PUT', `termBases/${termBase.uid}/concepts/${concept.id}`, home.headers, { definition: 'Changed.' });
    expect(edited).toEqual({ id: concept.id, subdomains: [], definition: 'Changed.' });
    expect((await ok('GET', `termBases/${termBase.uid}/terms/${term.id}`, home.headers)).definition).toBe('Changed.');
    const page = await ok('GET', `termBases/${termBase.uid}/concepts?pageSize=10`, home.headers);
    expect(page).toEqual({ concepts: [edited], totalCount: 1 });
    // A reference to a domain of no record is a 400 and changes nothing.
    const bad = await api('PUT', `termBases/${termBase.uid}/concepts/${concept.id}`, home.headers, { domain: { uid: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(await ok('GET', `termBases/${termBase.uid}/concepts/${concept.id}`, home.headers)).toEqual(edited);
  });

  it('edits a term as a replacement, keeping its language and status when omitted', async () => {
    const termBase = await createTermBase();
    const term = await addTerm(termBase.uid, { lang: 'en', text: 'disk', status: 'Approved', forbidden: true, note: 'n' });
    const edited = await ok('PUT', `termBases/${termBase.uid}/terms/${term.id}`, home.headers, { text: 'disc', usage: 'admitted' });
    expect(edited).toMatchObject({ id: term.id, text: 'disc', lang: 'en', status: 'Approved', forbidden: false, usage: 'admitted' });
    expect(edited.note).toBeUndefined();
    const moved = await ok('PUT', `termBases/${termBase.uid}/terms/${term.id}`, home.headers, {
      text: 'Platte',
      lang: 'de',
      status: 'New',
    });
    expect(moved).toMatchObject({ lang: 'de', status: 'New' });
    // Rejected is stored (an OpenTMS extension) and answered inside the published enum.
    const rejected = await ok('PUT', `termBases/${termBase.uid}/terms/${term.id}`, home.headers, { text: 'Platte', status: 'Rejected' });
    expect(rejected.status).toBe('New');
  });

  it('deletes the concept with its last term', async () => {
    const termBase = await createTermBase();
    const first = await addTerm(termBase.uid, { lang: 'en', text: 'folder' });
    const second = await addTerm(termBase.uid, { lang: 'de', text: 'Ordner', conceptId: first.conceptId });
    await ok('DELETE', `termBases/${termBase.uid}/terms/${first.id}`, home.headers, undefined, 204);
    expect((await ok('GET', `termBases/${termBase.uid}/concepts/${first.conceptId}`, home.headers)).id).toBe(first.conceptId);
    await ok('DELETE', `termBases/${termBase.uid}/terms/${second.id}`, home.headers, undefined, 204);
    expect((await api('GET', `termBases/${termBase.uid}/concepts/${first.conceptId}`, home.headers)).statusCode).toBe(404);
    expect((await api('GET', `termBases/${termBase.uid}/terms/${second.id}`, home.headers)).statusCode).toBe(404);
    expect((await ok('GET', `termBases/${termBase.uid}/metadata`, home.headers)).termsCount).toBe(0);
  });

  it('deletes concepts one at a time, in bulk, and all at once', async () => {
    const termBase = await createTermBase();
    const terms = [];
    for (const text of ['one', 'two', 'three', 'four']) terms.push(await addTerm(termBase.uid, { lang: 'en', text }));
    await ok('DELETE', `termBases/${termBase.uid}/concepts/${terms[0].conceptId}`, home.headers, undefined, 204);
    expect((await api('GET', `termBases/${termBase.uid}/terms/${terms[0].id}`, home.headers)).statusCode).toBe(404);
    // One unknown id: 404 naming it, nothing deleted.
    const missing = await api('DELETE', `termBases/${termBase.uid}/concepts`, home.headers, {
      concepts: [{ id: terms[1].conceptId }, { id: '999999999' }],
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('999999999');
    expect((await ok('GET', `termBases/${termBase.uid}/metadata`, home.headers)).termsCount).toBe(3);
    expect((await api('DELETE', `termBases/${termBase.uid}/concepts`, home.headers, { concepts: [] })).statusCode).toBe(400);
    await ok('DELETE', `termBases/${termBase.uid}/concepts`, home.headers, { concepts: [{ id: terms[1].conceptId }] }, 204);
    expect((await ok('GET', `termBases/${termBase.uid}/metadata`, home.headers)).termsCount).toBe(2);
    await ok('DELETE', `termBases/${termBase.uid}/terms`, home.headers, undefined, 204);
    expect(await ok('GET', `termBases/${termBase.uid}/concepts`, home.headers)).toEqual({ concepts: [], totalCount: 0 });
    expect((await ok('GET', `termBases/${termBase.uid}`, home.headers)).uid).toBe(termBase.uid);
  });

  it('refuses bad terms with a 400 and changes nothing', async () => {
    const termBase = await createTermBase();
    const good = await addTerm(termBase.uid, { lang: 'en', text: 'keep' });
    for (const payload of [
      { lang: 'fr', text: 'pas ici' },
      { lang: 'xx-nope', text: 'x' },
      { lang: 'en', text: '   ' },
      { lang: 'en' },
      { lang: 'en', text: 'x', conceptId: '999999999' },
      { lang: 'en', text: 'x', termType: 'LONG_FORM' },
      { lang: 'en', text: 'x', status: 'Maybe' },
    ]) {
      const response = await api('POST', `termBases/${termBase.uid}/terms`, home.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errorCode).toEqual(expect.any(String));
    }
    expect((await api('PUT', `termBases/${termBase.uid}/terms/${good.id}`, home.headers, { text: 'x', lang: 'fr' })).statusCode).toBe(400);
    expect((await ok('GET', `termBases/${termBase.uid}/metadata`, home.headers)).termsCount).toBe(1);
    expect((await ok('GET', `termBases/${termBase.uid}/terms/${good.id}`, home.headers)).text).toBe('keep');
    for (const path of ['terms/abc', 'terms/999999999', 'concepts/abc', 'concepts/999999999/terms']) {
      expect((await api('GET', `termBases/${termBase.uid}/${path}`, home.headers)).statusCode, path).toBe(404);
    }
  });

  it('removes a language only from a term base without terms (TermBaseInvalidInput otherwise)', async () => {
    const empty = await createTermBase({ langs: ['en', 'de', 'fr'] });
    expect((await ok('PUT', `termBases/${empty.uid}`, home.headers, { name: empty.name, langs: ['en', 'de'] })).langs).toEqual([
      'en',
      'de',
    ]);
    const termBase = await createTermBase({ langs: ['en', 'de', 'fr'] });
    await addTerm(termBase.uid, { lang: 'en', text: 'only English' });
    const refused = await api('PUT', `termBases/${termBase.uid}`, home.headers, { name: 'Renamed', langs: ['en', 'de'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorCode).toBe('TermBaseInvalidInput');
    expect(refused.json().errorDescription).toContain('fr');
    const after = await ok('GET', `termBases/${termBase.uid}`, home.headers);
    expect(after).toMatchObject({ name: termBase.name, langs: ['en', 'de', 'fr'] });
    // Adding one is always allowed.
    expect(
      (await ok('PUT', `termBases/${termBase.uid}`, home.headers, { name: termBase.name, langs: ['en', 'de', 'fr', 'it'] })).langs,
    ).toEqual(['en', 'de', 'fr', 'it']);
  });

  it('keeps concepts and terms to the organization, and changes by managers to their rights', async () => {
    const termBase = await createTermBase();
    const term = await addTerm(termBase.uid, { lang: 'en', text: 'secret' });
    for (const [method, path] of [
      ['GET', `terms/${term.id}`],
      ['GET', `concepts/${term.conceptId}`],
      ['GET', 'concepts'],
      ['GET', 'metadata'],
      ['DELETE', 'terms'],
      ['DELETE', `terms/${term.id}`],
    ] as const) {
      expect((await api(method, `termBases/${termBase.uid}/${path}`, other.headers)).statusCode, path).toBe(404);
    }
    const manager = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    await t.database.db
      .updateTable('users')
      .set({ roleSettings: JSON.stringify(parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights: { termBaseEditOther: false } }))) })
      .where('id', '=', manager.id)
      .execute();
    const readOnly = apiToken(await loginAs(t, manager));
    const read = await ok('GET', `termBases/${termBase.uid}/terms/${term.id}`, readOnly);
    expect(read.writable).toBe(false);
    expect((await api('POST', `termBases/${termBase.uid}/terms`, readOnly, { lang: 'en', text: 'x' })).statusCode).toBe(403);
    expect((await api('DELETE', `termBases/${termBase.uid}/terms/${term.id}`, readOnly)).statusCode).toBe(403);
    const linguist = apiToken(await loginAs(t, await makeUser(t.database.db, home.organization, { role: 'LINGUIST' })));
    expect((await api('GET', `termBases/${termBase.uid}/terms/${term.id}`, linguist)).statusCode).toBe(403);
    expect((await ok('GET', `termBases/${termBase.uid}/metadata`, home.headers)).termsCount).toBe(1);
  });

  it('searches terms: exact, prefix and fuzzy by the TM score, with the translations and a status filter', async () => {
    const termBase = await createTermBase({ langs: ['en', 'de', 'fr'] });
    const concept = async (en: string, de: string, status = 'New') => {
      const term = await addTerm(termBase.uid, { lang: 'en', text: en, status });
      await addTerm(termBase.uid, { lang: 'de', text: de, conceptId: term.conceptId });
      await addTerm(termBase.uid, { lang: 'fr', text: `${en} (fr)`, conceptId: term.conceptId });
      return term;
    };
    const exact = await concept('File', 'Datei', 'Approved');
    await concept('file system', 'Dateisystem');
    await concept('profile', 'Profil');
    await concept('files', 'Dateien');
    await concept('the 100% value_x', 'Wert');
    const search = (payload: Record<string, unknown>) =>
      ok('POST', `termBases/${termBase.uid}/search`, home.headers, { sourceLang: 'en', targetLangs: ['de'], ...payload });
    const found = await search({ query: 'file' });
    expect(found.searchResults.map((r: any) => r.sourceTerm.text)).toEqual(['File', 'files', 'file system']);
    expect(found.searchResults[0]).toMatchObject({
      termBase: { uid: termBase.uid },
      conceptId: exact.conceptId,
      sourceTerm: { id: exact.id, status: 'Approved' },
      translationTerms: [{ text: 'Datei', lang: 'de' }],
    });
    // Fuzzy: a misspelling finds the term by the TM's score.
    expect((await search({ query: 'fil system' })).searchResults.map((r: any) => r.sourceTerm.text)).toContain('file system');
    expect((await search({ query: 'file', status: 'Approved' })).searchResults.map((r: any) => r.sourceTerm.text)).toEqual(['File']);
    // % and _ are taken literally.
    expect((await search({ query: '100%' })).searchResults).toEqual([]);
    expect((await search({ query: 'the 100% value_x' })).searchResults.map((r: any) => r.sourceTerm.text)).toEqual(['the 100% value_x']);
    expect(
      (await api('POST', `termBases/${termBase.uid}/search`, home.headers, { sourceLang: 'ja', targetLangs: [], query: 'x' })).statusCode,
    ).toBe(400);
  });

  it('browses concepts in the alphabetical order of a language, from a prefix, a page at a time', async () => {
    const termBase = await createTermBase();
    for (const [en, de] of [
      ['banana', 'Banane'],
      ['Apple', 'Apfel'],
      ['cherry', 'Kirsche'],
      ['apricot', 'Aprikose'],
    ]) {
      const term = await addTerm(termBase.uid, { lang: 'en', text: en! });
      await addTerm(termBase.uid, { lang: 'de', text: de!, conceptId: term.conceptId, status: 'Approved' });
    }
    const browse = async (payload: Record<string, unknown>) =>
      (await ok('POST', `termBases/${termBase.uid}/browse`, home.headers, payload)).searchResults.map((c: any) =>
        c.terms.map((group: any[]) => group.map((term) => term.text).join('|')).join(' / '),
      );
    expect(await browse({})).toEqual(['Apple / Apfel', 'apricot / Aprikose', 'banana / Banane', 'cherry / Kirsche']);
    expect(await browse({ queryLang: 'de' })).toEqual(['Apple / Apfel', 'apricot / Aprikose', 'banana / Banane', 'cherry / Kirsche']);
    expect(await browse({ query: 'AP' })).toEqual(['Apple / Apfel', 'apricot / Aprikose']);
    expect(await browse({ pageSize: 2, pageNumber: 1 })).toEqual(['banana / Banane', 'cherry / Kirsche']);
    expect(await browse({ status: 'Approved' })).toEqual([]);
    expect(await browse({ queryLang: 'de', status: 'Approved', query: 'k' })).toEqual(['cherry / Kirsche']);
    expect((await api('POST', `termBases/${termBase.uid}/browse`, home.headers, { pageSize: 51 })).statusCode).toBe(400);
  });
});
