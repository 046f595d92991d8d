import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { ApiError } from '../src/errors/index.js';
import { checkedFieldValue, loadCustomField } from '../src/modules/organization-setup/custom-fields/custom-field-values.js';
import { createTestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers } from './support/api.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, signedInUser } from './factories.js';

/**
 * Issue 5: custom fields and their options over HTTP: every type, option rules, unique names,
 * the designed edit, delete with its options, the option list, deprecation and what it means
 * for values on records, access and tenancy.
 */

interface Option {
  uid: string;
  value: string;
  deprecated: boolean;
}
interface Field {
  uid: string;
  name: string;
  type: string;
  allowedEntities: string[];
  options: { truncatedOptions: Option[]; remainingCount: number } | null;
  createdAt: string;
  createdBy: { uid: string } | null;
  lastModified: string;
  lastModifiedBy: { uid: string } | null;
  requiredFrom: string | null;
  required: boolean;
  description: string | null;
}

describe('custom fields', () => {
  let t: TestApp;
  let admin: Headers;
  let adminUid: string;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await signedInUser(t, 'ADMIN');
    admin = signedIn.headers;
    adminUid = signedIn.user.uid;
    organizationId = signedIn.organization.id;
  });
  afterAll(() => t.close());

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t, '/api2/v1/customFields')(...args);

  const unique = uniqueName;

  async function create(payload: Record<string, unknown>, headers = admin): Promise<Field> {
    const response = await api('POST', '', headers, { allowedEntities: ['PROJECT'], ...payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function edit(uid: string, payload: Record<string, unknown>, headers = admin): Promise<Field> {
    const response = await api('PUT', `/${uid}`, headers, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function optionsOf(
    uid: string,
    query = '',
    headers = admin,
  ): Promise<{ totalElements: number; totalPages: number; numberOfElements: number; content: Option[] }> {
    const response = await api('GET', `/${uid}/options${query}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** Everything stored about custom fields, to prove a refused request wrote nothing. */
  const snapshot = async () => ({
    fields: await t.database.db.selectFrom('customFields').selectAll().orderBy('id').execute(),
    options: await t.database.db.selectFrom('customFieldOptions').selectAll().orderBy('id').execute(),
  });

  /** A project manager of the admin's organization with the given rights, signed in. */
  async function projectManager(rights: Record<string, boolean> = {}) {
    const userName = `pm-${newUid().slice(0, 10)}`;
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v3/users',
      headers: admin,
      payload: {
        userName,
        firstName: 'Petra',
        lastName: 'Manager',
        email: 'pm@example.test',
        password: 'a good password',
        role: 'PROJECT_MANAGER',
        timezone: 'Europe/Prague',
        ...rights,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', response.json().uid).executeTakeFirstOrThrow();
    return { headers: apiToken(await loginAs(t, row, 'a good password')), uid: row.uid };
  }

  describe('create and get', () => {
    it.each(['STRING', 'NUMBER', 'URL', 'DATE'])('a %s field has no options', async (type) => {
      const name = unique(type);
      const created = await create({ name, type, required: false, description: `A ${type} field` });
      expect(created).toEqual({
        uid: expect.stringMatching(/^[A-Za-z0-9]{22}$/),
        name,
        type,
        allowedEntities: ['PROJECT'],
        options: null,
        createdAt: t.clock().toISOString(),
        createdBy: expect.objectContaining({ uid: adminUid }),
        lastModified: t.clock().toISOString(),
        lastModifiedBy: expect.objectContaining({ uid: adminUid }),
        requiredFrom: null,
        required: false,
        description: `A ${type} field`,
      });
      expect((await api('GET', `/${created.uid}`, admin)).json()).toEqual(created);
    });

    it.each(['SINGLE_SELECT', 'MULTI_SELECT'])('a %s field shows its first five options and how many follow', async (type) => {
      const values = ['One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven'];
      const created = await create({ name: unique(type), type, options: values });
      expect(created.options!.truncatedOptions.map((o) => o.value)).toEqual(values.slice(0, 5));
      expect(created.options!.truncatedOptions.every((o) => o.deprecated === false && o.uid.length === 22)).toBe(true);
      expect(created.options!.remainingCount).toBe(2);
      expect((await api('GET', `/${created.uid}`, admin)).json()).toEqual(created);
      const small = await create({ name: unique(type), type, options: ['Only'] });
      expect(small.options).toEqual({
        truncatedOptions: [{ uid: expect.any(String), value: 'Only', deprecated: false }],
        remainingCount: 0,
      });
    });

    it('a required field is required from its creation; option values are trimmed', async () => {
      const created = await create({ name: unique('Priority'), type: 'SINGLE_SELECT', required: true, options: ['  High ', 'Low'] });
      expect(created.required).toBe(true);
      expect(created.requiredFrom).toBe(t.clock().toISOString());
      expect(created.description).toBeNull();
      expect(created.options!.truncatedOptions.map((o) => o.value)).toEqual(['High', 'Low']);
    });

    it.each([
      ['options on a STRING field', { type: 'STRING', options: ['a'] }, 'OptionsNotAllowed'],
      ['options on a URL field', { type: 'URL', options: ['a'] }, 'OptionsNotAllowed'],
      ['a select field without options', { type: 'SINGLE_SELECT' }, 'OptionsRequired'],
      ['a select field with an empty option list', { type: 'MULTI_SELECT', options: [] }, 'OptionsRequired'],
      ['option values equal ignoring case', { type: 'MULTI_SELECT', options: ['Red', 'RED'] }, 'DuplicateOptionValue'],
      ['a blank option value', { type: 'MULTI_SELECT', options: ['Red', ' '] }, 'InvalidOptionValue'],
      ['an option value of 256 characters', { type: 'MULTI_SELECT', options: ['x'.repeat(256)] }, 'InvalidOptionValue'],
      ['a blank name', { type: 'STRING', name: '   ' }, 'InvalidArguments'],
      ['a name of 256 characters', { type: 'STRING', name: 'x'.repeat(256) }, 'InvalidArguments'],
      ['no type', { type: undefined }, 'InvalidArguments'],
      ['an unknown type', { type: 'CHECKBOX' }, 'InvalidArguments'],
      ['an unknown entity', { type: 'STRING', allowedEntities: ['JOB'] }, 'InvalidArguments'],
      ['no entities', { type: 'STRING', allowedEntities: [] }, 'InvalidArguments'],
      ['a description of 501 characters', { type: 'STRING', description: 'x'.repeat(501) }, 'InvalidArguments'],
    ])('refuses %s with 400 and writes nothing', async (_what, payload, code) => {
      const before = await snapshot();
      const response = await api('POST', '', admin, { name: unique('Refused'), allowedEntities: ['PROJECT'], ...payload });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errorCode).toBe(code);
      expect(response.json().errorDetails.length).toBeGreaterThan(0);
      expect(await snapshot()).toEqual(before);
    });

    it('names are unique in the organization ignoring case (409), and free in another organization', async () => {
      const name = unique('Cost code');
      await create({ name, type: 'STRING' });
      const before = await snapshot();
      const duplicate = await api('POST', '', admin, { name: name.toUpperCase(), type: 'NUMBER', allowedEntities: ['PROJECT'] });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toMatchObject({
        errorCode: 'NameAlreadyExists',
        errorDetails: [{ field: 'name', message: 'already exists' }],
      });
      expect(await snapshot()).toEqual(before);
      const elsewhere = await signedInUser(t, 'ADMIN');
      await create({ name, type: 'STRING' }, elsewhere.headers);
    });

    it('concurrent creations of one name: one wins, the others get 409', async () => {
      const name = unique('Race');
      const statuses = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          api('POST', '', admin, { name: i % 2 ? name : name.toLowerCase(), type: 'STRING', allowedEntities: ['PROJECT'] }),
        ),
      );
      expect(statuses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(statuses.filter((r) => r.statusCode === 409).every((r) => r.json().errorCode === 'NameAlreadyExists')).toBe(true);
    });

    it('the database itself refuses a second name or option value that differs only in case', async () => {
      const field = await create({ name: unique('Indexed'), type: 'SINGLE_SELECT', options: ['Alpha'] });
      const row = await t.database.db.selectFrom('customFields').selectAll().where('uid', '=', field.uid).executeTakeFirstOrThrow();
      const { id: _id, ...copy } = row;
      await expect(
        t.database.db
          .insertInto('customFields')
          .values({ ...copy, uid: newUid(), name: row.name.toUpperCase() })
          .execute(),
      ).rejects.toThrow();
      await expect(
        t.database.db
          .insertInto('customFieldOptions')
          .values({ uid: newUid(), fieldId: row.id, value: 'ALPHA', deprecated: false, createdAt: row.createdAt })
          .execute(),
      ).rejects.toThrow();
    });
  });

  describe('list', () => {
    it('filters by name, type, entity, creator, editor, uids and required, sorts and pages', async () => {
      const org = await signedInUser(t, 'ADMIN');
      const other = await signedInUser(t, 'ADMIN', org.organization);
      const h = org.headers;
      const alpha = await create({ name: 'Alpha budget', type: 'NUMBER', required: true }, h);
      t.clock.advance(1000);
      const beta = await create({ name: 'beta Region', type: 'SINGLE_SELECT', options: ['EU', 'US'] }, h);
      t.clock.advance(1000);
      const gamma = await create({ name: 'Gamma link', type: 'URL' }, other.headers);
      t.clock.advance(1000);
      await edit(alpha.uid, { description: 'edited by the other admin' }, other.headers);

      const list = async (query: string) => {
        const response = await api('GET', `?${query}`, h);
        expect(response.statusCode, response.body).toBe(200);
        return response.json() as { totalElements: number; content: Field[] };
      };
      const uids = async (query: string) => (await list(query)).content.map((f) => f.uid);

      expect(await uids('')).toEqual([alpha.uid, beta.uid, gamma.uid]);
      expect(await uids('name=REGION')).toEqual([beta.uid]);
      expect(await uids('types=NUMBER&types=URL')).toEqual([alpha.uid, gamma.uid]);
      expect(await uids('allowedEntities=PROJECT')).toHaveLength(3);
      expect(await uids(`createdBy=${other.user.uid}`)).toEqual([gamma.uid]);
      expect(await uids(`modifiedBy=${other.user.uid}`)).toEqual([alpha.uid, gamma.uid]);
      expect(await uids(`modifiedBy=${org.user.uid}`)).toEqual([beta.uid]);
      expect(await uids(`createdBy=${newUid()}`)).toEqual([]);
      expect(await uids(`uids=${beta.uid}&uids=${gamma.uid}`)).toEqual([beta.uid, gamma.uid]);
      expect(await uids('required=true')).toEqual([alpha.uid]);
      expect(await uids('required=false')).toEqual([beta.uid, gamma.uid]);
      expect(await uids('sortField=NAME&sortTrend=DESC')).toEqual([gamma.uid, beta.uid, alpha.uid]);
      expect(await uids('sortField=NAME')).toEqual([alpha.uid, beta.uid, gamma.uid]);
      expect(await uids('sortField=CREATED&sortTrend=DESC')).toEqual([gamma.uid, beta.uid, alpha.uid]);
      expect(await uids('sortField=LAST_MODIFIED&sortTrend=DESC')).toEqual([alpha.uid, gamma.uid, beta.uid]);
      const page = await list('pageSize=2&pageNumber=1');
      expect(page).toMatchObject({ totalElements: 3, totalPages: 2, pageNumber: 1, numberOfElements: 1 });
      expect(page.content.map((f) => f.uid)).toEqual([gamma.uid]);
      const selects = (await list('types=SINGLE_SELECT')).content;
      expect(selects[0]!.options!.truncatedOptions.map((o) => o.value)).toEqual(['EU', 'US']);
      // Another organization's fields are not listed.
      expect((await api('GET', '', admin)).json().content.map((f: Field) => f.uid)).not.toContain(alpha.uid);
      expect((await api('GET', '?sortField=SIZE', h)).statusCode).toBe(400);
    });
  });

  describe('edit', () => {
    it('changes only the fields given, and records who changed it when', async () => {
      const created = await create({ name: unique('Edit me'), type: 'STRING', description: 'first' });
      const manager = await projectManager();
      t.clock.advance(60_000);
      const renamed = await edit(created.uid, { name: `${created.name} 2` }, manager.headers);
      expect(renamed).toMatchObject({
        name: `${created.name} 2`,
        description: 'first',
        required: false,
        type: 'STRING',
        createdAt: created.createdAt,
      });
      expect(renamed.lastModified).toBe(t.clock().toISOString());
      expect(renamed.lastModifiedBy!.uid).toBe(manager.uid);
      expect(renamed.createdBy!.uid).toBe(adminUid);
      t.clock.advance(1000);
      const cleared = await edit(created.uid, { description: null, type: 'STRING', allowedEntities: ['PROJECT', 'PROJECT'] });
      expect(cleared).toMatchObject({ name: renamed.name, description: null, allowedEntities: ['PROJECT'] });
      expect(cleared.lastModified).toBe(t.clock().toISOString());
      expect(cleared.lastModifiedBy!.uid).toBe(adminUid);
      // An edit that changes nothing is still an edit.
      t.clock.advance(1000);
      expect((await edit(created.uid, {})).lastModified).toBe(t.clock().toISOString());
      // Renaming to its own name in another case is fine; to another field's name is not.
      expect((await edit(created.uid, { name: renamed.name.toUpperCase() })).name).toBe(renamed.name.toUpperCase());
      const other = await create({ name: unique('Taken'), type: 'STRING' });
      const before = await snapshot();
      const taken = await api('PUT', `/${created.uid}`, admin, { name: other.name.toLowerCase(), description: 'not written' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().errorCode).toBe('NameAlreadyExists');
      expect(await snapshot()).toEqual(before);
    });

    it('turning required on sets requiredFrom to now; keeping it keeps it; turning it off clears it', async () => {
      const created = await create({ name: unique('Required later'), type: 'DATE' });
      expect(created.requiredFrom).toBeNull();
      t.clock.advance(3_600_000);
      const on = await edit(created.uid, { required: true });
      expect(on.requiredFrom).toBe(t.clock().toISOString());
      t.clock.advance(60_000);
      expect((await edit(created.uid, { required: true, description: 'still required' })).requiredFrom).toBe(on.requiredFrom);
      expect((await edit(created.uid, { description: 'untouched' })).requiredFrom).toBe(on.requiredFrom);
      const off = await edit(created.uid, { required: false });
      expect(off).toMatchObject({ required: false, requiredFrom: null });
    });

    it('adds, renames, removes, deprecates and reactivates options in one edit', async () => {
      const created = await create({ name: unique('Tiers'), type: 'MULTI_SELECT', options: ['Bronze', 'Silver', 'Gold', 'Tin'] });
      const [bronze, silver, gold, tin] = created.options!.truncatedOptions;
      await edit(created.uid, { deprecateOptions: [tin!.uid] });
      const edited = await edit(created.uid, {
        addOptions: ['Platinum', 'bronze classic'],
        updateOptions: [
          { uid: silver!.uid, value: 'Gold' },
          { uid: gold!.uid, value: 'Silver' },
        ],
        removeOptions: [bronze!.uid],
        deprecateOptions: [silver!.uid],
        undeprecateOptions: [tin!.uid],
      });
      expect(edited.options!.truncatedOptions).toEqual([
        { uid: silver!.uid, value: 'Gold', deprecated: true },
        { uid: gold!.uid, value: 'Silver', deprecated: false },
        { uid: tin!.uid, value: 'Tin', deprecated: false },
        { uid: expect.any(String), value: 'Platinum', deprecated: false },
        { uid: expect.any(String), value: 'bronze classic', deprecated: false },
      ]);
      expect(edited.options!.remainingCount).toBe(0);
      // Reusing a removed option's value is fine.
      const reused = await edit(created.uid, { addOptions: ['BRONZE'] });
      expect(reused.options!.remainingCount).toBe(1);
    });

    it.each([
      ['changing the type', { type: 'NUMBER' }, 'TypeCannotChange', 400],
      ['options instead of option edits', { options: ['x'] }, 'InvalidArguments', 400],
      ['adding a value that exists in another case', { addOptions: ['north'] }, 'DuplicateOptionValue', 400],
      ['adding a value twice', { addOptions: ['East', 'EAST'] }, 'DuplicateOptionValue', 400],
      ['removing every option', { removeOptions: ['$north', '$south'] }, 'OptionsRequired', 400],
      ['removing an option of another field', { removeOptions: ['$foreign'] }, 'OptionNotFound', 400],
      [
        'renaming a removed option',
        { removeOptions: ['$north'], updateOptions: [{ uid: '$north', value: 'x' }] },
        'ConflictingOptionEdits',
        400,
      ],
      ['a valid addition next to an unknown uid', { addOptions: ['West'], deprecateOptions: ['nope'] }, 'OptionNotFound', 400],
      [
        'a blank rename next to a valid description',
        { description: 'not written', updateOptions: [{ uid: '$south', value: '  ' }] },
        'InvalidOptionValue',
        400,
      ],
      ['a blank name', { name: ' ' }, 'InvalidArguments', 400],
      ['required as a string', { required: 'yes' }, 'InvalidArguments', 400],
    ])('refuses %s and changes nothing', async (_what, payload, code, status) => {
      const field = await create({ name: unique('Compass'), type: 'SINGLE_SELECT', options: ['North', 'South'] });
      const foreign = await create({ name: unique('Foreign'), type: 'SINGLE_SELECT', options: ['North'] });
      const uids: Record<string, string> = {
        $north: field.options!.truncatedOptions[0]!.uid,
        $south: field.options!.truncatedOptions[1]!.uid,
        $foreign: foreign.options!.truncatedOptions[0]!.uid,
      };
      const resolved = JSON.parse(JSON.stringify(payload).replace(/"\$(north|south|foreign)"/g, (m) => `"${uids[m.slice(1, -1)]}"`));
      const before = await snapshot();
      t.clock.advance(1000);
      const response = await api('PUT', `/${field.uid}`, admin, resolved);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().errorCode).toBe(code);
      expect(await snapshot()).toEqual(before);
    });

    it('options on a field of another type are refused', async () => {
      const field = await create({ name: unique('Plain'), type: 'STRING' });
      const response = await api('PUT', `/${field.uid}`, admin, { addOptions: ['x'] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errorCode: 'OptionsNotAllowed', errorDetails: [{ field: 'addOptions' }] });
    });
  });

  describe('delete', () => {
    it('deletes the field and its options for good', async () => {
      const field = await create({ name: unique('Doomed'), type: 'MULTI_SELECT', options: ['a', 'b', 'c'] });
      const fieldId = (await t.database.db.selectFrom('customFields').select('id').where('uid', '=', field.uid).executeTakeFirstOrThrow())
        .id;
      expect((await api('DELETE', `/${field.uid}`, admin)).statusCode).toBe(204);
      expect((await api('GET', `/${field.uid}`, admin)).statusCode).toBe(404);
      expect((await api('GET', `/${field.uid}/options`, admin)).statusCode).toBe(404);
      expect(await t.database.db.selectFrom('customFieldOptions').select('id').where('fieldId', '=', fieldId).execute()).toEqual([]);
      expect((await api('DELETE', `/${field.uid}`, admin)).statusCode).toBe(404);
      // Its name is free again.
      await create({ name: field.name, type: 'STRING' });
    });
  });

  describe('options', () => {
    it('pages 60 options by 50 and by 10, filters by part of the value and sorts by value', async () => {
      const values = Array.from({ length: 60 }, (_, i) => `Option ${String(i + 1).padStart(2, '0')}`);
      const field = await create({ name: unique('Many'), type: 'MULTI_SELECT', options: values });
      expect(field.options!.remainingCount).toBe(55);

      const first = await optionsOf(field.uid);
      expect(first).toMatchObject({ totalElements: 60, totalPages: 2, numberOfElements: 50 });
      expect(first.content.map((o) => o.value)).toEqual(values.slice(0, 50));
      const second = await optionsOf(field.uid, '?pageNumber=1');
      expect(second.content.map((o) => o.value)).toEqual(values.slice(50));
      const tens = await optionsOf(field.uid, '?pageSize=10&pageNumber=5');
      expect(tens).toMatchObject({ totalElements: 60, totalPages: 6, numberOfElements: 10 });
      expect(tens.content.map((o) => o.value)).toEqual(values.slice(50, 60));
      expect((await optionsOf(field.uid, '?pageSize=10&pageNumber=6')).content).toEqual([]);

      const filtered = await optionsOf(field.uid, '?name=option 1');
      expect(filtered.content.map((o) => o.value)).toEqual(values.slice(9, 19));
      const descending = await optionsOf(field.uid, '?sortField=NAME&sortTrend=DESC&pageSize=3');
      expect(descending.content.map((o) => o.value)).toEqual(['Option 60', 'Option 59', 'Option 58']);
      expect((await api('GET', `/${field.uid}/options?pageSize=51`, admin)).statusCode).toBe(400);
    });

    it('sorts by value ignoring case, and lists nothing for a field without options', async () => {
      const field = await create({ name: unique('Mixed'), type: 'SINGLE_SELECT', options: ['banana', 'Apple', 'cherry'] });
      expect((await optionsOf(field.uid, '?sortField=NAME')).content.map((o) => o.value)).toEqual(['Apple', 'banana', 'cherry']);
      const plain = await create({ name: unique('Number'), type: 'NUMBER' });
      expect(await optionsOf(plain.uid)).toMatchObject({ totalElements: 0, content: [] });
    });
  });

  describe('deprecation', () => {
    it('deprecates and reactivates an option; repeating a state changes nothing', async () => {
      const field = await create({ name: unique('Status'), type: 'SINGLE_SELECT', options: ['Open', 'Legacy'] });
      const legacy = field.options!.truncatedOptions[1]!;
      const deprecate = (deprecated: unknown, optionUid = legacy.uid, fieldUid = field.uid, headers = admin) =>
        api('PUT', `/${fieldUid}/options/${optionUid}/deprecate`, headers, { deprecated });

      t.clock.advance(60_000);
      const deprecatedAt = t.clock().toISOString();
      expect((await deprecate(true)).statusCode).toBe(204);
      expect((await optionsOf(field.uid)).content).toEqual([
        { uid: field.options!.truncatedOptions[0]!.uid, value: 'Open', deprecated: false },
        { uid: legacy.uid, value: 'Legacy', deprecated: true },
      ]);
      expect((await api('GET', `/${field.uid}`, admin)).json().lastModified).toBe(deprecatedAt);

      // Idempotent: the same state again answers 204 and is no edit.
      t.clock.advance(60_000);
      expect((await deprecate(true)).statusCode).toBe(204);
      const after = (await api('GET', `/${field.uid}`, admin)).json();
      expect(after.lastModified).toBe(deprecatedAt);
      expect(after.options.truncatedOptions[1].deprecated).toBe(true);

      expect((await deprecate(false)).statusCode).toBe(204);
      expect((await optionsOf(field.uid)).content[1]!.deprecated).toBe(false);
      expect((await api('GET', `/${field.uid}`, admin)).json().lastModified).toBe(t.clock().toISOString());
      expect((await deprecate(false)).statusCode).toBe(204);
      expect((await optionsOf(field.uid)).content[1]!.deprecated).toBe(false);
    });

    it('answers 404 for an option of another field, an unknown option and a field without options; 400 for a bad body', async () => {
      const field = await create({ name: unique('Shape'), type: 'MULTI_SELECT', options: ['Round'] });
      const other = await create({ name: unique('Colour'), type: 'MULTI_SELECT', options: ['Red'] });
      const plain = await create({ name: unique('Free text'), type: 'STRING' });
      const otherOption = other.options!.truncatedOptions[0]!.uid;
      const before = await snapshot();
      for (const [fieldUid, optionUid] of [
        [field.uid, otherOption],
        [field.uid, newUid()],
        [plain.uid, otherOption],
        [newUid(), otherOption],
      ]) {
        const response = await api('PUT', `/${fieldUid}/options/${optionUid}/deprecate`, admin, { deprecated: true });
        expect(response.statusCode, `${fieldUid}/${optionUid}`).toBe(404);
        expect(response.json().errorCode).toBe('ResourceNotFound');
      }
      for (const body of [{}, { deprecated: 'yes' }, { deprecated: null }]) {
        expect((await api('PUT', `/${other.uid}/options/${otherOption}/deprecate`, admin, body)).statusCode).toBe(400);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('a deprecated option cannot be newly set on a record, stays valid where it is set, and can be set again once reactivated', async () => {
      const field = await create({ name: unique('Channel'), type: 'SINGLE_SELECT', options: ['Web', 'Fax'] });
      const [web, fax] = field.options!.truncatedOptions;
      const now = t.clock().toISOString();
      const settable = async (previous: string[], requested: string[]) => {
        const loaded = await loadCustomField(t.database.db, organizationId, field.uid);
        try {
          checkedFieldValue(loaded!.definition, { selectedOptionUids: previous, value: null }, { selectedOptionUids: requested }, now);
          return 'ok';
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          return (error as ApiError).errorCode;
        }
      };
      expect(await settable([], [fax!.uid])).toBe('ok');
      expect((await api('PUT', `/${field.uid}/options/${fax!.uid}/deprecate`, admin, { deprecated: true })).statusCode).toBe(204);
      expect(await settable([], [fax!.uid])).toBe('OptionDeprecated');
      expect(await settable([web!.uid], [fax!.uid])).toBe('OptionDeprecated');
      expect(await settable([fax!.uid], [fax!.uid])).toBe('ok');
      expect(await settable([fax!.uid], [web!.uid])).toBe('ok');
      expect(await settable([], [web!.uid, fax!.uid])).toBe('OptionDeprecated');
      expect(await settable([fax!.uid], [web!.uid, fax!.uid])).toBe('TooManySelectedOptions');
      expect((await api('PUT', `/${field.uid}/options/${fax!.uid}/deprecate`, admin, { deprecated: false })).statusCode).toBe(204);
      expect(await settable([], [fax!.uid])).toBe('ok');
      // Another organization does not see the field at all.
      expect(await loadCustomField(t.database.db, String(Number(organizationId) + 100_000), field.uid)).toBeUndefined();
    });
  });

  describe('access and tenancy', () => {
    it('project managers read; changing needs the setup-server right', async () => {
      const field = await create({ name: unique('Guarded'), type: 'SINGLE_SELECT', options: ['A', 'B'] });
      const optionUid = field.options!.truncatedOptions[0]!.uid;
      const plain = await projectManager({ setupServer: false });
      expect((await api('GET', '', plain.headers)).statusCode).toBe(200);
      expect((await api('GET', `/${field.uid}`, plain.headers)).statusCode).toBe(200);
      expect((await api('GET', `/${field.uid}/options`, plain.headers)).statusCode).toBe(200);
      const before = await snapshot();
      for (const [method, url, body] of [
        ['POST', '', { name: unique('x'), type: 'STRING', allowedEntities: ['PROJECT'] }],
        ['PUT', `/${field.uid}`, { name: 'x' }],
        ['PUT', `/${field.uid}/options/${optionUid}/deprecate`, { deprecated: true }],
        ['DELETE', `/${field.uid}`, undefined],
      ] as const) {
        const response = await api(method, url, plain.headers, body);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
      }
      expect(await snapshot()).toEqual(before);

      const setup = await projectManager({ setupServer: true });
      const own = await create({ name: unique('PM field'), type: 'URL' }, setup.headers);
      expect(own.createdBy!.uid).toBe(setup.uid);
      expect((await api('PUT', `/${field.uid}/options/${optionUid}/deprecate`, setup.headers, { deprecated: true })).statusCode).toBe(204);
      expect((await api('DELETE', `/${own.uid}`, setup.headers)).statusCode).toBe(204);

      for (const role of ['LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
        const user = await signedInUser(t, role);
        expect((await api('GET', '', user.headers)).statusCode, role).toBe(403);
      }
    });

    it("another organization's field and options are not found, and left alone", async () => {
      const field = await create({ name: unique('Private'), type: 'MULTI_SELECT', options: ['x', 'y'] });
      const optionUid = field.options!.truncatedOptions[0]!.uid;
      const stranger = await signedInUser(t, 'ADMIN');
      const before = await snapshot();
      for (const [method, url, body] of [
        ['GET', `/${field.uid}`, undefined],
        ['GET', `/${field.uid}/options`, undefined],
        ['PUT', `/${field.uid}`, { name: 'stolen' }],
        ['PUT', `/${field.uid}/options/${optionUid}/deprecate`, { deprecated: true }],
        ['DELETE', `/${field.uid}`, undefined],
      ] as const) {
        expect((await api(method, url, stranger.headers, body)).statusCode, `${method} ${url}`).toBe(404);
      }
      expect(await snapshot()).toEqual(before);
      expect((await api('GET', `?uids=${field.uid}`, stranger.headers)).json().totalElements).toBe(0);
    });
  });
});
