import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import {
  DEFAULT_PASSWORD,
  apiToken,
  loginAs,
  makeOrganization,
  makeServiceAccount,
  makeUser,
  signedInUser,
  tokenRequest,
} from './factories.js';

/** Issue 3, point 8: SCIM 2.0 user provisioning (docs/scim.md). */

const SCIM = '/api2/v1/scim';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

let counter = 0;
const uniqueName = (prefix = 'scim') => `${prefix}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

/** The spec's own example body, with a fresh user name. */
const scimUser = (overrides: Record<string, unknown> = {}) => ({
  schemas: [USER_SCHEMA],
  active: true,
  userName: uniqueName('john.doe'),
  emails: [{ primary: true, value: 'john.doe@example.com', type: 'work' }],
  name: { givenName: 'John', familyName: 'Doe' },
  ...overrides,
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const patchBody = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

function expectScimError(response: LightMyRequestResponse, status: number, scimType?: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
  const body = response.json();
  expect(body).toMatchObject({ schemas: [ERROR], status: String(status), detail: expect.any(String) });
  expect(body.detail.length).toBeGreaterThan(5);
  if (scimType) expect(body.scimType).toBe(scimType);
  else expect(body).not.toHaveProperty('scimType');
  expect(body).not.toHaveProperty('errorCode');
}

describe('SCIM', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
    headers = bearer(admin.token);
  });
  afterAll(() => t.close());

  const create = (body: unknown, extra: Record<string, string> = {}) =>
    t.inject({
      method: 'POST',
      url: `${SCIM}/Users`,
      headers: { ...headers, 'content-type': 'application/scim+json', ...extra },
      payload: JSON.stringify(body),
    });
  const patch = (id: string, ...operations: unknown[]) =>
    t.inject({
      method: 'PATCH',
      url: `${SCIM}/Users/${id}`,
      headers: { ...headers, 'content-type': 'application/scim+json' },
      payload: JSON.stringify(patchBody(...operations)),
    });
  const userCount = async () =>
    (await t.database.db.selectFrom('users').select('id').where('organizationId', '=', admin.organization.id).execute()).length;
  const login = (userName: string, password: string) =>
    t.inject({ method: 'POST', url: '/api2/v3/auth/login', payload: { userName, password } });
  const tokenOf = async (userName: string, password: string): Promise<string> => {
    const response = await login(userName, password);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().token;
  };

  describe('discovery, without authentication', () => {
    it('describes the service provider: patch, filter with maxResults, sort and password changes; no bulk, no etags', async () => {
      const response = await t.inject(`${SCIM}/ServiceProviderConfig`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(response.json()).toMatchObject({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
        patch: { supported: true },
        bulk: { supported: false },
        filter: { supported: true, maxResults: 100 },
        changePassword: { supported: true },
        sort: { supported: true },
        etag: { supported: false },
        authenticationSchemes: [{ type: 'oauthbearertoken', primary: true, specUrl: expect.stringContaining('6750') }],
      });
    });

    it('lists the User resource type', async () => {
      const response = await t.inject(`${SCIM}/ResourceTypes`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        expect.objectContaining({
          id: 'User',
          name: 'User',
          endpoint: '/Users',
          schema: USER_SCHEMA,
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
        }),
      ]);
    });

    it('lists the User schema with its attributes, and serves it by URN in any case', async () => {
      const response = await t.inject(`${SCIM}/Schemas`);
      expect(response.statusCode).toBe(200);
      const [schema] = response.json();
      expect(schema).toMatchObject({ id: USER_SCHEMA, name: 'User' });
      const attribute = (name: string) => schema.attributes.find((a: { name: string }) => a.name === name);
      expect(attribute('userName')).toMatchObject({
        type: 'STRING',
        required: true,
        uniqueness: 'SERVER',
        mutability: 'READ_WRITE',
        multiValued: false,
      });
      expect(attribute('emails')).toMatchObject({
        type: 'COMPLEX',
        multiValued: true,
        subAttributes: expect.arrayContaining([expect.objectContaining({ name: 'value' })]),
      });
      expect(attribute('password')).toMatchObject({ mutability: 'WRITE_ONLY', returned: 'NEVER' });
      expect(attribute('active')).toMatchObject({ type: 'BOOLEAN' });

      const one = await t.inject(`${SCIM}/Schemas/${encodeURIComponent(USER_SCHEMA.toLowerCase())}`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual(schema);
      expectScimError(await t.inject(`${SCIM}/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group`), 404);
    });

    it('is served under /web/api2 as well', async () => {
      expect((await t.inject('/web/api2/v1/scim/ServiceProviderConfig')).statusCode).toBe(200);
    });

    it('answers unknown SCIM paths 404 and other methods 405, as SCIM errors', async () => {
      expectScimError(await t.inject(`${SCIM}/Groups`), 404);
      const notAllowed = await t.inject({ method: 'POST', url: `${SCIM}/Schemas`, payload: {} });
      expectScimError(notAllowed, 405);
      expect(notAllowed.headers.allow).toBe('GET, HEAD');
    });
  });

  describe('access', () => {
    it('answers 401 as a SCIM error without a valid token', async () => {
      for (const extra of [{}, { authorization: 'Bearer not-a-token' }]) {
        const response = await t.inject({ url: `${SCIM}/Users`, headers: extra });
        expectScimError(response, 401);
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      }
      expectScimError(await t.inject({ method: 'POST', url: `${SCIM}/Users`, payload: scimUser() }), 401);
    });

    it.each(['PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] as const)('answers 403 to a %s', async (role) => {
      const user = await makeUser(t.database.db, admin.organization, { role });
      const token = await loginAs(t, user);
      expectScimError(await t.inject({ url: `${SCIM}/Users`, headers: bearer(token) }), 403);
      expectScimError(await t.inject({ method: 'POST', url: `${SCIM}/Users`, headers: bearer(token), payload: scimUser() }), 403);
    });

    it('answers 403 to a service account bot: bots are PROJECT_MANAGERs, and SCIM needs an ADMIN', async () => {
      const account = await makeServiceAccount(t, apiToken(admin.token));
      const issued = await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: account.clientId,
        client_secret: account.clientSecret,
      });
      expectScimError(await t.inject({ url: `${SCIM}/Users`, headers: bearer(issued.json().access_token) }), 403);
    });

    it('accepts every credential of an ADMIN: login token (Bearer or ApiToken), personal API token, token-service JWT', async () => {
      const personal = await t.inject({
        method: 'POST',
        url: '/api2/v1/auth/apiTokens',
        headers: apiToken(admin.token),
        payload: { name: 'Entra provisioning' },
      });
      expect(personal.statusCode).toBe(201);
      const exchanged = await tokenRequest(t, {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: personal.json().token,
      });
      for (const credential of [
        bearer(admin.token),
        apiToken(admin.token),
        bearer(personal.json().token),
        bearer(exchanged.json().access_token),
      ]) {
        expect((await t.inject({ url: `${SCIM}/Users?count=1`, headers: credential })).statusCode).toBe(200);
      }
      const created = await t.inject({
        method: 'POST',
        url: `${SCIM}/Users`,
        headers: bearer(exchanged.json().access_token),
        payload: scimUser(),
      });
      expect(created.statusCode, created.body).toBe(201);
    });
  });

  describe('create and read', () => {
    it('creates the spec example as an active LINGUIST without a password, from application/scim+json', async () => {
      const body = scimUser();
      const response = await create(body);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
      const user = response.json();
      expect(user).toEqual({
        schemas: [USER_SCHEMA],
        id: expect.stringMatching(/^[A-Za-z0-9]{22}$/),
        userName: body.userName,
        name: { givenName: 'John', familyName: 'Doe' },
        emails: [{ value: 'john.doe@example.com', type: 'work', primary: true }],
        active: true,
        roles: [{ value: 'LINGUIST', primary: true }],
        meta: {
          resourceType: 'User',
          created: expect.any(String),
          lastModified: expect.any(String),
          location: expect.stringMatching(new RegExp(`^http://[^/]+${SCIM}/Users/${user.id}$`)),
        },
      });
      expect(response.headers.location).toBe(user.meta.location);
      expect(user.meta.lastModified).toBe(user.meta.created);

      const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', user.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        role: 'LINGUIST',
        passwordHash: null,
        organizationId: admin.organization.id,
        email: 'john.doe@example.com',
      });
      expect(String(row.createdById)).toBe(admin.user.id);
      // No password: no password login (single sign-on or tokens come later).
      expect((await login(body.userName, 'whatever password')).statusCode).toBe(401);

      // The same record through the TMS API.
      const tms = await t.inject({ url: `/api2/v3/users/${user.id}`, headers: apiToken(admin.token) });
      expect(tms.json()).toMatchObject({ userName: body.userName, firstName: 'John', lastName: 'Doe', role: 'LINGUIST', active: true });

      const read = await t.inject({ url: `${SCIM}/Users/${user.id}`, headers });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(user);
      // The published spec types the id as int64: the numeric id finds the same user.
      expect((await t.inject({ url: `${SCIM}/Users/${row.id}`, headers })).json().id).toBe(user.id);
      // Under /web/api2 the location says so.
      expect((await t.inject({ url: `/web/api2/v1/scim/Users/${user.id}`, headers })).json().meta.location).toContain(
        `/web/api2/v1/scim/Users/${user.id}`,
      );
    });

    it('takes a password, a role from roles, the primary e-mail, and application/json too', async () => {
      const body = scimUser({
        password: 'a provisioned secret',
        roles: [{ value: 'Project Manager', primary: 'True' }],
        emails: [
          { value: 'home@example.com', type: 'home' },
          { value: 'work@example.com', type: 'work', primary: true },
        ],
        active: 'True',
        externalId: 'ignored-0001',
        displayName: 'Ignored',
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Ignored' },
      });
      const response = await t.inject({
        method: 'POST',
        url: `${SCIM}/Users`,
        headers: { ...headers, accept: 'application/json' },
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toMatchObject({
        emails: [{ value: 'work@example.com' }],
        roles: [{ value: 'PROJECT_MANAGER' }],
        active: true,
      });
      expect(response.body).not.toContain('password');
      expect((await login(body.userName as string, 'a provisioned secret')).statusCode).toBe(200);
    });

    it('creates an inactive user, which holds no seat and cannot log in', async () => {
      const body = scimUser({ active: false, password: 'a provisioned secret' });
      const response = await create(body);
      expect(response.json().active).toBe(false);
      expect((await login(body.userName, 'a provisioned secret')).statusCode).toBe(401);
    });

    it.each<[string, Record<string, unknown>, number, string | undefined]>([
      ['a missing userName', { userName: undefined }, 400, 'invalidValue'],
      ['a userName with spaces', { userName: 'john doe' }, 400, 'invalidValue'],
      ['a missing name', { name: undefined }, 400, 'invalidValue'],
      ['a missing familyName', { name: { givenName: 'John' } }, 400, 'invalidValue'],
      ['no e-mail', { emails: [] }, 400, 'invalidValue'],
      ['an e-mail that is not one', { emails: [{ value: 'not-an-email', primary: true }] }, 400, 'invalidValue'],
      ['active that is not a boolean', { active: 'sometimes' }, 400, 'invalidValue'],
      ['a short password', { password: 'short' }, 400, 'invalidValue'],
      ['an unknown role', { roles: [{ value: 'OVERLORD' }] }, 400, 'invalidValue'],
      ['SYS_ADMIN', { roles: [{ value: 'SYS_ADMIN' }] }, 400, 'invalidValue'],
      ['a GUEST (who needs a client)', { roles: [{ value: 'GUEST' }] }, 400, 'invalidValue'],
      ['a body that is not an object', { __raw: '[1, 2]' }, 400, undefined],
    ])('refuses %s and writes nothing', async (_what, override, status, scimType) => {
      const before = await userCount();
      const payload = '__raw' in override ? (override.__raw as string) : JSON.stringify(scimUser(override));
      const response = await t.inject({
        method: 'POST',
        url: `${SCIM}/Users`,
        headers: { ...headers, 'content-type': 'application/scim+json' },
        payload,
      });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toMatchObject({ schemas: [ERROR], status: String(status) });
      if (scimType) expect(response.json().scimType).toBe(scimType);
      expect(await userCount()).toBe(before);
    });

    it('refuses a taken userName, in any case, with 409 uniqueness, and writes nothing', async () => {
      const body = scimUser();
      expect((await create(body)).statusCode).toBe(201);
      const before = await userCount();
      expectScimError(await create(scimUser({ userName: body.userName.toUpperCase() })), 409, 'uniqueness');
      // User names are unique across the installation, not only the organization.
      const other = await signedInUser(t, 'ADMIN');
      expectScimError(
        await t.inject({
          method: 'POST',
          url: `${SCIM}/Users`,
          headers: bearer(other.token),
          payload: scimUser({ userName: admin.user.userName }),
        }),
        409,
        'uniqueness',
      );
      expect(await userCount()).toBe(before);
    });

    it('answers malformed JSON and an empty body with 400 invalidSyntax, other content types with 415', async () => {
      const post = (payload: string, contentType: string) =>
        t.inject({ method: 'POST', url: `${SCIM}/Users`, headers: { ...headers, 'content-type': contentType }, payload });
      expectScimError(await post('{"userName": "x",', 'application/scim+json'), 400, 'invalidSyntax');
      expectScimError(await post('{"userName": "x",', 'application/json'), 400, 'invalidSyntax');
      expectScimError(await post('', 'application/scim+json'), 400, 'invalidSyntax');
      expectScimError(await post('{"__proto__": {"x": 1}}', 'application/scim+json'), 400, 'invalidSyntax');
      expectScimError(await post('userName=x', 'text/plain'), 415);
      expect((await post(JSON.stringify(scimUser()), 'application/scim+json; charset=utf-8')).statusCode).toBe(201);
    });

    it('refuses a human user beyond the seat limit with 403; an inactive one still fits', async () => {
      const { organization, token } = await signedInUser(t, 'ADMIN');
      await t.database.db.updateTable('organizations').set({ seatLimit: 1 }).where('id', '=', organization.id).execute();
      const over = await t.inject({ method: 'POST', url: `${SCIM}/Users`, headers: bearer(token), payload: scimUser() });
      expectScimError(over, 403);
      expect(over.json().detail).toContain('seats');
      expect(
        (await t.inject({ method: 'POST', url: `${SCIM}/Users`, headers: bearer(token), payload: scimUser({ active: false }) })).statusCode,
      ).toBe(201);
    });
  });

  describe('replace (PUT)', () => {
    it('replaces name, e-mail and userName; active and the role left out stay as they were', async () => {
      const created = (await create(scimUser({ roles: [{ value: 'SUBMITTER' }], active: false }))).json();
      const userName = uniqueName('jane.roe');
      const response = await t.inject({
        method: 'PUT',
        url: `${SCIM}/Users/${created.id}`,
        headers: { ...headers, 'content-type': 'application/scim+json' },
        payload: JSON.stringify({
          schemas: [USER_SCHEMA],
          id: 'ignored',
          meta: { created: 'ignored' },
          userName,
          name: { givenName: 'Jane', familyName: 'Roe' },
          emails: [{ value: 'jane@example.com' }],
        }),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        id: created.id,
        userName,
        name: { givenName: 'Jane', familyName: 'Roe' },
        emails: [{ value: 'jane@example.com', type: 'work', primary: true }],
        active: false,
        roles: [{ value: 'SUBMITTER' }],
        meta: { created: created.meta.created },
      });
      expect((await t.inject({ url: `/api2/v3/users/${created.id}`, headers: apiToken(admin.token) })).json()).toMatchObject({
        userName,
        email: 'jane@example.com',
        role: 'SUBMITTER',
        active: false,
      });
    });

    it('refuses a replacement without required attributes or with a taken userName, and changes nothing', async () => {
      const created = (await create(scimUser())).json();
      const put = (payload: unknown) =>
        t.inject({ method: 'PUT', url: `${SCIM}/Users/${created.id}`, headers, payload: payload as object });
      expectScimError(
        await put({ schemas: [USER_SCHEMA], userName: created.userName, emails: [{ value: 'x@example.com' }] }),
        400,
        'invalidValue',
      );
      expectScimError(await put({ ...scimUser(), userName: admin.user.userName }), 409, 'uniqueness');
      expect((await t.inject({ url: `${SCIM}/Users/${created.id}`, headers })).json()).toEqual(created);
    });
  });

  describe('patch', () => {
    it('applies Microsoft Entra requests: capitalised ops, value filters, string booleans, attributes it does not keep', async () => {
      const created = (await create(scimUser({ password: 'a provisioned secret' }))).json();
      const userToken = await tokenOf(created.userName, 'a provisioned secret');
      const response = await patch(
        created.id,
        { op: 'Replace', path: 'name.givenName', value: 'Johnny' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'johnny@example.com' },
        { op: 'Add', path: 'externalId', value: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef' },
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Sales' },
        { op: 'Replace', path: 'roles[primary eq "True"].value', value: 'ADMIN' },
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        name: { givenName: 'Johnny', familyName: 'Doe' },
        emails: [{ value: 'johnny@example.com' }],
        roles: [{ value: 'ADMIN' }],
        active: true,
      });

      // Deactivation: "value": "False" as Entra sends it. The user's token stops working and login is refused.
      const deactivated = await patch(created.id, { op: 'Replace', path: 'active', value: 'False' });
      expect(deactivated.statusCode, deactivated.body).toBe(200);
      expect(deactivated.json().active).toBe(false);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(userToken) })).statusCode).toBe(401);
      expect((await login(created.userName, 'a provisioned secret')).statusCode).toBe(401);
      expect(
        (await t.inject({ url: `${SCIM}/Users?filter=${encodeURIComponent(`userName eq "${created.userName}"`)}`, headers })).json()
          .Resources[0].active,
      ).toBe(false);

      // Okta's reactivation: replace without a path.
      const reactivated = await patch(created.id, { op: 'replace', value: { active: true } });
      expect(reactivated.json().active).toBe(true);
      expect((await login(created.userName, 'a provisioned secret')).statusCode).toBe(200);
    });

    it('sets a password, which ends the sessions the user had', async () => {
      const created = (await create(scimUser({ password: 'the first secret' }))).json();
      const userToken = await tokenOf(created.userName, 'the first secret');
      expect((await patch(created.id, { op: 'replace', path: 'password', value: 'the second secret' })).statusCode).toBe(200);
      expect((await login(created.userName, 'the first secret')).statusCode).toBe(401);
      expect((await login(created.userName, 'the second secret')).statusCode).toBe(200);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: apiToken(userToken) })).statusCode).toBe(401);
      expectScimError(await patch(created.id, { op: 'replace', path: 'password', value: 'short' }), 400, 'invalidValue');
    });

    it.each<[string, unknown[], number, string]>([
      ['a malformed path', [{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }], 400, 'invalidPath'],
      ['a malformed value filter', [{ op: 'replace', path: 'emails[type xx "work"].value', value: 'x' }], 400, 'invalidFilter'],
      ['an unknown op', [{ op: 'Move', path: 'userName', value: 'x' }], 400, 'invalidSyntax'],
      ['remove without a path', [{ op: 'remove' }], 400, 'noTarget'],
      [
        'a value filter that matches nothing',
        [{ op: 'replace', path: 'emails[type eq "home"].value', value: 'x@example.com' }],
        400,
        'noTarget',
      ],
      ['the read-only id', [{ op: 'replace', path: 'id', value: 'x' }], 400, 'mutability'],
      ['removing a required attribute', [{ op: 'remove', path: 'name.familyName' }], 400, 'invalidValue'],
      ['removing every e-mail', [{ op: 'remove', path: 'emails' }], 400, 'invalidValue'],
      ['a taken userName', [{ op: 'replace', path: 'userName', value: '__ADMIN__' }], 409, 'uniqueness'],
    ])('refuses %s and changes nothing', async (_what, operations, status, scimType) => {
      const created = (await create(scimUser())).json();
      const ops = JSON.parse(JSON.stringify(operations).replace('__ADMIN__', admin.user.userName));
      expectScimError(await patch(created.id, ...ops), status, scimType);
      expect((await t.inject({ url: `${SCIM}/Users/${created.id}`, headers })).json()).toEqual(created);
    });

    it('refuses a body that is not a PatchOp message', async () => {
      const created = (await create(scimUser())).json();
      const response = await t.inject({
        method: 'PATCH',
        url: `${SCIM}/Users/${created.id}`,
        headers,
        payload: { schemas: [USER_SCHEMA], active: false },
      });
      expectScimError(response, 400, 'invalidSyntax');
    });

    it('keeps the last ADMIN, and the caller cannot deactivate or delete itself', async () => {
      expectScimError(await patch(admin.user.uid, { op: 'replace', path: 'active', value: false }), 400, 'invalidValue');
      expectScimError(await t.inject({ method: 'DELETE', url: `${SCIM}/Users/${admin.user.uid}`, headers }), 400, 'invalidValue');
    });
  });

  describe('delete', () => {
    it('deletes (softly): 204, then 404; the TMS API still sees the deleted user', async () => {
      const created = (await create(scimUser({ password: 'a provisioned secret' }))).json();
      const response = await t.inject({ method: 'DELETE', url: `${SCIM}/Users/${created.id}`, headers });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expectScimError(await t.inject({ url: `${SCIM}/Users/${created.id}`, headers }), 404);
      expectScimError(await t.inject({ method: 'DELETE', url: `${SCIM}/Users/${created.id}`, headers }), 404);
      expectScimError(await patch(created.id, { op: 'replace', path: 'active', value: true }), 404);
      expect((await t.inject({ url: `/api2/v3/users/${created.id}`, headers: apiToken(admin.token) })).json().dateDeleted).not.toBeNull();
      expect((await login(created.userName, 'a provisioned secret')).statusCode).toBe(401);
    });
  });

  describe('another organization, bots and unknown ids', () => {
    it("answers 404 for every operation on another organization's user, and changes nothing", async () => {
      const other = await makeOrganization(t.database.db);
      const stranger = await makeUser(t.database.db, other, { role: 'LINGUIST' });
      const url = `${SCIM}/Users/${stranger.uid}`;
      expectScimError(await t.inject({ url, headers }), 404);
      expectScimError(await t.inject({ url: `${SCIM}/Users/${stranger.id}`, headers }), 404);
      expectScimError(await t.inject({ method: 'PUT', url, headers, payload: scimUser() }), 404);
      expectScimError(await patch(stranger.uid, { op: 'replace', path: 'active', value: false }), 404);
      expectScimError(await t.inject({ method: 'DELETE', url, headers }), 404);
      const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', stranger.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ active: stranger.active, deletedAt: null, userName: stranger.userName });
      const listed = await t.inject({ url: `${SCIM}/Users?filter=${encodeURIComponent(`userName eq "${stranger.userName}"`)}`, headers });
      expect(listed.json().totalResults).toBe(0);
    });

    it('does not serve bot users (they change only through their service account) or unknown ids', async () => {
      const account = await makeServiceAccount(t, apiToken(admin.token));
      expectScimError(await t.inject({ url: `${SCIM}/Users/${account.botUser.uid}`, headers }), 404);
      expectScimError(await t.inject({ method: 'DELETE', url: `${SCIM}/Users/${account.botUser.uid}`, headers }), 404);
      expectScimError(await t.inject({ url: `${SCIM}/Users/no-such-user`, headers }), 404);
    });
  });

  describe('search', () => {
    let org: Awaited<ReturnType<typeof signedInUser>>;
    let h: Record<string, string>;
    const people: Record<string, { id: string; userName: string }> = {};
    const tag = uniqueName('q');

    beforeAll(async () => {
      org = await signedInUser(t, 'ADMIN');
      h = bearer(org.token);
      const make = async (key: string, body: Record<string, unknown>) => {
        const response = await t.inject({
          method: 'POST',
          url: `${SCIM}/Users`,
          headers: h,
          payload: scimUser({ userName: `${key}-${tag}`, ...body }),
        });
        expect(response.statusCode, response.body).toBe(201);
        people[key] = response.json();
      };
      await make('alice', { name: { givenName: 'Alice', familyName: 'Smith' }, emails: [{ value: 'alice@corp.example', primary: true }] });
      await make('bob', { name: { givenName: 'Bob', familyName: 'Smithson' }, emails: [{ value: 'bob@other.example' }], active: false });
      await make('carol', {
        name: { givenName: 'Carol', familyName: 'Jones' },
        emails: [{ value: 'CAROL@corp.example' }],
        roles: [{ value: 'PROJECT_MANAGER' }],
      });
      await make('dan_', { name: { givenName: 'Dan', familyName: '100% Real' }, emails: [{ value: 'dan@corp.example' }] });
      // Noise that must never show: a deleted user, a bot, and another organization's look-alike.
      await make('deleted', {});
      expect((await t.inject({ method: 'DELETE', url: `${SCIM}/Users/${people.deleted!.id}`, headers: h })).statusCode).toBe(204);
      await makeServiceAccount(t, apiToken(org.token));
      await t.inject({
        method: 'POST',
        url: `${SCIM}/Users`,
        headers,
        payload: scimUser({ userName: `alice2-${tag}`, name: { givenName: 'Alice', familyName: 'Smith' } }),
      });
    });

    const search = (query: string) => t.inject({ url: `${SCIM}/Users?${query}`, headers: h });
    const names = (response: LightMyRequestResponse) =>
      (response.json().Resources as { userName: string }[]).map((r) => r.userName.replace(`-${tag}`, '')).sort();

    it.each<[string, string[]]>([
      ['userName eq "ALICE-{tag}"', ['alice']],
      ['USERNAME EQ "alice-{tag}"', ['alice']],
      ['userName ne "alice-{tag}"', ['bob', 'carol', 'dan_', '{admin}']],
      ['emails.value eq "carol@corp.example"', ['carol']],
      ['emails co "@CORP.example"', ['alice', 'carol', 'dan_']],
      ['emails[type eq "work" and value co "corp"]', ['alice', 'carol', 'dan_']],
      ['emails[type eq "home"]', []],
      ['name.familyName sw "smith"', ['alice', 'bob']],
      ['Name.FamilyName SW "Smith" and name.familyName ew "son"', ['bob']],
      ['name.givenName ew "OL"', ['carol']],
      ['name.familyName co "100%"', ['dan_']],
      ['name.familyName co "_"', []],
      ['userName sw "dan_"', ['dan_']],
      ['active eq true and userName co "{tag}"', ['alice', 'carol', 'dan_']],
      ['active eq false', ['bob']],
      ['active Eq "False"', ['bob']],
      ['not (active eq true)', ['bob']],
      ['(name.familyName sw "Smith" or name.givenName eq "Carol") and active eq true', ['alice', 'carol']],
      ['name.familyName sw "Smith" or name.givenName eq "Carol" and active eq true', ['alice', 'bob', 'carol']],
      ['userName pr and userName co "{tag}"', ['alice', 'bob', 'carol', 'dan_']],
      ['roles eq "project_manager"', ['carol']],
      ['roles.value eq "ADMIN"', ['{admin}']],
      ['userName gt "b" and userName lt "d"', ['bob', 'carol']],
      ['userName ge "carol-{tag}" and userName le "carol-{tag}"', ['carol']],
      ['meta.created ge "2000-01-01T00:00:00Z" and userName co "{tag}"', ['alice', 'bob', 'carol', 'dan_']],
      ['meta.lastModified lt "2000-01-01T00:00:00Z"', []],
      ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "bob-{tag}"', ['bob']],
    ])('%s', async (filter, expected) => {
      const text = filter.replaceAll('{tag}', tag);
      const response = await search(`filter=${encodeURIComponent(text)}`);
      expect(response.statusCode, response.body).toBe(200);
      const want = expected.map((n) => (n === '{admin}' ? org.user.userName : n)).sort();
      expect(names(response)).toEqual(want);
      expect(response.json().totalResults).toBe(want.length);
    });

    it('finds by id', async () => {
      expect(names(await search(`filter=${encodeURIComponent(`id eq "${people.carol!.id}"`)}`))).toEqual(['carol']);
    });

    it.each([
      'userName eq',
      'userName eq "x" and',
      '(userName eq "x"',
      'title eq "x"',
      'externalId eq "0a21f0f2"',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department eq "Sales"',
      'active gt true',
      'active eq "maybe"',
      'userName eq 5',
      'meta.created co "2026"',
      'meta.created gt "not a date"',
      'id co "x"',
      'addresses[type eq "work"]',
      'emails[display eq "x"]',
    ])('refuses the filter %s with 400 invalidFilter', async (filter) => {
      expectScimError(await search(`filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter');
    });

    it('pages with startIndex (from 1) and count, in a stable order', async () => {
      const all = (await search(`filter=${encodeURIComponent(`userName co "${tag}"`)}`)).json();
      expect(all).toMatchObject({ schemas: [LIST], totalResults: 4, startIndex: 1, itemsPerPage: 4 });
      const page = (await search(`filter=${encodeURIComponent(`userName co "${tag}"`)}&startIndex=2&count=2`)).json();
      expect(page).toMatchObject({ totalResults: 4, startIndex: 2, itemsPerPage: 2 });
      expect(page.Resources.map((r: { id: string }) => r.id)).toEqual(all.Resources.slice(1, 3).map((r: { id: string }) => r.id));
      const none = (await search('count=0')).json();
      expect(none).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
      expect((await search('startIndex=99')).json()).toMatchObject({ totalResults: 5, startIndex: 99, itemsPerPage: 0, Resources: [] });
      // RFC 7644 §3.4.2.4: below 1 counts as 1, a negative count as 0.
      expect((await search('startIndex=0')).json()).toMatchObject({ startIndex: 1, itemsPerPage: 5 });
      expect((await search('count=-3')).json()).toMatchObject({ itemsPerPage: 0 });
      expectScimError(await search('count=abc'), 400, 'invalidValue');
    });

    it('answers 50 by default and at most 100', async () => {
      const big = await makeOrganization(t.database.db);
      const bigAdmin = await makeUser(t.database.db, big, { role: 'ADMIN' });
      for (let i = 0; i < 104; i++) await makeUser(t.database.db, big, { role: 'LINGUIST' });
      const token = await loginAs(t, bigAdmin, DEFAULT_PASSWORD);
      const first = (await t.inject({ url: `${SCIM}/Users`, headers: bearer(token) })).json();
      expect(first).toMatchObject({ totalResults: 105, startIndex: 1, itemsPerPage: 50 });
      const capped = (await t.inject({ url: `${SCIM}/Users?count=500&startIndex=2`, headers: bearer(token) })).json();
      expect(capped).toMatchObject({ totalResults: 105, startIndex: 2, itemsPerPage: 100 });
    });

    it('sorts by sortBy and sortOrder', async () => {
      const query = `filter=${encodeURIComponent(`userName co "${tag}"`)}`;
      const descending = (await search(`${query}&sortBy=name.givenName&sortOrder=descending`))
        .json()
        .Resources.map((r: { name: { givenName: string } }) => r.name.givenName);
      expect(descending).toEqual(['Dan', 'Carol', 'Bob', 'Alice']);
      const byEmail = (await search(`${query}&sortBy=emails.value`))
        .json()
        .Resources.map((r: { emails: { value: string }[] }) => r.emails[0]!.value);
      expect(byEmail).toEqual(['alice@corp.example', 'bob@other.example', 'CAROL@corp.example', 'dan@corp.example']);
      expectScimError(await search('sortBy=title'), 400, 'invalidValue');
      expectScimError(await search('sortBy=userName&sortOrder=sideways'), 400, 'invalidValue');
    });

    it('returns only the attributes asked for, or all but the excluded ones', async () => {
      const query = `filter=${encodeURIComponent(`userName eq "alice-${tag}"`)}`;
      const only = (await search(`${query}&attributes=userName,name.familyName`)).json().Resources[0];
      expect(only).toEqual({ schemas: [USER_SCHEMA], id: people.alice!.id, userName: `alice-${tag}`, name: { familyName: 'Smith' } });
      const without = (await search(`${query}&excludedAttributes=emails,meta,roles`)).json().Resources[0];
      expect(Object.keys(without).sort()).toEqual(['active', 'id', 'name', 'schemas', 'userName']);
    });
  });
});
