import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB, UserRole } from '../../../db/schema.js';
import {
  hasRight,
  parseRoleSettings,
  referencedKeys,
  roleSettingsFromInput,
  RoleSettingsError,
} from '../../../domain/users/role-settings.js';
import type { ProjectManagerRight, RoleSettings } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { hashPassword, verifyPassword } from '../credentials/index.js';
import { revokeUserLoginTokens } from '../credentials/index.js';
import { findClientsByIds } from './guest-clients.repository.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { findAllReferencedRecords, findReferencedRecords, hasReferenceTable } from './setting-references.js';
import { findOrganizationById } from '../organizations/index.js';
import { toUserDetailsV3 } from './user-views.js';
import { countOtherAdmins, updateUser } from './users.repository.js';
import { countSeats, findUserById, findUserByUid, findUserByUserName, findUsersByIds, insertUser } from './users.repository.js';
import type { UserChanges } from './users.repository.js';
import type { UserRow } from './users.repository.js';
import type { UserCreateBody, UserDetailsV3, UserEditBody } from './users.schemas.js';

/**
 * User management use cases (v1 and v3 User operations). Rules, where the spec and the
 * description are silent, are written down in docs/identity-and-access.md.
 */

const ALL_ASSIGNABLE: readonly UserRole[] = ['ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'];

/** Roles the caller may give a user: ADMIN any; project managers any but ADMIN; others none. */
export function assignableRoles(caller: Caller): readonly UserRole[] {
  if (caller.role === 'ADMIN') return ALL_ASSIGNABLE;
  if (caller.role === 'PROJECT_MANAGER' && hasRight(caller.role, caller.settings, 'userCreate'))
    return ALL_ASSIGNABLE.filter((r) => r !== 'ADMIN');
  return [];
}

/**
 * Whether the caller may see / change `target`. ADMIN: every user of the organization.
 * Project managers: users they created, and others' users with the matching *Other right, but
 * never an ADMIN for changes. Everyone may see themselves.
 */
export function mayAccessUser(caller: Caller, target: UserRow, right: Extract<ProjectManagerRight, `user${string}Other`>): boolean {
  if (caller.role === 'ADMIN') return true;
  const self = target.id === caller.userId;
  if (right === 'userViewOther' && self) return true;
  if (caller.role !== 'PROJECT_MANAGER') return false;
  if (right !== 'userViewOther' && target.role === 'ADMIN') return false;
  const own = target.createdById !== null && target.createdById === caller.userId;
  return own || hasRight(caller.role, caller.settings, right);
}

/** Time zones are IANA names (`Europe/Prague`, `UTC`); anything else is a 400 naming `field`. */
export function assertTimezone(timezone: string, field = 'timezone'): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw errors.InvalidArguments({ reason: `Unknown time zone "${timezone}".`, details: [{ field, message: 'unknown time zone' }] });
  }
}

export function checkPassword(password: string, userName: string): void {
  if (password.length < 8 || password.length > 255)
    throw errors.InvalidArguments({
      reason: 'Password length must be between 8 and 255.',
      details: [{ field: 'password', message: 'length must be between 8 and 255' }],
    });
  if (password.toLowerCase() === userName.toLowerCase()) {
    throw errors.InvalidArguments({
      reason: 'Password must not be the same as the user name.',
      details: [{ field: 'password', message: 'must not be the same as the user name' }],
    });
  }
}

