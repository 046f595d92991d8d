import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisTask } from '../src/modules/quoting/analyses/index.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { waitFor } from './support/wait.js';
import { makeJobs } from './support/workflow-factories.js';

/**
 * Analysis settings of projects and project templates (docs/analysis.md, "Analysis settings"):
 * defaults, the template's edit, the copy into projects made from the template (and back into a
 * template made from such a project), and an analysis that uses the project's settings.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

const DEFAULTS = {
  type: 'PreAnalyse',
  includeFuzzyRepetitions: true,
  separateFuzzyRepetitions: false,
  includeConfirmedSegments: true,
  includeNumbers: true,
  includeLockedSegments: true,
  countSourceUnits: true,
  includeTransMemory: true,
  includeNonTranslatables: false,
  includeMachineTranslationMatches: false,
  transMemoryPostEditing: false,
  nonTranslatablePostEditing: false,
  machineTranslatePostEditing: false,
  namingPattern: null,
  analyzeByLanguage: false,
  analyzeByProvider: true,
  allowAutomaticPostAnalysis: false,
};

describe('analysis settings of projects and templates', () => {
  let t: TestApp;
  let worker: Worker;
  let headers: Headers;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);
  async function ok(method: Method, url: string, payload?: unknown, status = 200, as: Headers = headers): Promise<any> {
    const response = await api(method, url, as, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    headers = home.headers;
    worker = startWorker(t.deps, createTaskRegistry([analysisTask]), { listenConnectionString: null });
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  const newProject = () => ok('POST', 'v3/projects', { name: uniqueName('Project'), sourceLang: 'en', targetLangs: ['de'] }, 201);
  const newTemplate = async () => {
    const source = await newProject();
    return ok('POST', 'v1/projectTemplates', { project: { uid: source.uid }, name: uniqueName('Template') }, 201);
  };

  it('answers the defaults of an analysis request where nothing is stored', async () => {
    const project = await newProject();
    expect(await ok('GET', `v1/projects/${project.uid}/analyseSettings`)).toEqual(DEFAULTS);
    const template = await newTemplate();
    expect(await ok('GET', `v1/projectTemplates/${template.uid}/analyseSettings`)).toEqual(DEFAULTS);
  });

  it('replaces a template’s settings (fields left out take the defaults) and refuses both groupings at once', async () => {
    const template = await newTemplate();
    const edited = await ok('PUT', `v1/projectTemplates/${template.uid}/analyseSettings`, {
      includeNonTranslatables: true,
      includeTransMemory: false,
      analyzeByLanguage: true,
      namingPattern: '{projectName} {targetLang}',
    });
    expect(edited).toEqual({
      ...DEFAULTS,
      includeNonTranslatables: true,
      includeTransMemory: false,
      analyzeByLanguage: true,
      analyzeByProvider: false,
      namingPattern: '{projectName} {targetLang}',
    });
    expect(await ok('GET', `v1/projectTemplates/${template.uid}/analyseSettings`)).toEqual(edited);
    // A PUT replaces the whole document.
    expect(await ok('PUT', `v1/projectTemplates/${template.uid}/analyseSettings`, { type: 'PostAnalyse' })).toEqual({
      ...DEFAULTS,
      type: 'PostAnalyse',
    });

    const both = await api('PUT', `v1/projectTemplates/${template.uid}/analyseSettings`, headers, {
      analyzeByLanguage: true,
      analyzeByProvider: true,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().errorDescription).toContain('mutually exclusive');
    await ok('PUT', `v1/projectTemplates/${template.uid}/analyseSettings`, { type: 'PreAnalyseTarget' }, 400);
    await ok('PUT', `v1/projectTemplates/${template.uid}/analyseSettings`, { namingPattern: 'x'.repeat(256) }, 400);
    await ok('GET', 'v1/projectTemplates/unknown/analyseSettings', undefined, 404);
    await ok('GET', 'v1/projects/unknown/analyseSettings', undefined, 404);

    // Linguists have no analysis settings to read (DOWNLOAD is their only analysis right).
    const linguist = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    const linguistHeaders = apiToken(await loginAs(t, linguist));
    await ok('GET', `v1/projectTemplates/${template.uid}/analyseSettings`, undefined, 403, linguistHeaders);
  });

  it('copies the template’s settings into a project made from it, and back into a template made from that project; an analysis uses them', async () => {
    const template = await newTemplate();
    const stored = await ok('PUT', `v1/projectTemplates/${template.uid}/analyseSettings`, {
      includeNonTranslatables: true,
      separateFuzzyRepetitions: true,
      includeNumbers: false,
    });
    const project = await ok('POST', `v2/projects/applyTemplate/${template.uid}`, { name: uniqueName('From template') }, 201);
    expect(await ok('GET', `v1/projects/${project.uid}/analyseSettings`)).toEqual(stored);
    const again = await ok('POST', 'v1/projectTemplates', { project: { uid: project.uid }, name: uniqueName('Template again') }, 201);
    expect(await ok('GET', `v1/projectTemplates/${again.uid}/analyseSettings`)).toEqual(stored);

    // useProjectAnalysisSettings: the project's settings, under what the request itself says.
    const row = (await t.database.db
      .selectFrom('projects')
      .selectAll()
      .where('uid', '=', project.uid)
      .executeTakeFirstOrThrow()) as ProjectRow;
    const { jobs } = await makeJobs(t, row, { segments: ['Open the file.', '12.5 %', 'Open the file.'], targetLangs: ['de'] });
    const created = await ok('POST', 'v2/analyses', { jobs: [{ uid: jobs[0]!.uid }], useProjectAnalysisSettings: true });
    const { asyncRequest, analyse } = created.asyncRequests[0];
    t.deps.taskWakeup.notify();
    await waitFor('the analysis', async () => {
      const r = await t.database.db
        .selectFrom('asyncRequests')
        .select('finishedAt')
        .where('id', '=', asyncRequest.id)
        .executeTakeFirstOrThrow();
      return r.finishedAt;
    });
    const analysis = await ok('GET', `v3/analyses/${analyse.uid}`);
    expect(analysis.settings).toMatchObject({ includeNonTranslatables: true, separateFuzzyRepetitions: true, includeNumbers: false });
    const data = analysis.analyseLanguageParts[0].data;
    // "12.5 %" is a non-translatable (and, without numbers, counts no word); the second "Open the file." a repetition.
    expect(data.nonTranslatablesMatches.match100).toMatchObject({ segments: 1, words: 0 });
    expect(data.repetitions).toMatchObject({ segments: 1, words: 3 });
    expect(data.all).toMatchObject({ segments: 3, words: 6 });
  });
});
