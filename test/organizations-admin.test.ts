import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { ensureFirstAdmin, ensureSysAdmin } from '../src/modules/identity/organization-admin/first-start.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, signedInUser } from './factories.js';

/** Issue 3, point 1: the SYS_ADMIN and organizations (OpenTMS extension). */

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, done) => done() }));
const SYS = { OPENTMS_SYSADMIN_USERNAME: 'root', OPENTMS_SYSADMIN_PASSWORD: 'system password' };

describe('SYS_ADMIN and organizations', () => {
  let t: TestApp;
  let sysHeaders: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ env: SYS });
    await ensureFirstAdmin(t.database.db, t.config, silent);
    await ensureSysAdmin(t.database.db, t.config, silent);
    const login = await t.inject({
      method: 'POST',
      url: '/api2/v3/auth/login',
      payload: { userName: 'root', password: 'system password' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.role).toBe('SYS_ADMIN');
    sysHeaders = apiToken(login.json().token);
  });
  afterAll(() => t.close());

  it('is created at start only when both variables are set, once, and keeps its password', async () => {
    const users = await t.database.db.selectFrom('users').selectAll().where('role', '=', 'SYS_ADMIN').execute();
    expect(users).toHaveLength(1);
    await ensureSysAdmin(t.database.db, loadConfig({ ...SYS, OPENTMS_SYSADMIN_PASSWORD: 'another password' }), silent);
    expect(await t.database.db.selectFrom('users').selectAll().where('role', '=', 'SYS_ADMIN').execute()).toHaveLength(1);
    expect(
      (await t.inject({ method: 'POST', url: '/api2/v3/auth/login', payload: { userName: 'root', password: 'system password' } }))
        .statusCode,
    ).toBe(200);
    expect(() => loadConfig({ OPENTMS_SYSADMIN_USERNAME: 'root' })).toThrow(/go together/);
  });

  it('creates an organization with its first ADMIN, who can log in and work in it', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v1/admin/organizations',
      headers: sysHeaders,
      payload: {
        name: 'Acme Translations',
        seatLimit: 5,
        admin: { userName: 'acme-admin', password: 'acme password', email: 'a@acme.test', firstName: 'A', lastName: 'Cme' },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const org = response.json();
    expect(org).toMatchObject({
      name: 'Acme Translations',
      seatLimit: 5,
      usedSeats: 1,
      ssoOnly: false,
      admin: { userName: 'acme-admin', role: 'ADMIN' },
    });
    const login = await t.inject({
      method: 'POST',
      url: '/api2/v3/auth/login',
      payload: { userName: 'acme-admin', password: 'acme password' },
    });
    const whoAmI = (await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(login.json().token) })).json();
    expect(whoAmI.organization.uid).toBe(org.uid);

    const listed = (await t.inject({ url: '/api2/v1/admin/organizations', headers: sysHeaders })).json();
    expect(listed.content.map((o: { uid: string }) => o.uid)).toContain(org.uid);
    expect(listed.content.some((o: { name: string }) => o.name === 'OpenTMS system')).toBe(false);

    const patched = await t.inject({
      method: 'PATCH',
      url: `/api2/v1/admin/organizations/${org.uid}`,
      headers: sysHeaders,
      payload: { ssoOnly: true, seatLimit: null },
    });
    expect(patched.json()).toMatchObject({ ssoOnly: true, seatLimit: null, name: 'Acme Translations' });
    expect((await t.inject({ url: `/api2/v1/admin/organizations/${org.uid}`, headers: sysHeaders })).json().ssoOnly).toBe(true);
  });

  it('refuses bad input and writes nothing', async () => {
    const before = await t.database.db.selectFrom('organizations').select('id').execute();
    for (const payload of [
      { name: '' },
      { name: 'x'.repeat(256), admin: { userName: 'n1', password: 'long password', email: 'a@b.test', firstName: 'A', lastName: 'B' } },
      { name: 'Ok', admin: { userName: 'n2', password: 'short', email: 'a@b.test', firstName: 'A', lastName: 'B' } },
      {
        name: 'Ok',
        admin: { userName: 'n3', password: 'long password', email: 'a@b.test', firstName: 'A', lastName: 'B', timezone: 'Nowhere/City' },
      },
      { name: 'Ok', admin: { userName: 'root', password: 'long password', email: 'a@b.test', firstName: 'A', lastName: 'B' } },
      { name: 'Ok', seatLimit: 0, admin: { userName: 'n4', password: 'long password', email: 'a@b.test', firstName: 'A', lastName: 'B' } },
    ]) {
      const response = await t.inject({ method: 'POST', url: '/api2/v1/admin/organizations', headers: sysHeaders, payload });
      expect([400, 409], response.body).toContain(response.statusCode);
    }
    expect(await t.database.db.selectFrom('organizations').select('id').execute()).toHaveLength(before.length);
  });

  it('is for the SYS_ADMIN only; the SYS_ADMIN does no organization work', async () => {
    const { headers } = await signedInUser(t, 'ADMIN');
    expect((await t.inject({ url: '/api2/v1/admin/organizations', headers })).statusCode).toBe(403);
    expect((await t.inject({ url: '/api2/v1/users', headers: sysHeaders })).statusCode).toBe(403);
    expect((await t.inject({ url: '/api2/v1/admin/organizations/nope', headers: sysHeaders })).statusCode).toBe(404);
  });

  it("the first-start admin is not created again once the SYS_ADMIN's system organization exists", async () => {
    const admins = await t.database.db.selectFrom('users').select('id').where('userName', '=', 'admin').execute();
    await ensureFirstAdmin(t.database.db, t.config, silent);
    expect(await t.database.db.selectFrom('users').select('id').where('userName', '=', 'admin').execute()).toHaveLength(admins.length);
  });
});
