import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

describe('file handovers over HTTP', () => {
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

  async function setup(fileHandover = true) {
    const project = await makeProject(t, organization.id, { createdById: admin.id, targetLangs: ['de', 'fr'] });
    await t.database.db.updateTable('projects').set({ fileHandover }).where('id', '=', project.id).execute();
    const { jobs } = await makeJobs(t, project, { providerUserIds: [linguist.id] });
    return { project, jobs };
  }

  const upload = (projectUid: string, jobUids: string[], name: string, content: string, headers: Headers) =>
    t.inject({
      method: 'PUT',
      url: `/api2/v1/projects/${projectUid}/fileHandovers`,
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
        memsource: JSON.stringify({ jobs: jobUids.map((uid) => ({ uid })) }),
      },
      payload: Buffer.from(content),
    });

  it('a provider uploads a handover file; managers download one file or a ZIP; a new upload replaces', async () => {
    const { project, jobs } = await setup();
    const [de, fr] = jobs;
    const first = await upload(project.uid, [de!.uid], '../notes.txt', 'queries for de', linguistHeaders);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ filename: 'notes.txt' });
    const url = `/api2/v1/projects/${project.uid}/fileHandovers`;
    const one = await t.inject({ method: 'GET', url: `${url}?jobUid=${de!.uid}`, headers: adminHeaders });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.body).toBe('queries for de');

    expect((await upload(project.uid, [fr!.uid], 'fr.txt', 'fr', adminHeaders)).statusCode).toBe(200);
    const zip = await t.inject({ method: 'GET', url: `${url}?jobUid=${de!.uid}&jobUid=${fr!.uid}`, headers: adminHeaders });
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');

    const oldSha = (
      await t.database.db.selectFrom('jobHandoverFiles').select('sha256').where('jobId', '=', de!.id).executeTakeFirstOrThrow()
    ).sha256;
    expect((await upload(project.uid, [de!.uid], 'notes2.txt', 'replaced', linguistHeaders)).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: `${url}?jobUid=${de!.uid}`, headers: adminHeaders })).body).toBe('replaced');
    expect(await t.deps.blobs.has(oldSha)).toBe(false);
  });

  it('refuses uploads while fileHandover is off, and split jobs; 404 when nothing matched', async () => {
    const off = await setup(false);
    const refused = await upload(off.project.uid, [off.jobs[0]!.uid], 'a.txt', 'a', adminHeaders);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorCode).toBe('FileHandoverDisabled');
    expect(await t.database.db.selectFrom('jobHandoverFiles').select('jobId').where('jobId', '=', off.jobs[0]!.id).execute()).toEqual([]);

    const { project, jobs } = await setup();
    await t.database.db.updateTable('jobs').set({ beginIndex: 0, endIndex: 0 }).where('id', '=', jobs[1]!.id).execute();
    expect((await upload(project.uid, [jobs[1]!.uid], 'a.txt', 'a', adminHeaders)).statusCode).toBe(400);
    const none = await t.inject({
      method: 'GET',
      url: `/api2/v1/projects/${project.uid}/fileHandovers?jobUid=${jobs[0]!.uid}`,
      headers: adminHeaders,
    });
    expect(none.statusCode).toBe(404);
  });

  it('managers delete handover files and the stored file goes; linguists may not delete', async () => {
    const { project, jobs } = await setup();
    expect((await upload(project.uid, [jobs[0]!.uid], 'x.txt', 'to be deleted', linguistHeaders)).statusCode).toBe(200);
    const sha = (
      await t.database.db.selectFrom('jobHandoverFiles').select('sha256').where('jobId', '=', jobs[0]!.id).executeTakeFirstOrThrow()
    ).sha256;
    const url = `/api2/v1/projects/${project.uid}/fileHandovers`;
    expect(
      (await t.inject({ method: 'DELETE', url, headers: linguistHeaders, payload: { jobs: [{ uid: jobs[0]!.uid }] } })).statusCode,
    ).toBe(403);
    const deleted = await t.inject({ method: 'DELETE', url, headers: adminHeaders, payload: { jobs: [{ uid: jobs[0]!.uid }] } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await t.deps.blobs.has(sha)).toBe(false);
    expect((await t.inject({ method: 'DELETE', url, headers: adminHeaders, payload: { jobs: [{ uid: jobs[0]!.uid }] } })).statusCode).toBe(
      404,
    );
  });

  it('lets a handover file go with its job: deleting the job or purging the project removes the stored file', async () => {
    const first = await setup();
    expect((await upload(first.project.uid, [first.jobs[0]!.uid], 'a.txt', 'handover of a deleted job', linguistHeaders)).statusCode).toBe(
      200,
    );
    const sha = (
      await t.database.db.selectFrom('jobHandoverFiles').select('sha256').where('jobId', '=', first.jobs[0]!.id).executeTakeFirstOrThrow()
    ).sha256;
    const removed = await t.inject({
      method: 'DELETE',
      url: `/api2/v1/projects/${first.project.uid}/jobs/batch`,
      headers: adminHeaders,
      payload: { jobs: [{ uid: first.jobs[0]!.uid }] },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await t.deps.blobs.has(sha)).toBe(false);

    const second = await setup();
    expect(
      (await upload(second.project.uid, [second.jobs[0]!.uid], 'b.txt', 'handover of a purged project', linguistHeaders)).statusCode,
    ).toBe(200);
    const purgedSha = (
      await t.database.db.selectFrom('jobHandoverFiles').select('sha256').where('jobId', '=', second.jobs[0]!.id).executeTakeFirstOrThrow()
    ).sha256;
    expect(
      (await t.inject({ method: 'DELETE', url: `/api2/v1/projects/${second.project.uid}?purge=true`, headers: adminHeaders })).statusCode,
    ).toBe(204);
    expect(await t.deps.blobs.has(purgedSha)).toBe(false);
  });
});
