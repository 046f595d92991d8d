import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { DEFAULT_PASSWORD, apiToken, loginAs, makeOrganization, makeUser, signedInUser } from './factories.js';
import { FREE_ATTEMPTS } from '../src/domain/auth/login-throttle.js';

/** Issue 3, points 3 and 4: logins, sessions, logout, loginOther, refresh, SSO, throttling. */

const login = (t: TestApp, userName: string, password: string, url = '/api2/v3/auth/login') =>
  t.inject({ method: 'POST', url, payload: { userName, password } });

describe('logins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('throttling of failed logins', () => {
    it(`after ${FREE_ATTEMPTS} failures the name is locked for a while (429 + Retry-After), even with the right password`, async () => {
      const org = await makeOrganization(t.database.db);
      const user = await makeUser(t.database.db, org);
      for (let i = 0; i < FREE_ATTEMPTS; i++) expect((await login(t, user.userName, 'wrong')).statusCode).toBe(401);
      const locked = await login(t, user.userName, DEFAULT_PASSWORD);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().errorCode).toBe('AuthTooManyAttempts');
      expect(locked.headers['retry-after']).toBe('60');
      t.clock.advance(61_000);
      expect((await login(t, user.userName, DEFAULT_PASSWORD)).statusCode).toBe(200);
      // Success starts the count again.
      expect((await login(t, user.userName, 'wrong')).statusCode).toBe(401);
      expect((await login(t, user.userName, DEFAULT_PASSWORD)).statusCode).toBe(200);
    });

    it('an unknown user name is throttled the same way, so lockouts reveal nothing', async () => {
      for (let i = 0; i < FREE_ATTEMPTS; i++) expect((await login(t, 'ghost-user', 'wrong')).statusCode).toBe(401);
      expect((await login(t, 'ghost-user', 'wrong')).statusCode).toBe(429);
    });
  });

  describe('SSO restrictions (description, "Legacy login rules")', () => {
    it('ssoOnly alone refuses session logins but not password logins; with apiTokenSsoEnforced both are refused', async () => {
      const org = await makeOrganization(t.database.db);
      const user = await makeUser(t.database.db, org);
      await t.database.db.updateTable('organizations').set({ ssoOnly: true }).where('id', '=', org.id).execute();
      expect((await login(t, user.userName, DEFAULT_PASSWORD)).statusCode).toBe(200);
      const session = await login(t, user.userName, DEFAULT_PASSWORD, '/api2/v3/auth/loginToSession');
      expect(session.statusCode).toBe(403);
      expect(session.json().errorCode).toBe('AuthSsoRequired');
      await t.database.db.updateTable('organizations').set({ apiTokenSsoEnforced: true }).where('id', '=', org.id).execute();
      const refused = await login(t, user.userName, DEFAULT_PASSWORD);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errorCode).toBe('AuthSsoRequired');
      // A wrong password still gets the plain 401: the SSO answer reveals nothing to a guesser.
      expect((await login(t, user.userName, 'wrong')).statusCode).toBe(401);
    });
  });

  describe('sessions', () => {
    it('loginToSession sets a cookie; reads work with it, writes need the CSRF header', async () => {
      const { organization } = await signedInUser(t, 'ADMIN');
      const user = await makeUser(t.database.db, organization, { role: 'ADMIN' });
      const response = await login(t, user.userName, DEFAULT_PASSWORD, '/api2/v3/auth/loginToSession');
      expect(response.statusCode).toBe(200);
      const { cookie, csrfToken } = response.json();
      expect(cookie).toMatch(/^OPENTMS_SESSION=/);
      expect(response.headers['set-cookie']).toMatch(/HttpOnly/);
      expect(response.headers['set-cookie']).toMatch(/SameSite=Lax/);

      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: { cookie } })).statusCode).toBe(200);
      const payload = {
        userName: `s-${Date.now()}`,
        firstName: 'S',
        lastName: 'S',
        email: 's@s.test',
        password: 'a long password',
        role: 'LINGUIST',
        timezone: 'UTC',
      };
      const noCsrf = await t.inject({ method: 'POST', url: '/api2/v3/users', headers: { cookie }, payload });
      expect(noCsrf.statusCode).toBe(403);
      expect(noCsrf.json().errorCode).toBe('CsrfTokenInvalid');
      const wrongCsrf = await t.inject({ method: 'POST', url: '/api2/v3/users', headers: { cookie, 'x-csrf-token': 'guess' }, payload });
      expect(wrongCsrf.statusCode).toBe(403);
      const ok = await t.inject({ method: 'POST', url: '/api2/v3/users', headers: { cookie, 'x-csrf-token': csrfToken }, payload });
      expect(ok.statusCode).toBe(201);

      // Logout through the cookie also needs the CSRF header, then the cookie is dead.
      expect((await t.inject({ method: 'POST', url: '/api2/v1/auth/logout', headers: { cookie } })).statusCode).toBe(403);
      const out = await t.inject({ method: 'POST', url: '/api2/v1/auth/logout', headers: { cookie, 'x-csrf-token': csrfToken } });
      expect(out.statusCode).toBe(204);
      expect(out.headers['set-cookie']).toMatch(/Max-Age=0/);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: { cookie } })).statusCode).toBe(401);
    });

    it('the v1 loginToSession works too and is marked deprecated', async () => {
      const { user } = await signedInUser(t, 'LINGUIST');
      expect((await login(t, user.userName, DEFAULT_PASSWORD, '/api2/v1/auth/loginToSession')).statusCode).toBe(200);
    });
  });

  describe('logout', () => {
    it('ends the token given in the header', async () => {
      const { token } = await signedInUser(t, 'LINGUIST');
      expect((await t.inject({ method: 'POST', url: '/api2/v1/auth/logout', headers: apiToken(token) })).statusCode).toBe(204);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(token) })).statusCode).toBe(401);
    });

    it('ends the token given in the query', async () => {
      const { token } = await signedInUser(t, 'LINGUIST');
      expect((await t.inject({ method: 'POST', url: `/api2/v1/auth/logout?token=${token}` })).statusCode).toBe(204);
      expect((await t.inject({ url: `/api2/v1/auth/whoAmI?token=${token}` })).statusCode).toBe(401);
    });

    it('refuses a token in both places with 400 and ends nothing', async () => {
      const { token } = await signedInUser(t, 'LINGUIST');
      const response = await t.inject({ method: 'POST', url: `/api2/v1/auth/logout?token=${token}`, headers: apiToken(token) });
      expect(response.statusCode).toBe(400);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(token) })).statusCode).toBe(200);
    });

    it('without a valid token is a 401', async () => {
      expect((await t.inject({ method: 'POST', url: '/api2/v1/auth/logout' })).statusCode).toBe(401);
      expect((await t.inject({ method: 'POST', url: '/api2/v1/auth/logout?token=nope' })).statusCode).toBe(401);
    });
  });

  describe('login as another user', () => {
    it('an ADMIN gets a token for a user of the organization, v1 and v3', async () => {
      const { headers, organization } = await signedInUser(t, 'ADMIN');
      const target = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
      for (const [url, payload] of [
        ['/api2/v1/auth/loginOther', { userName: target.userName }],
        ['/api2/v3/auth/loginOther', { userName: target.userName, userUid: target.uid }],
      ] as const) {
        const response = await t.inject({ method: 'POST', url, headers, payload });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().user.uid).toBe(target.uid);
        const whoAmI = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(response.json().token) });
        expect(whoAmI.json().user.uid).toBe(target.uid);
      }
    });

    it('is refused to non-admins, and an impersonated token cannot impersonate again', async () => {
      const { headers, organization } = await signedInUser(t, 'ADMIN');
      const pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER' });
      const other = await makeUser(t.database.db, organization, { role: 'ADMIN' });
      const pmHeaders = apiToken(await loginAs(t, pm));
      expect(
        (await t.inject({ method: 'POST', url: '/api2/v3/auth/loginOther', headers: pmHeaders, payload: { userName: other.userName } }))
          .statusCode,
      ).toBe(403);
      const asOther = (
        await t.inject({ method: 'POST', url: '/api2/v3/auth/loginOther', headers, payload: { userName: other.userName } })
      ).json();
      const chained = await t.inject({
        method: 'POST',
        url: '/api2/v3/auth/loginOther',
        headers: apiToken(asOther.token),
        payload: { userName: pm.userName },
      });
      expect(chained.statusCode).toBe(403);
    });

    it("another organization's user is not found", async () => {
      const { headers } = await signedInUser(t, 'ADMIN');
      const stranger = await makeUser(t.database.db, await makeOrganization(t.database.db));
      expect(
        (await t.inject({ method: 'POST', url: '/api2/v3/auth/loginOther', headers, payload: { userName: stranger.userName } })).statusCode,
      ).toBe(404);
    });
  });

  describe('refresh (OpenTMS extension)', () => {
    it('trades a login token for a new one and ends the old', async () => {
      const { token } = await signedInUser(t, 'LINGUIST');
      t.clock.advance(3600_000);
      const response = await t.inject({ method: 'POST', url: '/api2/v1/auth/refresh', headers: apiToken(token) });
      expect(response.statusCode).toBe(200);
      const fresh = response.json();
      expect(new Date(fresh.expires).getTime()).toBe(t.clock().getTime() + 24 * 3600_000);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(token) })).statusCode).toBe(401);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(fresh.token) })).statusCode).toBe(200);
    });
  });

  describe('whoAmI', () => {
    it('returns the user, the organization and the edition', async () => {
      const { headers, user, organization } = await signedInUser(t, 'GUEST');
      const body = (await t.inject({ url: '/api2/v1/auth/whoAmI', headers })).json();
      expect(body.user).toMatchObject({ uid: user.uid, role: 'GUEST', userName: user.userName });
      expect(body.organization).toMatchObject({ uid: organization.uid, name: organization.name });
      expect(body.edition.name).toBe('OpenTMS');
    });
  });

  describe('bad input', () => {
    it.each([
      ['no body', undefined],
      ['a missing password', { userName: 'x' }],
      ['an object as user name', { userName: { a: 1 }, password: 'x' }],
      ['an oversized user name', { userName: 'x'.repeat(300), password: 'x' }],
    ])('login with %s is a 400', async (_what, payload) => {
      const response = await t.inject({ method: 'POST', url: '/api2/v3/auth/login', ...(payload ? { payload } : {}) });
      expect(response.statusCode).toBe(400);
    });
  });
});

describe('client addresses behind a proxy', () => {
  it.each([
    [{}, '127.0.0.1'],
    [{ OPENTMS_TRUST_PROXY: 'loopback' }, '203.0.113.9'],
  ])('with %j the login history records %s', async (env, expected) => {
    const t = await createTestApp({ env });
    const { headers, organization } = await signedInUser(t, 'ADMIN');
    const user = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
    await t.inject({
      method: 'POST',
      url: '/api2/v3/auth/login',
      headers: { 'x-forwarded-for': '203.0.113.9' },
      payload: { userName: user.userName, password: DEFAULT_PASSWORD },
    });
    const stats = (await t.inject({ url: `/api2/v1/users/${user.uid}/loginStatistics`, headers })).json();
    expect(stats.userStatistics[0].ipAddress).toBe(expected);
    await t.close();
  });
});
