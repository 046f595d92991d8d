import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PagingQuery, PageOf } from '../../http/paging.js';
import { USER_ROLES } from '../../db/schema.js';
import { bool } from '../../db/database.js';
import type { UserRow } from './users.repository.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const Role = Type.Enum([...USER_ROLES]);

/** Spec definition `UserReference`. */
export const UserReference = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    userName: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    role: Role,
  },
  { title: 'UserReference' },
);
export type UserReference = Static<typeof UserReference>;

/** Spec definition `UserDto` (v1 list). */
export const UserDto = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    userName: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    dateDeleted: Nullable(Type.String({ format: 'date-time' })),
    createdBy: Nullable(UserReference),
    role: Role,
    timezone: Type.String(),
    note: Nullable(Type.String()),
    active: Type.Boolean(),
  },
  { title: 'UserDto' },
);
export type UserDto = Static<typeof UserDto>;

export const UserListQuery = Type.Object({
  firstName: Type.Optional(Type.String({ maxLength: 255 })),
  lastName: Type.Optional(Type.String({ maxLength: 255 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  userName: Type.Optional(Type.String({ maxLength: 255 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
  nameOrEmail: Type.Optional(Type.String({ maxLength: 255 })),
  role: Type.Optional(Type.Array(Role)),
  includeDeleted: Type.Boolean({ default: false }),
  sort: Type.Optional(
    Type.Array(Type.Enum(['ID', 'LAST_NAME', 'FIRST_NAME', 'USER_NAME', 'DATE_CREATED', 'EMAIL', 'ROLE'])),
  ),
  order: Type.Optional(Type.Array(Type.Enum(['ASC', 'DESC']))),
  ...PagingQuery,
});

export const UserPage = PageOf(UserDto, 'PageDtoUserDto');

export function toUserReference(row: UserRow): UserReference {
  return {
    id: String(row.id),
    uid: row.uid,
    userName: row.userName,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    role: row.role,
  };
}

export function toUserDto(row: UserRow, createdBy: UserRow | undefined): UserDto {
  return {
    ...toUserReference(row),
    dateCreated: row.createdAt,
    dateDeleted: row.deletedAt,
    createdBy: createdBy ? toUserReference(createdBy) : null,
    timezone: row.timezone,
    note: row.note,
    active: bool(row.active),
  };
}
