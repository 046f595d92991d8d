import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { parseFilter } from '../../../domain/scim/filter.js';
import { applyPatch, parsePatchRequest } from '../../../domain/scim/patch.js';
import { isObject, normalizeAttributes, parseAttributeList, projectResource } from '../../../domain/scim/resource.js';
import type { ScimObject } from '../../../domain/scim/resource.js';
import { LIST_RESPONSE_URN, SCIM_ROLES, USER_ATTRIBUTES } from '../../../domain/scim/schema.js';
import type { ScimRole } from '../../../domain/scim/schema.js';
import { RoleSettingsError, roleSettingsFromInput } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import { errors, scimErrors } from '../../../errors/index.js';
import { hashPassword } from '../credentials/index.js';
import { findOrganizationById } from '../organizations/index.js';
import { countSeats, findUserByUserName, insertUser } from '../users/index.js';
import type { UserRow } from '../users/index.js';
import { assignableRoles, checkPassword, deleteUser, editUser, setPassword } from '../users/index.js';
import { findScimUser, searchScimUsers } from './scim-users.repository.js';
import { DEFAULT_COUNT, MAX_RESULTS, patchableUser, toScimUser } from './scim-views.js';
import type { ScimSearchQuery, ScimUserPartial } from './scim.schemas.js';

/**
 * SCIM user provisioning (docs/scim.md) on top of the users service: a SCIM create, replace,
 * patch or delete is checked by the same rules as the TMS user operations (unique user names,
 * seats, the last ADMIN, deactivation ending sessions), and answers SCIM errors.
 */

/** Where a user resource lives, for `meta.location` and the `Location` header. */
export type Locate = (uid: string) => string;

/** What a SCIM resource says about the user record. Optional fields left out keep their values. */
interface UserFields {
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  active: boolean | undefined;
  password: string | undefined;
  role: ScimRole | undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function requiredText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw scimErrors.invalidValue(`${field} is required.`);
  if (value.length > 255) throw scimErrors.invalidValue(`${field} must be at most 255 characters.`);
  return value;
}

/** The value that counts of a multi-valued attribute: the primary one, or else the first. */
function chosen(values: unknown): Record<string, unknown> | undefined {
  const list = (Array.isArray(values) ? values : []).filter(
    (item): item is Record<string, unknown> => isObject(item) && typeof item.value === 'string' && item.value.trim() !== '',
  );
  return list.find((item) => item.primary === true) ?? list[0];
}

/** `Project Manager`, `project-manager`, `PROJECT_MANAGER` -> PROJECT_MANAGER. */
function roleFrom(value: string): ScimRole {
  const role = value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if (!(SCIM_ROLES as readonly string[]).includes(role)) {
    throw scimErrors.invalidValue(`roles: "${value}" is not a role OpenTMS can give; use ADMIN, PROJECT_MANAGER, LINGUIST or SUBMITTER.`);
  }
  return role as ScimRole;
}

/** Checks a normalised resource (src/domain/scim/resource.ts) and reads the record's fields from it. */
function userFields(resource: ScimObject): UserFields {
  const userName = requiredText(resource.userName, 'userName');
  if (/\s/.test(userName)) throw scimErrors.invalidValue('userName must not contain white space.');
  const name = isObject(resource.name) ? resource.name : {};
  const email = chosen(resource.emails)?.value as string | undefined;
  if (email === undefined) throw scimErrors.invalidValue('emails must hold at least one address (emails[].value).');
  if (email.length > 255 || !EMAIL.test(email)) throw scimErrors.invalidValue(`emails: "${email}" is not an e-mail address.`);
  const role = chosen(resource.roles)?.value as string | undefined;
  return {
    userName,
    firstName: requiredText(name.givenName, 'name.givenName'),
    lastName: requiredText(name.familyName, 'name.familyName'),
    email,
    active: typeof resource.active === 'boolean' ? resource.active : undefined,
    // An empty password is none (a client's null comes through the body schema as "").
    password: typeof resource.password === 'string' && resource.password !== '' ? resource.password : undefined,
    role: role === undefined ? undefined : roleFrom(role),
  };
}

function resourceOf(body: unknown): ScimObject {
  if (!isObject(body)) throw scimErrors.invalidSyntax('The body must be a SCIM User resource (a JSON object).');
  return normalizeAttributes(body, USER_ATTRIBUTES);
}

const notFound = (id: string) => scimErrors.notFound(`User ${id} not found.`);

/** A human, not deleted user of the caller's organization; others (and bots) are not SCIM resources. */
export async function getScimUser(deps: AppDeps, caller: Caller, id: string): Promise<UserRow> {
  const user = await findScimUser(deps.database.db, caller.organizationId, id);
  if (!user) throw notFound(id);
  return user;
}

// The rules of users.service.ts's createUser, which needs a password: SCIM users may have none.
async function assertSeatAvailable(db: Kysely<DB>, organizationId: string): Promise<void> {
  const limit = (await findOrganizationById(db, organizationId))?.seatLimit;
  if (limit === null || limit === undefined) return;
  if ((await countSeats(db, organizationId)) >= limit) {
    throw errors.SeatLimitReached({ seats: limit });
  }
}

