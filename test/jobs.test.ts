import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobTask } from '../src/modules/translation-workflow/jobs/job-import.task.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import type { Headers } from './support/api.js';
import { waitFor } from './support/wait.js';
import { makeProject } from './support/workflow-factories.js';

/**
 * Jobs through the HTTP API (docs/jobs.md): creation from octet-stream and multipart uploads,
 * the asynchronous import (run by a real worker), reading, editing, statuses, segments, counts
 * and deletion, on SQLite and PostgreSQL.
 */

const XLIFF = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en" target-language="de" datatype="plaintext">
    <body>
      <trans-unit id="greeting" resname="app.greeting"><source>Hello <g id="1">world</g>. How are you?</source></trans-unit>
      <trans-unit id="bye"><source>Goodbye.</source><target>Auf Wiedersehen.</target></trans-unit>
      <trans-unit id="skip" translate="no"><source>Internal</source></trans-unit>
    </body>
  </file>
</xliff>
`;

const ENTITY_BOMB = `<?xml version="1.0"?>
<!DOCTYPE xliff [
  <!ENTITY a "aaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<xliff version="1.2"><file original="x" source-language="en" datatype="plaintext"><body>
<trans-unit id="1"><source>&c;</source></trans-unit>
</body></file></xliff>
`;

describe('jobs', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;
  let worker: Worker | null = null;

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_UPLOAD_LIMIT_BYTES: '65536', OPENTMS_PROJECT_JOB_LIMIT: '60' } });
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  function startImports(): void {
    worker ??= startWorker(t.deps, createTaskRegistry([importJobTask]), { listenConnectionString: null, pollMilliseconds: 20 });
  }

  const disposition = (name: string) => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;

  function upload(project: ProjectRow, filename: string, content: string | Buffer, memsource: unknown, as: Headers = headers) {
    return t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs`,
      headers: {
        ...as,
        'content-type': 'application/octet-stream',
        'content-disposition': disposition(filename),
        memsource: JSON.stringify(memsource),
      },
      payload: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    });
  }

  async function importedJob(project: ProjectRow, jobUid: string, as: Headers = headers) {
    startImports();
    return waitFor(`import of job ${jobUid}`, async () => {
      const job = (await t.inject({ method: 'GET', url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}`, headers: as })).json();
      return job.importStatus.status === 'RUNNING' ? null : job;
    });
  }

  async function segments(project: ProjectRow, jobUid: string, range = 'beginIndex=0&endIndex=99') {
    const response = await t.inject({ method: 'GET', url: `/api2/v1/projects/${project.uid}/jobs/${jobUid}/segments?${range}`, headers });
    expect(response.statusCode).toBe(200);
    return response.json().segments as Array<{
      index: number;
      source: string;
      translation: string | null;
      key: string | null;
      tags: Array<{ display: string; original: string }>;
    }>;
  }

  async function workflowProject(stepCount: number, targetLangs = ['de', 'fr']): Promise<ProjectRow> {
    const steps = await t.database.db
      .selectFrom('workflowSteps')
      .select('uid')
      .where('organizationId', '=', organization.id)
      .orderBy('orderIndex')
      .limit(stepCount)
      .execute();
    return makeProject(t, organization.id, { createdById: admin.id, targetLangs, workflowStepUids: steps.map((s) => s.uid) });
  }

  async function projectStepIds(project: ProjectRow): Promise<string[]> {
    const rows = await t.database.db
      .selectFrom('projectWorkflowSteps')
      .select('id')
      .where('projectId', '=', project.id)
      .orderBy('workflowLevel')
      .execute();
    return rows.map((r) => r.id);
  }

  describe('createJob and the import', () => {
    it('makes one job per target language and workflow step, answers RUNNING with an IMPORT_JOB request, then imports', async () => {
      const project = await workflowProject(2);
      const response = await upload(project, 'story.txt', 'Hello world. How are you?\n\nSecond line here.\n', {
        targetLangs: ['de', 'FR'],
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body.jobs).toHaveLength(4);
      expect(body.unsupportedFiles).toEqual([]);
      expect(body.asyncRequest.action).toBe('IMPORT_JOB');
      expect(body.jobs.map((j: { targetLang: string; workflowLevel: number }) => `${j.targetLang}/${j.workflowLevel}`)).toEqual([
        'de/1',
        'de/2',
        'fr/1',
        'fr/2',
      ]);
      expect(
        body.jobs.every(
          (j: { status: string; imported: boolean; filename: string }) => j.status === 'NEW' && !j.imported && j.filename === 'story.txt',
        ),
      ).toBe(true);
      expect(new Set(body.jobs.map((j: { sourceFileUid: string }) => j.sourceFileUid)).size).toBe(1);

      const listed = (await t.inject({ method: 'GET', url: `/api2/v2/projects/${project.uid}/jobs`, headers })).json();
      expect(listed.content[0].importStatus.status).toBe('RUNNING');

      const job = await importedJob(project, body.jobs[0].uid);
      expect(job.importStatus).toEqual({ status: 'OK', errorMessage: null });
      expect(job.wordsCount).toBe(8);
      expect(job.beginIndex).toBe(0);
      expect(job.endIndex).toBe(2);
      expect(job.innerId).toBe('1');
      expect(job.sourceLang).toBe('en');
      expect(job.lastWorkflowLevel).toBe(2);

      const list = await segments(project, body.jobs[0].uid);
      expect(list.map((s) => s.source)).toEqual(['Hello world.', 'How are you?', 'Second line here.']);
      const async = await waitFor('the async request to finish', async () => {
        const r = (await t.inject({ method: 'GET', url: `/api2/v1/async/${body.asyncRequest.id}`, headers })).json();
        return r.asyncResponse ? r : null;
      });
      expect(async.asyncResponse.errorCode).toBeNull();
    });

    it('imports XLIFF with inline tags, keys, and targets (a unit with a target stays whole)', async () => {
      const project = await workflowProject(1, ['de']);
      const response = await upload(project, 'app.xlf', XLIFF, { targetLangs: ['de'] });
      expect(response.statusCode).toBe(201);
      const uid = response.json().jobs[0].uid;
      const job = await importedJob(project, uid);
      expect(job.importStatus.status).toBe('OK');
      const list = await segments(project, uid);
      expect(list.map((s) => [s.source, s.key, s.translation])).toEqual([
        ['Hello {1>world<1}.', 'app.greeting', null],
        ['How are you?', 'app.greeting', null],
        ['Goodbye.', 'bye', 'Auf Wiedersehen.'],
      ]);
      expect(list[0]!.tags.map((tag) => [tag.display, tag.original])).toEqual([
        ['{1>', '<g id="1">'],
        ['<1}', '</g>'],
      ]);
      expect(list[1]!.tags).toEqual([]);
    });

    it("reads a file with the project's import settings of the moment (txt tagRegexp makes placeholders tags)", async () => {
      const project = await workflowProject(1, ['de']);
      const settings = await t.inject({
        method: 'PUT',
        url: `/api2/v1/projects/${project.uid}/importSettings`,
        headers,
        payload: { txt: { tagRegexp: '\\{[a-z]+\\}' } },
      });
      expect(settings.statusCode, settings.body).toBe(200);
      const fresh = await t.database.db.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
      const response = await upload(fresh, 'greeting.txt', 'Hello {name}, welcome!', { targetLangs: ['de'] });
      expect(response.statusCode).toBe(201);
      const job = await importedJob(fresh, response.json().jobs[0].uid);
      expect(job.importStatus.status).toBe('OK');
      const [segment] = await segments(fresh, job.uid);
      expect(segment!.source).toBe('Hello {1}, welcome!');
      expect(segment!.tags.map((tag) => tag.original)).toEqual(['{name}']);
    });

    it('imports JSON key-value files with their keys', async () => {
      const project = await workflowProject(1, ['de']);
      const response = await upload(project, 'strings.json', JSON.stringify({ app: { title: 'My app', items: ['One', 'Two'] } }), {
        targetLangs: ['de'],
      });
      const uid = response.json().jobs[0].uid;
      await importedJob(project, uid);
      expect((await segments(project, uid)).map((s) => [s.key, s.source])).toEqual([
        ['app.title', 'My app'],
        ['app.items.0', 'One'],
        ['app.items.1', 'Two'],
      ]);
    });

    it('takes multipart uploads: a json part, then one job source per file part', async () => {
      const project = await workflowProject(1, ['de', 'fr']);
      const boundary = '----opentms-test';
      const part = (name: string, value: string, filename?: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: text/plain\r\n' : ''}\r\n${value}\r\n`;
      const payload =
        part('json', JSON.stringify({ targetLangs: ['fr'] })) +
        part('file', 'First file.', 'a.txt') +
        part('file', 'Second file.', 'b.txt') +
        `--${boundary}--\r\n`;
      const response = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(response.statusCode).toBe(201);
      const jobs = response.json().jobs as Array<{ uid: string; filename: string; targetLang: string }>;
      expect(jobs.map((j) => `${j.filename}:${j.targetLang}`)).toEqual(['a.txt:fr', 'b.txt:fr']);
      await importedJob(project, jobs[1]!.uid);
      expect((await segments(project, jobs[1]!.uid)).map((s) => s.source)).toEqual(['Second file.']);
      const v2 = (await t.inject({ method: 'GET', url: `/api2/v2/projects/${project.uid}/jobs`, headers })).json();
      expect(v2.content.map((j: { innerId: string }) => j.innerId)).toEqual(['1', '2']);

      // The json part may also follow the files (issue 13; test/client-leniency.test.ts).
      const fileFirst = `${part('file', 'x', 'c.txt')}${part('json', JSON.stringify({ targetLangs: ['fr'] }))}--${boundary}--\r\n`;
      const after = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: fileFirst,
      });
      expect(after.statusCode).toBe(201);
      expect(after.json().jobs.map((j: { filename: string; targetLang: string }) => `${j.filename}:${j.targetLang}`)).toEqual(['c.txt:fr']);
    });

    it('assigns providers, due dates and notification settings per workflow step and language, and emits JOB_CREATED', async () => {
      const project = await workflowProject(2, ['de', 'fr']);
      const [first, second] = await projectStepIds(project);
      const linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
      const template = await t.database.db
        .selectFrom('emailTemplates')
        .select('id')
        .where('organizationId', '=', organization.id)
        .executeTakeFirstOrThrow();
      const hook = await t.inject({
        method: 'POST',
        url: '/api2/v2/webhooks',
        headers,
        payload: { url: 'https://hooks.example.test/jobs', events: ['JOB_CREATED'] },
      });
      expect(hook.statusCode).toBe(201);
      const response = await upload(project, 'assigned.txt', 'Text.', {
        targetLangs: ['de', 'fr'],
        due: '2027-01-10T10:00:00Z',
        workflowSettings: [
          {
            id: first,
            due: '2027-01-05T10:00:00.00Z',
            assignments: [{ targetLang: 'de', providers: [{ type: 'USER', id: linguist.id }] }],
            notifyProvider: { organizationEmailTemplate: { id: template.id }, notificationIntervalInMinutes: '10' },
          },
          { id: Number(second), assignments: [] },
        ],
        path: '../../secret/dir',
      });
      expect(response.statusCode).toBe(201);
      const jobs = response.json().jobs as Array<{
        targetLang: string;
        workflowLevel: number;
        dateDue: string;
        providers: Array<{ type: string; uid: string }>;
        notificationIntervalInMinutes: number | null;
      }>;
      const deFirst = jobs.find((j) => j.targetLang === 'de' && j.workflowLevel === 1)!;
      expect(deFirst.providers).toMatchObject([{ type: 'USER', uid: linguist.uid }]);
      expect(deFirst.dateDue).toBe('2027-01-05T10:00:00.000Z');
      expect(deFirst.notificationIntervalInMinutes).toBe(10);
      expect(jobs.find((j) => j.targetLang === 'fr' && j.workflowLevel === 1)!.providers).toEqual([]);
      expect(jobs.find((j) => j.workflowLevel === 2)!.dateDue).toBe('2027-01-10T10:00:00.000Z');
      const v2 = (await t.inject({ method: 'GET', url: `/api2/v2/projects/${project.uid}/jobs`, headers })).json();
      expect(v2.content[0].originalFileDirectory).toBe('secret/dir');
      const calls = await t.database.db
        .selectFrom('webhookCalls')
        .select(['event', 'body'])
        .where('organizationId', '=', organization.id)
        .where('event', '=', 'JOB_CREATED')
        .execute();
      expect(calls).toHaveLength(1);
      expect(JSON.parse(calls[0]!.body).jobParts).toHaveLength(4);
    });

    it('refuses bad requests with a 400 and stores nothing', async () => {
      const project = await workflowProject(1, ['de']);
      const before = await t.database.db
        .selectFrom('jobSources')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const cases: Array<[string, unknown, number]> = [
        ['a language outside the project', { targetLangs: ['fr'] }, 400],
        ['an unknown language', { targetLangs: ['xx-nope'] }, 400],
        ['no targetLangs', {}, 400],
        ['import settings the organization does not have', { targetLangs: ['de'], importSettings: { uid: 'abc' } }, 400],
        ['an XML assistant profile the organization does not have', { targetLangs: ['de'], xmlAssistantProfile: { uid: 'abc' } }, 400],
        ['semantic markup (later capability)', { targetLangs: ['de'], semanticMarkup: true }, 400],
        ['assignments in a workflow project', { targetLangs: ['de'], assignments: [{ targetLang: 'de', providers: [] }] }, 400],
        ['an unknown workflow step', { targetLangs: ['de'], workflowSettings: [{ id: '999999', assignments: [] }] }, 400],
        [
          'an unknown provider',
          {
            targetLangs: ['de'],
            workflowSettings: [
              { id: (await projectStepIds(project))[0], assignments: [{ targetLang: 'de', providers: [{ type: 'USER', id: '999999' }] }] },
            ],
          },
          400,
        ],
        ['a callback that is no URL', { targetLangs: ['de'], callbackUrl: 'not a url' }, 400],
      ];
      for (const [name, memsource, status] of cases) {
        const response = await upload(project, 'x.txt', 'Text.', memsource);
        expect(response.statusCode, name).toBe(status);
        expect(response.json().errorCode, name).toBeTruthy();
      }
      const badJson = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: {
          ...headers,
          'content-type': 'application/octet-stream',
          'content-disposition': disposition('x.txt'),
          memsource: '{nope',
        },
        payload: Buffer.from('x'),
      });
      expect(badJson.statusCode).toBe(400);
      const noName = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: { ...headers, 'content-type': 'application/octet-stream', memsource: JSON.stringify({ targetLangs: ['de'] }) },
        payload: Buffer.from('x'),
      });
      expect(noName.statusCode).toBe(400);
      const noHeader = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: { ...headers, 'content-type': 'application/octet-stream', 'content-disposition': disposition('x.txt') },
        payload: Buffer.from('x'),
      });
      expect(noHeader.statusCode).toBe(400);
      const json = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers,
        payload: { targetLangs: ['de'] },
      });
      expect(json.statusCode).toBe(415);
      const tooLarge = await upload(project, 'big.txt', Buffer.alloc(70_000, 'a'), { targetLangs: ['de'] });
      expect(tooLarge.statusCode).toBe(413);
      const after = await t.database.db
        .selectFrom('jobSources')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('keeps only the last segment of a path-traversing file name', async () => {
      const project = await workflowProject(1, ['de']);
      const response = await upload(project, '../../etc/passwd.txt', 'root', { targetLangs: ['de'] });
      expect(response.statusCode).toBe(201);
      expect(response.json().jobs[0].filename).toBe('passwd.txt');
    });

    it('refuses jobs past the project job limit', async () => {
      const project = await workflowProject(3, ['de', 'fr']);
      for (let i = 0; i < 10; i++) expect((await upload(project, `f${i}.txt`, 'x', { targetLangs: ['de', 'fr'] })).statusCode).toBe(201);
      const response = await upload(project, 'one-too-many.txt', 'x', { targetLangs: ['de', 'fr'] });
      expect(response.statusCode).toBe(400);
      expect(response.json().errorCode).toBe('JobLimitExceeded');
    });

    it.each([
      ['a malformed XLIFF', 'broken.xlf', '<xliff version="1.2"><file><body><trans-unit id="1"><source>Open', /./],
      ['an entity bomb', 'bomb.xlf', ENTITY_BOMB, /DOCTYPE|entity/i],
      ['an unknown format', 'data.bin', Buffer.from([0, 1, 2, 3, 255, 254]), /unsupported file type/],
    ] as const)('ends the import of %s in ERROR with a readable message', async (_name, filename, content, message) => {
      const project = await workflowProject(1, ['de']);
      const response = await upload(project, filename, content, { targetLangs: ['de'] });
      expect(response.statusCode).toBe(201);
      const job = await importedJob(project, response.json().jobs[0].uid);
      expect(job.importStatus.status).toBe('ERROR');
      expect(job.importStatus.errorMessage).toMatch(message);
      expect(job.imported).toBe(false);
      expect(await segments(project, job.uid)).toEqual([]);
      const async = await waitFor('the async request to finish', async () => {
        const r = (await t.inject({ method: 'GET', url: `/api2/v1/async/${response.json().asyncRequest.id}`, headers })).json();
        return r.asyncResponse ? r : null;
      });
      expect(async.asyncResponse.errorCode).toBe('ImportFailed');
      const notReady = (await t.inject({ method: 'GET', url: `/api2/v2/projects/${project.uid}/jobs?notReady=true`, headers })).json();
      expect(notReady.totalElements).toBe(1);
    });

    it('lets a submitter add files to their own project only', async () => {
      const submitter = await makeUser(t.database.db, organization, { role: 'SUBMITTER' });
      const submitterHeaders = apiToken(await loginAs(t, submitter));
      const own = await makeProject(t, organization.id, { createdById: submitter.id, targetLangs: ['de'] });
      expect((await upload(own, 'mine.txt', 'Mine.', { targetLangs: ['de'] }, submitterHeaders)).statusCode).toBe(201);
      const other = await workflowProject(1, ['de']);
      expect((await upload(other, 'theirs.txt', 'No.', { targetLangs: ['de'] }, submitterHeaders)).statusCode).toBe(404);
    });
  });

  describe('reading, editing and statuses', () => {
    let project: ProjectRow;
    let jobUids: string[];
    let linguist: UserRow;
    let linguistHeaders: Headers;

    beforeAll(async () => {
      project = await workflowProject(2, ['de', 'fr']);
      linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
      linguistHeaders = apiToken(await loginAs(t, linguist));
      const [first] = await projectStepIds(project);
      const response = await upload(project, 'work.txt', 'One sentence. Another one.\nThird line.', {
        targetLangs: ['de', 'fr'],
        workflowSettings: [{ id: first, assignments: [{ targetLang: 'de', providers: [{ type: 'USER', uid: linguist.uid }] }] }],
      });
      jobUids = response.json().jobs.map((j: { uid: string }) => j.uid);
      await importedJob(project, jobUids[0]!);
    });

    const jobUrl = (uid: string, suffix = '') => `/api2/v1/projects/${project.uid}/jobs/${uid}${suffix}`;

    it('lists jobs with the spec filters and paging', async () => {
      const list = async (query: string, as: Headers = headers) =>
        (await t.inject({ method: 'GET', url: `/api2/v2/projects/${project.uid}/jobs?${query}`, headers: as })).json();
      expect((await list('')).totalElements).toBe(2);
      expect((await list('workflowLevel=2')).totalElements).toBe(2);
      expect((await list('targetLang=de')).content.map((j: { uid: string }) => j.uid)).toEqual([jobUids[0]]);
      expect((await list(`assignedUser=${linguist.id}`)).totalElements).toBe(1);
      expect((await list('status=NEW&status=ACCEPTED')).totalElements).toBe(2);
      expect((await list('status=COMPLETED')).totalElements).toBe(0);
      expect((await list('filename=work.txt')).totalElements).toBe(2);
      expect((await list('filename=other.txt')).totalElements).toBe(0);
      const counted = await list('count=true');
      expect(counted.totalElements).toBe(2);
      expect(counted.content).toEqual([]);
      const paged = await list('pageSize=1&pageNumber=1');
      expect(paged.totalPages).toBe(2);
      expect(paged.content).toHaveLength(1);
      // A linguist sees the jobs they are a provider of, and nothing else.
      expect((await list('', linguistHeaders)).content.map((j: { uid: string }) => j.uid)).toEqual([jobUids[0]]);
      expect((await t.inject({ method: 'GET', url: jobUrl(jobUids[2]!), headers: linguistHeaders })).statusCode).toBe(404);
      expect((await t.inject({ method: 'GET', url: `/api2/v2/projects/${project.uid}/jobs?pageSize=51`, headers })).statusCode).toBe(400);
    });

    it('moves statuses: providers along their part, managers anywhere, with a history', async () => {
      const uid = jobUids[0]!;
      const move = (status: string, as: Headers) =>
        t.inject({ method: 'POST', url: jobUrl(uid, '/setStatus'), headers: as, payload: { requestedStatus: status } });
      expect((await move('COMPLETED', linguistHeaders)).statusCode).toBe(400);
      expect((await move('ACCEPTED', linguistHeaders)).statusCode).toBe(204);
      expect((await move('ACCEPTED', linguistHeaders)).statusCode).toBe(400);
      expect((await move('REJECTED', linguistHeaders)).statusCode).toBe(403);
      expect((await move('DELIVERED', linguistHeaders)).statusCode).toBe(204);
      expect((await move('COMPLETED', headers)).statusCode).toBe(204);
      expect(
        (
          await t.inject({
            method: 'POST',
            url: jobUrl(jobUids[2]!, '/setStatus'),
            headers: linguistHeaders,
            payload: { requestedStatus: 'ACCEPTED' },
          })
        ).statusCode,
      ).toBe(404);
      const history = (await t.inject({ method: 'GET', url: jobUrl(uid, '/statusChanges'), headers })).json().statusChanges;
      expect(history.map((h: { status: string }) => h.status)).toEqual(['NEW', 'ACCEPTED', 'DELIVERED', 'COMPLETED']);
      expect(history[1].changedBy.uid).toBe(linguist.uid);
      expect((await t.inject({ method: 'GET', url: jobUrl(uid), headers })).json().status).toBe('COMPLETED');
    });

    it('edits (PUT), patches and batch-edits status, due date and providers, with events', async () => {
      const hook = await t.inject({
        method: 'POST',
        url: '/api2/v2/webhooks',
        headers,
        payload: {
          url: 'https://hooks.example.test/edits',
          events: ['JOB_STATUS_CHANGED', 'JOB_DUE_DATE_CHANGED', 'JOB_ASSIGNED', 'JOB_UPDATED'],
        },
      });
      expect(hook.statusCode).toBe(201);
      const uid = jobUids[1]!;
      const put = await t.inject({
        method: 'PUT',
        url: jobUrl(uid),
        headers,
        payload: { status: 'ACCEPTED', dateDue: '2027-03-01T09:00:00Z', providers: [{ type: 'USER', id: linguist.id }] },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toMatchObject({
        status: 'ACCEPTED',
        dateDue: '2027-03-01T09:00:00.000Z',
        providers: [{ type: 'USER', uid: linguist.uid }],
      });
      const patch = await t.inject({ method: 'PATCH', url: jobUrl(uid), headers, payload: { dateDue: null } });
      expect(patch.json()).toMatchObject({ status: 'ACCEPTED', dateDue: null, providers: [{ uid: linguist.uid }] });
      const batch = await t.inject({
        method: 'PUT',
        url: `/api2/v1/projects/${project.uid}/jobs/batch`,
        headers,
        payload: { jobs: [{ uid: jobUids[1] }, { uid: jobUids[3] }], status: 'CANCELLED', providers: null },
      });
      expect(batch.statusCode).toBe(200);
      expect(batch.json().jobs.map((j: { status: string; providers: unknown[] }) => [j.status, j.providers.length])).toEqual([
        ['CANCELLED', 0],
        ['CANCELLED', 0],
      ]);
      const events = (
        await t.database.db
          .selectFrom('webhookCalls')
          .select('event')
          .where('url', '=', 'https://hooks.example.test/edits')
          .orderBy('id')
          .execute()
      ).map((c) => c.event);
      expect(new Set(events)).toEqual(new Set(['JOB_STATUS_CHANGED', 'JOB_DUE_DATE_CHANGED', 'JOB_ASSIGNED', 'JOB_UPDATED']));
      const unknown = await t.inject({
        method: 'PUT',
        url: `/api2/v1/projects/${project.uid}/jobs/batch`,
        headers,
        payload: { jobs: [{ uid: 'nope' }], status: 'NEW' },
      });
      expect(unknown.statusCode).toBe(404);
      const badProvider = await t.inject({
        method: 'PATCH',
        url: jobUrl(uid),
        headers,
        payload: { providers: [{ type: 'VENDOR', id: '424242' }] },
      });
      expect(badProvider.statusCode).toBe(400);
      expect((await t.inject({ method: 'PATCH', url: jobUrl(uid), headers: linguistHeaders, payload: { dateDue: null } })).statusCode).toBe(
        403,
      );
    });

    it('reads segments by index range and counts them', async () => {
      const list = await segments(project, jobUids[0]!, 'beginIndex=1&endIndex=2');
      expect(list.map((s) => [s.index, s.source])).toEqual([
        [1, 'Another one.'],
        [2, 'Third line.'],
      ]);
      expect((await t.inject({ method: 'GET', url: jobUrl(jobUids[0]!, '/segments?beginIndex=3&endIndex=1'), headers })).statusCode).toBe(
        400,
      );
      const counts = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs/segmentsCount`,
        headers,
        payload: { jobs: [{ uid: jobUids[0] }, { uid: jobUids[1] }] },
      });
      expect(counts.statusCode).toBe(200);
      const [first, second] = counts.json().segmentsCountsResults;
      expect(first).toMatchObject({
        jobPartUid: jobUids[0],
        previousWorkflow: null,
        counts: { segmentsCount: 3, wordsCount: 6, charsCount: 36, translatedSegmentsCount: 0, segmentGroupsCount: 2, allConfirmed: false },
      });
      expect(second.previousWorkflow.counts.segmentsCount).toBe(3);
    });

    it("returns the job's workflow step and searches jobs by uid", async () => {
      const step = (await t.inject({ method: 'GET', url: jobUrl(jobUids[1]!, '/workflowStep'), headers })).json();
      expect(step.workflowLevel).toBe(2);
      const search = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs/search`,
        headers,
        payload: { jobs: [{ uid: jobUids[2] }, { uid: jobUids[0] }] },
      });
      expect(search.json().jobs.map((j: { uid: string }) => j.uid)).toEqual([jobUids[2], jobUids[0]]);
    });
  });

  describe('deleteParts', () => {
    it('removes jobs, and a file with its stored bytes once no job is left', async () => {
      const project = await workflowProject(1, ['de', 'fr']);
      const content = `Unique content ${Date.now()} ${Math.random()}`;
      const response = await upload(project, 'gone.txt', content, { targetLangs: ['de', 'fr'] });
      const [de, fr] = response.json().jobs.map((j: { uid: string }) => j.uid) as string[];
      await importedJob(project, de!);
      const source = await t.database.db
        .selectFrom('jobSources')
        .select(['id', 'sha256'])
        .where('projectId', '=', project.id)
        .executeTakeFirstOrThrow();
      const remove = (uids: string[]) =>
        t.inject({
          method: 'DELETE',
          url: `/api2/v1/projects/${project.uid}/jobs/batch`,
          headers,
          payload: { jobs: uids.map((uid) => ({ uid })) },
        });
      expect((await remove([de!])).statusCode).toBe(204);
      expect(await t.deps.blobs.has(source.sha256)).toBe(true);
      expect((await t.inject({ method: 'GET', url: `/api2/v1/projects/${project.uid}/jobs/${de}`, headers })).statusCode).toBe(404);
      expect((await remove([fr!])).statusCode).toBe(204);
      expect(await t.database.db.selectFrom('jobSources').select('id').where('id', '=', source.id).executeTakeFirst()).toBeUndefined();
      expect(
        await t.database.db.selectFrom('sourceSegments').select('idx').where('jobSourceId', '=', source.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(await t.deps.blobs.has(source.sha256)).toBe(false);
      expect((await remove([fr!])).statusCode).toBe(404);
    });
  });
});
