import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { makeUser, signedInUser, apiToken, loginAs } from './factories.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';
import { newUid } from '../src/db/ids.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';

interface Field {
  uid: string;
  options: { truncatedOptions: { uid: string; value: string }[] } | null;
}

describe('custom field values on projects, templates and jobs', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiCaller>;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    api = apiCaller(t);
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
    await t.inject({
      method: 'POST',
      url: '/api2/v2/webhooks',
      headers,
      payload: { url: 'https://hooks.example.test/c', events: ['PROJECT_METADATA_UPDATED', 'JOB_UPDATED', 'PROJECT_TEMPLATE_UPDATED'] },
    });
  });
  afterAll(() => t.close());

  async function field(type: string, extra: Record<string, unknown> = {}): Promise<Field> {
    const response = await api('POST', 'customFields', headers, {
      name: uniqueName('Field'),
      type,
      allowedEntities: ['PROJECT'],
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  /** The collection path of each owner kind, for a fresh record. */
  async function owners(): Promise<Record<'project' | 'template' | 'job', string>> {
    const project = await makeProject(t, organization.id, { createdById: admin.id });
    const { jobs } = await makeJobs(t, project, { createdById: admin.id });
    const now = t.clock().toISOString();
    const template = await t.database.db
      .insertInto('projectTemplates')
      .values({
        uid: newUid(),
        organizationId: organization.id,
        name: uniqueName('Template'),
        createdAt: now,
        createdById: admin.id,
        lastModifiedAt: now,
      })
      .returning('uid')
      .executeTakeFirstOrThrow();
    return {
      project: `projects/${project.uid}/customFields`,
      template: `projectTemplates/${template.uid}/customFields`,
      job: `projects/${project.uid}/jobs/${jobs[0]!.uid}/customFields`,
    };
  }

  const calls = async (event: string) =>
    (
      await t.database.db
        .selectFrom('webhookCalls')
        .select('id')
        .where('event', '=', event)
        .where('organizationId', '=', organization.id)
        .execute()
    ).length;
  const EVENTS = { project: 'PROJECT_METADATA_UPDATED', template: 'PROJECT_TEMPLATE_UPDATED', job: 'JOB_UPDATED' } as const;

  for (const kind of ['project', 'template', 'job'] as const) {
    it(`${kind}: create, list, get, edit, batch edit and delete values`, async () => {
      const path = (await owners())[kind];
      const text = await field('STRING');
      const select = await field('MULTI_SELECT', { options: ['Red', 'Green', 'Blue'] });
      const [red, green, blue] = select.options!.truncatedOptions;
      const events = await calls(EVENTS[kind]);

      const created = await api('POST', path, headers, {
        customFieldInstances: [
          { customField: { uid: text.uid }, value: 'Hello' },
          { customField: { uid: select.uid }, selectedOptions: [{ uid: red!.uid }, { uid: blue!.uid }] },
        ],
      });
      expect(created.statusCode, created.body).toBe(200);
      const [textValue, selectValue] = created.json().customFieldInstances;
      expect(textValue).toMatchObject({
        value: 'Hello',
        customField: { uid: text.uid },
        selectedOptions: [],
        createdBy: { uid: admin.uid },
      });
      expect(selectValue.selectedOptions.map((o: { value: string }) => o.value)).toEqual(['Red', 'Blue']);
      expect(await calls(EVENTS[kind])).toBe(events + 1);

      const again = await api('POST', path, headers, { customFieldInstances: [{ customField: { uid: text.uid }, value: 'Twice' }] });
      expect(again.statusCode).toBe(400);
      expect(again.json().errorCode).toBe('CustomFieldAlreadySet');

      const page = (await api('GET', `${path}?sortField=CREATED&sortTrend=DESC&pageSize=1`, headers)).json();
      expect(page).toMatchObject({ totalElements: 2, pageSize: 1 });
      expect(page.content[0].uid).toBe(selectValue.uid);
      expect((await api('GET', `${path}?createdBy=nobody`, headers)).json().totalElements).toBe(0);
      expect((await api('GET', `${path}/${textValue.uid}`, headers)).json().value).toBe('Hello');

      const edited = await api('PUT', `${path}/${selectValue.uid}`, headers, { selectedOptions: [{ uid: green!.uid }] });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().selectedOptions.map((o: { uid: string }) => o.uid)).toEqual([green!.uid]);

      const number = await field('NUMBER');
      const batch = await api('PUT', path, headers, {
        removeInstances: [{ uid: textValue.uid }],
        updateInstances: [{ customFieldInstance: { uid: selectValue.uid }, selectedOptions: [] }],
        addInstances: [{ customField: { uid: number.uid }, value: ' 42 ' }],
      });
      expect(batch.statusCode, batch.body).toBe(200);
      const after = batch.json().customFieldInstances as {
        customField: { uid: string };
        value: string | null;
        selectedOptions: unknown[];
      }[];
      expect(after.map((i) => i.customField.uid)).toEqual([select.uid, number.uid]);
      expect(after[0]!.selectedOptions).toEqual([]);
      expect(after[1]!.value).toBe('42');

      expect((await api('DELETE', `${path}/${selectValue.uid}`, headers)).statusCode).toBe(204);
      expect((await api('GET', `${path}/${selectValue.uid}`, headers)).statusCode).toBe(404);
      expect((await api('GET', path, headers)).json().totalElements).toBe(1);
    });
  }

  it('value rules answer 400 with their code and write nothing', async () => {
    const path = (await owners()).project;
    const single = await field('SINGLE_SELECT', { options: ['A', 'B'] });
    const [a, b] = single.options!.truncatedOptions;
    const date = await field('DATE');
    const url = await field('URL');
    const text = await field('STRING');
    const cases: [unknown, string][] = [
      [{ customField: { uid: single.uid }, selectedOptions: [{ uid: a!.uid }, { uid: b!.uid }] }, 'TooManySelectedOptions'],
      [{ customField: { uid: single.uid }, value: 'A' }, 'ValueNotAllowed'],
      [{ customField: { uid: date.uid }, value: '21.11.2026' }, 'InvalidDate'],
      [{ customField: { uid: url.uid }, value: 'ftp://example.test' }, 'InvalidUrl'],
      [{ customField: { uid: url.uid }, selectedOptions: [{ uid: a!.uid }] }, 'OptionsNotAllowed'],
      [{ customField: { uid: 'missing' }, value: 'x' }, 'ReferenceNotFound'],
    ];
    for (const [input, code] of cases) {
      // A valid value first in the same request: refused requests write nothing at all.
      const response = await api('POST', path, headers, {
        customFieldInstances: [{ customField: { uid: text.uid }, value: 'valid' }, input],
      });
      expect(response.statusCode, JSON.stringify(input)).toBe(400);
      expect(response.json().errorCode).toBe(code);
      expect(response.json().errorDetails[0].field).toMatch(/^customFieldInstances\[1\]/);
    }
    expect((await api('GET', path, headers)).json().totalElements).toBe(0);
    const dup = await api('POST', path, headers, {
      customFieldInstances: [{ customField: { uid: url.uid } }, { customField: { uid: url.uid } }],
    });
    expect(dup.json().errorCode).toBe('DuplicateCustomField');
    const stored = (
      await api('POST', path, headers, { customFieldInstances: [{ customField: { uid: date.uid }, value: '2026-11-21T12:00:00+01:00' }] })
    ).json();
    expect(stored.customFieldInstances[0].value).toBe('2026-11-21T11:00:00.000Z');
    const notMine = await api('PUT', path, headers, { removeInstances: [{ uid: 'not-an-instance' }] });
    expect(notMine.json().errorCode).toBe('InstanceNotFound');
  });

  it('a required field’s value cannot be removed from projects made after it became required', async () => {
    const paths = await owners();
    const required = await field('STRING', { required: true });
    const created = (
      await api('POST', paths.project, headers, { customFieldInstances: [{ customField: { uid: required.uid }, value: 'Must' }] })
    ).json().customFieldInstances[0];
    const cleared = await api('PUT', `${paths.project}/${created.uid}`, headers, { value: '' });
    expect(cleared.json().errorCode).toBe('ValueRequired');
    const removed = await api('DELETE', `${paths.project}/${created.uid}`, headers);
    expect(removed.statusCode).toBe(400);
    expect(removed.json().errorCode).toBe('ValueRequired');
    // Templates are not projects: the field may stay empty there.
    const onTemplate = await api('POST', paths.template, headers, { customFieldInstances: [{ customField: { uid: required.uid } }] });
    expect(onTemplate.statusCode, onTemplate.body).toBe(200);
  });

  it('access: readers of the record read, only its editors write, other organizations see nothing', async () => {
    const project = await makeProject(t, organization.id, { createdById: admin.id });
    const linguist = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    const { jobs } = await makeJobs(t, project, { createdById: admin.id, providerUserIds: [linguist.id] });
    const text = await field('STRING');
    const jobPath = `projects/${project.uid}/jobs/${jobs[0]!.uid}/customFields`;
    expect(
      (await api('POST', jobPath, headers, { customFieldInstances: [{ customField: { uid: text.uid }, value: 'v' }] })).statusCode,
    ).toBe(200);
    const linguistHeaders = apiToken(await loginAs(t, linguist));
    expect((await api('GET', jobPath, linguistHeaders)).json().totalElements).toBe(1);
    expect((await api('GET', `projects/${project.uid}/customFields`, linguistHeaders)).statusCode).toBe(200);
    expect((await api('PUT', jobPath, linguistHeaders, { addInstances: [] })).statusCode).toBe(403);
    const other = await signedInUser(t, 'ADMIN');
    expect((await api('GET', jobPath, other.headers)).statusCode).toBe(404);
    expect(
      (
        await api('POST', `projects/${project.uid}/customFields`, other.headers, {
          customFieldInstances: [{ customField: { uid: text.uid }, value: 'x' }],
        })
      ).statusCode,
    ).toBe(404);
  });

  it('deleting a field or one of its options removes the values records hold', async () => {
    const path = (await owners()).template;
    const select = await field('MULTI_SELECT', { options: ['One', 'Two'] });
    const [one, two] = select.options!.truncatedOptions;
    const instance = (
      await api('POST', path, headers, {
        customFieldInstances: [{ customField: { uid: select.uid }, selectedOptions: [{ uid: one!.uid }, { uid: two!.uid }] }],
      })
    ).json().customFieldInstances[0];
    expect((await api('PUT', `customFields/${select.uid}`, headers, { removeOptions: [one!.uid] })).statusCode).toBe(200);
    expect((await api('GET', `${path}/${instance.uid}`, headers)).json().selectedOptions.map((o: { uid: string }) => o.uid)).toEqual([
      two!.uid,
    ]);
    expect((await api('DELETE', `customFields/${select.uid}`, headers)).statusCode).toBe(204);
    expect((await api('GET', `${path}/${instance.uid}`, headers)).statusCode).toBe(404);
  });
});
