import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_RECORDS } from '../src/db/record-ids.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers } from './support/api.js';
import { signedInUser } from './factories.js';

/**
 * Issue 13, "Numeric ids in paths": a path parameter that takes a record's uid also takes the
 * numeric `id` the same record shows (`GET /api2/v1/projectTemplates/14`, `DELETE
 * /api2/v1/clients/3`); the id of another organization's record is a 404 like an unknown uid.
 */

describe('numeric ids in paths', () => {
  let t: TestApp;
  let admin: Headers;
  let other: Headers;
  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/')(...args);

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t, 'ADMIN')).headers;
    other = (await signedInUser(t, 'ADMIN')).headers;
  });
  afterAll(() => t.close());

  async function created(path: string, payload: unknown, headers = admin): Promise<{ id: string; uid: string }> {
    const response = await api('POST', path, headers, payload);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as { id: string; uid: string };
    expect(body.id).toMatch(/^\d+$/);
    return body;
  }

  async function project(headers = admin) {
    return created('v3/projects', { name: uniqueName('Project'), sourceLang: 'en', targetLangs: ['de', 'fr'] }, headers);
  }

  it('GET a project template by its numeric id: the same record as by its uid', async () => {
    const source = await project();
    const template = await created('v1/projectTemplates', { project: { uid: source.uid }, name: uniqueName('Template') });
    const byId = await api('GET', `v1/projectTemplates/${template.id}`, admin);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json()).toEqual((await api('GET', `v1/projectTemplates/${template.uid}`, admin)).json());
    // Under the published basePath too, and where the path calls it templateUid.
    expect((await api('GET', `../web/api2/v1/projectTemplates/${template.id}`, admin)).json().uid).toBe(template.uid);
    const assignable = await api('GET', `v1/projects/${source.id}/assignableTemplates`, admin);
    expect(assignable.statusCode, assignable.body).toBe(200);
  });

  it('DELETE a client by its numeric id', async () => {
    const client = await created('v1/clients', { name: uniqueName('Client') });
    const deleted = await api('DELETE', `v1/clients/${client.id}`, admin);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await api('GET', `v1/clients/${client.uid}`, admin)).statusCode).toBe(404);
  });

  it('projects, and the routes of the kernel under them (jobs, settings), by numeric id', async () => {
    const made = await project();
    const byId = await api('GET', `v1/projects/${made.id}`, admin);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json()).toMatchObject({ uid: made.uid, id: made.id });
    const jobs = await api('GET', `v2/projects/${made.id}/jobs`, admin);
    expect(jobs.statusCode, jobs.body).toBe(200);
    const edited = await api('PATCH', `v1/projects/${made.id}`, admin, { name: 'Renamed by id' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await api('GET', `v1/projects/${made.uid}`, admin)).json().name).toBe('Renamed by id');
  });

  it('every other record kind that shows both id and uid', async () => {
    const step = await created('v1/workflowSteps', { name: uniqueName('Step'), abbr: 'NA' });
    const cases: Array<{ path: string; record: { id: string; uid: string } }> = [
      { path: 'v1/domains', record: await created('v1/domains', { name: uniqueName('Domain') }) },
      { path: 'v1/subDomains', record: await created('v1/subDomains', { name: uniqueName('Subdomain') }) },
      { path: 'v1/costCenters', record: await created('v1/costCenters', { name: uniqueName('Cost center') }) },
      { path: 'v2/webhooks', record: await created('v2/webhooks', { url: 'https://hooks.example.test/n', events: ['JOB_CREATED'] }) },
      { path: 'v1/workflowSteps', record: step },
      {
        path: 'v3/users',
        record: await created('v3/users', {
          userName: uniqueName('user').replace(' ', '-'),
          firstName: 'Nu',
          lastName: 'Meric',
          email: 'numeric@example.test',
          password: 'a good password',
          role: 'LINGUIST',
          timezone: 'Europe/Prague',
        }),
      },
    ];
    for (const { path, record } of cases) {
      if (path === 'v1/workflowSteps') {
        const edited = await api('PUT', `${path}/${record.id}`, admin, { name: uniqueName('Step'), abbr: 'NB' });
        expect(edited.statusCode, `${path}: ${edited.body}`).toBe(200);
        expect(edited.json().uid).toBe(record.uid);
        continue;
      }
      const byId = await api('GET', `${path}/${record.id}`, admin);
      expect(byId.statusCode, `${path}: ${byId.body}`).toBe(200);
      expect(byId.json().uid).toBe(record.uid);
    }
  });

  it("another organization's numeric id is a 404, like an unknown uid", async () => {
    const theirClient = await created('v1/clients', { name: uniqueName('Client') }, other);
    const theirProject = await project(other);
    const theirTemplate = await created('v1/projectTemplates', { project: { uid: theirProject.uid }, name: uniqueName('T') }, other);
    for (const path of [`v1/clients/${theirClient.id}`, `v1/projects/${theirProject.id}`, `v1/projectTemplates/${theirTemplate.id}`]) {
      const response = await api('GET', path, admin);
      expect(response.statusCode, path).toBe(404);
      expect(response.json().errorCode).toBe('ResourceNotFound');
      // The answer says nothing of the record: not its uid.
      expect(response.body).not.toContain(path.includes('clients') ? theirClient.uid : theirProject.uid);
    }
    expect((await api('DELETE', `v1/clients/${theirClient.id}`, admin)).statusCode).toBe(404);
    expect((await api('GET', `v1/clients/${theirClient.uid}`, other)).statusCode).toBe(200);
    // Unknown ids, and ids too long to be one, are unknown records.
    expect((await api('GET', 'v1/clients/999999999', admin)).statusCode).toBe(404);
    expect((await api('GET', 'v1/projects/1234567890123456789012', admin)).statusCode).toBe(404);
  });

  it('the OpenAPI document marks every path parameter that takes an id, for every record kind', async () => {
    const document = (await t.inject({ url: '/api2/openapi.json' })).json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; schema?: Record<string, unknown> }> }>>;
    };
    /** Path parameter names that name one of the kinds of ID_RECORDS (everywhere they occur). */
    const expected: Record<string, string> = {
      projectUid: 'projects',
      projectTemplateUid: 'projectTemplates',
      clientUid: 'clients',
      domainUid: 'domains',
      subDomainUid: 'subDomains',
      businessUnitUid: 'businessUnits',
      costCenterUid: 'costCenters',
      userUid: 'users',
      webHookUid: 'webhooks',
      webhookUid: 'webhooks',
      serviceUid: 'services',
      workflowStepUid: 'workflowSteps',
      dueDateSchemeUid: 'dueDateSchemes',
      vendorUid: 'vendors',
      buyerUid: 'buyers',
      organizationUid: 'organizations',
    };
    const seen = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'path') continue;
          const record = parameter.schema?.['x-record'];
          if (record !== undefined) seen.add(String(record));
          if (parameter.name in expected) expect(record, `${method} ${path} {${parameter.name}}`).toBe(expected[parameter.name]);
        }
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(ID_RECORDS).sort());
  });
});
