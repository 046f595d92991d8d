import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bool } from '../src/db/database.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { makeServiceAccount, signedInUser, tokenRequest } from './factories.js';

/** Issue 3, point 6: service accounts and their bot users (OpenTMS extension, ADMIN only). */
describe('service accounts', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  const create = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: '/api2/v1/serviceAccounts', headers, payload });
  const clientCredentials = (account: { clientId: string; clientSecret: string }) =>
    tokenRequest(t, { grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret });
  const count = async (table: 'serviceAccounts' | 'users') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates an account with a bot user and shows the client secret once', async () => {
    const response = await create(admin.headers, { name: 'Crème CI / nightly', products: ['tms', 'strings'], scopes: ['read', 'write'] });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      uid: expect.any(String),
      name: 'Crème CI / nightly',
      clientId: expect.any(String),
      clientSecret: expect.stringMatching(/^otmscs_[A-Za-z0-9_-]{43}$/),
      products: [
        { product: 'tms', scopes: ['read', 'write'] },
        { product: 'strings', scopes: ['read', 'write'] },
      ],
      botUser: {
        id: expect.any(String),
        uid: expect.any(String),
        userName: expect.stringMatching(/^bot-creme-ci-nightly-[0-9a-f]{12}$/),
        firstName: 'Crème CI / nightly',
        lastName: 'Bot',
        email: expect.stringMatching(/@bots\.invalid$/),
        role: 'PROJECT_MANAGER',
      },
      dateCreated: t.clock().toISOString(),
    });

    const bot = await t.database.db.selectFrom('users').selectAll().where('uid', '=', body.botUser.uid).executeTakeFirstOrThrow();
    expect(bool(bot.isBot)).toBe(true);
    expect(bot.passwordHash).toBeNull();
    expect(bot.organizationId).toBe(admin.organization.id);
    expect(JSON.parse(bot.roleSettings).rights).toMatchObject({ userCreate: false, userEditOther: false, userDeleteOther: false });

    // Stored as a hash; never shown again.
    const row = await t.database.db.selectFrom('serviceAccounts').selectAll().where('uid', '=', body.uid).executeTakeFirstOrThrow();
    expect(row.clientSecretHash).not.toContain(body.clientSecret);
    expect(row.clientSecretHash).toMatch(/^sha256\$[0-9a-f]{64}$/);
    const got = await t.inject({ url: `/api2/v1/serviceAccounts/${body.uid}`, headers: admin.headers });
    expect(got.statusCode).toBe(200);
    const { clientSecret: _secret, ...withoutSecret } = body;
    expect(got.json()).toEqual(withoutSecret);
    const list = await t.inject({ url: '/api2/v1/serviceAccounts', headers: admin.headers });
    expect(list.body).not.toContain(body.clientSecret);
  });

  it('stores per product the requested scopes it supports, possibly none', async () => {
    const body = (
      await create(admin.headers, { name: 'narrow', products: ['tms', 'strings', 'tms'], scopes: ['tms:write', 'strings:read'] })
    ).json();
    expect(body.products).toEqual([
      { product: 'tms', scopes: ['write'] },
      { product: 'strings', scopes: ['read'] },
    ]);
    const none = (await create(admin.headers, { name: 'no scope', products: ['strings'], scopes: [] })).json();
    expect(none.products).toEqual([{ product: 'strings', scopes: [] }]);
  });

  it('refuses unknown products, unsupported scopes and bad names with 400, writing nothing', async () => {
    const accounts = await count('serviceAccounts');
    const users = await count('users');
    const cases: Record<string, unknown>[] = [
      { name: 'x', products: ['tms', 'billing'], scopes: ['read'] },
      { name: 'x', products: ['tms'], scopes: ['admin'] },
      { name: 'x', products: ['tms'], scopes: ['strings:read'] },
      { name: 'x', products: ['tms'], scopes: ['tms:delete'] },
      { name: 'x', products: [], scopes: ['read'] },
      { name: 'x'.repeat(256), products: ['tms'], scopes: ['read'] },
      { name: '', products: ['tms'], scopes: ['read'] },
      { products: ['tms'], scopes: ['read'] },
      { name: 'x', scopes: ['read'] },
      { name: 'x', products: ['tms'] },
    ];
    for (const payload of cases) {
      const response = await create(admin.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errorCode).toBe('InvalidArguments');
    }
    expect(await count('serviceAccounts')).toBe(accounts);
    expect(await count('users')).toBe(users);
    expect((await create(admin.headers, { name: 'x'.repeat(255), products: ['tms'], scopes: ['read'] })).statusCode).toBe(201);
  });

  it("lists the organization's accounts, paged; another organization's are not found", async () => {
    const own = await signedInUser(t, 'ADMIN');
    const first = await makeServiceAccount(t, own.headers, { name: 'one' });
    await makeServiceAccount(t, own.headers, { name: 'two' });
    await makeServiceAccount(t, own.headers, { name: 'three' });
    const foreign = await makeServiceAccount(t, admin.headers, { name: 'foreign' });

    const all = (await t.inject({ url: '/api2/v1/serviceAccounts', headers: own.headers })).json();
    expect(all).toMatchObject({ totalElements: 3, totalPages: 1, numberOfElements: 3 });
    expect(all.content.map((a: { name: string }) => a.name)).toEqual(['one', 'two', 'three']);
    expect(all.content[0]).not.toHaveProperty('clientSecret');
    const page = (await t.inject({ url: '/api2/v1/serviceAccounts?pageSize=2&pageNumber=1', headers: own.headers })).json();
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 1 });

    expect((await t.inject({ url: `/api2/v1/serviceAccounts/${first.uid}`, headers: own.headers })).statusCode).toBe(200);
    for (const request of [
      { method: 'GET' as const, url: `/api2/v1/serviceAccounts/${foreign.uid}` },
      { method: 'DELETE' as const, url: `/api2/v1/serviceAccounts/${foreign.uid}` },
      { method: 'GET' as const, url: '/api2/v1/serviceAccounts/unknown' },
    ]) {
      const response = await t.inject({ ...request, headers: own.headers });
      expect(response.statusCode).toBe(404);
      expect(response.json().errorCode).toBe('ResourceNotFound');
    }
    // The foreign account was not touched.
    expect((await clientCredentials(foreign)).statusCode).toBe(200);
  });

  it('deleting the account removes its bot user and refuses its tokens at once', async () => {
    const account = await makeServiceAccount(t, admin.headers, { products: ['tms'], scopes: ['read'] });
    const jwt = (await clientCredentials(account)).json().access_token;
    expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: { authorization: `Bearer ${jwt}` } })).statusCode).toBe(200);

    const response = await t.inject({ method: 'DELETE', url: `/api2/v1/serviceAccounts/${account.uid}`, headers: admin.headers });
    expect(response.statusCode).toBe(204);
    expect(await t.database.db.selectFrom('users').select('id').where('uid', '=', account.botUser.uid).executeTakeFirst()).toBeUndefined();
    expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: { authorization: `Bearer ${jwt}` } })).statusCode).toBe(401);
    const again = await clientCredentials(account);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('invalid_client');
    expect((await t.inject({ url: `/api2/v1/serviceAccounts/${account.uid}`, headers: admin.headers })).statusCode).toBe(404);
    expect((await t.inject({ method: 'DELETE', url: `/api2/v1/serviceAccounts/${account.uid}`, headers: admin.headers })).statusCode).toBe(
      404,
    );
  });

  it('is for ADMIN users only', async () => {
    expect((await t.inject({ url: '/api2/v1/serviceAccounts' })).statusCode).toBe(401);
    const account = await makeServiceAccount(t, admin.headers);
    for (const role of ['PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
      const { headers } = await signedInUser(t, role, admin.organization);
      for (const request of [
        { method: 'POST' as const, url: '/api2/v1/serviceAccounts', payload: { name: 'x', products: ['tms'], scopes: ['read'] } },
        { method: 'GET' as const, url: '/api2/v1/serviceAccounts' },
        { method: 'GET' as const, url: `/api2/v1/serviceAccounts/${account.uid}` },
        { method: 'DELETE' as const, url: `/api2/v1/serviceAccounts/${account.uid}` },
      ]) {
        const response = await t.inject({ ...request, headers });
        expect(response.statusCode, `${role} ${request.method} ${request.url}`).toBe(403);
        expect(response.json().errorCode).toBe('AccessDenied');
      }
    }
  });

  describe('bot users', () => {
    it('cannot log in interactively', async () => {
      const account = await makeServiceAccount(t, admin.headers);
      for (const password of ['anything', account.clientSecret]) {
        const response = await t.inject({
          method: 'POST',
          url: '/api2/v3/auth/login',
          payload: { userName: account.botUser.userName, password },
        });
        expect(response.statusCode).toBe(401);
        expect(response.json().errorCode).toBe('AuthInvalidCredentials');
      }
    });

    it('cannot create service accounts or API tokens, even with the write scope', async () => {
      const account = await makeServiceAccount(t, admin.headers, { products: ['tms'], scopes: ['read', 'write'] });
      const jwt = (await clientCredentials(account)).json().access_token;
      const headers = { authorization: `Bearer ${jwt}` };
      const made = await create(headers, { name: 'bot made', products: ['tms'], scopes: ['read'] });
      expect(made.statusCode).toBe(403);
      expect(made.json().errorCode).toBe('AccessDenied');
      const token = await t.inject({ method: 'POST', url: '/api2/v1/auth/apiTokens', headers, payload: { name: 'bot token' } });
      expect(token.statusCode).toBe(403);
    });

    it('get distinct user names, even for accounts of the same name', async () => {
      const a = await makeServiceAccount(t, admin.headers, { name: 'Same name' });
      const b = await makeServiceAccount(t, admin.headers, { name: 'Same name' });
      expect(a.botUser.userName).not.toBe(b.botUser.userName);
    });
  });
});
