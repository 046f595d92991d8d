import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SegmentVersions } from '../src/modules/translation-workflow/job-structure/segment-versions.js';
import {
  changesPerLevel,
  wordDiff,
  workflowChangeRows,
} from '../src/modules/translation-workflow/workflow-changes/workflow-change-rows.js';
import { escapeHtml, workflowChangesHtml } from '../src/modules/translation-workflow/workflow-changes/workflow-changes-html.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

describe('workflow change rows (pure rules)', () => {
  const segment = (index: number, imported: string | null, own: (string | null)[]): SegmentVersions => ({
    index,
    source: `Source ${index}`,
    imported,
    own,
  });

  const cases: { name: string; segment: SegmentVersions; changed: boolean[] | null; texts?: (string | null)[] }[] = [
    {
      name: 'translated at level 1, revised at level 2',
      segment: segment(0, null, ['Hallo Welt', 'Hallo, Welt']),
      changed: [true, true],
      texts: ['Hallo Welt', 'Hallo, Welt'],
    },
    {
      name: 'translated at level 1, untouched later',
      segment: segment(1, null, ['Eins', null, null]),
      changed: [true, false, false],
      texts: ['Eins', 'Eins', 'Eins'],
    },
    { name: 'written again unchanged at level 2', segment: segment(2, null, ['Zwei', 'Zwei']), changed: [true, false] },
    { name: 'the file’s own target kept by every level', segment: segment(3, 'Drei', [null, 'Drei']), changed: null },
    {
      name: 'the file’s own target revised at level 2',
      segment: segment(4, 'Vier', [null, 'Vier!']),
      changed: [false, true],
      texts: ['Vier', 'Vier!'],
    },
    { name: 'nothing translated', segment: segment(5, null, [null, null]), changed: null },
  ];
  it.each(cases)('$name', ({ segment: s, changed, texts }) => {
    const rows = workflowChangeRows([s]);
    if (changed === null) {
      expect(rows).toEqual([]);
      return;
    }
    expect(rows[0]!.cells.map((c) => c.changed)).toEqual(changed);
    if (texts) expect(rows[0]!.cells.map((c) => c.text)).toEqual(texts);
  });

  it('counts the segments each level changed', () => {
    const rows = workflowChangeRows([segment(0, null, ['A', 'B']), segment(1, null, ['C', null]), segment(2, null, [null, 'D'])]);
    expect(changesPerLevel(rows, 2)).toEqual([2, 2]);
  });

  const diffs: { before: string; after: string; expected: [string, string][] }[] = [
    {
      before: 'Hallo Welt',
      after: 'Hallo, Welt',
      expected: [
        ['same', 'Hallo'],
        ['added', ','],
        ['same', ' Welt'],
      ],
    },
    {
      before: 'the red car',
      after: 'the blue car',
      expected: [
        ['same', 'the '],
        ['removed', 'red'],
        ['added', 'blue'],
        ['same', ' car'],
      ],
    },
    { before: '', after: 'Neu', expected: [['added', 'Neu']] },
    { before: 'Alt', after: '', expected: [['removed', 'Alt']] },
    { before: 'same', after: 'same', expected: [['same', 'same']] },
  ];
  it.each(diffs)('diffs "$before" → "$after" by words', ({ before, after, expected }) => {
    expect(wordDiff(before, after).map((p) => [p.kind, p.text])).toEqual(expected);
  });

  it('renders an HTML page with the changes marked and every text escaped', () => {
    const rows = workflowChangeRows([segment(0, null, ['<b>A</b>', '<b>A</b> & B'])]);
    const html = workflowChangesHtml(
      [
        {
          uid: 'j1',
          projectName: 'P <1>',
          filename: 'f.txt',
          sourceLang: 'en',
          targetLang: 'de',
          firstSegment: 1,
          lastSegment: 3,
          levels: [
            { level: 1, stepName: 'Translation' },
            { level: 2, stepName: 'Revision' },
          ],
          rows,
        },
      ],
      '2026-01-01T00:00:00.000Z',
    );
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('P &lt;1&gt;');
    expect(html).toContain('<ins>&lt;b&gt;A&lt;/b&gt;</ins>');
    expect(html).toContain('&lt;b&gt;A&lt;/b&gt;<ins> &amp; B</ins>');
    expect(html).toContain('<li>2. Revision: 1 segment changed</li>');
    expect(html).not.toContain('<b>');
    expect(escapeHtml(`"'`)).toBe('&quot;&#39;');
  });
});

