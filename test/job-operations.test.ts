import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { jobRelevance, rankProviders } from '../src/modules/translation-workflow/job-operations/provider-relevance.js';
import type { JobFacts, ProviderProfile } from '../src/modules/translation-workflow/job-operations/provider-relevance.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

describe('provider relevance (pure rules)', () => {
  const profile = (overrides: Partial<ProviderProfile> = {}): ProviderProfile => ({
    sourceLocales: [],
    targetLocales: [],
    workflowSteps: [],
    clients: [],
    domains: [],
    subDomains: [],
    ...overrides,
  });
  const job: JobFacts = {
    sourceLang: 'en',
    targetLang: 'de_de',
    workflowStep: 'step-t',
    client: 'client-a',
    domain: null,
    subDomain: null,
  };
  const cases: { name: string; profile: ProviderProfile; expected: number | null }[] = [
    { name: 'no restrictions fit with score 0', profile: profile(), expected: 0 },
    { name: 'exact target locale', profile: profile({ targetLocales: ['de_de'] }), expected: 8 },
    { name: 'same language, other region: half', profile: profile({ targetLocales: ['de_at'] }), expected: 4 },
    { name: 'target locale written with a hyphen', profile: profile({ targetLocales: ['de-DE'] }), expected: 8 },
    { name: 'another target language does not fit', profile: profile({ targetLocales: ['fr'] }), expected: null },
    { name: 'source and target', profile: profile({ sourceLocales: ['en'], targetLocales: ['de_de'] }), expected: 12 },
    { name: 'workflow step and client', profile: profile({ workflowSteps: ['step-t'], clients: ['client-a'] }), expected: 6 },
    { name: 'a client list without the project’s client', profile: profile({ clients: ['client-b'] }), expected: null },
    { name: 'a domain list when the project has no domain is neutral', profile: profile({ domains: ['d'] }), expected: 0 },
  ];
  it.each(cases)('$name', ({ profile: p, expected }) => {
    expect(jobRelevance(p, job)).toBe(expected);
  });

  it('ranks fitting providers first, best first, ties by name; limit caps relevant only', () => {
    const ranked = rankProviders(
      [
        { provider: 'b', name: 'b', score: 8 },
        { provider: 'x', name: 'x', score: null },
        { provider: 'a', name: 'a', score: 8 },
        { provider: 'c', name: 'c', score: 0 },
      ],
      2,
    );
    expect(ranked).toEqual({ all: ['a', 'b', 'c', 'x'], relevant: ['a', 'b'] });
    expect(rankProviders([{ provider: 'a', name: 'a', score: 1 }], undefined).relevant).toEqual(['a']);
  });
});

