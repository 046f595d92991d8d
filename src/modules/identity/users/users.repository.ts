import type { Kysely, Selectable } from 'kysely';
import type { DB, UserRole, UsersTable } from '../../../db/schema.js';
import { newUid, nowIso } from '../../../db/ids.js';
import { num } from '../../../db/database.js';
import { containsText } from '../../../db/text-match.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  organizationId: string;
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  passwordHash: string | null;
  timezone?: string;
  note?: string | null;
  createdById?: string | null;
  active?: boolean;
  receiveNewsletter?: boolean;
  roleSettings?: string;
  guestClientId?: string | null;
  isBot?: boolean;
}

export async function insertUser(db: Kysely<DB>, input: NewUser): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      uid: newUid(),
      organizationId: input.organizationId,
      userName: input.userName,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      passwordHash: input.passwordHash,
      timezone: input.timezone ?? 'Europe/London',
      note: input.note ?? null,
      active: input.active ?? true,
      createdAt: nowIso(),
      createdById: input.createdById ?? null,
      deletedAt: null,
      receiveNewsletter: input.receiveNewsletter ?? true,
      roleSettings: input.roleSettings ?? '{}',
      guestClientId: input.guestClientId ?? null,
      isBot: input.isBot ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** User names are unique across the installation and compared without regard to case. */
export function findUserByUserName(db: Kysely<DB>, userName: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['userName']), '=', userName.toLowerCase()))
    .executeTakeFirst();
}

export function findUserByUid(db: Kysely<DB>, organizationId: string, uid: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export type UserChanges = Partial<
  Pick<
    UserRow,
    | 'userName'
    | 'email'
    | 'firstName'
    | 'lastName'
    | 'role'
    | 'passwordHash'
    | 'timezone'
    | 'note'
    | 'active'
    | 'deletedAt'
    | 'receiveNewsletter'
    | 'roleSettings'
    | 'guestClientId'
    | 'lastLoginAt'
    | 'sessionsInvalidatedAt'
  >
>;

export async function updateUser(db: Kysely<DB>, organizationId: string, id: string, changes: UserChanges): Promise<UserRow> {
  return db
    .updateTable('users')
    .set(changes)
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Human users that hold a seat: active, not deleted, not bots. */
export async function countSeats(db: Kysely<DB>, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organizationId', '=', organizationId)
    .where('deletedAt', 'is', null)
    .where('active', '=', true)
    .where('isBot', '=', false)
    .executeTakeFirstOrThrow();
  return num(row.n as string | number);
}

/** Other active ADMIN users besides `exceptId`: an organization must keep at least one. */
export async function countOtherAdmins(db: Kysely<DB>, organizationId: string, exceptId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organizationId', '=', organizationId)
    .where('role', '=', 'ADMIN')
    .where('deletedAt', 'is', null)
    .where('active', '=', true)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return num(row.n as string | number);
}

export function findUserById(db: Kysely<DB>, organizationId: string, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** For credentials that carry only a user id (JWTs); the organization comes from the user. */
export function findUserByIdAnyOrganization(db: Kysely<DB>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUsersByIds(db: Kysely<DB>, organizationId: string, ids: string[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').selectAll().where('organizationId', '=', organizationId).where('id', 'in', ids).execute();
}

export interface UserFilter {
  /** Project managers without userViewOther see only the users they created (and themselves). */
  visibleTo?: { userId: string };
  includeBots?: boolean;
  firstName?: string;
  lastName?: string;
  /** Matches first name, last name or "first last". */
  name?: string;
  userName?: string;
  email?: string;
  nameOrEmail?: string;
  role?: UserRole[];
  includeDeleted?: boolean;
  sort?: 'ID' | 'LAST_NAME' | 'FIRST_NAME' | 'USER_NAME' | 'DATE_CREATED' | 'EMAIL' | 'ROLE';
  order?: 'ASC' | 'DESC';
}

const SORT_COLUMNS = {
  ID: 'id',
  LAST_NAME: 'lastName',
  FIRST_NAME: 'firstName',
  USER_NAME: 'userName',
  DATE_CREATED: 'createdAt',
  EMAIL: 'email',
  ROLE: 'role',
} as const;

export async function listUsers(
  db: Kysely<DB>,
  organizationId: string,
  filter: UserFilter,
  page: PageRequest,
): Promise<{ rows: UserRow[]; total: number }> {
  let query = db.selectFrom('users').where('organizationId', '=', organizationId);
  if (!filter.includeDeleted) query = query.where('deletedAt', 'is', null);
  if (!filter.includeBots) query = query.where('isBot', '=', false);
  if (filter.visibleTo) {
    const { userId } = filter.visibleTo;
    query = query.where((eb) => eb.or([eb('createdById', '=', userId), eb('id', '=', userId)]));
  }
  for (const key of ['firstName', 'lastName', 'userName', 'email'] as const) {
    const value = filter[key];
    if (value) query = query.where(containsText(key, value));
  }
  if (filter.name) {
    const value = filter.name;
    query = query.where((eb) => eb.or([containsText('firstName', value), containsText('lastName', value)]));
  }
  if (filter.nameOrEmail) {
    const value = filter.nameOrEmail;
    query = query.where((eb) => eb.or(['firstName', 'lastName', 'email', 'userName'].map((column) => containsText(column, value))));
  }
  if (filter.role && filter.role.length > 0) query = query.where('role', 'in', filter.role);

  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const column = SORT_COLUMNS[filter.sort ?? 'ID'];
  const direction = filter.order === 'DESC' ? 'desc' : 'asc';
  const rows = await query.selectAll().orderBy(column, direction).orderBy('id', direction).limit(limit).offset(offset).execute();
  return { rows, total: num(total as string | number) };
}
