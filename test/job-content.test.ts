import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHash, pseudoTranslate, splitAtTags } from '../src/domain/pseudo-translation/pseudo-translate.js';
import type { PseudoTranslateSettings } from '../src/domain/pseudo-translation/pseudo-translate.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

describe('pseudo-translation (pure rules)', () => {
  const tags = ['{1>', '<1}', '{2}'];
  const cases: { name: string; text: string; settings: PseudoTranslateSettings; expected: string }[] = [
    { name: 'no settings copies the text', text: 'Hello', settings: {}, expected: 'Hello' },
    { name: 'prefix and suffix', text: 'Hello', settings: { prefix: '[', suffix: ']' }, expected: '[Hello]' },
    { name: 'replacement of letters and digits, punctuation kept', text: 'Hi 2!', settings: { replacement: 'x' }, expected: 'xx x!' },
    { name: 'tags stay in place', text: '{1>Hi<1} you{2}', settings: { replacement: 'x' }, expected: '{1>xx<1} xxx{2}' },
    { name: 'substitution by character', text: 'aea', settings: { substitution: [{ source: 'a', target: 'á' }] }, expected: 'áeá' },
    {
      name: 'substitution wins over replacement',
      text: 'ab',
      settings: { replacement: 'x', substitution: [{ source: 'a', target: 'á' }] },
      expected: 'áx',
    },
    { name: 'length 1.5 pads with ~', text: 'abcd', settings: { length: 1.5 }, expected: 'abcd~~' },
    { name: 'length pads with the replacement', text: 'ab', settings: { length: 2, replacement: 'x' }, expected: 'xxxx' },
    { name: 'length below 1 shortens, tags kept', text: '{1>abcd<1}ef', settings: { length: 0.5 }, expected: '{1>abc<1}' },
    { name: 'key hash before the prefix', text: 'a', settings: { keyHashPrefixLen: 4, prefix: '[' }, expected: `${keyHash('k', 4)}[a` },
  ];
  it.each(cases)('$name', ({ text, settings, expected }) => {
    expect(pseudoTranslate({ text, tagTokens: tags, key: 'k' }, settings)).toBe(expected);
  });

  it('splits at the longest token first and keeps unknown braces as text', () => {
    expect(splitAtTags('a{1>b{x}', ['{1>']).map((p) => [p.tag, p.chars.join('')])).toEqual([
      [false, 'a'],
      [true, '{1>'],
      [false, 'b{x}'],
    ]);
    expect(keyHash('k', 0)).toBe('');
    expect(keyHash('k', 18)).toMatch(/^[0-9a-f]{18}$/);
  });
});

