import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, signedInUser } from './factories.js';

/** Issue 5: due date schemes (OpenTMS design): per-step offsets, unique names, access. */

interface Step {
  id: string;
  uid: string;
  name: string;
  order: number;
  lqaEnabled: boolean;
}

describe('due date schemes', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Record<string, string>;
  let steps: Step[];

  const api = (method: 'GET' | 'POST' | 'DELETE', path: string, h: Record<string, string> = headers, payload?: unknown) =>
    t.inject({
      method,
      url: `/api2/v1/dueDateSchemes${path}`,
      headers: h,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function create(payload: Record<string, unknown>, h = headers) {
    const response = await api('POST', '', h, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    steps = (await t.inject({ url: '/api2/v1/workflowSteps?sort=ORDER', headers })).json().content;
  });
  afterAll(() => t.close());

  it('a new organization has none', async () => {
    expect((await api('GET', '')).json()).toMatchObject({ totalElements: 0, content: [] });
  });

  it('creates a scheme with offsets per workflow step, listed in workflow order, and reads it', async () => {
    const [translation, revision, review] = steps;
    const scheme = await create({
      name: ' Standard ',
      description: 'Two days for review',
      workflowSteps: [
        { workflowStep: { uid: review!.uid }, offsetDays: 0 },
        { workflowStep: { uid: translation!.uid }, offsetDays: 3, offsetHours: 12 },
        { workflowStep: { uid: revision!.uid }, offsetDays: 2 },
      ],
    });
    const ref = (s: Step) => ({ id: s.id, uid: s.uid, name: s.name, order: s.order, lqaEnabled: s.lqaEnabled });
    expect(scheme).toMatchObject({
      name: 'Standard',
      description: 'Two days for review',
      workflowSteps: [
        { workflowStep: ref(translation!), offsetDays: 3, offsetHours: 12 },
        { workflowStep: ref(revision!), offsetDays: 2, offsetHours: 0 },
        { workflowStep: ref(review!), offsetDays: 0, offsetHours: 0 },
      ],
      createdBy: { uid: admin.user.uid, userName: admin.user.userName },
      dateCreated: t.clock().toISOString(),
    });
    expect(scheme.uid).toMatch(/^[0-9A-Za-z]{22}$/);
    expect((await api('GET', `/${scheme.uid}`)).json()).toEqual(scheme);
    const minimal = await create({ name: 'Bare' });
    expect(minimal).toMatchObject({ name: 'Bare', description: null, workflowSteps: [] });
  });

  it('lists by name with a name filter and paging', async () => {
    await create({ name: 'Express' });
    const all = (await api('GET', '')).json();
    expect(all.content.map((s: { name: string }) => s.name)).toEqual(['Bare', 'Express', 'Standard']);
    expect((await api('GET', '?name=PRES')).json().content.map((s: { name: string }) => s.name)).toEqual(['Express']);
    const page = (await api('GET', '?pageSize=2&pageNumber=1')).json();
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 1 });
    expect(page.content[0].name).toBe('Standard');
    expect(page.content[0].workflowSteps).toHaveLength(3);
  });

  it('keeps names unique in the organization, ignoring case (409)', async () => {
    const clash = await api('POST', '', headers, { name: 'STANDARD' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ errorCode: 'NameAlreadyExists', errorDetails: [{ field: 'name', message: 'already exists' }] });
    const other = await signedInUser(t, 'ADMIN');
    await create({ name: 'Standard' }, other.headers);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const other = await signedInUser(t, 'ADMIN');
    const theirStep = (await t.inject({ url: '/api2/v1/workflowSteps', headers: other.headers })).json().content[0];
    const before = (await api('GET', '')).json().totalElements;
    const uid = steps[0]!.uid;
    for (const [payload, code] of [
      [{}, 'InvalidArguments'],
      [{ name: '  ' }, 'InvalidArguments'],
      [{ name: 'Neg', workflowSteps: [{ workflowStep: { uid }, offsetDays: -1 }] }, 'InvalidArguments'],
      [{ name: 'Hours', workflowSteps: [{ workflowStep: { uid }, offsetHours: 24 }] }, 'InvalidArguments'],
      [{ name: 'Twice', workflowSteps: [{ workflowStep: { uid } }, { workflowStep: { uid } }] }, 'InvalidArguments'],
      [{ name: 'Unknown', workflowSteps: [{ workflowStep: { uid: 'noSuchStep' } }] }, 'ReferenceNotFound'],
      [{ name: 'Foreign', workflowSteps: [{ workflowStep: { uid: theirStep.uid } }] }, 'ReferenceNotFound'],
    ] as const) {
      const response = await api('POST', '', headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errorCode).toBe(code);
    }
    expect((await api('GET', '')).json().totalElements).toBe(before);
  });

  it('deleting a workflow step removes its offsets; deleting a scheme removes it', async () => {
    const extra = (
      await t.inject({ method: 'POST', url: '/api2/v1/workflowSteps', headers, payload: { name: 'Proofreading', abbr: 'P' } })
    ).json();
    const scheme = await create({
      name: 'With proofreading',
      workflowSteps: [
        { workflowStep: { uid: extra.uid }, offsetDays: 1 },
        { workflowStep: { uid: steps[0]!.uid }, offsetDays: 4 },
      ],
    });
    expect(scheme.workflowSteps).toHaveLength(2);
    expect((await t.inject({ method: 'DELETE', url: `/api2/v1/workflowSteps/${extra.uid}`, headers })).statusCode).toBe(204);
    expect((await api('GET', `/${scheme.uid}`)).json().workflowSteps.map((s: { workflowStep: Step }) => s.workflowStep.uid)).toEqual([
      steps[0]!.uid,
    ]);

    expect((await api('DELETE', `/${scheme.uid}`)).statusCode).toBe(204);
    expect((await api('GET', `/${scheme.uid}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/${scheme.uid}`)).statusCode).toBe(404);
    expect(await t.database.db.selectFrom('dueDateSchemeSteps').select('id').where('dueDateSchemeId', '=', scheme.id).execute()).toEqual(
      [],
    );
  });

  it('another organization’s scheme is 404', async () => {
    const other = await signedInUser(t, 'ADMIN');
    const theirs = await create({ name: 'Theirs' }, other.headers);
    expect((await api('GET', `/${theirs.uid}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/${theirs.uid}`)).statusCode).toBe(404);
    expect((await api('GET', `/${theirs.uid}`, other.headers)).statusCode).toBe(200);
  });

  it('ADMIN and PROJECT_MANAGER read; writing needs the setupServer right; other roles are refused', async () => {
    const pm = async (setupServer: boolean) => {
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
      const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', response.json().uid).executeTakeFirstOrThrow();
      return apiToken(await loginAs(t, row, 'a good password'));
    };
    const without = await pm(false);
    const withRight = await pm(true);
    expect((await api('GET', '', without)).statusCode).toBe(200);
    expect((await api('POST', '', without, { name: 'By PM' })).statusCode).toBe(403);
    const made = await create({ name: 'By PM' }, withRight);
    expect((await api('GET', `/${made.uid}`, without)).statusCode).toBe(200);
    expect((await api('DELETE', `/${made.uid}`, without)).statusCode).toBe(403);
    expect((await api('DELETE', `/${made.uid}`, withRight)).statusCode).toBe(204);
    for (const role of ['LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
      const { headers: h } = await signedInUser(t, role, admin.organization);
      expect((await api('GET', '', h)).statusCode, role).toBe(403);
    }
  });
});
