import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisTask } from '../src/modules/quoting/analyses/index.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { waitFor } from './support/wait.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * Issue 15: analyses over HTTP, with a worked example whose bands and weighted words are computed
 * by hand (docs/analysis.md, "Worked example").
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('analyses', () => {
  let t: TestApp;
  let worker: Worker;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Headers;
  let project: ProjectRow;
  let jobUid: string;
  let schemeId: string;

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);
  async function ok(method: Method, url: string, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  async function finished(id: string) {
    t.deps.taskWakeup.notify();
    const row = await waitFor(`async request ${id}`, async () => {
      const r = await t.database.db.selectFrom('asyncRequests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return r.finishedAt ? r : null;
    });
    return JSON.parse(row.response!) as { errorCode: string | null; errorDesc: string | null };
  }

  /** The worked example's file: one segment per line. */
  const SEGMENTS = [
    'Welcome.', // 0: no match (1 word)
    'Open the file.', // 1: 101 - the TM has it between "Welcome." and "Close the window." (3)
    'Close the window.', // 2: no match (3)
    'You have 5 new messages.', // 3: the TM has "You have 3 new messages.": a number changed, 99 (5)
    'Print the page.', // 4: in the TM in another context: 100 (3)
    'Open the file.', // 5: repetition (3)
    '12.5 %', // 6: non-translatable (1)
    'Delete the selected file now.', // 7: no match (5)
    'Delete the selected files now.', // 8: internal fuzzy of 7, 96 (5)
  ];

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    headers = home.headers;
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de'] });
    worker = startWorker(t.deps, createTaskRegistry([analysisTask]), { listenConnectionString: null });
    const tm = await ok('POST', 'v1/transMemories', { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['de'] }, 201);
    const insert = (body: object) => ok('POST', `v1/transMemories/${tm.uid}/segments`, { targetLang: 'de', ...body }, 204);
    await insert({
      sourceSegment: 'Open the file.',
      targetSegment: 'Öffnen Sie die Datei.',
      previousSourceSegment: 'Welcome.',
      nextSourceSegment: 'Close the window.',
    });
    await insert({ sourceSegment: 'You have 3 new messages.', targetSegment: 'Sie haben 3 neue Nachrichten.' });
    await insert({ sourceSegment: 'Print the page.', targetSegment: 'Drucken Sie die Seite.', previousSourceSegment: 'Elsewhere.' });
    await ok('PUT', `v3/projects/${project.uid}/transMemories`, {
      dataPerContext: [{ transMemories: [{ transMemory: { uid: tm.uid }, readMode: true, writeMode: false }] }],
    });
    const made = await makeJobs(t, project, {
      filename: 'example.txt',
      segments: SEGMENTS,
      targetLangs: ['de'],
      createdById: home.user.id,
    });
    jobUid = made.jobs[0]!.uid;
    const scheme = await ok(
      'POST',
      'v1/netRateSchemes',
      {
        name: uniqueName('Scheme'),
        rates: {
          repetition: 10,
          tm101: 5,
          tm100: 20,
          tm95: 50,
          tm85: 60,
          tm75: 70,
          tm50: 100,
          tm0: 100,
          nt100: 0,
          if100: 30,
          if95: 40,
          if85: 60,
          if75: 70,
          if50: 100,
          if0: 100,
        },
      },
      201,
    );
    schemeId = scheme.id;
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  async function analyse(body: object, path = 'v2/analyses') {
    const created = await ok('POST', path, { jobs: [{ uid: jobUid }], ...body });
    const items = created.asyncRequests ?? created.analyses;
    for (const item of items) expect((await finished(item.asyncRequest.id)).errorCode).toBeNull();
    return items as { analyse: { id: string; uid: string }; asyncRequest: { id: string } }[];
  }

  const counts = (segments: number, words: number) => expect.objectContaining({ segments, words });

  it('sorts the worked example into its bands and weighs it by the net rate scheme', async () => {
    const [item] = await analyse({ includeNonTranslatables: true, separateFuzzyRepetitions: true, netRateScheme: { id: schemeId } });
    const analysis = await ok('GET', `v3/analyses/${item!.analyse.uid}`);
    expect(analysis).toMatchObject({ type: 'PreAnalyse', importStatus: { status: 'OK' }, innerId: 1, netRateScheme: { id: schemeId } });
    const part = analysis.analyseLanguageParts[0];
    expect(part).toMatchObject({ sourceLang: 'en', targetLang: 'de', jobs: [{ uid: jobUid, filename: 'example.txt' }] });
    const data = part.data;
    expect(data.all).toEqual(counts(9, 29));
    expect(data.repetitions).toEqual(counts(1, 3));
    expect(data.transMemoryMatches.match101).toEqual(counts(1, 3));
    expect(data.transMemoryMatches.match100).toEqual(counts(1, 3));
    expect(data.transMemoryMatches.match95).toEqual(counts(1, 5));
    expect(data.transMemoryMatches.match85).toEqual(counts(0, 0));
    expect(data.transMemoryMatches.match0).toEqual(counts(3, 9));
    expect(data.nonTranslatablesMatches.match100).toEqual(counts(1, 1));
    expect(data.internalFuzzyMatches.match95).toEqual(counts(1, 5));
    // Weighted: 3×5% + 3×20% + 5×50% + 3×10% + 1×0% + 5×40% + 9×100% = 0.15 + 0.6 + 2.5 + 0.3 + 0 + 2 + 9
    expect(part.discountedData.all.words).toBe(14.55);
    expect(part.discountedData.transMemoryMatches.match101.words).toBe(0.15);
    // Characters of the whole: the sum of the segments' characters.
    expect(data.all.characters).toBe(SEGMENTS.reduce((sum, s) => sum + s.length, 0));
    expect(data.repetitions.percent).toBe(10.34); // 3 of 29 words

    const job = await ok('GET', `v1/analyses/${item!.analyse.uid}/jobs/${jobUid}`);
    expect(job.data.all).toEqual(counts(9, 29));
    expect(job.data.nonTranslatablesMatches).toEqual({ match100: counts(1, 1), match99: counts(0, 0) });
    const v1Part = await ok('GET', `v1/analyses/${item!.analyse.uid}/analyseLanguageParts/${part.id}`);
    expect(v1Part.discountedData.all.words).toBe(14.55);
    const jobs = await ok('GET', `v1/analyses/${item!.analyse.uid}/analyseLanguageParts/${part.id}/jobs`);
    expect(jobs).toMatchObject({ totalElements: 1, content: [{ uid: jobUid }] });
  });

  it('folds internal fuzzies into the TM bands by default, and counts no non-translatables unless asked', async () => {
    const [item] = await analyse({});
    const data = (await ok('GET', `v3/analyses/${item!.analyse.uid}`)).analyseLanguageParts[0].data;
    expect(data.internalFuzzyMatches.match95).toEqual(counts(0, 0));
    expect(data.transMemoryMatches.match95).toEqual(counts(2, 10));
    expect(data.nonTranslatablesMatches.match100).toEqual(counts(0, 0));
    expect(data.transMemoryMatches.match0).toEqual(counts(4, 10));
    expect(data.all).toEqual(counts(9, 29));
  });

  it('leaves numbers out of the words when told to', async () => {
    const [item] = await analyse({ includeNumbers: false });
    const data = (await ok('GET', `v3/analyses/${item!.analyse.uid}`)).analyseLanguageParts[0].data;
    // "You have 5 new messages." loses one word, "12.5 %" its only one.
    expect(data.all).toEqual(counts(9, 27));
  });

  it('lists, edits, recalculates and deletes analyses', async () => {
    const list = await ok('GET', `v3/projects/${project.uid}/analyses`);
    expect(list.totalElements).toBeGreaterThanOrEqual(3);
    expect(list.content[0].innerId).toBe(String(list.totalElements));
    const byJob = await ok('GET', `v3/projects/${project.uid}/jobs/${jobUid}/analyses`);
    expect(byJob.totalElements).toBe(list.totalElements);
    const uid = list.content[0].uid;
    const edited = await ok('PUT', `v2/analyses/${uid}`, { name: 'Renamed', netRateScheme: null });
    expect(edited).toMatchObject({ name: 'Renamed', netRateScheme: null });
    const recalculated = await ok('POST', 'v1/analyses/recalculate', { analyses: [{ id: edited.id }] });
    expect((await finished(recalculated.analyses[0].asyncRequest.id)).errorCode).toBeNull();
    expect((await ok('GET', `v3/analyses/${uid}`)).analyseLanguageParts[0].data.all).toEqual(counts(9, 27));
    await ok('DELETE', `v1/analyses/${uid}`, undefined, 204);
    await ok('GET', `v3/analyses/${uid}`, undefined, 404);
    const bulk = await ok('PUT', 'v2/analyses/bulk', { analyses: [{ id: list.content[1].id }], name: 'Bulk' });
    expect(bulk.analyses[0].name).toBe('Bulk');
    await ok('DELETE', 'v1/analyses/bulk', { analyses: [{ id: list.content[1].id }], purge: true }, 204);
    expect(await t.database.db.selectFrom('analyses').select('id').where('id', '=', list.content[1].id).executeTakeFirst()).toBeUndefined();
  });

  it('creates one analysis per target language', async () => {
    const items = await analyse({}, 'v1/analyses/byLanguages');
    expect(items).toHaveLength(1);
  });

  it('refuses a request above the segment limit with a 400 and creates nothing', async () => {
    const limited = await createTestApp({ env: { OPENTMS_ANALYSIS_MAX_SEGMENTS: '8' } });
    try {
      const user = await signedInUser(limited, 'ADMIN');
      const p = await makeProject(limited, user.organization.id, { createdById: user.user.id, targetLangs: ['de'] });
      const made = await makeJobs(limited, p, { segments: SEGMENTS, targetLangs: ['de'] });
      const response = await apiCaller(limited, '/api2/')('POST', 'v2/analyses', user.headers, { jobs: [{ uid: made.jobs[0]!.uid }] });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errorCode).toBe('AnalysisTooLarge');
      expect(response.json().errorDescription).toContain('at most 8 segments');
      expect(await limited.database.db.selectFrom('analyses').select('id').execute()).toHaveLength(0);
      expect(await limited.database.db.selectFrom('asyncRequests').select('id').execute()).toHaveLength(0);
    } finally {
      await limited.close();
    }
  });

  it('needs compareWorkflowLevel for a compare analysis, and answers 404 for unknown jobs and analyses', async () => {
    await ok('POST', 'v2/analyses', { jobs: [{ uid: jobUid }], type: 'Compare' }, 400);
    await ok('POST', 'v2/analyses', { jobs: [{ uid: 'nope' }] }, 404);
    await ok('GET', 'v3/analyses/unknown', undefined, 404);
  });
});
