import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { customFileTypeFor } from '../src/modules/organization-setup/custom-file-types/index.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, signedInUser } from './factories.js';

/** Import settings, custom file types and XML assistant profiles (docs/import-settings-and-file-types.md). */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const SYSTEM_DEFAULTS = {
  inputCharset: 'UTF-8',
  outputCharset: 'UTF-8',
  zipCharset: 'UTF-8',
  autodetectMultilingualFiles: true,
  targetLength: false,
  targetLengthMax: 1000,
  targetLengthPercent: false,
  targetLengthPercentValue: 130,
};

describe('import settings, custom file types, XML assistant profiles', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Record<string, string>;

  const call = (method: Method, url: string, payload?: unknown, h: Record<string, string> = headers) =>
    t.inject({ method, url: `/api2${url}`, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function projectManager(setupServer: boolean) {
    const userName = `pm-${newUid().slice(0, 10)}`;
    const response = await call('POST', '/v3/users', {
      userName,
      firstName: 'P',
      lastName: 'M',
      email: `${userName}@example.test`,
      password: 'a good password',
      role: 'PROJECT_MANAGER',
      timezone: 'UTC',
      setupServer,
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

  describe('import settings', () => {
    it('creates named settings: the document over the system defaults, the creator', async () => {
      const created = await call('POST', '/v1/importSettings', {
        name: '  Web content  ',
        fileImportSettings: { inputCharset: 'ISO-8859-1', html: { breakTagCreatesSegment: false } },
      });
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json();
      expect(body).toMatchObject({
        name: 'Web content',
        createdBy: { uid: admin.user.uid },
        fileImportSettings: { ...SYSTEM_DEFAULTS, inputCharset: 'ISO-8859-1', html: { breakTagCreatesSegment: false } },
      });
      expect(body.fileImportSettings.segRule).toBeUndefined();
      const read = await call('GET', `/v1/importSettings/${body.uid}`);
      expect(read.json()).toEqual(body);
    });

    it('lists named settings by name, filtered by part of the name, without the default', async () => {
      await call('GET', '/v1/importSettings/default');
      await call('POST', '/v1/importSettings', { name: 'alpha docs', fileImportSettings: {} });
      await call('POST', '/v1/importSettings', { name: 'Beta DOCS', fileImportSettings: {} });
      const all = (await call('GET', '/v1/importSettings')).json();
      expect(all.content.map((r: { name: string }) => r.name)).toEqual(['alpha docs', 'Beta DOCS', 'Web content']);
      expect(all.content[0]).toEqual({
        uid: expect.any(String),
        name: 'alpha docs',
        createdBy: expect.objectContaining({ uid: admin.user.uid }),
        dateCreated: expect.any(String),
      });
      const docs = (await call('GET', '/v1/importSettings?name=docs&pageSize=1&pageNumber=1')).json();
      expect(docs).toMatchObject({ totalElements: 2, totalPages: 2, numberOfElements: 1, content: [{ name: 'Beta DOCS' }] });
      expect((await call('GET', '/v1/importSettings?name=100%25')).json().totalElements).toBe(0);
    });

    it('edit replaces the name and the whole document (sections left out take the defaults again); uid names them', async () => {
      const made = (
        await call('POST', '/v1/importSettings', {
          name: 'Editable',
          fileImportSettings: { json: { htmlSubFilter: true }, txt: { tagRegexp: 'x' } },
        })
      ).json();
      const edited = await call('PUT', '/v1/importSettings', {
        uid: made.uid,
        name: 'Edited',
        fileImportSettings: { txt: { tagRegexp: 'y' } },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ uid: made.uid, name: 'Edited', fileImportSettings: { txt: { tagRegexp: 'y' } } });
      expect(edited.json().fileImportSettings.json).toBeUndefined();
      const unknown = await call('PUT', '/v1/importSettings', { uid: 'nope', name: 'x', fileImportSettings: {} });
      expect(unknown.statusCode).toBe(404);
      const blank = await call('PUT', '/v1/importSettings', { uid: made.uid, name: '   ', fileImportSettings: {} });
      expect(blank.statusCode).toBe(400);
    });

    it('checks segmentation rule ids: unknown ones are 400 ReferenceNotFound', async () => {
      const response = await call('POST', '/v1/importSettings', { name: 'Seg', fileImportSettings: { segmentationRuleId: 987654 } });
      expect(response.statusCode).toBe(400);
      expect(response.json().errorCode).toBe('ReferenceNotFound');
    });

    it('deletes named settings; the default cannot be deleted (400 ImportSettingsInUse)', async () => {
      const made = (await call('POST', '/v1/importSettings', { name: 'Doomed', fileImportSettings: {} })).json();
      expect((await call('DELETE', `/v1/importSettings/${made.uid}`)).statusCode).toBe(204);
      expect((await call('GET', `/v1/importSettings/${made.uid}`)).statusCode).toBe(404);
      expect((await call('DELETE', `/v1/importSettings/${made.uid}`)).statusCode).toBe(404);
      const def = (await call('GET', '/v1/importSettings/default')).json();
      const refused = await call('DELETE', `/v1/importSettings/${def.uid}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errorCode).toBe('ImportSettingsInUse');
    });

    it('another organization sees none of them', async () => {
      const other = await signedInUser(t, 'ADMIN');
      const mine = (await call('POST', '/v1/importSettings', { name: 'Mine', fileImportSettings: {} })).json();
      expect((await call('GET', `/v1/importSettings/${mine.uid}`, undefined, other.headers)).statusCode).toBe(404);
      expect((await call('GET', '/v1/importSettings', undefined, other.headers)).json().totalElements).toBe(0);
    });

    it('reading is for ADMIN and PROJECT_MANAGER; writing needs the setupServer right', async () => {
      const plain = await projectManager(false);
      const setup = await projectManager(true);
      expect((await call('GET', '/v1/importSettings', undefined, plain)).statusCode).toBe(200);
      expect((await call('GET', '/v1/importSettings/default', undefined, plain)).statusCode).toBe(200);
      expect((await call('POST', '/v1/importSettings', { name: 'PM', fileImportSettings: {} }, plain)).statusCode).toBe(403);
      expect((await call('PUT', '/v1/importSettings/default', {}, plain)).statusCode).toBe(403);
      expect((await call('POST', '/v1/importSettings', { name: 'PM', fileImportSettings: {} }, setup)).statusCode).toBe(201);
      const linguist = await signedInUser(t, 'LINGUIST', admin.organization);
      expect((await call('GET', '/v1/importSettings', undefined, linguist.headers)).statusCode).toBe(403);
    });
  });

  describe("the organization's default", () => {
    it('is the system defaults until edited; editing takes the document or the {name, fileImportSettings} envelope', async () => {
      const org = await signedInUser(t, 'ADMIN');
      const first = await call('GET', '/v1/importSettings/default', undefined, org.headers);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ name: 'Default', fileImportSettings: SYSTEM_DEFAULTS });
      expect((await call('GET', '/v1/importSettings/default', undefined, org.headers)).json().uid).toBe(first.json().uid);

      const plain = await call(
        'PUT',
        '/v1/importSettings/default',
        { inputCharset: 'windows-1252', txt: { tagRegexp: '\\{\\w+\\}' } },
        org.headers,
      );
      expect(plain.statusCode, plain.body).toBe(200);
      expect(plain.json()).toMatchObject({
        uid: first.json().uid,
        name: 'Default',
        fileImportSettings: { inputCharset: 'windows-1252', txt: { tagRegexp: '\\{\\w+\\}' } },
      });

      const envelope = await call(
        'PUT',
        '/v1/importSettings/default',
        { name: 'House rules', fileImportSettings: { zipCharset: 'IBM437' } },
        org.headers,
      );
      expect(envelope.json()).toMatchObject({ name: 'House rules', fileImportSettings: { zipCharset: 'IBM437', inputCharset: 'UTF-8' } });
      expect(envelope.json().fileImportSettings.txt).toBeUndefined();
      // The default is not one of the named settings.
      expect((await call('GET', '/v1/importSettings', undefined, org.headers)).json().totalElements).toBe(0);
    });

    it('is what a new project starts from; existing projects keep theirs', async () => {
      const org = await signedInUser(t, 'ADMIN');
      const createProject = async (name: string) => {
        const response = await call('POST', '/v3/projects', { name, sourceLang: 'en', targetLangs: ['de'] }, org.headers);
        expect(response.statusCode, response.body).toBe(201);
        return response.json().uid as string;
      };
      const before = await createProject('Before');
      await call('PUT', '/v1/importSettings/default', { inputCharset: 'windows-1250', json: { htmlSubFilter: true } }, org.headers);
      const after = await createProject('After');
      const settingsOf = async (uid: string) => (await call('GET', `/v1/projects/${uid}/importSettings`, undefined, org.headers)).json();
      expect(await settingsOf(after)).toMatchObject({ inputCharset: 'windows-1250', json: { htmlSubFilter: true } });
      expect(await settingsOf(before)).toMatchObject({ inputCharset: 'UTF-8' });
      expect((await settingsOf(before)).json).toBeUndefined();
    });
  });

  describe('custom file types', () => {
    let org: Awaited<ReturnType<typeof signedInUser>>;
    const create = async (payload: Record<string, unknown>) => {
      const response = await call('POST', '/v1/customFileTypes', payload, org.headers);
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    };

    beforeAll(async () => {
      org = await signedInUser(t, 'ADMIN');
    });

    it('creates a type: pattern, Phrase file type, its own settings over the defaults, supportsContinuousJob', async () => {
      const type = await create({
        name: ' App strings ',
        filenamePattern: ' *.strings.json ',
        type: 'json',
        fileImportSettings: { json: { htmlSubFilter: true } },
      });
      expect(type).toMatchObject({
        name: 'App strings',
        filenamePattern: '*.strings.json',
        type: 'json',
        createdBy: { uid: org.user.uid },
        fileImportSettings: { ...SYSTEM_DEFAULTS, json: { htmlSubFilter: true } },
        supportsContinuousJob: true,
      });
      expect((await call('GET', `/v1/customFileTypes/${type.uid}`, undefined, org.headers)).json()).toEqual(type);
      const page = (await call('GET', '/v1/customFileTypes', undefined, org.headers)).json();
      expect(page).toMatchObject({ totalElements: 1, content: [type] });
    });

    it('refuses an unknown file type, a blank name or pattern', async () => {
      for (const payload of [
        { name: 'X', filenamePattern: '*.x', type: 'docx' },
        { name: ' ', filenamePattern: '*.x', type: 'txt' },
        { name: 'X', filenamePattern: '  ', type: 'txt' },
      ]) {
        const response = await call('POST', '/v1/customFileTypes', payload, org.headers);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      }
    });

    it('finds the most specific matching type, ignoring case; 200 with an empty body when none matches', async () => {
      const generic = await create({ name: 'Any XML', filenamePattern: '*.xml', type: 'xml' });
      const specific = await create({ name: 'Android', filenamePattern: 'strings_??.XML', type: 'multiling_xml' });
      const find = (fileName: string) =>
        call('GET', `/v1/customFileTypes/find?fileName=${encodeURIComponent(fileName)}`, undefined, org.headers);
      expect((await find('res/strings_de.xml')).json().uid).toBe(specific.uid);
      expect((await find('strings_deu.xml')).json().uid).toBe(generic.uid);
      const none = await find('readme.md');
      expect(none.statusCode).toBe(200);
      expect(none.body).toBe('');
      expect((await call('GET', '/v1/customFileTypes/find', undefined, org.headers)).body).toBe('');

      const choice = await customFileTypeFor(t.database.db, org.organization.id, 'STRINGS_FR.xml');
      expect(choice).toMatchObject({
        fileFormat: 'multilingual-xml',
        type: 'multiling_xml',
        customFileTypeUid: specific.uid,
        importSettings: SYSTEM_DEFAULTS,
      });
      expect(await customFileTypeFor(t.database.db, org.organization.id, 'notes.txt')).toBeNull();
      expect(await customFileTypeFor(t.database.db, admin.organization.id, 'strings_de.xml')).toBeNull();
    });

    it('update changes the fields given; the document given replaces the whole one', async () => {
      const type = await create({
        name: 'Pages',
        filenamePattern: '*.htm',
        type: 'html',
        fileImportSettings: { html: { importComments: false } },
      });
      expect(type.supportsContinuousJob).toBe(false);
      const renamed = await call('PUT', `/v1/customFileTypes/${type.uid}`, { name: 'Web pages' }, org.headers);
      expect(renamed.json()).toMatchObject({
        name: 'Web pages',
        filenamePattern: '*.htm',
        type: 'html',
        fileImportSettings: { html: { importComments: false } },
      });
      const replaced = await call(
        'PUT',
        `/v1/customFileTypes/${type.uid}`,
        { filenamePattern: '*.html', fileImportSettings: { txt: {} } },
        org.headers,
      );
      expect(replaced.json()).toMatchObject({ name: 'Web pages', filenamePattern: '*.html', fileImportSettings: { txt: {} } });
      expect(replaced.json().fileImportSettings.html).toBeUndefined();
      expect((await call('PUT', '/v1/customFileTypes/nope', { name: 'x' }, org.headers)).statusCode).toBe(404);
      expect((await call('PUT', `/v1/customFileTypes/${type.uid}`, { type: 'pdf' }, org.headers)).statusCode).toBe(400);
    });

    it('deletes one, or several at once (all or none: an unknown uid is 404)', async () => {
      const a = await create({ name: 'A', filenamePattern: 'a.txt', type: 'txt' });
      const b = await create({ name: 'B', filenamePattern: 'b.txt', type: 'txt' });
      const c = await create({ name: 'C', filenamePattern: 'c.txt', type: 'txt' });
      expect((await call('DELETE', `/v1/customFileTypes/${a.uid}`, undefined, org.headers)).statusCode).toBe(204);
      expect((await call('GET', `/v1/customFileTypes/${a.uid}`, undefined, org.headers)).statusCode).toBe(404);
      const partly = await call('DELETE', '/v1/customFileTypes', { customFileTypes: [{ uid: b.uid }, { uid: a.uid }] }, org.headers);
      expect(partly.statusCode).toBe(404);
      expect(partly.json().errorDetails).toEqual([{ field: 'customFileTypes', message: `unknown uid "${a.uid}"` }]);
      expect((await call('GET', `/v1/customFileTypes/${b.uid}`, undefined, org.headers)).statusCode).toBe(200);
      const both = await call('DELETE', '/v1/customFileTypes', { customFileTypes: [{ uid: b.uid }, { uid: c.uid }] }, org.headers);
      expect(both.statusCode).toBe(204);
      expect((await call('GET', `/v1/customFileTypes/${c.uid}`, undefined, org.headers)).statusCode).toBe(404);
    });

    it("another organization's types are not found and never match", async () => {
      const type = await create({ name: 'Hidden', filenamePattern: '*.hidden', type: 'txt' });
      expect((await call('GET', `/v1/customFileTypes/${type.uid}`)).statusCode).toBe(404);
      expect((await call('GET', '/v1/customFileTypes/find?fileName=x.hidden')).body).toBe('');
    });
  });

  describe('XML assistant profiles', () => {
    it('are the named import settings with XML rules: filters, sort, order, paging', async () => {
      const org = await signedInUser(t, 'ADMIN');
      const make = (name: string, fileImportSettings: Record<string, unknown>) =>
        call('POST', '/v1/importSettings', { name, fileImportSettings }, org.headers);
      await make('Docs XML', { xml: { rulesFormat: 'PLAIN', includeElementsPlain: 'para,heading', inlineElementsPlain: 'b,i' } });
      await make('api xpath', { xml: { rulesFormat: 'XPATH', includeXPath: '//string' } });
      await make('No XML', { json: { htmlSubFilter: true } });
      await make('Empty XML', { xml: {} });
      await call('PUT', '/v1/importSettings/default', { xml: { includeElementsPlain: 'p' } }, org.headers);

      const list = (query = '') => call('GET', `/v1/xmlAssistantProfiles${query}`, undefined, org.headers);
      const all = await list();
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json()).toMatchObject({ totalElements: 2, pageSize: 50, pageNumber: 0 });
      expect(all.json().content).toEqual([
        {
          uid: expect.any(String),
          name: 'api xpath',
          description: 'XML rules (XPATH): include //string',
          createdAt: expect.any(String),
          createdBy: expect.objectContaining({ uid: org.user.uid }),
          updatedAt: expect.any(String),
          updatedBy: expect.objectContaining({ uid: org.user.uid }),
        },
        expect.objectContaining({ name: 'Docs XML', description: 'XML rules (PLAIN): include para,heading; inline b,i' }),
      ]);
      expect((await list('?sort=name&order=desc')).json().content.map((p: { name: string }) => p.name)).toEqual(['Docs XML', 'api xpath']);
      expect((await list('?search=HEADING')).json().content.map((p: { name: string }) => p.name)).toEqual(['Docs XML']);
      expect((await list('?description=xpath')).json().totalElements).toBe(1);
      expect((await list(`?createdBy=${org.user.uid}&pageSize=1&pageNumber=1`)).json()).toMatchObject({
        totalElements: 2,
        numberOfElements: 1,
      });
      expect((await list('?createdBy=someone-else')).json().totalElements).toBe(0);
      expect((await list('?createdAt=2026-11-21')).json().totalElements).toBe(2);
      expect((await list('?updatedAt=1999')).json().totalElements).toBe(0);
      expect((await list('?pageSize=1001')).statusCode).toBe(400);
      expect((await list('?sort=size')).statusCode).toBe(400);

      // Editing the rules away removes the profile; another organization sees none.
      const docs = all.json().content[1];
      await call('PUT', '/v1/importSettings', { uid: docs.uid, name: 'Docs XML', fileImportSettings: {} }, org.headers);
      expect((await list()).json().totalElements).toBe(1);
      expect((await call('GET', '/v1/xmlAssistantProfiles')).json().totalElements).toBe(0);
    });
  });
});
