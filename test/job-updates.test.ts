import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSourceTask } from '../src/modules/translation-workflow/job-updates/update-source.task.js';
import { updateTargetTask } from '../src/modules/translation-workflow/job-updates/update-target.js';
import { alignTranslatedUnits, carryOverMap, targetWrites } from '../src/modules/translation-workflow/job-updates/update-rules.js';
import type { SegmentText, TranslatedUnit, UnitSegmentRef } from '../src/modules/translation-workflow/job-updates/update-rules.js';
import { importJobTask } from '../src/modules/translation-workflow/jobs/job-import.task.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';
import type { Headers } from './support/api.js';
import { waitFor } from './support/wait.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import type { JobsOptions, MadeJobs } from './support/workflow-factories.js';

describe('job update rules (pure)', () => {
  const seg = (idx: number, source: string, tags = '[]'): SegmentText => ({ idx, source, tags });
  const carryCases: { name: string; old: SegmentText[]; next: SegmentText[]; expected: [number, number][] }[] = [
    {
      name: 'unchanged segments keep their place',
      old: [seg(0, 'A.'), seg(1, 'B.')],
      next: [seg(0, 'A.'), seg(1, 'B.')],
      expected: [
        [0, 0],
        [1, 1],
      ],
    },
    {
      name: 'inserted and changed segments',
      old: [seg(0, 'A.'), seg(1, 'B.')],
      next: [seg(0, 'New.'), seg(1, 'A.'), seg(2, 'B!')],
      expected: [[1, 0]],
    },
    {
      name: 'repeated texts pair up in order, then fall back to the first',
      old: [seg(0, 'OK'), seg(1, 'x'), seg(2, 'OK')],
      next: [seg(0, 'OK'), seg(1, 'OK'), seg(2, 'OK')],
      expected: [
        [0, 0],
        [1, 2],
        [2, 0],
      ],
    },
    {
      name: 'same text with other tags does not match',
      old: [seg(0, '{1>a<1}', '[{"original":"<b>"}]')],
      next: [seg(0, '{1>a<1}', '[{"original":"<i>"}]')],
      expected: [],
    },
  ];
  it.each(carryCases)('carry over: $name', ({ old, next, expected }) => {
    expect([...carryOverMap(old, next)]).toEqual(expected);
  });

  const ref = (idx: number, unitLocator: string, source = 's'): UnitSegmentRef => ({ idx, unitLocator, source });
  const unit = (locator: string, segments: string[], text = segments.join(' ')): TranslatedUnit => ({ locator, segments, text });
  const alignCases: { name: string; segments: UnitSegmentRef[]; units: TranslatedUnit[]; expected: [number, string][] }[] = [
    {
      name: 'segment by segment',
      segments: [ref(0, '1'), ref(1, '1'), ref(2, '2')],
      units: [unit('1', ['Eins.', 'Zwei.']), unit('2', ['Drei.'])],
      expected: [
        [0, 'Eins.'],
        [1, 'Zwei.'],
        [2, 'Drei.'],
      ],
    },
    {
      name: 'other segment counts: the unit to its first segment, the rest emptied',
      segments: [ref(0, '1'), ref(1, '1')],
      units: [unit('1', ['Eins und zwei.'])],
      expected: [
        [0, 'Eins und zwei.'],
        [1, ''],
      ],
    },
    {
      name: 'units missing on either side are skipped',
      segments: [ref(0, '1'), ref(1, '3')],
      units: [unit('2', ['x']), unit('3', ['Drei'])],
      expected: [[1, 'Drei']],
    },
  ];
  it.each(alignCases)('align: $name', ({ segments, units, expected }) => {
    expect([...alignTranslatedUnits(segments, new Map(units.map((u) => [u.locator, u])))]).toEqual(expected);
  });

  it('writes changed segments only, confirmed unless asked not to, and leaves source-equal untranslated ones', () => {
    const aligned = new Map([
      [0, 'Hallo'],
      [1, 'Same'],
      [2, 'Source'],
      [3, 'Neu'],
    ]);
    const sources = new Map([
      [0, 'Hello'],
      [1, 'Same'],
      [2, 'Source'],
      [3, 'New'],
    ]);
    const current = new Map([
      [1, { target: 'Same', confirmed: false }],
      [3, { target: 'Alt', confirmed: true }],
    ]);
    expect(targetWrites(aligned, sources, current, false)).toEqual([
      { idx: 0, target: 'Hallo', confirmed: true },
      { idx: 3, target: 'Neu', confirmed: true },
    ]);
    expect(targetWrites(aligned, sources, current, true).map((w) => w.confirmed)).toEqual([false, false]);
  });
});

