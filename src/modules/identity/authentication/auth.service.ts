import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { afterFailure, waitBeforeAttempt } from '../../../domain/auth/login-throttle.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { findOrganizationById } from '../organizations/index.js';
import { recordLogin } from '../users/index.js';
import { findUserByUid, findUserByUserName } from '../users/index.js';
import type { UserRow } from '../users/index.js';
import { clearLoginFailures, findLoginFailures, saveLoginFailures } from './login-failures.repository.js';
import { createLoginToken, revokeLoginToken } from '../credentials/index.js';
import { decoyHash, verifyPassword } from '../credentials/index.js';

export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

export interface IssuedLogin {
  user: UserRow;
  token: string;
  expires: string;
  /** Sessions only. */
  csrfToken: string | null;
}

/**
 * Checks a user name and password. Every way of failing (unknown name, wrong password, inactive,
 * deleted or bot account) gives the same 401 after the same work, and counts towards the
 * throttle of that name; a throttled name gets 429 with Retry-After before anything is checked.
 */
async function checkPassword(deps: AppDeps, userName: string, password: string): Promise<UserRow> {
  const db = deps.database.db;
  const now = deps.clock();
  const failures = await findLoginFailures(db, userName);
  const wait = waitBeforeAttempt(failures, now);
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw errors.AuthTooManyAttempts({ retryAfterSeconds: seconds });
  }
  const user = await findUserByUserName(db, userName);
  const usable = user && user.passwordHash && bool(user.active) && !user.deletedAt && !bool(user.isBot) ? user : null;
  const ok = await verifyPassword(password, usable?.passwordHash ?? (await decoyHash()));
  if (!usable || !ok) {
    await saveLoginFailures(db, userName, afterFailure(failures, now));
    throw errors.AuthInvalidCredentials();
  }
  if (failures) await clearLoginFailures(db, userName);
  return usable;
}

/**
 * Description, "Legacy login rules": a password login is refused when the organization restricts
 * authentication to SSO and API-token SSO enforcement is on; a session login whenever it
 * restricts authentication to SSO.
 */
async function assertPasswordLoginAllowed(deps: AppDeps, user: UserRow, kind: 'login' | 'session'): Promise<void> {
  const organization = await findOrganizationById(deps.database.db, user.organizationId);
  const ssoOnly = bool(organization?.ssoOnly);
  const refused = kind === 'session' ? ssoOnly : ssoOnly && bool(organization?.apiTokenSsoEnforced);
  if (refused) {
    throw errors.AuthSsoRequired();
  }
}

async function issue(
  deps: AppDeps,
  user: UserRow,
  kind: 'login' | 'session',
  client: ClientInfo,
  impersonatorId: string | null = null,
): Promise<IssuedLogin> {
  const now = deps.clock();
  const { token, expiresAt, csrfToken } = await createLoginToken(deps.database.db, {
    userId: user.id,
    organizationId: user.organizationId,
    now,
    ttlSeconds: deps.config.loginTokenTtlSeconds,
    kind,
    impersonatorId,
  });
  if (!impersonatorId) await recordLogin(deps.database.db, user, now, client);
  return { user, token, expires: expiresAt, csrfToken };
}

/**
 * Password logins: `login` (v1, v3) gives a token for `Authorization: ApiToken <token>`;
 * `session` (loginToSession v1, v3) a session cookie and the CSRF token its unsafe requests must
 * send. v3's `userUid` is "when not filled, default user of identity will be logged in"; an
 * identity here has exactly one user, so a different uid is simply wrong credentials.
 */
export async function passwordLogin(
  deps: AppDeps,
  kind: 'login' | 'session',
  input: { userName: string; password: string; userUid?: string | undefined },
  client: ClientInfo,
): Promise<IssuedLogin> {
  const user = await checkPassword(deps, input.userName, input.password);
  if (input.userUid && input.userUid !== user.uid) throw errors.AuthInvalidCredentials();
  await assertPasswordLoginAllowed(deps, user, kind);
  return issue(deps, user, kind, client);
}

/**
 * Login as another user (v1, v3): ADMIN only, within the admin's organization. Description rule 2
 * also limits accounts that belong to several organizations to their owner; in OpenTMS a user
 * belongs to exactly one organization, so that case cannot arise.
 */
export async function loginOther(
  deps: AppDeps,
  caller: Caller,
  input: { userName: string; userUid?: string | undefined },
): Promise<IssuedLogin> {
  if (caller.impersonatorId) throw errors.AccessDenied({ reason: 'You are already logged in as another user; log in as yourself first.' });
  const db = deps.database.db;
  const target = input.userUid
    ? await findUserByUid(db, caller.organizationId, input.userUid)
    : await findUserByUserName(db, input.userName);
  if (!target || target.organizationId !== caller.organizationId || target.deletedAt) throw errors.ResourceNotFound({ what: 'User' });
  if (input.userUid && target.userName.toLowerCase() !== input.userName.toLowerCase()) throw errors.ResourceNotFound({ what: 'User' });
  if (!bool(target.active)) throw errors.InvalidArguments({ reason: 'The user is not active.' });
  if (bool(target.isBot)) throw errors.InvalidArguments({ reason: 'Bot users of service accounts cannot log in interactively.' });
  return issue(deps, target, 'login', { ipAddress: null, userAgent: null }, caller.userId);
}

/** Ends a login token or session (logout). */
export async function logout(deps: AppDeps, caller: Caller): Promise<void> {
  if (caller.credential.kind !== 'login' && caller.credential.kind !== 'session') {
    throw errors.InvalidArguments({
      reason: 'Only tokens of the login operations can be logged out; revoke API tokens with DELETE /api2/v1/auth/apiTokens/{uid}.',
    });
  }
  await revokeLoginToken(deps.database.db, caller.credential.id, deps.clock());
}

/**
 * OpenTMS extension: trades a login token for a fresh one with a new expiry and revokes the old
 * one, so that a long-running script need not keep the password.
 */
export async function refreshLogin(deps: AppDeps, caller: Caller): Promise<IssuedLogin> {
  if (caller.credential.kind !== 'login')
    throw errors.InvalidArguments({ reason: 'Only tokens of the login operations can be refreshed.' });
  const user = await findUserByUid(deps.database.db, caller.organizationId, caller.userUid);
  if (!user) throw errors.ResourceNotFound({ what: 'User' });
  const issued = await issue(deps, user, 'login', { ipAddress: null, userAgent: null }, caller.impersonatorId);
  await revokeLoginToken(deps.database.db, caller.credential.id, deps.clock());
  return issued;
}
