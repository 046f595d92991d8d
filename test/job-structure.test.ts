import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitRanges } from '../src/modules/translation-workflow/job-structure/split-plan.js';
import type { SplitRequest } from '../src/modules/translation-workflow/job-structure/split-plan.js';
import { compareState } from '../src/modules/translation-workflow/job-structure/level-compare.js';
import { effectiveTexts } from '../src/modules/translation-workflow/job-structure/segment-versions.js';
import type { SegmentVersions } from '../src/modules/translation-workflow/job-structure/segment-versions.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

describe('split ranges (pure rules)', () => {
  const range = { first: 10, last: 19 };
  const cases: { name: string; request: SplitRequest; words?: number[]; expected: [number, number][] }[] = [
    {
      name: 'after segment ordinals (1-based in the job), sorted and deduplicated',
      request: { segmentOrdinals: [7, 3, 3] },
      expected: [
        [10, 12],
        [13, 16],
        [17, 19],
      ],
    },
    {
      name: 'into equal parts',
      request: { partCount: 2 },
      expected: [
        [10, 14],
        [15, 19],
      ],
    },
    {
      name: 'into parts, the first ones longer by the remainder',
      request: { partCount: 3 },
      expected: [
        [10, 13],
        [14, 16],
        [17, 19],
      ],
    },
    {
      name: 'into as many parts as segments',
      request: { partCount: 10 },
      expected: Array.from({ length: 10 }, (_, i) => [10 + i, 10 + i] as [number, number]),
    },
    {
      name: 'parts of a size, the last holding the rest',
      request: { partSize: 4 },
      expected: [
        [10, 13],
        [14, 17],
        [18, 19],
      ],
    },
    {
      name: 'by words: a part closes once it reaches the count',
      request: { wordCount: 5 },
      words: [2, 2, 2, 9, 1, 1, 1, 1, 1, 1],
      expected: [
        [10, 12],
        [13, 13],
        [14, 18],
        [19, 19],
      ],
    },
    {
      name: 'null options are absent',
      request: { partCount: 2, partSize: null, byDocumentPart: false },
      expected: [
        [10, 14],
        [15, 19],
      ],
    },
  ];
  it.each(cases)('$name', ({ request, words, expected }) => {
    expect(splitRanges(range, request, words).map((p) => [p.first, p.last])).toEqual(expected);
  });

  const refusals: { name: string; request: SplitRequest; words?: number[]; message: RegExp }[] = [
    { name: 'no option', request: {}, message: /exactly one/ },
    { name: 'two options', request: { partCount: 2, partSize: 3 }, message: /exactly one/ },
    { name: 'an ordinal at the last segment', request: { segmentOrdinals: [10] }, message: /between 1 and 9/ },
    { name: 'an ordinal of 0', request: { segmentOrdinals: [0] }, message: /between 1 and 9/ },
    { name: 'more parts than segments', request: { partCount: 11 }, message: /cannot be split into 11/ },
    { name: 'one part', request: { partCount: 1 }, message: /one part/ },
    { name: 'a part size as large as the job', request: { partSize: 10 }, message: /one part/ },
    { name: 'more words than the job has', request: { wordCount: 100 }, words: new Array<number>(10).fill(1), message: /one part/ },
    { name: 'by document part', request: { byDocumentPart: true }, message: /PowerPoint/ },
  ];
  it.each(refusals)('refuses $name', ({ request, words, message }) => {
    expect(() => splitRanges(range, request, words)).toThrow(message);
  });

  it('refuses to split a single segment', () => {
    expect(() => splitRanges({ first: 3, last: 3 }, { partCount: 2 })).toThrow(/single segment/);
  });
});

