import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateTargetTask } from '../src/modules/translation-workflow/job-updates/update-target.js';
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
 * Issue 14, write-back (docs/translation-memory.md, "Write-back"): updateTarget confirms segments,
 * and the confirmed pairs go into the project's TMs with write enabled, in the same transaction:
 * a search right after finds them; a TM with write off gets nothing.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('write-back of confirmed segments into the project TMs', () => {
  let t: TestApp;
  let worker: Worker;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Headers;
  let project: ProjectRow;

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);
  async function ok(method: Method, url: string, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    headers = home.headers;
    project = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de', 'fr'] });
    worker = startWorker(t.deps, createTaskRegistry([updateTargetTask]), { listenConnectionString: null });
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  async function finished(id: string) {
    t.deps.taskWakeup.notify();
    const row = await waitFor(`async request ${id}`, async () => {
      const r = await t.database.db.selectFrom('asyncRequests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return r.finishedAt ? r : null;
    });
    return JSON.parse(row.response!) as { errorCode: string | null };
  }

  const uploadTarget = (jobUid: string, content: string) =>
    t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/target`,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''doc.txt`,
        memsource: JSON.stringify({ jobs: [{ uid: jobUid }] }),
      },
      payload: content,
    });

  it("writes a confirmed job's translations into the write TMs at once, with context and origin; a TM with write off gets nothing", async () => {
    const createTm = async () =>
      ok('POST', 'v1/transMemories', { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['de', 'fr'] }, 201);
    const [written, readOnly, frenchOnly] = [await createTm(), await createTm(), await createTm()];
    await ok('PUT', `v3/projects/${project.uid}/transMemories`, {
      dataPerContext: [
        {
          targetLang: 'de',
          transMemories: [
            { transMemory: { uid: written.uid }, readMode: true, writeMode: true },
            { transMemory: { uid: readOnly.uid }, readMode: true },
          ],
        },
        { targetLang: 'fr', transMemories: [{ transMemory: { uid: frenchOnly.uid }, readMode: true, writeMode: true }] },
      ],
    });
    const made = await makeJobs(t, project, {
      filename: 'doc.txt',
      segments: ['Hello world.', 'Second line.', 'Third line.'],
      targetLangs: ['de'],
      createdById: home.user.id,
    });
    const de = made.jobs[0]!;
    const upload = await uploadTarget(de.uid, 'Hallo Welt.\nZweite Zeile.\nThird line.');
    expect(upload.statusCode, upload.body).toBe(202);
    expect((await finished(upload.json().asyncRequest.id)).errorCode).toBeNull();

    // Right after: the job's search finds its own confirmed translation, in context (101).
    const found = await ok('POST', `v1/projects/${project.uid}/jobs/${de.uid}/transMemories/searchSegment`, {
      segment: 'Second line.',
      previousSegment: 'Hello world.',
      nextSegment: 'Third line.',
    });
    expect(found.searchResults).toHaveLength(1);
    const hit = found.searchResults[0];
    expect(hit).toMatchObject({ transMemory: { uid: written.uid }, grossScore: 1.01, score: 1.01 });
    expect(hit.translations[0]).toMatchObject({
      text: 'Zweite Zeile.',
      lang: 'de',
      filename: 'doc.txt',
      project: { uid: project.uid },
      previousSegment: 'Hello world.',
      nextSegment: 'Third line.',
      createdBy: { userName: home.user.userName },
    });
    const first = await ok('POST', `v3/projects/${project.uid}/jobs/${de.uid}/transMemories/search`, { query: 'Hello world.' });
    expect(first.searchResults.map((r: any) => [r.transMemory.uid, r.translations[0].text])).toEqual([[written.uid, 'Hallo Welt.']]);

    // The unit is the TM's own: the TM's search finds it too; the other TMs got nothing
    // (read only; and the French TM is not written by a German job).
    expect(
      (await ok('POST', `v1/transMemories/${written.uid}/search`, { query: 'Hello world.', sourceLang: 'en' })).searchResults,
    ).toHaveLength(1);
    // Only the two confirmed segments: the untranslated third line (the same as its source) is not confirmed.
    expect((await ok('GET', `v1/transMemories/${written.uid}/metadata`)).segmentsCount).toBe(2);
    expect((await ok('GET', `v1/transMemories/${readOnly.uid}/metadata`)).segmentsCount).toBe(0);
    expect((await ok('GET', `v1/transMemories/${frenchOnly.uid}/metadata`)).segmentsCount).toBe(0);
    const units = await t.database.db.selectFrom('tmUnits').selectAll().where('jobUid', '=', de.uid).orderBy('id').execute();
    expect(units.map((u) => [u.source, u.target, u.targetLang, String(u.projectId)])).toEqual([
      ['Hello world.', 'Hallo Welt.', 'de', String(project.id)],
      ['Second line.', 'Zweite Zeile.', 'de', String(project.id)],
    ]);
  });

  it('writes nothing when updateTarget leaves the changed segments unconfirmed', async () => {
    const tm = await ok('POST', 'v1/transMemories', { name: uniqueName('TM'), sourceLang: 'en', targetLangs: ['de'] }, 201);
    const own = await makeProject(t, home.organization.id, { createdById: home.user.id, targetLangs: ['de'] });
    project = own;
    await ok('PUT', `v3/projects/${own.uid}/transMemories`, {
      dataPerContext: [{ transMemories: [{ transMemory: { uid: tm.uid }, readMode: true, writeMode: true }] }],
    });
    const made = await makeJobs(t, own, { filename: 'doc.txt', segments: ['One.'], createdById: home.user.id });
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${own.uid}/jobs/target`,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''doc.txt`,
        memsource: JSON.stringify({ jobs: [{ uid: made.jobs[0]!.uid }], unconfirmChangedSegments: true }),
      },
      payload: 'Eins.',
    });
    expect(response.statusCode, response.body).toBe(202);
    expect((await finished(response.json().asyncRequest.id)).errorCode).toBeNull();
    expect((await ok('GET', `v1/transMemories/${tm.uid}/metadata`)).segmentsCount).toBe(0);
  });
});