/** Turns the role-specific part of a request into stored settings, checking every reference. */
async function resolveRoleSettings(
  db: Kysely<DB>,
  organizationId: string,
  role: UserRole,
  body: Record<string, unknown>,
  previous: { role: UserRole; settings: RoleSettings; guestClientUid: string | null } | null,
): Promise<{ settings: RoleSettings; guestClientId: string | null }> {
  let settings: RoleSettings;
  try {
    const carried = previous && previous.role === role ? previous.settings : undefined;
    const input =
      role === 'GUEST' && body.client === undefined && previous?.guestClientUid
        ? { ...body, client: { uid: previous.guestClientUid } }
        : body;
    settings = roleSettingsFromInput(role, input, carried);
  } catch (error) {
    if (error instanceof RoleSettingsError)
      throw errors.InvalidArguments({ reason: error.message, details: [{ field: error.field, message: error.message }] });
    throw error;
  }
  // Stored canonical (`EN-us` -> `en_us`); a code not on the supported list is a 400 UnsupportedLanguage.
  for (const [field, codes] of Object.entries(settings.locales)) settings.locales[field] = assertLanguages(field, codes);
  let guestClientId: string | null = null;
  for (const [kind, keys] of referencedKeys(role, settings)) {
    if (!hasReferenceTable(kind)) {
      // NOTE: automation widgets arrive in a later issue; until then no reference to one can be valid.
      throw errors.ReferenceNotFound({ what: kind, key: [...keys][0]! });
    }
    const found = await findReferencedRecords(db, organizationId, kind, keys);
    const missing = [...keys].find((key) => !found.has(key));
    if (missing) throw errors.ReferenceNotFound({ what: kind, key: missing });
    if (role === 'GUEST' && kind === 'client') guestClientId = found.get(settings.references.client ?? '')?.id ?? null;
  }
  if (role === 'GUEST') {
    // The guest's client lives in the users.guest_client_id foreign key, not in the JSON.
    settings = { ...settings, references: Object.fromEntries(Object.entries(settings.references).filter(([k]) => k !== 'client')) };
  }
  return { settings, guestClientId };
}

async function assertSeatAvailable(db: Kysely<DB>, organizationId: string): Promise<void> {
  const organization = await findOrganizationById(db, organizationId);
  if (organization?.seatLimit === null || organization?.seatLimit === undefined) return;
  if ((await countSeats(db, organizationId)) >= organization.seatLimit) {
    throw errors.SeatLimitReached({ seats: organization.seatLimit });
  }
}

async function assertUserNameFree(db: Kysely<DB>, userName: string, exceptId?: string): Promise<void> {
  const existing = await findUserByUserName(db, userName);
  if (existing && existing.id !== exceptId) {
    throw errors.UserNameAlreadyExists({ userName });
  }
}

function assertNotBot(target: UserRow): void {
  if (bool(target.isBot)) {
    throw errors.BotUserReadOnly();
  }
}

/** The user `uid` of the caller's organization, or 404 when it does not exist there. */
export async function getUserOr404(deps: AppDeps, caller: Caller, uid: string): Promise<UserRow> {
  const user = await findUserByUid(deps.database.db, caller.organizationId, uid);
  if (!user) throw errors.ResourceNotFound({ what: 'User' });
  return user;
}

export async function userDetails(deps: AppDeps, caller: Caller, user: UserRow): Promise<UserDetailsV3> {
  const db = deps.database.db;
  const settings = parseRoleSettings(user.role, user.roleSettings);
  const [records, [createdBy], [guestClient]] = await Promise.all([
    findAllReferencedRecords(db, caller.organizationId, referencedKeys(user.role, settings)),
    user.createdById === null ? Promise.resolve([]) : findUsersByIds(db, caller.organizationId, [user.createdById]),
    user.guestClientId === null ? Promise.resolve([]) : findClientsByIds(db, caller.organizationId, [user.guestClientId]),
  ]);
  return toUserDetailsV3(user, createdBy, { records, guestClient }, assignableRoles(caller));
}

