import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterFor } from '../src/formats/index.js';
import { parseAll } from '../src/formats/testing.js';
import { targetFileTask } from '../src/modules/translation-workflow/job-files/target-file.task.js';
import { pickTranslations, unitTranslations, writeOptions } from '../src/modules/translation-workflow/job-files/target-content.js';
import type { CandidateTranslation, SegmentForTarget } from '../src/modules/translation-workflow/job-files/target-content.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import type { Headers } from './support/api.js';
import { waitFor } from './support/wait.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import type { JobsOptions, MadeJobs } from './support/workflow-factories.js';

describe('target file content (pure rules)', () => {
  const segment = (idx: number, unitLocator: string, source: string, extra: Partial<SegmentForTarget> = {}): SegmentForTarget => ({
    idx,
    unitLocator,
    source,
    gapBefore: '',
    gapAfter: null,
    importedTarget: null,
    ...extra,
  });

  const cases: { name: string; segments: SegmentForTarget[]; translations: [number, string][]; expected: [string, string][] }[] = [
    {
      name: 'a translated one-segment unit',
      segments: [segment(0, '1', 'Hello', { gapAfter: '' })],
      translations: [[0, 'Hallo']],
      expected: [['1', 'Hallo']],
    },
    {
      name: 'no translation: the source is written',
      segments: [segment(0, '1', 'Hello', { gapAfter: '' })],
      translations: [],
      expected: [['1', 'Hello']],
    },
    {
      name: 'segments of one unit are joined with their gaps; untranslated ones keep the source',
      segments: [segment(0, 'u', 'One.', { gapBefore: ' ' }), segment(1, 'u', 'Two.', { gapBefore: '  ', gapAfter: '\t' })],
      translations: [[0, 'Eins.']],
      expected: [['u', ' Eins.  Two.\t']],
    },
    {
      name: 'an imported target stays when nothing is translated (unit left out)',
      segments: [segment(0, 'x', 'Hi', { importedTarget: 'Salut', gapAfter: '' })],
      translations: [],
      expected: [],
    },
    {
      name: 'a translation wins over the imported target',
      segments: [segment(0, 'x', 'Hi', { importedTarget: 'Salut', gapAfter: '' })],
      translations: [[0, 'Coucou']],
      expected: [['x', 'Coucou']],
    },
    {
      name: 'an imported target of a split unit is not used for its untranslated segments',
      segments: [segment(0, 'x', 'A.', { importedTarget: 'Ah. Bé.' }), segment(1, 'x', 'B.', { gapBefore: ' ', gapAfter: '' })],
      translations: [[1, 'Bé.']],
      expected: [['x', 'A. Bé.']],
    },
    {
      name: 'several units, in order',
      segments: [segment(0, '1', 'a', { gapAfter: '' }), segment(1, '3', 'b', { gapAfter: '' })],
      translations: [[1, 'B']],
      expected: [
        ['1', 'a'],
        ['3', 'B'],
      ],
    },
  ];
  it.each(cases)('$name', ({ segments, translations, expected }) => {
    const result = unitTranslations(segments, new Map(translations));
    expect([...result].map(([locator, { text }]) => [locator, text])).toEqual(expected);
  });

  const candidate = (
    idx: number,
    target: string,
    jobId: string,
    workflowLevel = 1,
    range: [number, number] | null = null,
  ): CandidateTranslation => ({
    idx,
    target,
    jobId,
    workflowLevel,
    beginIndex: range?.[0] ?? null,
    endIndex: range?.[1] ?? null,
  });
  const pickCases: { name: string; candidates: CandidateTranslation[]; expected: [number, string][] }[] = [
    { name: 'the job’s own translation', candidates: [candidate(0, 'own', 'j')], expected: [[0, 'own']] },
    {
      name: 'a higher workflow level wins',
      candidates: [candidate(0, 'translated', 't', 1), candidate(0, 'revised', 'j', 2)],
      expected: [[0, 'revised']],
    },
    {
      name: 'a lower level fills in what the job lacks',
      candidates: [candidate(0, 'translated', 't', 1), candidate(1, 'x', 't', 1), candidate(1, 'revised', 'j', 2)],
      expected: [
        [0, 'translated'],
        [1, 'revised'],
      ],
    },
    {
      name: 'the job wins over a split sibling at its level',
      candidates: [candidate(0, 'sibling', 's'), candidate(0, 'own', 'j')],
      expected: [[0, 'own']],
    },
    {
      name: 'rows outside a split part are ignored',
      candidates: [candidate(5, 'stale', 's', 1, [0, 3]), candidate(5, 'part 2', 'j', 1, [4, 9])],
      expected: [[5, 'part 2']],
    },
  ];
  it.each(pickCases)('picks: $name', ({ candidates, expected }) => {
    expect([...pickTranslations('j', candidates)].sort((a, b) => a[0] - b[0])).toEqual(expected);
  });

  it('reads the filter options of the import settings', () => {
    expect(writeOptions('plain-text', JSON.stringify({ txt: { tagRegexp: '\\{\\w+\\}' } }), 'de')).toEqual({
      targetLanguage: 'de',
      tagRegexp: '\\{\\w+\\}',
      formatSettings: { tagRegexp: '\\{\\w+\\}' },
    });
    expect(writeOptions('json', JSON.stringify({ txt: { tagRegexp: 'x' } }), 'fr')).toEqual({ targetLanguage: 'fr' });
    expect(writeOptions('xliff12', 'not json', 'fr')).toEqual({ targetLanguage: 'fr' });
  });
});

