import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { DEFAULT_NET_RATES, NET_RATE_BANDS } from '../src/domain/pricing/net-rates.js';
import { parseRoleSettings, roleSettingsFromInput } from '../src/domain/users/role-settings.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeClient, makeUser, signedInUser } from './factories.js';

/** Net rate schemes (Net Rate Scheme operations): rates, defaults, workflow step schemes, clone, delete, access. */

interface Step {
  id: string;
  uid: string;
  name: string;
  order: number;
  lqaEnabled: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const DEFAULTS_ON_WIRE = Object.fromEntries(NET_RATE_BANDS.map((band) => [band, Number(DEFAULT_NET_RATES[band])]));

describe('net rate schemes', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Record<string, string>;
  let steps: Step[];

  const api = (method: Method, path: string, h: Record<string, string> = headers, payload?: unknown, version = 'v1') =>
    t.inject({
      method,
      url: `/api2/${version}/netRateSchemes${path}`,
      headers: h,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function create(payload: Record<string, unknown>, h = headers, version = 'v1') {
    const response = await api('POST', '', h, payload, version);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const ref = (s: Step) => ({ id: s.id, uid: s.uid, name: s.name, order: s.order, lqaEnabled: s.lqaEnabled });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    steps = (await t.inject({ url: '/api2/v1/workflowSteps?sort=ORDER', headers })).json().content;
    expect(steps.length).toBeGreaterThanOrEqual(3);
  });
  afterAll(() => t.close());

  it('a new organization has none', async () => {
    expect((await api('GET', '')).json()).toMatchObject({ totalElements: 0, content: [] });
  });

  it('creates a scheme: the defaults for bands left out, the organization, the creator', async () => {
    const scheme = await create({ name: '  Standard  ', rates: { tm100: 12.5, mt0: 33.33 } });
    expect(scheme).toMatchObject({
      name: 'Standard',
      organization: { uid: admin.organization.uid, name: admin.organization.name },
      createdBy: { uid: admin.user.uid, userName: admin.user.userName },
      dateCreated: '2026-11-21T12:00:00.000Z',
      workflowStepNetSchemes: [],
      rates: { ...DEFAULTS_ON_WIRE, tm100: 12.5, mt0: 33.33 },
    });
    expect(scheme.id).toMatch(/^\d+$/);
    const stored = await t.database.db.selectFrom('netRateSchemes').select('rates').where('uid', '=', scheme.uid).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.rates)).toMatchObject({ tm100: '12.5', mt0: '33.33', repetition: DEFAULT_NET_RATES.repetition });
    const read = await api('GET', `/${scheme.uid}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(scheme);
    // Older clients name records by their numeric id.
    expect((await api('GET', `/${scheme.id}`)).json()).toEqual(scheme);
  });

  it('keeps decimal rates exactly and refuses more than 2 decimal places or values out of 0..100, naming the band', async () => {
    const scheme = await create({ name: 'Decimals', rates: { tm95: 0.01, tm85: 99.99, tm75: 12.5, tm50: 33.33, tm0: 0, if0: 100 } });
    const read = await api('GET', `/${scheme.uid}`);
    expect(read.body).toContain('"tm95":0.01');
    expect(read.body).toContain('"tm85":99.99');
    expect(read.body).toContain('"tm75":12.5');
    expect(read.body).toContain('"tm50":33.33');
    for (const [rates, field] of [
      [{ tm95: 12.345 }, 'rates.tm95'],
      [{ mt50: 100.5 }, 'rates.mt50'],
      [{ nt0: -1 }, 'rates.nt0'],
      [{ if85: '12' }, 'rates.if85'],
    ] as const) {
      const response = await api('POST', '', headers, { name: `Bad ${field}`, rates });
      expect(response.statusCode, JSON.stringify(rates)).toBe(400);
      expect(response.json().errorCode).toBe('InvalidArguments');
      expect(response.json().errorDetails.map((d: { field: string }) => d.field)).toContain(field);
    }
    const step = await api('POST', '', headers, {
      name: 'Bad step',
      workflowStepNetSchemes: [{ workflowStep: { id: steps[0]!.id }, rates: { tm0: 1.234 } }],
    });
    expect(step.statusCode).toBe(400);
    expect(step.json().errorDetails[0].field).toBe('workflowStepNetSchemes.0.rates.tm0');
    const edit = await api('PUT', `/${scheme.uid}`, headers, { name: 'Decimals', rates: { tm100: 50.001 } });
    expect(edit.statusCode).toBe(400);
    expect((await api('GET', `/${scheme.uid}`)).json().rates.tm100).toBe(DEFAULTS_ON_WIRE.tm100);
  });

  it('names are trimmed, required, at most 255 characters and unique ignoring case', async () => {
    await create({ name: 'Unique Name' });
    const taken = await api('POST', '', headers, { name: ' unique name ' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ errorCode: 'NameAlreadyExists', errorDetails: [{ field: 'name' }] });
    expect((await api('POST', '', headers, { name: '   ' })).statusCode).toBe(400);
    expect((await api('POST', '', headers, { name: 'x'.repeat(256) })).statusCode).toBe(400);
    expect((await api('POST', '', headers, { rates: {} })).statusCode).toBe(400);
    // Another organization may use the same name.
    const other = await signedInUser(t, 'ADMIN');
    await create({ name: 'Unique Name' }, other.headers);
  });

  it('edits: the name, and the rates given while the others stay', async () => {
    const scheme = await create({ name: 'To edit', rates: { tm100: 10, tm95: 20 } });
    const edited = await api('PUT', `/${scheme.uid}`, headers, { name: 'Edited', rates: { tm95: 22.5, repetition: 0 } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      uid: scheme.uid,
      name: 'Edited',
      rates: { ...DEFAULTS_ON_WIRE, tm100: 10, tm95: 22.5, repetition: 0 },
    });
    // Without rates only the name changes; its own name in another case is not a conflict.
    const renamed = await api('PUT', `/${scheme.uid}`, headers, { name: 'EDITED' });
    expect(renamed.json()).toMatchObject({ name: 'EDITED', rates: { tm100: 10, tm95: 22.5, repetition: 0 } });
    await create({ name: 'Someone else' });
    expect((await api('PUT', `/${scheme.uid}`, headers, { name: 'someone ELSE' })).statusCode).toBe(409);
    expect((await api('PUT', `/${newUid()}`, headers, { name: 'Nope' })).statusCode).toBe(404);
  });

  it('workflow step schemes: inherit the scheme rates, listed in workflow order, read and edited one by one', async () => {
    const [first, second, third] = steps;
    const scheme = await create({
      name: 'With steps',
      rates: { tm100: 30 },
      workflowStepNetSchemes: [{ workflowStep: { id: third!.id }, rates: { tm100: 5, mt100: 7.5 } }, { workflowStep: { id: first!.id } }],
    });
    expect(scheme.workflowStepNetSchemes.map((s: { workflowStep: Step }) => s.workflowStep)).toEqual([ref(first!), ref(third!)]);
    const [firstScheme, thirdScheme] = scheme.workflowStepNetSchemes as { id: string }[];

    const list = await api('GET', `/${scheme.uid}/workflowStepNetSchemes`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      totalElements: 2,
      totalPages: 1,
      pageSize: 50,
      pageNumber: 0,
      numberOfElements: 2,
      content: [
        { id: firstScheme!.id, workflowStep: ref(first!) },
        { id: thirdScheme!.id, workflowStep: ref(third!) },
      ],
    });
    const paged = await api('GET', `/${scheme.uid}/workflowStepNetSchemes?pageSize=1&pageNumber=1`);
    expect(paged.json()).toMatchObject({ totalElements: 2, totalPages: 2, numberOfElements: 1, content: [{ id: thirdScheme!.id }] });

    const inherited = await api('GET', `/${scheme.uid}/workflowStepNetSchemes/${firstScheme!.id}`);
    expect(inherited.json()).toEqual({ id: firstScheme!.id, workflowStep: ref(first!), rates: { ...DEFAULTS_ON_WIRE, tm100: 30 } });
    const own = await api('GET', `/${scheme.uid}/workflowStepNetSchemes/${thirdScheme!.id}`);
    expect(own.json().rates).toEqual({ ...DEFAULTS_ON_WIRE, tm100: 5, mt100: 7.5 });

    const edited = await api('PUT', `/${scheme.uid}/workflowStepNetSchemes/${thirdScheme!.id}`, headers, {
      rates: { tm0: 12.5, tm100: 6 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toEqual({
      id: thirdScheme!.id,
      workflowStep: ref(third!),
      rates: { ...DEFAULTS_ON_WIRE, tm100: 6, mt100: 7.5, tm0: 12.5 },
    });
    expect(
      (await api('PUT', `/${scheme.uid}/workflowStepNetSchemes/${thirdScheme!.id}`, headers, { rates: { tm0: 1.001 } })).statusCode,
    ).toBe(400);

    // Editing the scheme's rates leaves the workflow step schemes as they are (they inherit at creation only).
    await api('PUT', `/${scheme.uid}`, headers, { name: 'With steps', rates: { tm100: 40 } });
    expect((await api('GET', `/${scheme.uid}/workflowStepNetSchemes/${firstScheme!.id}`)).json().rates.tm100).toBe(30);

    // A step scheme of another scheme, or an unknown one, is not found.
    const otherScheme = await create({ name: 'Other steps', workflowStepNetSchemes: [{ workflowStep: { id: second!.id } }] });
    const otherStepId = otherScheme.workflowStepNetSchemes[0].id;
    expect((await api('GET', `/${scheme.uid}/workflowStepNetSchemes/${otherStepId}`)).statusCode).toBe(404);
    expect((await api('PUT', `/${scheme.uid}/workflowStepNetSchemes/${otherStepId}`, headers, { rates: {} })).statusCode).toBe(404);
    expect((await api('GET', `/${scheme.uid}/workflowStepNetSchemes/999999`)).statusCode).toBe(404);
    expect((await api('GET', `/${scheme.uid}/workflowStepNetSchemes/abc`)).statusCode).toBe(400);
  });

  it('refuses unknown workflow steps (ReferenceNotFound) and the same step twice', async () => {
    const unknown = await api('POST', '', headers, { name: 'Unknown step', workflowStepNetSchemes: [{ workflowStep: { id: '999999' } }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ errorCode: 'ReferenceNotFound', errorDetails: [{ field: 'workflowStepNetSchemes' }] });
    const notNumeric = await api('POST', '', headers, {
      name: 'Unknown step',
      workflowStepNetSchemes: [{ workflowStep: { id: steps[0]!.uid } }],
    });
    expect(notNumeric.json().errorCode).toBe('ReferenceNotFound');
    // A workflow step of another organization is unknown here.
    const other = await signedInUser(t, 'ADMIN');
    const foreignStep = (await t.inject({ url: '/api2/v1/workflowSteps', headers: other.headers })).json().content[0];
    const foreign = await api('POST', '', headers, {
      name: 'Foreign step',
      workflowStepNetSchemes: [{ workflowStep: { id: foreignStep.id } }],
    });
    expect(foreign.json().errorCode).toBe('ReferenceNotFound');
    const twice = await api('POST', '', headers, {
      name: 'Twice',
      workflowStepNetSchemes: [{ workflowStep: { id: steps[0]!.id } }, { workflowStep: { id: steps[0]!.id } }],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errorCode).toBe('InvalidArguments');
    expect((await api('GET', '')).json().content.map((s: { name: string }) => s.name)).not.toContain('Twice');
  });

  it('v2 create takes the v1 body; v2 edit replaces the workflow step schemes when given, keeps them when left out', async () => {
    const [first, second, third] = steps;
    const scheme = await create(
      {
        name: 'Version 2',
        rates: { tm100: 20 },
        workflowStepNetSchemes: [{ workflowStep: { id: first!.id }, rates: { tm0: 50 } }, { workflowStep: { id: second!.id } }],
      },
      headers,
      'v2',
    );
    const [firstScheme] = scheme.workflowStepNetSchemes as { id: string }[];

    const kept = await api('PUT', `/${scheme.uid}`, headers, { name: 'Version 2', rates: { tm95: 1 } }, 'v2');
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().workflowStepNetSchemes).toEqual(scheme.workflowStepNetSchemes);

    const replaced = await api(
      'PUT',
      `/${scheme.uid}`,
      headers,
      {
        name: 'Version 2b',
        rates: { tm100: 21 },
        workflowStepNetSchemes: [{ workflowStep: { id: third!.id } }, { workflowStep: { id: first!.id }, rates: { tm85: 3 } }],
      },
      'v2',
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    const body = replaced.json();
    expect(body).toMatchObject({ name: 'Version 2b', rates: { tm100: 21, tm95: 1 } });
    expect(body.workflowStepNetSchemes.map((s: { workflowStep: Step }) => s.workflowStep.id)).toEqual([first!.id, third!.id]);
    // The step already listed keeps its id and its own rates, with the bands given replaced.
    expect(body.workflowStepNetSchemes[0].id).toBe(firstScheme!.id);
    const firstRates = (await api('GET', `/${scheme.uid}/workflowStepNetSchemes/${firstScheme!.id}`)).json().rates;
    expect(firstRates).toEqual({ ...DEFAULTS_ON_WIRE, tm100: 20, tm0: 50, tm85: 3 });
    // A new step starts from the scheme's rates after the edit.
    const thirdRates = (await api('GET', `/${scheme.uid}/workflowStepNetSchemes/${body.workflowStepNetSchemes[1].id}`)).json().rates;
    expect(thirdRates).toEqual({ ...DEFAULTS_ON_WIRE, tm100: 21, tm95: 1 });

    const emptied = await api('PUT', `/${scheme.uid}`, headers, { name: 'Version 2b', workflowStepNetSchemes: [] }, 'v2');
    expect(emptied.json().workflowStepNetSchemes).toEqual([]);

    const bad = await api(
      'PUT',
      `/${scheme.uid}`,
      headers,
      { name: 'Version 2c', workflowStepNetSchemes: [{ workflowStep: { id: '999999' } }] },
      'v2',
    );
    expect(bad.statusCode).toBe(400);
    expect((await api('GET', `/${scheme.uid}`)).json().name).toBe('Version 2b');
  });

  it('clones with the rates and workflow step schemes; the copy is named "<name> (copy)", then "(copy 2)", or as asked', async () => {
    const source = await create({
      name: 'Original',
      rates: { tm100: 12.5 },
      workflowStepNetSchemes: [{ workflowStep: { id: steps[1]!.id }, rates: { mt0: 44.44 } }],
    });
    const copy = await api('POST', `/${source.uid}/clone`);
    expect(copy.statusCode, copy.body).toBe(201);
    const clone = copy.json();
    expect(clone).toMatchObject({ name: 'Original (copy)', rates: source.rates, createdBy: { uid: admin.user.uid } });
    expect(clone.uid).not.toBe(source.uid);
    expect(clone.workflowStepNetSchemes).toHaveLength(1);
    expect(clone.workflowStepNetSchemes[0].workflowStep).toEqual(source.workflowStepNetSchemes[0].workflowStep);
    expect(clone.workflowStepNetSchemes[0].id).not.toBe(source.workflowStepNetSchemes[0].id);
    const stepRates = (await api('GET', `/${clone.uid}/workflowStepNetSchemes/${clone.workflowStepNetSchemes[0].id}`)).json().rates;
    expect(stepRates.mt0).toBe(44.44);

    expect((await api('POST', `/${source.uid}/clone`, headers, {})).json().name).toBe('Original (copy 2)');
    expect((await api('POST', `/${source.uid}/clone`, headers, { name: ' Named copy ' })).json().name).toBe('Named copy');
    expect((await api('POST', `/${source.uid}/clone`, headers, { name: 'original' })).statusCode).toBe(409);

    const long = await create({ name: 'L'.repeat(255) });
    const longCopy = (await api('POST', `/${long.uid}/clone`)).json();
    expect(longCopy.name).toHaveLength(255);
    expect(longCopy.name.endsWith(' (copy)')).toBe(true);
    expect((await api('POST', `/${newUid()}/clone`)).statusCode).toBe(404);
  });

  it('deletes a scheme with its workflow step schemes and clears the references to it', async () => {
    const db = t.database.db;
    const scheme = await create({ name: 'Doomed', workflowStepNetSchemes: [{ workflowStep: { id: steps[0]!.id } }] });
    const keep = await create({ name: 'Kept' });

    // A client referring to it: through the API where clients take net rate schemes, else set directly.
    const viaApi = await t.inject({
      method: 'POST',
      url: '/api2/v1/clients',
      headers,
      payload: { name: 'Rated client', netRateScheme: { id: scheme.id } },
    });
    const client =
      viaApi.statusCode === 201
        ? await db.selectFrom('clients').selectAll().where('uid', '=', viaApi.json().uid).executeTakeFirstOrThrow()
        : await makeClient(db, admin.organization);
    await db.updateTable('clients').set({ netRateSchemeId: scheme.id }).where('id', '=', client.id).execute();
    const otherClient = await makeClient(db, admin.organization);
    await db.updateTable('clients').set({ netRateSchemeId: keep.id }).where('id', '=', otherClient.id).execute();

    // A project and a template whose financial settings name it.
    const project = await t.inject({
      method: 'POST',
      url: '/api2/v3/projects',
      headers,
      payload: { name: 'P', sourceLang: 'en', targetLangs: ['de'] },
    });
    expect(project.statusCode, project.body).toBe(201);
    const template = await t.inject({
      method: 'POST',
      url: '/api2/v1/projectTemplates',
      headers,
      payload: { project: { uid: project.json().uid }, name: 'T' },
    });
    expect(template.statusCode, template.body).toBe(201);
    // Stored as setup-records stores them: the ids of the scheme and the price list.
    const withScheme = (priceListId: string | null) =>
      JSON.stringify({ financialSettings: { priceListId, netRateSchemeId: String(scheme.id) }, other: 1 });
    await db
      .updateTable('projects')
      .set({ settings: withScheme(null) })
      .where('uid', '=', project.json().uid)
      .execute();
    await db
      .updateTable('projectTemplates')
      .set({ settings: withScheme('77') })
      .where('uid', '=', template.json().uid)
      .execute();
    const otherProject = await t.inject({
      method: 'POST',
      url: '/api2/v3/projects',
      headers,
      payload: { name: 'Q', sourceLang: 'en', targetLangs: ['de'] },
    });
    const keptSettings = JSON.stringify({ financialSettings: { priceListId: null, netRateSchemeId: String(keep.id) } });
    await db.updateTable('projects').set({ settings: keptSettings }).where('uid', '=', otherProject.json().uid).execute();

    // A linguist whose role settings name it.
    const linguist = await makeUser(db, admin.organization, { role: 'LINGUIST' });
    const settings = roleSettingsFromInput('LINGUIST', { netRateScheme: { uid: scheme.uid } });
    await db
      .updateTable('users')
      .set({ roleSettings: JSON.stringify(settings) })
      .where('id', '=', linguist.id)
      .execute();

    const deleted = await api('DELETE', `/${scheme.uid}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await api('GET', `/${scheme.uid}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/${scheme.uid}`)).statusCode).toBe(404);
    expect(await db.selectFrom('netRateSchemeSteps').select('id').where('netRateSchemeId', '=', scheme.id).execute()).toEqual([]);

    const clients = await db
      .selectFrom('clients')
      .select(['id', 'netRateSchemeId'])
      .where('id', 'in', [client.id, otherClient.id])
      .orderBy('id')
      .execute();
    expect(clients.map((c) => (c.netRateSchemeId === null ? null : String(c.netRateSchemeId)))).toEqual([null, String(keep.id)]);
    if (viaApi.statusCode === 201) {
      const read = await t.inject({ url: `/api2/v1/clients/${viaApi.json().uid}`, headers });
      expect(read.json().netRateScheme).toBeNull();
    }
    const settingsOf = async (table: 'projects' | 'projectTemplates', uid: string) =>
      JSON.parse((await db.selectFrom(table).select('settings').where('uid', '=', uid).executeTakeFirstOrThrow()).settings);
    expect(await settingsOf('projects', project.json().uid)).toEqual({ other: 1 });
    expect(await settingsOf('projectTemplates', template.json().uid)).toEqual({
      financialSettings: { priceListId: '77', netRateSchemeId: null },
      other: 1,
    });
    expect(await settingsOf('projects', otherProject.json().uid)).toEqual(JSON.parse(keptSettings));
    const user = await db.selectFrom('users').select(['role', 'roleSettings']).where('id', '=', linguist.id).executeTakeFirstOrThrow();
    expect(parseRoleSettings(user.role, user.roleSettings).references.netRateScheme).toBeNull();
    expect((await api('GET', `/${keep.uid}`)).statusCode).toBe(200);
  });

  it('lists by name, paged', async () => {
    const other = await signedInUser(t, 'ADMIN');
    for (const name of ['beta', 'Alpha', 'gamma']) await create({ name }, other.headers);
    const page = await api('GET', '?pageSize=2', other.headers);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ totalElements: 3, totalPages: 2, pageSize: 2, pageNumber: 0, numberOfElements: 2 });
    expect(page.json().content.map((s: { name: string }) => s.name)).toEqual(['Alpha', 'beta']);
    expect(Object.keys(page.json().content[0]).sort()).toEqual(['createdBy', 'dateCreated', 'id', 'name', 'uid']);
    expect((await api('GET', '?pageNumber=1&pageSize=2', other.headers)).json().content.map((s: { name: string }) => s.name)).toEqual([
      'gamma',
    ]);
    expect((await api('GET', '?pageSize=51', other.headers)).statusCode).toBe(400);
  });

  it("another organization's scheme is not found", async () => {
    const theirs = await signedInUser(t, 'ADMIN');
    const scheme = await create({ name: 'Theirs', workflowStepNetSchemes: [{ workflowStep: { id: steps[0]!.id } }] });
    const stepId = scheme.workflowStepNetSchemes[0].id;
    const h = theirs.headers;
    expect((await api('GET', `/${scheme.uid}`, h)).statusCode).toBe(404);
    expect((await api('GET', `/${scheme.id}`, h)).statusCode).toBe(404);
    expect((await api('PUT', `/${scheme.uid}`, h, { name: 'Mine' })).statusCode).toBe(404);
    expect((await api('PUT', `/${scheme.uid}`, h, { name: 'Mine' }, 'v2')).statusCode).toBe(404);
    expect((await api('POST', `/${scheme.uid}/clone`, h)).statusCode).toBe(404);
    expect((await api('GET', `/${scheme.uid}/workflowStepNetSchemes`, h)).statusCode).toBe(404);
    expect((await api('GET', `/${scheme.uid}/workflowStepNetSchemes/${stepId}`, h)).statusCode).toBe(404);
    expect((await api('PUT', `/${scheme.uid}/workflowStepNetSchemes/${stepId}`, h, { rates: {} })).statusCode).toBe(404);
    expect((await api('DELETE', `/${scheme.uid}`, h)).statusCode).toBe(404);
    expect((await api('GET', `/${scheme.uid}`)).statusCode).toBe(200);
    expect((await api('GET', '', h)).json().content.map((s: { uid: string }) => s.uid)).not.toContain(scheme.uid);
  });

  it('ADMIN and PROJECT_MANAGER read; writing needs ADMIN or the setupServer right; other roles are refused', async () => {
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
      expect(response.statusCode, response.body).toBe(201);
      const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', response.json().uid).executeTakeFirstOrThrow();
      return apiToken(await loginAs(t, row, 'a good password'));
    };
    const without = await pm(false);
    const withRight = await pm(true);
    const scheme = await create({ name: 'Access', workflowStepNetSchemes: [{ workflowStep: { id: steps[0]!.id } }] });
    const stepId = scheme.workflowStepNetSchemes[0].id;

    expect((await api('GET', '', without)).statusCode).toBe(200);
    expect((await api('GET', `/${scheme.uid}`, without)).statusCode).toBe(200);
    expect((await api('GET', `/${scheme.uid}/workflowStepNetSchemes`, without)).statusCode).toBe(200);
    expect((await api('GET', `/${scheme.uid}/workflowStepNetSchemes/${stepId}`, without)).statusCode).toBe(200);
    expect((await api('POST', '', without, { name: 'By PM' })).statusCode).toBe(403);
    expect((await api('POST', '', without, { name: 'By PM' }, 'v2')).statusCode).toBe(403);
    expect((await api('PUT', `/${scheme.uid}`, without, { name: 'By PM' })).statusCode).toBe(403);
    expect((await api('PUT', `/${scheme.uid}`, without, { name: 'By PM' }, 'v2')).statusCode).toBe(403);
    expect((await api('PUT', `/${scheme.uid}/workflowStepNetSchemes/${stepId}`, without, { rates: {} })).statusCode).toBe(403);
    expect((await api('POST', `/${scheme.uid}/clone`, without)).statusCode).toBe(403);
    expect((await api('DELETE', `/${scheme.uid}`, without)).statusCode).toBe(403);

    const made = await create({ name: 'By PM' }, withRight);
    expect((await api('PUT', `/${made.uid}`, withRight, { name: 'By PM 2' })).statusCode).toBe(200);
    expect((await api('POST', `/${made.uid}/clone`, withRight)).statusCode).toBe(201);
    expect((await api('DELETE', `/${made.uid}`, withRight)).statusCode).toBe(204);

    for (const role of ['LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
      const user = await makeUser(t.database.db, admin.organization, { role });
      const h = apiToken(await loginAs(t, user));
      expect((await api('GET', '', h)).statusCode, role).toBe(403);
      expect((await api('GET', `/${scheme.uid}`, h)).statusCode, role).toBe(403);
      expect((await api('POST', '', h, { name: `By ${role}` })).statusCode, role).toBe(403);
    }
    expect((await api('GET', '', {})).statusCode).toBe(401);
  });
});
