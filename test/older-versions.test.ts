import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTaskRegistry } from '../src/queue/queue.js';
import { startWorker } from '../src/queue/worker.js';
import type { Worker } from '../src/queue/worker.js';
import { importJobTask } from '../src/modules/translation-workflow/jobs/job-import.task.js';
import { loadContractChecker } from './contract/response-contract.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import { makeServiceAccount, signedInUser } from './factories.js';
import { waitFor } from './support/wait.js';

/**
 * Issue 13, "What real clients send": older versions that clients still call keep working, each
 * with its own older shape (checked against the published definition of that shape where the
 * Swagger has one), and marked deprecated in the OpenAPI document. Also the rest of the contract
 * (info.version, bot users, lastLogins paging, importStatus of createJob), Content-Disposition on
 * downloads, and empty lists that mean "not given".
 */

const contract = loadContractChecker();

/**
 * Violations of `body` against the response the published spec declares for `method path` (an
 * operation answering the same shape as the older version, which the Swagger no longer lists).
 */
function shapeViolations(method: string, path: string, status: number, body: string): string[] {
  if (!contract) return [];
  return contract.check({ method, url: path, statusCode: status, contentType: 'application/json; charset=utf-8', body });
}

describe('older versions and the rest of the contract', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;
  let worker: Worker | null = null;
  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  const projectBody = () => ({ name: uniqueName('Project'), sourceLang: 'en', targetLangs: ['de', 'fr'], note: 'Made by an old client' });

  describe('A. older versions', () => {
    it('POST /api2/v1/projects answers the v1 view (AbstractProjectDto), the same as GET v1', async () => {
      const response = await api('POST', 'v1/projects', headers, projectBody());
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json();
      expect(shapeViolations('GET', `/api2/v1/projects/${created.uid}`, 200, response.body)).toEqual([]);
      // The shape check does catch a field the older shape does not have.
      if (contract) expect(shapeViolations('GET', '/api2/v1/projects/x', 200, JSON.stringify({ ...created, bogus: 1 }))).not.toEqual([]);
      expect(created).toMatchObject({ note: 'Made by an old client', sourceLang: 'en', targetLangs: ['de', 'fr'], userRole: 'ADMIN' });
      const fetched = await api('GET', `v1/projects/${created.uid}`, headers);
      expect(created).toEqual(fetched.json());
      // The v2 shape is another one: v3's answer is not v1's.
      const v3 = (await api('POST', 'v3/projects', headers, projectBody())).json();
      expect(Object.keys(v3).sort()).not.toEqual(Object.keys(created).sort());
    });

    it('POST /api2/v2/projects answers the v2 view (AbstractProjectDtoV2), as v3 does', async () => {
      const response = await api('POST', 'v2/projects', headers, projectBody());
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json();
      expect(shapeViolations('PUT', `/api2/v2/projects/${created.uid}`, 200, response.body)).toEqual([]);
      const v3 = (await api('POST', 'v3/projects', headers, projectBody())).json();
      expect(Object.keys(created).sort()).toEqual(Object.keys(v3).sort());
      const v1 = (await api('POST', 'v1/projects', headers, projectBody())).json();
      expect(Object.keys(created).sort()).not.toEqual(Object.keys(v1).sort());
      // Checked by the same rules as v3.
      const refused = await api('POST', 'v2/projects', headers, { ...projectBody(), sourceLang: 'xx-nope' });
      expect(refused.statusCode).toBe(400);
    });

    it('PUT /api2/v1/projects/{projectUid} edits as v2 does and answers the v1 view', async () => {
      const project = (await api('POST', 'v3/projects', headers, projectBody())).json();
      const response = await api('PUT', `v1/projects/${project.uid}`, headers, { name: 'Edited by v1' });
      expect(response.statusCode, response.body).toBe(200);
      expect(shapeViolations('GET', `/api2/v1/projects/${project.uid}`, 200, response.body)).toEqual([]);
      const edited = response.json();
      // The body replaces the editable fields: the note left out is cleared.
      expect(edited).toMatchObject({ uid: project.uid, name: 'Edited by v1', note: null, userRole: 'ADMIN' });
      expect(edited).toEqual((await api('GET', `v1/projects/${project.uid}`, headers)).json());
    });

    it('POST /api2/v2/users creates the user as v3 does and answers the older UserDto', async () => {
      const userName = uniqueName('old-client').replace(' ', '-');
      const response = await api('POST', 'v2/users', headers, {
        userName,
        firstName: 'Olga',
        lastName: 'Client',
        email: 'olga@example.test',
        password: 'a good password',
        role: 'PROJECT_MANAGER',
        timezone: 'Europe/Prague',
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(shapeViolations('POST', `/api2/v1/users/${response.json().uid}/undelete`, 200, response.body)).toEqual([]);
      const created = response.json();
      expect(created).toMatchObject({ userName, role: 'PROJECT_MANAGER', active: true, bot: false, createdBy: { uid: admin.uid } });
      expect(created).not.toHaveProperty('assignableRoles'); // a field of UserDetailsDtoV3 only
      const listed = (await api('GET', `v1/users?userName=${encodeURIComponent(userName)}`, headers)).json().content;
      expect(listed).toEqual([created]);
      const taken = await api('POST', 'v2/users', headers, { ...created, password: 'a good password' });
      expect(taken.statusCode).toBe(409);
    });

    it('POST /api2/v1/webhooks creates the webhook as v2 does and answers the v1 record', async () => {
      const response = await api('POST', 'v1/webhooks', headers, {
        name: 'Old hook',
        url: 'https://hooks.example.test/v1',
        events: ['JOB_CREATED', 'PROJECT_CREATED'],
        secretToken: 'shh',
      });
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json();
      expect(Object.keys(created).sort()).toEqual(['events', 'id', 'name', 'secretToken', 'signingSecret', 'status', 'uid', 'url']);
      expect(created).toMatchObject({
        name: 'Old hook',
        events: ['JOB_CREATED', 'PROJECT_CREATED'],
        secretToken: 'shh',
        status: 'ENABLED',
      });
      const v2 = (await api('GET', `v2/webhooks/${created.uid}`, headers)).json();
      expect(v2).toMatchObject({ ...created, hidden: false, failedAttempts: 0 });
      expect((await api('POST', 'v1/webhooks', headers, { url: 'ftp://nope', events: ['JOB_CREATED'] })).statusCode).toBe(400);
    });

    it('GET /api2/v1/projects/{projectUid}/jobs/{jobUid}/targetFile answers the target file at once', async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
      const { jobs } = await makeJobs(t, project, { filename: 'Übersicht "final".txt', segments: ['Hello world.', 'Second line.'] });
      const job = jobs[0]!;
      await t.database.db
        .insertInto('jobSegments')
        .values({ jobId: job.id, idx: 0, target: 'Hallo Welt.', modifiedAt: t.clock().toISOString(), modifiedById: admin.id })
        .execute();
      const response = await api('GET', `v1/projects/${project.uid}/jobs/${job.uid}/targetFile`, headers);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toBe('Hallo Welt.\nSecond line.');
      // D. Content-Disposition as the real service writes it: filename* first, then the ASCII fallback.
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename*=UTF-8\'\'%C3%9Cbersicht%20%22final%22.txt; filename="_bersicht _final_.txt"',
      );
      const clientRegex = /^attachment; filename\*=UTF-8''(.+?)(;|$)/;
      expect(decodeURIComponent(clientRegex.exec(String(response.headers['content-disposition']))![1]!)).toBe('Übersicht "final".txt');

      // The same refusals as the async version.
      await t.database.db
        .updateTable('jobSources')
        .set({ importStatus: 'RUNNING' })
        .where('uid', '=', (await sourceUidOf(job.id))!)
        .execute();
      const running = await api('GET', `v1/projects/${project.uid}/jobs/${job.uid}/targetFile`, headers);
      expect(running.statusCode).toBe(409);
      expect(running.json().errorCode).toBe('JobImportNotFinished');
      const other = await api('GET', `v1/projects/${project.uid}/jobs/nope/targetFile`, headers);
      expect(other.statusCode).toBe(404);
    });

    async function sourceUidOf(jobId: string) {
      const row = await t.database.db
        .selectFrom('jobs')
        .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
        .select('jobSources.uid')
        .where('jobs.id', '=', jobId)
        .executeTakeFirst();
      return row?.uid;
    }

    it('every older version is in the OpenAPI document, deprecated, beside its current version', async () => {
      const document = (await t.inject({ url: '/api2/openapi.json' })).json() as {
        info: { version: string };
        paths: Record<string, Record<string, { deprecated?: boolean; operationId?: string }>>;
      };
      const older: Array<[string, string, string]> = [
        ['post', '/api2/v1/projects', 'createProject'],
        ['post', '/api2/v2/projects', 'createProjectV2'],
        ['put', '/api2/v1/projects/{projectUid}', 'editProject'],
        ['post', '/api2/v2/users', 'createUserV2'],
        ['get', '/api2/v1/projects/{projectUid}/jobs/{jobUid}/targetFile', 'completedFile'],
        ['post', '/api2/v1/webhooks', 'createWebHook'],
      ];
      for (const [method, path, operationId] of older) {
        expect(document.paths[path]?.[method], `${method} ${path}`).toMatchObject({ operationId, deprecated: true });
      }
      for (const [method, path] of [
        ['post', '/api2/v3/projects'],
        ['put', '/api2/v3/projects/{projectUid}'],
        ['post', '/api2/v3/users'],
        ['post', '/api2/v2/webhooks'],
      ] as const) {
        expect(document.paths[path]?.[method]?.deprecated, `${method} ${path}`).toBeUndefined();
      }
      // C. The version label of the interface description.
      expect(document.info.version).toBe('Latest');
    });
  });

  describe('C. the rest of the contract', () => {
    it('bot users are marked as bots in user records, people are not', async () => {
      const account = await makeServiceAccount(t, headers);
      const bot = await api('GET', `v3/users/${account.botUser.uid}`, headers);
      expect(bot.statusCode, bot.body).toBe(200);
      expect(bot.json()).toMatchObject({ uid: account.botUser.uid, bot: true });
      expect((await api('GET', `v3/users/${admin.uid}`, headers)).json()).toMatchObject({ bot: false });
      const listed = (await api('GET', 'v1/users?pageSize=50', headers)).json().content as Array<{ uid: string; bot: boolean }>;
      expect(listed.find((user) => user.uid === admin.uid)).toMatchObject({ bot: false });
    });

    it('lastLogins takes the page size its published operation declares (up to 100, default 100)', async () => {
      const page = await api('GET', 'v1/users/lastLogins?pageSize=100', headers);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().pageSize).toBe(100);
      expect((await api('GET', 'v1/users/lastLogins', headers)).json().pageSize).toBe(100);
      expect((await api('GET', 'v1/users/lastLogins?pageSize=101', headers)).statusCode).toBe(400);
      // Other lists keep 50.
      expect((await api('GET', 'v1/users?pageSize=100', headers)).statusCode).toBe(400);
    });

    it("the answer to createJob carries each job's importStatus", async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
      const response = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs`,
        headers: {
          ...headers,
          'content-type': 'application/octet-stream',
          'content-disposition': "attachment; filename*=UTF-8''status.txt",
          memsource: JSON.stringify({ targetLangs: ['de', 'fr'] }),
        },
        payload: Buffer.from('One sentence.\nAnother one.', 'utf8'),
      });
      expect(response.statusCode, response.body).toBe(201);
      const jobs = response.json().jobs as Array<{ uid: string; importStatus: { status: string; errorMessage: string | null } }>;
      expect(jobs).toHaveLength(2);
      for (const job of jobs) expect(job.importStatus).toEqual({ status: 'RUNNING', errorMessage: null });
      // Once imported, the job says so.
      worker ??= startWorker(t.deps, createTaskRegistry([importJobTask]), { listenConnectionString: null, pollMilliseconds: 20 });
      const imported = await waitFor('import', async () => {
        const job = (await api('GET', `v1/projects/${project.uid}/jobs/${jobs[0]!.uid}`, headers)).json();
        return job.importStatus.status === 'RUNNING' ? null : job;
      });
      expect(imported.importStatus).toEqual({ status: 'OK', errorMessage: null });
    });
  });

  describe('E. an empty list means "not given" where a default exists', () => {
    it('applyTemplate with targetLangs: [] and workflowSteps: [] takes the template’s', async () => {
      const steps = (await api('GET', 'v1/workflowSteps', headers)).json().content as Array<{ id: string; uid: string }>;
      const source = (
        await api('POST', 'v3/projects', headers, {
          name: uniqueName('Source'),
          sourceLang: 'en',
          targetLangs: ['de', 'ja'],
          workflowSteps: [{ id: steps[0]!.uid }, { id: steps[1]!.uid }],
        })
      ).json();
      const template = (
        await api('POST', 'v1/projectTemplates', headers, { project: { uid: source.uid }, name: uniqueName('Template') })
      ).json();
      for (const url of [`v2/projects/applyTemplate/${template.uid}`, `v2/projects/applyTemplate/async/${template.uid}`]) {
        const response = await api('POST', url, headers, { name: uniqueName('From template'), targetLangs: [], workflowSteps: [] });
        expect(response.statusCode, response.body).toBe(url.includes('async') ? 202 : 201);
        if (url.includes('async')) continue;
        const project = response.json();
        expect(project.targetLangs).toEqual(['de', 'ja']);
        expect(project.workflowSteps.map((step: { workflowStep: { uid: string } }) => step.workflowStep.uid)).toEqual([
          steps[0]!.uid,
          steps[1]!.uid,
        ]);
      }
      // A list that is given still wins.
      const given = await api('POST', `v2/projects/applyTemplate/${template.uid}`, headers, {
        name: uniqueName('Given'),
        targetLangs: ['ja'],
      });
      expect(given.json().targetLangs).toEqual(['ja']);
    });
  });
});
