import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeUser, signedInUser } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers } from './support/api.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';

/**
 * LQA profiles (docs/lqa-profiles.md): every operation of the Quality Assurance group's profile
 * part, the deletion rule, assignments through projects and templates, and the project's
 * lqaSettings.
 */

interface Reference {
  uid: string;
  name: string;
  isDefault: boolean;
  createdBy: { uid: string } | null;
  dateCreated: string;
  organization: { uid: string };
}
interface Detail extends Reference {
  errorCategories: Record<string, Record<string, { enabled: boolean; weight: number; code: number }>>;
  penaltyPoints: Record<string, { code: number; value: number }>;
  passFailThreshold: { minScorePercentage: number };
}

describe('LQA profiles', () => {
  let t: TestApp;
  let v1: ReturnType<typeof apiCaller>;
  let api2: ReturnType<typeof apiCaller>;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;
  let pm: UserRow;
  let pmHeaders: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    v1 = apiCaller(t);
    api2 = apiCaller(t, '/api2/');
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
    pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER', firstName: 'Alice', lastName: 'Aardvark' });
    pmHeaders = apiToken(await loginAs(t, pm));
  });
  afterAll(() => t.close());

  const create = async (body: Record<string, unknown>, who: Headers = headers): Promise<Detail> => {
    const response = await v1('POST', 'lqa/profiles', who, { errorCategories: {}, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Detail>();
  };
  const profileCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('lqaProfiles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const steps = async (who: Headers = headers) =>
    (await v1('GET', 'workflowSteps', who)).json<{ content: { id: string; uid: string }[] }>().content;

  it('answers the default values: the spec penalty points, weights, enabled groups and the 99 % threshold', async () => {
    const response = await v1('GET', 'lqa/profiles/defaultValues', headers);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Detail>();
    expect(body.uid).toBeNull();
    expect(body.organization.uid).toBe(organization.uid);
    expect(body.penaltyPoints).toEqual({
      neutral: { code: 1, value: 0 },
      minor: { code: 2, value: 1 },
      major: { code: 3, value: 5 },
      critical: { code: 4, value: 10 },
    });
    expect(body.passFailThreshold).toEqual({ minScorePercentage: 99 });
    expect(Object.keys(body.errorCategories)).toEqual([
      'accuracy',
      'fluency',
      'terminology',
      'style',
      'localeConvention',
      'verity',
      'design',
      'other',
    ]);
    expect(body.errorCategories.accuracy!.accuracy).toEqual({ enabled: true, weight: 1, code: 1 });
    expect(body.errorCategories.accuracy!.omission).toEqual({ enabled: false, weight: 1, code: 3 });
    expect(body.errorCategories.design!.truncation).toEqual({ enabled: false, weight: 1, code: 40 });
  });

  it('creates profiles: the first becomes the default, the body is completed from the defaults', async () => {
    const { organization: org, headers: h } = await signedInUser(t, 'ADMIN');
    expect((await v1('GET', 'lqa/profiles', h)).json()).toMatchObject({ totalElements: 0, content: [] });
    const first = await create({ name: 'First' }, h);
    expect(first).toMatchObject({ name: 'First', isDefault: true, organization: { uid: org.uid } });
    expect(first.passFailThreshold.minScorePercentage).toBe(99);
    const second = await create(
      {
        name: 'Second',
        errorCategories: { fluency: { spelling: { enabled: true, weight: 2.5, code: 999 } } },
        penaltyPoints: { critical: { value: 25 } },
        passFailThreshold: { minScorePercentage: 90 },
      },
      h,
    );
    expect(second.isDefault).toBe(false);
    expect(second.errorCategories.fluency!.spelling).toEqual({ enabled: true, weight: 2.5, code: 11 });
    expect(second.errorCategories.fluency!.fluency).toEqual({ enabled: true, weight: 1, code: 9 });
    expect(second.penaltyPoints.critical).toEqual({ code: 4, value: 25 });
    expect(second.penaltyPoints.major).toEqual({ code: 3, value: 5 });
    expect(second.passFailThreshold.minScorePercentage).toBe(90);
    const got = await v1('GET', `lqa/profiles/${second.uid}`, h);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(second);
  });

  it('updates a profile: the body replaces it, parts left out take their defaults', async () => {
    const profile = await create({ name: 'To edit', penaltyPoints: { minor: { value: 3 } } });
    const response = await v1('PUT', `lqa/profiles/${profile.uid}`, pmHeaders, {
      name: 'Edited',
      errorCategories: { other: { other: { enabled: false, weight: 99.9 } } },
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = response.json<Detail>();
    expect(edited).toMatchObject({ uid: profile.uid, name: 'Edited', isDefault: profile.isDefault, dateCreated: profile.dateCreated });
    expect(edited.errorCategories.other!.other).toEqual({ enabled: false, weight: 99.9, code: 41 });
    expect(edited.penaltyPoints.minor!.value).toBe(1);
    expect((await v1('GET', `lqa/profiles/${profile.uid}`, headers)).json<Detail>().name).toBe('Edited');
    expect((await v1('PUT', 'lqa/profiles/nope', headers, { name: 'x', errorCategories: {} })).statusCode).toBe(404);
  });

  it('refuses bad bodies with 400 and writes nothing', async () => {
    const profile = await create({ name: 'Unchanged' });
    const before = await profileCount();
    const bad: Record<string, unknown>[] = [
      { name: '', errorCategories: {} },
      { name: '   ', errorCategories: {} },
      { name: 'x'.repeat(256), errorCategories: {} },
      { name: 'No categories' },
      { errorCategories: {} },
      { name: 'x', errorCategories: { accuracy: { omission: { weight: 0.05 } } } },
      { name: 'x', errorCategories: { accuracy: { omission: { weight: 100 } } } },
      { name: 'x', errorCategories: {}, penaltyPoints: { minor: { value: -1 } } },
      { name: 'x', errorCategories: {}, penaltyPoints: { minor: { value: 100_001 } } },
      { name: 'x', errorCategories: {}, passFailThreshold: { minScorePercentage: 101 } },
      { name: 'x', errorCategories: {}, passFailThreshold: { minScorePercentage: -1 } },
      { name: 'x', errorCategories: {}, passFailThreshold: {} },
    ];
    for (const body of bad) {
      const created = await v1('POST', 'lqa/profiles', headers, body);
      expect(created.statusCode, JSON.stringify(body)).toBe(400);
      const updated = await v1('PUT', `lqa/profiles/${profile.uid}`, headers, body);
      expect(updated.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await profileCount()).toBe(before);
    expect((await v1('GET', `lqa/profiles/${profile.uid}`, headers)).json<Detail>().name).toBe('Unchanged');
    // The limits themselves are accepted.
    await create({
      name: 'x'.repeat(255),
      errorCategories: { accuracy: { omission: { weight: 0.1 }, addition: { weight: 99.9 } } },
      penaltyPoints: { neutral: { value: 0 }, critical: { value: 100_000 } },
      passFailThreshold: { minScorePercentage: 0 },
    });
  });

  it('lists with filters, sorting and paging, and names the authors (v1 and v2)', async () => {
    const { organization: org, user: owner, headers: h } = await signedInUser(t, 'ADMIN');
    const zed = await makeUser(t.database.db, org, { role: 'PROJECT_MANAGER', firstName: 'Zed', lastName: 'Zulu' });
    const zedHeaders = apiToken(await loginAs(t, zed));
    await makeUser(t.database.db, org, { role: 'PROJECT_MANAGER' }); // no profiles: not an author
    t.clock.set(new Date('2026-03-01T10:00:00Z'));
    const banana = await create({ name: 'Banana' }, h);
    t.clock.set(new Date('2026-03-02T10:00:00Z'));
    const apple = await create({ name: 'apple pie' }, zedHeaders);
    t.clock.set(new Date('2026-03-03T23:59:59Z'));
    const cherry = await create({ name: 'Cherry' }, h);
    const names = async (query: string) => {
      const response = await v1('GET', `lqa/profiles?${query}`, h);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ content: Reference[] }>().content.map((p) => p.name);
    };
    expect(await names('')).toEqual(['apple pie', 'Banana', 'Cherry']);
    expect(await names('sort=NAME&order=DESC')).toEqual(['Cherry', 'Banana', 'apple pie']);
    expect(await names('sort=DATE_CREATED&order=DESC')).toEqual(['Cherry', 'apple pie', 'Banana']);
    expect(await names('sort=DATE_CREATED')).toEqual(['Banana', 'apple pie', 'Cherry']);
    // By creator: the owner ("Test User") before Zed Zulu; then by date, newest first.
    expect(await names('sort=CREATED_BY&sort=DATE_CREATED&order=ASC&order=DESC')).toEqual(['Cherry', 'Banana', 'apple pie']);
    expect(await names('sort=CREATED_BY&order=DESC')).toEqual(['apple pie', 'Banana', 'Cherry']);
    expect(await names('name=AN')).toEqual(['Banana']);
    expect(await names('name=%25')).toEqual([]);
    expect(await names(`createdBy=${zed.uid}`)).toEqual(['apple pie']);
    expect(await names(`createdBy=${owner.id}`)).toEqual(['Banana', 'Cherry']);
    expect(await names('createdBy=nobody')).toEqual([]);
    expect(await names('dateCreated=2026-03-03')).toEqual(['Cherry']);
    expect(await names('dateCreated=2026-03-02T00:00:00Z')).toEqual(['apple pie']);
    expect(await names('dateCreated=2026-03-04')).toEqual([]);
    for (const query of ['dateCreated=yesterday', 'dateCreated=2026-02-30', 'pageSize=51', 'pageSize=0', 'sort=UID', 'order=UP']) {
      expect((await v1('GET', `lqa/profiles?${query}`, h)).statusCode, query).toBe(400);
    }
    const page = await v1('GET', 'lqa/profiles?pageSize=2&pageNumber=1', h);
    expect(page.json()).toMatchObject({ totalElements: 3, totalPages: 2, pageSize: 2, pageNumber: 1, numberOfElements: 1 });
    expect(page.json<{ content: Reference[] }>().content[0]).toMatchObject({
      uid: cherry.uid,
      isDefault: false,
      createdBy: { uid: owner.uid },
      dateCreated: '2026-03-03T23:59:59.000Z',
      organization: { uid: org.uid },
    });
    expect((await v1('GET', 'lqa/profiles', h)).json()).toMatchObject({ pageSize: 20 });
    expect([banana.isDefault, apple.isDefault, cherry.isDefault]).toEqual([true, false, false]);

    const authors = await v1('GET', 'lqa/profiles/authors', h);
    expect(authors.statusCode, authors.body).toBe(200);
    expect(authors.json<{ uid: string }[]>().map((u) => u.uid)).toEqual([owner.uid, zed.uid]);
    const v2 = await api2('GET', 'v2/lqa/profiles/authors?pageSize=1&pageNumber=1', h);
    expect(v2.statusCode, v2.body).toBe(200);
    expect(v2.json()).toMatchObject({
      totalElements: 2,
      totalPages: 2,
      numberOfElements: 1,
      content: [{ uid: zed.uid, firstName: 'Zed' }],
    });
  });

  it('moves the default with makeDefault and duplicates a profile as "<name> (copy)", never default', async () => {
    const { headers: h, user } = await signedInUser(t, 'ADMIN');
    const first = await create({ name: 'One' }, h);
    const second = await create({ name: 'Two', penaltyPoints: { major: { value: 8 } } }, h);
    const made = await v1('POST', `lqa/profiles/${second.uid}/default`, h);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ uid: second.uid, isDefault: true });
    expect((await v1('GET', `lqa/profiles/${first.uid}`, h)).json<Detail>().isDefault).toBe(false);
    expect((await v1('POST', `lqa/profiles/${second.uid}/default`, h)).json<Reference>().isDefault).toBe(true);
    const defaults = (await v1('GET', 'lqa/profiles', h)).json<{ content: Reference[] }>().content.filter((p) => p.isDefault);
    expect(defaults.map((p) => p.uid)).toEqual([second.uid]);

    const copy = await v1('POST', `lqa/profiles/${second.uid}/duplicate`, pmHeaders);
    expect(copy.statusCode).toBe(404); // another organization's profile
    const duplicated = await v1('POST', `lqa/profiles/${second.uid}/duplicate`, h);
    expect(duplicated.statusCode, duplicated.body).toBe(200);
    const dup = duplicated.json<Reference>();
    expect(dup).toMatchObject({ name: 'Two (copy)', isDefault: false, createdBy: { uid: user.uid } });
    const detail = (await v1('GET', `lqa/profiles/${dup.uid}`, h)).json<Detail>();
    expect(detail.penaltyPoints.major!.value).toBe(8);
    const long = await create({ name: 'L'.repeat(255) }, h);
    const longCopy = (await v1('POST', `lqa/profiles/${long.uid}/duplicate`, h)).json<Reference>();
    expect(longCopy.name).toBe(`${'L'.repeat(248)} (copy)`);
    expect((await v1('POST', 'lqa/profiles/nope/default', h)).statusCode).toBe(404);
  });

  it('deletes a profile only when it is not the default and not assigned to a project or a template', async () => {
    const { organization: org, headers: h } = await signedInUser(t, 'ADMIN');
    const [translation, revision] = await steps(h);
    const byDefault = await create({ name: 'Default' }, h);
    const onProject = await create({ name: 'On project' }, h);
    const onTemplate = await create({ name: 'On template' }, h);
    const spare = await create({ name: 'Spare' }, h);

    const refused = async (uid: string, words: string) => {
      const response = await v1('DELETE', `lqa/profiles/${uid}`, h);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ errorCode: 'LqaProfileInUse' });
      expect(response.json<{ errorDescription: string }>().errorDescription).toContain(words);
    };
    await refused(byDefault.uid, 'default');

    const project = await api2('POST', 'v3/projects', h, {
      name: uniqueName('LQA project'),
      sourceLang: 'en',
      targetLangs: ['de'],
      workflowSteps: [{ id: translation!.uid }, { id: revision!.id }],
      lqaProfiles: [{ workflowStep: { id: revision!.uid }, lqaProfile: { uid: onProject.uid } }],
    });
    expect(project.statusCode, project.body).toBe(201);
    const projectUid = project.json<{ uid: string }>().uid;
    await refused(onProject.uid, '1 project');

    // A template made from the project takes its steps' profiles: now both name it.
    const template = await v1('POST', 'projectTemplates', h, { project: { uid: projectUid }, name: uniqueName('LQA template') });
    expect(template.statusCode, template.body).toBe(201);
    const templateUid = template.json<{ uid: string }>().uid;
    await refused(onProject.uid, '1 project and 1 project template');

    // The template's steps name another profile; the project is edited to name none.
    const edited = await v1('PUT', `projectTemplates/${templateUid}`, h, {
      templateName: 'LQA template',
      workFlowSettings: [
        { workflowStep: { id: translation!.uid }, lqaProfile: { uid: onTemplate.uid } },
        { workflowStep: { id: revision!.uid } },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ workflowSettings: { lqaProfile: { uid: string } | null }[] }>().workflowSettings.map((s) => s.lqaProfile)).toEqual(
      [{ uid: onTemplate.uid }, null],
    );
    const put = await api2('PUT', `v2/projects/${projectUid}`, h, {
      name: 'LQA project',
      lqaProfiles: [{ workflowStep: { id: revision!.uid } }],
    });
    expect(put.statusCode, put.body).toBe(200);
    await refused(onTemplate.uid, '1 project template');

    const deleted = await v1('DELETE', `lqa/profiles/${onProject.uid}`, h);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await v1('GET', `lqa/profiles/${onProject.uid}`, h)).statusCode).toBe(404);
    expect((await v1('DELETE', `lqa/profiles/${spare.uid}`, h)).statusCode).toBe(204);
    expect((await v1('DELETE', `lqa/profiles/${spare.uid}`, h)).statusCode).toBe(404);

    // A project made from the template takes the template's profiles.
    const fromTemplate = await api2('POST', `v2/projects/applyTemplate/${templateUid}`, h, { name: uniqueName('From template') });
    expect(fromTemplate.statusCode, fromTemplate.body).toBe(201);
    const settings = await v1('GET', `projects/${fromTemplate.json<{ uid: string }>().uid}/lqaSettings?workflowLevel=1`, h);
    expect(settings.json<{ severities: unknown[] }>().severities).toHaveLength(4);
    const rows = await t.database.db
      .selectFrom('projectWorkflowSteps as s')
      .innerJoin('projects as p', 'p.id', 's.projectId')
      .select('s.settings')
      .where('p.uid', '=', fromTemplate.json<{ uid: string }>().uid)
      .orderBy('s.workflowLevel')
      .execute();
    expect(rows.map((r) => (JSON.parse(r.settings) as { lqaProfile?: { uid: string } }).lqaProfile?.uid ?? null)).toEqual([
      onTemplate.uid,
      null,
    ]);
    expect(org.uid).toBeTruthy();
  });

  it('checks lqaProfiles on project create and edit: 400 for unknown profiles and steps, nothing written', async () => {
    const { headers: h } = await signedInUser(t, 'ADMIN');
    const [translation, revision, review] = await steps(h);
    const mine = await create({ name: 'Mine' }, h);
    const foreign = await create({ name: 'Foreign' }); // the shared organization's
    const before = Number(
      (
        await t.database.db
          .selectFrom('projects')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const base = { name: 'x', sourceLang: 'en', targetLangs: ['de'], workflowSteps: [{ id: translation!.uid }, { id: revision!.uid }] };
    const cases: [unknown[], string, string][] = [
      [[{ workflowStep: { id: translation!.uid }, lqaProfile: { uid: 'missing' } }], 'ReferenceNotFound', 'lqaProfiles[0].lqaProfile'],
      [[{ workflowStep: { id: translation!.uid }, lqaProfile: { uid: foreign.uid } }], 'ReferenceNotFound', 'lqaProfiles[0].lqaProfile'],
      [[{ workflowStep: { id: review!.uid }, lqaProfile: { uid: mine.uid } }], 'InvalidArguments', 'lqaProfiles[0].workflowStep'],
      [[{ workflowStep: { id: 'nope' }, lqaProfile: { uid: mine.uid } }], 'ReferenceNotFound', 'lqaProfiles[0].workflowStep'],
      [[{ lqaProfile: { uid: mine.uid } }], 'InvalidArguments', 'lqaProfiles[0].workflowStep'],
      [
        [
          { workflowStep: { id: translation!.uid }, lqaProfile: { uid: mine.uid } },
          { workflowStep: { id: translation!.id }, lqaProfile: { uid: mine.uid } },
        ],
        'InvalidArguments',
        'lqaProfiles[1].workflowStep',
      ],
    ];
    for (const [lqaProfiles, code, field] of cases) {
      const response = await api2('POST', 'v3/projects', h, { ...base, lqaProfiles });
      expect(response.statusCode, JSON.stringify(lqaProfiles)).toBe(400);
      expect(response.json()).toMatchObject({ errorCode: code });
      expect(JSON.stringify(response.json<{ errorDetails: unknown }>().errorDetails)).toContain(field);
    }
    const after = Number(
      (
        await t.database.db
          .selectFrom('projects')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before);

    const project = await api2('POST', 'v3/projects', h, base);
    expect(project.statusCode, project.body).toBe(201);
    const uid = project.json<{ uid: string }>().uid;
    const bad = await api2('PUT', `v2/projects/${uid}`, h, {
      name: 'Renamed',
      lqaProfiles: [{ workflowStep: { id: translation!.uid }, lqaProfile: { uid: 'missing' } }],
    });
    expect(bad.statusCode).toBe(400);
    expect((await v1('GET', `projects/${uid}`, h)).json<{ name: string }>().name).toBe('x');
    const good = await api2('PUT', `v3/projects/${uid}`, h, {
      name: 'Renamed',
      lqaProfiles: [{ workflowStep: { id: translation!.id }, lqaProfile: { uid: mine.uid } }],
    });
    expect(good.statusCode, good.body).toBe(200);
    const template = await v1('POST', 'projectTemplates', h, { project: { uid }, name: uniqueName('T') });
    const badTemplate = await v1('PUT', `projectTemplates/${template.json<{ uid: string }>().uid}`, h, {
      templateName: 'T',
      workFlowSettings: [{ workflowStep: { id: translation!.uid }, lqaProfile: { uid: foreign.uid } }],
    });
    expect(badTemplate.statusCode).toBe(400);
    expect(badTemplate.json()).toMatchObject({ errorCode: 'ReferenceNotFound' });
  });

  it("answers a project's lqaSettings: the step's profile, else the organization default, else LQA off", async () => {
    const { organization: org, user, headers: h } = await signedInUser(t, 'ADMIN');
    const [translation, revision] = await steps(h);
    const project = await api2('POST', 'v3/projects', h, {
      name: 'Settings',
      sourceLang: 'en',
      targetLangs: ['de'],
      workflowSteps: [{ id: translation!.uid }, { id: revision!.uid }],
    });
    const uid = project.json<{ uid: string }>().uid;
    const settings = async (query = '') => {
      const response = await v1('GET', `projects/${uid}/lqaSettings${query}`, h);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{
        enabled: boolean;
        severities: { severityId: number; name: string; weight: number }[];
        categories: { errorCategoryId: number; name: string; enabled: boolean; errorCategories: { name: string; enabled: boolean }[] }[];
      }>();
    };
    expect(await settings()).toEqual({ enabled: false, severities: [], categories: [] });

    const fallback = await create({ name: 'Org default', penaltyPoints: { critical: { value: 20 } } }, h);
    expect(fallback.isDefault).toBe(true);
    const strict = await create(
      {
        name: 'Strict',
        errorCategories: { style: { style: { enabled: false }, awkward: { enabled: true } } },
        penaltyPoints: { major: { value: 7.4 } },
      },
      h,
    );
    const put = await api2('PUT', `v2/projects/${uid}`, h, {
      name: 'Settings',
      lqaProfiles: [{ workflowStep: { id: revision!.id }, lqaProfile: { uid: strict.uid } }],
    });
    expect(put.statusCode, put.body).toBe(200);

    const level1 = await settings();
    expect(level1.enabled).toBe(true);
    expect(level1.severities.find((s) => s.name === 'Critical')!.weight).toBe(20);
    const level2 = await settings('?workflowLevel=2');
    expect(level2.severities).toEqual([
      { severityId: 1, name: 'Neutral', weight: 0 },
      { severityId: 2, name: 'Minor', weight: 1 },
      { severityId: 3, name: 'Major', weight: 7 },
      { severityId: 4, name: 'Critical', weight: 10 },
    ]);
    const style = level2.categories.find((c) => c.name === 'Style')!;
    expect(style.enabled).toBe(false);
    expect(style.errorCategories.find((c) => c.name === 'Awkward')!.enabled).toBe(true);
    expect(level2.categories.map((c) => c.errorCategories.length)).toEqual([7, 7, 2, 5, 6, 1, 5, 0]);

    for (const query of ['?workflowLevel=3', '?workflowLevel=0', '?workflowLevel=16', '?workflowLevel=x']) {
      expect((await v1('GET', `projects/${uid}/lqaSettings${query}`, h)).statusCode, query).toBe(400);
    }
    expect((await v1('GET', `projects/${uid}/lqaSettings`, headers)).statusCode).toBe(404);
    expect([org.uid, user.uid].every(Boolean)).toBe(true);
  });

  it('lets ADMIN and PROJECT_MANAGER (even without projectCreate) in, and nobody else', async () => {
    const profile = await create({ name: 'Access' });
    const restricted = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER' });
    await t.database.db
      .updateTable('users')
      .set({ roleSettings: JSON.stringify({ rights: { projectCreate: false } }) })
      .where('id', '=', restricted.id)
      .execute();
    const restrictedHeaders = apiToken(await loginAs(t, restricted));
    expect((await v1('GET', 'lqa/profiles', restrictedHeaders)).statusCode).toBe(200);
    expect((await v1('GET', `lqa/profiles/${profile.uid}`, restrictedHeaders)).statusCode).toBe(200);
    for (const role of ['LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
      const user = await makeUser(t.database.db, organization, { role });
      const h = apiToken(await loginAs(t, user));
      expect((await v1('GET', 'lqa/profiles', h)).statusCode, role).toBe(403);
      expect((await v1('GET', `lqa/profiles/${profile.uid}`, h)).statusCode, role).toBe(403);
      expect((await v1('POST', 'lqa/profiles', h, { name: 'x', errorCategories: {} })).statusCode, role).toBe(403);
      expect((await v1('DELETE', `lqa/profiles/${profile.uid}`, h)).statusCode, role).toBe(403);
    }
    const other = await signedInUser(t, 'ADMIN');
    expect((await v1('GET', `lqa/profiles/${profile.uid}`, other.headers)).statusCode).toBe(404);
    expect((await v1('DELETE', `lqa/profiles/${profile.uid}`, other.headers)).statusCode).toBe(404);
    expect((await v1('PUT', `lqa/profiles/${profile.uid}`, other.headers, { name: 'x', errorCategories: {} })).statusCode).toBe(404);
    expect(admin.uid).toBeTruthy();
  });
});
