import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTaskFailureHook, buildTaskRegistry } from '../src/task-handlers.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import type { Headers } from './support/api.js';
import { filePart, jsonPart, multipart, unzip } from './support/upload-bodies.js';
import { waitFor } from './support/wait.js';

/**
 * Issue 6, "Done when": the whole translation workflow over HTTP, with the real worker running the
 * background tasks — a template is made and applied, two files are uploaded for two target
 * languages, imported and read, statuses move through, target files and the byte-identical
 * originals are downloaded, and reference files are handled as the description says.
 */

const TEXT_FILE = 'Welcome to OpenTMS. It keeps your translations.\n\nPlease read the guide first.\n';
const XLIFF_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app.json" source-language="en" target-language="de" datatype="plaintext">
    <body>
      <trans-unit id="greeting" resname="app.greeting"><source>Hello <g id="1">world</g>!</source></trans-unit>
      <trans-unit id="bye" resname="app.bye"><source>Goodbye.</source><target>Auf Wiedersehen.</target></trans-unit>
    </body>
  </file>
</xliff>
`;

describe('the translation workflow, end to end over HTTP', () => {
  let t: TestApp;
  let worker: Worker;
  let admin: Headers;
  let linguist: Headers;
  let linguistUid: string;

  beforeAll(async () => {
    t = await createTestApp();
    worker = startWorker(t.deps, buildTaskRegistry(), {
      listenConnectionString: null,
      pollMilliseconds: 20,
      onTaskFailed: buildTaskFailureHook(t.deps),
    });
    const signedIn = await signedInUser(t, 'ADMIN');
    admin = signedIn.headers;
    const linguistUser = await makeUser(t.database.db, signedIn.organization, { role: 'LINGUIST' });
    linguistUid = linguistUser.uid;
    linguist = apiToken(await loginAs(t, linguistUser));
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
    t.inject({ method, url: `/api2${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  function upload(projectUid: string, filename: string, content: string, targetLangs: string[]) {
    return t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${projectUid}/jobs`,
      headers: {
        ...admin,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
        memsource: JSON.stringify({ targetLangs }),
      },
      payload: Buffer.from(content, 'utf8'),
    });
  }

  async function finished(asyncRequestId: string) {
    return waitFor(
      `async request ${asyncRequestId}`,
      async () => {
        const request = (await call('GET', `/v1/async/${asyncRequestId}`, admin)).json();
        return request.asyncResponse ? request : null;
      },
      15_000,
    );
  }

  it('runs from template to target files', async () => {
    // 1. A template, made from a first project with a two-step workflow, naming the linguist for German translation.
    const steps = (await call('GET', '/v1/workflowSteps', admin)).json().content as Array<{ id: string; uid: string; abbr: string }>;
    const [translation, revision] = [steps.find((s) => s.abbr === 'T')!, steps.find((s) => s.abbr === 'R')!];
    const seed = await call('POST', '/v3/projects', admin, {
      name: 'Seed project',
      sourceLang: 'en',
      targetLangs: ['de', 'fr'],
      workflowSteps: [{ id: translation.id }, { id: revision.id }],
    });
    expect(seed.statusCode).toBe(201);
    const template = await call('POST', '/v1/projectTemplates', admin, { name: 'Product docs', project: { uid: seed.json().uid } });
    expect(template.statusCode).toBe(201);
    const templateUid = template.json().uid as string;
    const edited = await call('PUT', `/v1/projectTemplates/${templateUid}`, admin, {
      templateName: 'Product docs',
      workFlowSettings: [
        { workflowStep: { id: translation.id }, assignedTo: [{ targetLang: 'de', providers: [{ type: 'USER', id: linguistUid }] }] },
        { workflowStep: { id: revision.id } },
      ],
    });
    expect(edited.statusCode).toBe(200);

    // 2. Apply it: the project takes the template's languages and workflow, and no providers yet.
    const applied = await call('POST', `/v2/projects/applyTemplate/${templateUid}`, admin, { name: 'Release 2.0 docs' });
    expect(applied.statusCode).toBe(201);
    const project = applied.json();
    expect(project).toMatchObject({ name: 'Release 2.0 docs', sourceLang: 'en', targetLangs: ['de', 'fr'], userRole: 'ADMIN' });
    expect(project.workflowSteps).toHaveLength(2);

    // 3. Two files for two target languages: 2 files × 2 languages × 2 steps = 8 jobs.
    const text = await upload(project.uid, 'guide.txt', TEXT_FILE, ['de', 'fr']);
    const xliff = await upload(project.uid, 'app.xlf', XLIFF_FILE, ['de', 'fr']);
    expect([text.statusCode, xliff.statusCode]).toEqual([201, 201]);
    const textJobs = text.json().jobs as Array<{ uid: string; targetLang: string; workflowLevel: number }>;
    const xliffJobs = xliff.json().jobs as Array<{ uid: string; targetLang: string; workflowLevel: number }>;
    expect(textJobs).toHaveLength(4);
    expect(xliffJobs).toHaveLength(4);
    await finished(text.json().asyncRequest.id);
    await finished(xliff.json().asyncRequest.id);

    // 4. The imports end OK; segments carry source, inline tags and keys.
    const germanText = textJobs.find((j) => j.targetLang === 'de' && j.workflowLevel === 1)!;
    const germanXliff = xliffJobs.find((j) => j.targetLang === 'de' && j.workflowLevel === 1)!;
    const job = (await call('GET', `/v1/projects/${project.uid}/jobs/${germanText.uid}`, admin)).json();
    expect(job.importStatus.status).toBe('OK');
    const textSegments = (
      await call('GET', `/v1/projects/${project.uid}/jobs/${germanText.uid}/segments?beginIndex=0&endIndex=10`, admin)
    ).json().segments;
    expect(textSegments.map((s: { source: string }) => s.source)).toEqual([
      'Welcome to OpenTMS.',
      'It keeps your translations.',
      'Please read the guide first.',
    ]);
    const xliffSegments = (
      await call('GET', `/v1/projects/${project.uid}/jobs/${germanXliff.uid}/segments?beginIndex=0&endIndex=10`, admin)
    ).json().segments;
    expect(xliffSegments[0]).toMatchObject({ source: 'Hello {1>world<1}!', key: 'app.greeting' });
    expect(xliffSegments[0].tags.map((tag: { original: string }) => tag.original)).toEqual(['<g id="1">', '</g>']);
    // Jobs are listed per workflow level (the spec's default is level 1).
    expect((await call('GET', `/v2/projects/${project.uid}/jobs?pageSize=50`, admin)).json().totalElements).toBe(4);
    expect((await call('GET', `/v2/projects/${project.uid}/jobs?workflowLevel=2`, admin)).json().totalElements).toBe(4);

    // 5. The template's providers are assigned on request; the linguist then sees their jobs only.
    expect(
      (await call('POST', `/v1/projects/${project.uid}/applyTemplate/${templateUid}/assignProviders`, admin, {})).statusCode,
    ).toBeLessThan(300);
    const linguistJobs = (await call('GET', `/v2/projects/${project.uid}/jobs`, linguist)).json().content as Array<{ uid: string }>;
    expect(linguistJobs.map((j) => j.uid).sort()).toEqual([germanText.uid, germanXliff.uid].sort());

    // 6. Statuses: the linguist accepts and delivers, the manager completes; the history shows it all.
    const setStatus = (headers: Headers, requestedStatus: string) =>
      call('POST', `/v1/projects/${project.uid}/jobs/${germanText.uid}/setStatus`, headers, { requestedStatus });
    expect((await setStatus(linguist, 'ACCEPTED')).statusCode).toBe(204);
    expect((await setStatus(linguist, 'COMPLETED')).statusCode).toBe(400);
    expect((await setStatus(linguist, 'DELIVERED')).statusCode).toBe(204);
    expect((await setStatus(admin, 'COMPLETED')).statusCode).toBe(204);
    const history = (await call('GET', `/v1/projects/${project.uid}/jobs/${germanText.uid}/statusChanges`, admin)).json().statusChanges;
    expect(history.map((change: { status: string }) => change.status)).toEqual(['NEW', 'ACCEPTED', 'DELIVERED', 'COMPLETED']);
    expect((await call('POST', `/v1/projects/${project.uid}/setStatus`, admin, { status: 'COMPLETED' })).statusCode).toBe(204);

    // 7. Target files: asked for, built by the worker, downloadable once. Untranslated text keeps
    //    the source; the XLIFF keeps its tags and its existing translation.
    for (const [jobUid, check] of [
      [germanText.uid, (body: string) => expect(body).toBe(TEXT_FILE)],
      [germanXliff.uid, (body: string) => expect(body).toContain('Auf Wiedersehen.')],
    ] as const) {
      const asked = await call('PUT', `/v2/projects/${project.uid}/jobs/${jobUid}/targetFile`, admin);
      expect(asked.statusCode).toBe(202);
      const id = asked.json().asyncRequest.id as string;
      await finished(id);
      const download = await call('GET', `/v2/projects/${project.uid}/jobs/${jobUid}/downloadTargetFile/${id}`, admin);
      expect(download.statusCode).toBe(200);
      check(download.body);
      expect((await call('GET', `/v2/projects/${project.uid}/jobs/${jobUid}/downloadTargetFile/${id}`, admin)).statusCode).toBe(410);
    }

    // 8. The originals come back byte for byte, named as uploaded.
    const original = await call('GET', `/v1/projects/${project.uid}/jobs/${germanXliff.uid}/original`, admin);
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals(Buffer.from(XLIFF_FILE, 'utf8'))).toBe(true);
    expect(original.headers['content-disposition']).toContain("filename*=UTF-8''app.xlf");
    expect(original.headers['x-content-type-options']).toBe('nosniff');

    // 9. Reference files: files with a note, a note alone as a .txt, a ZIP of several, deletion by id.
    const withFiles = await multipart([
      filePart('glossary.csv', 'term,Begriff\n'),
      filePart('style.txt', 'Be brief.'),
      jsonPart('Read before starting'),
    ]);
    const created = await t.inject({
      method: 'POST',
      url: `/api2/v2/projects/${project.uid}/references`,
      headers: { ...admin, ...withFiles.headers },
      payload: withFiles.payload,
    });
    expect(created.statusCode).toBe(201);
    const noteOnly = await multipart([jsonPart('Deadline is firm')]);
    const note = await t.inject({
      method: 'POST',
      url: `/api2/v2/projects/${project.uid}/references`,
      headers: { ...admin, ...noteOnly.headers },
      payload: noteOnly.payload,
    });
    expect(note.json().referenceFiles.map((r: { filename: string }) => r.filename)).toEqual(['note.txt']);
    const references = (await call('GET', `/v1/projects/${project.uid}/references`, admin)).json().content as Array<{
      id: string;
      filename: string;
    }>;
    expect(references.map((r) => r.filename).sort()).toEqual(['glossary.csv', 'note.txt', 'style.txt']);
    const zip = await call('POST', `/v1/projects/${project.uid}/references/download`, admin, {
      referenceFiles: references.map((r) => ({ id: r.id })),
    });
    expect(zip.statusCode).toBe(200);
    expect([...unzip(zip.rawPayload).keys()].sort()).toEqual(['glossary.csv', 'note.txt', 'style.txt']);
    const glossary = references.find((r) => r.filename === 'glossary.csv')!;
    expect(
      (await call('DELETE', `/v1/projects/${project.uid}/references`, admin, { referenceFiles: [{ id: glossary.id }] })).statusCode,
    ).toBe(204);
    expect((await call('GET', `/v1/projects/${project.uid}/references`, admin)).json().content).toHaveLength(2);
  });
});