describe('job operations over HTTP', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let adminHeaders: Headers;
  let project: ProjectRow;

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_PROJECT_JOB_LIMIT: '40' } });
    ({ organization, user: admin, headers: adminHeaders } = await signedInUser(t, 'ADMIN'));
    project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr', 'es'] });
  });
  afterAll(() => t.close());

  async function linguistWith(settings: Record<string, unknown>, overrides: { active?: boolean } = {}) {
    const user = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    await t.database.db
      .updateTable('users')
      .set({
        roleSettings: JSON.stringify(parseRoleSettings('LINGUIST', JSON.stringify({ locales: settings }))),
        active: overrides.active ?? true,
      })
      .where('id', '=', user.id)
      .execute();
    return user;
  }

  async function subscribe(events: string[]) {
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v2/webhooks',
      headers: adminHeaders,
      payload: { url: 'https://hooks.example.test/in', events },
    });
    expect(response.statusCode, response.body).toBe(201);
  }

  const calls = async (event: string) =>
    (await t.database.db.selectFrom('webhookCalls').select('body').where('event', '=', event).execute()).map(
      (c) => JSON.parse(c.body) as { jobParts: { uid: string }[] },
    );

  describe('provider suggestions', () => {
    it('suggests the linguists and vendors whose languages fit the job, best first, with limit', async () => {
      const own = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
      const { jobs } = await makeJobs(t, own);
      const de = jobs.find((j) => j.targetLang === 'de')!;
      const german = await linguistWith({ sourceLocales: ['en'], targetLocales: ['de'] });
      const anything = await linguistWith({});
      const french = await linguistWith({ targetLocales: ['fr'] });
      const inactive = await linguistWith({ targetLocales: ['de'] }, { active: false });
      const url = `/api2/v2/projects/${own.uid}/jobs/${de.uid}/providers/suggest`;
      const response = await t.inject({ method: 'POST', url, headers: adminHeaders });
      expect(response.statusCode, response.body).toBe(200);
      const { all, relevant } = response.json().providers as {
        all: { uid: string; type: string }[];
        relevant: { uid: string; type: string }[];
      };
      const uids = (list: { uid: string }[]) => list.map((p) => p.uid);
      expect(uids(relevant).indexOf(german.uid)).toBeLessThan(uids(relevant).indexOf(anything.uid));
      expect(uids(relevant)).not.toContain(french.uid);
      expect(uids(all)).toContain(french.uid);
      expect(uids(all)).not.toContain(inactive.uid);
      expect(uids(all)).not.toContain(admin.uid);
      expect(relevant[0]).toMatchObject({ type: 'USER', uid: german.uid });

      const limited = await t.inject({ method: 'POST', url: `${url}?limit=1`, headers: adminHeaders });
      expect(limited.json().providers.relevant).toHaveLength(1);
      expect(limited.json().providers.relevant[0].uid).toBe(german.uid);
    });

    it('for several jobs suggests those that fit every job; unknown jobs are 404', async () => {
      const own = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
      const { jobs } = await makeJobs(t, own);
      const german = await linguistWith({ targetLocales: ['de'] });
      const both = await linguistWith({ targetLocales: ['de', 'fr'] });
      const url = `/api2/v2/projects/${own.uid}/jobs/providers/suggest`;
      const response = await t.inject({ method: 'POST', url, headers: adminHeaders, payload: { jobs: jobs.map((j) => ({ uid: j.uid })) } });
      expect(response.statusCode, response.body).toBe(200);
      const relevant = (response.json().providers.relevant as { uid: string }[]).map((p) => p.uid);
      expect(relevant[0]).toBe(both.uid);
      expect(relevant).not.toContain(german.uid);
      const limited = await t.inject({
        method: 'POST',
        url,
        headers: adminHeaders,
        payload: { jobs: jobs.map((j) => ({ uid: j.uid })), limit: 1 },
      });
      expect(limited.json().providers.relevant).toHaveLength(1);
      const missing = await t.inject({ method: 'POST', url, headers: adminHeaders, payload: { jobs: [{ uid: 'nope' }] } });
      expect(missing.statusCode).toBe(404);
    });

    it('is for managers: a linguist is refused, another organization does not see the job', async () => {
      const { jobs } = await makeJobs(t, project, { targetLangs: ['de'] });
      const url = `/api2/v2/projects/${project.uid}/jobs/${jobs[0]!.uid}/providers/suggest`;
      const linguist = apiToken(await loginAs(t, await makeUser(t.database.db, organization, { role: 'LINGUIST' })));
      expect((await t.inject({ method: 'POST', url, headers: linguist })).statusCode).toBe(403);
      expect((await t.inject({ method: 'POST', url, headers: (await signedInUser(t, 'ADMIN')).headers })).statusCode).toBe(404);
    });
  });

  describe('clone', () => {
    const cloneUrl = (p: ProjectRow) => `/api2/v1/projects/${p.uid}/jobs/clone`;

    it('makes jobs of the same file for other target languages, with the workflow settings, and announces them', async () => {
      await subscribe(['JOB_CREATED']);
      const { jobs, sourceUid } = await makeJobs(t, project, { targetLangs: ['de'], segments: ['Hello.'] });
      const step = await t.database.db
        .selectFrom('projectWorkflowSteps')
        .select('id')
        .where('projectId', '=', project.id)
        .executeTakeFirstOrThrow();
      const linguist = await linguistWith({ targetLocales: ['fr'] });
      const response = await t.inject({
        method: 'POST',
        url: cloneUrl(project),
        headers: adminHeaders,
        payload: {
          jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['fr', 'es'] }],
          workflowSettings: [{ workflowStep: { id: step.id }, linguist: { uid: linguist.uid }, due: '2027-02-01T10:00:00Z' }],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      const clones = response.json().jobs as {
        uid: string;
        targetLang: string;
        status: string;
        sourceFileUid: string;
        dateDue: string;
        providers: { uid: string }[];
      }[];
      expect(clones.map((c) => c.targetLang).sort()).toEqual(['es', 'fr']);
      for (const clone of clones) {
        expect(clone).toMatchObject({ status: 'NEW', sourceFileUid: sourceUid, dateDue: '2027-02-01T10:00:00.000Z' });
        expect(clone.providers.map((p) => p.uid)).toEqual([linguist.uid]);
      }
      const original = await t.inject({
        method: 'GET',
        url: `/api2/v1/projects/${project.uid}/jobs/${clones[0]!.uid}/original`,
        headers: adminHeaders,
      });
      expect(original.body).toBe('Hello.');
      const created = await calls('JOB_CREATED');
      expect(
        created
          .at(-1)!
          .jobParts.map((j) => j.uid)
          .sort(),
      ).toEqual(clones.map((c) => c.uid).sort());
    });

    it('keeps the part of a split job with keepSplit', async () => {
      const { jobs } = await makeJobs(t, project, { targetLangs: ['de'], segments: ['a', 'b', 'c'] });
      await t.database.db.updateTable('jobs').set({ beginIndex: 1, endIndex: 2 }).where('id', '=', jobs[0]!.id).execute();
      const response = await t.inject({
        method: 'POST',
        url: cloneUrl(project),
        headers: adminHeaders,
        payload: { jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['fr'] }], keepSplit: true },
      });
      expect(response.statusCode, response.body).toBe(201);
      const row = await t.database.db
        .selectFrom('jobs')
        .select(['beginIndex', 'endIndex'])
        .where('uid', '=', response.json().jobs[0].uid)
        .executeTakeFirstOrThrow();
      expect([Number(row.beginIndex), Number(row.endIndex)]).toEqual([1, 2]);
      const whole = await t.inject({
        method: 'POST',
        url: cloneUrl(project),
        headers: adminHeaders,
        payload: { jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['fr'] }] },
      });
      const wholeRow = await t.database.db
        .selectFrom('jobs')
        .select(['beginIndex'])
        .where('uid', '=', whole.json().jobs[0].uid)
        .executeTakeFirstOrThrow();
      expect(wholeRow.beginIndex).toBeNull();
    });

    it('refuses bad clones with a 400 and writes nothing', async () => {
      const single = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
      const singleJobs = await makeJobs(t, single);
      const { jobs, sourceId } = await makeJobs(t, project, { targetLangs: ['de'] });
      const count = async () =>
        Number(
          (
            await t.database.db
              .selectFrom('jobs')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const attempt = (p: ProjectRow, payload: unknown) =>
        t.inject({ method: 'POST', url: cloneUrl(p), headers: adminHeaders, payload: payload as object });

      const oneLanguage = await attempt(single, { jobPartTargetLangs: [{ uid: singleJobs.jobs[0]!.uid, targetLangs: ['fr'] }] });
      expect([oneLanguage.statusCode, oneLanguage.json().errorCode]).toEqual([400, 'CloneNeedsTargetLanguages']);
      expect((await attempt(project, { jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['it'] }] })).statusCode).toBe(400);
      expect((await attempt(project, { jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['de'] }] })).statusCode).toBe(400);
      expect((await attempt(project, { jobPartTargetLangs: [{ uid: 'unknown', targetLangs: ['fr'] }] })).statusCode).toBe(404);
      expect(
        (
          await attempt(project, {
            jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['fr'] }],
            workflowSettings: [{ workflowStep: { id: '999999' } }],
          })
        ).statusCode,
      ).toBe(400);
      expect(
        (
          await attempt(project, {
            jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['fr'] }],
            workflowSettings: [],
            keepSplit: 'yes',
          })
        ).statusCode,
      ).toBe(400);

      await t.database.db.updateTable('jobSources').set({ format: 'multilingual-xlsx' }).where('id', '=', sourceId).execute();
      const multilingual = await attempt(project, { jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['fr'] }] });
      expect([multilingual.statusCode, multilingual.json().errorCode]).toEqual([400, 'MultilingualJobCannotBeCloned']);
      expect(await count()).toBe(before);
    });

    it('refuses clones past the project’s job limit (40 here)', async () => {
      const small = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr', 'es'] });
      const made = await makeJobs(t, small, { targetLangs: ['de'] });
      for (let i = 0; i < 38; i++) await makeJobs(t, small, { targetLangs: ['de'], segments: ['x'] });
      const clone = (targetLangs: string[]) =>
        t.inject({
          method: 'POST',
          url: cloneUrl(small),
          headers: adminHeaders,
          payload: { jobPartTargetLangs: [{ uid: made.jobs[0]!.uid, targetLangs }] },
        });
      const tooMany = await clone(['fr', 'es']);
      expect([tooMany.statusCode, tooMany.json().errorCode]).toEqual([400, 'ProjectJobLimitExceeded']);
      expect((await clone(['fr'])).statusCode).toBe(201);
    });

    it('needs edit rights on the project', async () => {
      const { jobs } = await makeJobs(t, project, { targetLangs: ['de'] });
      const pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER' });
      await t.database.db
        .updateTable('users')
        .set({
          roleSettings: JSON.stringify(parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights: { projectEditOther: false } }))),
        })
        .where('id', '=', pm.id)
        .execute();
      const response = await t.inject({
        method: 'POST',
        url: cloneUrl(project),
        headers: apiToken(await loginAs(t, pm)),
        payload: { jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['fr'] }] },
      });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('bulk edit (v3)', () => {
    const patch = (payload: unknown, headers = adminHeaders) =>
      t.inject({ method: 'PATCH', url: '/api2/v3/jobs', headers, payload: payload as object });
    const jobRow = (uid: string) => t.database.db.selectFrom('jobs').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();

    it('edits jobs across projects and reports the ones it could not, job by job', async () => {
      await subscribe(['JOB_STATUS_CHANGED', 'JOB_DUE_DATE_CHANGED', 'JOB_ASSIGNED']);
      const other = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
      const a = (await makeJobs(t, project, { targetLangs: ['de'] })).jobs[0]!;
      const b = (await makeJobs(t, other)).jobs[0]!;
      const stranger = await signedInUser(t, 'ADMIN');
      const strangerJob = (await makeJobs(t, await makeProject(t, stranger.organization.id))).jobs[0]!;
      const linguist = await linguistWith({});
      const response = await patch({
        jobs: [{ uid: a.uid }, { uid: b.uid }, { uid: 'unknown' }, { uid: strangerJob.uid }],
        status: 'ACCEPTED',
        dateDue: '2027-03-01T08:00:00Z',
        providers: [{ type: 'USER', uid: linguist.uid }],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().updated).toBe(2);
      expect(response.json().errors).toEqual([
        { code: 'NOT_FOUND', message: 'Job unknown: Job not found.', args: { job: { uid: 'unknown' } } },
        { code: 'NOT_FOUND', message: `Job ${strangerJob.uid}: Job not found.`, args: { job: { uid: strangerJob.uid } } },
      ]);
      for (const uid of [a.uid, b.uid]) {
        const row = await jobRow(uid);
        expect([row.status, row.dateDue]).toEqual(['ACCEPTED', '2027-03-01T08:00:00.000Z']);
        const providers = await t.database.db.selectFrom('jobProviders').select('userId').where('jobId', '=', row.id).execute();
        expect(providers.map((p) => String(p.userId))).toEqual([linguist.id]);
        const history = await t.database.db
          .selectFrom('jobStatusChanges')
          .select('status')
          .where('jobId', '=', row.id)
          .orderBy('id')
          .execute();
        expect(history.map((h) => h.status)).toEqual(['NEW', 'ACCEPTED']);
      }
      for (const event of ['JOB_STATUS_CHANGED', 'JOB_DUE_DATE_CHANGED', 'JOB_ASSIGNED']) {
        expect((await calls(event)).flatMap((c) => c.jobParts.map((j) => j.uid))).toEqual(expect.arrayContaining([a.uid, b.uid]));
      }
      expect((await jobRow(strangerJob.uid)).status).toBe('NEW');

      const cleared = await patch({ jobs: [{ uid: a.uid }], clearDateDue: true });
      expect(cleared.json()).toEqual({ updated: 1, errors: [] });
      expect((await jobRow(a.uid)).dateDue).toBeNull();
    });

    it('reports jobs of projects a manager may see but not edit as FORBIDDEN, and hides those they may not see', async () => {
      const a = (await makeJobs(t, project, { targetLangs: ['de'] })).jobs[0]!;
      const pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER' });
      const setRights = (rights: Record<string, boolean>) =>
        t.database.db
          .updateTable('users')
          .set({ roleSettings: JSON.stringify(parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights }))) })
          .where('id', '=', pm.id)
          .execute();
      const headers = apiToken(await loginAs(t, pm));
      await setRights({ projectEditOther: false });
      expect((await patch({ jobs: [{ uid: a.uid }], status: 'CANCELLED' }, headers)).json().errors[0].code).toBe('FORBIDDEN');
      await setRights({ projectViewOther: false, projectEditOther: false });
      expect((await patch({ jobs: [{ uid: a.uid }], status: 'CANCELLED' }, headers)).json().errors[0].code).toBe('NOT_FOUND');
      expect((await jobRow(a.uid)).status).toBe('NEW');
    });

    it('sets custom field values and reports a value a job cannot take', async () => {
      const field = await t.inject({
        method: 'POST',
        url: '/api2/v1/customFields',
        headers: adminHeaders,
        payload: { name: `Batch ${Date.now()}`, type: 'STRING', allowedEntities: ['PROJECT'] },
      });
      expect(field.statusCode, field.body).toBe(201);
      const a = (await makeJobs(t, project, { targetLangs: ['de'] })).jobs[0]!;
      const response = await patch({ jobs: [{ uid: a.uid }], customFields: [{ customField: { uid: field.json().uid }, value: 'urgent' }] });
      expect(response.json()).toEqual({ updated: 1, errors: [] });
      const value = await t.database.db.selectFrom('customFieldValues').select('value').where('jobId', '=', a.id).executeTakeFirstOrThrow();
      expect(value.value).toBe('urgent');
      const unknown = await patch({ jobs: [{ uid: a.uid }], customFields: [{ customField: { uid: 'nope' }, value: 'x' }] });
      expect(unknown.json().updated).toBe(0);
      expect(unknown.json().errors[0].args).toEqual({ job: { uid: a.uid } });
    });

    it('refuses input that is wrong for every job with a 400 and changes nothing', async () => {
      const a = (await makeJobs(t, project, { targetLangs: ['de'] })).jobs[0]!;
      const unknownProvider = await patch({ jobs: [{ uid: a.uid }], status: 'CANCELLED', providers: [{ type: 'USER', uid: 'nobody' }] });
      expect([unknownProvider.statusCode, unknownProvider.json().errorCode]).toEqual([400, 'ReferenceNotFound']);
      expect((await patch({ jobs: [{ uid: a.uid }], dateDue: '2027-01-01T00:00:00Z', clearDateDue: true })).statusCode).toBe(400);
      expect((await patch({ jobs: Array.from({ length: 101 }, (_, i) => ({ uid: `j${i}` })), status: 'CANCELLED' })).statusCode).toBe(400);
      expect((await patch({ jobs: [], status: 'CANCELLED' })).statusCode).toBe(400);
      expect((await patch({ jobs: [{ uid: a.uid }], status: 'DONE' })).statusCode).toBe(400);
      expect((await jobRow(a.uid)).status).toBe('NEW');
    });

    it('is refused to linguists', async () => {
      const linguist = apiToken(await loginAs(t, await makeUser(t.database.db, organization, { role: 'LINGUIST' })));
      expect((await patch({ jobs: [{ uid: 'x' }], status: 'CANCELLED' }, linguist)).statusCode).toBe(403);
    });
  });
});
