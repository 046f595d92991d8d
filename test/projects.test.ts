import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { startWorker } from '../src/queue/worker.js';
import { buildTaskRegistry } from '../src/task-handlers.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/** Issue 6, projects: create, views by role, list filters, edit, status, delete / restore, clone, settings, templates. */

describe('projects', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let other: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    other = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  const call = (method: Method, url: string, headers: Headers, payload?: unknown) => apiCaller(t, '/api2/')(method, url, headers, payload);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200) {
    const response = await call(method, url, headers, payload);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  const create = (payload: Record<string, unknown>, headers = home.headers) =>
    ok('POST', 'v3/projects', headers, { sourceLang: 'en', targetLangs: ['de'], ...payload }, 201);
  const setupRecord = async (kind: string, headers = home.headers) => ok('POST', `v1/${kind}`, headers, { name: uniqueName(kind) }, 201);
  const steps = async (organizationId: string | number) =>
    t.database.db
      .selectFrom('workflowSteps')
      .select(['id', 'uid', 'name'])
      .where('organizationId', '=', String(organizationId))
      .orderBy('orderIndex')
      .execute();
  const events = async () => (await t.database.db.selectFrom('webhookCalls').select('event').execute()).map((r) => r.event as string);

  async function userHeaders(role: 'PROJECT_MANAGER' | 'LINGUIST' | 'SUBMITTER' | 'GUEST', organization = home.organization) {
    const user = await makeUser(t.database.db, organization, { role });
    return { user, headers: apiToken(await loginAs(t, user)) };
  }

  it('creates a project v3 with every field, by uid or numeric id, and reads it back', async () => {
    const client = await setupRecord('clients');
    const domain = await setupRecord('domains');
    const subDomain = await setupRecord('subDomains');
    const costCenter = await setupRecord('costCenters');
    const businessUnit = await setupRecord('businessUnits');
    const [translation, revision] = await steps(home.organization.id);
    const body = {
      name: 'Website',
      sourceLang: 'EN',
      targetLangs: ['de', 'FR-fr'],
      client: { id: client.id },
      domain: { id: domain.uid },
      subDomain: { id: subDomain.id },
      costCenter: { id: costCenter.uid },
      businessUnit: { id: businessUnit.id },
      workflowSteps: [{ id: revision!.uid }, { id: translation!.id }],
      purchaseOrder: 'PO-1',
      dateDue: '2027-01-01T10:00:00Z',
      note: 'A note',
      fileHandover: true,
      propagateTranslationsToLowerWfDuringUpdateSource: true,
    };
    const created = await create(body);
    expect(created).toMatchObject({
      name: 'Website',
      userRole: 'ADMIN',
      sourceLang: 'en',
      targetLangs: ['de', 'fr_fr'],
      client: { uid: client.uid, name: client.name },
      domain: { uid: domain.uid },
      subDomain: { uid: subDomain.uid },
      costCenter: { uid: costCenter.uid },
      businessUnit: { uid: businessUnit.uid },
      purchaseOrder: 'PO-1',
      dateDue: '2027-01-01T10:00:00.000Z',
      note: 'A note',
      status: 'NEW',
      owner: { uid: home.user.uid },
      createdBy: { uid: home.user.uid },
      progress: { totalCount: 0, finishedCount: 0, overdueCount: 0 },
      projectWorkflowSettings: { propagateTranslationsToLowerWfDuringUpdateSource: true },
    });
    // Levels follow the organization's workflow order, whatever order the body gives.
    expect(
      created.workflowSteps.map((s: { workflowStep: { uid: string }; workflowLevel: number }) => [s.workflowStep.uid, s.workflowLevel]),
    ).toEqual([
      [translation!.uid, 1],
      [revision!.uid, 2],
    ]);
    const got = await ok('GET', `v1/projects/${created.uid}`, home.headers);
    expect(got).toMatchObject({ uid: created.uid, internalId: created.internalId, archived: false, userRole: 'ADMIN' });
    expect(typeof got.workflowSteps[0].id).toBe('number');
    const stepsV2 = await ok('GET', `v2/projects/${created.uid}/workflowSteps`, home.headers);
    expect(stepsV2.projectWorkflowSteps.map((s: { id: number }) => s.id)).toEqual(got.workflowSteps.map((s: { id: number }) => s.id));
  });

  it('rejects bad input with 400 and writes nothing', async () => {
    const before = await t.database.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const bad = [
      { name: 'x', sourceLang: 'xx-nope', targetLangs: ['de'] },
      { name: 'x', sourceLang: 'en', targetLangs: [] },
      { name: 'x', sourceLang: 'en', targetLangs: ['en'] },
      { name: ' ', sourceLang: 'en', targetLangs: ['de'] },
      { name: 'x', sourceLang: 'en', targetLangs: ['de'], client: { id: 'missing' } },
      { name: 'x', sourceLang: 'en', targetLangs: ['de'], workflowSteps: [{ id: '999999' }] },
      { name: 'x', sourceLang: 'en', targetLangs: ['de'], lqaProfiles: [{ lqaProfile: { uid: 'p' } }] },
      { name: 'x', sourceLang: 'en', targetLangs: ['de'], lqaProfiles: [{}] },
    ];
    for (const body of bad) {
      const response = await call('POST', 'v3/projects', home.headers, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Another organization's client is not a reference of this one.
    const foreign = await setupRecord('clients', other.headers);
    expect(
      (
        await call('POST', 'v3/projects', home.headers, { name: 'x', sourceLang: 'en', targetLangs: ['de'], client: { id: foreign.uid } })
      ).json().errorCode,
    ).toBe('ReferenceNotFound');
    const after = await t.database.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers each role its view, and hides projects from those who may not see them', async () => {
    const project = await create({ name: uniqueName('Views') });
    const linguist = await userHeaders('LINGUIST');
    expect((await call('GET', `v1/projects/${project.uid}`, linguist.headers)).statusCode).toBe(404);
    const row = await t.database.db.selectFrom('projects').selectAll().where('uid', '=', project.uid).executeTakeFirstOrThrow();
    await makeJobs(t, row, { providerUserIds: [linguist.user.id] });
    const asLinguist = await ok('GET', `v1/projects/${project.uid}`, linguist.headers);
    expect(asLinguist.userRole).toBe('LINGUIST');
    expect(asLinguist.status).toBeUndefined();
    expect((await ok('GET', `v1/projects/${project.uid}`, home.headers)).progress).toEqual({
      totalCount: 1,
      finishedCount: 0,
      overdueCount: 0,
    });
    expect((await call('GET', `v1/projects/${project.uid}`, other.headers)).statusCode).toBe(404);
    // A linguist reads but never changes.
    expect((await call('PATCH', `v1/projects/${project.uid}`, linguist.headers, { name: 'x' })).statusCode).toBe(403);
  });

  it('shows a project shared with a vendor in the Vendor view and lets the vendor set vendor statuses', async () => {
    const project = await create({ name: uniqueName('Shared') });
    const { vendorToken } = await ok('GET', 'v1/vendorToken', other.headers);
    const vendor = await ok('POST', 'v1/vendors', home.headers, { vendorToken }, 201);
    await ok('POST', `v1/projects/${project.uid}/assignVendor`, home.headers, { vendor: { id: vendor.uid } }, 204);
    const seen = await ok('GET', `v1/projects/${project.uid}`, other.headers);
    expect(seen).toMatchObject({
      userRole: 'VENDOR',
      shared: true,
      buyer: { uid: home.organization.uid },
      buyerOwner: { type: 'USER', uid: home.user.uid },
    });
    expect((await call('POST', `v1/projects/${project.uid}/setStatus`, other.headers, { status: 'COMPLETED' })).statusCode).toBe(403);
    await ok('POST', `v1/projects/${project.uid}/setStatus`, other.headers, { status: 'ACCEPTED_BY_VENDOR' }, 204);
    expect((await call('POST', `v1/projects/${project.uid}/setStatus`, home.headers, { status: 'COMPLETED_BY_VENDOR' })).statusCode).toBe(
      400,
    );
    expect((await ok('GET', `v1/projects/${project.uid}`, home.headers)).status).toBe('ACCEPTED_BY_VENDOR');
    await ok('POST', `v1/projects/${project.uid}/assignVendor`, home.headers, {}, 204);
    expect((await call('GET', `v1/projects/${project.uid}`, other.headers)).statusCode).toBe(404);
  });

  it('lists with the published filters, archived ones only when asked', async () => {
    const org = await signedInUser(t, 'ADMIN');
    const client = await setupRecord('clients', org.headers);
    const a = await create(
      { name: 'Alpha GUI02', client: { id: client.uid }, targetLangs: ['de'], dateDue: '2026-11-21T13:00:00Z' },
      org.headers,
    );
    const b = await create({ name: 'Beta', sourceLang: 'de', targetLangs: ['fr'] }, org.headers);
    const c = await create({ name: 'Gamma' }, org.headers);
    await ok('PATCH', `v1/projects/${c.uid}`, org.headers, { archived: true });
    await ok('POST', `v1/projects/${b.uid}/setStatus`, org.headers, { status: 'COMPLETED' }, 204);
    const names = async (query: string) =>
      (await ok('GET', `v1/projects?${query}`, org.headers)).content.map((p: { name: string }) => p.name);
    expect(await names('')).toEqual(['Beta', 'Alpha GUI02']);
    expect(await names('includeArchived=true')).toEqual(['Gamma', 'Beta', 'Alpha GUI02']);
    expect(await names('archivedOnly=true')).toEqual(['Gamma']);
    expect(await names('name=gui')).toEqual(['Alpha GUI02']);
    expect(await names(`clientId=${client.id}`)).toEqual(['Alpha GUI02']);
    expect(await names(`clientName=${encodeURIComponent(client.name.slice(2, 9))}`)).toEqual(['Alpha GUI02']);
    expect(await names('statuses=COMPLETED&statuses=CANCELLED')).toEqual(['Beta']);
    expect(await names('targetLangs=FR')).toEqual(['Beta']);
    expect(await names('sourceLangs=de')).toEqual(['Beta']);
    expect(await names('dueInHours=2')).toEqual(['Alpha GUI02']);
    expect(await names('dueInHours=-1')).toEqual([]);
    expect(await names(`nameOrInternalId=${a.internalId}`)).toEqual(['Alpha GUI02']);
    expect(await names(`ownerId=${org.user.id}&createdInLastHours=1`)).toEqual(['Beta', 'Alpha GUI02']);
    const page = await ok('GET', 'v1/projects?pageSize=1&pageNumber=1', org.headers);
    expect(page).toMatchObject({ totalElements: 2, totalPages: 2, pageSize: 1, pageNumber: 1, numberOfElements: 1 });
    expect((await call('GET', 'v1/projects?pageSize=51', org.headers)).statusCode).toBe(400);
  });

  it('edits with PATCH (partial) and PUT v2/v3 (replacing), emitting the right events', async () => {
    await ok(
      'POST',
      'v2/webhooks',
      home.headers,
      {
        url: 'https://hooks.example.test/p',
        events: ['PROJECT_CREATED', 'PROJECT_STATUS_CHANGED', 'PROJECT_DUE_DATE_CHANGED', 'PROJECT_METADATA_UPDATED', 'PROJECT_DELETED'],
      },
      201,
    );
    const client = await setupRecord('clients');
    const before = (await events()).length;
    const project = await create({ name: 'Edit me', client: { id: client.uid }, note: 'n', purchaseOrder: 'po' });
    const patched = await ok('PATCH', `v1/projects/${project.uid}`, home.headers, { name: 'Edited', dateDue: '2027-02-01T00:00:00Z' });
    expect(patched).toMatchObject({
      name: 'Edited',
      note: 'n',
      purchaseOrder: 'po',
      client: { uid: client.uid },
      dateDue: '2027-02-01T00:00:00.000Z',
    });
    // Machine translation settings that do not exist are refused (test/project-mt-settings.test.ts has the rest);
    // an entry naming none clears its language, here a no-op.
    for (const body of [
      { machineTranslateSettings: { uid: 'mt' } },
      { machineTranslateSettingsPerLangs: [{ targetLang: 'de', machineTranslateSettings: { uid: 'mt' } }] },
    ]) {
      const refused = await call('PATCH', `v1/projects/${project.uid}`, home.headers, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().errorCode).toBe('ReferenceNotFound');
    }
    expect(
      (await call('PATCH', `v1/projects/${project.uid}`, home.headers, { machineTranslateSettingsPerLangs: [{ targetLang: 'de' }] }))
        .statusCode,
    ).toBe(200);
    const cleared = await ok('PATCH', `v1/projects/${project.uid}`, home.headers, { client: null, note: null });
    expect(cleared.client ?? null).toBeNull();
    expect(cleared.note ?? null).toBeNull();
    const pm = await userHeaders('PROJECT_MANAGER');
    const put = await ok('PUT', `v2/projects/${project.uid}`, home.headers, {
      name: 'Put',
      status: 'ASSIGNED',
      owner: { id: pm.user.uid },
    });
    expect(put).toMatchObject({ name: 'Put', status: 'ASSIGNED', owner: { uid: pm.user.uid } });
    expect(put.purchaseOrder ?? null).toBeNull();
    expect(put.dateDue ?? null).toBeNull();
    const v3 = await ok('PUT', `v3/projects/${project.uid}`, home.headers, { name: 'Put v3', note: 'v3', archived: false });
    expect(v3).toMatchObject({ name: 'Put v3', note: 'v3', status: 'ASSIGNED' });
    const linguist = await userHeaders('LINGUIST');
    expect(
      (await call('PUT', `v2/projects/${project.uid}`, home.headers, { name: 'x', owner: { id: linguist.user.uid } })).statusCode,
    ).toBe(400);
    const emitted = (await events()).slice(before);
    expect(emitted).toEqual(
      expect.arrayContaining(['PROJECT_CREATED', 'PROJECT_METADATA_UPDATED', 'PROJECT_DUE_DATE_CHANGED', 'PROJECT_STATUS_CHANGED']),
    );
  });

  it('project managers: own projects always, others by their rights; projectCreate guards creation', async () => {
    const pm = await userHeaders('PROJECT_MANAGER');
    const mine = await create({ name: uniqueName('PM own') }, pm.headers);
    expect(mine.owner.uid).toBe(pm.user.uid);
    const admins = await create({ name: uniqueName('Admin') });
    await t.database.db
      .updateTable('users')
      .set({
        roleSettings: JSON.stringify({
          rights: { projectCreate: false, projectViewOther: true, projectEditOther: false, projectDeleteOther: false },
          locales: {},
          referenceLists: {},
          references: {},
          strings: {},
        }),
      })
      .where('id', '=', pm.user.id)
      .execute();
    const fresh = apiToken(await loginAs(t, pm.user));
    expect((await call('POST', 'v3/projects', fresh, { name: 'x', sourceLang: 'en', targetLangs: ['de'] })).statusCode).toBe(403);
    await ok('GET', `v1/projects/${admins.uid}`, fresh);
    expect((await call('PATCH', `v1/projects/${admins.uid}`, fresh, { name: 'x' })).statusCode).toBe(403);
    expect((await call('DELETE', `v1/projects/${admins.uid}`, fresh)).statusCode).toBe(403);
    await ok('PATCH', `v1/projects/${mine.uid}`, fresh, { name: 'still mine' });
  });

  it('deletes softly, restores from the recycle bin, purges with the files', async () => {
    const project = await create({ name: uniqueName('Bin') });
    const row = await t.database.db.selectFrom('projects').selectAll().where('uid', '=', project.uid).executeTakeFirstOrThrow();
    const { sourceId } = await makeJobs(t, row, { content: `unique content ${newUid()}` });
    const source = await t.database.db.selectFrom('jobSources').select('sha256').where('id', '=', sourceId).executeTakeFirstOrThrow();
    await ok('DELETE', `v1/projects/${project.uid}`, home.headers, undefined, 204);
    expect((await call('GET', `v1/projects/${project.uid}`, home.headers)).statusCode).toBe(404);
    const restored = await ok('PATCH', `v1/projects/${project.uid}/restore`, home.headers);
    expect(restored.uid).toBe(project.uid);
    await ok('GET', `v1/projects/${project.uid}`, home.headers);
    await ok('PATCH', `v1/projects/${project.uid}`, home.headers, { archived: true });
    expect((await ok('PATCH', `v1/projects/${project.uid}/restore`, home.headers)).archived).toBe(false);
    expect(await t.deps.blobs.has(source.sha256)).toBe(true);
    await ok('DELETE', `v1/projects/${project.uid}?purge=true`, home.headers, undefined, 204);
    expect(await t.database.db.selectFrom('projects').select('id').where('uid', '=', project.uid).executeTakeFirst()).toBeUndefined();
    expect(await t.database.db.selectFrom('jobs').select('id').where('projectId', '=', row.id).executeTakeFirst()).toBeUndefined();
    expect(await t.deps.blobs.has(source.sha256)).toBe(false);
    expect((await call('PATCH', `v1/projects/${project.uid}/restore`, home.headers)).statusCode).toBe(404);
  });

  it('clones languages, steps, references and settings but not jobs', async () => {
    const client = await setupRecord('clients');
    const project = await create({ name: 'Original', targetLangs: ['de', 'fr'], client: { id: client.uid }, note: 'keep' });
    await ok('PUT', `v1/projects/${project.uid}/fileNamingSettings`, home.headers, {
      renameCompleted: true,
      completedFilePattern: '{filename}-done',
    });
    const row = await t.database.db.selectFrom('projects').selectAll().where('uid', '=', project.uid).executeTakeFirstOrThrow();
    await makeJobs(t, row);
    const clone = await ok('POST', `v1/projects/${project.uid}/clone`, home.headers, { name: 'Copy' }, 201);
    expect(clone).toMatchObject({
      name: 'Copy',
      targetLangs: ['de', 'fr'],
      client: { uid: client.uid },
      note: 'keep',
      status: 'NEW',
      progress: { totalCount: 0 },
    });
    expect(clone.uid).not.toBe(project.uid);
    expect(clone.workflowSteps.map((s: { workflowStep: { uid: string } }) => s.workflowStep.uid)).toEqual(
      project.workflowSteps.map((s: { workflowStep: { uid: string } }) => s.workflowStep.uid),
    );
    expect(await ok('GET', `v1/projects/${clone.uid}/fileNamingSettings`, home.headers)).toMatchObject({
      renameCompleted: true,
      completedFilePattern: '{filename}-done',
    });
  });

  it('stores and returns access, financial, file naming and import settings', async () => {
    const project = await create({ name: uniqueName('Settings') });
    const base = `v1/projects/${project.uid}`;
    const defaults = await ok('GET', `v2/projects/${project.uid}/accessSettings`, home.headers);
    expect(defaults).toMatchObject({ downloadEnabled: false, triggerWebhooks: true, vendors: { jobVendorsMayUploadReferences: false } });
    const edited = await ok('PUT', `v2/projects/${project.uid}/accessSettings`, home.headers, {
      downloadEnabled: true,
      vendors: { jobVendorsMayUploadReferences: true },
      allowedDomains: ['example.com'],
    });
    expect(edited).toMatchObject({
      downloadEnabled: true,
      triggerWebhooks: true,
      vendors: { jobVendorsMayUploadReferences: true },
      allowedDomains: ['example.com'],
    });
    const stored = await t.database.db.selectFrom('projects').select('settings').where('uid', '=', project.uid).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.settings).accessSettings.vendors.jobVendorsMayUploadReferences).toBe(true);
    expect(
      (
        await call('PUT', `v2/projects/${project.uid}/accessSettings`, home.headers, {
          vendors: { canChangeSharedJobDueDate: [{ uid: 'nope' }] },
        })
      ).statusCode,
    ).toBe(400);

    expect(await ok('GET', `${base}/financialSettings`, home.headers)).toEqual({ netRateScheme: null, priceList: null });
    expect((await call('PUT', `${base}/financialSettings`, home.headers, { priceList: { id: '1' } })).json().errorCode).toBe(
      'ReferenceNotFound',
    );
    await ok('PUT', `${base}/financialSettings`, home.headers, { priceList: null, netRateScheme: null });

    await ok('PUT', `${base}/fileNamingSettings`, home.headers, { targetFolderPath: 'out' });
    expect(await ok('GET', `${base}/fileNamingSettings`, home.headers)).toEqual({
      renameCompleted: false,
      completedFilePattern: '',
      targetFolderPath: 'out',
    });

    const imported = await ok('PUT', `${base}/importSettings`, home.headers, {
      inputCharset: 'ISO-8859-1',
      json: { includeKeyRegexp: '^a' },
      xlf: { segmentation: false },
    });
    expect(imported).toMatchObject({
      inputCharset: 'ISO-8859-1',
      outputCharset: 'UTF-8',
      json: { includeKeyRegexp: '^a' },
      xlf: { segmentation: false },
    });
    expect(await ok('GET', `${base}/importSettings`, home.headers)).toMatchObject({
      inputCharset: 'ISO-8859-1',
      json: { includeKeyRegexp: '^a' },
    });
    expect((await call('PUT', `${base}/importSettings`, home.headers, { xls: { cellFlow: 'Sideways' } })).statusCode).toBe(400);
    expect((await call('PUT', `${base}/importSettings`, home.headers, { segmentationRuleId: 5 })).statusCode).toBe(400);
  });

  it('adds workflow steps and target languages, links and unlinks a content group', async () => {
    const [translation, revision, review] = await steps(home.organization.id);
    const project = await create({ name: uniqueName('Workflow'), workflowSteps: [{ id: translation!.uid }] });
    await ok(
      'POST',
      `v1/projects/${project.uid}/workflowSteps`,
      home.headers,
      { workflowSteps: [{ id: review!.uid }, { id: revision!.uid }] },
      204,
    );
    const after = await ok('GET', `v2/projects/${project.uid}/workflowSteps`, home.headers);
    expect(
      after.projectWorkflowSteps.map((s: { workflowStep: { uid: string }; workflowLevel: number }) => [
        s.workflowStep.uid,
        s.workflowLevel,
      ]),
    ).toEqual([
      [translation!.uid, 1],
      [revision!.uid, 2],
      [review!.uid, 3],
    ]);
    expect(
      (await call('POST', `v1/projects/${project.uid}/workflowSteps`, home.headers, { workflowSteps: [{ id: translation!.uid }] }))
        .statusCode,
    ).toBe(400);
    await ok('POST', `v1/projects/${project.uid}/targetLangs`, home.headers, { targetLangs: ['fr', 'de'] }, 204);
    expect((await ok('GET', `v1/projects/${project.uid}`, home.headers)).targetLangs).toEqual(['de', 'fr']);
    expect((await call('POST', `v1/projects/${project.uid}/targetLangs`, home.headers, { targetLangs: ['nope-xx'] })).statusCode).toBe(400);

    expect(await ok('GET', `v1/projects/${project.uid}/contentGroup`, home.headers)).toEqual({ contentGroup: null });
    await ok('POST', `v1/projects/${project.uid}/contentGroup`, home.headers, { contentGroup: { uid: 'cg-1', name: 'Docs' } });
    expect(await ok('GET', `v1/projects/${project.uid}/contentGroup`, home.headers)).toEqual({
      contentGroup: { uid: 'cg-1', name: 'Docs' },
    });
    await ok('DELETE', `v1/projects/${project.uid}/contentGroup`, home.headers, undefined, 204);
    await ok('DELETE', `v1/projects/${project.uid}/contentGroup`, home.headers, undefined, 204);
    expect(await ok('GET', `v1/projects/${project.uid}/contentGroup`, home.headers)).toEqual({ contentGroup: null });
  });

  it("lists the providers of the project's jobs", async () => {
    const project = await create({ name: uniqueName('Providers'), targetLangs: ['de'] });
    const row = await t.database.db.selectFrom('projects').selectAll().where('uid', '=', project.uid).executeTakeFirstOrThrow();
    const anna = await makeUser(t.database.db, home.organization, { role: 'LINGUIST', firstName: 'Anna', lastName: 'Zed' });
    const bert = await makeUser(t.database.db, home.organization, { role: 'LINGUIST', firstName: 'Bert', lastName: 'Young' });
    await makeJobs(t, row, { providerUserIds: [anna.id, bert.id] });
    const page = await ok('GET', `v1/projects/${project.uid}/providers`, home.headers);
    expect(page.content).toEqual([
      { type: 'USER', id: anna.id, uid: anna.uid },
      { type: 'USER', id: bert.id, uid: bert.uid },
    ]);
    expect((await ok('GET', `v1/projects/${project.uid}/providers?providerName=you`, home.headers)).content).toEqual([
      { type: 'USER', id: bert.id, uid: bert.uid },
    ]);
  });

  it("clears a project's references when the setup records are deleted", async () => {
    const records = {
      client: await setupRecord('clients'),
      domain: await setupRecord('domains'),
      subDomain: await setupRecord('subDomains'),
      costCenter: await setupRecord('costCenters'),
      businessUnit: await setupRecord('businessUnits'),
    };
    const project = await create({
      name: uniqueName('Clearing'),
      ...Object.fromEntries(Object.entries(records).map(([k, v]) => [k, { id: v.uid }])),
    });
    expect(project.costCenter.uid).toBe(records.costCenter.uid);
    for (const [kind, record] of [
      ['clients', records.client],
      ['domains', records.domain],
      ['subDomains', records.subDomain],
      ['costCenters', records.costCenter],
      ['businessUnits', records.businessUnit],
    ] as const) {
      await ok('DELETE', `v1/${kind}/${record.uid}`, home.headers, undefined, 204);
    }
    const after = await ok('GET', `v1/projects/${project.uid}`, home.headers);
    for (const field of ['client', 'domain', 'subDomain', 'costCenter', 'businessUnit']) expect(after[field] ?? null, field).toBeNull();
    // A deleted cost center cannot be referenced again.
    expect(
      (await call('PATCH', `v1/projects/${project.uid}`, home.headers, { costCenter: { id: records.costCenter.uid } })).statusCode,
    ).toBe(400);
  });

  describe('templates', () => {
    async function template(fields: Record<string, unknown> = {}) {
      const now = t.clock().toISOString();
      return t.database.db
        .insertInto('projectTemplates')
        .values({
          uid: newUid(),
          organizationId: home.organization.id,
          name: uniqueName('Template'),
          createdAt: now,
          createdById: home.user.id,
          sourceLang: 'en',
          targetLangs: JSON.stringify(['de', 'fr']),
          note: 'template note',
          lastModifiedAt: now,
          ...fields,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    }

    it('creates a project from a template (defaults, overrides) without assigning its providers, then assigns them on request', async () => {
      const [translation, revision] = await steps(home.organization.id);
      const client = await setupRecord('clients');
      const tpl = await template({
        clientId: String(client.id),
        settings: JSON.stringify({ accessSettings: { downloadEnabled: true }, notifyProviders: { x: 1 } }),
      });
      const tSteps = [];
      for (const [level, step] of [
        [1, translation!],
        [2, revision!],
      ] as const) {
        tSteps.push(
          await t.database.db
            .insertInto('templateWorkflowSteps')
            .values({ templateId: tpl.id, workflowStepId: step.id, workflowLevel: level })
            .returning('id')
            .executeTakeFirstOrThrow(),
        );
      }
      const linguist = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
      const reviewer = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
      await t.database.db
        .insertInto('templateAssignments')
        .values([
          {
            templateId: tpl.id,
            templateWorkflowStepId: tSteps[0]!.id,
            targetLang: 'de',
            userId: linguist.id,
            vendorId: null,
          },
          {
            templateId: tpl.id,
            templateWorkflowStepId: tSteps[1]!.id,
            targetLang: null,
            userId: reviewer.id,
            vendorId: null,
          },
        ])
        .execute();
      const project = await ok(
        'POST',
        `v2/projects/applyTemplate/${tpl.uid}`,
        home.headers,
        { name: 'From template', targetLangs: ['de'] },
        201,
      );
      expect(project).toMatchObject({
        name: 'From template',
        sourceLang: 'en',
        targetLangs: ['de'],
        client: { uid: client.uid },
        note: 'template note',
      });
      expect(project.workflowSteps.map((s: { workflowLevel: number }) => s.workflowLevel)).toEqual([1, 2]);
      expect((await ok('GET', `v2/projects/${project.uid}/accessSettings`, home.headers)).downloadEnabled).toBe(true);
      const row = await t.database.db.selectFrom('projects').selectAll().where('uid', '=', project.uid).executeTakeFirstOrThrow();
      const { jobs } = await makeJobs(t, row);
      expect(
        await t.database.db
          .selectFrom('jobProviders')
          .select('id')
          .where(
            'jobId',
            'in',
            jobs.map((j) => j.id),
          )
          .execute(),
      ).toEqual([]);

      const first = await ok('POST', `v1/projects/${project.uid}/applyTemplate/${tpl.uid}/assignProviders/forJobParts`, home.headers, {
        jobs: [{ uid: jobs[0]!.uid }],
      });
      expect(first.jobs).toHaveLength(1);
      const all = await ok('POST', `v1/projects/${project.uid}/applyTemplate/${tpl.uid}/assignProviders`, home.headers);
      expect(all.jobs).toHaveLength(2);
      const providers = await t.database.db
        .selectFrom('jobProviders')
        .innerJoin('jobs', 'jobs.id', 'jobProviders.jobId')
        .select(['jobs.workflowLevel', 'jobProviders.userId'])
        .where('jobs.projectId', '=', row.id)
        .orderBy('jobs.workflowLevel')
        .execute();
      expect(providers.map((p) => [p.workflowLevel, String(p.userId)])).toEqual([
        [1, linguist.id],
        [2, reviewer.id],
      ]);
      expect(
        (
          await call('POST', `v1/projects/${project.uid}/applyTemplate/${tpl.uid}/assignProviders/forJobParts`, home.headers, {
            jobs: [{ uid: 'nope' }],
          })
        ).statusCode,
      ).toBe(404);
      const assignable = await ok('GET', `v1/projects/${project.uid}/assignableTemplates`, home.headers);
      expect(assignable.assignableTemplates.map((a: { id: string }) => a.id)).toContain(tpl.id);
    });

    it('lets a submitter create from a template; rejects a template of another organization', async () => {
      const tpl = await template();
      const submitter = await userHeaders('SUBMITTER');
      const project = await ok('POST', `v2/projects/applyTemplate/${tpl.uid}`, submitter.headers, { name: 'Submitted' }, 201);
      expect(project.userRole).toBe('SUBMITTER');
      expect(project.owner ?? null).toBeNull();
      await ok('GET', `v1/projects/${project.uid}`, submitter.headers);
      expect((await call('POST', `v2/projects/applyTemplate/${tpl.uid}`, other.headers, { name: 'x' })).statusCode).toBe(404);
      expect(
        (await call('POST', `v2/projects/applyTemplate/${tpl.uid}`, home.headers, { name: 'x', targetLangs: ['en'] })).statusCode,
      ).toBe(400);
    });

    it('creates a project from a template asynchronously', async () => {
      const tpl = await template();
      const accepted = await ok('POST', `v2/projects/applyTemplate/async/${tpl.uid}`, home.headers, { name: 'Async project' }, 202);
      expect(accepted.asyncRequest).toMatchObject({ action: 'CREATE_PROJECT', asyncResponse: null });
      const worker = startWorker(t.deps, buildTaskRegistry());
      try {
        t.deps.taskWakeup.notify();
        let finished = null;
        for (let i = 0; i < 200 && !finished; i++) {
          const response = await ok('GET', `v1/async/${accepted.asyncRequest.id}`, home.headers);
          if (response.asyncResponse) finished = response;
          else await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(finished).toMatchObject({ asyncResponse: { errorCode: null }, project: { name: 'Async project' } });
        const project = await ok('GET', `v1/projects/${finished.project.uid}`, home.headers);
        expect(project.targetLangs).toEqual(['de', 'fr']);
        expect(await t.database.db.selectFrom('projects').select('id').where('name', '=', 'Async project').execute()).toHaveLength(1);
      } finally {
        await worker.stop();
      }
    });
  });

  it('writes custom field values on create v3 and replaces them on PUT v2', async () => {
    const org = await signedInUser(t, 'ADMIN');
    const field = await ok(
      'POST',
      'v1/customFields',
      org.headers,
      { name: uniqueName('Cost code'), type: 'STRING', allowedEntities: ['PROJECT'] },
      201,
    );
    const project = await create(
      { name: uniqueName('Custom'), customFields: [{ customField: { uid: field.uid }, value: 'A-1' }] },
      org.headers,
    );
    const values = async () =>
      t.database.db
        .selectFrom('customFieldValues')
        .innerJoin('projects', 'projects.id', 'customFieldValues.projectId')
        .select('customFieldValues.value')
        .where('projects.uid', '=', project.uid)
        .execute();
    expect((await values()).map((v) => v.value)).toEqual(['A-1']);
    await ok('PUT', `v2/projects/${project.uid}`, org.headers, {
      name: 'Custom',
      customFields: [{ customField: { uid: field.uid }, value: 'B-2' }],
    });
    expect((await values()).map((v) => v.value)).toEqual(['B-2']);
    expect(
      (
        await call('POST', 'v3/projects', org.headers, {
          name: 'x',
          sourceLang: 'en',
          targetLangs: ['de'],
          customFields: [{ customField: { uid: 'missing' }, value: 'v' }],
        })
      ).statusCode,
    ).toBe(400);
  });

  it('keeps a project made by the test factories visible through the API', async () => {
    const project = await makeProject(t, home.organization.id, { createdById: home.user.id });
    expect((await ok('GET', `v1/projects/${project.uid}`, home.headers)).uid).toBe(project.uid);
  });

  it("gives a project made from a template the template's custom field values, and enforces required fields", async () => {
    const own = await signedInUser(t, 'ADMIN');
    const field = await ok(
      'POST',
      'v1/customFields',
      own.headers,
      { name: uniqueName('Cost code'), type: 'STRING', allowedEntities: ['PROJECT'] },
      201,
    );
    const seed = await ok(
      'POST',
      'v3/projects',
      own.headers,
      { name: 'Seed', sourceLang: 'en', targetLangs: ['de'], customFields: [{ customField: { uid: field.uid }, value: 'CC-7' }] },
      201,
    );
    const template = await ok('POST', 'v1/projectTemplates', own.headers, { name: 'With fields', project: { uid: seed.uid } }, 201);
    const project = await ok('POST', `v2/projects/applyTemplate/${template.uid}`, own.headers, { name: 'From template' }, 201);
    const values = await ok('GET', `v1/projects/${project.uid}/customFields`, own.headers);
    expect(values.content.map((v: { customField: { uid: string }; value: string }) => [v.customField.uid, v.value])).toEqual([
      [field.uid, 'CC-7'],
    ]);

    await ok(
      'POST',
      'v1/customFields',
      own.headers,
      { name: uniqueName('Mandatory'), type: 'STRING', required: true, allowedEntities: ['PROJECT'] },
      201,
    );
    const before = await t.database.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const refused = await call('POST', `v2/projects/applyTemplate/${template.uid}`, own.headers, { name: 'Missing a required value' });
    expect([refused.statusCode, refused.json().errorCode]).toEqual([400, 'ValueRequired']);
    const after = await t.database.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
