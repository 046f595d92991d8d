import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { createTestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, signedInUser } from './factories.js';

/**
 * Issue 5: services. List and batch delete are published (2025); create, get and edit are OpenTMS
 * extensions, edit being a partial update (description, "Behaviour of other operations" 4).
 */

let stepCounter = 0;

describe('services', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let other: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    other = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);

  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200) {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }

  const unique = uniqueName;
  const create = (payload: Record<string, unknown>, headers = home.headers) => ok('POST', 'services', headers, payload, 201);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const loose = () => t.database.db as unknown as Kysely<any>;

  /** Workflow steps are another module's records: written directly, with the columns it defines. */
  async function workflowStep(organizationId: string | number, order: number) {
    const n = ++stepCounter;
    return loose()
      .insertInto('workflowSteps')
      .values({
        uid: newUid(),
        organizationId,
        name: `Step ${n} ${newUid().slice(0, 6)}`,
        abbr: `S${n}`.slice(0, 3),
        orderIndex: order,
        lqaEnabled: false,
        createdAt: t.clock().toISOString(),
      })
      .returning(['id', 'uid', 'name'])
      .executeTakeFirstOrThrow() as Promise<{ id: string | number; uid: string; name: string }>;
  }

  /** A project template row (templates get their API in issue 6). */
  const template = (organizationId: string) =>
    t.database.db
      .insertInto('projectTemplates')
      .values({ uid: newUid(), organizationId, name: unique('Template'), createdAt: t.clock().toISOString(), createdById: null })
      .returningAll()
      .executeTakeFirstOrThrow();

  async function projectManager(rights: Record<string, boolean> = {}) {
    const userName = `pm-${newUid().slice(0, 10)}`;
    const created = await ok(
      'POST',
      '../v3/users',
      home.headers,
      {
        userName,
        firstName: 'Petra',
        lastName: 'Manager',
        email: `${userName}@example.test`,
        password: 'a good password',
        role: 'PROJECT_MANAGER',
        timezone: 'Europe/Prague',
        ...rights,
      },
      201,
    );
    const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', created.uid).executeTakeFirstOrThrow();
    return { uid: row.uid, headers: apiToken(await loginAs(t, row, 'a good password')) };
  }

  it('creates a service with every field and reads it back', async () => {
    const second = await workflowStep(home.organization.id, 2);
    const first = await workflowStep(home.organization.id, 1);
    const tpl = await template(home.organization.id);
    const name = unique('Translation and review');
    const created = await create({
      name,
      description: 'Human translation with a second linguist',
      workflowSteps: [{ uid: second.uid }, { uid: first.uid }],
      projectTemplate: { uid: tpl.uid },
      priceList: null,
    });
    expect(created).toEqual({
      id: expect.any(String),
      uid: expect.any(String),
      name,
      description: 'Human translation with a second linguist',
      active: true,
      workflowSteps: [
        { id: String(first.id), uid: first.uid, name: first.name, order: 1, lqaEnabled: false },
        { id: String(second.id), uid: second.uid, name: second.name, order: 2, lqaEnabled: false },
      ],
      priceList: null,
      projectTemplate: { id: tpl.id, uid: tpl.uid, name: tpl.name },
      createdBy: expect.objectContaining({ uid: home.user.uid, userName: home.user.userName }),
      dateCreated: t.clock().toISOString(),
      lastModifiedBy: expect.objectContaining({ uid: home.user.uid }),
      dateModified: t.clock().toISOString(),
    });
    expect(await ok('GET', `services/${created.uid}`, home.headers)).toEqual(created);
    const minimal = await create({ name: unique('Minimal') });
    expect(minimal).toMatchObject({ description: null, active: true, workflowSteps: [], projectTemplate: null, priceList: null });
  });

  it('keeps names unique in the organization ignoring case (409 NameAlreadyExists); other organizations may reuse them', async () => {
    const name = unique('Post-editing');
    const service = await create({ name });
    const count = async () => (await ok('GET', 'services', home.headers)).totalElements as number;
    const before = await count();
    const duplicate = await api('POST', 'services', home.headers, { name: name.toUpperCase() });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      errorCode: 'NameAlreadyExists',
      errorDetails: [{ field: 'name', message: 'already exists' }],
    });
    expect(await count()).toBe(before);
    await create({ name }, other.headers);

    const second = await create({ name: unique('Other') });
    const rename = await api('PUT', `services/${second.uid}`, home.headers, { name: name.toLowerCase(), description: 'not written' });
    expect(rename.statusCode).toBe(409);
    expect((await ok('GET', `services/${second.uid}`, home.headers)).description).toBeNull();
    // Its own name in another case is not a duplicate.
    expect((await ok('PUT', `services/${service.uid}`, home.headers, { name: name.toLowerCase() })).name).toBe(name.toLowerCase());
    expect((await api('POST', 'services', home.headers, { name: '   ' })).statusCode).toBe(400);
  });

  it('edit is a partial update: fields left out keep their values, null clears, a given list replaces', async () => {
    const step = await workflowStep(home.organization.id, 7);
    const tpl = await template(home.organization.id);
    const name = unique('Partial');
    const service = await create({ name, description: 'Keep me', workflowSteps: [{ uid: step.uid }], projectTemplate: { uid: tpl.uid } });
    const editor = await projectManager();
    t.clock.advance(60_000);

    const deactivated = await ok('PUT', `services/${service.uid}`, editor.headers, { active: false });
    expect(deactivated).toEqual({
      ...service,
      active: false,
      lastModifiedBy: expect.objectContaining({ uid: editor.uid }),
      dateModified: t.clock().toISOString(),
    });
    const described = await ok('PUT', `services/${service.uid}`, home.headers, { description: 'New text' });
    expect(described).toMatchObject({
      name,
      active: false,
      description: 'New text',
      workflowSteps: [{ uid: step.uid }],
      projectTemplate: { uid: tpl.uid },
    });
    const cleared = await ok('PUT', `services/${service.uid}`, home.headers, {
      description: null,
      projectTemplate: null,
      workflowSteps: [],
    });
    expect(cleared).toMatchObject({
      name,
      active: false,
      description: null,
      workflowSteps: [],
      projectTemplate: null,
      dateCreated: service.dateCreated,
    });
    expect(await ok('GET', `services/${service.uid}`, home.headers)).toEqual(cleared);
  });

  it('refuses unknown or other organizations’ workflow steps and templates, and price lists, writing nothing', async () => {
    const mine = await workflowStep(home.organization.id, 3);
    const theirs = await workflowStep(other.organization.id, 3);
    const theirTemplate = await template(other.organization.id);
    const service = await create({ name: unique('Guarded'), workflowSteps: [{ uid: mine.uid }] });
    const cases: [Record<string, unknown>, string][] = [
      [{ workflowSteps: [{ uid: mine.uid }, { uid: theirs.uid }] }, 'workflowSteps'],
      [{ workflowSteps: [{ uid: 'nope' }] }, 'workflowSteps'],
      [{ projectTemplate: { uid: theirTemplate.uid } }, 'projectTemplate'],
      [{ priceList: { uid: 'a-price-list' } }, 'priceList'],
    ];
    const count = async () => (await ok('GET', 'services', home.headers)).totalElements as number;
    const before = await count();
    for (const [fields, field] of cases) {
      const created = await api('POST', 'services', home.headers, { name: unique('Refused'), ...fields });
      expect(created.statusCode, JSON.stringify(fields)).toBe(400);
      expect(created.json()).toMatchObject({ errorCode: 'ReferenceNotFound', errorDetails: [{ field }] });
      const edited = await api('PUT', `services/${service.uid}`, home.headers, { name: unique('Renamed'), workflowSteps: [], ...fields });
      expect(edited.statusCode, JSON.stringify(fields)).toBe(400);
    }
    expect(await count()).toBe(before);
    expect(await ok('GET', `services/${service.uid}`, home.headers)).toEqual(service);
  });

  it('lists by part of the name ignoring case and by active, paged in creation order', async () => {
    const { headers } = await signedInUser(t, 'ADMIN');
    const a = await create({ name: 'Machine translation' }, headers);
    const b = await create({ name: 'MACHINE review', active: false }, headers);
    const c = await create({ name: 'Desktop publishing' }, headers);
    const uids = (page: { content: { uid: string }[] }) => page.content.map((s) => s.uid);
    expect(uids(await ok('GET', 'services', headers))).toEqual([a.uid, b.uid, c.uid]);
    expect(uids(await ok('GET', 'services?name=machine', headers))).toEqual([a.uid, b.uid]);
    expect(uids(await ok('GET', 'services?active=false', headers))).toEqual([b.uid]);
    expect(uids(await ok('GET', 'services?active=true&name=MACHINE', headers))).toEqual([a.uid]);
    expect(await ok('GET', 'services?pageSize=2&pageNumber=1', headers)).toMatchObject({
      totalElements: 3,
      totalPages: 2,
      numberOfElements: 1,
      content: [{ uid: c.uid }],
    });
    expect((await api('GET', 'services?pageSize=51', headers)).statusCode).toBe(400);
  });

  it('project managers read services; creating, editing and deleting need setupServer; other roles are refused', async () => {
    const service = await create({ name: unique('Access') });
    const limited = await projectManager({ setupServer: false });
    expect((await ok('GET', 'services', limited.headers)).totalElements).toBeGreaterThan(0);
    await ok('GET', `services/${service.uid}`, limited.headers);
    expect((await api('POST', 'services', limited.headers, { name: unique('No') })).statusCode).toBe(403);
    expect((await api('PUT', `services/${service.uid}`, limited.headers, { active: false })).statusCode).toBe(403);
    expect((await api('DELETE', 'services', limited.headers, { services: [{ uid: service.uid }] })).statusCode).toBe(403);
    const linguist = await signedInUser(t, 'LINGUIST', home.organization);
    expect((await api('GET', 'services', linguist.headers)).statusCode).toBe(403);
    const setup = await projectManager();
    const made = await create({ name: unique('By PM') }, setup.headers);
    expect(made.createdBy.uid).toBe(setup.uid);
    await ok('DELETE', 'services', setup.headers, { services: [{ uid: made.uid }] }, 204);
  });

  it('another organization’s service is 404 everywhere', async () => {
    const service = await create({ name: unique('Private') });
    expect((await api('GET', `services/${service.uid}`, other.headers)).statusCode).toBe(404);
    expect((await api('PUT', `services/${service.uid}`, other.headers, { active: false })).statusCode).toBe(404);
    expect((await api('DELETE', 'services', other.headers, { services: [{ uid: service.uid }] })).statusCode).toBe(404);
    expect((await ok('GET', `services/${service.uid}`, home.headers)).active).toBe(true);
  });

  it('deletes a batch all or none; an empty batch is 400', async () => {
    const a = await create({ name: unique('Batch A') });
    const b = await create({ name: unique('Batch B') });
    expect((await api('DELETE', 'services', home.headers, { services: [] })).statusCode).toBe(400);
    const unknown = await api('DELETE', 'services', home.headers, { services: [{ uid: a.uid }, { uid: 'missing' }] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorDetails).toEqual([{ field: 'services', message: 'unknown uid "missing"' }]);
    await ok('GET', `services/${a.uid}`, home.headers);
    await ok('DELETE', 'services', home.headers, { services: [{ uid: a.uid }, { uid: b.uid }, { uid: a.uid }] }, 204);
    expect((await api('GET', `services/${a.uid}`, home.headers)).statusCode).toBe(404);
    expect((await api('GET', `services/${b.uid}`, home.headers)).statusCode).toBe(404);
    // The name is free again.
    await create({ name: a.name });
  });

  it('deleting a workflow step removes it from services; deleting a project template clears the reference', async () => {
    const gone = await workflowStep(home.organization.id, 1);
    const kept = await workflowStep(home.organization.id, 2);
    const tpl = await template(home.organization.id);
    const service = await create({
      name: unique('Cascade'),
      workflowSteps: [{ uid: gone.uid }, { uid: kept.uid }],
      projectTemplate: { uid: tpl.uid },
    });
    expect(service.workflowSteps).toHaveLength(2);
    await loose().deleteFrom('workflowSteps').where('id', '=', gone.id).execute();
    await t.database.db.deleteFrom('projectTemplates').where('id', '=', tpl.id).execute();
    expect(await ok('GET', `services/${service.uid}`, home.headers)).toMatchObject({
      workflowSteps: [{ uid: kept.uid }],
      projectTemplate: null,
    });
  });
});
