import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { DEFAULT_PASSWORD, apiToken, loginAs, makeClient, makeOrganization, makeUser, signedInUser } from './factories.js';

/** Issue 3, point 2: users v1 and v3, roles and their fields, project managers' rights. */

const newUser = (role: string, extra: Record<string, unknown> = {}) => ({
  userName: `u-${role.toLowerCase()}-${Math.random().toString(36).slice(2, 9)}`,
  firstName: 'Jana',
  lastName: 'Nováková',
  email: 'jana@example.test',
  password: 'a good password',
  role,
  timezone: 'Europe/Prague',
  ...extra,
});

describe('users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('create (v3)', () => {
    it('creates each role with its role-specific fields and their defaults', async () => {
      const { headers, organization } = await signedInUser(t, 'ADMIN');
      const client = await makeClient(t.database.db, organization);
      const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
        ['ADMIN', {}, { role: 'ADMIN' }],
        [
          'PROJECT_MANAGER',
          { sourceLocales: ['en'], targetLocales: ['de_de', 'cs'] },
          {
            projectCreate: true,
            userCreate: true,
            clientCreate: false,
            clientViewOther: false,
            subDomainCreate: false,
            setupServer: true,
            dashboardSetting: 'OWN_DATA',
            targetLocales: ['de_de', 'cs'],
          },
        ],
        [
          'LINGUIST',
          { mayRejectJobs: true, clients: [{ uid: client.uid }] },
          {
            editAllTermsInTB: false,
            enableMT: true,
            mayRejectJobs: true,
            clients: [{ id: client.id, uid: client.uid, name: client.name }],
          },
        ],
        [
          'GUEST',
          { client: { uid: client.uid }, projectViewOther: false },
          { client: { id: client.id, uid: client.uid, name: client.name }, projectViewOther: false, enableMT: true },
        ],
        ['SUBMITTER', {}, { projectViewCreatedByOtherSubmitters: false, automationWidgets: [] }],
      ];
      for (const [role, extra, expected] of cases) {
        const response = await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload: newUser(role, extra) });
        expect(response.statusCode, response.body).toBe(201);
        const body = response.json();
        expect(body).toMatchObject({ role, firstName: 'Jana', lastName: 'Nováková', timezone: 'Europe/Prague', active: true, ...expected });
        expect(body.uid).toMatch(/^[A-Za-z0-9]{22}$/);
        expect(body.id).toMatch(/^\d+$/);
        expect(body).not.toHaveProperty('password');
        // Fields of other roles do not leak in.
        if (role !== 'PROJECT_MANAGER') expect(body).not.toHaveProperty('projectCreate');
        if (role !== 'GUEST') expect(body).not.toHaveProperty('client');
        const read = await t.inject({ url: `/api2/v3/users/${body.uid}`, headers });
        expect(read.json()).toEqual(body);
      }
    });

    it('the new user can log in with the password', async () => {
      const { headers } = await signedInUser(t, 'ADMIN');
      const payload = newUser('LINGUIST');
      await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload });
      const login = await t.inject({
        method: 'POST',
        url: '/api2/v3/auth/login',
        payload: { userName: payload.userName, password: payload.password },
      });
      expect(login.statusCode).toBe(200);
    });

    it.each([
      ['an unknown role', { role: 'OVERLORD' }, 400, 'InvalidArguments'],
      ['SYS_ADMIN', { role: 'SYS_ADMIN' }, 400, 'InvalidArguments'],
      ['an oversized first name', { firstName: 'x'.repeat(256) }, 400, 'InvalidArguments'],
      ['a missing e-mail', { email: undefined }, 400, 'InvalidArguments'],
      ['a malformed e-mail', { email: 'not-an-email' }, 400, 'InvalidArguments'],
      ['a short password', { password: 'short' }, 400, 'InvalidArguments'],
      ['an unknown time zone', { timezone: 'Mars/Olympus' }, 400, 'InvalidArguments'],
      ['a GUEST without client', { role: 'GUEST' }, 400, 'InvalidArguments'],
      ['a GUEST with an unknown client', { role: 'GUEST', client: { uid: 'nope' } }, 400, 'ReferenceNotFound'],
      ['a linguist with a domain that does not exist', { role: 'LINGUIST', domains: [{ uid: 'nope' }] }, 400, 'ReferenceNotFound'],
      ['a bad locale', { role: 'LINGUIST', targetLocales: ['Klingon!'] }, 400, 'UnsupportedLanguage'],
      ['a right that is not a boolean', { role: 'PROJECT_MANAGER', projectCreate: 'yes' }, 400, 'InvalidArguments'],
    ])('refuses %s and writes nothing', async (_what, override, status, code) => {
      const { headers, organization } = await signedInUser(t, 'ADMIN');
      const payload = { ...newUser('LINGUIST'), ...override } as Record<string, unknown>;
      if (payload.email === undefined) delete payload.email;
      const before = await t.database.db.selectFrom('users').select('id').where('organizationId', '=', organization.id).execute();
      const response = await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().errorCode).toBe(code);
      const after = await t.database.db.selectFrom('users').select('id').where('organizationId', '=', organization.id).execute();
      expect(after.length).toBe(before.length);
    });

    it('refuses a taken user name, in any case, with 409', async () => {
      const { headers, user } = await signedInUser(t, 'ADMIN');
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v3/users',
        headers,
        payload: newUser('LINGUIST', { userName: user.userName.toUpperCase() }),
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().errorCode).toBe('UserNameAlreadyExists');
    });

    it('a password equal to the user name is refused', async () => {
      const { headers } = await signedInUser(t, 'ADMIN');
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v3/users',
        headers,
        payload: newUser('LINGUIST', { userName: 'samesame1', password: 'SameSame1' }),
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe("project managers' rights", () => {
    it('a PM with default rights creates linguists but not admins, and sees only own users without userViewOther', async () => {
      const { organization, user: admin, headers: adminHeaders } = await signedInUser(t, 'ADMIN');
      const pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER', createdById: admin.id });
      const pmHeaders = apiToken(await loginAs(t, pm));
      const created = await t.inject({ method: 'POST', url: '/api2/v3/users', headers: pmHeaders, payload: newUser('LINGUIST') });
      expect(created.statusCode).toBe(201);
      const admin2 = await t.inject({ method: 'POST', url: '/api2/v3/users', headers: pmHeaders, payload: newUser('ADMIN') });
      expect(admin2.statusCode).toBe(403);
      expect(created.json().assignableRoles).toEqual(['PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER']);

      // Default userViewOther is on: the PM sees everyone.
      const all = (await t.inject({ url: '/api2/v1/users', headers: pmHeaders })).json();
      expect(all.totalElements).toBe(3);

      // Switch userViewOther off: only the users the PM created, and the PM.
      const pmRecord = (await t.inject({ url: `/api2/v3/users/${pm.uid}`, headers: adminHeaders })).json();
      const edit = await t.inject({
        method: 'PUT',
        url: `/api2/v3/users/${pm.uid}`,
        headers: adminHeaders,
        payload: {
          userName: pmRecord.userName,
          firstName: pmRecord.firstName,
          lastName: pmRecord.lastName,
          email: pmRecord.email,
          role: 'PROJECT_MANAGER',
          timezone: pmRecord.timezone,
          userViewOther: false,
          userCreate: false,
        },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      expect(edit.json()).toMatchObject({ userViewOther: false, userCreate: false, projectCreate: true });
      const own = (await t.inject({ url: '/api2/v1/users', headers: pmHeaders })).json();
      expect(own.content.map((u: { uid: string }) => u.uid).sort()).toEqual([created.json().uid, pm.uid].sort());
      const adminView = await t.inject({ url: `/api2/v3/users/${admin.uid}`, headers: pmHeaders });
      expect(adminView.statusCode).toBe(403);
      // ... and without userCreate, no more users.
      const again = await t.inject({ method: 'POST', url: '/api2/v3/users', headers: pmHeaders, payload: newUser('LINGUIST') });
      expect(again.statusCode).toBe(403);
    });

    it('a PM cannot edit or delete an ADMIN', async () => {
      const { organization, user: admin } = await signedInUser(t, 'ADMIN');
      const pm = await makeUser(t.database.db, organization, { role: 'PROJECT_MANAGER' });
      const pmHeaders = apiToken(await loginAs(t, pm));
      const del = await t.inject({ method: 'DELETE', url: `/api2/v1/users/${admin.uid}`, headers: pmHeaders });
      expect(del.statusCode).toBe(403);
    });

    it('linguists, guests and submitters cannot manage users', async () => {
      for (const role of ['LINGUIST', 'SUBMITTER'] as const) {
        const { headers } = await signedInUser(t, role);
        expect((await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload: newUser('LINGUIST') })).statusCode).toBe(403);
        expect((await t.inject({ url: '/api2/v1/users', headers })).statusCode).toBe(403);
      }
    });
  });

  describe('edit (v3)', () => {
    it('replaces the fields and keeps unsent rights; a role change swaps the role fields', async () => {
      const { headers } = await signedInUser(t, 'ADMIN');
      const created = (
        await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload: newUser('LINGUIST', { mayRejectJobs: true }) })
      ).json();
      const base = { userName: created.userName, firstName: 'Eva', lastName: 'Nová', email: 'eva@example.test', timezone: 'UTC' };
      const edited = await t.inject({
        method: 'PUT',
        url: `/api2/v3/users/${created.uid}`,
        headers,
        payload: { ...base, role: 'LINGUIST', note: 'reviewer' },
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({
        firstName: 'Eva',
        email: 'eva@example.test',
        timezone: 'UTC',
        note: 'reviewer',
        mayRejectJobs: true,
      });
      const promoted = await t.inject({
        method: 'PUT',
        url: `/api2/v3/users/${created.uid}`,
        headers,
        payload: { ...base, role: 'PROJECT_MANAGER' },
      });
      expect(promoted.json()).toMatchObject({ role: 'PROJECT_MANAGER', projectCreate: true });
      expect(promoted.json()).not.toHaveProperty('mayRejectJobs');
    });

    it('refuses changing your own role, deactivating yourself, or removing the last ADMIN', async () => {
      const { headers, user } = await signedInUser(t, 'ADMIN');
      const base = { userName: user.userName, firstName: 'A', lastName: 'B', email: 'a@b.test', timezone: 'UTC' };
      expect(
        (await t.inject({ method: 'PUT', url: `/api2/v3/users/${user.uid}`, headers, payload: { ...base, role: 'LINGUIST' } })).statusCode,
      ).toBe(400);
      expect(
        (await t.inject({ method: 'PUT', url: `/api2/v3/users/${user.uid}`, headers, payload: { ...base, role: 'ADMIN', active: false } }))
          .statusCode,
      ).toBe(400);
    });

    it("another organization's user is not found", async () => {
      const { headers } = await signedInUser(t, 'ADMIN');
      const stranger = await makeUser(t.database.db, await makeOrganization(t.database.db));
      expect((await t.inject({ url: `/api2/v3/users/${stranger.uid}`, headers })).statusCode).toBe(404);
      expect((await t.inject({ method: 'DELETE', url: `/api2/v1/users/${stranger.uid}`, headers })).statusCode).toBe(404);
      const put = await t.inject({
        method: 'PUT',
        url: `/api2/v3/users/${stranger.uid}`,
        headers,
        payload: { userName: 'x1', firstName: 'A', lastName: 'B', email: 'a@b.test', role: 'LINGUIST', timezone: 'UTC' },
      });
      expect(put.statusCode).toBe(404);
      expect(
        (
          await t.inject({
            method: 'POST',
            url: `/api2/v1/users/${stranger.uid}/updatePassword`,
            headers,
            payload: { password: 'new password 1' },
          })
        ).statusCode,
      ).toBe(404);
    });
  });

  describe('delete, restore, password', () => {
    it("delete is soft, ends the user's tokens, and undelete restores", async () => {
      const { headers, organization } = await signedInUser(t, 'ADMIN');
      const victim = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
      const victimToken = await loginAs(t, victim);
      const del = await t.inject({ method: 'DELETE', url: `/api2/v1/users/${victim.uid}`, headers });
      expect(del.statusCode).toBe(204);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(victimToken) })).statusCode).toBe(401);
      const listed = (await t.inject({ url: '/api2/v1/users', headers })).json();
      expect(listed.content.some((u: { uid: string }) => u.uid === victim.uid)).toBe(false);
      const withDeleted = (await t.inject({ url: '/api2/v1/users?includeDeleted=true', headers })).json();
      expect(withDeleted.content.find((u: { uid: string }) => u.uid === victim.uid).dateDeleted).toBeTruthy();
      expect(
        (await t.inject({ method: 'POST', url: '/api2/v3/auth/login', payload: { userName: victim.userName, password: DEFAULT_PASSWORD } }))
          .statusCode,
      ).toBe(401);

      const restored = await t.inject({ method: 'POST', url: `/api2/v1/users/${victim.uid}/undelete`, headers });
      expect(restored.statusCode).toBe(200);
      expect(restored.json()).toMatchObject({ uid: victim.uid, dateDeleted: null });
      expect(
        (await t.inject({ method: 'POST', url: '/api2/v3/auth/login', payload: { userName: victim.userName, password: DEFAULT_PASSWORD } }))
          .statusCode,
      ).toBe(200);
    });

    it('cannot delete yourself', async () => {
      const { headers, user } = await signedInUser(t, 'ADMIN');
      expect((await t.inject({ method: 'DELETE', url: `/api2/v1/users/${user.uid}`, headers })).statusCode).toBe(400);
    });

    it("updatePassword sets the password and ends the user's sessions; bad passwords are refused", async () => {
      const { headers, organization } = await signedInUser(t, 'ADMIN');
      const target = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
      const old = await loginAs(t, target);
      expect(
        (await t.inject({ method: 'POST', url: `/api2/v1/users/${target.uid}/updatePassword`, headers, payload: { password: 'short' } }))
          .statusCode,
      ).toBe(400);
      expect(
        (
          await t.inject({
            method: 'POST',
            url: `/api2/v1/users/${target.uid}/updatePassword`,
            headers,
            payload: { password: target.userName },
          })
        ).statusCode,
      ).toBe(400);
      const ok = await t.inject({
        method: 'POST',
        url: `/api2/v1/users/${target.uid}/updatePassword`,
        headers,
        payload: { password: 'brand new password' },
      });
      expect(ok.statusCode).toBe(204);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(old) })).statusCode).toBe(401);
      await loginAs(t, target, 'brand new password');
    });
  });

  describe('seats', () => {
    it('creating a human user beyond the seat limit is refused', async () => {
      const { headers, organization } = await signedInUser(t, 'ADMIN');
      await t.database.db.updateTable('organizations').set({ seatLimit: 2 }).where('id', '=', organization.id).execute();
      expect((await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload: newUser('LINGUIST') })).statusCode).toBe(201);
      const over = await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload: newUser('LINGUIST') });
      expect(over.statusCode).toBe(403);
      expect(over.json().errorCode).toBe('SeatLimitReached');
      // An inactive user takes no seat.
      expect(
        (await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload: newUser('LINGUIST', { active: false }) })).statusCode,
      ).toBe(201);
    });
  });

  describe('login history', () => {
    it('lastLogins and loginStatistics record logins', async () => {
      const { headers, organization } = await signedInUser(t, 'ADMIN');
      const user = await makeUser(t.database.db, organization, { role: 'LINGUIST' });
      await t.inject({
        method: 'POST',
        url: '/api2/v3/auth/login',
        headers: { 'user-agent': 'curl/8.0' },
        payload: { userName: user.userName, password: DEFAULT_PASSWORD },
      });
      const stats = (await t.inject({ url: `/api2/v1/users/${user.uid}/loginStatistics`, headers })).json();
      expect(stats.userStatistics).toHaveLength(1);
      expect(stats.userStatistics[0]).toMatchObject({ userAgent: 'curl/8.0', date: t.clock().toISOString() });
      const last = (await t.inject({ url: `/api2/v1/users/lastLogins?userName=${user.userName}`, headers })).json();
      expect(last.content).toEqual([{ user: expect.objectContaining({ uid: user.uid }), lastLoginDate: t.clock().toISOString() }]);
    });
  });
});