export async function createUser(deps: AppDeps, caller: Caller, body: UserCreateBody): Promise<UserRow> {
  const db = deps.database.db;
  if (!assignableRoles(caller).includes(body.role))
    throw errors.AccessDenied({ reason: `You may not create users with the role ${body.role}.` });
  assertTimezone(body.timezone);
  checkPassword(body.password, body.userName);
  const { settings, guestClientId } = await resolveRoleSettings(db, caller.organizationId, body.role, body, null);
  const passwordHash = await hashPassword(body.password);
  return db.transaction().execute(async (trx) => {
    await assertUserNameFree(trx, body.userName);
    if (body.active !== false) await assertSeatAvailable(trx, caller.organizationId);
    return insertUser(trx, {
      organizationId: caller.organizationId,
      userName: body.userName,
      email: body.email,
      firstName: body.firstName,
      lastName: body.lastName,
      role: body.role,
      passwordHash,
      timezone: body.timezone,
      note: body.note ?? null,
      active: body.active ?? true,
      receiveNewsletter: body.receiveNewsletter ?? true,
      roleSettings: JSON.stringify(settings),
      guestClientId,
      createdById: caller.userId,
    });
  });
}

/** v3 edit: replaces the user's fields; role-specific fields not sent keep their values. */
export async function editUser(deps: AppDeps, caller: Caller, uid: string, body: UserEditBody): Promise<UserRow> {
  const db = deps.database.db;
  const target = await getUserOr404(deps, caller, uid);
  if (!mayAccessUser(caller, target, 'userEditOther')) throw errors.AccessDenied({ reason: 'You may not edit this user.' });
  assertNotBot(target);
  const self = target.id === caller.userId;
  if (body.role !== target.role) {
    if (self)
      throw errors.InvalidArguments({
        reason: 'You cannot change your own role.',
        details: [{ field: 'role', message: 'cannot change your own role' }],
      });
    if (!assignableRoles(caller).includes(body.role))
      throw errors.AccessDenied({ reason: `You may not give users the role ${body.role}.` });
  }
  if (self && body.active === false)
    throw errors.InvalidArguments({
      reason: 'You cannot deactivate yourself.',
      details: [{ field: 'active', message: 'cannot deactivate yourself' }],
    });
  assertTimezone(body.timezone);
  const previousGuestClient =
    target.guestClientId === null ? undefined : (await findClientsByIds(db, caller.organizationId, [target.guestClientId]))[0];
  const { settings, guestClientId } = await resolveRoleSettings(db, caller.organizationId, body.role, body, {
    role: target.role,
    settings: parseRoleSettings(target.role, target.roleSettings),
    guestClientUid: previousGuestClient?.uid ?? null,
  });
  const active = body.active ?? bool(target.active);
  const changes: UserChanges = {
    userName: body.userName,
    firstName: body.firstName,
    lastName: body.lastName,
    email: body.email,
    role: body.role,
    timezone: body.timezone,
    note: body.note === undefined ? target.note : body.note,
    receiveNewsletter: body.receiveNewsletter ?? bool(target.receiveNewsletter),
    active,
    roleSettings: JSON.stringify(settings),
    guestClientId,
  };
  return db.transaction().execute(async (trx) => {
    if (body.userName !== target.userName) await assertUserNameFree(trx, body.userName, target.id);
    const losesAdmin = target.role === 'ADMIN' && (body.role !== 'ADMIN' || !active);
    if (losesAdmin && (await countOtherAdmins(trx, caller.organizationId, target.id)) === 0) {
      throw errors.LastAdmin();
    }
    if (active && !bool(target.active)) await assertSeatAvailable(trx, caller.organizationId);
    const updated = await updateUser(trx, caller.organizationId, target.id, changes);
    if (!active) await revokeUserLoginTokens(trx, target.id, deps.clock());
    return updated;
  });
}

/** Soft delete: the user keeps its name and history and can be restored (undelete). */
export async function deleteUser(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const db = deps.database.db;
  const target = await getUserOr404(deps, caller, uid);
  if (target.deletedAt) throw errors.ResourceNotFound({ what: 'User' });
  if (!mayAccessUser(caller, target, 'userDeleteOther')) throw errors.AccessDenied({ reason: 'You may not delete this user.' });
  assertNotBot(target);
  if (target.id === caller.userId) throw errors.InvalidArguments({ reason: 'You cannot delete yourself.' });
  await db.transaction().execute(async (trx) => {
    if (target.role === 'ADMIN' && (await countOtherAdmins(trx, caller.organizationId, target.id)) === 0) {
      throw errors.LastAdmin();
    }
    await updateUser(trx, caller.organizationId, target.id, { deletedAt: deps.clock().toISOString() });
    await revokeUserLoginTokens(trx, target.id, deps.clock());
  });
}

