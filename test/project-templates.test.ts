import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers } from './support/api.js';
import { makeProject } from './support/workflow-factories.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';

describe('project templates', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiCaller>;
  let admin: UserRow;
  let organization: OrganizationRow;
  let headers: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    api = apiCaller(t);
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(() => t.close());

  const create = async (path: string, payload: Record<string, unknown>) => {
    const response = await api('POST', path, headers, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { uid: string; id: string; name: string };
  };
  const steps = async () => (await api('GET', 'workflowSteps', headers)).json().content as { uid: string; id: string; name: string }[];

  /** A project with a client, a domain and two workflow steps, and a template made from it. */
  async function templateFromProject(extra: Record<string, string | null> = {}) {
    const client = await create('clients', { name: uniqueName('Client') });
    const domain = await create('domains', { name: uniqueName('Domain') });
    const [first, second] = await steps();
    const project = await makeProject(t, organization.id, {
      createdById: admin.id,
      targetLangs: ['de', 'fr'],
      workflowStepUids: [first!.uid, second!.uid],
      clientId: await idOf('clients', client.uid),
    });
    await t.database.db
      .updateTable('projects')
      .set({
        domainId: await idOf('domains', domain.uid),
        note: 'Project note',
        settings: JSON.stringify({ accessSettings: { downloadEnabled: true }, contentGroup: 'x' }),
        ...extra,
      })
      .where('id', '=', project.id)
      .execute();
    const response = await api('POST', 'projectTemplates', headers, { project: { uid: project.uid }, name: uniqueName('Template') });
    expect(response.statusCode, response.body).toBe(201);
    return { project, client, domain, steps: [first!, second!], template: response.json() };
  }

  async function idOf(
    table: 'clients' | 'domains' | 'subDomains' | 'businessUnits' | 'costCenters' | 'vendors',
    uid: string,
  ): Promise<string> {
    return (await t.database.db.selectFrom(table).select('id').where('uid', '=', uid).executeTakeFirstOrThrow()).id;
  }

  async function callsOf(event: string): Promise<number> {
    const rows = await t.database.db
      .selectFrom('webhookCalls')
      .select('id')
      .where('organizationId', '=', organization.id)
      .where('event', '=', event)
      .execute();
    return rows.length;
  }

  it('creates a template from a project, copying its languages, steps, references and settings', async () => {
    const hook = await t.inject({
      method: 'POST',
      url: '/api2/v2/webhooks',
      headers,
      payload: {
        url: 'https://hooks.example.test/t',
        events: ['PROJECT_TEMPLATE_CREATED', 'PROJECT_TEMPLATE_UPDATED', 'PROJECT_TEMPLATE_DELETED'],
      },
    });
    expect(hook.statusCode).toBe(201);
    const {
      project,
      client,
      domain,
      steps: [first, second],
      template,
    } = await templateFromProject();
    expect(template.name).toBe(project.name);
    expect(template.sourceLang).toBe('en');
    expect(template.targetLangs).toEqual(['de', 'fr']);
    expect(template.client.uid).toBe(client.uid);
    expect(template.domain.uid).toBe(domain.uid);
    expect(template.note).toBe('Project note');
    expect(template.workflowSteps.map((s: { uid: string }) => s.uid)).toEqual([first!.uid, second!.uid]);
    expect(template.createdBy.uid).toBe(admin.uid);
    expect(template.importSettings).toBeNull();
    expect(await callsOf('PROJECT_TEMPLATE_CREATED')).toBe(1);
    // Settings documents a template keeps are copied; the project's content group is not a template setting.
    const stored = await t.database.db
      .selectFrom('projectTemplates')
      .select('settings')
      .where('uid', '=', template.uid)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.settings)).toEqual({ accessSettings: { downloadEnabled: true } });
    const access = (await api('GET', `projectTemplates/${template.uid}/accessSettings`, headers)).json();
    expect(access.downloadEnabled).toBe(true);
    expect(access.usersMaySetAutoPropagation).toBe(true);
  });

  it('refuses a project the caller cannot see (404) and a blank name (400)', async () => {
    expect((await api('POST', 'projectTemplates', headers, { project: { uid: 'nope' }, name: 'X' })).statusCode).toBe(404);
    const project = await makeProject(t, organization.id, { createdById: admin.id });
    const blank = await api('POST', 'projectTemplates', headers, { project: { uid: project.uid }, name: '  ' });
    expect(blank.statusCode).toBe(400);
  });

  it('lists templates with the spec filters and sorts', async () => {
    const a = await templateFromProject();
    const b = await templateFromProject();
    const byName = await api('GET', `projectTemplates?name=${encodeURIComponent(a.template.templateName.slice(-8))}`, headers);
    expect(byName.json().content.map((c: { uid: string }) => c.uid)).toEqual([a.template.uid]);
    const byClient = await api('GET', `projectTemplates?clientName=${encodeURIComponent(b.client.name.slice(-8).toUpperCase())}`, headers);
    expect(byClient.json().content.map((c: { uid: string }) => c.uid)).toEqual([b.template.uid]);
    const byClientId = await api('GET', `projectTemplates?clientId=${await idOf('clients', a.client.uid)}`, headers);
    expect(byClientId.json().content.map((c: { uid: string }) => c.uid)).toEqual([a.template.uid]);
    const byDomain = await api('GET', `projectTemplates?domainName=${encodeURIComponent(a.domain.name.slice(-8))}`, headers);
    expect(byDomain.json().totalElements).toBe(1);
    const newest = await api('GET', 'projectTemplates?pageSize=1', headers);
    expect(newest.json().content[0].uid).toBe(b.template.uid);
    const byTemplateName = (await api('GET', 'projectTemplates?sort=templateName&direction=asc&pageSize=50', headers)).json().content as {
      templateName: string;
    }[];
    const names = byTemplateName.map((c) => c.templateName.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect((await api('GET', 'projectTemplates?sort=bogus', headers)).statusCode).toBe(400);
  });

  it('edits v1 partially: workflow settings with providers per language, notify settings', async () => {
    const {
      template,
      steps: [first],
    } = await templateFromProject();
    const linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    const email = await t.database.db
      .selectFrom('emailTemplates')
      .select('id')
      .where('organizationId', '=', organization.id)
      .executeTakeFirstOrThrow();
    const response = await t.inject({
      method: 'PUT',
      url: `/api2/v1/projectTemplates/${template.uid}`,
      headers,
      payload: {
        templateName: 'Renamed',
        workFlowSettings: [
          {
            workflowStep: { id: first!.id },
            assignedTo: [{ targetLang: 'de', providers: [{ type: 'USER', id: linguist.uid }] }],
            notifyProvider: { organizationEmailTemplate: { id: email.id }, notificationIntervalInMinutes: 30 },
          },
        ],
        notifyProvider: { organizationEmailTemplate: { id: email.id } },
        projectWorkflowSettings: { completeUnassigned: true },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = response.json();
    expect(edited.templateName).toBe('Renamed');
    expect(edited.note).toBe('Project note');
    expect(edited.client).not.toBeNull();
    expect(edited.workflowSteps.map((s: { uid: string }) => s.uid)).toEqual([first!.uid]);
    expect(edited.workflowSettings[0].assignedTo).toEqual([
      { targetLang: 'de', providers: [expect.objectContaining({ type: 'USER', uid: linguist.uid, userName: linguist.userName })] },
    ]);
    expect(edited.workflowSettings[0].notifyProvider).toEqual({
      organizationEmailTemplate: { id: email.id },
      notificationIntervalInMinutes: 30,
    });
    expect(edited.notifyProviders.organizationEmailTemplate.id).toBe(email.id);
    expect(edited.projectWorkflowSettings.completeUnassigned).toBe(true);
    expect(edited.modifiedBy.uid).toBe(admin.uid);
    expect((await api('GET', `projectTemplates/${template.uid}`, headers)).json()).toEqual(edited);
  });

  it('refuses bad edits without changing anything', async () => {
    const {
      template,
      steps: [first],
    } = await templateFromProject();
    const put = (payload: Record<string, unknown>) =>
      t.inject({ method: 'PUT', url: `/api2/v1/projectTemplates/${template.uid}`, headers, payload });
    const cases: [Record<string, unknown>, string][] = [
      [{ templateName: 'X', client: { id: 'missing' } }, 'ReferenceNotFound'],
      [{ templateName: 'X', targetLangs: ['xx_nope'] }, 'UnsupportedLanguage'],
      [
        {
          templateName: 'X',
          workFlowSettings: [
            { workflowStep: { id: first!.uid }, assignedTo: [{ targetLang: 'ja', providers: [{ type: 'USER', id: admin.uid }] }] },
          ],
        },
        'InvalidArguments',
      ],
      [
        {
          templateName: 'X',
          workFlowSettings: [
            { workflowStep: { id: first!.uid }, assignedTo: [{ targetLang: 'de', providers: [{ type: 'USER', id: 'ghost' }] }] },
          ],
        },
        'ReferenceNotFound',
      ],
      [{ templateName: 'X', assignedTo: [{ targetLang: 'de', providers: [{ type: 'USER', id: admin.uid }] }] }, 'InvalidArguments'],
      [{ templateName: 'X', notifyProvider: { organizationEmailTemplate: { id: '999999' } } }, 'ReferenceNotFound'],
    ];
    for (const [payload, code] of cases) {
      const response = await put(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errorCode).toBe(code);
    }
    const after = (await api('GET', `projectTemplates/${template.uid}`, headers)).json();
    expect(after.templateName).toBe(template.templateName);
    expect(after.workflowSteps).toHaveLength(2);
  });

  it('edits v2 as a whole: fields left out are cleared', async () => {
    const { template } = await templateFromProject();
    const response = await t.inject({
      method: 'PUT',
      url: `/api2/v2/projectTemplates/${template.uid}`,
      headers,
      payload: { templateName: 'Whole', sourceLang: 'en', targetLangs: ['de'] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = response.json();
    expect(edited).toMatchObject({
      templateName: 'Whole',
      targetLangs: ['de'],
      note: null,
      client: null,
      domain: null,
      name: null,
      workflowSteps: [],
      notifyProviders: null,
    });
    // Without workflow steps, providers go in the top-level assignedTo (null targetLang: every language).
    const linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    const assigned = await api('PUT', `projectTemplates/${template.uid}`, headers, {
      templateName: 'Whole',
      assignedTo: [{ targetLang: null, providers: [{ type: 'USER', id: linguist.uid }] }],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().assignedTo).toEqual([{ targetLang: null, providers: [expect.objectContaining({ uid: linguist.uid })] }]);
  });

  it('template rights of project managers: 404 without view, 403 without edit, own ones always', async () => {
    const { template } = await templateFromProject();
    const pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER' });
    const setRights = (rights: Record<string, boolean>) =>
      t.database.db
        .updateTable('users')
        .set({ roleSettings: JSON.stringify(parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights }))) })
        .where('id', '=', pm.id)
        .execute();
    const pmHeaders = apiToken(await loginAs(t, pm));
    await setRights({ projectTemplateViewOther: false });
    expect((await api('GET', `projectTemplates/${template.uid}`, pmHeaders)).statusCode).toBe(404);
    expect((await api('GET', 'projectTemplates', pmHeaders)).json().content.map((c: { uid: string }) => c.uid)).not.toContain(template.uid);
    await setRights({ projectTemplateEditOther: false, projectTemplateDeleteOther: false });
    expect((await api('GET', `projectTemplates/${template.uid}`, pmHeaders)).statusCode).toBe(200);
    expect((await api('PUT', `projectTemplates/${template.uid}`, pmHeaders, { templateName: 'No' })).statusCode).toBe(403);
    expect((await api('DELETE', `projectTemplates/${template.uid}`, pmHeaders)).statusCode).toBe(403);
    // Their own template: the PM creates one from a project of theirs and may do everything.
    const own = await makeProject(t, organization.id, { createdById: pm.id });
    const mine = await api('POST', 'projectTemplates', pmHeaders, { project: { uid: own.uid }, name: 'Mine' });
    expect(mine.statusCode).toBe(201);
    expect((await api('PUT', `projectTemplates/${mine.json().uid}`, pmHeaders, { templateName: 'Still mine' })).statusCode).toBe(200);
    await setRights({ projectTemplateCreate: false });
    expect((await api('POST', 'projectTemplates', pmHeaders, { project: { uid: own.uid }, name: 'Again' })).statusCode).toBe(403);
    expect((await api('DELETE', `projectTemplates/${mine.json().uid}`, pmHeaders)).statusCode).toBe(204);
    const linguist = await signedInUser(t, 'LINGUIST', organization);
    expect((await api('GET', 'projectTemplates', linguist.headers)).statusCode).toBe(403);
  });

  it('deletes a template: projects made from it keep living', async () => {
    const { project, template } = await templateFromProject();
    await t.database.db
      .updateTable('projects')
      .set({
        templateId: await t.database.db
          .selectFrom('projectTemplates')
          .select('id')
          .where('uid', '=', template.uid)
          .executeTakeFirstOrThrow()
          .then((r) => r.id),
      })
      .where('id', '=', project.id)
      .execute();
    const before = await callsOf('PROJECT_TEMPLATE_DELETED');
    expect((await api('DELETE', `projectTemplates/${template.uid}`, headers)).statusCode).toBe(204);
    expect((await api('GET', `projectTemplates/${template.uid}`, headers)).statusCode).toBe(404);
    const kept = await t.database.db
      .selectFrom('projects')
      .select(['templateId', 'deletedAt'])
      .where('id', '=', project.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ templateId: null, deletedAt: null });
    expect(await callsOf('PROJECT_TEMPLATE_DELETED')).toBe(before + 1);
  });

  it('clears a template’s references when the setup records are deleted', async () => {
    const { template } = await templateFromProject();
    const subDomain = await create('subDomains', { name: uniqueName('Sub') });
    const unit = await create('businessUnits', { name: uniqueName('Unit') });
    const center = await create('costCenters', { name: uniqueName('Center') });
    const edited = await api('PUT', `projectTemplates/${template.uid}`, headers, {
      templateName: 'Refs',
      subDomain: { id: subDomain.uid },
      businessUnit: { id: unit.uid },
      costCenter: { id: center.uid },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      subDomain: { uid: subDomain.uid },
      businessUnit: { uid: unit.uid },
      costCenter: { uid: center.uid },
    });
    for (const [path, uid] of [
      ['clients', template.client.uid],
      ['domains', template.domain.uid],
      ['subDomains', subDomain.uid],
      ['businessUnits', unit.uid],
      ['costCenters', center.uid],
    ] as const) {
      expect((await api('DELETE', `${path}/${uid}`, headers)).statusCode).toBe(204);
    }
    const after = (await api('GET', `projectTemplates/${template.uid}`, headers)).json();
    expect(after).toMatchObject({ client: null, domain: null, subDomain: null, businessUnit: null, costCenter: null });
  });

  it('access settings: edit replaces the document, fields left out take their defaults', async () => {
    const { template } = await templateFromProject();
    const path = `projectTemplates/${template.uid}/accessSettings`;
    const edited = await api('PUT', path, headers, {
      linguistsMayEditSource: false,
      vendors: { jobVendorsMayUploadReferences: true },
      allowedDomains: ['example.test'],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      downloadEnabled: false,
      linguistsMayEditSource: false,
      usersMaySetAutoPropagation: true,
      allowedDomains: ['example.test'],
      vendors: { jobVendorsMayUploadReferences: true, canChangeSharedJobDueDateEnabled: false },
    });
    expect((await api('GET', path, headers)).json()).toEqual(edited.json());
    expect((await api('PUT', path, headers, { downloadEnabled: 'yes' })).statusCode).toBe(400);
  });

  it('import settings: edit replaces the whole object, sections left out reset to the defaults', async () => {
    const { template } = await templateFromProject();
    const path = `projectTemplates/${template.uid}/importSettings`;
    expect((await api('GET', path, headers)).json()).toMatchObject({ inputCharset: 'UTF-8', targetLengthMax: 1000 });
    const first = await api('PUT', path, headers, {
      inputCharset: 'ISO-8859-1',
      json: { htmlSubFilter: true },
      txt: { tagRegexp: '\\{\\w+\\}' },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ inputCharset: 'ISO-8859-1', json: { htmlSubFilter: true }, txt: { tagRegexp: '\\{\\w+\\}' } });
    const second = (await api('PUT', path, headers, { json: { htmlSubFilter: false } })).json();
    expect(second.inputCharset).toBe('UTF-8');
    expect(second.json).toEqual({ htmlSubFilter: false });
    expect(second.txt ?? null).toBeNull();
    expect((await api('GET', path, headers)).json()).toEqual(second);
  });

  it('another organization’s template does not exist for the caller', async () => {
    const { template } = await templateFromProject();
    const other = await signedInUser(t, 'ADMIN');
    expect((await api('GET', `projectTemplates/${template.uid}`, other.headers)).statusCode).toBe(404);
    expect((await api('GET', 'projectTemplates', other.headers)).json().totalElements).toBe(0);
  });
});
