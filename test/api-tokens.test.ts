import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, makeServiceAccount, signedInUser, tokenRequest } from './factories.js';

/** Issue 3, point 5: personal API tokens (OpenTMS extension). */
describe('personal API tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const create = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: '/api2/v1/auth/apiTokens', headers, payload });
  const exchange = (subjectToken: string) =>
    tokenRequest(t, { grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', subject_token: subjectToken });

  it('creates a token, returns its value once, and the token authenticates', async () => {
    const { headers, user } = await signedInUser(t, 'LINGUIST');
    const response = await create(headers, { name: 'CI pipeline' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      uid: expect.any(String),
      name: 'CI pipeline',
      token: expect.stringMatching(/^otms_[A-Za-z0-9_-]{40,}$/),
      dateCreated: t.clock().toISOString(),
      expiresAt: null,
      lastUsed: null,
    });
    const who = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(body.token) });
    expect(who.statusCode).toBe(200);
    expect(who.json().user.uid).toBe(user.uid);

    // Only the hash is stored; the list never shows the value again.
    const rows = await t.database.db.selectFrom('apiTokens').select('tokenHash').execute();
    expect(rows.some((r) => r.tokenHash.includes(body.token) || body.token.includes(r.tokenHash))).toBe(false);
    const list = await t.inject({ url: '/api2/v1/auth/apiTokens', headers });
    expect(list.body).not.toContain(body.token);
    expect(list.json().content[0]).not.toHaveProperty('token');
  });

  it("lists only the caller's own tokens, paged, with revoked ones marked and last use recorded", async () => {
    const { headers } = await signedInUser(t, 'PROJECT_MANAGER');
    const other = await signedInUser(t, 'PROJECT_MANAGER');
    await create(other.headers, { name: 'not mine' });
    const first = (await create(headers, { name: 'first' })).json();
    await create(headers, { name: 'second' });
    await create(headers, { name: 'third', expiresAt: '2027-01-01T00:00:00Z' });
    expect((await t.inject({ method: 'DELETE', url: `/api2/v1/auth/apiTokens/${first.uid}`, headers })).statusCode).toBe(204);

    const all = (await t.inject({ url: '/api2/v1/auth/apiTokens', headers })).json();
    expect(all).toMatchObject({ totalElements: 3, totalPages: 1, pageNumber: 0, pageSize: 50, numberOfElements: 3 });
    expect(all.content.map((c: { name: string }) => c.name)).toEqual(['first', 'second', 'third']);
    expect(all.content[0]).toMatchObject({ uid: first.uid, revoked: true, dateRevoked: t.clock().toISOString() });
    expect(all.content[1]).toMatchObject({ revoked: false, dateRevoked: null, expiresAt: null, lastUsed: null });
    expect(all.content[2]).toMatchObject({ expiresAt: '2027-01-01T00:00:00.000Z' });

    const page = (await t.inject({ url: '/api2/v1/auth/apiTokens?pageSize=2&pageNumber=1', headers })).json();
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 1 });
    expect(page.content[0].name).toBe('third');
    expect((await t.inject({ url: '/api2/v1/auth/apiTokens?pageSize=51', headers })).statusCode).toBe(400);

    const used = (await create(headers, { name: 'used' })).json();
    t.clock.advance(5000);
    await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(used.token) });
    const afterUse = (await t.inject({ url: '/api2/v1/auth/apiTokens', headers })).json();
    expect(afterUse.content.find((c: { uid: string }) => c.uid === used.uid).lastUsed).toBe(t.clock().toISOString());
  });

  it('revoking refuses the token everywhere at once, including JWTs exchanged from it', async () => {
    const { headers } = await signedInUser(t, 'ADMIN');
    const { uid, token } = (await create(headers, { name: 'to revoke' })).json();
    const jwt = (await exchange(token)).json().access_token as string;
    expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: { authorization: `Bearer ${jwt}` } })).statusCode).toBe(200);

    expect((await t.inject({ method: 'DELETE', url: `/api2/v1/auth/apiTokens/${uid}`, headers })).statusCode).toBe(204);
    for (const authorization of [`ApiToken ${token}`, `Bearer ${token}`, `Bearer ${jwt}`]) {
      const response = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: { authorization } });
      expect(response.statusCode).toBe(401);
      expect(response.json().errorCode).toBe('AuthUnauthorized');
    }
    expect((await t.inject(`/api2/v1/users?token=${token}`)).statusCode).toBe(401);
    expect((await exchange(token)).json().error).toBe('invalid_grant');
    // Revoking again is a no-op.
    expect((await t.inject({ method: 'DELETE', url: `/api2/v1/auth/apiTokens/${uid}`, headers })).statusCode).toBe(204);
  });

  it("an unknown uid, or someone else's token, is a 404 and stays valid", async () => {
    const { headers } = await signedInUser(t, 'ADMIN');
    const sameOrg = await signedInUser(t, 'LINGUIST');
    const theirs = (await create(sameOrg.headers, { name: 'theirs' })).json();
    const unknown = await t.inject({ method: 'DELETE', url: '/api2/v1/auth/apiTokens/nope', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorCode).toBe('ResourceNotFound');
    expect((await t.inject({ method: 'DELETE', url: `/api2/v1/auth/apiTokens/${theirs.uid}`, headers })).statusCode).toBe(404);
    expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(theirs.token) })).statusCode).toBe(200);
  });

  it('an expiring token stops working at its expiry', async () => {
    const { headers } = await signedInUser(t, 'GUEST');
    const expiresAt = new Date(t.clock().getTime() + 3600_000).toISOString();
    const { token } = (await create(headers, { name: 'short', expiresAt })).json();
    expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(token) })).statusCode).toBe(200);
    t.clock.advance(3600_000);
    expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(token) })).statusCode).toBe(401);
    expect((await exchange(token)).json().error).toBe('invalid_grant');
  });

  it('refuses a bad name or expiry with 400 and writes nothing', async () => {
    const { headers, user } = await signedInUser(t, 'ADMIN');
    const cases: Record<string, unknown>[] = [
      { name: 'x'.repeat(256) },
      { name: '' },
      {},
      { name: 'past', expiresAt: new Date(t.clock().getTime() - 1000).toISOString() },
      { name: 'now', expiresAt: t.clock().toISOString() },
      { name: 'not a date', expiresAt: 'tomorrow' },
    ];
    for (const payload of cases) {
      const response = await create(headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errorCode).toBe('InvalidArguments');
    }
    const rows = await t.database.db.selectFrom('apiTokens').select('id').where('userId', '=', user.id).execute();
    expect(rows).toEqual([]);
    expect((await create(headers, { name: 'x'.repeat(255) })).statusCode).toBe(201);
  });

  it('needs an authenticated human: no token is 401, bots are 403', async () => {
    expect((await t.inject({ url: '/api2/v1/auth/apiTokens' })).statusCode).toBe(401);
    expect((await t.inject({ method: 'POST', url: '/api2/v1/auth/apiTokens', payload: { name: 'x' } })).statusCode).toBe(401);
    const admin = await signedInUser(t, 'ADMIN');
    const account = await makeServiceAccount(t, admin.headers, { products: ['tms'], scopes: ['read', 'write'] });
    const jwt = (
      await tokenRequest(t, { grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret })
    ).json().access_token as string;
    const bot = { authorization: `Bearer ${jwt}` };
    for (const request of [
      { method: 'POST' as const, url: '/api2/v1/auth/apiTokens', payload: { name: 'bot token' } },
      { method: 'GET' as const, url: '/api2/v1/auth/apiTokens' },
      { method: 'DELETE' as const, url: '/api2/v1/auth/apiTokens/whatever' },
    ]) {
      const response = await t.inject({ ...request, headers: bot });
      expect(response.statusCode, request.method).toBe(403);
    }
  });

  it('an API token, or a JWT exchanged from one, cannot mint more API tokens', async () => {
    const { headers } = await signedInUser(t, 'ADMIN');
    const { token } = (await create(headers, { name: 'parent' })).json();
    const jwt = (await exchange(token)).json().access_token as string;
    for (const authorization of [`Bearer ${jwt}`, `ApiToken ${token}`]) {
      const response = await create({ authorization }, { name: 'child' });
      expect(response.statusCode).toBe(403);
      expect(response.json().errorCode).toBe('AccessDenied');
      // Reading and revoking their own tokens is fine.
      expect((await t.inject({ url: '/api2/v1/auth/apiTokens', headers: { authorization } })).statusCode).toBe(200);
    }
  });

  it('is served under /web/api2 too', async () => {
    const { headers } = await signedInUser(t, 'SUBMITTER');
    expect((await t.inject({ method: 'POST', url: '/web/api2/v1/auth/apiTokens', headers, payload: { name: 'web' } })).statusCode).toBe(
      201,
    );
    expect((await t.inject({ url: '/web/api2/v1/auth/apiTokens', headers })).json().totalElements).toBe(1);
  });
});
