import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeClient, makeOrganization, makeUser, signedInUser } from './factories.js';
import { filePart, jsonPart, multipart, unzip } from './support/upload-bodies.js';
import type { Part } from './support/upload-bodies.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/** Reference files of projects and templates (docs/reference-files.md), through the API. */

const sha256Of = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

describe('project reference files', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let adminHeaders: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_UPLOAD_LIMIT_BYTES: '4096' } });
    ({ organization, user: admin, headers: adminHeaders } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(() => t.close());

  const newProject = (options: Parameters<typeof makeProject>[2] = {}) =>
    makeProject(t, organization.id, { createdById: admin.id, ...options });
  const referencesUrl = (projectUid: string, version = 'v1') => `/api2/${version}/projects/${projectUid}/references`;

  async function upload(projectUid: string, parts: Part[], headers = adminHeaders) {
    const body = await multipart(parts);
    return t.inject({
      method: 'POST',
      url: referencesUrl(projectUid, 'v2'),
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  }

  const counts = async () => ({
    references: Number(
      (
        await t.database.db
          .selectFrom('referenceFiles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    storedFiles: Number(
      (
        await t.database.db
          .selectFrom('storedFiles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  it('creates references from file parts with one note, and downloads each byte-identical under its name', async () => {
    const project = await newProject();
    const binary = Buffer.from([0, 1, 2, 250, 255, 10, 13]);
    const response = await upload(project.uid, [
      filePart('glossary.csv', 'term,Begriff\n'),
      filePart('Übersicht – style.bin', binary, 'application/octet-stream'),
      jsonPart('Read before translating'),
    ]);
    expect(response.statusCode).toBe(201);
    const created = response.json().referenceFiles as {
      id: string;
      uid: string;
      filename: string;
      note: string;
      createdBy: { uid: string; role: string };
    }[];
    expect(created.map((r) => r.filename)).toEqual(['glossary.csv', 'Übersicht – style.bin']);
    expect(
      created.every((r) => r.note === 'Read before translating' && r.createdBy.uid === admin.uid && r.createdBy.role === 'ADMIN'),
    ).toBe(true);
    expect(created[0]!.id).toMatch(/^[0-9]+$/);

    const download = await t.inject({ url: `${referencesUrl(project.uid)}/${created[1]!.id}`, headers: adminHeaders });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(binary)).toBe(true);
    expect(download.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Übersicht – style.bin')}`);
    const text = await t.inject({ url: `${referencesUrl(project.uid)}/${created[0]!.id}`, headers: adminHeaders });
    expect(text.body).toBe('term,Begriff\n');
  });

  it('makes one note.txt reference from a note alone, and refuses a request with neither file nor note', async () => {
    const project = await newProject();
    const noteOnly = await upload(project.uid, [{ name: 'json', content: JSON.stringify({ note: 'Use the client glossary.' }) }]);
    expect(noteOnly.statusCode).toBe(201);
    const [reference] = noteOnly.json().referenceFiles;
    expect(reference).toMatchObject({ filename: 'note.txt', note: 'Use the client glossary.' });
    const file = await t.inject({ url: `${referencesUrl(project.uid)}/${reference.id}`, headers: adminHeaders });
    expect(file.body).toBe('Use the client glossary.');

    const before = await counts();
    const empty = await upload(project.uid, [jsonPart('   ')]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errorCode).toBe('FileOrNoteRequired');
    const badJson = await upload(project.uid, [
      filePart('a.txt', `a ${newUid()}`),
      { name: 'json', content: '{not json', type: 'application/json' },
    ]);
    expect(badJson.statusCode).toBe(400);
    const wrongPart = await upload(project.uid, [{ name: 'other', content: 'x' }]);
    expect(wrongPart.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
    const notMultipart = await t.inject({
      method: 'POST',
      url: referencesUrl(project.uid, 'v2'),
      headers: adminHeaders,
      payload: { note: 'x' },
    });
    expect(notMultipart.statusCode).toBe(415);
  });

  it('v1 (deprecated): a JSON note becomes a .txt file; an octet-stream body is named by Content-Disposition', async () => {
    const project = await newProject();
    const note = await t.inject({
      method: 'POST',
      url: referencesUrl(project.uid),
      headers: adminHeaders,
      payload: { note: 'Call the client first.' },
    });
    expect(note.statusCode).toBe(201);
    expect(note.json()).toMatchObject({ filename: 'note.txt', note: 'Call the client first.' });

    const bytes = Buffer.from('%PDF-1.4 fake\n\u0000\u0001', 'latin1');
    const file = await t.inject({
      method: 'POST',
      url: referencesUrl(project.uid),
      headers: {
        ...adminHeaders,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('Brief (final).pdf')}`,
      },
      payload: bytes,
    });
    expect(file.statusCode).toBe(201);
    expect(file.json()).toMatchObject({ filename: 'Brief (final).pdf', note: null });
    const download = await t.inject({ url: `${referencesUrl(project.uid)}/${file.json().id}`, headers: adminHeaders });
    expect(download.rawPayload.equals(bytes)).toBe(true);

    const unnamed = await t.inject({
      method: 'POST',
      url: referencesUrl(project.uid),
      headers: { ...adminHeaders, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    expect(unnamed.statusCode).toBe(400);
    const noNote = await t.inject({ method: 'POST', url: referencesUrl(project.uid), headers: adminHeaders, payload: {} });
    expect(noNote.statusCode).toBe(400);
  });

  it('keeps only the last segment of a path-like file name, and refuses a name that is only dots', async () => {
    const project = await newProject();
    const traversal = await upload(project.uid, [filePart('../../etc/passwd', 'root'), filePart('..\\..\\boot.ini', 'x')]);
    expect(traversal.statusCode).toBe(201);
    expect(traversal.json().referenceFiles.map((r: { filename: string }) => r.filename)).toEqual(['passwd', 'boot.ini']);
    const octet = await t.inject({
      method: 'POST',
      url: referencesUrl(project.uid),
      headers: {
        ...adminHeaders,
        'content-type': 'application/octet-stream',
        'content-disposition': `filename*=UTF-8''${encodeURIComponent('../../x')}`,
      },
      payload: 'x',
    });
    expect(octet.json().filename).toBe('x');
    const dots = await upload(project.uid, [filePart('..', 'x')]);
    expect(dots.statusCode).toBe(400);
  });

  it('refuses a file past the upload limit (413) and more than 50 files (400), storing nothing', async () => {
    const project = await newProject();
    const before = await counts();
    const small = Buffer.from(`small ${newUid()}`);
    const tooLarge = await upload(project.uid, [filePart('small.txt', small), filePart('large.bin', Buffer.alloc(5000, 7))]);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().errorCode).toBe('FileTooLarge');
    const octet = await t.inject({
      method: 'POST',
      url: referencesUrl(project.uid),
      headers: { ...adminHeaders, 'content-type': 'application/octet-stream', 'content-disposition': "filename*=UTF-8''large.bin" },
      payload: Buffer.alloc(5000, 8),
    });
    expect(octet.statusCode).toBe(413);

    const many = Array.from({ length: 51 }, (_, i) => filePart(`f${i}.txt`, `file ${i} ${newUid()}`));
    const tooMany = await upload(project.uid, many);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errorCode).toBe('TooManyFiles');
    expect(await counts()).toEqual(before);
    // The small file stored before the failure is gone from the blob store too.
    expect(await t.deps.blobs.has(sha256Of(small))).toBe(false);
    expect(await t.deps.blobs.has(sha256Of(String(many[0]!.content)))).toBe(false);

    const fifty = await upload(project.uid, many.slice(0, 50));
    expect(fifty.statusCode).toBe(201);
    expect(fifty.json().referenceFiles).toHaveLength(50);
  });

  it('lists with filters, sorting and paging, and says whether the caller may add references', async () => {
    const project = await newProject();
    const pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER', userName: `pm-${newUid().slice(0, 6)}` });
    const pmHeaders = apiToken(await loginAs(t, pm));
    await upload(project.uid, [filePart('Alpha-Glossary.csv', 'a')]);
    t.clock.advance(60_000);
    const since = t.clock().toISOString();
    await upload(project.uid, [filePart('beta.txt', 'b'), filePart('gamma-glossary.txt', 'c')], pmHeaders);
    const list = (query: string) => t.inject({ url: `${referencesUrl(project.uid)}?${query}`, headers: adminHeaders });

    const all = (await list('')).json();
    expect(all).toMatchObject({ totalElements: 3, access: { canCreate: true } });
    // Default: newest first.
    expect(all.content[2].filename).toBe('Alpha-Glossary.csv');
    expect((await list('filename=GLOSSARY&sort=FILENAME&order=ASC')).json().content.map((r: { filename: string }) => r.filename)).toEqual([
      'Alpha-Glossary.csv',
      'gamma-glossary.txt',
    ]);
    expect((await list(`createdBy=${pm.uid}`)).json().totalElements).toBe(2);
    expect((await list(`dateCreatedSince=${since}`)).json().totalElements).toBe(2);
    const page = (await list('pageSize=2&pageNumber=1&sort=FILENAME&order=DESC')).json();
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 1 });
    expect(page.content[0].filename).toBe('Alpha-Glossary.csv');
    expect((await list('pageSize=51')).statusCode).toBe(400);
    expect((await list('dateCreatedSince=yesterday')).statusCode).toBe(400);
    expect((await list('sort=SIZE')).statusCode).toBe(400);
  });

  it('lists the creators (not paged, at most 50), narrowed by userName', async () => {
    const project = await newProject();
    const pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER', userName: `zora-${newUid().slice(0, 6)}` });
    await upload(project.uid, [filePart('a.txt', 'a')]);
    await upload(project.uid, [filePart('b.txt', 'b')], apiToken(await loginAs(t, pm)));
    await upload(project.uid, [filePart('c.txt', 'c')]);
    const creators = await t.inject({ url: `${referencesUrl(project.uid)}/creators`, headers: adminHeaders });
    expect(creators.statusCode).toBe(200);
    expect(
      creators
        .json()
        .users.map((u: { uid: string }) => u.uid)
        .sort(),
    ).toEqual([admin.uid, pm.uid].sort());
    const narrowed = await t.inject({ url: `${referencesUrl(project.uid)}/creators?userName=ZORA`, headers: adminHeaders });
    expect(narrowed.json().users).toEqual([expect.objectContaining({ uid: pm.uid, role: 'PROJECT_MANAGER' })]);
  });

  it('downloads one selected reference as its file and several as a ZIP; a reference of another project is a 400', async () => {
    const project = await newProject();
    const other = await newProject();
    const created = (
      await upload(project.uid, [
        filePart('one.txt', 'first file'),
        filePart('two.bin', Buffer.from([1, 2, 3])),
        filePart('one.txt', 'same name'),
      ])
    ).json().referenceFiles;
    const foreign = (await upload(other.uid, [filePart('foreign.txt', 'f')])).json().referenceFiles[0];
    const download = (ids: unknown[]) =>
      t.inject({
        method: 'POST',
        url: `${referencesUrl(project.uid)}/download`,
        headers: adminHeaders,
        payload: { referenceFiles: ids.map((id) => ({ id })) },
      });

    const single = await download([created[1].id]);
    expect(single.statusCode).toBe(200);
    expect(single.rawPayload.equals(Buffer.from([1, 2, 3]))).toBe(true);
    expect(single.headers['content-disposition']).toContain('two.bin');

    const zip = await download([created[0].id, Number(created[1].id), created[2].id]);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = unzip(zip.rawPayload);
    expect([...entries.keys()]).toEqual(['one.txt', 'two.bin', 'one (1).txt']);
    expect(entries.get('one.txt')!.toString()).toBe('first file');
    expect(entries.get('one (1).txt')!.toString()).toBe('same name');

    expect((await download([created[0].id, foreign.id])).statusCode).toBe(400);
    expect((await download([])).statusCode).toBe(400);
    expect((await t.inject({ url: `${referencesUrl(project.uid)}/${foreign.id}`, headers: adminHeaders })).statusCode).toBe(404);
    expect((await t.inject({ url: `${referencesUrl(project.uid)}/${created[0].uid}`, headers: adminHeaders })).statusCode).toBe(404);
  });

  it('deletes by integer id and removes a stored file once no reference points to it', async () => {
    const project = await newProject();
    const other = await newProject();
    const content = `shared ${newUid()}`;
    const [first, second] = (await upload(project.uid, [filePart('a.txt', content), filePart('b.txt', content)])).json().referenceFiles;
    const [elsewhere] = (await upload(other.uid, [filePart('c.txt', content)])).json().referenceFiles;
    const remove = (projectUid: string, ids: string[]) =>
      t.inject({
        method: 'DELETE',
        url: referencesUrl(projectUid),
        headers: adminHeaders,
        payload: { referenceFiles: ids.map((id) => ({ id })) },
      });

    expect((await remove(project.uid, [first.id, elsewhere.id])).statusCode).toBe(400);
    expect((await remove(project.uid, [])).statusCode).toBe(400);
    expect((await t.inject({ url: referencesUrl(project.uid), headers: adminHeaders })).json().totalElements).toBe(2);

    expect((await remove(project.uid, [first.id, second.id])).statusCode).toBe(204);
    expect((await t.inject({ url: referencesUrl(project.uid), headers: adminHeaders })).json().totalElements).toBe(0);
    expect(await t.deps.blobs.has(sha256Of(content))).toBe(true);
    expect((await remove(other.uid, [elsewhere.id])).statusCode).toBe(204);
    expect(await t.deps.blobs.has(sha256Of(content))).toBe(false);
    expect(
      await t.database.db.selectFrom('storedFiles').select('sha256').where('sha256', '=', sha256Of(content)).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('lets those who see the project work with its references: linguists read, other organizations see nothing', async () => {
    const db = t.database.db;
    const client = await makeClient(db, organization);
    const project = await newProject({ clientId: client.id });
    const [reference] = (await upload(project.uid, [filePart('brief.txt', 'brief')])).json().referenceFiles;

    const linguist = await makeUser(db, organization, { role: 'LINGUIST' });
    const linguistHeaders = apiToken(await loginAs(t, linguist));
    expect((await t.inject({ url: referencesUrl(project.uid), headers: linguistHeaders })).statusCode).toBe(404);
    await makeJobs(t, project, { providerUserIds: [linguist.id] });
    const linguistList = await t.inject({ url: referencesUrl(project.uid), headers: linguistHeaders });
    expect(linguistList.statusCode).toBe(200);
    expect(linguistList.json().access.canCreate).toBe(false);
    expect((await t.inject({ url: `${referencesUrl(project.uid)}/${reference.id}`, headers: linguistHeaders })).body).toBe('brief');
    expect((await upload(project.uid, [filePart('x.txt', 'x')], linguistHeaders)).statusCode).toBe(403);

    const guest = await makeUser(db, organization, { role: 'GUEST' });
    await db.updateTable('users').set({ guestClientId: client.id }).where('id', '=', guest.id).execute();
    const guestUpload = await upload(project.uid, [filePart('guest.txt', 'g')], apiToken(await loginAs(t, guest)));
    expect(guestUpload.statusCode).toBe(201);

    const submitter = await makeUser(db, organization, { role: 'SUBMITTER' });
    expect((await t.inject({ url: referencesUrl(project.uid), headers: apiToken(await loginAs(t, submitter)) })).statusCode).toBe(404);

    const { headers: otherHeaders } = await signedInUser(t, 'ADMIN');
    expect((await t.inject({ url: referencesUrl(project.uid), headers: otherHeaders })).statusCode).toBe(404);
    expect((await t.inject({ url: `${referencesUrl(project.uid)}/${reference.id}`, headers: otherHeaders })).statusCode).toBe(404);
  });

  it("lets a vendor's users add references only when the project allows it, and delete only their own", async () => {
    const db = t.database.db;
    const vendorOrganization = await makeOrganization(db);
    const vendorAdmin = await makeUser(db, vendorOrganization, { role: 'ADMIN' });
    const vendorHeaders = apiToken(await loginAs(t, vendorAdmin));
    const now = t.clock().toISOString();
    const vendor = await db
      .insertInto('vendors')
      .values({
        uid: newUid(),
        buyerOrganizationId: organization.id,
        vendorOrganizationId: vendorOrganization.id,
        vendorToken: newUid(),
        priceListId: null,
        netRateSchemeId: null,
        sourceLocales: '[]',
        targetLocales: '[]',
        buyerOwnerId: null,
        timezone: 'UTC',
        createdAt: now,
        createdById: null,
        lastModifiedAt: now,
        lastModifiedById: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const project = await newProject();
    await db.updateTable('projects').set({ vendorId: vendor.id }).where('id', '=', project.id).execute();
    const [buyerReference] = (await upload(project.uid, [filePart('buyer.txt', 'b')])).json().referenceFiles;

    const list = await t.inject({ url: referencesUrl(project.uid), headers: vendorHeaders });
    expect(list.statusCode).toBe(200);
    expect(list.json().access.canCreate).toBe(false);
    expect((await upload(project.uid, [filePart('v.txt', 'v')], vendorHeaders)).statusCode).toBe(403);

    await db
      .updateTable('projects')
      .set({ settings: JSON.stringify({ accessSettings: { vendors: { jobVendorsMayUploadReferences: true } } }) })
      .where('id', '=', project.id)
      .execute();
    const vendorUpload = await upload(project.uid, [filePart('v.txt', 'v')], vendorHeaders);
    expect(vendorUpload.statusCode).toBe(201);
    const [own] = vendorUpload.json().referenceFiles;
    expect(own.createdBy).toMatchObject({ uid: vendorAdmin.uid });
    const creators = await t.inject({ url: `${referencesUrl(project.uid)}/creators`, headers: adminHeaders });
    expect(creators.json().users.map((u: { uid: string }) => u.uid)).toContain(vendorAdmin.uid);

    const remove = (ids: string[]) =>
      t.inject({
        method: 'DELETE',
        url: referencesUrl(project.uid),
        headers: vendorHeaders,
        payload: { referenceFiles: ids.map((id) => ({ id })) },
      });
    expect((await remove([buyerReference.id, own.id])).statusCode).toBe(403);
    expect((await remove([own.id])).statusCode).toBe(204);
    expect((await t.inject({ url: referencesUrl(project.uid), headers: adminHeaders })).json().totalElements).toBe(1);
  });
});

describe('project template reference files', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let adminHeaders: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, user: admin, headers: adminHeaders } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(() => t.close());

  async function newTemplate(): Promise<string> {
    const now = t.clock().toISOString();
    const row = await t.database.db
      .insertInto('projectTemplates')
      .values({
        uid: newUid(),
        organizationId: organization.id,
        name: `Template ${newUid().slice(0, 6)}`,
        createdAt: now,
        createdById: admin.id,
        lastModifiedAt: now,
      })
      .returning('uid')
      .executeTakeFirstOrThrow();
    return row.uid;
  }
  const url = (templateUid: string) => `/api2/v1/projectTemplates/${templateUid}/references`;
  async function upload(templateUid: string, parts: Part[], headers = adminHeaders) {
    const body = await multipart(parts);
    return t.inject({ method: 'POST', url: url(templateUid), headers: { ...headers, ...body.headers }, payload: body.payload });
  }

  it('creates references from files with a note, or one .txt from a note alone; neither is a 400', async () => {
    const template = await newTemplate();
    const response = await upload(template, [filePart('style.pdf', 'pdf bytes'), filePart('terms.csv', 'a,b'), jsonPart('Client style')]);
    expect(response.statusCode).toBe(201);
    const records = response.json().referenceFiles;
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ filename: 'style.pdf', note: 'Client style', createdBy: { uid: admin.uid } });
    expect(records[0].createdBy.role).toBeUndefined();

    const noteOnly = await upload(template, [jsonPart('Only a note')]);
    expect(noteOnly.json().referenceFiles).toEqual([expect.objectContaining({ filename: 'note.txt', note: 'Only a note' })]);
    expect((await upload(template, [])).statusCode).toBe(400);
    const many = Array.from({ length: 51 }, (_, i) => filePart(`f${i}.txt`, `${i}`));
    expect((await upload(template, many)).statusCode).toBe(400);
    expect((await t.inject({ url: url(template), headers: adminHeaders })).json().totalElements).toBe(3);
  });

  it('lists with a filename substring and downloads one file, or a ZIP for several', async () => {
    const template = await newTemplate();
    const otherTemplate = await newTemplate();
    const records = (await upload(template, [filePart('Client-Glossary.csv', 'g'), filePart('brief.txt', 'brief text')])).json()
      .referenceFiles;
    const [foreign] = (await upload(otherTemplate, [filePart('other.txt', 'o')])).json().referenceFiles;

    const filtered = await t.inject({ url: `${url(template)}?filename=glossary`, headers: adminHeaders });
    expect(filtered.json()).toMatchObject({ totalElements: 1, content: [{ uid: records[0].uid }] });

    const single = await t.inject({ url: `${url(template)}/${records[1].uid}`, headers: adminHeaders });
    expect(single.statusCode).toBe(200);
    expect(single.body).toBe('brief text');
    expect(single.headers['content-disposition']).toContain('brief.txt');
    expect((await t.inject({ url: `${url(template)}/${records[1].id}`, headers: adminHeaders })).body).toBe('brief text');
    expect((await t.inject({ url: `${url(template)}/${foreign.uid}`, headers: adminHeaders })).statusCode).toBe(400);

    const zip = await t.inject({
      method: 'POST',
      url: `${url(template)}/download`,
      headers: adminHeaders,
      payload: { referenceFiles: records.map((r: { uid: string }) => ({ uid: r.uid })) },
    });
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(unzip(zip.rawPayload).get('brief.txt')!.toString()).toBe('brief text');
    const mixed = await t.inject({
      method: 'POST',
      url: `${url(template)}/download`,
      headers: adminHeaders,
      payload: { referenceFiles: [{ uid: records[0].uid }, { uid: foreign.uid }] },
    });
    expect(mixed.statusCode).toBe(400);
  });

  it('deletes by uid, all or nothing: a reference of another template is a 400', async () => {
    const template = await newTemplate();
    const otherTemplate = await newTemplate();
    const records = (await upload(template, [filePart('a.txt', `a ${newUid()}`), filePart('b.txt', 'b')])).json().referenceFiles;
    const [foreign] = (await upload(otherTemplate, [filePart('c.txt', 'c')])).json().referenceFiles;
    const remove = (uids: string[]) =>
      t.inject({ method: 'DELETE', url: url(template), headers: adminHeaders, payload: { referenceFiles: uids.map((uid) => ({ uid })) } });

    expect((await remove([records[0].uid, foreign.uid])).statusCode).toBe(400);
    expect((await remove([])).statusCode).toBe(400);
    expect((await t.inject({ url: url(template), headers: adminHeaders })).json().totalElements).toBe(2);
    expect((await remove([records[0].uid])).statusCode).toBe(204);
    const left = (await t.inject({ url: url(template), headers: adminHeaders })).json();
    expect(left.content.map((r: { uid: string }) => r.uid)).toEqual([records[1].uid]);
  });

  it('follows the roles: guests and linguists read, only ADMIN and PROJECT_MANAGER write; other organizations get 404', async () => {
    const db = t.database.db;
    const template = await newTemplate();
    const [record] = (await upload(template, [filePart('a.txt', 'a')])).json().referenceFiles;
    for (const role of ['GUEST', 'LINGUIST'] as const) {
      const headers = apiToken(await loginAs(t, await makeUser(db, organization, { role })));
      expect((await t.inject({ url: url(template), headers })).statusCode).toBe(200);
      expect((await t.inject({ url: `${url(template)}/${record.uid}`, headers })).statusCode).toBe(200);
      expect((await upload(template, [filePart('x.txt', 'x')], headers)).statusCode).toBe(403);
    }
    const submitter = apiToken(await loginAs(t, await makeUser(db, organization, { role: 'SUBMITTER' })));
    expect((await t.inject({ url: url(template), headers: submitter })).statusCode).toBe(403);
    const pm = apiToken(await loginAs(t, await makeUser(db, organization, { role: 'PROJECT_MANAGER' })));
    expect((await upload(template, [filePart('pm.txt', 'pm')], pm)).statusCode).toBe(201);

    const { headers: otherHeaders } = await signedInUser(t, 'ADMIN');
    expect((await t.inject({ url: url(template), headers: otherHeaders })).statusCode).toBe(404);
    expect(
      (await t.inject({ method: 'DELETE', url: url(template), headers: otherHeaders, payload: { referenceFiles: [{ uid: record.uid }] } }))
        .statusCode,
    ).toBe(404);
  });

  it('shows createdBy as null when the creator belongs to another organization', async () => {
    const template = await newTemplate();
    const [record] = (await upload(template, [filePart('a.txt', 'a')])).json().referenceFiles;
    const stranger = await makeUser(t.database.db, await makeOrganization(t.database.db), { role: 'ADMIN' });
    await t.database.db.updateTable('referenceFiles').set({ createdById: stranger.id }).where('uid', '=', record.uid).execute();
    const list = (await t.inject({ url: url(template), headers: adminHeaders })).json();
    expect(list.content[0]).toMatchObject({ uid: record.uid, createdBy: null });
  });
});