describe('job content over HTTP', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let adminHeaders: Headers;
  let linguist: UserRow;
  let linguistHeaders: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, user: admin, headers: adminHeaders } = await signedInUser(t, 'ADMIN'));
    linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    linguistHeaders = apiToken(await loginAs(t, linguist));
  });
  afterAll(() => t.close());

  const targets = async (jobId: string) =>
    (
      await t.database.db
        .selectFrom('jobSegments')
        .select(['idx', 'target', 'confirmed'])
        .where('jobId', '=', jobId)
        .orderBy('idx')
        .execute()
    ).map((r) => [Number(r.idx), r.target]);

  async function subscribe(events: string[]) {
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v2/webhooks',
      headers: adminHeaders,
      payload: { url: 'https://hooks.example.test/in', events },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  const eventJobs = async (event: string) =>
    (await t.database.db.selectFrom('webhookCalls').select('body').where('event', '=', event).execute()).flatMap((c) =>
      (JSON.parse(c.body) as { jobParts: { uid: string }[] }).jobParts.map((j) => j.uid),
    );

  async function setup(providerUserIds: UserRow['id'][] = []) {
    const project: ProjectRow = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
    const made = await makeJobs(t, project, { segments: ['One.', 'Two.', 'Three.'], providerUserIds });
    return { project, jobs: made.jobs };
  }

  it('copies source to target where there is no translation, keeps translations, emits JOB_TARGET_UPDATED', async () => {
    await subscribe(['JOB_TARGET_UPDATED']);
    const { project, jobs } = await setup();
    const [de, fr] = jobs;
    await t.database.db
      .insertInto('jobSegments')
      .values({ jobId: de!.id, idx: 1, target: 'Zwei.', modifiedAt: t.clock().toISOString(), modifiedById: null })
      .execute();
    const response = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/copySourceToTarget`,
      headers: adminHeaders,
      payload: { jobs: [{ uid: de!.uid }] },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await targets(de!.id)).toEqual([
      [0, 'One.'],
      [1, 'Zwei.'],
      [2, 'Three.'],
    ]);
    expect(await targets(fr!.id)).toEqual([]);
    expect(await eventJobs('JOB_TARGET_UPDATED')).toContain(de!.uid);

    const single = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${fr!.uid}/copySourceToTarget`,
      headers: adminHeaders,
    });
    expect(single.statusCode, single.body).toBe(204);
    expect(await targets(fr!.id)).toHaveLength(3);
  });

  it('refuses jobs still importing (409) or of another project (404), changing nothing', async () => {
    const { project, jobs } = await setup();
    const other = await setup();
    const wrong = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/copySourceToTarget`,
      headers: adminHeaders,
      payload: { jobs: [{ uid: jobs[0]!.uid }, { uid: other.jobs[0]!.uid }] },
    });
    expect(wrong.statusCode).toBe(404);
    expect(await targets(jobs[0]!.id)).toEqual([]);
    await t.database.db
      .updateTable('jobSources')
      .set({ importStatus: 'RUNNING' })
      .where(
        'id',
        '=',
        (await t.database.db.selectFrom('jobs').select('jobSourceId').where('id', '=', jobs[0]!.id).executeTakeFirstOrThrow()).jobSourceId,
      )
      .execute();
    const running = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${jobs[0]!.uid}/copySourceToTarget`,
      headers: adminHeaders,
    });
    expect(running.statusCode).toBe(409);
    expect(running.json().errorCode).toBe('JobImportNotFinished');
  });

  it('lets a linguist copy and delete on their own jobs only, not pseudo-translate', async () => {
    const mine = await setup([linguist.id]);
    const theirs = await setup();
    const own = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${mine.project.uid}/jobs/${mine.jobs[0]!.uid}/copySourceToTarget`,
      headers: linguistHeaders,
    });
    expect(own.statusCode, own.body).toBe(204);
    const foreign = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${theirs.project.uid}/jobs/${theirs.jobs[0]!.uid}/copySourceToTarget`,
      headers: linguistHeaders,
    });
    expect(foreign.statusCode).toBe(404);
    const deleted = await t.inject({
      method: 'DELETE',
      url: `/api2/v1/projects/${mine.project.uid}/jobs/translations`,
      headers: linguistHeaders,
      payload: { jobs: [{ uid: mine.jobs[0]!.uid }] },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await targets(mine.jobs[0]!.id)).toEqual([]);
    const pseudo = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${mine.project.uid}/jobs/${mine.jobs[0]!.uid}/pseudoTranslate`,
      headers: linguistHeaders,
      payload: { prefix: '[' },
    });
    expect(pseudo.statusCode).toBe(403);
  });

  it('deletes specific translations: confirmed only, and forAllJobs with a filter', async () => {
    const { project, jobs } = await setup();
    const [de, fr] = jobs;
    const now = t.clock().toISOString();
    for (const job of [de!, fr!]) {
      await t.database.db
        .insertInto('jobSegments')
        .values([
          { jobId: job.id, idx: 0, target: 'a', confirmed: true, modifiedAt: now, modifiedById: null },
          { jobId: job.id, idx: 1, target: 'b', confirmed: false, modifiedAt: now, modifiedById: null },
        ])
        .execute();
    }
    const url = `/api2/v2/projects/${project.uid}/jobs/translations`;
    const confirmed = await t.inject({
      method: 'DELETE',
      url,
      headers: adminHeaders,
      payload: { jobs: [{ uid: de!.uid }], deleteSettings: { confirmed: true } },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    expect(await targets(de!.id)).toEqual([[1, 'b']]);

    const filtered = await t.inject({
      method: 'DELETE',
      url,
      headers: adminHeaders,
      payload: { forAllJobs: true, workflowLevel: 1, filter: { targetLang: 'fr' } },
    });
    expect(filtered.statusCode, filtered.body).toBe(204);
    expect(await targets(fr!.id)).toEqual([]);
    expect(await targets(de!.id)).toEqual([[1, 'b']]);

    const both = await t.inject({ method: 'DELETE', url, headers: adminHeaders, payload: { forAllJobs: true, jobs: [{ uid: de!.uid }] } });
    expect(both.statusCode).toBe(400);
    const neither = await t.inject({ method: 'DELETE', url, headers: adminHeaders, payload: {} });
    expect(neither.statusCode).toBe(400);
    const locked = await t.inject({
      method: 'DELETE',
      url,
      headers: adminHeaders,
      payload: { jobs: [{ uid: de!.uid }], deleteSettings: { locked: true } },
    });
    expect(locked.statusCode).toBe(204);
    expect(await targets(de!.id)).toEqual([[1, 'b']]);
  });

  it('pseudo-translates one job (v1) and several (v2)', async () => {
    const { project, jobs } = await setup();
    const [de, fr] = jobs;
    const v1 = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${de!.uid}/pseudoTranslate`,
      headers: adminHeaders,
      payload: { prefix: '[', suffix: ']', replacement: 'x' },
    });
    expect(v1.statusCode, v1.body).toBe(204);
    expect(await targets(de!.id)).toEqual([
      [0, '[xxx.]'],
      [1, '[xxx.]'],
      [2, '[xxxxx.]'],
    ]);
    const v2 = await t.inject({
      method: 'POST',
      url: `/api2/v2/projects/${project.uid}/jobs/pseudoTranslate`,
      headers: adminHeaders,
      payload: { jobParts: { jobs: [{ uid: fr!.uid }] }, pseudoTranslate: { substitution: [{ source: 'O', target: 'Ø' }], length: 2 } },
    });
    expect(v2.statusCode, v2.body).toBe(204);
    expect((await targets(fr!.id))[0]).toEqual([0, 'Øne.~~~~']);
    const bad = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${de!.uid}/pseudoTranslate`,
      headers: adminHeaders,
      payload: { keyHashPrefixLen: 19 },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('notifies the assigned users of the listed jobs with the e-mail template', async () => {
    const { project, jobs } = await setup([linguist.id]);
    const template = await t.database.db
      .selectFrom('emailTemplates')
      .select(['id', 'subject'])
      .where('organizationId', '=', organization.id)
      .executeTakeFirstOrThrow();
    const url = `/api2/v1/projects/${project.uid}/jobs/notifyAssigned`;
    const response = await t.inject({
      method: 'POST',
      url,
      headers: adminHeaders,
      payload: { jobs: [{ uid: jobs[0]!.uid }], emailTemplate: { id: template.id }, cc: ['pm@example.test'] },
    });
    expect(response.statusCode, response.body).toBe(204);
    const list = await t.inject({ method: 'GET', url: '/api2/v1/notifications', headers: linguistHeaders });
    expect(
      list
        .json()
        .content.some(
          (n: { title: string; payload: { jobUid: string } }) =>
            n.payload.jobUid === jobs[0]!.uid && n.title === (template.subject || 'You have been assigned a job'),
        ),
    ).toBe(true);
    const unknown = await t.inject({
      method: 'POST',
      url,
      headers: adminHeaders,
      payload: { jobs: [{ uid: jobs[0]!.uid }], emailTemplate: { id: '999999' } },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('reads and replaces the import settings of a job’s file without re-importing', async () => {
    const { project, jobs } = await setup();
    const url = `/api2/v1/projects/${project.uid}/jobs/${jobs[0]!.uid}/importSettings`;
    const before = await t.inject({ method: 'GET', url, headers: adminHeaders });
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().targetLength).toBe(false);
    const put = await t.inject({
      method: 'PUT',
      url,
      headers: adminHeaders,
      payload: { inputCharset: 'UTF-8', txt: { tagRegexp: '\\{[a-z]+\\}' } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().txt.tagRegexp).toBe('\\{[a-z]+\\}');
    const sibling = await t.inject({
      method: 'GET',
      url: `/api2/v1/projects/${project.uid}/jobs/${jobs[1]!.uid}/importSettings`,
      headers: adminHeaders,
    });
    expect(sibling.json().inputCharset).toBe('UTF-8');
    const rule = await t.inject({ method: 'PUT', url, headers: adminHeaders, payload: { segmentationRuleId: 5 } });
    expect(rule.statusCode).toBe(400);
    const linguistPut = await t.inject({ method: 'PUT', url, headers: linguistHeaders, payload: {} });
    expect(linguistPut.statusCode).toBe(403);
  });
});