describe('updateSource and updateTarget over HTTP', () => {
  let t: TestApp;
  let worker: Worker;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;
  let project: ProjectRow;

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
    project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
    worker = startWorker(t.deps, createTaskRegistry([updateSourceTask, updateTargetTask, importJobTask]), { listenConnectionString: null });
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
  });

  const db = () => t.database.db;
  const upload = (kind: 'source' | 'target', projectUid: string, filename: string, content: string | Buffer, memsource: unknown) =>
    t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${projectUid}/jobs/${kind}`,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
        memsource: JSON.stringify(memsource),
      },
      payload: content,
    });

  async function finished(id: string) {
    t.deps.taskWakeup.notify();
    const row = await waitFor(`async request ${id}`, async () => {
      const r = await db().selectFrom('asyncRequests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return r.finishedAt ? r : null;
    });
    return JSON.parse(row.response!) as { errorCode: string | null; errorDesc: string | null };
  }

  async function translate(jobId: string, translations: Record<number, string>, confirmed = false) {
    const now = t.clock().toISOString();
    await db()
      .insertInto('jobSegments')
      .values(
        Object.entries(translations).map(([idx, target]) => ({
          jobId,
          idx: Number(idx),
          target,
          confirmed,
          modifiedAt: now,
          modifiedById: null,
        })),
      )
      .execute();
  }

  const segments = async (projectUid: string, jobUid: string) =>
    (await t.inject({ url: `/api2/v1/projects/${projectUid}/jobs/${jobUid}/segments?beginIndex=0&endIndex=50`, headers })).json()
      .segments as Array<{ source: string; translation: string | null }>;
  const job = async (projectUid: string, jobUid: string) =>
    (await t.inject({ url: `/api2/v1/projects/${projectUid}/jobs/${jobUid}`, headers })).json();
  const sourceOf = (jobUid: string) =>
    db()
      .selectFrom('jobs')
      .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
      .select(['jobSources.id', 'jobSources.innerId', 'jobSources.sha256', 'jobSources.filename'])
      .where('jobs.uid', '=', jobUid)
      .executeTakeFirstOrThrow();

  /** A plain-text file whose segments carry the filter's unit locators (line numbers), as the import writes them. */
  async function textJobs(lines: string[], options: JobsOptions & { on?: ProjectRow } = {}): Promise<MadeJobs> {
    const made = await makeJobs(t, options.on ?? project, { filename: 'doc.txt', segments: lines, createdById: admin.id, ...options });
    return made;
  }

  describe('updateSource', () => {
    it('imports the new file for the listed language, keeps unchanged translations and leaves other languages on the old file', async () => {
      const made = await textJobs(['Hello world.', 'Second line.']);
      const [de, fr] = [made.jobs.find((j) => j.targetLang === 'de')!, made.jobs.find((j) => j.targetLang === 'fr')!];
      await translate(de.id, { 0: 'Hallo Welt.', 1: 'Zweite Zeile.' }, true);
      await translate(fr.id, { 0: 'Bonjour.' });
      const before = await sourceOf(de.uid);

      const response = await upload('source', project.uid, 'doc v2.txt', 'Intro.\nHello world.\nChanged line.', {
        jobs: [{ uid: de.uid }],
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.asyncRequest.action).toBe('UPDATE_SOURCE');
      expect(body.jobs).toEqual([
        expect.objectContaining({ uid: de.uid, targetLang: 'de', filename: 'doc v2.txt', workflowLevel: 1, status: 'NEW' }),
      ]);
      expect((await finished(body.asyncRequest.id)).errorCode).toBeNull();

      const after = await sourceOf(de.uid);
      expect(after.id).not.toBe(before.id);
      expect(after.filename).toBe('doc v2.txt');
      expect(after.innerId).not.toBe(before.innerId);
      expect((await sourceOf(fr.uid)).id).toBe(before.id);
      expect(await segments(project.uid, de.uid)).toEqual([
        expect.objectContaining({ source: 'Intro.', translation: null }),
        expect.objectContaining({ source: 'Hello world.', translation: 'Hallo Welt.' }),
        expect.objectContaining({ source: 'Changed line.', translation: null }),
      ]);
      const kept = await db().selectFrom('jobSegments').select(['idx', 'confirmed']).where('jobId', '=', de.id).execute();
      expect(kept.map((r) => [Number(r.idx), Boolean(r.confirmed)])).toEqual([[1, true]]);
      expect((await segments(project.uid, fr.uid)).map((s) => s.translation)).toEqual(['Bonjour.', null]);
      expect((await job(project.uid, de.uid)).filename).toBe('doc v2.txt');

      // Updating the last language leaves the old file without jobs: it goes, and the new file takes its number.
      const second = await upload('source', project.uid, 'doc v2.txt', 'Intro.\nHello world.\nChanged line.', { jobs: [{ uid: fr.uid }] });
      expect(second.statusCode, second.body).toBe(200);
      expect((await finished(second.json().asyncRequest.id)).errorCode).toBeNull();
      expect(await db().selectFrom('jobSources').select('id').where('id', '=', before.id).executeTakeFirst()).toBeUndefined();
      expect((await sourceOf(fr.uid)).innerId).toBe(before.innerId);
      // The blob is released right after the request completes.
      await waitFor('the old file to be released', async () => !(await t.deps.blobs.has(before.sha256)));
    });

    it('moves every workflow level of the file and language with the first step', async () => {
      const steps = (await t.inject({ url: '/api2/v1/workflowSteps?sort=ORDER', headers })).json().content as Array<{ uid: string }>;
      const twoSteps = await makeProject(t, organization.id, {
        createdById: admin.id,
        targetLangs: ['de'],
        workflowStepUids: [steps[0]!.uid, steps[1]!.uid],
      });
      const made = await textJobs(['One.'], { on: twoSteps });
      const [first, second] = made.jobs;
      const refused = await upload('source', twoSteps.uid, 'doc.txt', 'One.\nTwo.', { jobs: [{ uid: second!.uid }] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errorCode).toBe('JobNotInFirstWorkflowStep');

      const response = await upload('source', twoSteps.uid, 'doc.txt', 'One.\nTwo.', { jobs: [{ uid: first!.uid }] });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().jobs.map((j: { workflowLevel: number }) => j.workflowLevel)).toEqual([1, 2]);
      await finished(response.json().asyncRequest.id);
      expect((await sourceOf(first!.uid)).id).toBe((await sourceOf(second!.uid)).id);
      expect((await segments(twoSteps.uid, second!.uid)).map((s) => s.source)).toEqual(['One.', 'Two.']);
    });

    it('refuses what the description excludes, before storing anything', async () => {
      const made = await textJobs(['A.'], { targetLangs: ['de'] });
      const uid = made.jobs[0]!.uid;
      const cases: Array<[string, string, unknown, number, string]> = [
        ['pre-translation', 'a.txt', { jobs: [{ uid }], preTranslate: true }, 400, 'NotSupportedYet'],
        ['a zip file', 'a.zip', { jobs: [{ uid }] }, 400, 'ZipNotAllowed'],
        ['an unknown job', 'a.txt', { jobs: [{ uid: 'nope' }] }, 404, 'ResourceNotFound'],
        ['more than 100 jobs', 'a.txt', { jobs: Array.from({ length: 101 }, () => ({ uid })) }, 400, ''],
      ];
      for (const [name, filename, memsource, status, code] of cases) {
        const response = await upload('source', project.uid, filename, 'B.', memsource);
        expect(response.statusCode, name).toBe(status);
        if (code) expect(response.json().errorCode, name).toBe(code);
      }
      await db().updateTable('jobs').set({ status: 'DELIVERED' }).where('uid', '=', uid).execute();
      expect((await upload('source', project.uid, 'a.txt', 'B.', { jobs: [{ uid }] })).json().errorCode).toBe('JobInFinalStatus');
      await db().updateTable('jobs').set({ status: 'NEW', beginIndex: 0, endIndex: 0 }).where('uid', '=', uid).execute();
      expect((await upload('source', project.uid, 'a.txt', 'B.', { jobs: [{ uid }] })).json().errorCode).toBe('JobIsSplit');
      expect((await sourceOf(uid)).id).toBe(made.sourceId);
    });

    it('keeps the jobs on their file when the new file cannot be imported', async () => {
      const made = await textJobs(['Keep me.'], { targetLangs: ['de'] });
      await translate(made.jobs[0]!.id, { 0: 'Bleib.' });
      const response = await upload('source', project.uid, 'broken.json', '{"a": ', { jobs: [{ uid: made.jobs[0]!.uid }] });
      expect(response.statusCode, response.body).toBe(200);
      const outcome = await finished(response.json().asyncRequest.id);
      expect(outcome.errorCode).toBe('ImportFailed');
      expect((await sourceOf(made.jobs[0]!.uid)).id).toBe(made.sourceId);
      expect((await segments(project.uid, made.jobs[0]!.uid)).map((s) => s.translation)).toEqual(['Bleib.']);
      expect(await db().selectFrom('jobSources').select('id').where('filename', '=', 'broken.json').executeTakeFirst()).toBeUndefined();
    });
  });

  describe('updateTarget', () => {
    it('writes the translated file into the job, confirmed, unit by unit', async () => {
      const made = await textJobs(['Hello world.', 'Second line.', 'Third line.'], { targetLangs: ['de'] });
      const de = made.jobs[0]!;
      await translate(de.id, { 2: 'Dritte Zeile.' });
      const response = await upload('target', project.uid, 'doc.txt', 'Hallo Welt.\nSecond line.\nDritte Zeile.', {
        jobs: [{ uid: de.uid }],
      });
      expect(response.statusCode, response.body).toBe(202);
      expect(response.json().asyncRequest.action).toBe('UPDATE_TARGET');
      expect(response.json().jobs[0]).toMatchObject({ uid: de.uid, filename: 'doc.txt' });
      expect((await finished(response.json().asyncRequest.id)).errorCode).toBeNull();
      const rows = await db()
        .selectFrom('jobSegments')
        .select(['idx', 'target', 'confirmed'])
        .where('jobId', '=', de.id)
        .orderBy('idx')
        .execute();
      expect(rows.map((r) => [Number(r.idx), r.target, Boolean(r.confirmed)])).toEqual([
        [0, 'Hallo Welt.', true],
        [2, 'Dritte Zeile.', false],
      ]);

      const again = await upload('target', project.uid, 'doc.txt', 'Hallo Welt!\nZweite Zeile.\nDritte Zeile.', {
        jobs: [{ uid: de.uid }],
        unconfirmChangedSegments: true,
      });
      await finished(again.json().asyncRequest.id);
      const next = await db()
        .selectFrom('jobSegments')
        .select(['idx', 'target', 'confirmed'])
        .where('jobId', '=', de.id)
        .orderBy('idx')
        .execute();
      expect(next.map((r) => [Number(r.idx), r.target, Boolean(r.confirmed)])).toEqual([
        [0, 'Hallo Welt!', false],
        [1, 'Zweite Zeile.', false],
        [2, 'Dritte Zeile.', false],
      ]);
    });

    it('refuses another extension, bilingual files, split jobs and more than one job', async () => {
      const made = await textJobs(['A.'], { targetLangs: ['de'] });
      const uid = made.jobs[0]!.uid;
      expect((await upload('target', project.uid, 'doc.json', '{}', { jobs: [{ uid }] })).json().errorCode).toBe('FileExtensionMismatch');
      expect((await upload('target', project.uid, 'doc.zip', 'x', { jobs: [{ uid }] })).json().errorCode).toBe('ZipNotAllowed');
      expect((await upload('target', project.uid, 'doc.txt', 'x', { jobs: [{ uid }, { uid }] })).statusCode).toBe(400);
      const xliff = await makeJobs(t, project, { filename: 'doc.xlf', segments: ['A.'], targetLangs: ['de'] });
      expect((await upload('target', project.uid, 'doc.xlf', '<xliff/>', { jobs: [{ uid: xliff.jobs[0]!.uid }] })).json().errorCode).toBe(
        'UpdateTargetNotAllowed',
      );
      await db().updateTable('jobs').set({ beginIndex: 0, endIndex: 0 }).where('uid', '=', uid).execute();
      expect((await upload('target', project.uid, 'doc.txt', 'x', { jobs: [{ uid }] })).json().errorCode).toBe('JobIsSplit');
    });
  });
});
