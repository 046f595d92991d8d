import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { CredentialCache, affectsCredentials } from '../src/modules/identity/authentication/credential-cache.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { apiToken, signedInUser } from './factories.js';
import { TEST_DATABASE_URL, createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { waitFor } from './support/wait.js';

/**
 * The cache of verified credentials (issue 12, point 9): a known token costs no database round
 * trip, and any change to what it stands for (revocation, deactivation, a new role) is seen by
 * the very next request, in this process and, on PostgreSQL, in every other.
 */

const caller = { role: 'ADMIN' } as never;

describe('the credential cache', () => {
  it('keeps a credential until it expires, and never one loaded before a change', () => {
    const cache = new CredentialCache({ ttlMs: 10_000 });
    const generation = cache.generation;
    cache.set('a', { caller }, generation, 1_000, 5_000);
    expect(cache.get('a', 4_999)?.caller).toBe(caller);
    expect(cache.get('a', 5_000)).toBeNull();
    cache.set('b', { caller }, generation, 1_000, null);
    expect(cache.get('b', 10_999)).not.toBeNull();
    expect(cache.get('b', 11_000)).toBeNull();
    // A change while a credential was being verified: what was read may be stale.
    const before = cache.generation;
    cache.clear();
    cache.set('c', { caller }, before, 1_000, null);
    expect(cache.get('c', 1_001)).toBeNull();
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const cache = new CredentialCache({ ttlMs: 10_000, maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) cache.set(key, { caller }, cache.generation, 0, null);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeNull();
    expect(cache.get('c', 1)).not.toBeNull();
  });

  it('keeps nothing with a time to live of 0, and nothing while it may not be trusted', () => {
    const off = new CredentialCache({ ttlMs: 0 });
    off.set('a', { caller }, off.generation, 0, null);
    expect(off.get('a', 1)).toBeNull();
    const unreachable = new CredentialCache({ ttlMs: 10_000 });
    let connected = false;
    unreachable.usableWhen(() => connected);
    unreachable.set('a', { caller }, unreachable.generation, 0, null);
    expect(unreachable.get('a', 1)).toBeNull();
    connected = true;
    expect(unreachable.get('a', 1)).not.toBeNull();
  });

  it.each([
    [{ table: 'users', kind: 'update', columns: ['role'] }, true],
    [{ table: 'users', kind: 'update', columns: ['last_login_at'] }, false],
    [{ table: 'users', kind: 'delete', columns: null }, true],
    [{ table: 'users', kind: 'insert', columns: null }, false],
    [{ table: 'api_tokens', kind: 'update', columns: ['last_used_at'] }, false],
    [{ table: 'api_tokens', kind: 'update', columns: ['revoked_at'] }, true],
    [{ table: 'login_tokens', kind: 'update', columns: ['revoked_at'] }, true],
    [{ table: 'organizations', kind: 'update', columns: ['last_project_internal_id'] }, false],
    [{ table: 'organizations', kind: 'update', columns: ['seat_limit'] }, true],
    [{ table: 'projects', kind: 'update', columns: ['name'] }, false],
  ] as const)('a write %j empties it: %s', (write, expected) => {
    expect(affectsCredentials(write)).toBe(expected);
  });
});

describe('verified credentials over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const whoAmI = (headers: Record<string, string>) => t.inject({ url: '/api2/v1/auth/whoAmI', headers });

  it('serves a known token without reading it again, until it expires', async () => {
    const { token, headers } = await signedInUser(t, 'ADMIN');
    expect((await whoAmI(headers)).statusCode).toBe(200);
    // Removed behind the app's back (raw SQL tells no one): the cache still knows the token…
    await sql`delete from login_tokens where id = (select max(id) from login_tokens)`.execute(t.database.db);
    expect((await whoAmI(apiToken(token))).statusCode).toBe(200);
    // …for the cache's time to live (30 s by default) at most.
    t.clock.advance(31_000);
    expect((await whoAmI(apiToken(token))).statusCode).toBe(401);
  });

  it('refuses a token at once after its logout', async () => {
    const { headers } = await signedInUser(t, 'ADMIN');
    expect((await whoAmI(headers)).statusCode).toBe(200);
    expect((await t.inject({ method: 'POST', url: '/api2/v1/auth/logout', headers })).statusCode).toBe(204);
    expect((await whoAmI(headers)).statusCode).toBe(401);
  });

  it('refuses a revoked personal API token at once', async () => {
    const { headers } = await signedInUser(t, 'ADMIN');
    const created = await t.inject({ method: 'POST', url: '/api2/v1/auth/apiTokens', headers, payload: { name: 'cached' } });
    expect(created.statusCode).toBe(201);
    const { token, uid } = created.json() as { token: string; uid: string };
    expect((await whoAmI(apiToken(token))).statusCode).toBe(200);
    expect((await whoAmI(apiToken(token))).statusCode).toBe(200);
    expect((await t.inject({ method: 'DELETE', url: `/api2/v1/auth/apiTokens/${uid}`, headers })).statusCode).toBeLessThan(300);
    expect((await whoAmI(apiToken(token))).statusCode).toBe(401);
  });

  it('sees a deactivated user and a changed role at once', async () => {
    const { headers: adminHeaders } = await signedInUser(t, 'ADMIN');
    const { user, headers } = await signedInUser(t, 'PROJECT_MANAGER');
    expect((await t.inject({ url: '/api2/v1/users', headers })).statusCode).toBe(200);
    await t.database.db.updateTable('users').set({ role: 'LINGUIST' }).where('id', '=', user.id).execute();
    expect((await t.inject({ url: '/api2/v1/users', headers })).statusCode).toBe(403);
    expect((await whoAmI(headers)).json()).toMatchObject({ user: { role: 'LINGUIST' } });
    await t.database.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
    expect((await whoAmI(headers)).statusCode).toBe(401);
    expect((await whoAmI(adminHeaders)).statusCode).toBe(200);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('verified credentials across processes (PostgreSQL)', () => {
  it('another API process refuses a token as soon as this one revokes it', async () => {
    const t = await createTestApp({ env: { DATABASE_URL: TEST_DATABASE_URL! } });
    // A second app over its own connections to the same schema: it sees none of this one's writes,
    // only PostgreSQL's notifications.
    const otherDatabase = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL!, schema: t.database.schema!, maxConnections: 2 });
    const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: TEST_DATABASE_URL! });
    const other = await buildApp({ ...t.deps, database: otherDatabase, config, taskWakeup: createTaskWakeup() }, { logger: false });
    try {
      // Both apps' LISTEN connections are up: until then neither serves from its cache.
      await waitFor('both apps to listen for credential changes', async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where application_name = 'opentms-credentials' and query = 'listen opentms_credentials'`.execute(t.database.db);
        return rows[0]!.n >= 2;
      });
      const { headers } = await signedInUser(t, 'ADMIN');
      const askOther = () => other.inject({ url: '/api2/v1/auth/whoAmI', headers });
      // Verified by the other process and kept in its cache…
      expect((await askOther()).statusCode).toBe(200);
      expect((await askOther()).statusCode).toBe(200);
      expect((await t.inject({ method: 'POST', url: '/api2/v1/auth/logout', headers })).statusCode).toBe(204);
      await waitFor('the other process to refuse the token', async () => (await askOther()).statusCode === 401, 2_000);
    } finally {
      await other.close();
      await otherDatabase.close();
      await t.close();
    }
  });
});
