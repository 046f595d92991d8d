import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobTask } from '../src/modules/translation-workflow/jobs/index.js';
import { preTranslateTask } from '../src/modules/translation-workflow/pre-translation/index.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apertiumUrl } from './support/apertium.js';
import { asyncResponseOf } from './support/async-requests.js';
import { waitFor } from './support/wait.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import { signedInUser } from './factories.js';

/**
 * Issue 17, point 4: pre-translation from TMs, non-translatables and a real apertium-apy, with
 * each setting, origins, the MT cache and usage, an engine that is down, and JOB_TARGET_UPDATED
 * (docs/machine-translation.md, "Pre-translation").
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

const apy = await apertiumUrl();
if (!apy)
  console.warn('apertium-apy is not installed (apt-get install apertium-apy apertium-eng-spa): the pre-translation tests are skipped.');

async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const SEGMENTS = [
  'Welcome.', // 0: no TM match → MT
  'Open the file.', // 1: exact in context (101)
  'Close the window.', // 2: no TM match → MT
  'Print the page.', // 3: exact, other neighbours (100)
  'You have 5 new messages.', // 4: a number changed (99)
  '12.5 %', // 5: non-translatable
  'Click {1>Save<1} to keep your work.', // 6: MT with a tag pair
  '', // 7: empty
];

describe.skipIf(!apy)(`pre-translation (${testDialect})`, () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Awaited<ReturnType<typeof signedInUser>>;
  let worker: Worker;
  let project: ProjectRow;
  let mtUid: string;
  let tmUid: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_MT_REQUEST_TIMEOUT_MS: '30000', OPENTMS_MT_ATTEMPTS: '2' } });
    home = await signedInUser(t, 'ADMIN');
    linguist = await signedInUser(t, 'LINGUIST', home.organization);
    worker = startWorker(t.deps, createTaskRegistry([preTranslateTask, importJobTask]), { listenConnectionString: null });
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['es'] });
    const tm = await ok('POST', 'v1/transMemories', { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['es'] }, home.headers, 201);
    tmUid = tm.uid;
    const insert = (body: object) => ok('POST', `v1/transMemories/${tm.uid}/segments`, { targetLang: 'es', ...body }, home.headers, 204);
    await insert({
      sourceSegment: 'Open the file.',
      targetSegment: 'Abra el archivo.',
      previousSourceSegment: 'Welcome.',
      nextSourceSegment: 'Close the window.',
    });
    await insert({ sourceSegment: 'Print the page.', targetSegment: 'Imprima la página.', previousSourceSegment: 'Elsewhere.' });
    await insert({ sourceSegment: 'You have 3 new messages.', targetSegment: 'Tiene 3 mensajes nuevos.' });
    await ok('PUT', `v3/projects/${project.uid}/transMemories`, {
      dataPerContext: [{ transMemories: [{ transMemory: { uid: tm.uid }, readMode: true, writeMode: false }] }],
    });
    const mt = await ok('POST', 'v1/machineTranslateSettings', { name: uniqueName('Apertium'), type: 'Apertium', args: { url: apy } });
    mtUid = mt.uid;
    await ok('PUT', `v1/projects/${project.uid}/mtSettings`, { machineTranslateSettings: { id: mt.uid } });
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);
  async function ok(method: Method, url: string, payload?: unknown, headers: Headers = home.headers, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  const newJob = async (segments = SEGMENTS) =>
    (await makeJobs(t, project, { filename: `${uniqueName('f')}.txt`, segments, targetLangs: ['es'], createdById: home.user.id })).jobs[0]!;
  const rows = (jobId: string) => t.database.db.selectFrom('jobSegments').selectAll().where('jobId', '=', jobId).orderBy('idx').execute();
  const consumed = async () => (await ok('GET', 'v1/mtuUsage')).consumedMtus as number;
  async function preTranslate(jobUids: string[], body: Record<string, unknown> = {}, projectUid = project.uid) {
    const accepted = await ok(
      'POST',
      `v3/projects/${projectUid}/jobs/preTranslate`,
      { jobs: jobUids.map((uid) => ({ uid })), ...body },
      home.headers,
      202,
    );
    expect(accepted.asyncRequest).toMatchObject({ action: 'PRE_TRANSLATE' });
    const response = await asyncResponseOf<any>(t, home.headers, accepted.asyncRequest.id);
    const request = await ok('GET', `v1/async/${accepted.asyncRequest.id}`);
    return { response, request };
  }

  it('fills from the TM above the threshold, copies non-translatables, machine-translates the rest, and records each origin', async () => {
    const job = await newJob();
    const before = await consumed();
    const { response, request } = await preTranslate([job.uid], {
      preTranslateSettings: {
        translationMemorySettings: { confirm101PercentMatches: true, lock101PercentMatches: true, confirm100PercentMatches: true },
      },
    });
    expect(response.errorCode).toBeNull();
    expect(request.progress).toEqual({ done: SEGMENTS.length, total: SEGMENTS.length });
    const filled = new Map((await rows(job.id)).map((r) => [Number(r.idx), r]));
    expect(filled.get(1)).toMatchObject({ target: 'Abra el archivo.', origin: 'tm', originScore: 1.01, originResource: tmUid });
    expect(Boolean(filled.get(1)!.confirmed) && Boolean(filled.get(1)!.locked)).toBe(true);
    expect(filled.get(3)).toMatchObject({ target: 'Imprima la página.', origin: 'tm', originScore: 1 });
    expect(Boolean(filled.get(3)!.confirmed)).toBe(true);
    expect(Boolean(filled.get(3)!.locked)).toBe(false);
    expect(filled.get(4)).toMatchObject({ target: 'Tiene 3 mensajes nuevos.', origin: 'tm' });
    expect(filled.get(4)!.originScore).toBeLessThan(1);
    expect(Boolean(filled.get(4)!.confirmed)).toBe(false);
    expect(filled.get(5)).toMatchObject({ target: '12.5 %', origin: 'nt', originScore: 1 });
    for (const idx of [0, 2, 6]) expect(filled.get(idx)).toMatchObject({ origin: 'mt', originResource: mtUid, originScore: null });
    expect(filled.get(2)!.target).toMatch(/ventana/i);
    expect(filled.get(6)!.target).toMatch(/\{1>.+<1\}/);
    expect(filled.has(7)).toBe(false);
    expect(await consumed()).toBeGreaterThan(before);
    expect(response.acceptedSegmentsCount).toBe(7);
  });

  it('keeps existing translations and locked segments unless told to overwrite; the cache answers the second time', async () => {
    const job = await newJob(['Welcome.', 'Close the window.', 'Good morning.']);
    const now = t.clock().toISOString();
    await t.database.db
      .insertInto('jobSegments')
      .values([
        { jobId: job.id, idx: 0, target: 'Mine.', locked: false, modifiedAt: now, modifiedById: null },
        { jobId: job.id, idx: 2, target: 'Cerrado.', locked: true, modifiedAt: now, modifiedById: null },
      ])
      .execute();
    await preTranslate([job.uid]);
    let filled = await rows(job.id);
    expect(filled.map((r) => r.target)).toEqual(['Mine.', expect.stringMatching(/ventana/i), 'Cerrado.']);
    const afterFirst = await consumed();
    await preTranslate([job.uid], { preTranslateSettings: { overwriteExistingTranslations: true } });
    filled = await rows(job.id);
    expect(filled[0]!.target).not.toBe('Mine.');
    expect(filled[0]!.origin).toBe('mt');
    expect(filled[2]!.target).toBe('Cerrado.');
    // "Welcome." and "Close the window." were translated before: only nothing new was sent.
    expect(await consumed()).toBe(afterFirst);
  });

  it('leaves segments without a TM match empty when MT is off, and uses the project settings when asked', async () => {
    const job = await newJob(['Open the file.', 'Something quite new here.']);
    await preTranslate([job.uid], { preTranslateSettings: { machineTranslationSettings: { useMachineTranslation: false } } });
    expect((await rows(job.id)).map((r) => [Number(r.idx), r.origin])).toEqual([[0, 'tm']]);
    await ok('PUT', `v4/projects/${project.uid}/preTranslateSettings`, {
      translationMemorySettings: { useTranslationMemory: false },
      machineTranslationSettings: { useMachineTranslation: true },
      overwriteExistingTranslations: true,
    });
    await preTranslate([job.uid], { useProjectPreTranslateSettings: true });
    expect((await rows(job.id)).map((r) => r.origin)).toEqual(['tm', 'mt']);
  });

  it('applies the threshold, the non-translatable and 100 % flags and the segment filters', async () => {
    const job = await newJob(['Print the page.', 'You have 5 new messages.', '42 %', 'Open the file.']);
    const settings = {
      machineTranslationSettings: { useMachineTranslation: false },
      translationMemorySettings: { translationMemoryThreshold: 1.0, lock100PercentMatches: true },
      nonTranslatableSettings: { confirm100PercentMatches: true, lock100PercentMatches: true },
    };
    // Only locked segments: nothing is locked yet, so nothing changes.
    await preTranslate([job.uid], { segmentFilters: ['LOCKED'], preTranslateSettings: settings });
    expect(await rows(job.id)).toEqual([]);
    await preTranslate([job.uid], { segmentFilters: ['NOT_LOCKED'], preTranslateSettings: settings });
    const filled = new Map((await rows(job.id)).map((r) => [Number(r.idx), r]));
    // 100 and 101 reach a threshold of 1.0; the 99 does not.
    expect(filled.get(0)).toMatchObject({ origin: 'tm', originScore: 1 });
    expect(Boolean(filled.get(0)!.locked)).toBe(true);
    expect(Boolean(filled.get(0)!.confirmed)).toBe(false);
    expect(filled.has(1)).toBe(false);
    expect(filled.get(2)).toMatchObject({ origin: 'nt', target: '42 %' });
    expect(Boolean(filled.get(2)!.confirmed) && Boolean(filled.get(2)!.locked)).toBe(true);
    expect(filled.get(3)).toMatchObject({ origin: 'tm' });
  });

  it('ends with the segments it could not fill left empty and reported when the engine is down', async () => {
    const down = await ok('POST', 'v1/machineTranslateSettings', {
      name: uniqueName('Down'),
      type: 'Apertium',
      args: { url: `http://127.0.0.1:${await deadPort()}` },
    });
    const other = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['es'] });
    await ok('PUT', `v1/projects/${other.uid}/mtSettings`, { machineTranslateSettings: { id: down.uid } });
    const job = (await makeJobs(t, other, { segments: ['Hello there.', '42'], targetLangs: ['es'], createdById: home.user.id })).jobs[0]!;
    const accepted = await ok('POST', `v3/projects/${other.uid}/jobs/preTranslate`, { jobs: [{ uid: job.uid }] }, home.headers, 202);
    const response = await asyncResponseOf<any>(t, home.headers, accepted.asyncRequest.id);
    expect(response.errorCode).toBeNull();
    const failed = response.warnings.find((w: any) => w.code === 'MachineTranslationFailed');
    expect(failed.args.segments).toEqual([expect.objectContaining({ job: job.uid, index: 0 })]);
    expect((await rows(job.id)).map((r) => [Number(r.idx), r.origin])).toEqual([[1, 'nt']]);
  });

  it('pre-translates the jobs of a createJob request with preTranslate once their file is imported', async () => {
    // Job creation pre-translates with the project's settings.
    await ok('PUT', `v4/projects/${project.uid}/preTranslateSettings`, {
      translationMemorySettings: { useTranslationMemory: true, translationMemoryThreshold: 0.7 },
      machineTranslationSettings: { useMachineTranslation: true },
    });
    const created = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs`,
      headers: {
        ...home.headers,
        'content-type': 'application/octet-stream',
        'content-disposition': "attachment; filename*=UTF-8''created.txt",
        memsource: JSON.stringify({ targetLangs: ['es'], preTranslate: true }),
      },
      payload: Buffer.from('Open the file.\nThe big house is red.\n', 'utf8'),
    });
    expect(created.statusCode, created.body).toBe(201);
    const jobUid = created.json().jobs[0].uid as string;
    const job = await t.database.db.selectFrom('jobs').select('id').where('uid', '=', jobUid).executeTakeFirstOrThrow();
    const filled = await waitFor(
      'the created job to be pre-translated',
      async () => {
        const list = await rows(job.id);
        return list.length === 2 ? list : null;
      },
      30_000,
      50,
    );
    expect(filled.map((r) => r.origin)).toEqual(['tm', 'mt']);
  });

  it('sets the jobs to completed (always, or when every segment is confirmed) and the project once all its jobs are', async () => {
    const other = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['es'] });
    await ok('PUT', `v3/projects/${other.uid}/transMemories`, {
      dataPerContext: [{ transMemories: [{ transMemory: { uid: tmUid }, readMode: true, writeMode: false }] }],
    });
    const make = async (segments: string[]) =>
      (await makeJobs(t, other, { filename: `${uniqueName('f')}.txt`, segments, targetLangs: ['es'], createdById: home.user.id })).jobs[0]!;
    const status = async (jobId: string) =>
      (await t.database.db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirstOrThrow()).status;
    const tmOnly = {
      machineTranslationSettings: { useMachineTranslation: false },
      translationMemorySettings: { confirm100PercentMatches: true },
    };
    // Confirmed 100 % matches only: completed when confirmed; a segment without a match keeps the other job open.
    const confirmed = await make(['Print the page.']);
    const partly = await make(['Print the page.', 'Something new.']);
    await preTranslate(
      [confirmed.uid, partly.uid],
      {
        preTranslateSettings: { ...tmOnly, setJobStatusCompletedWhenConfirmed: true, setProjectStatusCompleted: true },
      },
      other.uid,
    );
    expect(await status(confirmed.id)).toBe('COMPLETED');
    expect(await status(partly.id)).toBe('NEW');
    expect(
      (await t.database.db.selectFrom('projects').select('status').where('id', '=', other.id).executeTakeFirstOrThrow()).status,
    ).not.toBe('COMPLETED');
    // Then completed as such, and with it every job of the project: the project too.
    await preTranslate(
      [partly.uid],
      { preTranslateSettings: { ...tmOnly, setJobStatusCompleted: true, setProjectStatusCompleted: true } },
      other.uid,
    );
    expect(await status(partly.id)).toBe('COMPLETED');
    expect((await t.database.db.selectFrom('projects').select('status').where('id', '=', other.id).executeTakeFirstOrThrow()).status).toBe(
      'COMPLETED',
    );
  });

  it('emits JOB_TARGET_UPDATED for the jobs it changed', async () => {
    await ok('POST', 'v2/webhooks', { url: 'https://hooks.example.test/in', events: ['JOB_TARGET_UPDATED'] }, home.headers, 201);
    const job = await newJob(['Open the file.']);
    await preTranslate([job.uid]);
    const calls = await t.database.db.selectFrom('webhookCalls').select('body').where('event', '=', 'JOB_TARGET_UPDATED').execute();
    expect(calls.flatMap((c) => (JSON.parse(c.body) as { jobParts: { uid: string }[] }).jobParts.map((j) => j.uid))).toContain(job.uid);
  });

  it('refuses linguists, unknown jobs and bad settings with 4xx, changing nothing', async () => {
    const job = await newJob(['Open the file.']);
    const asLinguist = await api('POST', `v3/projects/${project.uid}/jobs/preTranslate`, linguist.headers, { jobs: [{ uid: job.uid }] });
    expect([403, 404]).toContain(asLinguist.statusCode);
    const unknown = await api('POST', `v3/projects/${project.uid}/jobs/preTranslate`, home.headers, { jobs: [{ uid: 'nope' }] });
    expect(unknown.statusCode).toBe(404);
    const bad = await api('POST', `v3/projects/${project.uid}/jobs/preTranslate`, home.headers, {
      jobs: [{ uid: job.uid }],
      preTranslateSettings: { translationMemorySettings: { translationMemoryThreshold: 2 } },
    });
    expect(bad.statusCode).toBe(400);
    const tooMany = await api('POST', `v3/projects/${project.uid}/jobs/preTranslate`, home.headers, {
      jobs: Array.from({ length: 101 }, () => ({ uid: job.uid })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(await rows(job.id)).toEqual([]);
  });

  it('translates texts of a job with the project MT (linguists of the job too), and refuses human translation clearly', async () => {
    const job = (
      await makeJobs(t, project, {
        segments: ['Hello.'],
        targetLangs: ['es'],
        createdById: home.user.id,
        providerUserIds: [linguist.user.id],
      })
    ).jobs[0]!;
    const url = `v1/projects/${project.uid}/jobs/${job.uid}/translations/translateWithMachineTranslation`;
    const { translations } = await ok('POST', url, { sourceTexts: ['The red car is fast.'] }, linguist.headers);
    expect(translations[0]).toMatch(/coche/i);
    const human = await api('POST', `v1/projects/${project.uid}/jobs/humanTranslate`, home.headers, {
      jobs: [{ uid: job.uid }],
      humanTranslateSettings: { id: '1' },
    });
    expect(human.statusCode).toBe(400);
    expect(human.json().errorCode).toBe('HumanTranslationNotConfigured');
    const other = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['es'] });
    const noMt = (await makeJobs(t, other, { segments: ['Hi.'], targetLangs: ['es'], createdById: home.user.id })).jobs[0]!;
    const refused = await api(
      'POST',
      `v1/projects/${other.uid}/jobs/${noMt.uid}/translations/translateWithMachineTranslation`,
      home.headers,
      { sourceTexts: ['Hi.'] },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorCode).toBe('MtSettingsNotAssigned');
  });
});