describe('texts per workflow level (pure rules)', () => {
  const segment = (imported: string | null, own: (string | null)[]): SegmentVersions => ({ index: 0, source: 'Hello', imported, own });
  it('a level without its own translation shows what it received', () => {
    expect(effectiveTexts(segment(null, ['A', null, 'C']))).toEqual(['A', 'A', 'C']);
    expect(effectiveTexts(segment('X', [null, 'B']))).toEqual(['X', 'B']);
    expect(effectiveTexts(segment(null, [null, null]))).toEqual([null, null]);
  });

  const cases: { name: string; own: (string | null)[]; at: number; with: number; expected: 'Miss' | 'Diff' | null }[] = [
    { name: 'changed by level 2', own: ['A', 'B'], at: 1, with: 2, expected: 'Diff' },
    { name: 'untouched by level 2', own: ['A', null], at: 1, with: 2, expected: null },
    { name: 'written again unchanged', own: ['A', 'A'], at: 1, with: 2, expected: null },
    { name: 'only level 2 translated', own: [null, 'B'], at: 1, with: 2, expected: 'Miss' },
    { name: 'nothing at either level', own: [null, null], at: 1, with: 2, expected: null },
    { name: 'a level with itself', own: ['A', 'B'], at: 2, with: 2, expected: null },
    { name: 'the other way round', own: ['A', 'B'], at: 2, with: 1, expected: 'Diff' },
    { name: 'an empty translation counts as none', own: ['', 'B'], at: 1, with: 2, expected: 'Miss' },
  ];
  it.each(cases)('compare: $name', ({ own, at, with: withLevel, expected }) => {
    expect(compareState(segment(null, own), at, withLevel)).toBe(expected);
  });
});