export async function undeleteUser(deps: AppDeps, caller: Caller, uid: string): Promise<UserRow> {
  const db = deps.database.db;
  const target = await getUserOr404(deps, caller, uid);
  if (!mayAccessUser(caller, target, 'userDeleteOther')) throw errors.AccessDenied({ reason: 'You may not restore this user.' });
  if (!target.deletedAt) throw errors.InvalidArguments({ reason: 'The user is not deleted.' });
  return db.transaction().execute(async (trx) => {
    if (bool(target.active)) await assertSeatAvailable(trx, caller.organizationId);
    return updateUser(trx, caller.organizationId, target.id, { deletedAt: null });
  });
}

/** Sets a user's password and ends the user's other sessions. */
export async function setPassword(deps: AppDeps, caller: Caller, uid: string, password: string): Promise<void> {
  const target = await getUserOr404(deps, caller, uid);
  if (target.deletedAt) throw errors.ResourceNotFound({ what: 'User' });
  if (!mayAccessUser(caller, target, 'userEditOther')) throw errors.AccessDenied({ reason: "You may not change this user's password." });
  assertNotBot(target);
  checkPassword(password, target.userName);
  const passwordHash = await hashPassword(password);
  await deps.database.db.transaction().execute(async (trx) => {
    await updateUser(trx, caller.organizationId, target.id, { passwordHash });
    const own = target.id === caller.userId && caller.credential.kind !== 'jwt' ? caller.credential.id : undefined;
    await revokeUserLoginTokens(trx, target.id, deps.clock(), caller.credential.kind === 'api_token' ? undefined : own);
  });
}

/** What the current user may change in their own profile; omitted fields keep their values. */
export interface ProfileEdit {
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  timezone?: string | undefined;
  receiveNewsletter?: boolean | undefined;
  currentPassword?: string | undefined;
  newPassword?: string | undefined;
}

/** The caller's own user, or 404 (e.g. deleted since the credential was issued). */
export async function getOwnUser(deps: AppDeps, caller: Caller): Promise<UserRow> {
  const user = await findUserById(deps.database.db, caller.organizationId, caller.userId);
  if (!user) throw errors.ResourceNotFound({ what: 'User' });
  return user;
}

/**
 * Edits the caller's own profile. A new password needs the current one, and ends the caller's
 * other sessions (the login or session in use stays).
 */
export async function editOwnProfile(deps: AppDeps, caller: Caller, body: ProfileEdit): Promise<UserRow> {
  const user = await getOwnUser(deps, caller);
  if (body.timezone !== undefined) assertTimezone(body.timezone);
  let passwordHash: string | undefined;
  if (body.newPassword !== undefined) {
    if (!body.currentPassword || !user.passwordHash || !(await verifyPassword(body.currentPassword, user.passwordHash))) {
      throw errors.CurrentPasswordWrong();
    }
    checkPassword(body.newPassword, user.userName);
    passwordHash = await hashPassword(body.newPassword);
  }
  return deps.database.db.transaction().execute(async (trx) => {
    const row = await updateUser(trx, caller.organizationId, caller.userId, {
      firstName: body.firstName ?? user.firstName,
      lastName: body.lastName ?? user.lastName,
      email: body.email ?? user.email,
      timezone: body.timezone ?? user.timezone,
      receiveNewsletter: body.receiveNewsletter ?? bool(user.receiveNewsletter),
      ...(passwordHash ? { passwordHash } : {}),
    });
    if (passwordHash) {
      const keep = caller.credential.kind === 'login' || caller.credential.kind === 'session' ? caller.credential.id : undefined;
      await revokeUserLoginTokens(trx, caller.userId, deps.clock(), keep);
    }
    return row;
  });
}
