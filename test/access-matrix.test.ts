import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRole } from '../src/db/schema.js';
import { parseRoleSettings } from '../src/domain/users/role-settings.js';
import { allows } from '../src/http/access.js';
import type { Caller } from '../src/http/access.js';
import { createLoginToken, revokeLoginToken } from '../src/modules/identity/credentials/login-tokens.repository.js';
import { insertApiToken } from '../src/modules/identity/credentials/api-tokens.repository.js';
import { insertOrganization } from '../src/modules/identity/organizations/organizations.repository.js';
import { createAsyncRequest } from '../src/modules/integration/async-requests/async-requests.service.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, makeClient, makeOrganization, makeServiceAccount, makeUser, signedInUser, tokenRequest } from './factories.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { loadAreaFixtures } from './support/access-fixtures.js';
import { expectedFor, setUpPersonas } from './support/record-personas.js';
import type { PersonaSetup, Slot } from './support/record-personas.js';
import type { Fixtures } from './support/access-fixtures.js';

/**
 * The shared access matrix (issue 3, point 9): every route of the app, current and future, is
 * called by no token, a token of each role, a bot, a revoked token, an expired token, and
 * another organization's ADMIN. The expected answer comes from the route's own declaration
 * (`config.access`), so a new route is covered the moment it exists; a route whose path
 * parameters have no fixture fails until one is added: below, or in a file of its area under
 * test/access-fixtures/ (see test/support/access-fixtures.ts).
 */

/** The matrix calls every route about a dozen times: minutes on a loaded machine, bounded by the number of routes. */
const MATRIX_TIMEOUT = 240_000;

const ROLES: UserRole[] = ['SYS_ADMIN', 'ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'];

/** Routes outside the access mechanism: documentation and the OpenAPI document. */
const UNGUARDED = (url: string) => url.startsWith('/docs') || url === '/api2/openapi.json' || url === '/health';

