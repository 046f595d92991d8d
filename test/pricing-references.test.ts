import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { clearNetRateSchemeReferences } from '../src/modules/organization-setup/setup-records/index.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { makeOrganization, signedInUser } from './factories.js';

/**
 * References to price lists and net rate schemes (description, "Behaviour of other operations" 1):
 * clients, vendors, services, project financial settings and linguists point at real records of
 * their organization, show them as the spec's references, and null clears them.
 */

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe('price list and net rate scheme references', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Headers;
  let other: Awaited<ReturnType<typeof signedInUser>>;
  let list: { id: string; uid: string; name: string };
  let second: { id: string; uid: string; name: string };
  let scheme: { id: string; uid: string; name: string; dateCreated: string; createdBy: unknown };
  let foreignList: { id: string; uid: string };
  let foreignScheme: { id: string; uid: string };

  const unique = (prefix: string) => `${prefix} ${newUid().slice(0, 8)}`;

  async function call(method: Method, url: string, payload?: unknown, h: Headers = headers) {
    return t.inject({ method, url: `/api2/${url}`, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) });
  }
  async function ok(method: Method, url: string, payload?: unknown, status = 200, h: Headers = headers) {
    const response = await call(method, url, payload, h);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? undefined : response.json();
  }
  const refused = async (method: Method, url: string, payload: unknown, field: string) => {
    const response = await call(method, url, payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ errorCode: 'ReferenceNotFound', errorDetails: [{ field }] });
  };

  /** Net rate schemes are read straight from their table here (their own module has its operations). */
  async function insertScheme(organizationId: string, createdById: string | null, name: string) {
    const row = await t.database.db
      .insertInto('netRateSchemes')
      .values({ uid: newUid(), organizationId, name, rates: '{}', createdAt: t.clock().toISOString(), createdById })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { id: String(row.id), uid: row.uid, name: row.name, dateCreated: row.createdAt };
  }

  const priceListRef = (l: typeof list) => ({ id: l.id, uid: l.uid, name: l.name });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    other = await signedInUser(t, 'ADMIN', await makeOrganization(t.database.db));
    list = await ok('POST', 'v1/priceLists', { name: 'Standard', currencyCode: 'EUR' }, 201);
    second = await ok('POST', 'v1/priceLists', { name: 'Premium', currencyCode: 'EUR' }, 201);
    foreignList = await ok('POST', 'v1/priceLists', { name: 'Theirs', currencyCode: 'EUR' }, 201, other.headers);
    const inserted = await insertScheme(admin.organization.id, admin.user.id, 'Trados grid');
    scheme = { ...inserted, createdBy: expect.objectContaining({ uid: admin.user.uid, userName: admin.user.userName }) };
    foreignScheme = await insertScheme(other.organization.id, null, 'Their grid');
  });
  afterAll(() => t.close());

  it('clients: by id or uid, shown as PriceListReference and NetRateSchemeReference; left out keeps, null clears', async () => {
    const client = await ok(
      'POST',
      'v1/clients',
      { name: unique('Client'), priceList: { id: list.id }, netRateScheme: { id: scheme.uid } },
      201,
    );
    expect(client.priceList).toEqual(priceListRef(list));
    expect(client.netRateScheme).toEqual(scheme);
    expect((await ok('GET', `v1/clients/${client.uid}`)).priceList).toEqual(priceListRef(list));
    const kept = await ok('PUT', `v1/clients/${client.uid}`, { name: client.name, priceList: { id: second.uid } });
    expect(kept).toMatchObject({ priceList: priceListRef(second), netRateScheme: scheme });
    const cleared = await ok('PUT', `v1/clients/${client.uid}`, { name: client.name, priceList: null, netRateScheme: null });
    expect(cleared).toMatchObject({ priceList: null, netRateScheme: null });
    await refused('PUT', `v1/clients/${client.uid}`, { name: 'Renamed', priceList: { id: foreignList.id } }, 'priceList');
    await refused('PUT', `v1/clients/${client.uid}`, { name: 'Renamed', netRateScheme: { id: foreignScheme.uid } }, 'netRateScheme');
    expect((await ok('GET', `v1/clients/${client.uid}`)).name).toBe(client.name);
    const listed = await ok('GET', `v1/clients?name=${encodeURIComponent(client.name)}`);
    expect(listed.content[0]).toMatchObject({ priceList: null, netRateScheme: null });
  });

  it('vendors: the buyer names its price list and net rate scheme by uid', async () => {
    const vendorOrg = await signedInUser(t, 'ADMIN', await makeOrganization(t.database.db));
    const token = (await ok('GET', 'v1/vendorToken', undefined, 200, vendorOrg.headers)).vendorToken;
    await refused('POST', 'v1/vendors', { vendorToken: token, priceList: { uid: foreignList.uid } }, 'priceList');
    await refused('POST', 'v1/vendors', { vendorToken: token, netRateScheme: { uid: 'nope' } }, 'netRateScheme');
    const vendor = await ok(
      'POST',
      'v1/vendors',
      { vendorToken: token, priceList: { uid: list.uid }, netRateScheme: { uid: scheme.uid } },
      201,
    );
    expect(vendor).toMatchObject({ priceList: priceListRef(list), netRateScheme: scheme });
    expect((await ok('GET', `v1/vendors/${vendor.uid}`)).priceList).toEqual(priceListRef(list));
    expect((await ok('GET', 'v1/vendors')).content.find((v: { uid: string }) => v.uid === vendor.uid).netRateScheme).toEqual(scheme);
  });

  it('services: priceList by uid on create and edit; null clears', async () => {
    const service = await ok('POST', 'v1/services', { name: unique('Service'), priceList: { uid: list.uid } }, 201);
    expect(service.priceList).toEqual(priceListRef(list));
    expect((await ok('PUT', `v1/services/${service.uid}`, { description: 'kept' })).priceList).toEqual(priceListRef(list));
    expect((await ok('PUT', `v1/services/${service.uid}`, { priceList: { uid: second.uid } })).priceList).toEqual(priceListRef(second));
    await refused('PUT', `v1/services/${service.uid}`, { priceList: { uid: foreignList.uid } }, 'priceList');
    expect((await ok('PUT', `v1/services/${service.uid}`, { priceList: null })).priceList).toBeNull();
  });

  it("projects: financial settings name the organization's list and scheme by id (or uid); null clears; templates copy them", async () => {
    const project = await ok('POST', 'v3/projects', { name: unique('Project'), sourceLang: 'en', targetLangs: ['de'] }, 201);
    const base = `v1/projects/${project.uid}/financialSettings`;
    expect(await ok('GET', base)).toEqual({ netRateScheme: null, priceList: null });
    const set = await ok('PUT', base, { priceList: { id: list.id }, netRateScheme: { id: scheme.id } });
    expect(set).toEqual({ priceList: priceListRef(list), netRateScheme: scheme });
    expect(await ok('GET', base)).toEqual(set);
    expect(await ok('PUT', base, { priceList: { id: second.uid }, netRateScheme: { id: scheme.id } })).toMatchObject({
      priceList: priceListRef(second),
    });
    await refused('PUT', base, { priceList: { id: foreignList.id } }, 'priceList');
    await refused('PUT', base, { netRateScheme: { id: foreignScheme.id } }, 'netRateScheme');
    expect((await ok('GET', base)).priceList).toEqual(priceListRef(second));

    const template = await ok('POST', 'v1/projectTemplates', { project: { uid: project.uid }, name: unique('Template') }, 201);
    const stored = await t.database.db
      .selectFrom('projectTemplates')
      .select('settings')
      .where('uid', '=', template.uid)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.settings).financialSettings).toEqual({ priceListId: second.id, netRateSchemeId: scheme.id });

    // Replacing the document: what is left out is cleared.
    expect(await ok('PUT', base, { netRateScheme: { id: scheme.id } })).toEqual({ priceList: null, netRateScheme: scheme });
    expect(await ok('PUT', base, { priceList: null, netRateScheme: null })).toEqual({ priceList: null, netRateScheme: null });
    const row = await t.database.db.selectFrom('projects').select('settings').where('uid', '=', project.uid).executeTakeFirstOrThrow();
    expect(JSON.parse(row.settings).financialSettings).toBeUndefined();
  });

  it('linguists: netRateScheme and translationPriceList by uid; null clears', async () => {
    const userName = `linguist-${newUid().slice(0, 8)}`;
    const body = {
      userName,
      firstName: 'Lin',
      lastName: 'Guist',
      email: `${userName}@example.test`,
      role: 'LINGUIST',
      timezone: 'UTC',
    };
    const foreign = await call('POST', 'v3/users', {
      ...body,
      password: 'a good password',
      translationPriceList: { uid: foreignList.uid },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errorCode).toBe('ReferenceNotFound');
    const user = await ok(
      'POST',
      'v3/users',
      { ...body, password: 'a good password', netRateScheme: { uid: scheme.uid }, translationPriceList: { uid: list.uid } },
      201,
    );
    expect(user.netRateScheme).toEqual({ id: scheme.id, uid: scheme.uid, name: scheme.name });
    expect(user.translationPriceList).toEqual(priceListRef(list));
    expect((await ok('GET', `v3/users/${user.uid}`)).translationPriceList).toEqual(priceListRef(list));
    const cleared = await ok('PUT', `v3/users/${user.uid}`, { ...body, netRateScheme: null, translationPriceList: null });
    expect(cleared).toMatchObject({ netRateScheme: null, translationPriceList: null });
  });

  it('deleting a net rate scheme clears it everywhere (the clearing rule its module runs in its delete)', async () => {
    const doomed = await insertScheme(admin.organization.id, admin.user.id, 'Doomed grid');
    const client = await ok(
      'POST',
      'v1/clients',
      { name: unique('Client'), netRateScheme: { id: doomed.id }, priceList: { id: list.id } },
      201,
    );
    const project = await ok('POST', 'v3/projects', { name: unique('Project'), sourceLang: 'en', targetLangs: ['de'] }, 201);
    const base = `v1/projects/${project.uid}/financialSettings`;
    await ok('PUT', base, { priceList: { id: list.id }, netRateScheme: { id: doomed.id } });
    const userName = `linguist-${newUid().slice(0, 8)}`;
    const user = await ok(
      'POST',
      'v3/users',
      {
        userName,
        firstName: 'L',
        lastName: 'G',
        email: `${userName}@example.test`,
        password: 'a good password',
        role: 'LINGUIST',
        timezone: 'UTC',
        netRateScheme: { uid: doomed.uid },
      },
      201,
    );
    await t.database.db.transaction().execute(async (trx) => {
      await clearNetRateSchemeReferences(trx, admin.organization.id, doomed);
      await trx.deleteFrom('netRateSchemes').where('id', '=', doomed.id).execute();
    });
    expect(await ok('GET', `v1/clients/${client.uid}`)).toMatchObject({ netRateScheme: null, priceList: priceListRef(list) });
    expect(await ok('GET', base)).toEqual({ netRateScheme: null, priceList: priceListRef(list) });
    expect((await ok('GET', `v3/users/${user.uid}`)).netRateScheme).toBeNull();
  });
});
