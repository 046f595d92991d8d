import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import {
  mtSettingsForTarget,
  preTranslateDefaults,
  projectPreTranslateSettings,
} from '../src/modules/translation-workflow/project-mt-settings/index.js';

/**
 * Issue 17: the MT settings of projects and templates (v1 project operations, v3 template
 * operation, PATCH of a project), the pre-translate settings (v4 and the deprecated flat v1/v2
 * forms), the copy into projects made from templates, and a job's translation resources.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('MT and pre-translate settings of projects and templates', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Headers;
  let linguistId: string;
  let alpha: any;
  let beta: any;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    const user = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    linguistId = user.id;
    linguist = apiToken(await loginAs(t, user));
    alpha = await createMtSettings(home.headers, uniqueName('Alpha MT'));
    beta = await createMtSettings(home.headers, uniqueName('Beta MT'));
  });
  afterAll(() => t.close());

  /** `vN/…` names its version; other paths are under /api2/v1/. */
  const api = (method: Method, url: string, headers: Headers, payload?: unknown) =>
    apiCaller(t, /^v\d\//.test(url) ? '/api2/' : '/api2/v1/')(method, url, headers, payload);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  async function refused(method: Method, url: string, payload: unknown, field: string, errorCode?: string) {
    const response = await api(method, url, home.headers, payload);
    expect(response.statusCode, `${JSON.stringify(payload)}: ${response.body}`).toBe(400);
    const body = response.json();
    if (errorCode) expect(body.errorCode).toBe(errorCode);
    expect(body.errorDetails.map((d: any) => d.field)).toContain(field);
  }
  function createMtSettings(headers: Headers, name: string) {
    return ok('POST', 'machineTranslateSettings', headers, { name, type: 'Apertium', args: { url: 'http://127.0.0.1:2737' } });
  }
  /** [targetLang, settings uid] of a MTSettingsPerLanguageListDto. */
  const summary = (list: any) => list.mtSettingsPerLangList.map((e: any) => [e.targetLang, e.machineTranslateSettings.uid]);
  const project = (targetLangs = ['de', 'fr', 'ja']) =>
    makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs, createdById: home.user.id });
  async function template(targetLangs = ['de', 'fr', 'ja']) {
    const source = await project(targetLangs);
    return ok('POST', 'projectTemplates', home.headers, { project: { uid: source.uid }, name: uniqueName('Template') }, 201);
  }

  it('sets the settings of a project for every language or per language (v1), each erasing the other form', async () => {
    const p = await project();
    const url = `projects/${p.uid}/mtSettings`;
    expect(await ok('GET', url, home.headers)).toEqual({ mtSettingsPerLangList: [] });
    const all = await ok('PUT', url, home.headers, { machineTranslateSettings: { id: alpha.id } });
    expect(summary(all)).toEqual([[null, alpha.uid]]);
    expect(all.mtSettingsPerLangList[0].machineTranslateSettings).toMatchObject({
      id: alpha.id,
      uid: alpha.uid,
      name: alpha.name,
      type: 'Apertium',
      baseName: alpha.baseName,
      default_: alpha.default_,
      includeTags: true,
      mtQualityEstimation: false,
      args: { url: 'http://127.0.0.1:2737' },
    });
    expect(await ok('GET', url, home.headers)).toEqual(all);
    expect((await mtSettingsForTarget(t.database.db, p.id, 'fr'))?.uid).toBe(alpha.uid);

    // Per language (by uid or id): the all-languages settings go; ja has none.
    const perLang = await ok('PUT', `projects/${p.uid}/mtSettingsPerLanguage`, home.headers, {
      mtSettingsPerLangList: [
        { targetLang: 'fr', machineTranslateSettings: { id: alpha.id } },
        { targetLang: 'de', machineTranslateSettings: { id: beta.uid } },
        { targetLang: 'ja' },
      ],
    });
    expect(summary(perLang)).toEqual([
      ['de', beta.uid],
      ['fr', alpha.uid],
    ]);
    expect(await ok('GET', url, home.headers)).toEqual(perLang);
    expect((await mtSettingsForTarget(t.database.db, p.id, 'de'))?.uid).toBe(beta.uid);
    expect(await mtSettingsForTarget(t.database.db, p.id, 'ja')).toBeNull();
    // The project's views show them.
    const view = await ok('GET', `projects/${p.uid}`, home.headers);
    expect(view.mtSettingsPerLanguageList).toEqual([
      { targetLang: 'de', machineTranslateSettings: { id: beta.id, uid: beta.uid, name: beta.name, type: 'Apertium' } },
      { targetLang: 'fr', machineTranslateSettings: { id: alpha.id, uid: alpha.uid, name: alpha.name, type: 'Apertium' } },
    ]);
    const listed = await ok('GET', `projects?name=${encodeURIComponent(p.name)}`, home.headers);
    expect(listed.content[0].mtSettingsPerLanguageList).toEqual(view.mtSettingsPerLanguageList);

    // Refusals change nothing: a language the project does not have, unknown settings, another organization's.
    const stranger = await signedInUser(t, 'ADMIN');
    const foreign = await createMtSettings(stranger.headers, uniqueName('Foreign MT'));
    await refused(
      'PUT',
      `projects/${p.uid}/mtSettingsPerLanguage`,
      { mtSettingsPerLangList: [{ targetLang: 'it', machineTranslateSettings: { id: alpha.id } }] },
      'mtSettingsPerLangList[0].targetLang',
      'InvalidArguments',
    );
    await refused(
      'PUT',
      `projects/${p.uid}/mtSettingsPerLanguage`,
      { mtSettingsPerLangList: [{ targetLang: 'de', machineTranslateSettings: { id: 'nope' } }] },
      'mtSettingsPerLangList[0].machineTranslateSettings',
      'ReferenceNotFound',
    );
    await refused('PUT', url, { machineTranslateSettings: { id: foreign.uid } }, 'machineTranslateSettings', 'ReferenceNotFound');
    await refused('PUT', url, { machineTranslateSettings: { id: foreign.id } }, 'machineTranslateSettings', 'ReferenceNotFound');
    expect(await ok('GET', url, home.headers)).toEqual(perLang);

    // Back to one for every language, which erases the per-language ones; without settings: none.
    expect(summary(await ok('PUT', url, home.headers, { machineTranslateSettings: { id: beta.uid } }))).toEqual([[null, beta.uid]]);
    expect(await ok('PUT', url, home.headers, {})).toEqual({ mtSettingsPerLangList: [] });
    expect((await ok('GET', `projects/${p.uid}`, home.headers)).mtSettingsPerLanguageList).toEqual([]);
    // An empty per-language list leaves none either.
    await ok('PUT', url, home.headers, { machineTranslateSettings: { id: beta.uid } });
    expect(await ok('PUT', `projects/${p.uid}/mtSettingsPerLanguage`, home.headers, { mtSettingsPerLangList: [] })).toEqual({
      mtSettingsPerLangList: [],
    });
  });

  it('changes a template’s settings with v3: only listed languages, per-language values winning, bulk copied on switching', async () => {
    const tpl = await template();
    const url = `v3/projectTemplates/${tpl.uid}/mtSettings`;
    const get = () => ok('GET', `projectTemplates/${tpl.uid}/mtSettings`, home.headers);
    expect(await get()).toEqual({ mtSettingsPerLangList: [] });
    expect(summary(await ok('PUT', url, home.headers, { machineTranslateSettings: { uid: alpha.uid } }))).toEqual([[null, alpha.uid]]);
    // Switching to per language: the languages not listed keep what they had.
    const switched = await ok('PUT', url, home.headers, {
      machineTranslateSettingsPerLangs: [{ targetLang: 'de', machineTranslateSettings: { uid: beta.uid } }],
    });
    expect(summary(switched)).toEqual([
      ['de', beta.uid],
      ['fr', alpha.uid],
      ['ja', alpha.uid],
    ]);
    expect(await get()).toEqual(switched);
    // An entry without settings clears its language; the others stay.
    expect(
      summary(
        await ok('PUT', url, home.headers, { machineTranslateSettingsPerLangs: [{ targetLang: 'fr', machineTranslateSettings: null }] }),
      ),
    ).toEqual([
      ['de', beta.uid],
      ['ja', alpha.uid],
    ]);
    // Neither field, or an empty list: nothing changes.
    expect(summary(await ok('PUT', url, home.headers, {}))).toEqual([
      ['de', beta.uid],
      ['ja', alpha.uid],
    ]);
    expect(summary(await ok('PUT', url, home.headers, { machineTranslateSettingsPerLangs: [] }))).toEqual([
      ['de', beta.uid],
      ['ja', alpha.uid],
    ]);
    // Bulk alone replaces everything.
    expect(summary(await ok('PUT', url, home.headers, { machineTranslateSettings: { uid: beta.uid } }))).toEqual([[null, beta.uid]]);
    // Both: the per-language values win, the body's bulk value fills the languages not listed.
    const both = await ok('PUT', url, home.headers, {
      machineTranslateSettings: { uid: alpha.uid },
      machineTranslateSettingsPerLangs: [{ targetLang: 'ja', machineTranslateSettings: { uid: beta.uid } }],
    });
    expect(summary(both)).toEqual([
      ['de', alpha.uid],
      ['fr', alpha.uid],
      ['ja', beta.uid],
    ]);
    // Refusals: a language the template lacks, unknown settings; nothing changed.
    await refused(
      'PUT',
      url,
      { machineTranslateSettingsPerLangs: [{ targetLang: 'it', machineTranslateSettings: { uid: alpha.uid } }] },
      'machineTranslateSettingsPerLangs[0].targetLang',
    );
    await refused('PUT', url, { machineTranslateSettings: { uid: 'nope' } }, 'machineTranslateSettings', 'ReferenceNotFound');
    expect(await get()).toEqual(both);
    // null removes them all.
    expect(await ok('PUT', url, home.headers, { machineTranslateSettings: null })).toEqual({ mtSettingsPerLangList: [] });
  });

  it('answers the v4 defaults where nothing is stored and replaces the whole document on PUT', async () => {
    const p = await project();
    const tpl = await template();
    for (const base of [`v4/projects/${p.uid}/preTranslateSettings`, `v4/projectTemplates/${tpl.uid}/preTranslateSettings`]) {
      const defaults = await ok('GET', base, home.headers);
      expect(defaults).toEqual(preTranslateDefaults());
      expect(defaults.translationMemorySettings.translationMemoryThreshold).toBe(0.7);
      expect(defaults.machineTranslationSettings.confirmMatchesThreshold).toBe(1);
      const set = await ok('PUT', base, home.headers, {
        preTranslateOnJobCreation: true,
        translationMemorySettings: { useTranslationMemory: true, translationMemoryThreshold: 0.85, confirm101PercentMatches: true },
        machineTranslationSettings: { useMachineTranslation: true, confirmMatches: true, confirmMatchesThreshold: 0.9 },
        repetitionsSettings: { autoPropagateRepetitions: true },
      });
      const expected = preTranslateDefaults();
      expected.preTranslateOnJobCreation = true;
      Object.assign(expected.translationMemorySettings, {
        useTranslationMemory: true,
        translationMemoryThreshold: 0.85,
        confirm101PercentMatches: true,
      });
      Object.assign(expected.machineTranslationSettings, {
        useMachineTranslation: true,
        confirmMatches: true,
        confirmMatchesThreshold: 0.9,
      });
      expected.repetitionsSettings.autoPropagateRepetitions = true;
      expect(set).toEqual(expected);
      expect(await ok('GET', base, home.headers)).toEqual(expected);
      // A PUT replaces the whole document: what it leaves out goes back to its default.
      const replaced = await ok('PUT', base, home.headers, { setJobStatusCompleted: true, nonTranslatableSettings: null });
      expect(replaced).toEqual({ ...preTranslateDefaults(), setJobStatusCompleted: true });
      // Out of range: 400 naming the field, nothing changed.
      await refused(
        'PUT',
        base,
        { translationMemorySettings: { translationMemoryThreshold: 1.2 } },
        'translationMemorySettings.translationMemoryThreshold',
      );
      await refused(
        'PUT',
        base,
        { translationMemorySettings: { translationMemoryThreshold: -0.1 } },
        'translationMemorySettings.translationMemoryThreshold',
      );
      await refused(
        'PUT',
        base,
        { machineTranslationSettings: { confirmMatchesThreshold: 1.01 } },
        'machineTranslationSettings.confirmMatchesThreshold',
      );
      expect(await ok('GET', base, home.headers)).toEqual(replaced);
      // 1.01 (101 %, context matches) is allowed.
      const top = await ok('PUT', base, home.headers, { translationMemorySettings: { translationMemoryThreshold: 1.01 } });
      expect(top.translationMemorySettings.translationMemoryThreshold).toBe(1.01);
    }
    expect((await projectPreTranslateSettings(t.database.db, p.id)).translationMemorySettings.translationMemoryThreshold).toBe(1.01);
  });

  it('reads and writes the same document in the deprecated flat v1/v2 shape', async () => {
    const p = await project();
    const tpl = await template();
    for (const [kind, uid] of [
      ['projects', p.uid],
      ['projectTemplates', tpl.uid],
    ] as const) {
      const v4 = `v4/${kind}/${uid}/preTranslateSettings`;
      await ok('PUT', v4, home.headers, {
        overwriteExistingTranslations: true,
        translationMemorySettings: { useTranslationMemory: true, translationMemoryThreshold: 0.8, lock100PercentMatches: true },
        machineTranslationSettings: { useMachineTranslation: true, lock100PercentMatches: true, confirmMatchesThreshold: 0.5 },
        nonTranslatableSettings: { preTranslateNonTranslatables: true, confirm100PercentMatches: true },
        repetitionsSettings: { confirmRepetitions: true },
      });
      for (const version of ['v1', 'v2']) {
        const flat = await ok('GET', `${version}/${kind}/${uid}/preTranslateSettings`, home.headers);
        expect(flat).toMatchObject({
          overwriteExistingTranslations: true,
          useTranslationMemory: true,
          translationMemoryThreshold: 0.8,
          lock100PercentMatches: true,
          lock101PercentMatches: false,
          useMachineTranslation: true,
          lock100PercentMtMatches: true,
          confirmMtMatchesThreshold: 0.5,
          preTranslateNonTranslatables: true,
          confirm100NonTranslatableMatches: true,
          lock100NonTranslatableMatches: false,
          confirmRepetitions: true,
          autoPropagateRepetitions: false,
          preTranslateOnJobCreation: false,
        });
        expect(Object.keys(flat)).toHaveLength(26);
        expect(Object.values(flat).every((v) => typeof v === 'boolean' || typeof v === 'number')).toBe(true);
      }
      // A flat PUT replaces the whole document; v4 reads it.
      const written = await ok('PUT', `v2/${kind}/${uid}/preTranslateSettings`, home.headers, {
        useTranslationMemory: true,
        translationMemoryThreshold: 0.95,
        confirm100PercentMatches: true,
        confirmMtMatches: true,
        confirm100NonTranslatableMatches: true,
        autoPropagateRepetitions: true,
        setProjectStatusCompleted: true,
      });
      expect(written).toMatchObject({ translationMemoryThreshold: 0.95, confirmMtMatches: true, overwriteExistingTranslations: false });
      const expected = preTranslateDefaults();
      expected.setProjectStatusCompleted = true;
      Object.assign(expected.translationMemorySettings, {
        useTranslationMemory: true,
        translationMemoryThreshold: 0.95,
        confirm100PercentMatches: true,
      });
      expected.machineTranslationSettings.confirmMatches = true;
      expected.nonTranslatableSettings.confirm100PercentMatches = true;
      expected.repetitionsSettings.autoPropagateRepetitions = true;
      expect(await ok('GET', v4, home.headers)).toEqual(expected);
      expect(await ok('GET', `v1/${kind}/${uid}/preTranslateSettings`, home.headers)).toEqual(written);
      await ok('PUT', `v1/${kind}/${uid}/preTranslateSettings`, home.headers, {});
      expect(await ok('GET', v4, home.headers)).toEqual(preTranslateDefaults());
      await refused('PUT', `v1/${kind}/${uid}/preTranslateSettings`, { translationMemoryThreshold: 2 }, 'translationMemoryThreshold');
    }
    // The older forms are marked deprecated in the OpenAPI document.
    const openapi = (await t.inject({ method: 'GET', url: '/api2/openapi.json' })).json();
    for (const path of [
      '/api2/v1/projects/{projectUid}/preTranslateSettings',
      '/api2/v2/projects/{projectUid}/preTranslateSettings',
      '/api2/v1/projectTemplates/{projectTemplateUid}/preTranslateSettings',
      '/api2/v2/projectTemplates/{projectTemplateUid}/preTranslateSettings',
    ]) {
      expect(openapi.paths[path].get.deprecated, path).toBe(true);
      expect(openapi.paths[path].put.deprecated, path).toBe(true);
    }
    expect(openapi.paths['/api2/v4/projects/{projectUid}/preTranslateSettings'].get.deprecated ?? false).toBe(false);
  });

  it('gives a project made from a template the template’s MT and pre-translate settings', async () => {
    const tpl = await template(['de', 'fr', 'ja']);
    await ok('PUT', `v3/projectTemplates/${tpl.uid}/mtSettings`, home.headers, {
      machineTranslateSettingsPerLangs: [
        { targetLang: 'de', machineTranslateSettings: { uid: beta.uid } },
        { targetLang: 'fr', machineTranslateSettings: { uid: alpha.uid } },
      ],
    });
    const document = await ok('PUT', `v4/projectTemplates/${tpl.uid}/preTranslateSettings`, home.headers, {
      preTranslateOnJobCreation: true,
      machineTranslationSettings: { useMachineTranslation: true },
    });
    // The project has de and ja: fr's settings are left out, ja has none.
    const made = await ok(
      'POST',
      `v2/projects/applyTemplate/${tpl.uid}`,
      home.headers,
      { name: uniqueName('From template'), targetLangs: ['de', 'ja'] },
      201,
    );
    expect(summary(await ok('GET', `projects/${made.uid}/mtSettings`, home.headers))).toEqual([['de', beta.uid]]);
    expect(await ok('GET', `v4/projects/${made.uid}/preTranslateSettings`, home.headers)).toEqual(document);
    // Settings for every language travel as they are.
    await ok('PUT', `v3/projectTemplates/${tpl.uid}/mtSettings`, home.headers, { machineTranslateSettings: { uid: alpha.uid } });
    const second = await ok('POST', `v2/projects/applyTemplate/${tpl.uid}`, home.headers, { name: uniqueName('From template') }, 201);
    expect(summary(await ok('GET', `projects/${second.uid}/mtSettings`, home.headers))).toEqual([[null, alpha.uid]]);
    expect(second.mtSettingsPerLanguageList).toEqual([
      { targetLang: null, machineTranslateSettings: { id: alpha.id, uid: alpha.uid, name: alpha.name, type: 'Apertium' } },
    ]);
    // A template made from a project keeps its pre-translate settings.
    const copy = await ok('POST', 'projectTemplates', home.headers, { project: { uid: second.uid }, name: uniqueName('Copy') }, 201);
    expect(await ok('GET', `v4/projectTemplates/${copy.uid}/preTranslateSettings`, home.headers)).toEqual(document);
  });

  it('applies machineTranslateSettings and machineTranslateSettingsPerLangs of PATCH by the v3 rules', async () => {
    const p = await project();
    const url = `v1/projects/${p.uid}`;
    const mt = () => ok('GET', `projects/${p.uid}/mtSettings`, home.headers);
    const patched = await ok('PATCH', url, home.headers, { machineTranslateSettings: { uid: alpha.uid } });
    expect(patched.mtSettingsPerLanguageList.map((e: any) => [e.targetLang, e.machineTranslateSettings.uid])).toEqual([[null, alpha.uid]]);
    const perLang = await ok('PATCH', url, home.headers, {
      machineTranslateSettingsPerLangs: [{ targetLang: 'de', machineTranslateSettings: { uid: beta.uid } }],
    });
    expect(perLang.mtSettingsPerLanguageList.map((e: any) => [e.targetLang, e.machineTranslateSettings.uid])).toEqual([
      ['de', beta.uid],
      ['fr', alpha.uid],
      ['ja', alpha.uid],
    ]);
    // Other fields leave them alone; an entry without settings clears its language.
    expect((await ok('PATCH', url, home.headers, { name: 'Renamed' })).mtSettingsPerLanguageList).toHaveLength(3);
    await ok('PATCH', url, home.headers, { machineTranslateSettingsPerLangs: [{ targetLang: 'ja' }] });
    expect(summary(await mt())).toEqual([
      ['de', beta.uid],
      ['fr', alpha.uid],
    ]);
    // Unknown settings or languages: 400 naming the field, nothing changed (the name neither).
    await refused(
      'PATCH',
      url,
      { name: 'Not this', machineTranslateSettings: { uid: 'nope' } },
      'machineTranslateSettings',
      'ReferenceNotFound',
    );
    await refused(
      'PATCH',
      url,
      { machineTranslateSettingsPerLangs: [{ targetLang: 'de', machineTranslateSettings: { uid: 'nope' } }] },
      'machineTranslateSettingsPerLangs[0].machineTranslateSettings',
      'ReferenceNotFound',
    );
    await refused(
      'PATCH',
      url,
      { machineTranslateSettingsPerLangs: [{ targetLang: 'it', machineTranslateSettings: { uid: alpha.uid } }] },
      'machineTranslateSettingsPerLangs[0].targetLang',
    );
    expect((await ok('GET', `projects/${p.uid}`, home.headers)).name).toBe('Renamed');
    expect(summary(await mt())).toHaveLength(2);
    // null clears them.
    expect((await ok('PATCH', url, home.headers, { machineTranslateSettings: null })).mtSettingsPerLanguageList).toEqual([]);
  });

  it('answers a job’s translation resources: the MT settings of its language, the TMs and term bases of its context', async () => {
    const p = await project(['de', 'fr']);
    const { jobs } = await makeJobs(t, p, { providerUserIds: [linguistId] });
    const de = jobs.find((j) => j.targetLang === 'de')!;
    const fr = jobs.find((j) => j.targetLang === 'fr')!;
    const url = (job: { uid: string }) => `projects/${p.uid}/jobs/${job.uid}/translationResources`;
    expect(await ok('GET', url(de), linguist)).toEqual({ machineTranslateSettings: null, translationMemories: [], termBases: [] });

    const tm = await ok(
      'POST',
      'transMemories',
      home.headers,
      { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['de', 'fr'] },
      201,
    );
    const deTm = await ok('POST', 'transMemories', home.headers, { name: uniqueName('TM de'), sourceLang: 'en', targetLangs: ['de'] }, 201);
    await ok('PUT', `v3/projects/${p.uid}/transMemories`, home.headers, {
      dataPerContext: [
        { transMemories: [{ transMemory: { uid: tm.uid }, readMode: true, writeMode: true, penalty: 2 }] },
        {
          targetLang: 'de',
          transMemories: [
            { transMemory: { uid: deTm.uid }, readMode: true, writeMode: false },
            { transMemory: { uid: tm.uid }, readMode: true, writeMode: true },
          ],
        },
      ],
    });
    const tb = await ok('POST', 'termBases', home.headers, { name: uniqueName('TB'), langs: ['en', 'de', 'fr'] });
    const qa = await ok('POST', 'termBases', home.headers, { name: uniqueName('QA TB'), langs: ['en', 'de', 'fr'] });
    await ok('PUT', `projects/${p.uid}/termBases`, home.headers, {
      readTermBases: [{ id: tb.uid }],
      writeTermBase: { id: tb.uid },
      qualityAssuranceTermBases: [{ id: qa.uid }],
    });
    await ok('PUT', `projects/${p.uid}/mtSettingsPerLanguage`, home.headers, {
      mtSettingsPerLangList: [{ targetLang: 'de', machineTranslateSettings: { id: beta.uid } }],
    });

    const resources = await ok('GET', url(de), linguist);
    expect(resources.machineTranslateSettings).toEqual({ id: beta.id, uid: beta.uid, name: beta.name, type: 'Apertium' });
    expect(resources.translationMemories).toEqual([
      {
        id: deTm.id,
        transMem: { id: deTm.id, uid: deTm.uid },
        name: deTm.name,
        workflowStep: null,
        targetLang: 'de',
        penalty: 0,
        readMode: true,
      },
      { id: tm.id, transMem: { id: tm.id, uid: tm.uid }, name: tm.name, workflowStep: null, targetLang: 'de', penalty: 0, readMode: true },
    ]);
    expect(resources.termBases).toEqual([
      {
        id: tb.id,
        termBase: { id: tb.id, uid: tb.uid },
        name: tb.name,
        writeMode: true,
        targetLang: null,
        readMode: true,
        workflowStep: null,
      },
    ]);
    // fr: no MT settings of its own, the TMs of every language.
    const french = await ok('GET', url(fr), home.headers);
    expect(french.machineTranslateSettings).toBeNull();
    expect(french.translationMemories.map((x: any) => [x.transMem.uid, x.targetLang, x.penalty])).toEqual([[tm.uid, null, 2]]);
    await ok('PUT', `projects/${p.uid}/mtSettings`, home.headers, { machineTranslateSettings: { id: alpha.id } });
    expect((await ok('GET', url(fr), home.headers)).machineTranslateSettings.uid).toBe(alpha.uid);
  });

  it('lets ADMIN and PROJECT_MANAGER with rights on the record read and change the settings, and no one else', async () => {
    const p = await project(['de']);
    const { jobs } = await makeJobs(t, p, { providerUserIds: [linguistId] });
    const tpl = await template(['de']);
    const other = await project(['de']);
    const { jobs: otherJobs } = await makeJobs(t, other);
    // A linguist: refused the settings (their role), reaches the resources of the jobs they provide only.
    expect((await api('GET', `projects/${p.uid}/mtSettings`, linguist)).statusCode).toBe(403);
    expect((await api('PUT', `projects/${p.uid}/mtSettings`, linguist, {})).statusCode).toBe(403);
    expect((await api('GET', `v4/projects/${p.uid}/preTranslateSettings`, linguist)).statusCode).toBe(403);
    expect((await api('GET', `v1/projects/${p.uid}/preTranslateSettings`, linguist)).statusCode).toBe(403);
    expect((await api('GET', `projects/${other.uid}/mtSettings`, linguist)).statusCode).toBe(403);
    expect((await api('GET', `projectTemplates/${tpl.uid}/mtSettings`, linguist)).statusCode).toBe(403);
    expect((await api('PUT', `v3/projectTemplates/${tpl.uid}/mtSettings`, linguist, {})).statusCode).toBe(403);
    expect((await api('GET', `projects/${p.uid}/jobs/${jobs[0]!.uid}/translationResources`, linguist)).statusCode).toBe(200);
    expect((await api('GET', `projects/${other.uid}/jobs/${otherJobs[0]!.uid}/translationResources`, linguist)).statusCode).toBe(404);
    // Another organization: not found.
    const stranger = await signedInUser(t, 'ADMIN');
    expect((await api('GET', `projects/${p.uid}/mtSettings`, stranger.headers)).statusCode).toBe(404);
    expect((await api('PUT', `v4/projectTemplates/${tpl.uid}/preTranslateSettings`, stranger.headers, {})).statusCode).toBe(404);
    // A project manager who owns the project sets its settings; on another's project without rights they are refused.
    const pmUser = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    const rights = { rights: { projectViewOther: true, projectEditOther: false } };
    await t.database.db
      .updateTable('users')
      .set({ roleSettings: JSON.stringify(parseRoleSettings('PROJECT_MANAGER', JSON.stringify(rights))) })
      .where('id', '=', pmUser.id)
      .execute();
    const pm = apiToken(await loginAs(t, pmUser));
    const own = await makeProject(t, home.organization.id, { sourceLang: 'en', targetLangs: ['de'], createdById: pmUser.id });
    expect(summary(await ok('PUT', `projects/${own.uid}/mtSettings`, pm, { machineTranslateSettings: { id: alpha.uid } }))).toEqual([
      [null, alpha.uid],
    ]);
    expect(
      (await ok('PUT', `v4/projects/${own.uid}/preTranslateSettings`, pm, { setJobStatusCompleted: true })).setJobStatusCompleted,
    ).toBe(true);
    // Another's project: read with projectViewOther, not changed without projectEditOther.
    expect((await api('GET', `projects/${p.uid}/mtSettings`, pm)).statusCode).toBe(200);
    expect((await api('PUT', `projects/${p.uid}/mtSettings`, pm, {})).statusCode).toBe(403);
    expect((await api('PUT', `v1/projects/${p.uid}/preTranslateSettings`, pm, {})).statusCode).toBe(403);
  });
});