describe('downloadWorkflowChanges over HTTP', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let adminHeaders: Headers;
  let stepUids: string[];
  const url = '/api2/v2/jobs/workflowChanges';

  beforeAll(async () => {
    t = await createTestApp();
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

  async function translate(jobUid: string, idx: number, target: string) {
    const job = await t.database.db.selectFrom('jobs').select('id').where('uid', '=', jobUid).executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('jobSegments')
      .values({ jobId: job.id, idx, target, confirmed: true, modifiedAt: t.clock().toISOString(), modifiedById: admin.id })
      .execute();
  }

  it('downloads an HTML report of what each workflow step changed', async () => {
    const project = await makeProject(t, organization.id, {
      createdById: admin.id,
      targetLangs: ['de'],
      workflowStepUids: stepUids.slice(0, 2),
      name: 'Report project',
    });
    const { jobs } = await makeJobs(t, project, { segments: ['Hello world.', 'Second line.', 'Third line.'], filename: 'greetings.txt' });
    const [level1, level2] = [jobs.find((j) => j.workflowLevel === 1)!, jobs.find((j) => j.workflowLevel === 2)!];
    await translate(level1.uid, 0, 'Hallo Welt.');
    await translate(level2.uid, 0, 'Hallo, Welt.');
    await translate(level1.uid, 1, 'Zweite Zeile.');

    const response = await t.inject({ method: 'POST', url, headers: adminHeaders, payload: { jobs: [{ uid: level2.uid }] } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-disposition']).toMatch(/attachment/);
    const html = response.body;
    expect(html).toContain('greetings.txt');
    expect(html).toContain('Report project');
    expect(html).toContain('Hallo<ins>,</ins> Welt.');
    expect(html).toContain('<ins>Zweite Zeile.</ins>');
    expect(html).not.toContain('Third line.');
    expect(html).toMatch(/1 segment changed/);
    expect(html).toMatch(/2 segments changed/);
  });

  it('reports only the part of a split job', async () => {
    const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
    const { jobs } = await makeJobs(t, project, { segments: ['One.', 'Two.', 'Three.', 'Four.'] });
    await translate(jobs[0]!.uid, 0, 'Eins.');
    await translate(jobs[0]!.uid, 3, 'Vier.');
    const split = await t.inject({
      method: 'POST',
      url: `/api2/v1/projects/${project.uid}/jobs/${jobs[0]!.uid}/split`,
      headers: adminHeaders,
      payload: { partCount: 2 },
    });
    expect(split.statusCode, split.body).toBe(200);
    const second = split.json().jobs[1].uid as string;
    const response = await t.inject({ method: 'POST', url, headers: adminHeaders, payload: { jobs: [{ uid: second }] } });
    expect(response.body).toContain('Vier.');
    expect(response.body).not.toContain('Eins.');
    expect(response.body).toContain('segments 3–4');
  });

  it('is for whoever sees the jobs: a linguist sees their own, not others; another organization gets 404', async () => {
    const linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de'] });
    const own = await makeJobs(t, project, { providerUserIds: [linguist.id] });
    const other = await makeJobs(t, project);
    const headers = apiToken(await loginAs(t, linguist));
    expect((await t.inject({ method: 'POST', url, headers, payload: { jobs: [{ uid: own.jobs[0]!.uid }] } })).statusCode).toBe(200);
    expect((await t.inject({ method: 'POST', url, headers, payload: { jobs: [{ uid: other.jobs[0]!.uid }] } })).statusCode).toBe(404);
    expect(
      (
        await t.inject({
          method: 'POST',
          url,
          headers: (await signedInUser(t, 'ADMIN')).headers,
          payload: { jobs: [{ uid: own.jobs[0]!.uid }] },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.inject({ method: 'POST', url, headers: adminHeaders, payload: { jobs: [] } })).statusCode).toBe(400);
  });
});