describe('access matrix: every route, every kind of caller', () => {
  let t: TestApp;
  const users = new Map<UserRole, UserRow>();
  let botToken: string;
  let otherAdmin: UserRow;
  let personas: PersonaSetup;
  const fixtures: Fixtures = { values: {}, bodies: {}, queries: {} };

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const { organization, user: admin, headers: adminHeaders } = await signedInUser(t, 'ADMIN');
    const client = await makeClient(db, organization);
    users.set('ADMIN', admin);
    for (const role of ['PROJECT_MANAGER', 'LINGUIST', 'SUBMITTER'] as const) users.set(role, await makeUser(db, organization, { role }));
    const guest = await makeUser(db, organization, { role: 'GUEST' });
    await db
      .updateTable('users')
      .set({ guestClientId: client.id, roleSettings: JSON.stringify(parseRoleSettings('GUEST', '{}')) })
      .where('id', '=', guest.id)
      .execute();
    users.set('GUEST', guest);
    const system = await insertOrganization(db, { name: 'system', isSystem: true });
    users.set('SYS_ADMIN', await makeUser(db, system, { role: 'SYS_ADMIN' }));
    otherAdmin = await makeUser(db, await makeOrganization(db), { role: 'ADMIN' });

    // A bot of its own service account, so that deleting the fixture account below leaves it alone.
    const botAccount = await makeServiceAccount(t, adminHeaders);
    const issued = await tokenRequest(t, {
      grant_type: 'client_credentials',
      client_id: botAccount.clientId,
      client_secret: botAccount.clientSecret,
    });
    botToken = issued.json().access_token;

    const target = await makeUser(db, organization, { role: 'LINGUIST', createdById: admin.id });
    const serviceAccount = await makeServiceAccount(t, adminHeaders);
    const webhook = await t.inject({
      method: 'POST',
      url: '/api2/v2/webhooks',
      headers: adminHeaders,
      payload: { url: 'https://hooks.example.test/in', events: ['JOB_CREATED'] },
    });
    const asyncRequest = await db
      .transaction()
      .execute((trx) => createAsyncRequest(t.deps, trx, { organizationId: organization.id, createdById: admin.id, action: 'IMPORT_JOB' }));
    const { row: token } = await insertApiToken(db, {
      userId: admin.id,
      organizationId: organization.id,
      name: 'fixture',
      expiresAt: null,
      now: t.clock(),
    });
    fixtures.values = {
      userUid: target.uid,
      userId: target.uid,
      organizationUid: organization.uid,
      schemaUrn: 'urn:ietf:params:scim:schemas:core:2.0:User',
      '/api2/v1/auth/apiTokens/:uid:uid': token.uid,
      '/api2/v1/serviceAccounts/:uid:uid': serviceAccount.uid,
      webHookUid: webhook.json().uid,
      webhookUid: webhook.json().uid,
      asyncRequestId: asyncRequest.id,
    };
    fixtures.queries = {
      'POST /api2/v2/webhooks/:webhookUid/test': 'event=JOB_CREATED',
    };
    fixtures.bodies = {
      'PUT /api2/v3/users/:userUid': {
        userName: target.userName,
        firstName: 'F',
        lastName: 'L',
        email: 'f@l.test',
        role: 'LINGUIST',
        timezone: 'UTC',
      },
      'POST /api2/v1/users/:userUid/updatePassword': { password: 'matrix password 1' },
      'PATCH /api2/v1/admin/organizations/:organizationUid': { seatLimit: null },
      'PUT /api2/v2/webhooks/:webHookUid': { url: 'https://hooks.example.test/in', events: ['JOB_CREATED'] },
      'PUT /api2/v1/scim/Users/:userId': {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: target.userName,
        name: { givenName: 'F', familyName: 'L' },
        emails: [{ value: 'f@l.test', primary: true }],
      },
      'PATCH /api2/v1/scim/Users/:userId': {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'name.givenName', value: 'G' }],
      },
    };
    await loadAreaFixtures({ t, organization, admin, adminHeaders, client }, fixtures);
    personas = await setUpPersonas(t, organization, admin, fixtures.values['projectUid']!);
  });
  afterAll(() => t.close());

  /** A fresh login token for `user` (fresh, because some routes end the token they are called with). */
  async function tokenOf(user: UserRow, state: 'live' | 'revoked' | 'expired' = 'live'): Promise<string> {
    const db = t.database.db;
    const now = state === 'expired' ? new Date(t.clock().getTime() - 2 * 86_400_000) : t.clock();
    const { token } = await createLoginToken(db, {
      userId: user.id,
      organizationId: user.organizationId,
      now,
      ttlSeconds: 86_400,
    });
    if (state === 'revoked') {
      const row = await db.selectFrom('loginTokens').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
      await revokeLoginToken(db, row.id, t.clock());
    }
    return token;
  }

  function pseudoCaller(role: UserRole, isBot = false): Caller {
    return {
      userId: '0',
      userUid: '',
      userName: '',
      organizationId: '0',
      role,
      isBot,
      settings: parseRoleSettings(role, '{}'),
      credential: { kind: 'login', id: '0' },
      scopes: null,
      impersonatorId: null,
      csrfTokenHash: null,
    };
  }

  /** The fixture value of a route's path parameter (route-specific first). */
  function fixtureValue(pattern: string, param: string): string {
    const value = fixtures.values[`${pattern}:${param}`] ?? fixtures.values[param];
    if (value === undefined)
      throw new Error(
        `no fixture for path parameter "${param}" of ${pattern}: add one to test/access-fixtures/ (or test/access-matrix.test.ts)`,
      );
    return value;
  }

  function concreteUrl(pattern: string, overrides: Record<string, string> = {}): string {
    return pattern.replace(/:([A-Za-z0-9_]+)/g, (_, param: string) => {
      const value = overrides[param] ?? fixtures.values[`${pattern}:${param}`] ?? fixtures.values[param];
      if (value === undefined)
        throw new Error(
          `no fixture for path parameter "${param}" of ${pattern}: add one to test/access-fixtures/ (or test/access-matrix.test.ts)`,
        );
      return encodeURIComponent(value);
    });
  }

  function guardedRoutes() {
    return t.app.registeredRoutes.filter((r) => !UNGUARDED(r.url) && !r.url.startsWith('/web/'));
  }

  it('every route declares an access rule and has fixtures for its parameters', () => {
    const routes = guardedRoutes();
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      expect(route.access, `${route.method} ${route.url}`).toBeDefined();
      expect(() => concreteUrl(route.url)).not.toThrow();
      if (route.hasBody && route.url.includes(':')) {
        expect(fixtures.bodies[`${route.method} ${route.url}`], `a valid body fixture for ${route.method} ${route.url}`).toBeDefined();
      }
    }
  });

  it('declares the record of every route whose path names a project, a job or a project template', () => {
    const namesRecord = (url: string) =>
      /\/projects\/:projectUid|\/projectTemplates\/:projectTemplateUid|\/applyTemplate\/(async\/)?:templateUid/.test(url);
    const undeclared = guardedRoutes()
      .filter((r) => namesRecord(r.url) && !r.access?.record)
      .map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });

  it(
    'answers record-level rules as the permission table says: a linguist, a vendor and a buyer on records of theirs and not',
    async () => {
      const failures: string[] = [];
      let checked = 0;
      const withRecord = guardedRoutes().filter((r) => r.access?.record);
      expect(withRecord.length).toBeGreaterThan(80);
      for (const route of withRecord) {
        const rule = route.access!.record!;
        const query = fixtures.queries[`${route.method} ${route.url}`];
        const routeBody = fixtures.bodies[`${route.method} ${route.url}`];
        await personas.restoreRelations();
        for (const persona of personas.personas) {
          if (!allows(route.access!, { ...pseudoCaller(persona.role), settings: persona.settings })) continue;
          const body = fixtures.personaBodies?.[`${route.method} ${route.url}`]?.[persona.name] ?? routeBody;
          for (const slot of ['other', 'own'] as Slot[]) {
            const overrides = slot === 'other' ? personas.otherParams(persona, rule) : {};
            // A delete route called before may have removed the fixture record itself: nothing left to be theirs.
            if (slot === 'own' && !(await personas.stillThere(rule, (param) => fixtureValue(route.url, param)))) continue;
            const url = concreteUrl(route.url, overrides) + (query ? `?${query}` : '');
            const response = await t.inject({
              method: route.method as 'GET',
              url,
              headers: apiToken(await tokenOf(persona.user)),
              ...(body === undefined ? {} : { payload: body as object }),
            });
            checked++;
            const expected = expectedFor(persona, rule, slot);
            const description =
              response.statusCode >= 400 ? String(response.json<{ errorDescription?: string }>().errorDescription ?? '') : '';
            const who = `${route.method} ${route.url} (${rule.kind} ${rule.need}) by the ${persona.name} on a record ${slot === 'own' ? 'of theirs' : 'not theirs'}`;
            const kernelNotFound = /^(Project|Job|Project template) not found/.test(description);
            if (
              expected.outcome === 'allowed' &&
              ([401, 403].includes(response.statusCode) || (response.statusCode === 404 && kernelNotFound))
            ) {
              failures.push(`${who}: got ${response.statusCode} (${description}), expected the operation to be allowed`);
            } else if (expected.outcome === 'forbidden' && response.statusCode !== 403) {
              failures.push(`${who}: got ${response.statusCode}, expected 403`);
            } else if (
              expected.outcome === 'notFound' &&
              !(response.statusCode === 404 && description.startsWith(`${expected.label} not found`))
            ) {
              failures.push(`${who}: got ${response.statusCode} (${description}), expected 404 "${expected.label} not found"`);
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(300);
      expect(failures).toEqual([]);
    },
    MATRIX_TIMEOUT,
  );

  it(
    'answers each caller as the route declares',
    async () => {
      const failures: string[] = [];
      for (const route of guardedRoutes()) {
        const access = route.access!;
        if (access.public) continue;
        const query = fixtures.queries[`${route.method} ${route.url}`];
        const url = concreteUrl(route.url) + (query ? `?${query}` : '');
        const body = fixtures.bodies[`${route.method} ${route.url}`];
        const call = async (headers: Record<string, string>) =>
          (await t.inject({ method: route.method as 'GET', url, headers, ...(body === undefined ? {} : { payload: body as object }) }))
            .statusCode;
        const expectStatus = (who: string, status: number, ok: (s: number) => boolean, wanted: string) => {
          if (!ok(status)) failures.push(`${route.method} ${route.url} by ${who}: got ${status}, expected ${wanted}`);
        };

        expectStatus('no token', await call({}), (s) => s === 401, '401');
        expectStatus('a revoked token', await call(apiToken(await tokenOf(users.get('ADMIN')!, 'revoked'))), (s) => s === 401, '401');
        expectStatus('an expired token', await call(apiToken(await tokenOf(users.get('ADMIN')!, 'expired'))), (s) => s === 401, '401');
        expectStatus('a garbage token', await call({ authorization: 'ApiToken not-a-token' }), (s) => s === 401, '401');

        for (const role of ROLES) {
          const status = await call(apiToken(await tokenOf(users.get(role)!)));
          if (allows(access, pseudoCaller(role))) expectStatus(role, status, (s) => s !== 401 && s !== 403 && s < 500, 'not 401/403/5xx');
          else expectStatus(role, status, (s) => s === 403, '403');
        }

        const botStatus = await call({ authorization: `Bearer ${botToken}` });
        if (allows(access, pseudoCaller('PROJECT_MANAGER', true)))
          expectStatus('a bot', botStatus, (s) => s !== 401 && s !== 403 && s < 500, 'not 401/403/5xx');
        else expectStatus('a bot', botStatus, (s) => s === 403, '403');

        // Another organization's ADMIN: refused by role, or the record is simply not there.
        const otherStatus = await call(apiToken(await tokenOf(otherAdmin)));
        // A path parameter names a record, except a SCIM schema and a language (exportDefaultSegmentationRules).
        const hasRecord = /:(?!schemaUrn\b|locale\b)[A-Za-z]/.test(route.url);
        if (!allows(access, pseudoCaller('ADMIN'))) expectStatus('another organization', otherStatus, (s) => s === 403, '403');
        else if (hasRecord) expectStatus('another organization', otherStatus, (s) => s === 404, '404');
        else expectStatus('another organization', otherStatus, (s) => s !== 401 && s !== 403 && s < 500, 'not 401/403/5xx');
      }
      expect(failures).toEqual([]);
    },
    MATRIX_TIMEOUT,
  );
});
