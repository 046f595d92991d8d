import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * Issue 16: the term bases of projects, templates and jobs — settings, relevant term bases, job
 * searches, term recognition in text and createTermByJob (docs/terminology.md).
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('term bases of projects, templates and jobs', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Headers;
  let linguistId: string;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    const user = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    linguistId = user.id;
    linguist = apiToken(await loginAs(t, user));
  });
  afterAll(() => t.close());

  /** `v2/…` and `v1/…` name their version; other paths are under /api2/v1/. */
  const api = (method: Method, url: string, headers: Headers, payload?: unknown) =>
    apiCaller(t, /^v\d\//.test(url) ? '/api2/' : '/api2/v1/')(method, url, headers, payload);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  const createTermBase = (langs: string[], name = uniqueName('TB')) => ok('POST', 'termBases', home.headers, { name, langs });
  async function concept(tb: string, terms: Record<string, string | Record<string, unknown>>) {
    let conceptId: string | undefined;
    for (const [lang, value] of Object.entries(terms)) {
      const payload = typeof value === 'string' ? { text: value } : value;
      const term = await ok('POST', `termBases/${tb}/terms`, home.headers, { lang, ...payload, conceptId }, 201);
      conceptId = term.conceptId;
    }
    return conceptId!;
  }

  async function projectWithJob(targetLangs = ['de']) {
    const project = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs, createdById: home.user.id });
    const { jobs } = await makeJobs(t, project, { providerUserIds: [linguistId] });
    return { project, job: jobs[0]! };
  }

  it('sets the term bases of a project per target language and answers them', async () => {
    const { project } = await projectWithJob(['de', 'fr']);
    const main = await createTermBase(['en', 'de', 'fr']);
    const german = await createTermBase(['en_us', 'de_de']);
    const french = await createTermBase(['fr']);
    const japanese = await createTermBase(['ja']);
    const all = await ok('PUT', `projects/${project.uid}/termBases`, home.headers, {
      readTermBases: [{ id: main.uid }],
      writeTermBase: { id: main.uid },
      qualityAssuranceTermBases: [{ id: main.id }],
    });
    expect(all.termBases).toEqual([
      expect.objectContaining({ targetLocale: null, workflowStep: null, readMode: true, writeMode: true, qualityAssurance: true }),
    ]);
    expect(all.termBases[0].termBase.uid).toBe(main.uid);
    // One context per request: de gets its own, the all-languages context stays.
    const de = await ok('PUT', `projects/${project.uid}/termBases`, home.headers, {
      targetLang: 'de',
      readTermBases: [{ id: german.uid }, { id: main.uid }],
      writeTermBase: { id: german.uid },
    });
    expect(de.termBases.map((x: any) => [x.targetLocale, x.termBase.name, x.readMode, x.writeMode])).toEqual([
      [null, main.name, true, true],
      ['de', german.name, true, true],
      ['de', main.name, true, false],
    ]);
    expect(await ok('GET', `projects/${project.uid}/termBases`, home.headers)).toEqual(de);
    // Refusals, nothing changed: a term base of no language of the project, an unknown one, a foreign target language.
    for (const payload of [
      { readTermBases: [{ id: japanese.uid }] },
      { readTermBases: [{ id: 'nope' }] },
      { targetLang: 'it', readTermBases: [{ id: main.uid }] },
      { targetLang: 'fr', readTermBases: [{ id: german.uid }] },
    ]) {
      const response = await api('PUT', `projects/${project.uid}/termBases`, home.headers, payload);
      if (payload.targetLang === 'fr') {
        // German term base in the French context: it still holds the source language (en_us ~ en), so it is allowed.
        expect(response.statusCode, JSON.stringify(payload)).toBe(200);
        continue;
      }
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    await ok('PUT', `projects/${project.uid}/termBases`, home.headers, { targetLang: 'fr', readTermBases: [{ id: french.uid }] });
    // The relevant term bases: those holding the source language and a target language.
    const relevant = await ok('GET', `projects/${project.uid}/termBases/relevant?pageSize=50`, home.headers);
    const names = relevant.content.map((x: any) => x.name);
    expect(names).toEqual(expect.arrayContaining([main.name, german.name]));
    expect(names).not.toContain(japanese.name);
    expect(names).not.toContain(french.name);
    const strict = await ok('GET', `projects/${project.uid}/termBases/relevant?strictLangMatching=true&pageSize=50`, home.headers);
    expect(strict.content.map((x: any) => x.name)).not.toContain(german.name);
    // A term base in a project keeps its languages.
    const refused = await api('PUT', `termBases/${french.uid}`, home.headers, { name: french.name, langs: ['fr', 'it'] });
    expect(refused.statusCode).toBe(200);
    const removal = await api('PUT', `termBases/${french.uid}`, home.headers, { name: french.name, langs: ['it'] });
    expect(removal.statusCode).toBe(400);
    expect(removal.json().errorCode).toBe('TermBaseInvalidInput');
  });

  it('sets the term bases of a template, which needs a source and a target language, and passes them to its projects', async () => {
    const tb = await createTermBase(['en', 'de']);
    const bareProject = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: [], createdById: home.user.id });
    const bare = await ok(
      'POST',
      'projectTemplates',
      home.headers,
      { project: { uid: bareProject.uid }, name: uniqueName('Template') },
      201,
    );
    const refused = await api('PUT', `projectTemplates/${bare.uid}/termBases`, home.headers, { readTermBases: [{ id: tb.uid }] });
    expect(refused.statusCode).toBe(400);
    const source = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: home.user.id });
    const template = await ok(
      'POST',
      'projectTemplates',
      home.headers,
      { project: { uid: source.uid }, name: uniqueName('Template') },
      201,
    );
    const set = await ok('PUT', `projectTemplates/${template.uid}/termBases`, home.headers, {
      targetLang: 'de',
      readTermBases: [{ id: tb.uid }],
      qualityAssuranceTermBases: [{ id: tb.uid }],
    });
    expect(set.termBases).toEqual([
      expect.objectContaining({ targetLocale: 'de', readMode: true, writeMode: false, qualityAssurance: true }),
    ]);
    expect(await ok('GET', `projectTemplates/${template.uid}/termBases`, home.headers)).toEqual(set);
    const project = await ok('POST', `v2/projects/applyTemplate/${template.uid}`, home.headers, { name: uniqueName('From template') }, 201);
    const copied = await ok('GET', `projects/${project.uid}/termBases`, home.headers);
    expect(copied.termBases.map((x: any) => [x.targetLocale, x.termBase.uid, x.qualityAssurance])).toEqual([['de', tb.uid, true]]);
  });

  it('finds the terms of the job’s term bases in a text, by the recognizer’s rules, in priority order', async () => {
    const { project, job } = await projectWithJob(['de']);
    const tb = await createTermBase(['en', 'de']);
    const second = await createTermBase(['en', 'de']);
    const fileSystem = await concept(tb.uid, { en: 'file system', de: 'Dateisystem' });
    await concept(tb.uid, { en: 'file', de: 'Datei' });
    await concept(tb.uid, { en: { text: 'API', exactMatch: true }, de: 'API' });
    await concept(tb.uid, { en: { text: 'Apple', caseSensitive: true }, de: 'Apple' });
    await concept(tb.uid, { en: { text: 'click here', forbidden: true, usage: 'forbidden' } });
    await concept(second.uid, { en: 'menu', de: 'Menü' });
    await ok('PUT', `projects/${project.uid}/termBases`, home.headers, { readTermBases: [{ id: tb.uid }, { id: second.uid }] });
    const url = `v2/projects/${project.uid}/jobs/${job.uid}/termBases/searchInTextByJob`;
    const text = 'Open the file systems menu: APIs, apples, Apple and \uE001click here\uE002; the API and the file.';
    const found = await ok('POST', url, linguist, { text });
    const summary = found.searchResults.map((r: any) => [r.sourceTerm.text, r.matches.map((m: any) => [m.beginIndex, m.text])]);
    expect(summary).toEqual([
      ['file system', [[text.indexOf('file systems'), 'file systems']]],
      ['menu', [[text.indexOf('menu'), 'menu']]],
      ['Apple', [[text.indexOf('Apple '), 'Apple']]],
      ['click here', [[text.indexOf('click'), 'click here']]],
      ['API', [[text.indexOf('API and'), 'API']]],
      ['file', [[text.lastIndexOf('file'), 'file']]],
    ]);
    const first = found.searchResults[0];
    expect(first).toMatchObject({
      termBase: { uid: tb.uid, name: tb.name },
      concept: { id: fileSystem },
      subTerm: false,
      translationTerms: [{ text: 'Dateisystem', lang: 'de' }],
    });
    expect(first.sourceTerm.definition).toBeUndefined();
    expect(found.searchResults.find((r: any) => r.sourceTerm.text === 'click here').sourceTerm.forbidden).toBe(true);
    // Reverse: the German terms in a German text, compounds included.
    const reverse = await ok('POST', url, linguist, { text: 'Die Systemdateien im Menü', reverse: true });
    expect(reverse.searchResults.map((r: any) => [r.sourceTerm.text, r.subTerm, r.translationTerms.map((x: any) => x.text)])).toEqual([
      ['Datei', true, ['file']],
      ['Menü', false, ['menu']],
    ]);
    // A zero-length separator inside a term does not break it; the v1 operation answers the same.
    const separated = await ok('POST', `v1/projects/${project.uid}/jobs/${job.uid}/termBases/searchInTextByJob`, linguist, {
      text: 'the file|| system',
      zeroLengthSeparator: '||',
    });
    expect(separated.searchResults.map((r: any) => r.matches[0].text)).toEqual(['file|| system']);
    // A term added later is found at once (the recognizer follows the term base's version).
    await concept(tb.uid, { en: 'systems menu' });
    const again = await ok('POST', url, linguist, { text: 'the systems menu' });
    expect(again.searchResults.map((r: any) => r.sourceTerm.text)).toEqual(['systems menu']);
  });

  it('finds CJK terms by character in a Japanese source', async () => {
    const project = await makeProject(t, home.organization.id, { sourceLang: 'ja', targetLangs: ['en'], createdById: home.user.id });
    const { jobs } = await makeJobs(t, project, { providerUserIds: [linguistId] });
    const tb = await createTermBase(['ja', 'en']);
    await concept(tb.uid, { ja: 'ファイル', en: 'file' });
    await concept(tb.uid, { ja: 'ファイルシステム', en: 'file system' });
    await ok('PUT', `projects/${project.uid}/termBases`, home.headers, { readTermBases: [{ id: tb.uid }] });
    const found = await ok('POST', `v2/projects/${project.uid}/jobs/${jobs[0]!.uid}/termBases/searchInTextByJob`, linguist, {
      text: 'ファイルシステムを開いてファイルを保存',
    });
    expect(found.searchResults.map((r: any) => [r.sourceTerm.text, r.matches.map((m: any) => m.beginIndex)])).toEqual([
      ['ファイルシステム', [0]],
      ['ファイル', [12]],
    ]);
  });

  it('searches the job’s term bases, and reverse', async () => {
    const { project, job } = await projectWithJob(['de']);
    const tb = await createTermBase(['en', 'de']);
    await concept(tb.uid, { en: 'file', de: 'Datei' });
    await concept(tb.uid, { en: 'file system', de: 'Dateisystem' });
    await concept(tb.uid, { en: 'folder', de: 'Ordner' });
    await ok('PUT', `projects/${project.uid}/termBases`, home.headers, { readTermBases: [{ id: tb.uid }] });
    const url = `v2/projects/${project.uid}/jobs/${job.uid}/termBases/searchByJob`;
    const found = await ok('POST', url, linguist, { query: 'file' });
    expect(found.searchResults.map((r: any) => [r.sourceTerm.text, r.translationTerms.map((x: any) => x.text)])).toEqual([
      ['file', ['Datei']],
      ['file system', ['Dateisystem']],
    ]);
    expect(
      (await ok('POST', url, linguist, { query: 'file', count: 1, offset: 1 })).searchResults.map((r: any) => r.sourceTerm.text),
    ).toEqual(['file system']);
    const reverse = await ok('POST', url, linguist, { query: 'Ordner', reverse: true });
    expect(reverse.searchResults.map((r: any) => [r.sourceTerm.lang, r.translationTerms[0].text])).toEqual([['de', 'folder']]);
    expect(
      (await ok('POST', `v1/projects/${project.uid}/jobs/${job.uid}/termBases/searchByJob`, linguist, { query: 'file' })).searchResults,
    ).toHaveLength(2);
  });

  it('creates a term pair by job in the write term base, and refuses without one', async () => {
    const { project, job } = await projectWithJob(['de']);
    const tb = await createTermBase(['en', 'de']);
    const url = `v1/projects/${project.uid}/jobs/${job.uid}/termBases/createByJob`;
    const body = { sourceTerm: { text: 'save', partOfSpeech: 'VERB' }, targetTerm: { text: 'speichern', note: 'infinitive' } };
    const none = await api('POST', url, linguist, body);
    expect(none.statusCode).toBe(400);
    await ok('PUT', `projects/${project.uid}/termBases`, home.headers, { readTermBases: [{ id: tb.uid }], writeTermBase: { id: tb.uid } });
    const pair = await ok('POST', url, linguist, body);
    expect(pair).toMatchObject({
      sourceTerm: { text: 'save', lang: 'en', partOfSpeech: 'VERB' },
      targetTerm: { text: 'speichern', lang: 'de', note: 'infinitive' },
    });
    expect(pair.sourceTerm.conceptId).toBe(pair.targetTerm.conceptId);
    expect((await ok('GET', `termBases/${tb.uid}/metadata`, home.headers)).termsCount).toBe(2);
    expect((await api('POST', url, linguist, { sourceTerm: { text: ' ' }, targetTerm: { text: 'x' } })).statusCode).toBe(400);
    expect((await ok('GET', `termBases/${tb.uid}/metadata`, home.headers)).termsCount).toBe(2);
  });

  it('lets a linguist use the term bases only through the jobs they provide', async () => {
    const { project, job } = await projectWithJob(['de']);
    const other = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: home.user.id });
    const { jobs: otherJobs } = await makeJobs(t, other);
    expect(
      (await api('POST', `v2/projects/${other.uid}/jobs/${otherJobs[0]!.uid}/termBases/searchByJob`, linguist, { query: 'x' })).statusCode,
    ).toBe(404);
    expect((await api('GET', `projects/${project.uid}/termBases`, linguist)).statusCode).toBe(403);
    expect(
      (await api('POST', `v2/projects/${project.uid}/jobs/${job.uid}/termBases/searchByJob`, linguist, { query: 'x' })).statusCode,
    ).toBe(200);
    const stranger = await signedInUser(t, 'ADMIN');
    expect((await api('GET', `projects/${project.uid}/termBases`, stranger.headers)).statusCode).toBe(404);
  });
});
