import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { DEFAULT_PASSWORD, apiToken, loginAs, makeOrganization, makeUser, signedInUser } from './factories.js';

/** The login and token basics the foundation needs (the full identity work is issue 3). */
describe('login, tokens and the users list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('v1 and v3 login return a token, its expiry and the user', async () => {
    const org = await makeOrganization(t.database.db);
    const user = await makeUser(t.database.db, org, { role: 'PROJECT_MANAGER' });
    for (const url of ['/api2/v1/auth/login', '/api2/v3/auth/login', '/web/api2/v3/auth/login']) {
      const response = await t.inject({ method: 'POST', url, payload: { userName: user.userName, password: DEFAULT_PASSWORD } });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(new Date(body.expires).getTime()).toBe(t.clock().getTime() + 24 * 3600 * 1000);
      expect(body.user).toMatchObject({ uid: user.uid, id: user.id, userName: user.userName, role: 'PROJECT_MANAGER' });
    }
  });

  it('a wrong password and an unknown user name get the same 401', async () => {
    const org = await makeOrganization(t.database.db);
    const user = await makeUser(t.database.db, org);
    const wrong = await t.inject({ method: 'POST', url: '/api2/v3/auth/login', payload: { userName: user.userName, password: 'nope' } });
    const unknown = await t.inject({
      method: 'POST',
      url: '/api2/v3/auth/login',
      payload: { userName: 'nobody-at-all', password: 'nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().errorCode).toBe('AuthInvalidCredentials');
  });

  it('accepts the token as "Authorization: ApiToken" and as ?token=', async () => {
    const { token, user } = await signedInUser(t, 'LINGUIST');
    const byHeader = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(token) });
    const byQuery = await t.inject({ url: `/api2/v1/auth/whoAmI?token=${token}` });
    expect(byHeader.statusCode).toBe(200);
    expect(byQuery.json()).toEqual(byHeader.json());
    expect(byHeader.json().user.uid).toBe(user.uid);
  });

  it('refuses a missing, unknown or expired token with 401', async () => {
    const { token } = await signedInUser(t);
    expect((await t.inject('/api2/v1/auth/whoAmI')).statusCode).toBe(401);
    expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken('made-up') })).statusCode).toBe(401);
    expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: { authorization: 'Basic Zm9vOmJhcg==' } })).statusCode).toBe(401);
    t.clock.advance(24 * 3600 * 1000 + 1);
    const expired = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(token) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().errorCode).toBe('AuthUnauthorized');
  });

  it("lists only the users of the caller's organization, with filters and paging", async () => {
    const { organization, headers, user: admin } = await signedInUser(t, 'ADMIN');
    await makeUser(t.database.db, organization, { firstName: 'Zoë', lastName: 'Zimmer', role: 'LINGUIST', createdById: admin.id });
    await makeUser(t.database.db, organization, { firstName: 'Ann', lastName: 'Anders', role: 'PROJECT_MANAGER' });
    const other = await makeOrganization(t.database.db);
    await makeUser(t.database.db, other, { firstName: 'Zed', lastName: 'Elsewhere' });

    const all = (await t.inject({ url: '/api2/v1/users', headers })).json();
    expect(all.totalElements).toBe(3);
    expect(all.content.map((u: { lastName: string }) => u.lastName).sort()).toEqual(['Anders', 'User', 'Zimmer']);

    const page = (await t.inject({ url: '/api2/v1/users?pageSize=2&pageNumber=1', headers })).json();
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2, pageSize: 2, pageNumber: 1, numberOfElements: 1 });

    const beyond = (await t.inject({ url: '/api2/v1/users?pageSize=2&pageNumber=5', headers })).json();
    expect(beyond).toMatchObject({ totalElements: 3, numberOfElements: 0, content: [] });

    const byName = (await t.inject({ url: '/api2/v1/users?name=zIm', headers })).json();
    expect(byName.content.map((u: { lastName: string }) => u.lastName)).toEqual(['Zimmer']);
    expect(byName.content[0].createdBy.uid).toBe(admin.uid);

    const byRole = (await t.inject({ url: '/api2/v1/users?role=LINGUIST&role=PROJECT_MANAGER&sort=LAST_NAME&order=DESC', headers })).json();
    expect(byRole.content.map((u: { lastName: string }) => u.lastName)).toEqual(['Zimmer', 'Anders']);

    const literal = (await t.inject({ url: '/api2/v1/users?name=%25', headers })).json();
    expect(literal.totalElements).toBe(0);
  });

  it('refuses the users list to a linguist with 403', async () => {
    const { headers } = await signedInUser(t, 'LINGUIST');
    const response = await t.inject({ url: '/api2/v1/users', headers });
    expect(response.statusCode).toBe(403);
    expect(response.json().errorCode).toBe('AccessDenied');
  });

  it('an unknown role filter is a 400', async () => {
    const { headers } = await signedInUser(t, 'ADMIN');
    const response = await t.inject({ url: '/api2/v1/users?role=OVERLORD', headers });
    expect(response.statusCode).toBe(400);
  });

  it('tokens are stored hashed', async () => {
    const org = await makeOrganization(t.database.db);
    const user = await makeUser(t.database.db, org);
    const token = await loginAs(t, user);
    const rows = await t.database.db.selectFrom('loginTokens').select('tokenHash').execute();
    expect(rows.some((r) => r.tokenHash.includes(token))).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });
});
