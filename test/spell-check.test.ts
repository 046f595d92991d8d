import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * Issue 19, point 3: Spell Check with the Debian Hunspell dictionaries (docs/spelling.md): check,
 * checkByJob, suggest and addWord.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

const NEEDED = ['de_DE', 'en_US', 'fr_FR'];
const missing = NEEDED.filter((name) => !existsSync(`/usr/share/hunspell/${name}.dic`));
if (missing.length > 0)
  console.warn(
    `Skipping test/spell-check.test.ts: /usr/share/hunspell lacks ${missing.join(', ')} (apt-get install hunspell-de-de hunspell-en-us hunspell-fr)`,
  );
/** A supported language without a dictionary on Debian's hunspell packages. */
const NO_DICTIONARY = 'ja';

describe.skipIf(missing.length > 0)('spell check', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Headers;
  let linguistId: string;
  let guest: Headers;
  let submitter: Headers;
  let otherOrg: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    const user = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    linguistId = user.id;
    linguist = apiToken(await loginAs(t, user));
    submitter = apiToken(await loginAs(t, await makeUser(t.database.db, home.organization, { role: 'SUBMITTER' })));
    guest = (await signedInUser(t, 'GUEST', home.organization)).headers;
    otherOrg = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  const api = (method: Method, url: string, headers: Headers, payload?: unknown) => apiCaller(t)(method, url, headers, payload);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  async function refused(method: Method, url: string, headers: Headers, payload: unknown, status: number, errorCode: string) {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().errorCode).toBe(errorCode);
    return response.json();
  }
  const check = (lang: string, texts: string[], headers: Headers = home.headers) =>
    ok('POST', 'spellCheck/check', headers, { lang, texts });
  const misspelled = async (lang: string, text: string, headers: Headers = home.headers) =>
    (await check(lang, [text], headers)).spellCheckResults[0].misspelledWords;

  it('finds a German misspelling with its offset and leaves compounds, tags, URLs and numbers alone', async () => {
    const texts = [
      'Die Datei hat einen Feler.',
      'Die Übersetzungsspeicherdatei und die Donaudampfschifffahrt sind richtig.',
      '{1>Klicken<1} Sie auf {2}https://exmple.org/fehlr, schreiben Sie an max.mustr@beispiel.de: %s hat 1.000,50 Einträge, {0} und {{name}}.',
    ];
    const body = await check('de', texts);
    expect(body).toEqual({
      spellCheckResults: [
        { text: texts[0], misspelledWords: [{ word: 'Feler', offset: 20 }] },
        { text: texts[1], misspelledWords: [] },
        { text: texts[2], misspelledWords: [] },
      ],
    });
  });

  it('reads regions, French elisions and the zero-length separator', async () => {
    expect(await misspelled('de_at', 'Das Verzeichniss')).toEqual([{ word: 'Verzeichniss', offset: 4 }]);
    expect(await misspelled('fr_ca', "L'homme qu’il a vu aujourd'hui")).toEqual([]);
    expect(await misspelled('en_gb', "Don't recieve it")).toEqual([{ word: 'recieve', offset: 6 }]);
    const response = await ok('POST', 'spellCheck/check', home.headers, {
      lang: 'de',
      texts: ['Haus\u200bFeler'],
      zeroLengthSeparator: '\u200b',
    });
    expect(response.spellCheckResults[0].misspelledWords).toEqual([{ word: 'Feler', offset: 5 }]);
  });

  it('never flags a word of the reference texts: it is copied from the source, not misspelled', async () => {
    const texts = ['git: Commit fehlgeschlagen, Feler'];
    const without = await ok('POST', 'spellCheck/check', home.headers, { lang: 'de', texts });
    expect(without.spellCheckResults[0].misspelledWords.map((w: { word: string }) => w.word)).toEqual(['git', 'Commit', 'Feler']);
    const withReference = await ok('POST', 'spellCheck/check', home.headers, { lang: 'de', texts, referenceTexts: ['git commit failed'] });
    expect(withReference.spellCheckResults[0].misspelledWords).toEqual([{ word: 'Feler', offset: 28 }]);
  });

  it("adds words to the organization's dictionary: never flagged again, for the language and its regions, in that organization only", async () => {
    const word = 'Quuxwerk';
    expect(await misspelled('de', `Das ${word} läuft`)).toEqual([{ word, offset: 4 }]);
    expect(await ok('POST', 'spellCheck/words', linguist, { lang: 'de', word: `  ${word} ` }, 204)).toBeNull();
    expect(await ok('POST', 'spellCheck/words', home.headers, { lang: 'de', word }, 204)).toBeNull(); // idempotent
    expect(await misspelled('de', `Das ${word} läuft, das quuxwerk auch, das Quuxwerk-Modul auch`)).toEqual([]);
    expect(await misspelled('de_ch', `Das ${word} läuft`, linguist)).toEqual([]);
    expect(await misspelled('de', `Das ${word} läuft`, otherOrg.headers)).toEqual([{ word, offset: 4 }]);
    // A word added for a region serves that region only.
    await ok('POST', 'spellCheck/words', home.headers, { lang: 'de_at', word: 'Blorfzeug' }, 204);
    expect(await misspelled('de_at', 'Blorfzeug')).toEqual([]);
    expect(await misspelled('de', 'Blorfzeug')).toEqual([{ word: 'Blorfzeug', offset: 0 }]);
    const rows = await t.database.db
      .selectFrom('spellingWords')
      .select(['lang', 'word'])
      .where('organizationId', '=', home.organization.id)
      .execute();
    expect(rows.map((r) => `${r.lang}:${r.word}`).sort()).toEqual(['de:Quuxwerk', 'de_at:Blorfzeug']);
  });

  it('lets any user of the organization check and suggest, and admins, project managers and linguists add words', async () => {
    expect(await misspelled('en', 'a fiel', guest)).toEqual([{ word: 'fiel', offset: 2 }]);
    expect((await ok('POST', 'spellCheck/suggest', submitter, { lang: 'en', words: ['fiel'] })).suggestResults[0].word).toBe('fiel');
    await refused('POST', 'spellCheck/words', guest, { lang: 'en', word: 'zorp' }, 403, 'AccessDenied');
    await refused('POST', 'spellCheck/words', submitter, { lang: 'en', word: 'zorp' }, 403, 'AccessDenied');
  });

  it('suggests ranked words, the organization’s words among them', async () => {
    const body = await ok('POST', 'spellCheck/suggest', home.headers, { lang: 'de', words: ['Feler', 'Haus', 'Verzeichniss'] });
    const [feler, haus, verzeichniss] = body.suggestResults;
    expect(feler.word).toBe('Feler');
    expect(feler.suggestions[0]).toEqual({ text: 'Fehler' });
    expect(haus).toEqual({ word: 'Haus', suggestions: [] });
    expect(verzeichniss.suggestions[0]).toEqual({ text: 'Verzeichnis' });
    expect(verzeichniss.suggestions.some((s: any) => s.text.endsWith('-'))).toBe(false);
    await ok('POST', 'spellCheck/words', home.headers, { lang: 'en', word: 'Zorblax' }, 204);
    const zorblax = await ok('POST', 'spellCheck/suggest', home.headers, { lang: 'en', words: ['Zorblex'] });
    expect(zorblax.suggestResults[0].suggestions[0]).toEqual({ text: 'Zorblax' });
    const english = await ok('POST', 'spellCheck/suggest', home.headers, { lang: 'en_us', words: ['recieve'] });
    expect(english.suggestResults[0].suggestions[0]).toEqual({ text: 'receive' });
  });

  it('reports a language without a dictionary as unchecked: 400 naming it, never a clean result', async () => {
    const error = await refused(
      'POST',
      'spellCheck/check',
      home.headers,
      { lang: NO_DICTIONARY, texts: ['テキスト'] },
      400,
      'SpellingDictionaryMissing',
    );
    expect(error.errorDescription).toContain(`"${NO_DICTIONARY}"`);
    await refused('POST', 'spellCheck/suggest', home.headers, { lang: NO_DICTIONARY, words: ['x'] }, 400, 'SpellingDictionaryMissing');
    // Words may still be added: they serve once a dictionary is installed.
    await ok('POST', 'spellCheck/words', home.headers, { lang: NO_DICTIONARY, word: '東京' }, 204);
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const before = await t.database.db.selectFrom('spellingWords').select('id').execute();
    await refused('POST', 'spellCheck/check', home.headers, { lang: 'de' }, 400, 'InvalidArguments');
    await refused('POST', 'spellCheck/check', home.headers, { lang: 'xx_yy', texts: ['a'] }, 400, 'UnsupportedLanguage');
    await refused(
      'POST',
      'spellCheck/check',
      home.headers,
      { lang: 'de', texts: Array.from({ length: 1001 }, () => 'a') },
      400,
      'InvalidArguments',
    );
    const big = 'Haus '.repeat(20_000);
    await refused(
      'POST',
      'spellCheck/check',
      home.headers,
      { lang: 'de', texts: Array.from({ length: 11 }, () => big) },
      400,
      'InvalidArguments',
    );
    await refused('POST', 'spellCheck/check', home.headers, { lang: 'de', texts: [`${big} x`] }, 400, 'InvalidArguments');
    await refused('POST', 'spellCheck/suggest', home.headers, { lang: 'de', words: ['x'.repeat(101)] }, 400, 'InvalidArguments');
    await refused(
      'POST',
      'spellCheck/suggest',
      home.headers,
      { lang: 'de', words: Array.from({ length: 101 }, () => 'a') },
      400,
      'InvalidArguments',
    );
    for (const word of ['', '   ', 'x'.repeat(101), 'a\nb'])
      await refused('POST', 'spellCheck/words', home.headers, { lang: 'de', word }, 400, 'InvalidArguments');
    await refused('POST', 'spellCheck/words', home.headers, { lang: 'xx_yy', word: 'Haus' }, 400, 'UnsupportedLanguage');
    await refused('POST', 'spellCheck/words', home.headers, { lang: 'de' }, 400, 'InvalidArguments');
    expect(await t.database.db.selectFrom('spellingWords').select('id').execute()).toEqual(before);
  });

  describe('checkByJob', () => {
    let jobUid: string;
    let otherJobUid: string;

    beforeAll(async () => {
      const project = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: home.user.id });
      jobUid = (await makeJobs(t, project, { providerUserIds: [linguistId] })).jobs[0]!.uid;
      const other = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: home.user.id });
      otherJobUid = (await makeJobs(t, other)).jobs[0]!.uid;
      const tb = await ok('POST', 'termBases', home.headers, { name: uniqueName('TB'), langs: ['en', 'de'] });
      const term = await ok('POST', `termBases/${tb.uid}/terms`, home.headers, { lang: 'en', text: 'frobnicator' }, 201);
      await ok(
        'POST',
        `termBases/${tb.uid}/terms`,
        home.headers,
        { lang: 'de', text: 'Frobnikator Zwirbelmodul', conceptId: term.conceptId },
        201,
      );
      await ok('PUT', `projects/${project.uid}/termBases`, home.headers, {
        readTermBases: [{ id: tb.uid }],
        qualityAssuranceTermBases: [{ id: tb.uid }],
      });
    });

    const text = 'Der Frobnikator und das Zwirbelmodul haben einen Feler.';

    it('accepts the words of the job’s term bases besides the organization’s', async () => {
      expect((await misspelled('de', text)).map((m: any) => m.word)).toEqual(['Frobnikator', 'Zwirbelmodul', 'Feler']);
      const body = await ok('POST', `spellCheck/check/${jobUid}`, linguist, { lang: 'de', texts: [text, 'Das Quuxwerk'] });
      expect(body.spellCheckResults).toEqual([
        { text, misspelledWords: [{ word: 'Feler', offset: 49 }] },
        { text: 'Das Quuxwerk', misspelledWords: [] },
      ]);
      // Another job of the organization, without the term base: the organization's words only.
      const other = await ok('POST', `spellCheck/check/${otherJobUid}`, home.headers, { lang: 'de', texts: [text] });
      expect(other.spellCheckResults[0].misspelledWords.map((m: any) => m.word)).toEqual(['Frobnikator', 'Zwirbelmodul', 'Feler']);
    });

    it('answers 404 to those who may not see the job, and 400 for a language without a dictionary', async () => {
      await refused('POST', `spellCheck/check/${otherJobUid}`, linguist, { lang: 'de', texts: ['a'] }, 404, 'ResourceNotFound');
      const hidden = await refused(
        'POST',
        `spellCheck/check/${jobUid}`,
        otherOrg.headers,
        { lang: 'de', texts: ['a'] },
        404,
        'ResourceNotFound',
      );
      expect(hidden.errorDescription).toMatch(/^Job/);
      await refused('POST', 'spellCheck/check/noSuchJob', home.headers, { lang: 'de', texts: ['a'] }, 404, 'ResourceNotFound');
      await refused(
        'POST',
        `spellCheck/check/${jobUid}`,
        home.headers,
        { lang: NO_DICTIONARY, texts: ['a'] },
        400,
        'SpellingDictionaryMissing',
      );
    });
  });
});