const takenMessage = (userName: string) => `The userName "${userName}" is taken.`;

export async function createScimUser(deps: AppDeps, caller: Caller, body: unknown): Promise<UserRow> {
  const db = deps.database.db;
  const fields = userFields(resourceOf(body));
  const role = fields.role ?? 'LINGUIST';
  if (role === 'GUEST')
    throw scimErrors.invalidValue(
      'roles: a GUEST user needs a client, which SCIM cannot name; create guests through the TMS API (POST /api2/v3/users).',
    );
  if (!assignableRoles(caller).includes(role)) throw errors.AccessDenied({ reason: `You may not create users with the role ${role}.` });
  let roleSettings: string;
  try {
    roleSettings = JSON.stringify(roleSettingsFromInput(role, {}));
  } catch (error) {
    if (error instanceof RoleSettingsError) throw scimErrors.invalidValue(`roles: ${error.message}.`);
    throw error;
  }
  if (fields.password !== undefined) checkPassword(fields.password, fields.userName);
  const passwordHash = fields.password === undefined ? null : await hashPassword(fields.password);
  const active = fields.active ?? true;
  try {
    return await db.transaction().execute(async (trx) => {
      if (await findUserByUserName(trx, fields.userName)) throw scimErrors.uniqueness(takenMessage(fields.userName));
      if (active) await assertSeatAvailable(trx, caller.organizationId);
      return insertUser(trx, {
        organizationId: caller.organizationId,
        userName: fields.userName,
        email: fields.email,
        firstName: fields.firstName,
        lastName: fields.lastName,
        role,
        passwordHash,
        active,
        roleSettings,
        createdById: caller.userId,
      });
    });
  } catch (error) {
    // Two creations of one name at once: the second meets the unique index.
    if (isUniqueViolation(error)) throw scimErrors.uniqueness(takenMessage(fields.userName));
    throw error;
  }
}

/** Applies a replacement resource to the user through the users service's edit rules. */
async function update(deps: AppDeps, caller: Caller, target: UserRow, resource: ScimObject): Promise<UserRow> {
  const fields = userFields(resource);
  if (fields.password !== undefined) checkPassword(fields.password, fields.userName);
  const updated = await editUser(deps, caller, target.uid, {
    userName: fields.userName,
    firstName: fields.firstName,
    lastName: fields.lastName,
    email: fields.email,
    // Left out: unchanged (RFC 7644 §3.5.1 lets a provider treat an omitted attribute as "not asserted").
    role: fields.role ?? (target.role as ScimRole),
    active: fields.active ?? bool(target.active),
    timezone: target.timezone,
    note: target.note,
    receiveNewsletter: bool(target.receiveNewsletter),
  });
  // Not in editUser's transaction: setPassword checks, hashes, and ends the user's sessions.
  if (fields.password !== undefined) await setPassword(deps, caller, target.uid, fields.password);
  return updated;
}

export async function replaceScimUser(deps: AppDeps, caller: Caller, id: string, body: unknown): Promise<UserRow> {
  const target = await getScimUser(deps, caller, id);
  return update(deps, caller, target, resourceOf(body));
}

export async function patchScimUser(deps: AppDeps, caller: Caller, id: string, body: unknown): Promise<UserRow> {
  const operations = parsePatchRequest(body);
  const target = await getScimUser(deps, caller, id);
  return update(deps, caller, target, applyPatch(patchableUser(target), operations, USER_ATTRIBUTES));
}

export async function deleteScimUser(deps: AppDeps, caller: Caller, id: string): Promise<void> {
  const target = await getScimUser(deps, caller, id);
  await deleteUser(deps, caller, target.uid);
}

export async function searchUsers(deps: AppDeps, caller: Caller, query: ScimSearchQuery, locate: Locate) {
  const filter = query.filter !== undefined && query.filter.trim() !== '' ? parseFilter(query.filter) : null;
  const order = query.sortOrder?.trim().toLowerCase();
  if (order !== undefined && order !== 'ascending' && order !== 'descending')
    throw scimErrors.invalidValue('sortOrder must be "ascending" or "descending".');
  const sort = query.sortBy !== undefined && query.sortBy.trim() !== '' ? { by: query.sortBy, descending: order === 'descending' } : null;
  // RFC 7644 §3.4.2.4: a startIndex below 1 counts as 1, a negative count as 0.
  const startIndex = Math.max(1, query.startIndex ?? 1);
  const count = Math.min(MAX_RESULTS, Math.max(0, query.count ?? DEFAULT_COUNT));
  const projection = { attributes: parseAttributeList(query.attributes), excludedAttributes: parseAttributeList(query.excludedAttributes) };
  const { rows, total } = await searchScimUsers(deps.database.db, caller.organizationId, {
    filter,
    sort,
    offset: startIndex - 1,
    limit: count,
  });
  return {
    schemas: [LIST_RESPONSE_URN],
    totalResults: total,
    startIndex,
    itemsPerPage: rows.length,
    // projectResource keeps `schemas` and `id` and leaves out only what the client asked to.
    Resources: rows.map((row) => projectResource(toScimUser(row, locate(row.uid)), projection) as ScimUserPartial),
  };
}