describe('job structure over HTTP', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let adminHeaders: Headers;
  let stepUids: string[];

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_PROJECT_JOB_LIMIT: '20' } });
    ({ organization, user: admin, headers: adminHeaders } = await signedInUser(t, 'ADMIN'));
    const steps = await t.database.db
      .selectFrom('workflowSteps')
      .select('uid')
      .where('organizationId', '=', organization.id)
      .orderBy('orderIndex')
      .execute();
    stepUids = steps.map((s) => s.uid);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const jobRow = (uid: string) => db().selectFrom('jobs').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
  async function translate(jobUid: string, idx: number, target: string) {
    const job = await jobRow(jobUid);
    await db()
      .insertInto('jobSegments')
      .values({ jobId: job.id, idx, target, confirmed: false, modifiedAt: t.clock().toISOString(), modifiedById: admin.id })
      .execute();
  }
  async function twoStepProject(targetLangs = ['de']) {
    return makeProject(t, organization.id, { createdById: admin.id, targetLangs, workflowStepUids: stepUids.slice(0, 2) });
  }
  const SIX = ['One.', 'Two.', 'Three.', 'Four.', 'Five.', 'Six.'];

  describe('listProviders_3: suggested providers for a project', () => {
    async function linguistWith(locales: Record<string, unknown>) {
      const user = await makeUser(db(), organization, { role: 'LINGUIST' });
      await db()
        .updateTable('users')
        .set({ roleSettings: JSON.stringify(parseRoleSettings('LINGUIST', JSON.stringify({ locales }))) })
        .where('id', '=', user.id)
        .execute();
      return user;
    }
    const relevantUids = (body: { providers: { relevant: { uid: string }[] } }) => body.providers.relevant.map((p) => p.uid);

    it('scores the providers against all the project’s jobs, or the jobs the body names; limit caps relevant', async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
      const { jobs } = await makeJobs(t, project);
      const german = await linguistWith({ targetLocales: ['de'] });
      const both = await linguistWith({ targetLocales: ['de', 'fr'] });
      const url = `/api2/v2/projects/${project.uid}/providers/suggest`;

      const all = await t.inject({ method: 'POST', url, headers: adminHeaders });
      expect(all.statusCode, all.body).toBe(200);
      expect(relevantUids(all.json())).toContain(both.uid);
      expect(relevantUids(all.json())).not.toContain(german.uid);
      expect(relevantUids(all.json())[0]).toBe(both.uid);
      expect((all.json().providers.all as { uid: string }[]).map((p) => p.uid)).toContain(german.uid);

      const de = jobs.find((j) => j.targetLang === 'de')!;
      const named = await t.inject({ method: 'POST', url, headers: adminHeaders, payload: { jobs: [{ uid: de.uid }] } });
      expect(named.statusCode, named.body).toBe(200);
      expect(relevantUids(named.json())).toContain(german.uid);

      const limited = await t.inject({ method: 'POST', url: `${url}?limit=1`, headers: adminHeaders });
      expect(limited.json().providers.relevant).toHaveLength(1);
      const limitedInBody = await t.inject({ method: 'POST', url, headers: adminHeaders, payload: { limit: 1 } });
      expect(limitedInBody.json().providers.relevant).toHaveLength(1);

      const missing = await t.inject({ method: 'POST', url, headers: adminHeaders, payload: { jobs: [{ uid: 'no-such-job' }] } });
      expect(missing.statusCode).toBe(404);
    });

    it('scores a project without jobs on the jobs it would get', async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['fr'] });
      const french = await linguistWith({ targetLocales: ['fr'] });
      const italian = await linguistWith({ targetLocales: ['it'] });
      const response = await t.inject({ method: 'POST', url: `/api2/v2/projects/${project.uid}/providers/suggest`, headers: adminHeaders });
      expect(response.statusCode, response.body).toBe(200);
      expect(relevantUids(response.json())).toContain(french.uid);
      expect(relevantUids(response.json())).not.toContain(italian.uid);
    });

    it('is for managers who may edit the project; another organization does not see it', async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id });
      const url = `/api2/v2/projects/${project.uid}/providers/suggest`;
      const linguist = apiToken(await loginAs(t, await makeUser(db(), organization, { role: 'LINGUIST' })));
      expect((await t.inject({ method: 'POST', url, headers: linguist })).statusCode).toBe(403);
      expect((await t.inject({ method: 'POST', url, headers: (await signedInUser(t, 'ADMIN')).headers })).statusCode).toBe(404);
    });
  });

  describe('split', () => {
    const splitUrl = (project: ProjectRow, jobUid: string) => `/api2/v1/projects/${project.uid}/jobs/${jobUid}/split`;

    it('splits the job and its other workflow levels; parts keep status, providers and translations', async () => {
      const project = await twoStepProject();
      const provider = await makeUser(db(), organization, { role: 'LINGUIST' });
      const { jobs } = await makeJobs(t, project, { segments: SIX, providerUserIds: [provider.id] });
      const [level1, level2] = [jobs.find((j) => j.workflowLevel === 1)!, jobs.find((j) => j.workflowLevel === 2)!];
      await translate(level1.uid, 1, 'Zwei.');
      await translate(level1.uid, 4, 'Fünf.');
      await db().updateTable('jobs').set({ status: 'ACCEPTED' }).where('uid', '=', level1.uid).execute();

      const response = await t.inject({
        method: 'POST',
        url: splitUrl(project, level1.uid),
        headers: adminHeaders,
        payload: { partCount: 2 },
      });
      expect(response.statusCode, response.body).toBe(200);
      const parts = response.json().jobs as { uid: string; status: string; workflowLevel: number; providers: { uid: string }[] }[];
      expect(parts).toHaveLength(2);
      expect(parts[0]!.uid).toBe(level1.uid);
      expect(parts.map((p) => [p.status, p.workflowLevel, p.providers.map((u) => u.uid)])).toEqual([
        ['ACCEPTED', 1, [provider.uid]],
        ['ACCEPTED', 1, [provider.uid]],
      ]);

      const rows = await db()
        .selectFrom('jobs')
        .selectAll()
        .where('projectId', '=', project.id)
        .orderBy('workflowLevel')
        .orderBy('beginIndex')
        .execute();
      expect(rows.map((r) => [Number(r.workflowLevel), r.beginIndex, r.endIndex])).toEqual([
        [1, 0, 2],
        [1, 3, 5],
        [2, 0, 2],
        [2, 3, 5],
      ]);
      expect(rows.find((r) => Number(r.workflowLevel) === 2 && r.beginIndex === 0)!.uid).toBe(level2.uid);

      const second = parts[1]!.uid;
      const detail = await t.inject({ url: `/api2/v1/projects/${project.uid}/jobs/${second}`, headers: adminHeaders });
      expect(detail.json()).toMatchObject({ beginIndex: 3, endIndex: 5, status: 'ACCEPTED', isParentJobSplit: true });
      const segments = await t.inject({
        url: `/api2/v1/projects/${project.uid}/jobs/${second}/segments?beginIndex=0&endIndex=10`,
        headers: adminHeaders,
      });
      expect((segments.json().segments as { index: number; translation: string | null }[]).map((s) => [s.index, s.translation])).toEqual([
        [3, null],
        [4, 'Fünf.'],
        [5, null],
      ]);
      const first = await t.inject({
        url: `/api2/v1/projects/${project.uid}/jobs/${level1.uid}/segments?beginIndex=0&endIndex=10`,
        headers: adminHeaders,
      });
      expect((first.json().segments as { translation: string | null }[]).map((s) => s.translation)).toEqual([null, 'Zwei.', null]);
      const listed = await t.inject({ url: `/api2/v2/projects/${project.uid}/jobs`, headers: adminHeaders });
      expect((listed.json().content as { split: boolean }[]).map((j) => j.split)).toEqual([true, true]);
      const history = await t.inject({ url: `/api2/v1/projects/${project.uid}/jobs/${second}/statusChanges`, headers: adminHeaders });
      expect(history.statusCode).toBe(200);
    });

    it('splits a part again, after chosen segments, and by word count', async () => {
      const project = await twoStepProject();
      const { jobs } = await makeJobs(t, project, { segments: SIX });
      const level1 = jobs.find((j) => j.workflowLevel === 1)!;
      const byOrdinals = await t.inject({
        method: 'POST',
        url: splitUrl(project, level1.uid),
        headers: adminHeaders,
        payload: { segmentOrdinals: [4] },
      });
      expect(byOrdinals.statusCode, byOrdinals.body).toBe(200);
      const again = await t.inject({
        method: 'POST',
        url: splitUrl(project, byOrdinals.json().jobs[1].uid),
        headers: adminHeaders,
        payload: { wordCount: 1 },
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().jobs).toHaveLength(2);
      const rows = await db()
        .selectFrom('jobs')
        .select(['workflowLevel', 'beginIndex', 'endIndex'])
        .where('projectId', '=', project.id)
        .where('workflowLevel', '=', 2)
        .orderBy('beginIndex')
        .execute();
      expect(rows.map((r) => [r.beginIndex, r.endIndex])).toEqual([
        [0, 3],
        [4, 4],
        [5, 5],
      ]);
    });

    it('refuses bad requests and changes nothing', async () => {
      const project = await twoStepProject();
      const { jobs } = await makeJobs(t, project, { segments: SIX });
      const url = splitUrl(project, jobs[0]!.uid);
      for (const payload of [
        {},
        { partCount: 2, partSize: 2 },
        { partCount: 7 },
        { segmentOrdinals: [6] },
        { byDocumentPart: true },
        { partSize: 0 },
      ]) {
        const response = await t.inject({ method: 'POST', url, headers: adminHeaders, payload });
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      }
      const rows = await db().selectFrom('jobs').select(['beginIndex']).where('projectId', '=', project.id).execute();
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.beginIndex === null)).toBe(true);
    });

    it('refuses a file not imported yet, and a split past the project’s job limit', async () => {
      const project = await twoStepProject();
      const { jobs, sourceId } = await makeJobs(t, project, { segments: SIX });
      await db().updateTable('jobSources').set({ importStatus: 'RUNNING' }).where('id', '=', sourceId).execute();
      const running = await t.inject({
        method: 'POST',
        url: splitUrl(project, jobs[0]!.uid),
        headers: adminHeaders,
        payload: { partCount: 2 },
      });
      expect(running.statusCode).toBe(400);
      expect(running.json().errorCode).toBe('JobNotImported');
      const wide = await twoStepProject(['de', 'fr']);
      const four = await makeJobs(t, wide, { segments: [...SIX, ...SIX] });
      // 4 jobs; the 2 of the addressed language (both levels) cut into 10 parts add 18: 22, past the limit of 20.
      const past = await t.inject({
        method: 'POST',
        url: splitUrl(wide, four.jobs[0]!.uid),
        headers: adminHeaders,
        payload: { partCount: 10 },
      });
      expect(past.statusCode).toBe(400);
      expect(past.json().errorCode).toBe('JobLimitExceeded');
      // Into 3 parts: 4 + 2 × 2 = 8 jobs fit.
      const fits = await t.inject({
        method: 'POST',
        url: splitUrl(wide, four.jobs[0]!.uid),
        headers: adminHeaders,
        payload: { partCount: 3 },
      });
      expect(fits.statusCode, fits.body).toBe(200);
    });

    it('announces the new parts (JOB_CREATED) and the narrowed jobs (JOB_UPDATED)', async () => {
      const hook = await t.inject({
        method: 'POST',
        url: '/api2/v2/webhooks',
        headers: adminHeaders,
        payload: { url: 'https://hooks.example.test/split', events: ['JOB_CREATED', 'JOB_UPDATED'] },
      });
      expect(hook.statusCode, hook.body).toBe(201);
      const project = await twoStepProject();
      const { jobs } = await makeJobs(t, project, { segments: SIX });
      const response = await t.inject({
        method: 'POST',
        url: splitUrl(project, jobs[0]!.uid),
        headers: adminHeaders,
        payload: { partSize: 3 },
      });
      expect(response.statusCode).toBe(200);
      const calls = await db().selectFrom('webhookCalls').select(['event', 'body']).execute();
      const records = (event: string) =>
        calls
          .filter((c) => c.event === event)
          .flatMap((c) => (JSON.parse(c.body) as { jobParts: { uid: string }[] }).jobParts.map((j) => j.uid));
      expect(records('JOB_UPDATED')).toEqual(expect.arrayContaining(jobs.map((j) => j.uid)));
      expect(records('JOB_CREATED')).toContain(response.json().jobs[1].uid);
    });

    it('makes clone’s keepSplit meaningful: a clone of a part keeps its segments, or spans the file without it', async () => {
      const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
      const { jobs } = await makeJobs(t, project, { segments: SIX, targetLangs: ['de'] });
      const split = await t.inject({
        method: 'POST',
        url: splitUrl(project, jobs[0]!.uid),
        headers: adminHeaders,
        payload: { partCount: 2 },
      });
      const second = split.json().jobs[1].uid as string;
      const clone = async (keepSplit: boolean) => {
        const response = await t.inject({
          method: 'POST',
          url: `/api2/v1/projects/${project.uid}/jobs/clone`,
          headers: adminHeaders,
          payload: { jobPartTargetLangs: [{ uid: second, targetLangs: ['fr'] }], keepSplit },
        });
        expect(response.statusCode, response.body).toBe(201);
        return jobRow(response.json().jobs[0].uid as string);
      };
      expect(await clone(true)).toMatchObject({ beginIndex: 3, endIndex: 5 });
      expect(await clone(false)).toMatchObject({ beginIndex: null, endIndex: null });
    });

    it('needs edit rights: a linguist provider is refused, another organization does not see the job', async () => {
      const project = await twoStepProject();
      const linguist = await makeUser(db(), organization, { role: 'LINGUIST' });
      const { jobs } = await makeJobs(t, project, { segments: SIX, providerUserIds: [linguist.id] });
      const url = splitUrl(project, jobs[0]!.uid);
      expect(
        (await t.inject({ method: 'POST', url, headers: apiToken(await loginAs(t, linguist)), payload: { partCount: 2 } })).statusCode,
      ).toBe(403);
      expect(
        (await t.inject({ method: 'POST', url, headers: (await signedInUser(t, 'ADMIN')).headers, payload: { partCount: 2 } })).statusCode,
      ).toBe(404);
    });
  });

  describe('comparePart', () => {
    const compareUrl = (project: ProjectRow, query = '') => `/api2/v1/projects/${project.uid}/jobs/compare${query}`;

    it('lists the segments whose text differs between two levels', async () => {
      const project = await twoStepProject(['de', 'fr']);
      const { jobs, sourceUid } = await makeJobs(t, project, { segments: SIX });
      const de1 = jobs.find((j) => j.targetLang === 'de' && j.workflowLevel === 1)!;
      const de2 = jobs.find((j) => j.targetLang === 'de' && j.workflowLevel === 2)!;
      const fr1 = jobs.find((j) => j.targetLang === 'fr' && j.workflowLevel === 1)!;
      await translate(de1.uid, 0, 'Eins.');
      await translate(de2.uid, 0, 'Eins!');
      await translate(de1.uid, 1, 'Zwei.');
      await translate(de2.uid, 2, 'Drei.');
      await translate(de1.uid, 3, 'Vier.');
      await translate(de2.uid, 3, 'Vier.');
      await translate(fr1.uid, 0, 'Un.');

      const response = await t.inject({
        method: 'POST',
        url: compareUrl(project, '?atWorkflowLevel=1&withWorkflowLevel=2'),
        headers: adminHeaders,
        payload: { jobs: [{ uid: de1.uid }, { uid: fr1.uid }] },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().segments).toEqual([
        { uid: `${sourceUid}:0`, state: 'Diff', jobUid: de1.uid, index: 0 },
        { uid: `${sourceUid}:2`, state: 'Miss', jobUid: de1.uid, index: 2 },
      ]);
      const same = await t.inject({
        method: 'POST',
        url: compareUrl(project),
        headers: adminHeaders,
        payload: { jobs: [{ uid: de1.uid }] },
      });
      expect(same.json().segments).toEqual([]);

      await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${project.uid}/jobs/${de2.uid}/split`,
        headers: adminHeaders,
        payload: { segmentOrdinals: [2] },
      });
      const afterSplit = await t.inject({
        method: 'POST',
        url: compareUrl(project, '?atWorkflowLevel=2&withWorkflowLevel=1'),
        headers: adminHeaders,
        payload: { jobs: [{ uid: de2.uid }] },
      });
      expect(afterSplit.json().segments).toEqual([{ uid: `${sourceUid}:0`, state: 'Diff', jobUid: de2.uid, index: 0 }]);
    });

    it('refuses levels the project does not have, and jobs the caller cannot see', async () => {
      const project = await twoStepProject();
      const { jobs } = await makeJobs(t, project, { segments: SIX });
      const payload = { jobs: [{ uid: jobs[0]!.uid }] };
      expect(
        (await t.inject({ method: 'POST', url: compareUrl(project, '?withWorkflowLevel=3'), headers: adminHeaders, payload })).statusCode,
      ).toBe(400);
      expect(
        (await t.inject({ method: 'POST', url: compareUrl(project), headers: adminHeaders, payload: { jobs: [{ uid: 'nope' }] } }))
          .statusCode,
      ).toBe(404);
      const linguist = apiToken(await loginAs(t, await makeUser(db(), organization, { role: 'LINGUIST' })));
      expect((await t.inject({ method: 'POST', url: compareUrl(project), headers: linguist, payload })).statusCode).toBe(404);
    });
  });
});
