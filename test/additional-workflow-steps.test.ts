import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, signedInUser } from './factories.js';

/** Issue 5: additional workflow steps (unique names, paging and name filter, uid as `id`, access). */

describe('additional workflow steps', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Record<string, string>;

  const api = (method: 'GET' | 'POST' | 'DELETE', path: string, h: Record<string, string> = headers, payload?: unknown) =>
    t.inject({
      method,
      url: `/api2/v1/additionalWorkflowSteps${path}`,
      headers: h,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function create(name: string, h = headers): Promise<{ id: string; name: string }> {
    const response = await api('POST', '', h, { name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function projectManager(setupServer: boolean) {
    const userName = `pm-${newUid().slice(0, 10)}`;
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v3/users',
      headers,
      payload: {
        userName,
        firstName: 'P',
        lastName: 'M',
        email: `${userName}@example.test`,
        password: 'a good password',
        role: 'PROJECT_MANAGER',
        timezone: 'UTC',
        setupServer,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', response.json().uid).executeTakeFirstOrThrow();
    return apiToken(await loginAs(t, row, 'a good password'));
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
  });
  afterAll(() => t.close());

  it('a new organization has none', async () => {
    expect((await api('GET', '')).json()).toMatchObject({ totalElements: 0, content: [] });
  });

  it('creates, lists by name with paging and a name filter, and deletes by the DTO’s id', async () => {
    const dtp = await create('  DTP ');
    expect(dtp).toEqual({ id: dtp.id, name: 'DTP' });
    expect(Object.keys(dtp).sort()).toEqual(['id', 'name']);
    const others = [await create('Terminology check'), await create('Alignment'), await create('Copy editing')];
    const all = (await api('GET', '')).json();
    expect(all.totalElements).toBe(4);
    expect(all.content.map((s: { name: string }) => s.name)).toEqual(['Alignment', 'Copy editing', 'DTP', 'Terminology check']);
    expect((await api('GET', '?name=EDIT')).json().content).toEqual([others[2]]);
    expect((await api('GET', '?name=nothing')).json()).toMatchObject({ totalElements: 0, content: [] });
    const page = (await api('GET', '?pageSize=3&pageNumber=1')).json();
    expect(page).toMatchObject({ totalElements: 4, totalPages: 2, pageNumber: 1, pageSize: 3, numberOfElements: 1 });
    expect(page.content.map((s: { name: string }) => s.name)).toEqual(['Terminology check']);

    expect((await api('DELETE', `/${dtp.id}`)).statusCode).toBe(204);
    expect((await api('DELETE', `/${dtp.id}`)).statusCode).toBe(404);
    expect((await api('GET', '')).json().content.map((s: { id: string }) => s.id)).not.toContain(dtp.id);
  });

  it('keeps names unique in the organization, ignoring case (409); other organizations are separate', async () => {
    await create('Layout');
    const clash = await api('POST', '', headers, { name: 'LAYOUT' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ errorCode: 'NameAlreadyExists', errorDetails: [{ field: 'name', message: 'already exists' }] });
    const races = await Promise.all([1, 2, 3].map(() => api('POST', '', headers, { name: 'Raced' })));
    expect(races.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const other = await signedInUser(t, 'ADMIN');
    const theirs = await create('Layout', other.headers);
    expect((await api('DELETE', `/${theirs.id}`)).statusCode).toBe(404);
    expect((await api('GET', '', other.headers)).json().content).toEqual([theirs]);
  });

  it('refuses invalid names with 400 and writes nothing', async () => {
    const before = (await api('GET', '')).json().totalElements;
    for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(256) }, { name: 7 }]) {
      expect((await api('POST', '', headers, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await api('GET', '')).json().totalElements).toBe(before);
  });

  it('ADMIN and PROJECT_MANAGER list; writing needs the setupServer right; other roles are refused', async () => {
    const step = await create('Guarded');
    const pmWithout = await projectManager(false);
    const pmWith = await projectManager(true);
    expect((await api('GET', '', pmWithout)).statusCode).toBe(200);
    expect((await api('POST', '', pmWithout, { name: 'By PM' })).statusCode).toBe(403);
    expect((await api('DELETE', `/${step.id}`, pmWithout)).statusCode).toBe(403);
    const made = await create('By PM', pmWith);
    expect((await api('DELETE', `/${made.id}`, pmWith)).statusCode).toBe(204);
    for (const role of ['LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
      const { headers: h } = await signedInUser(t, role, admin.organization);
      expect((await api('GET', '', h)).statusCode, role).toBe(403);
      expect((await api('POST', '', h, { name: `By ${role}` })).statusCode, role).toBe(403);
    }
    expect((await api('GET', '')).json().content.map((s: { id: string }) => s.id)).toContain(step.id);
  });
});
