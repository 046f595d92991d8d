import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { createTestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers } from './support/api.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeOrganization, makeUser, signedInUser } from './factories.js';

/**
 * Issue 5: the named setup records (clients, business units, cost centers, domains, subdomains)
 * through the record kit: unique names, clearing rules, rights of project managers, the business
 * unit feature flag, and references from users' settings.
 */

describe('setup records', () => {
  let t: TestApp;
  let admin: Headers;
  let organizationId: string;
  let adminId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await signedInUser(t, 'ADMIN');
    admin = signedIn.headers;
    organizationId = signedIn.organization.id;
    adminId = signedIn.user.id;
  });
  afterAll(() => t.close());

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);

  async function create(path: string, payload: Record<string, unknown>, headers = admin) {
    const response = await api('POST', path, headers, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const unique = uniqueName;

  /** A project manager of the admin's organization with the given rights, signed in. */
  async function projectManager(rights: Record<string, boolean> = {}) {
    const userName = `pm-${newUid().slice(0, 10)}`;
    const response = await api('POST', '../v3/users', admin, {
      userName,
      firstName: 'Petra',
      lastName: 'Manager',
      email: 'pm@example.test',
      password: 'a good password',
      role: 'PROJECT_MANAGER',
      timezone: 'Europe/Prague',
      ...rights,
    });
    expect(response.statusCode, response.body).toBe(201);
    const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', response.json().uid).executeTakeFirstOrThrow();
    return { headers: apiToken(await loginAs(t, row, 'a good password')), uid: row.uid };
  }

  /** A project template row pointing at the given records (templates get their API in issue 6). */
  async function template(
    references: Partial<Record<'clientId' | 'businessUnitId' | 'costCenterId' | 'domainId' | 'subDomainId', string>>,
  ) {
    return t.database.db
      .insertInto('projectTemplates')
      .values({ uid: newUid(), organizationId, name: 'Template', createdAt: t.clock().toISOString(), createdById: adminId, ...references })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  const templateRow = (id: string | number) =>
    t.database.db.selectFrom('projectTemplates').selectAll().where('id', '=', String(id)).executeTakeFirstOrThrow();
  const idOf = async (table: 'clients' | 'businessUnits' | 'costCenters' | 'domains' | 'subDomains', uid: string) =>
    (await t.database.db.selectFrom(table).select('id').where('uid', '=', uid).executeTakeFirstOrThrow()).id;

  describe('clients', () => {
    it('creates, reads, edits and deletes a client with every ClientDto field', async () => {
      const name = unique('Acme');
      const created = await create('clients', {
        name,
        externalId: 'EXT-1',
        note: 'Prefers British spelling',
        displayNoteInProject: true,
        contacts: [{ name: 'Jane Doe', email: 'jane@acme.test', phone: '+420 123' }],
      });
      expect(created).toMatchObject({
        name,
        externalId: 'EXT-1',
        note: 'Prefers British spelling',
        displayNoteInProject: true,
        priceList: null,
        netRateScheme: null,
      });
      expect(created.contacts).toEqual([{ name: 'Jane Doe', email: 'jane@acme.test', phone: '+420 123' }]);
      expect(created.createdBy).toMatchObject({ role: 'ADMIN' });
      expect(created.id).toMatch(/^\d+$/);

      const read = await api('GET', `clients/${created.uid}`, admin);
      expect(read.json()).toEqual(created);

      // Left-out fields keep their values; null clears them.
      const edited = await api('PUT', `clients/${created.uid}`, admin, { name: `${name} Ltd`, note: null });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ name: `${name} Ltd`, externalId: 'EXT-1', note: null, displayNoteInProject: true });
      expect(edited.json().contacts).toHaveLength(1);

      expect((await api('DELETE', `clients/${created.uid}`, admin)).statusCode).toBe(204);
      expect((await api('GET', `clients/${created.uid}`, admin)).statusCode).toBe(404);
      expect((await api('DELETE', `clients/${created.uid}`, admin)).statusCode).toBe(404);
    });

    it('null priceList or netRateScheme clears the association; a reference to one that does not exist is a 400 that changes nothing', async () => {
      const created = await create('clients', { name: unique('Priced') });
      const cleared = await api('PUT', `clients/${created.uid}`, admin, { name: created.name, priceList: null, netRateScheme: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toMatchObject({ priceList: null, netRateScheme: null });
      for (const field of ['priceList', 'netRateScheme']) {
        const refused = await api('PUT', `clients/${created.uid}`, admin, { name: 'Renamed meanwhile', [field]: { id: '12345' } });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ errorCode: 'ReferenceNotFound', errorDetails: [{ field }] });
      }
      expect((await api('GET', `clients/${created.uid}`, admin)).json().name).toBe(created.name);
    });

    it('lists with paging, name filter, creator filter and both sorts', async () => {
      const org = await makeOrganization(t.database.db);
      const owner = await makeUser(t.database.db, org, { role: 'ADMIN' });
      const headers = apiToken(await loginAs(t, owner));
      const names = ['bravo', 'Alpha', 'charlie', 'delta'];
      for (const name of names) {
        t.clock.advance(1000);
        await create('clients', { name }, headers);
      }
      const page = await api('GET', 'clients?pageSize=3', headers);
      expect(page.json()).toMatchObject({ totalElements: 4, totalPages: 2, pageSize: 3, pageNumber: 0, numberOfElements: 3 });
      expect(page.json().content.map((c: { name: string }) => c.name)).toEqual(['Alpha', 'bravo', 'charlie']);
      const second = await api('GET', 'clients?pageSize=3&pageNumber=1', headers);
      expect(second.json().content.map((c: { name: string }) => c.name)).toEqual(['delta']);
      const newest = await api('GET', 'clients?sort=DATE_CREATED&order=DESC', headers);
      expect(newest.json().content.map((c: { name: string }) => c.name)).toEqual(['delta', 'charlie', 'Alpha', 'bravo']);
      expect((await api('GET', 'clients?name=LPH', headers)).json().content.map((c: { name: string }) => c.name)).toEqual(['Alpha']);
      expect((await api('GET', `clients?createdBy=${owner.uid}`, headers)).json().totalElements).toBe(4);
      expect((await api('GET', `clients?createdBy=${newUid()}`, headers)).json().totalElements).toBe(0);
      expect((await api('GET', 'clients?sort=SIZE', headers)).statusCode).toBe(400);
      expect((await api('GET', 'clients?pageSize=51', headers)).statusCode).toBe(400);
    });

    it('deleting a client deletes its contacts and business units and clears it from templates and users', async () => {
      const client = await create('clients', { name: unique('Gone'), contacts: [{ name: 'A' }, { name: 'B', email: 'b@x.test' }] });
      const unit = await create('businessUnits', { name: unique('Unit of client'), client: { uid: client.uid } });
      expect(unit.client).toMatchObject({ uid: client.uid, name: client.name });
      const other = await create('businessUnits', { name: unique('Independent unit') });
      const clientId = await idOf('clients', client.uid);
      const unitId = await idOf('businessUnits', unit.uid);
      const templated = await template({ clientId, businessUnitId: unitId });
      const manager = await projectManager({
        clients: [{ uid: client.uid }],
        projectClients: [{ uid: client.uid }],
        projectBusinessUnits: [{ uid: unit.uid }, { uid: other.uid }],
      } as never);

      expect((await api('DELETE', `clients/${client.uid}`, admin)).statusCode).toBe(204);

      expect(await t.database.db.selectFrom('clientContacts').selectAll().where('clientId', '=', clientId).execute()).toEqual([]);
      expect((await api('GET', `businessUnits/${unit.uid}`, admin)).statusCode).toBe(404);
      expect((await api('GET', `businessUnits/${other.uid}`, admin)).statusCode).toBe(200);
      expect(await templateRow(templated.id)).toMatchObject({ clientId: null, businessUnitId: null });
      const user = (await api('GET', `../v3/users/${manager.uid}`, admin)).json();
      expect(user.clients).toEqual([]);
      expect(user.projectClients).toEqual([]);
      expect(user.projectBusinessUnits.map((u: { uid: string }) => u.uid)).toEqual([other.uid]);
    });
  });

  describe('unique names', () => {
    const kinds = ['clients', 'businessUnits', 'costCenters', 'subDomains'] as const;
    for (const kind of kinds) {
      it(`${kind}: a duplicate name, in any case, is a 409 NameAlreadyExists that writes nothing`, async () => {
        const name = unique('Same');
        const first = await create(kind, { name });
        const before = (await api('GET', `${kind}?pageSize=1`, admin)).json().totalElements;
        const duplicate = await api('POST', kind, admin, { name: name.toUpperCase() });
        expect(duplicate.statusCode).toBe(409);
        expect(duplicate.json()).toMatchObject({
          errorCode: 'NameAlreadyExists',
          errorDetails: [{ field: 'name', message: 'already exists' }],
        });
        expect((await api('GET', `${kind}?pageSize=1`, admin)).json().totalElements).toBe(before);

        const second = await create(kind, { name: unique('Other') });
        const rename = await api('PUT', `${kind}/${second.uid}`, admin, { name: name.toLowerCase() });
        expect(rename.statusCode).toBe(409);
        expect((await api('GET', `${kind}/${second.uid}`, admin)).json().name).toBe(second.name);
        // Renaming a record to its own name, in another case, is fine.
        expect((await api('PUT', `${kind}/${first.uid}`, admin, { name: name.toLowerCase() })).statusCode).toBe(200);
        // Another organization may use the name.
        const elsewhere = await signedInUser(t, 'ADMIN');
        await create(kind, { name }, elsewhere.headers);
      });
    }

    it('domains may share a name (the description does not make them unique)', async () => {
      const name = unique('Legal');
      await create('domains', { name });
      await create('domains', { name });
    });

    it('two creations of one name at once: exactly one wins', async () => {
      const name = unique('Race');
      const statuses = (await Promise.all([1, 2, 3].map(() => api('POST', 'clients', admin, { name })))).map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409]);
    });

    it('blank, missing or too long names are 400s', async () => {
      for (const [kind, body] of [
        ['clients', { name: '   ' }],
        ['clients', {}],
        ['domains', { name: 'x'.repeat(256) }],
        ['costCenters', {}],
        ['costCenters', { name: null }],
        ['subDomains', { name: 42 }],
      ] as const) {
        const response = await api('POST', kind, admin, body);
        expect(response.statusCode, `${kind} ${JSON.stringify(body)}`).toBe(400);
        expect(response.json().errorCode).toBeTruthy();
      }
    });
  });

  describe('cost centers', () => {
    it('delete is a soft delete that clears templates; the name becomes free', async () => {
      const name = unique('CC');
      const center = await create('costCenters', { name });
      const centerId = await idOf('costCenters', center.uid);
      const templated = await template({ costCenterId: centerId });
      expect((await api('DELETE', `costCenters/${center.uid}`, admin)).statusCode).toBe(204);
      expect((await templateRow(templated.id)).costCenterId).toBeNull();
      expect((await api('GET', `costCenters/${center.uid}`, admin)).statusCode).toBe(404);
      expect((await api('GET', `costCenters?name=${encodeURIComponent(name)}`, admin)).json().totalElements).toBe(0);
      const kept = await t.database.db.selectFrom('costCenters').selectAll().where('uid', '=', center.uid).executeTakeFirstOrThrow();
      expect(kept.deletedAt).not.toBeNull();
      await create('costCenters', { name });
    });

    it('edit applies only the non-null fields', async () => {
      const center = await create('costCenters', { name: unique('Keep') });
      for (const body of [{}, { name: null }]) {
        const response = await api('PUT', `costCenters/${center.uid}`, admin, body);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().name).toBe(center.name);
      }
      expect((await api('PUT', `costCenters/${center.uid}`, admin, { name: 'Renamed cost center' })).json().name).toBe(
        'Renamed cost center',
      );
    });
  });

  describe('clearing rules of business units, domains and subdomains', () => {
    for (const [kind, column] of [
      ['businessUnits', 'businessUnitId'],
      ['domains', 'domainId'],
      ['subDomains', 'subDomainId'],
    ] as const) {
      it(`deleting one of ${kind} clears it from templates and users' settings`, async () => {
        const record = await create(kind, { name: unique('Cleared') });
        const templated = await template({ [column]: await idOf(kind, record.uid) });
        const listField = { businessUnits: 'projectBusinessUnits', domains: 'domains', subDomains: 'subDomains' }[kind];
        const manager = await projectManager({ [listField]: [{ uid: record.uid }] } as never);
        expect((await api('GET', `../v3/users/${manager.uid}`, admin)).json()[listField]).toEqual([
          { id: expect.any(String), uid: record.uid, name: record.name },
        ]);
        expect((await api('DELETE', `${kind}/${record.uid}`, admin)).statusCode).toBe(204);
        expect((await templateRow(templated.id))[column]).toBeNull();
        expect((await api('GET', `../v3/users/${manager.uid}`, admin)).json()[listField]).toEqual([]);
      });
    }
  });

  describe('business units exist only when the feature is enabled', () => {
    it('a SYS_ADMIN turns the feature off and on; while off every business unit operation is a 403', async () => {
      const org = await signedInUser(t, 'ADMIN');
      const unit = await create('businessUnits', { name: 'Unit' }, org.headers);
      const system = await t.database.db.selectFrom('organizations').selectAll().where('isSystem', '=', true).executeTakeFirst();
      const sysOrg = system ?? (await makeOrganization(t.database.db));
      if (!system) await t.database.db.updateTable('organizations').set({ isSystem: true }).where('id', '=', sysOrg.id).execute();
      const sysAdmin = apiToken(await loginAs(t, await makeUser(t.database.db, sysOrg, { role: 'SYS_ADMIN' })));

      const off = await api('PATCH', `admin/organizations/${org.organization.uid}`, sysAdmin, { businessUnitsEnabled: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().businessUnitsEnabled).toBe(false);
      for (const [method, url, body] of [
        ['GET', 'businessUnits', undefined],
        ['POST', 'businessUnits', { name: 'Another' }],
        ['GET', `businessUnits/${unit.uid}`, undefined],
        ['PUT', `businessUnits/${unit.uid}`, { name: 'Changed' }],
        ['DELETE', `businessUnits/${unit.uid}`, undefined],
      ] as const) {
        const response = await api(method, url, org.headers, body);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().errorCode).toBe('BusinessUnitsDisabled');
      }
      expect(
        (await api('PATCH', `admin/organizations/${org.organization.uid}`, sysAdmin, { businessUnitsEnabled: true })).json()
          .businessUnitsEnabled,
      ).toBe(true);
      expect((await api('GET', `businessUnits/${unit.uid}`, org.headers)).json().name).toBe('Unit');
    });
  });

  describe('rights of project managers', () => {
    it('clients: without clientCreate a manager cannot create, and without clientViewOther sees only their own', async () => {
      const theirs = await create('clients', { name: unique('Admin client') });
      const plain = await projectManager();
      expect((await api('POST', 'clients', plain.headers, { name: unique('Nope') })).statusCode).toBe(403);
      expect((await api('GET', 'clients', plain.headers)).json().totalElements).toBe(0);
      expect((await api('GET', `clients/${theirs.uid}`, plain.headers)).statusCode).toBe(404);
      expect((await api('PUT', `clients/${theirs.uid}`, plain.headers, { name: 'x' })).statusCode).toBe(404);

      const creator = await projectManager({ clientCreate: true });
      const own = await create('clients', { name: unique('Own client') }, creator.headers);
      const list = (await api('GET', 'clients', creator.headers)).json();
      expect(list.content.map((c: { uid: string }) => c.uid)).toEqual([own.uid]);
      expect((await api('GET', `clients?createdBy=${creator.uid}`, creator.headers)).json().totalElements).toBe(1);
      expect((await api('PUT', `clients/${own.uid}`, creator.headers, { name: `${own.name} 2` })).statusCode).toBe(200);
      expect((await api('DELETE', `clients/${own.uid}`, creator.headers)).statusCode).toBe(204);
    });

    it("clients: viewing, editing and deleting others' clients each need their right", async () => {
      const theirs = await create('clients', { name: unique('Shared client') });
      const viewer = await projectManager({ clientViewOther: true });
      expect((await api('GET', `clients/${theirs.uid}`, viewer.headers)).statusCode).toBe(200);
      expect((await api('GET', 'clients', viewer.headers)).json().totalElements).toBeGreaterThan(0);
      expect((await api('PUT', `clients/${theirs.uid}`, viewer.headers, { name: 'x' })).statusCode).toBe(403);
      expect((await api('DELETE', `clients/${theirs.uid}`, viewer.headers)).statusCode).toBe(403);

      const editor = await projectManager({ clientViewOther: true, clientEditOther: true, clientDeleteOther: true });
      expect((await api('PUT', `clients/${theirs.uid}`, editor.headers, { name: `${theirs.name} edited` })).statusCode).toBe(200);
      expect((await api('DELETE', `clients/${theirs.uid}`, editor.headers)).statusCode).toBe(204);
    });

    it("subdomains: subDomainCreate to create, the client rights for others' subdomains", async () => {
      const theirs = await create('subDomains', { name: unique('Admin sub') });
      const plain = await projectManager();
      expect((await api('POST', 'subDomains', plain.headers, { name: unique('x') })).statusCode).toBe(403);
      expect((await api('GET', `subDomains/${theirs.uid}`, plain.headers)).statusCode).toBe(404);
      const creator = await projectManager({ subDomainCreate: true, clientViewOther: true });
      await create('subDomains', { name: unique('PM sub') }, creator.headers);
      expect((await api('GET', `subDomains/${theirs.uid}`, creator.headers)).statusCode).toBe(200);
      expect((await api('DELETE', `subDomains/${theirs.uid}`, creator.headers)).statusCode).toBe(403);
    });

    it("domains follow the spec's clientDomainSubDomain rights, on by default", async () => {
      const theirs = await create('domains', { name: unique('Admin domain') });
      const plain = await projectManager();
      await create('domains', { name: unique('PM domain') }, plain.headers);
      expect((await api('PUT', `domains/${theirs.uid}`, plain.headers, { name: `${theirs.name} 2` })).statusCode).toBe(200);
      const restricted = await projectManager({ clientDomainSubDomainCreate: false, clientDomainSubDomainEditOther: false });
      expect((await api('POST', 'domains', restricted.headers, { name: unique('x') })).statusCode).toBe(403);
      expect((await api('PUT', `domains/${theirs.uid}`, restricted.headers, { name: 'x' })).statusCode).toBe(403);
    });

    it('cost centers and business units need setupServer to change, not to read', async () => {
      const center = await create('costCenters', { name: unique('Setup CC') });
      const manager = await projectManager({ setupServer: false });
      expect((await api('GET', `costCenters/${center.uid}`, manager.headers)).statusCode).toBe(200);
      expect((await api('GET', 'businessUnits', manager.headers)).statusCode).toBe(200);
      expect((await api('POST', 'costCenters', manager.headers, { name: unique('x') })).statusCode).toBe(403);
      expect((await api('PUT', `costCenters/${center.uid}`, manager.headers, { name: 'x' })).statusCode).toBe(403);
      expect((await api('DELETE', `costCenters/${center.uid}`, manager.headers)).statusCode).toBe(403);
      expect((await api('POST', 'businessUnits', manager.headers, { name: unique('x') })).statusCode).toBe(403);
    });
  });

  describe('references', () => {
    it("another organization's records are not found, and cannot be referenced", async () => {
      const elsewhere = await signedInUser(t, 'ADMIN');
      const foreign = await create('clients', { name: unique('Foreign') }, elsewhere.headers);
      expect((await api('GET', `clients/${foreign.uid}`, admin)).statusCode).toBe(404);
      expect((await api('PUT', `clients/${foreign.uid}`, admin, { name: 'x' })).statusCode).toBe(404);
      expect((await api('DELETE', `clients/${foreign.uid}`, admin)).statusCode).toBe(404);
      const unit = await api('POST', 'businessUnits', admin, { name: unique('U'), client: { uid: foreign.uid } });
      expect(unit.statusCode).toBe(400);
      expect(unit.json().errorCode).toBe('ReferenceNotFound');
    });

    it("users' settings accept only existing domains, subdomains and business units, and show them with id and name", async () => {
      const domain = await create('domains', { name: unique('Medical') });
      const subDomain = await create('subDomains', { name: unique('Cardiology') });
      const unit = await create('businessUnits', { name: unique('EMEA') });
      const manager = await projectManager({
        domains: [{ uid: domain.uid }],
        subDomains: [{ uid: subDomain.uid }],
        projectBusinessUnits: [{ uid: unit.uid }],
      } as never);
      const user = (await api('GET', `../v3/users/${manager.uid}`, admin)).json();
      expect(user.domains).toEqual([{ id: domain.id, uid: domain.uid, name: domain.name }]);
      expect(user.subDomains).toEqual([{ id: subDomain.id, uid: subDomain.uid, name: subDomain.name }]);
      expect(user.projectBusinessUnits).toEqual([{ id: unit.id, uid: unit.uid, name: unit.name }]);
      for (const field of ['domains', 'subDomains', 'projectBusinessUnits']) {
        const refused = await api('PUT', `../v3/users/${manager.uid}`, admin, {
          userName: user.userName,
          firstName: 'P',
          lastName: 'M',
          email: 'pm@example.test',
          role: 'PROJECT_MANAGER',
          timezone: 'UTC',
          [field]: [{ uid: newUid() }],
        });
        expect(refused.statusCode, field).toBe(400);
        expect(refused.json().errorCode).toBe('ReferenceNotFound');
      }
    });
  });

  it('serves the same operations under /web/api2', async () => {
    const response = await t.inject({ method: 'GET', url: '/web/api2/v1/domains', headers: admin });
    expect(response.statusCode).toBe(200);
  });
});
