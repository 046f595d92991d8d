import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { makeServiceAccount, signedInUser, tokenRequest } from './factories.js';

/** Issue 3, points 6 and 7: `POST /idm/oauth/token` (RFC 8693 token exchange, client credentials) and its JWKS. */

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const API_TOKEN_TYPE = 'urn:service:params:oauth:token-type:api_token';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });
const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
});

function expectOAuthError(
  response: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  error: string,
  status = 400,
) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  expect(response.json()).toEqual({ error, error_description: expect.any(String) });
  expect(response.headers['cache-control']).toBe('no-store');
  if (error === 'invalid_client') expect(response.headers['www-authenticate']).toBe('Basic realm="opentms"');
}

describe('token service', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  async function newApiToken(headers = admin.headers): Promise<string> {
    const response = await t.inject({ method: 'POST', url: '/api2/v1/auth/apiTokens', headers, payload: { name: 'exchange me' } });
    return response.json().token as string;
  }

  async function jwks(): Promise<JSONWebKeySet> {
    const response = await t.inject('/idm/.well-known/jwks.json');
    expect(response.statusCode).toBe(200);
    return response.json() as JSONWebKeySet;
  }

  describe('token exchange (RFC 8693)', () => {
    it('exchanges an API token for a JWT that verifies against the JWKS and works as a Bearer token', async () => {
      const { headers, user, organization } = await signedInUser(t, 'PROJECT_MANAGER');
      const apiToken = await newApiToken(headers);
      const response = await tokenRequest(t, {
        grant_type: EXCHANGE,
        subject_token: apiToken,
        subject_token_type: API_TOKEN_TYPE,
        requested_token_type: ACCESS_TOKEN_TYPE,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json();
      expect(body).toEqual({
        access_token: expect.any(String),
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: 'Bearer',
        expires_in: 3600,
      });

      const { payload, protectedHeader } = await jwtVerify(body.access_token, createLocalJWKSet(await jwks()), {
        currentDate: t.clock(),
        issuer: 'opentms',
        audience: 'tms',
      });
      expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt', kid: expect.any(String) });
      const now = Math.floor(t.clock().getTime() / 1000);
      expect(payload).toMatchObject({
        sub: user.uid,
        org: organization.uid,
        aud: ['tms', 'strings'],
        iat: now,
        exp: now + 3600,
        jti: expect.any(String),
        src: expect.stringMatching(/^api_token:\d+$/),
        scope: 'tms:read tms:write strings:read strings:write',
      });

      const who = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(body.access_token) });
      expect(who.statusCode).toBe(200);
      expect(who.json().user.uid).toBe(user.uid);
      // Unrestricted: the user's own rights apply, writes included (a PM may list users).
      expect((await t.inject({ url: '/api2/v1/users', headers: bearer(body.access_token) })).statusCode).toBe(200);
      // Minimal form: the optional parameters may be left out.
      expect((await tokenRequest(t, { grant_type: EXCHANGE, subject_token: apiToken })).statusCode).toBe(200);
    });

    it('an expired JWT is refused (the clock decides), and a JWT never outlives its API token', async () => {
      const apiToken = await newApiToken();
      const jwt = (await tokenRequest(t, { grant_type: EXCHANGE, subject_token: apiToken })).json().access_token;
      t.clock.advance(3600_000 - 1000);
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(jwt) })).statusCode).toBe(200);
      t.clock.advance(1000);
      const expired = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(jwt) });
      expect(expired.statusCode).toBe(401);
      expect(expired.json().errorCode).toBe('AuthUnauthorized');

      const expiresAt = new Date(t.clock().getTime() + 600_000).toISOString();
      const short = (
        await t.inject({ method: 'POST', url: '/api2/v1/auth/apiTokens', headers: admin.headers, payload: { name: 's', expiresAt } })
      ).json();
      const exchanged = (await tokenRequest(t, { grant_type: EXCHANGE, subject_token: short.token })).json();
      expect(exchanged.expires_in).toBe(600);
      expect(decodeJwt(exchanged.access_token).exp).toBe(Date.parse(expiresAt) / 1000);
    });

    it('refuses unknown, malformed, revoked and expired subject tokens with invalid_grant', async () => {
      const revoked = await t.inject({ method: 'POST', url: '/api2/v1/auth/apiTokens', headers: admin.headers, payload: { name: 'r' } });
      await t.inject({ method: 'DELETE', url: `/api2/v1/auth/apiTokens/${revoked.json().uid}`, headers: admin.headers });
      for (const subject of ['otms_unknown', 'not-an-api-token', admin.token, revoked.json().token]) {
        expectOAuthError(await tokenRequest(t, { grant_type: EXCHANGE, subject_token: subject }), 'invalid_grant');
      }
    });

    it('refuses missing, unsupported and other RFC 8693 parameters with invalid_request', async () => {
      const apiToken = await newApiToken();
      const cases: Record<string, string>[] = [
        { grant_type: EXCHANGE },
        { grant_type: EXCHANGE, subject_token: '' },
        { grant_type: EXCHANGE, subject_token: apiToken, subject_token_type: 'urn:ietf:params:oauth:token-type:jwt' },
        { grant_type: EXCHANGE, subject_token: apiToken, requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' },
        { grant_type: EXCHANGE, subject_token: apiToken, actor_token: 'x' },
        { grant_type: EXCHANGE, subject_token: apiToken, actor_token_type: API_TOKEN_TYPE },
        { grant_type: EXCHANGE, subject_token: apiToken, audience: 'tms' },
        { grant_type: EXCHANGE, subject_token: apiToken, resource: 'tms' },
        { grant_type: EXCHANGE, subject_token: apiToken, scope: 'read' },
      ];
      for (const form of cases) expectOAuthError(await tokenRequest(t, form), 'invalid_request');
    });
  });

  describe('request format and errors (RFC 6749)', () => {
    it('needs a grant type it knows', async () => {
      expectOAuthError(await tokenRequest(t, {}), 'invalid_request');
      expectOAuthError(await tokenRequest(t, { grant_type: '' }), 'invalid_request');
      for (const grant of ['password', 'authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer']) {
        expectOAuthError(await tokenRequest(t, { grant_type: grant }), 'unsupported_grant_type');
      }
    });

    it('takes forms only: JSON, other types and no body are invalid_request, not 415', async () => {
      const apiToken = await newApiToken();
      const json = await t.inject({
        method: 'POST',
        url: '/idm/oauth/token',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ grant_type: EXCHANGE, subject_token: apiToken }),
      });
      expectOAuthError(json, 'invalid_request');
      expect(json.json().error_description).toMatch(/x-www-form-urlencoded/);
      const broken = await t.inject({
        method: 'POST',
        url: '/idm/oauth/token',
        headers: { 'content-type': 'application/json' },
        payload: '{"grant',
      });
      expectOAuthError(broken, 'invalid_request');
      const text = await t.inject({
        method: 'POST',
        url: '/idm/oauth/token',
        headers: { 'content-type': 'text/plain' },
        payload: 'grant_type=x',
      });
      expectOAuthError(text, 'invalid_request');
      expectOAuthError(await t.inject({ method: 'POST', url: '/idm/oauth/token' }), 'invalid_request');
      // A charset parameter is fine.
      const withCharset = await t.inject({
        method: 'POST',
        url: '/idm/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        payload: new URLSearchParams({ grant_type: EXCHANGE, subject_token: apiToken }).toString(),
      });
      expect(withCharset.statusCode).toBe(200);
    });

    it('refuses a repeated parameter', async () => {
      const apiToken = await newApiToken();
      const response = await t.inject({
        method: 'POST',
        url: '/idm/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=${encodeURIComponent(EXCHANGE)}&subject_token=${apiToken}&subject_token=${apiToken}`,
      });
      expectOAuthError(response, 'invalid_request');
      expect(response.json().error_description).toContain('subject_token');
    });

    it('answers other methods with 405', async () => {
      const response = await t.inject('/idm/oauth/token');
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toContain('POST');
    });

    it('is listed in the OpenAPI document', async () => {
      const doc = (await t.inject('/api2/openapi.json')).json();
      expect(doc.paths['/idm/oauth/token'].post.security).toEqual([]);
      expect(doc.paths['/idm/.well-known/jwks.json'].get).toBeDefined();
    });
  });

  describe('client credentials', () => {
    const grant = (account: { clientId: string; clientSecret: string }, extra: Record<string, string> = {}) =>
      tokenRequest(t, { grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret, ...extra });

    it('issues a token with the full configured scope when scope and resource are omitted', async () => {
      const account = await makeServiceAccount(t, admin.headers, { products: ['tms', 'strings'], scopes: ['read', 'write'] });
      const response = await grant(account);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json();
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'tms:read tms:write strings:read strings:write',
      });
      const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(await jwks()), { currentDate: t.clock() });
      expect(payload).toMatchObject({
        sub: account.botUser.uid,
        org: admin.organization.uid,
        aud: ['tms', 'strings'],
        scope: body.scope,
        client_id: account.clientId,
        src: expect.stringMatching(/^service_account:\d+$/),
      });
      const who = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(body.access_token) });
      expect(who.statusCode).toBe(200);
      expect(who.json().user.uid).toBe(account.botUser.uid);
    });

    it('accepts HTTP Basic client authentication, but not Basic and the form at once', async () => {
      const account = await makeServiceAccount(t, admin.headers);
      const byBasic = await tokenRequest(t, { grant_type: 'client_credentials' }, basic(account.clientId, account.clientSecret));
      expect(byBasic.statusCode).toBe(200);
      // The same client_id in the form beside Basic is tolerated (several libraries send it).
      const withId = await tokenRequest(
        t,
        { grant_type: 'client_credentials', client_id: account.clientId },
        basic(account.clientId, account.clientSecret),
      );
      expect(withId.statusCode).toBe(200);
      expectOAuthError(
        await tokenRequest(
          t,
          { grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret },
          basic(account.clientId, account.clientSecret),
        ),
        'invalid_request',
      );
      expectOAuthError(
        await tokenRequest(t, { grant_type: 'client_credentials', client_id: 'other' }, basic(account.clientId, account.clientSecret)),
        'invalid_request',
      );
      expectOAuthError(
        await tokenRequest(t, { grant_type: 'client_credentials' }, basic(account.clientId, 'wrong')),
        'invalid_client',
        401,
      );
      expectOAuthError(
        await tokenRequest(t, { grant_type: 'client_credentials' }, { authorization: 'Basic bm9jb2xvbg==' }),
        'invalid_client',
        401,
      );
    });

    it('refuses bad or missing client credentials with 401 invalid_client', async () => {
      const account = await makeServiceAccount(t, admin.headers);
      const cases: Record<string, string>[] = [
        { grant_type: 'client_credentials' },
        { grant_type: 'client_credentials', client_id: account.clientId },
        { grant_type: 'client_credentials', client_secret: account.clientSecret },
        { grant_type: 'client_credentials', client_id: account.clientId, client_secret: 'wrong' },
        { grant_type: 'client_credentials', client_id: account.clientId, client_secret: `${account.clientSecret}x` },
        { grant_type: 'client_credentials', client_id: 'unknown', client_secret: account.clientSecret },
      ];
      for (const form of cases) expectOAuthError(await tokenRequest(t, form), 'invalid_client', 401);
    });

    it('narrows to the requested resource; a product not configured is invalid_target', async () => {
      const account = await makeServiceAccount(t, admin.headers, { products: ['tms', 'strings'], scopes: ['read', 'write'] });
      const strings = (await grant(account, { resource: 'strings' })).json();
      expect(strings.scope).toBe('strings:read strings:write');
      expect(decodeJwt(strings.access_token).aud).toEqual(['strings']);
      // A token for the string resource API only is no good at the TMS API.
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(strings.access_token) })).statusCode).toBe(401);

      const both = (await grant(account, { resource: 'strings tms' })).json();
      expect(decodeJwt(both.access_token).aud).toEqual(['tms', 'strings']);

      const tmsOnly = await makeServiceAccount(t, admin.headers, { products: ['tms'], scopes: ['read'] });
      expectOAuthError(await grant(tmsOnly, { resource: 'strings' }), 'invalid_target');
      expectOAuthError(await grant(tmsOnly, { resource: 'tms nonsense' }), 'invalid_target');
    });

    it('narrows to the requested scopes, prefixes them by product, and leaves out products granting none', async () => {
      const account = await makeServiceAccount(t, admin.headers, {
        products: ['tms', 'strings'],
        scopes: ['tms:read', 'tms:write', 'strings:read'],
      });
      expect((await grant(account)).json().scope).toBe('tms:read tms:write strings:read');

      const read = (await grant(account, { scope: 'read' })).json();
      expect(read.scope).toBe('tms:read strings:read');
      expect(decodeJwt(read.access_token).aud).toEqual(['tms', 'strings']);

      // strings grants no "write": it is left out of the token, the request does not fail.
      const write = (await grant(account, { scope: 'write' })).json();
      expect(write.scope).toBe('tms:write');
      expect(decodeJwt(write.access_token).aud).toEqual(['tms']);

      const prefixed = (await grant(account, { scope: 'strings:read' })).json();
      expect(prefixed.scope).toBe('strings:read');
      expect(decodeJwt(prefixed.access_token).aud).toEqual(['strings']);

      expectOAuthError(await grant(account, { scope: 'admin' }), 'invalid_scope');
      expectOAuthError(await grant(account, { scope: 'write', resource: 'strings' }), 'invalid_scope');
    });

    it('a product configured with no scope still appears in the audience, but grants nothing', async () => {
      const account = await makeServiceAccount(t, admin.headers, { products: ['tms', 'strings'], scopes: ['strings:read'] });
      const body = (await grant(account)).json();
      expect(body.scope).toBe('strings:read');
      expect(decodeJwt(body.access_token).aud).toEqual(['tms', 'strings']);
      const who = await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(body.access_token) });
      expect(who.statusCode).toBe(403);
      expect(who.json().errorCode).toBe('InsufficientScope');
    });

    it('a read-only token may read but gets 403 on a write', async () => {
      const account = await makeServiceAccount(t, admin.headers, { products: ['tms'], scopes: ['read', 'write'] });
      const jwt = (await grant(account, { scope: 'tms:read' })).json().access_token;
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(jwt) })).statusCode).toBe(200);
      expect((await t.inject({ url: '/api2/v1/users', headers: bearer(jwt) })).statusCode).toBe(200);
      const write = await t.inject({
        method: 'POST',
        url: '/api2/v1/serviceAccounts',
        headers: bearer(jwt),
        payload: { name: 'x', products: ['tms'], scopes: [] },
      });
      expect(write.statusCode).toBe(403);
      expect(write.json().errorCode).toBe('InsufficientScope');
    });

    it('refuses a tampered or foreign JWT', async () => {
      const account = await makeServiceAccount(t, admin.headers, { products: ['tms'], scopes: ['read'] });
      const jwt = (await grant(account)).json().access_token as string;
      const [header, payload, signature] = jwt.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, scope: 'tms:read tms:write' })).toString('base64url');
      for (const token of [`${header}.${forged}.${signature}`, `${header}.${payload}.${signature!.slice(0, -4)}AAAA`]) {
        expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(token) })).statusCode).toBe(401);
      }
      const otherKid = Buffer.from(JSON.stringify({ ...decodeProtectedHeader(jwt), kid: 'unknown' })).toString('base64url');
      expect((await t.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(`${otherKid}.${payload}.${signature}`) })).statusCode).toBe(
        401,
      );
    });
  });

  describe('signing keys', () => {
    it('publishes public keys only', async () => {
      const set = await jwks();
      expect(set.keys.length).toBeGreaterThanOrEqual(1);
      for (const key of set.keys) {
        expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) });
        expect(key).not.toHaveProperty('d');
      }
    });

    it('persists the key: a JWT stays valid after the app is rebuilt on the same database', async () => {
      const apiToken = await newApiToken();
      const jwt = (await tokenRequest(t, { grant_type: EXCHANGE, subject_token: apiToken })).json().access_token;
      const before = await jwks();
      const rebuilt = await buildApp(t.deps, { logger: false });
      try {
        const who = await rebuilt.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(jwt) });
        expect(who.statusCode).toBe(200);
        expect((await rebuilt.inject('/idm/.well-known/jwks.json')).json()).toEqual(before);
        const again = await rebuilt.inject({
          method: 'POST',
          url: '/idm/oauth/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ grant_type: EXCHANGE, subject_token: apiToken }).toString(),
        });
        expect(decodeProtectedHeader(again.json().access_token).kid).toBe(decodeProtectedHeader(jwt).kid);
      } finally {
        await rebuilt.close();
      }
      const keys = await t.database.db.selectFrom('signingKeys').select('kid').execute();
      expect(keys).toHaveLength(1);
    });

    it('two apps starting at once on an empty key table agree on one signing key', async () => {
      const fresh = await createTestApp();
      try {
        const other = await buildApp(fresh.deps, { logger: false });
        try {
          const [a, b] = await Promise.all([fresh.app.inject('/idm/.well-known/jwks.json'), other.inject('/idm/.well-known/jwks.json')]);
          expect(a.statusCode).toBe(200);
          expect(b.statusCode).toBe(200);
          const { headers } = await signedInUser(fresh, 'ADMIN');
          const account = await makeServiceAccount(fresh, headers);
          const form = { grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret };
          const payload = new URLSearchParams(form).toString();
          const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
          const [ta, tb] = await Promise.all([
            fresh.app.inject({ method: 'POST', url: '/idm/oauth/token', headers: formHeaders, payload }),
            other.inject({ method: 'POST', url: '/idm/oauth/token', headers: formHeaders, payload }),
          ]);
          expect(decodeProtectedHeader(ta.json().access_token).kid).toBe(decodeProtectedHeader(tb.json().access_token).kid);
          // Each verifies the other's token.
          expect((await other.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(ta.json().access_token) })).statusCode).toBe(200);
          expect((await fresh.app.inject({ url: '/api2/v1/auth/whoAmI', headers: bearer(tb.json().access_token) })).statusCode).toBe(200);
        } finally {
          await other.close();
        }
      } finally {
        await fresh.close();
      }
    });
  });
});
