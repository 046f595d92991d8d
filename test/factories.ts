import type { Kysely } from 'kysely';
import type { DB, UserRole } from '../src/db/schema.js';
import { newUid } from '../src/db/ids.js';
import { hashPassword } from '../src/modules/identity/credentials/passwords.js';
import { insertOrganization } from '../src/modules/identity/organizations/organizations.repository.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import { insertUser } from '../src/modules/identity/users/users.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import type { TestApp } from './harness.js';

/**
 * Record factories shared by every module's tests. They write through the real repositories, so
 * a record made here is exactly what the API would have made.
 */
export const DEFAULT_PASSWORD = 'correct horse battery staple';

let defaultHash: Promise<string> | null = null;
/** Hashing is deliberately slow; every factory user shares one hash of DEFAULT_PASSWORD. */
function defaultPasswordHash(): Promise<string> {
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  return defaultHash;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

export function makeOrganization(db: Kysely<DB>, name = unique('Organization ')): Promise<OrganizationRow> {
  return insertOrganization(db, name);
}

export interface UserOverrides {
  role?: UserRole;
  userName?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  password?: string;
  createdById?: string | null;
}

export async function makeUser(db: Kysely<DB>, organization: OrganizationRow, overrides: UserOverrides = {}): Promise<UserRow> {
  const userName = overrides.userName ?? unique('user-');
  return insertUser(db, {
    organizationId: organization.id,
    userName,
    email: overrides.email ?? `${userName}@example.test`,
    firstName: overrides.firstName ?? 'Test',
    lastName: overrides.lastName ?? 'User',
    role: overrides.role ?? 'ADMIN',
    passwordHash: overrides.password ? await hashPassword(overrides.password) : await defaultPasswordHash(),
    createdById: overrides.createdById ?? null,
  });
}

/** A client record (the GUEST role and, later, projects point at clients). */
export async function makeClient(db: Kysely<DB>, organization: OrganizationRow, name = unique('Client ')) {
  return db
    .insertInto('clients')
    .values({
      uid: newUid(),
      organizationId: organization.id,
      name,
      externalId: null,
      createdAt: new Date().toISOString(),
      createdById: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Logs the user in through the API (v3) and returns the token. */
export async function loginAs(t: TestApp, user: UserRow, password = DEFAULT_PASSWORD): Promise<string> {
  const response = await t.inject({
    method: 'POST',
    url: '/api2/v3/auth/login',
    payload: { userName: user.userName, password },
  });
  if (response.statusCode !== 200) throw new Error(`login of ${user.userName} failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}

export const apiToken = (token: string) => ({ authorization: `ApiToken ${token}` });

/** An organization with one user of the given role, logged in. */
export async function signedInUser(t: TestApp, role: UserRole = 'ADMIN', organization?: OrganizationRow) {
  const org = organization ?? (await makeOrganization(t.database.db));
  const user = await makeUser(t.database.db, org, { role });
  const token = await loginAs(t, user);
  return { organization: org, user, token, headers: apiToken(token) };
}

export interface MadeServiceAccount {
  uid: string;
  clientId: string;
  clientSecret: string;
  botUser: { id: string; uid: string; userName: string };
}

/** A service account made through the API by an ADMIN (`adminHeaders`), with its one-time secret. */
export async function makeServiceAccount(
  t: TestApp,
  adminHeaders: Record<string, string>,
  input: { name?: string; products?: string[]; scopes?: string[] } = {},
): Promise<MadeServiceAccount> {
  const response = await t.inject({
    method: 'POST',
    url: '/api2/v1/serviceAccounts',
    headers: adminHeaders,
    payload: { name: input.name ?? unique('Integration '), products: input.products ?? ['tms'], scopes: input.scopes ?? ['read', 'write'] },
  });
  if (response.statusCode !== 201) throw new Error(`service account not created: ${response.statusCode} ${response.body}`);
  return response.json() as MadeServiceAccount;
}

/** A form-encoded request to the token service. */
export function tokenRequest(t: TestApp, form: Record<string, string>, headers: Record<string, string> = {}) {
  return t.inject({
    method: 'POST',
    url: '/idm/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}