describe('job files over HTTP', () => {
  let t: TestApp;
  let worker: Worker | null = null;
  let organization: OrganizationRow;
  let admin: UserRow;
  let adminHeaders: Headers;
  let linguist: UserRow;
  let linguistHeaders: Headers;
  let project: ProjectRow;

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, user: admin, headers: adminHeaders } = await signedInUser(t, 'ADMIN'));
    linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    linguistHeaders = apiToken(await loginAs(t, linguist));
    project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  const jobUrl = (projectUid: string, jobUid: string) => `/api2/v1/projects/${projectUid}/jobs/${jobUid}`;
  const targetUrl = (jobUid: string, version = 'v2') => `/api2/${version}/projects/${project.uid}/jobs/${jobUid}/targetFile`;
  const downloadUrl = (jobUid: string, id: string) => `/api2/v2/projects/${project.uid}/jobs/${jobUid}/downloadTargetFile/${id}`;

  function startTargetFileWorker() {
    worker ??= startWorker(t.deps, createTaskRegistry([targetFileTask]), { listenConnectionString: null });
  }

  async function finishedRequest(id: string) {
    return waitFor(`async request ${id} to finish`, async () => {
      const row = await t.database.db.selectFrom('asyncRequests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return row.finishedAt ? row : null;
    });
  }

  /** Asks for a target file and waits until it is built; returns the async request id. */
  async function builtTargetFile(jobUid: string, headers = adminHeaders): Promise<string> {
    startTargetFileWorker();
    const response = await t.inject({ method: 'PUT', url: targetUrl(jobUid), headers });
    expect(response.statusCode, response.body).toBe(202);
    const id = response.json().asyncRequest.id as string;
    await finishedRequest(id);
    return id;
  }

  async function translate(jobId: string, translations: Record<number, string>) {
    const now = t.clock().toISOString();
    await t.database.db
      .insertInto('jobSegments')
      .values(
        Object.entries(translations).map(([idx, target]) => ({ jobId, idx: Number(idx), target, modifiedAt: now, modifiedById: null })),
      )
      .execute();
  }

  /** An imported file whose segments are the filter's units (one segment per unit), as the import records them. */
  async function importedFile(filename: string, content: string, options: JobsOptions = {}): Promise<MadeJobs> {
    const filter = filterFor(filename, Buffer.from(content))!;
    const units = (await parseAll(filter, content)).filter((unit) => unit.translatable);
    const made = await makeJobs(t, project, {
      filename,
      content,
      segments: units.map((unit) => unit.source),
      createdById: admin.id,
      ...options,
    });
    await t.database.db.updateTable('jobSources').set({ format: filter.name }).where('id', '=', made.sourceId).execute();
    for (const [idx, unit] of units.entries()) {
      await t.database.db
        .updateTable('sourceSegments')
        .set({ unitLocator: unit.locator, importedTarget: unit.target })
        .where('jobSourceId', '=', made.sourceId)
        .where('idx', '=', idx)
        .execute();
    }
    return made;
  }

  describe('original file', () => {
    it('downloads the uploaded bytes unchanged, named as uploaded', async () => {
      const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße\r\nZweite Zeile', 'utf16le')]);
      const { jobs } = await makeJobs(t, project, { filename: 'Übersicht 1.txt', content: bytes, createdById: admin.id });
      const response = await t.inject({ method: 'GET', url: `${jobUrl(project.uid, jobs[0]!.uid)}/original`, headers: adminHeaders });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(bytes)).toBe(true);
      expect(response.headers['content-disposition']).toContain("filename*=UTF-8''%C3%9Cbersicht%201.txt");
      expect(response.headers['content-length']).toBe(String(bytes.length));
    });

    it('is open to the job’s linguist, and hidden (404) from other linguists and organizations', async () => {
      const { jobs } = await makeJobs(t, project, { providerUserIds: [linguist.id], targetLangs: ['de'] });
      const other = await makeJobs(t, project, { targetLangs: ['de'] });
      expect(
        (await t.inject({ method: 'GET', url: `${jobUrl(project.uid, jobs[0]!.uid)}/original`, headers: linguistHeaders })).statusCode,
      ).toBe(200);
      expect(
        (await t.inject({ method: 'GET', url: `${jobUrl(project.uid, other.jobs[0]!.uid)}/original`, headers: linguistHeaders }))
          .statusCode,
      ).toBe(404);
      const stranger = await signedInUser(t, 'ADMIN');
      const response = await t.inject({ method: 'GET', url: `${jobUrl(project.uid, jobs[0]!.uid)}/original`, headers: stranger.headers });
      expect(response.statusCode).toBe(404);
      expect(response.json().errorCode).toBe('ResourceNotFound');
    });

    it('is 404 for a job addressed through another project', async () => {
      const otherProject = await makeProject(t, organization.id, { createdById: admin.id });
      const { jobs } = await makeJobs(t, project, { targetLangs: ['de'] });
      expect(
        (await t.inject({ method: 'GET', url: `${jobUrl(otherProject.uid, jobs[0]!.uid)}/original`, headers: adminHeaders })).statusCode,
      ).toBe(404);
    });
  });

  describe('target files', () => {
    it('builds the file with the translations and the source elsewhere, downloadable once, then releases it', async () => {
      const { jobs } = await makeJobs(t, project, {
        filename: 'lines.txt',
        segments: ['Hello world.', 'Second line.', 'Third line.'],
        targetLangs: ['de'],
      });
      await translate(jobs[0]!.id, { 0: 'Hallo Welt.', 2: 'Dritte Zeile.' });
      startTargetFileWorker();
      const put = await t.inject({ method: 'PUT', url: targetUrl(jobs[0]!.uid), headers: adminHeaders });
      expect(put.statusCode).toBe(202);
      const asyncRequest = put.json().asyncRequest;
      expect(asyncRequest).toMatchObject({ action: 'EXPORT_COMPLETE_FILE', project: { uid: project.uid, name: project.name } });
      expect(asyncRequest.createdBy.uid).toBe(admin.uid);

      const finished = await finishedRequest(asyncRequest.id);
      expect(JSON.parse(finished.response!).errorCode).toBeNull();
      const polled = await t.inject({ method: 'GET', url: `/api2/v1/async/${asyncRequest.id}`, headers: adminHeaders });
      expect(polled.json().asyncResponse).not.toBeNull();

      const download = await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, asyncRequest.id), headers: adminHeaders });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('Hallo Welt.\nSecond line.\nDritte Zeile.');
      expect(download.headers['content-disposition']).toContain("filename*=UTF-8''lines.txt");

      const again = await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, asyncRequest.id), headers: adminHeaders });
      expect(again.statusCode).toBe(410);
      expect(again.json().errorCode).toBe('TargetFileAlreadyDownloaded');

      const sha256 = await t.database.db
        .selectFrom('jobTargetFiles')
        .select(['sha256', 'downloadedAt'])
        .where('asyncRequestId', '=', asyncRequest.id)
        .executeTakeFirstOrThrow();
      expect(sha256.downloadedAt).not.toBeNull();
      await waitFor('the downloaded file to be released', async () => {
        const row = await t.database.db
          .selectFrom('jobTargetFiles')
          .select('sha256')
          .where('asyncRequestId', '=', asyncRequest.id)
          .executeTakeFirstOrThrow();
        return row.sha256 === null;
      });
      const stored = await t.database.db.selectFrom('storedFiles').select('sha256').execute();
      const blobs = await Promise.all(stored.map((s) => t.deps.blobs.has(s.sha256)));
      expect(blobs.every(Boolean)).toBe(true);
    });

    it('removes the built blob after the download when nothing else holds it', async () => {
      const { jobs } = await makeJobs(t, project, { segments: ['Only line.'], targetLangs: ['de'] });
      await translate(jobs[0]!.id, { 0: 'Einzige Zeile.' });
      const id = await builtTargetFile(jobs[0]!.uid);
      const { sha256 } = await t.database.db
        .selectFrom('jobTargetFiles')
        .select('sha256')
        .where('asyncRequestId', '=', id)
        .executeTakeFirstOrThrow();
      expect(await t.deps.blobs.has(sha256!)).toBe(true);
      expect((await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, id), headers: adminHeaders })).body).toBe('Einzige Zeile.');
      await waitFor('the blob to be removed', async () => !(await t.deps.blobs.has(sha256!)));
      expect(
        await t.database.db.selectFrom('storedFiles').select('sha256').where('sha256', '=', sha256!).executeTakeFirst(),
      ).toBeUndefined();
    });

    it('v3 asks for a target file as v2 does', async () => {
      const { jobs } = await makeJobs(t, project, { segments: ['Line.'], targetLangs: ['fr'] });
      startTargetFileWorker();
      const put = await t.inject({ method: 'PUT', url: targetUrl(jobs[0]!.uid, 'v3'), headers: adminHeaders });
      expect(put.statusCode).toBe(202);
      await finishedRequest(put.json().asyncRequest.id);
      const download = await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, put.json().asyncRequest.id), headers: adminHeaders });
      expect(download.body).toBe('Line.');
    });

    it('writes XLIFF targets: inserted where missing, imported ones kept, translations replacing them', async () => {
      const xliff = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
        ' <file original="a" source-language="en" target-language="de" datatype="plaintext"><body>',
        '  <trans-unit id="u1"><source>Hello <g id="1">bold</g></source></trans-unit>',
        '  <trans-unit id="u2"><source>Kept</source><target>Behalten</target></trans-unit>',
        '  <trans-unit id="u3"><source>Untranslated</source></trans-unit>',
        ' </body></file>',
        '</xliff>',
      ].join('\n');
      const { jobs } = await importedFile('strings.xlf', xliff, { targetLangs: ['de'] });
      await translate(jobs[0]!.id, { 0: 'Hallo {1>fett<1}' });
      const id = await builtTargetFile(jobs[0]!.uid);
      const body = (await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, id), headers: adminHeaders })).body;
      expect(body).toContain(
        '<source>Hello <g id="1">bold</g></source><target xml:lang="de" state="translated">Hallo <g id="1">fett</g></target>',
      );
      expect(body).toContain('<source>Kept</source><target>Behalten</target>');
      expect(body).toContain('<source>Untranslated</source><target xml:lang="de" state="translated">Untranslated</target>');
    });

    it('gives a later workflow step the earlier step’s translations where it has none', async () => {
      const steps = await t.database.db
        .selectFrom('workflowSteps')
        .select('uid')
        .where('organizationId', '=', organization.id)
        .orderBy('orderIndex')
        .limit(2)
        .execute();
      const twoSteps = await makeProject(t, organization.id, {
        createdById: admin.id,
        targetLangs: ['de'],
        workflowStepUids: steps.map((s) => s.uid),
      });
      const { jobs } = await makeJobs(t, twoSteps, { segments: ['One.', 'Two.'] });
      const [translation, revision] = jobs;
      await translate(translation!.id, { 0: 'Eins.', 1: 'Zwo.' });
      await translate(revision!.id, { 1: 'Zwei.' });
      startTargetFileWorker();
      const put = await t.inject({
        method: 'PUT',
        url: `/api2/v2/projects/${twoSteps.uid}/jobs/${revision!.uid}/targetFile`,
        headers: adminHeaders,
      });
      await finishedRequest(put.json().asyncRequest.id);
      const download = await t.inject({
        method: 'GET',
        url: `/api2/v2/projects/${twoSteps.uid}/jobs/${revision!.uid}/downloadTargetFile/${put.json().asyncRequest.id}`,
        headers: adminHeaders,
      });
      expect(download.body).toBe('Eins.\nZwei.');
    });

    it('is 409 until the file is built, and 404 for ids of other jobs or of other requests', async () => {
      const { jobs } = await makeJobs(t, project, { segments: ['Line.'], targetLangs: ['de', 'fr'] });
      await worker?.stop();
      worker = null;
      const put = await t.inject({ method: 'PUT', url: targetUrl(jobs[0]!.uid), headers: adminHeaders });
      const id = put.json().asyncRequest.id as string;
      const early = await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, id), headers: adminHeaders });
      expect(early.statusCode).toBe(409);
      expect(early.json().errorCode).toBe('TargetFileNotReady');
      expect((await t.inject({ method: 'GET', url: downloadUrl(jobs[1]!.uid, id), headers: adminHeaders })).statusCode).toBe(404);
      expect((await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, '999999'), headers: adminHeaders })).statusCode).toBe(404);
      expect((await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, 'abc'), headers: adminHeaders })).statusCode).toBe(404);
      const pdf = await t.inject({ method: 'GET', url: `${downloadUrl(jobs[0]!.uid, id)}?format=PDF`, headers: adminHeaders });
      expect(pdf.statusCode).toBe(501);
      startTargetFileWorker();
      t.deps.taskWakeup.notify();
      await finishedRequest(id);
      expect((await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, id), headers: adminHeaders })).body).toBe('Line.');
    });

    it('lets the job’s linguist ask for and download it; others do not see it', async () => {
      const { jobs } = await makeJobs(t, project, { segments: ['Line.'], targetLangs: ['de'], providerUserIds: [linguist.id] });
      const id = await builtTargetFile(jobs[0]!.uid, linguistHeaders);
      const other = await makeJobs(t, project, { segments: ['Line.'], targetLangs: ['de'] });
      expect((await t.inject({ method: 'PUT', url: targetUrl(other.jobs[0]!.uid), headers: linguistHeaders })).statusCode).toBe(404);
      const stranger = await signedInUser(t, 'ADMIN');
      expect((await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, id), headers: stranger.headers })).statusCode).toBe(404);
      expect((await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, id), headers: linguistHeaders })).statusCode).toBe(200);
    });

    it('refuses files still importing (409) or that failed to import (400), writing nothing', async () => {
      const { jobs, sourceId } = await makeJobs(t, project, { segments: ['Line.'], targetLangs: ['de'] });
      const before = await t.database.db
        .selectFrom('asyncRequests')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      await t.database.db.updateTable('jobSources').set({ importStatus: 'RUNNING' }).where('id', '=', sourceId).execute();
      const running = await t.inject({ method: 'PUT', url: targetUrl(jobs[0]!.uid), headers: adminHeaders });
      expect(running.statusCode).toBe(409);
      expect(running.json().errorCode).toBe('JobImportNotFinished');
      await t.database.db.updateTable('jobSources').set({ importStatus: 'ERROR', importError: 'bad' }).where('id', '=', sourceId).execute();
      expect((await t.inject({ method: 'PUT', url: targetUrl(jobs[0]!.uid), headers: adminHeaders })).statusCode).toBe(400);
      const after = await t.database.db
        .selectFrom('asyncRequests')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('records a translation the format cannot hold as the async request’s error', async () => {
      const xliff =
        '<xliff version="1.2"><file original="a" source-language="en" datatype="plaintext"><body><trans-unit id="1"><source>A <g id="1">b</g></source></trans-unit></body></file></xliff>';
      const { jobs } = await importedFile('broken.xlf', xliff, { targetLangs: ['de'] });
      await translate(jobs[0]!.id, { 0: 'A {1>b' });
      const id = await builtTargetFile(jobs[0]!.uid);
      const row = await finishedRequest(id);
      expect(JSON.parse(row.response!).errorCode).toBe('TargetFileFailed');
      const download = await t.inject({ method: 'GET', url: downloadUrl(jobs[0]!.uid, id), headers: adminHeaders });
      expect(download.statusCode).toBe(409);
      expect(download.json().errorCode).toBe('TargetFileFailed');
    });
  });
});
