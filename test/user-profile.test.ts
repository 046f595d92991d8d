import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { DEFAULT_PASSWORD, apiToken, loginAs, signedInUser } from './factories.js';

/** Issue 3, point 2: "the current user can read and edit their own profile". */
describe('GET/PUT /api2/v1/userProfile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('any role reads its own profile, with its role fields', async () => {
    for (const role of ['ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'SUBMITTER'] as const) {
      const { headers, user } = await signedInUser(t, role);
      const response = await t.inject({ url: '/api2/v1/userProfile', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ uid: user.uid, role, userName: user.userName });
    }
  });

  it('edits names, e-mail, time zone and newsletter; omitted fields stay; role cannot be changed here', async () => {
    const { headers, user } = await signedInUser(t, 'LINGUIST');
    const response = await t.inject({
      method: 'PUT',
      url: '/api2/v1/userProfile',
      headers,
      payload: { firstName: 'Renamed', timezone: 'Asia/Tokyo', receiveNewsletter: false, role: 'ADMIN' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Renamed',
      lastName: user.lastName,
      timezone: 'Asia/Tokyo',
      receiveNewsletter: false,
      role: 'LINGUIST',
    });
  });

  it('a new password needs the current one, and ends the other sessions but not this one', async () => {
    const { headers, user } = await signedInUser(t, 'LINGUIST');
    const other = await loginAs(t, user);
    const without = await t.inject({ method: 'PUT', url: '/api2/v1/userProfile', headers, payload: { newPassword: 'a new password' } });
    expect(without.statusCode).toBe(400);
    expect(without.json().errorCode).toBe('CurrentPasswordWrong');
    const wrong = await t.inject({
      method: 'PUT',
      url: '/api2/v1/userProfile',
      headers,
      payload: { newPassword: 'a new password', currentPassword: 'nope' },
    });
    expect(wrong.statusCode).toBe(400);
    const ok = await t.inject({
      method: 'PUT',
      url: '/api2/v1/userProfile',
      headers,
      payload: { newPassword: 'a new password', currentPassword: DEFAULT_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.inject({ url: '/api2/v1/userProfile', headers })).statusCode).toBe(200);
    expect((await t.inject({ url: '/api2/v1/userProfile', headers: apiToken(other) })).statusCode).toBe(401);
    await loginAs(t, user, 'a new password');
  });

  it.each([
    [{ timezone: 'Mars/Base' }],
    [{ email: 'nope' }],
    [{ firstName: 'x'.repeat(256) }],
    [{ newPassword: 'short', currentPassword: DEFAULT_PASSWORD }],
  ])('refuses %j and changes nothing', async (payload) => {
    const { headers, user } = await signedInUser(t, 'LINGUIST');
    const response = await t.inject({ method: 'PUT', url: '/api2/v1/userProfile', headers, payload });
    expect(response.statusCode).toBe(400);
    const after = (await t.inject({ url: '/api2/v1/userProfile', headers })).json();
    expect(after).toMatchObject({ email: user.email, firstName: user.firstName, timezone: user.timezone });
  });

  it('without a token is a 401', async () => {
    expect((await t.inject('/api2/v1/userProfile')).statusCode).toBe(401);
  });
});
