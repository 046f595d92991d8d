import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apiToken, loginAs, makeClient, makeUser, signedInUser } from './factories.js';

/** Issue 16: term base records through the API (docs/terminology.md, "Records"). */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('term bases', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<typeof signedInUser>>;
  let other: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    home = await signedInUser(t, 'ADMIN');
    other = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  const createTermBase = (payload: Record<string, unknown> = {}, headers: Headers = home.headers) =>
    ok('POST', 'termBases', headers, { name: uniqueName('Term base'), langs: ['en', 'de'], ...payload });
  async function managerWith(rights: Record<string, boolean>): Promise<Headers> {
    const manager = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    const settings = parseRoleSettings('PROJECT_MANAGER', JSON.stringify({ rights }));
    await t.database.db
      .updateTable('users')
      .set({ roleSettings: JSON.stringify(settings) })
      .where('id', '=', manager.id)
      .execute();
    return apiToken(await loginAs(t, manager));
  }

  it('creates, gets, lists, edits and deletes a term base', async () => {
    const client = await makeClient(t.database.db, home.organization);
    const termBase = await createTermBase({ client: { id: client.uid }, note: 'n', langs: ['en', 'de', 'fr_FR'] });
    // Language codes are answered in the service's form (docs/languages.md).
    expect(termBase).toMatchObject({
      langs: ['en', 'de', 'fr_fr'],
      client: { uid: client.uid },
      note: 'n',
      internalId: expect.any(Number),
      createdBy: { uid: home.user.uid },
      owner: { uid: home.user.uid },
      canShow: true,
    });
    expect(await ok('GET', `termBases/${termBase.uid}`, home.headers)).toEqual(termBase);
    // The numeric id names it too.
    expect((await ok('GET', `termBases/${termBase.id}`, home.headers)).uid).toBe(termBase.uid);
    const list = await ok('GET', `termBases?name=${encodeURIComponent(termBase.name)}`, home.headers);
    expect(list.content.map((x: any) => x.uid)).toEqual([termBase.uid]);
    expect(list.totalElements).toBe(1);
    const byLangs = await ok('GET', `termBases?lang=de&lang=fr_FR&clientId=${client.id}`, home.headers);
    expect(byLangs.content.map((x: any) => x.uid)).toContain(termBase.uid);
    expect((await ok('GET', 'termBases?lang=ja', home.headers)).content.map((x: any) => x.uid)).not.toContain(termBase.uid);

    const second = await createTermBase();
    expect(second.internalId).toBe(termBase.internalId + 1);

    const edited = await ok('PUT', `termBases/${termBase.uid}`, home.headers, { name: 'Renamed', langs: ['en', 'de', 'fr_FR', 'it'] });
    expect(edited).toMatchObject({
      name: 'Renamed',
      langs: ['en', 'de', 'fr_fr', 'it'],
      client: null,
      note: null,
      owner: { uid: home.user.uid },
    });

    await ok('DELETE', `termBases/${termBase.uid}?purge=true`, home.headers, undefined, 204);
    expect((await api('GET', `termBases/${termBase.uid}`, home.headers)).statusCode).toBe(404);
    await ok('DELETE', `termBases/${second.uid}`, home.headers, undefined, 204);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const before = (await ok('GET', 'termBases', home.headers)).totalElements;
    for (const payload of [
      { name: 'x', langs: ['xx-nope'] },
      { name: 'x', langs: [] },
      { name: '', langs: ['en'] },
      { name: 'x', langs: ['en'], client: { id: 'nope' } },
      { name: 'x', langs: ['en'], domain: { id: '999999' } },
    ]) {
      const response = await api('POST', 'termBases', home.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errorCode).toEqual(expect.any(String));
    }
    expect((await ok('GET', 'termBases', home.headers)).totalElements).toBe(before);
    const termBase = await createTermBase();
    expect((await api('PUT', `termBases/${termBase.uid}`, home.headers, { name: 'y', langs: ['en', 'xx-nope'] })).statusCode).toBe(400);
    expect((await ok('GET', `termBases/${termBase.uid}`, home.headers)).langs).toEqual(['en', 'de']);
  });

  it('takes an owner who is an admin or a project manager, and refuses others', async () => {
    const manager = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    const linguist = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    const termBase = await createTermBase({ owner: { id: manager.uid } });
    expect(termBase.owner.uid).toBe(manager.uid);
    expect((await api('POST', 'termBases', home.headers, { name: 'x', langs: ['en'], owner: { id: linguist.uid } })).statusCode).toBe(400);
    const edited = await ok('PUT', `termBases/${termBase.uid}`, home.headers, { name: termBase.name, langs: ['en', 'de'] });
    expect(edited.owner.uid).toBe(manager.uid);
  });

  it('clears the client reference when the client is deleted', async () => {
    const client = await makeClient(t.database.db, home.organization);
    const termBase = await createTermBase({ client: { id: client.id } });
    expect(termBase.client.uid).toBe(client.uid);
    await ok('DELETE', `clients/${client.uid}`, home.headers, undefined, 204);
    expect((await ok('GET', `termBases/${termBase.uid}`, home.headers)).client).toBeNull();
  });

  it('shows term bases to admins and project managers of the organization only', async () => {
    const termBase = await createTermBase();
    expect((await api('GET', `termBases/${termBase.uid}`, other.headers)).statusCode).toBe(404);
    expect((await api('DELETE', `termBases/${termBase.uid}`, other.headers)).statusCode).toBe(404);
    expect((await ok('GET', 'termBases', other.headers)).content.map((x: any) => x.uid)).not.toContain(termBase.uid);
    const linguist = await makeUser(t.database.db, home.organization, { role: 'LINGUIST' });
    const linguistHeaders = apiToken(await loginAs(t, linguist));
    expect((await api('GET', `termBases/${termBase.uid}`, linguistHeaders)).statusCode).toBe(403);
    expect((await api('GET', 'termBases', linguistHeaders)).statusCode).toBe(403);

    const manager = await makeUser(t.database.db, home.organization, { role: 'PROJECT_MANAGER' });
    const managerHeaders = apiToken(await loginAs(t, manager));
    expect((await api('GET', `termBases/${termBase.uid}`, managerHeaders)).statusCode).toBe(200);
    // Without termBaseViewOther a project manager sees only their own term bases.
    const narrowHeaders = await managerWith({ termBaseViewOther: false });
    expect((await api('GET', `termBases/${termBase.uid}`, narrowHeaders)).statusCode).toBe(404);
    const own = await createTermBase({}, narrowHeaders);
    expect((await api('GET', `termBases/${own.uid}`, narrowHeaders)).statusCode).toBe(200);
    // Without termBaseEditOther / termBaseDeleteOther a manager may read but not change others' term bases.
    const readOnlyHeaders = await managerWith({ termBaseEditOther: false, termBaseDeleteOther: false });
    expect((await api('GET', `termBases/${termBase.uid}`, readOnlyHeaders)).statusCode).toBe(200);
    expect((await api('PUT', `termBases/${termBase.uid}`, readOnlyHeaders, { name: 'z', langs: ['en'] })).statusCode).toBe(403);
    expect((await api('DELETE', `termBases/${termBase.uid}`, readOnlyHeaders)).statusCode).toBe(403);
    // Without termBaseCreate a manager may not create one.
    const noCreate = await managerWith({ termBaseCreate: false });
    expect((await api('POST', 'termBases', noCreate, { name: 'x', langs: ['en'] })).statusCode).toBe(403);
  });
});
