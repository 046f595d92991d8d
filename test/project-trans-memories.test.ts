import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import type { Id } from '../src/db/schema.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * Issue 14, point 4: the TM settings of projects and templates (v3 and the older versions),
 * relevant TMs, the copy into projects made from a template, related projects, and the searches
 * of a job's TMs (penalty, order, read flags, 101 in context, who may search).
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('translation memories of projects, templates and jobs', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let other: Awaited<ReturnType<typeof signedInUser>>;
  let steps: { id: Id; uid: string }[];
  let project: ProjectRow;
  const tm: Record<string, { uid: string; id: string }> = {};

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  async function fails(method: Method, url: string, payload: unknown, status: number, errorCode?: string, headers = home.headers) {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    if (errorCode) expect(response.json().errorCode).toBe(errorCode);
    return response.json();
  }
  const createTm = async (sourceLang: string, targetLangs: string[], headers = home.headers) =>
    ok('POST', 'v1/transMemories', headers, { name: uniqueName('TM'), sourceLang, targetLangs }, 201);
  const insert = (uid: string, source: string, target: string, extra: Record<string, unknown> = {}, lang = 'de') =>
    ok(
      'POST',
      `v1/transMemories/${uid}/segments`,
      home.headers,
      { targetLang: lang, sourceSegment: source, targetSegment: target, ...extra },
      204,
    );
  const item = (key: string, extra: Record<string, unknown> = {}) => ({ transMemory: { uid: tm[key]!.uid }, readMode: true, ...extra });
  const uidsOf = (list: any) => list.transMemories.map((x: any) => x.transMemory.uid);

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    other = await signedInUser(t, 'ADMIN');
    steps = await t.database.db
      .selectFrom('workflowSteps')
      .select(['id', 'uid'])
      .where('organizationId', '=', home.organization.id)
      .orderBy('orderIndex')
      .execute();
    expect(steps.length).toBeGreaterThanOrEqual(2);
    project = await makeProject(t, home.organization.id, {
      createdById: home.user.id,
      targetLangs: ['de', 'fr'],
      workflowStepUids: [steps[0]!.uid, steps[1]!.uid],
    });
    for (const [key, source, targets] of [
      ['all', 'en', ['de', 'fr']],
      ['de', 'en', ['de']],
      ['fr', 'en', ['fr']],
      ['ja', 'en', ['ja']],
      ['fromDe', 'de', ['en']],
      ['deAt', 'en_us', ['de_at']],
    ] as const) {
      tm[key] = await createTm(source, [...targets]);
    }
    tm['foreign'] = await createTm('en', ['de'], other.headers);
  });
  afterAll(() => t.close());

  describe('project settings', () => {
    it('v3 replaces the whole setting and answers it; GET filters by the context that applies', async () => {
      const url = `v3/projects/${project.uid}/transMemories`;
      const body = {
        dataPerContext: [
          { transMemories: [item('all', { writeMode: true })] },
          {
            targetLang: 'de',
            workflowStep: { uid: steps[1]!.uid },
            orderEnabled: true,
            transMemories: [item('de', { penalty: 5, order: 2 }), item('all', { order: 1, applyPenaltyTo101Only: true })],
          },
          { targetLang: 'fr', transMemories: [item('fr'), item('all', { readMode: false })] },
        ],
      };
      const set = await ok('PUT', url, home.headers, body);
      expect(set.transMemories).toHaveLength(5);
      const first = set.transMemories[0];
      expect(first).toMatchObject({ targetLocale: null, workflowStep: null, readMode: true, writeMode: true, penalty: 0, order: 0 });
      expect(first.transMemory).toMatchObject({ uid: tm['all']!.uid, sourceLang: 'en' });
      expect(first.transMemory.owner).toBeUndefined();
      const stepped = set.transMemories.find((x: any) => x.transMemory.uid === tm['de']!.uid);
      expect(stepped).toMatchObject({ targetLocale: 'de', workflowStep: { uid: steps[1]!.uid }, penalty: 5, order: 2, writeMode: false });
      expect(await ok('GET', url, home.headers)).toEqual(set);

      // (de, step 2): its own context, by order.
      expect(uidsOf(await ok('GET', `${url}?targetLang=de&wfStepUid=${steps[1]!.uid}`, home.headers))).toEqual([
        tm['all']!.uid,
        tm['de']!.uid,
      ]);
      // (de, step 1) and (de): no context of their own, so all languages.
      expect(uidsOf(await ok('GET', `${url}?targetLang=de&wfStepUid=${steps[0]!.uid}`, home.headers))).toEqual([tm['all']!.uid]);
      expect(uidsOf(await ok('GET', `${url}?targetLang=de`, home.headers))).toEqual([tm['all']!.uid]);
      expect(uidsOf(await ok('GET', `${url}?targetLang=fr`, home.headers))).toEqual([tm['fr']!.uid, tm['all']!.uid]);
      // A language the project does not have: nothing.
      expect(uidsOf(await ok('GET', `${url}?targetLang=it`, home.headers))).toEqual([]);

      // The older versions read the same setting in their shapes (TransMemoryDto with owner).
      for (const version of ['v1', 'v2']) {
        const older = await ok('GET', `${version}/projects/${project.uid}/transMemories`, home.headers);
        expect(older.transMemories).toHaveLength(5);
        expect(older.transMemories[0].transMemory.owner).toMatchObject({ userName: home.user.userName });
      }
    });

    it('refuses TMs that do not fit, unknown references and bad flags with 400, and changes nothing', async () => {
      const url = `v3/projects/${project.uid}/transMemories`;
      const before = await ok('GET', url, home.headers);
      const put = (context: Record<string, unknown>) => ({ dataPerContext: [{ transMemories: [item('all')], ...context }] });
      await fails('PUT', url, { dataPerContext: [{ transMemories: [item('ja')] }] }, 400, 'InvalidArguments');
      await fails('PUT', url, { dataPerContext: [{ transMemories: [item('fromDe')] }] }, 400, 'InvalidArguments');
      await fails('PUT', url, { dataPerContext: [{ targetLang: 'fr', transMemories: [item('de')] }] }, 400, 'InvalidArguments');
      await fails('PUT', url, put({ targetLang: 'it' }), 400, 'InvalidArguments');
      await fails('PUT', url, put({ targetLang: 'xx-nope' }), 400, 'UnsupportedLanguage');
      await fails('PUT', url, put({ workflowStep: { uid: 'nope' } }), 400, 'ReferenceNotFound');
      await fails(
        'PUT',
        url,
        { dataPerContext: [{ transMemories: [{ transMemory: { uid: tm['foreign']!.uid } }] }] },
        400,
        'ReferenceNotFound',
      );
      await fails(
        'PUT',
        url,
        { dataPerContext: [{ transMemories: [item('all', { readMode: false, writeMode: true })] }] },
        400,
        'InvalidArguments',
      );
      await fails('PUT', url, { dataPerContext: [{ transMemories: [item('all'), item('all')] }] }, 400, 'InvalidArguments');
      await fails(
        'PUT',
        url,
        { dataPerContext: [{ transMemories: [item('all')] }, { transMemories: [item('de')] }] },
        400,
        'InvalidArguments',
      );
      await fails('PUT', url, { dataPerContext: [{ transMemories: [item('all', { penalty: 101 })] }] }, 400);
      expect(await ok('GET', url, home.headers)).toEqual(before);
    });

    it('takes TMs of the same language family (de ~ de_at, en ~ en_us)', async () => {
      const own = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de'] });
      const set = await ok('PUT', `v3/projects/${own.uid}/transMemories`, home.headers, {
        dataPerContext: [{ transMemories: [item('deAt')] }],
      });
      expect(uidsOf(set)).toEqual([tm['deAt']!.uid]);
    });

    it('v1 and v2 PUT replace the whole setting with their bodies', async () => {
      const own = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de', 'fr'] });
      const v2 = await ok('PUT', `v2/projects/${own.uid}/transMemories`, home.headers, {
        dataPerContext: [{ transMemories: [item('all')] }, { targetLang: 'fr', transMemories: [item('fr')] }],
      });
      expect(v2.transMemories.map((x: any) => x.transMemory.owner !== undefined)).toEqual([true, true]);
      const v1 = await ok('PUT', `v1/projects/${own.uid}/transMemories`, home.headers, {
        targetLang: 'de',
        transMemories: [item('de', { writeMode: true, penalty: 3 })],
      });
      expect(v1.transMemories).toEqual([expect.objectContaining({ targetLocale: 'de', readMode: true, writeMode: true, penalty: 3 })]);
      expect(uidsOf(await ok('GET', `v3/projects/${own.uid}/transMemories`, home.headers))).toEqual([tm['de']!.uid]);
      // An empty list clears it.
      expect((await ok('PUT', `v3/projects/${own.uid}/transMemories`, home.headers, { dataPerContext: [] })).transMemories).toEqual([]);
    });

    it('lists the relevant TMs: by source language and target languages, by family unless strict, with filters', async () => {
      const url = `v1/projects/${project.uid}/transMemories/relevant`;
      const uids = async (query = '') => (await ok('GET', `${url}${query}`, home.headers)).content.map((x: any) => x.uid);
      const all = await uids();
      expect(all).toEqual(expect.arrayContaining([tm['all']!.uid, tm['de']!.uid, tm['fr']!.uid, tm['deAt']!.uid]));
      expect(all).not.toContain(tm['ja']!.uid);
      expect(all).not.toContain(tm['fromDe']!.uid);
      expect(all).not.toContain(tm['foreign']!.uid);
      const strict = await uids('?strictLangMatching=true');
      expect(strict).not.toContain(tm['deAt']!.uid);
      expect(strict).toContain(tm['de']!.uid);
      expect(await uids('?targetLangs=ja')).toEqual([tm['ja']!.uid]);
      const named = await ok('GET', `v1/transMemories/${tm['fr']!.uid}`, home.headers);
      expect(await uids(`?name=${encodeURIComponent(named.name)}`)).toEqual([tm['fr']!.uid]);
      const page = await ok('GET', `${url}?pageSize=1`, home.headers);
      expect(page).toMatchObject({ pageSize: 1, numberOfElements: 1, totalElements: all.length });
    });

    it('lists the projects whose settings name a TM, as the caller sees them; 404 for a TM the caller does not see', async () => {
      const related = await ok('GET', `v1/transMemories/${tm['all']!.uid}/relatedProjects`, home.headers);
      expect(related.content.map((p: any) => p.uid)).toContain(project.uid);
      const none = await ok('GET', `v1/transMemories/${tm['ja']!.uid}/relatedProjects`, home.headers);
      expect(none).toMatchObject({ totalElements: 0, content: [] });
      await fails('GET', `v1/transMemories/${tm['foreign']!.uid}/relatedProjects`, undefined, 404, 'ResourceNotFound');
    });
  });

  describe('template settings', () => {
    async function makeTemplate(sourceLang: string | null, targetLangs: string[], stepIds: Id[] = []) {
      const now = t.clock().toISOString();
      const template = await t.database.db
        .insertInto('projectTemplates')
        .values({
          uid: newUid(),
          organizationId: home.organization.id,
          name: uniqueName('Template'),
          createdAt: now,
          createdById: home.user.id,
          ownerId: home.user.id,
          sourceLang,
          targetLangs: JSON.stringify(targetLangs),
          lastModifiedAt: now,
        })
        .returning(['id', 'uid'])
        .executeTakeFirstOrThrow();
      for (const [i, workflowStepId] of stepIds.entries()) {
        await t.database.db
          .insertInto('templateWorkflowSteps')
          .values({ templateId: template.id, workflowStepId, workflowLevel: i + 1 })
          .execute();
      }
      return template;
    }

    it('needs a source and a target language on the template to edit its TMs', async () => {
      const body = { dataPerContext: [{ transMemories: [item('all')] }] };
      const noSource = await makeTemplate(null, ['de']);
      await fails('PUT', `v2/projectTemplates/${noSource.uid}/transMemories`, body, 400, 'InvalidArguments');
      const noTarget = await makeTemplate('en', []);
      await fails('PUT', `v2/projectTemplates/${noTarget.uid}/transMemories`, body, 400, 'InvalidArguments');
      await fails('PUT', `v1/projectTemplates/${noTarget.uid}/transMemories`, body.dataPerContext[0], 400, 'InvalidArguments');
      expect((await ok('GET', `v3/projectTemplates/${noTarget.uid}/transMemories`, home.headers)).transMemories).toEqual([]);
    });

    it('sets (v2, v1), reads (v3, v2, v1) and lists relevant TMs; projects made from it get a copy', async () => {
      const template = await makeTemplate('en', ['de', 'fr'], [steps[0]!.id, steps[1]!.id]);
      const set = await ok('PUT', `v2/projectTemplates/${template.uid}/transMemories`, home.headers, {
        dataPerContext: [
          { transMemories: [item('all', { writeMode: true, penalty: 2 })] },
          { targetLang: 'de', workflowStep: { uid: steps[1]!.uid }, orderEnabled: true, transMemories: [item('de', { order: 1 })] },
          { targetLang: 'fr', transMemories: [item('fr')] },
        ],
      });
      expect(set.transMemories).toHaveLength(3);
      expect(set.transMemories[0].transMemory.owner).toBeDefined();
      const v3 = await ok('GET', `v3/projectTemplates/${template.uid}/transMemories`, home.headers);
      expect(v3.transMemories[0].transMemory.owner).toBeUndefined();
      expect(v3.transMemories[1]).toMatchObject({ targetLocale: 'de', workflowStep: { uid: steps[1]!.uid }, order: 1 });
      for (const version of ['v1', 'v2']) {
        expect((await ok('GET', `${version}/projectTemplates/${template.uid}/transMemories`, home.headers)).transMemories).toHaveLength(3);
      }
      expect(uidsOf(await ok('GET', `v3/projectTemplates/${template.uid}/transMemories?targetLang=fr`, home.headers))).toEqual([
        tm['fr']!.uid,
      ]);
      const relevant = await ok('GET', `v1/projectTemplates/${template.uid}/transMemories/relevant`, home.headers);
      expect(relevant.content.map((x: any) => x.uid)).toEqual(expect.arrayContaining([tm['all']!.uid, tm['de']!.uid, tm['fr']!.uid]));
      await fails(
        'PUT',
        `v2/projectTemplates/${template.uid}/transMemories`,
        { dataPerContext: [{ transMemories: [item('ja')] }] },
        400,
        'InvalidArguments',
      );

      // Made from the template with only German: the French context is left out; steps map to the project's.
      const made = await ok(
        'POST',
        `v2/projects/applyTemplate/${template.uid}`,
        home.headers,
        { name: 'From template', targetLangs: ['de'] },
        201,
      );
      const copied = await ok('GET', `v3/projects/${made.uid}/transMemories`, home.headers);
      expect(copied.transMemories.map((x: any) => [x.transMemory.uid, x.targetLocale, x.workflowStep?.uid ?? null])).toEqual([
        [tm['all']!.uid, null, null],
        [tm['de']!.uid, 'de', steps[1]!.uid],
      ]);
      expect(copied.transMemories[0]).toMatchObject({ writeMode: true, penalty: 2 });

      // The v1 PUT: one context replaces the whole setting.
      const v1 = await ok('PUT', `v1/projectTemplates/${template.uid}/transMemories`, home.headers, {
        transMemories: [item('de')],
        targetLang: 'de',
      });
      expect(uidsOf(v1)).toEqual([tm['de']!.uid]);
    });
  });

  describe('job searches', () => {
    let searchProject: ProjectRow;
    let jobs: { id: string; uid: string; targetLang: string; workflowLevel: number }[];
    let linguist: Headers;
    let linguistUserId: Id;
    const tms: Record<string, { uid: string }> = {};

    beforeAll(async () => {
      const user = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
      linguistUserId = user.id;
      linguist = apiToken(await loginAs(t, user));
      searchProject = await makeProject(t, home.organization.id, {
        createdById: home.user.id,
        targetLangs: ['de', 'fr'],
        workflowStepUids: [steps[0]!.uid, steps[1]!.uid],
      });
      ({ jobs } = await makeJobs(t, searchProject, {
        segments: ['The cat sits on the mat.', 'Open the file menu.', 'Close the window.'],
        createdById: home.user.id,
        providerUserIds: [linguistUserId],
      }));
      for (const key of ['first', 'second', 'unread', 'step2']) tms[key] = await createTm('en', ['de', 'fr']);
      await insert(tms['first']!.uid, 'Open the file menu.', 'Öffnen Sie das Dateimenü.', {
        previousSourceSegment: 'The cat sits on the mat.',
        nextSourceSegment: 'Close the window.',
      });
      await insert(tms['second']!.uid, 'Open the file menu.', 'Dateimenü öffnen.');
      await insert(tms['unread']!.uid, 'Open the file menu.', 'Nicht lesen.');
      await insert(tms['step2']!.uid, 'Open the file menu.', 'Zweiter Schritt.');
      await ok('PUT', `v3/projects/${searchProject.uid}/transMemories`, home.headers, {
        dataPerContext: [
          {
            orderEnabled: true,
            transMemories: [
              { transMemory: tms['second'], readMode: true, order: 2 },
              { transMemory: tms['first'], readMode: true, order: 1, penalty: 10, applyPenaltyTo101Only: true },
              { transMemory: tms['unread'], readMode: false },
            ],
          },
          { workflowStep: { uid: steps[1]!.uid }, transMemories: [{ transMemory: tms['step2'], readMode: true, penalty: 4 }] },
        ],
      });
    });

    const jobOf = (lang: string, level: number) => jobs.find((j) => j.targetLang === lang && j.workflowLevel === level)!;
    const jobUrl = (lang: string, level: number, path: string) =>
      `projects/${searchProject.uid}/jobs/${jobOf(lang, level).uid}/transMemories/${path}`;

    it('searchByJob3 reads the TMs with read enabled, by order on equal scores, each with its penalty', async () => {
      const found = await ok('POST', `v3/${jobUrl('de', 1, 'search')}`, home.headers, { query: 'Open the file menu.' });
      expect(found.searchResults.map((r: any) => [r.transMemory.uid, r.score, r.grossScore])).toEqual([
        // applyPenaltyTo101Only: the penalty of "first" does not apply to a 100.
        [tms['first']!.uid, 1, 1],
        [tms['second']!.uid, 1, 1],
      ]);
      expect(found.searchResults[0].translations[0]).toMatchObject({ text: 'Öffnen Sie das Dateimenü.', lang: 'de', targetNote: null });
      // The step-2 job reads the context of its step, with its penalty.
      const second = await ok('POST', `v3/${jobUrl('de', 2, 'search')}`, home.headers, { query: 'Open the file menu.' });
      expect(second.searchResults.map((r: any) => [r.transMemory.uid, r.score])).toEqual([[tms['step2']!.uid, 0.96]]);
      // A threshold above every score, and maxResults.
      expect(
        (await ok('POST', `v3/${jobUrl('de', 2, 'search')}`, home.headers, { query: 'Open the file menu.', scoreThreshold: 0.97 }))
          .searchResults,
      ).toEqual([]);
      expect(
        (await ok('POST', `v3/${jobUrl('de', 1, 'search')}`, home.headers, { query: 'Open the file menu.', maxResults: 1 })).searchResults,
      ).toHaveLength(1);
      // A fuzzy match.
      const fuzzy = await ok('POST', `v3/${jobUrl('de', 1, 'search')}`, home.headers, {
        query: 'Open the file menus.',
        scoreThreshold: 0.5,
      });
      expect(fuzzy.searchResults[0].score).toBeLessThan(1);
      expect(fuzzy.searchResults[0].score).toBeGreaterThan(0.5);
      await fails('POST', `v3/${jobUrl('de', 1, 'search')}`, { query: 'x', reverse: true }, 400, 'NotSupportedYet');
      await fails('POST', `v3/${jobUrl('de', 1, 'search')}`, { query: 'x', scoreThreshold: 2 }, 400);
    });

    it('searchSegmentByJob scores 101 in context (and then applies the penalty), and reads another level on request', async () => {
      const url = `v1/${jobUrl('de', 1, 'searchSegment')}`;
      const inContext = await ok('POST', url, home.headers, {
        segment: 'Open the file menu.',
        previousSegment: 'The cat sits on the mat.',
        nextSegment: 'Close the window.',
      });
      expect(inContext.searchResults.map((r: any) => [r.transMemory.uid, r.grossScore, r.score])).toEqual([
        [tms['second']!.uid, 1, 1],
        [tms['first']!.uid, 1.01, 0.91],
      ]);
      const noContext = await ok('POST', url, home.headers, { segment: 'Open the file menu.', maxSegments: 1 });
      expect(noContext.searchResults.map((r: any) => r.transMemory.uid)).toEqual([tms['first']!.uid]);
      const level2 = await ok('POST', url, home.headers, { segment: 'Open the file menu.', workflowLevel: 2 });
      expect(level2.searchResults.map((r: any) => r.transMemory.uid)).toEqual([tms['step2']!.uid]);
      expect((await ok('POST', url, home.headers, { segment: 'Open the file menu.', maxSegments: 0 })).searchResults).toEqual([]);
      await fails('POST', url, { segment: 'x', workflowLevel: 9 }, 400, 'InvalidArguments');
    });

    it('wildCardSearchByJob3 and searchSegmentInProject', async () => {
      const wild = await ok('POST', `v3/${jobUrl('de', 1, 'wildCardSearch')}`, home.headers, { query: 'open * menu?' });
      expect(wild.searchResults.map((r: any) => r.transMemory.uid).sort()).toEqual([tms['first']!.uid, tms['second']!.uid].sort());
      const reverse = await ok('POST', `v3/${jobUrl('de', 1, 'wildCardSearch')}`, home.headers, { query: 'Dateimenü*', reverse: true });
      expect(reverse.searchResults.map((r: any) => r.transMemory.uid)).toEqual([tms['second']!.uid]);
      const inProject = await ok('POST', `v1/projects/${searchProject.uid}/transMemories/searchSegmentInProject`, home.headers, {
        segment: 'Open the file menu.',
        targetLangs: ['de', 'fr'],
      });
      expect(inProject.searchResults.map((r: any) => r.transMemory.uid)).toEqual([tms['first']!.uid, tms['second']!.uid]);
      await fails(
        'POST',
        `v1/projects/${searchProject.uid}/transMemories/searchSegmentInProject`,
        { segment: 'x', targetLangs: ['it'] },
        400,
        'InvalidTargetLanguage',
      );
    });

    it('a linguist searches through the jobs they provide only', async () => {
      const own = await ok('POST', `v3/${jobUrl('de', 1, 'search')}`, linguist, { query: 'Open the file menu.' });
      expect(own.searchResults).toHaveLength(2);
      // A job of the same project they do not provide: 404 (the kernel hides it).
      const made = await makeJobs(t, searchProject, { segments: ['Other.'], targetLangs: ['de'], createdById: home.user.id });
      const foreignJob = made.jobs[0]!.uid;
      const hidden = await api('POST', `v3/projects/${searchProject.uid}/jobs/${foreignJob}/transMemories/search`, linguist, {
        query: 'x',
      });
      expect(hidden.statusCode, hidden.body).toBe(404);
      // A project they provide nothing in: 404 too.
      const elsewhere = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de'] });
      const { jobs: otherJobs } = await makeJobs(t, elsewhere, { segments: ['x'], createdById: home.user.id });
      const away = await api('POST', `v1/projects/${elsewhere.uid}/jobs/${otherJobs[0]!.uid}/transMemories/searchSegment`, linguist, {
        segment: 'x',
      });
      expect(away.statusCode, away.body).toBe(404);
      // The project's settings are for managers.
      const settings = await api('GET', `v3/projects/${searchProject.uid}/transMemories`, linguist);
      expect(settings.statusCode, settings.body).toBe(403);
    });
  });
});
