import { Type } from 'typebox';
import type { Static, TSchema } from 'typebox';
import { PagingQuery, PageOf, pagingQueryUpTo } from '../../../http/paging.js';
import { ROLE_SHAPES } from '../../../domain/users/role-settings.js';
import type { ReferenceKind } from '../../../domain/users/role-settings.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';

/** Roles as the user records carry them (SYS_ADMIN exists only in the system organization). */
export const Role = Type.Enum(['SYS_ADMIN', 'ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER']);
/** Roles a user can be created with or changed to through the API. */
export const AssignableRole = Type.Enum(['ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER']);

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

/** Spec definition `UserDto` (v1 list, undelete). */
/**
 * Whether the user is the bot user of a service account (description, "Bot users": "shown with a
 * bot badge"). The published DTOs have no field for it; OpenTMS adds `bot`, the name a Java bean's
 * `isBot()` is serialized under.
 */
const BotFlag = Type.Boolean({ description: 'True for the bot user of a service account (an OpenTMS extension).' });

export const UserDto = Type.Object(
  {
    ...UserReference.properties,
    dateCreated: Type.String({ format: 'date-time' }),
    dateDeleted: Nullable(Type.String({ format: 'date-time' })),
    createdBy: Nullable(UserReference),
    timezone: Type.String(),
    note: Nullable(Type.String()),
    active: Type.Boolean(),
    bot: BotFlag,
  },
  { title: 'UserDto' },
);
export type UserDto = Static<typeof UserDto>;

// ---- role-specific fields, generated from the domain's role shapes -------------------------

const referenceOut = (kind: ReferenceKind) =>
  kind === 'automationWidget'
    ? Type.Object({ id: Type.String() })
    : Type.Object({ uid: Type.String(), id: Type.Optional(Type.String()), name: Type.Optional(Type.String()) });
const referenceIn = (kind: ReferenceKind) =>
  kind === 'automationWidget'
    ? Type.Object({ id: Type.Union([Type.String({ maxLength: 64 }), Type.Integer()]) })
    : Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });

function roleSpecificFields(direction: 'in' | 'out'): Record<string, TSchema> {
  const fields: Record<string, TSchema> = {};
  for (const shape of Object.values(ROLE_SHAPES)) {
    for (const right of Object.keys(shape.rights)) fields[right] = Type.Optional(Type.Boolean());
    for (const field of shape.locales) fields[field] = Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 1000 }));
    for (const [field, kind] of Object.entries(shape.referenceLists)) {
      fields[field] = Type.Optional(Type.Array(direction === 'in' ? referenceIn(kind) : referenceOut(kind), { maxItems: 1000 }));
    }
    for (const [field, kind] of Object.entries(shape.references)) {
      fields[field] = Type.Optional(Nullable(direction === 'in' ? referenceIn(kind) : referenceOut(kind)));
    }
    for (const field of Object.keys(shape.strings)) fields[field] = Type.Optional(Type.String({ maxLength: 64 }));
  }
  return fields;
}

/**
 * Spec definition `UserDetailsDtoV3` with the fields of its role-specific forms
 * (ADMIN_RESPONSE, PROJECT_MANAGER_RESPONSE, LINGUIST_RESPONSE, GUEST_RESPONSE, SUBMITTER_RESPONSE);
 * a user carries only the fields of its role.
 */
export const UserDetailsV3 = Type.Object(
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
    assignableRoles: Type.Array(Type.String()),
    timezone: Type.String(),
    note: Nullable(Type.String()),
    receiveNewsletter: Type.Boolean(),
    active: Type.Boolean(),
    pendingEmailChange: Type.Boolean(),
    bot: BotFlag,
    ...roleSpecificFields('out'),
  },
  { title: 'UserDetailsDtoV3' },
);
export type UserDetailsV3 = Static<typeof UserDetailsV3>;

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Email = Type.String({ minLength: 3, maxLength: 255, pattern: '^[^\\s@]+@[^\\s@]+$' });
const UserName = Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\s]+$' });
export const Password = Type.String({ minLength: 8, maxLength: 255 });

/** Spec definitions `AbstractUserEditDto` and its role forms (ADMIN_EDIT, …). */
export const UserEditBody = Type.Object({
  userName: UserName,
  firstName: Name,
  lastName: Name,
  email: Email,
  role: AssignableRole,
  timezone: Type.String({ minLength: 1, maxLength: 255 }),
  receiveNewsletter: Type.Optional(Type.Boolean()),
  note: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
  active: Type.Optional(Type.Boolean()),
  ...roleSpecificFields('in'),
});
export type UserEditBody = Static<typeof UserEditBody>;

/** Spec definitions `AbstractUserCreateDto` and its role forms (ADMIN, PROJECT_MANAGER, …): the edit fields and a password. */
export const UserCreateBody = Type.Object({ ...UserEditBody.properties, password: Password });
export type UserCreateBody = Static<typeof UserCreateBody>;

/** Spec definition `UserPasswordEditDto`. */
export const PasswordBody = Type.Object({ password: Password });

export const UserUidParams = Type.Object({ userUid: recordUid('users') });

export const UserListQuery = Type.Object({
  firstName: Type.Optional(Type.String({ maxLength: 255 })),
  lastName: Type.Optional(Type.String({ maxLength: 255 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  userName: Type.Optional(Type.String({ maxLength: 255 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
  nameOrEmail: Type.Optional(Type.String({ maxLength: 255 })),
  role: Type.Optional(Type.Array(AssignableRole)),
  includeDeleted: Type.Boolean({ default: false }),
  sort: Type.Optional(Type.Array(Type.Enum(['ID', 'LAST_NAME', 'FIRST_NAME', 'USER_NAME', 'DATE_CREATED', 'EMAIL', 'ROLE']))),
  order: Type.Optional(Type.Array(Type.Enum(['ASC', 'DESC']))),
  ...PagingQuery,
});

export const UserPage = PageOf(UserDto, 'PageDtoUserDto');

export const LastLoginsQuery = Type.Object({
  userName: Type.Optional(Type.String({ maxLength: 255 })),
  role: Type.Optional(Type.Array(AssignableRole)),
  sort: Type.Optional(Type.Array(Type.Enum(['ID', 'LAST_LOGIN_DATE']))),
  order: Type.Optional(Type.Array(Type.Enum(['ASC', 'DESC']))),
  // The published operation pages by up to 100 (default 100), more than the usual 50.
  ...pagingQueryUpTo(100),
});

/** Spec definitions `LastLoginDto` and its page. */
export const LastLoginPage = PageOf(
  Type.Object({ user: UserReference, lastLoginDate: Nullable(Type.String({ format: 'date-time' })) }, { title: 'LastLoginDto' }),
  'PageDtoLastLoginDto',
);

/** Spec definition `UserStatisticsListDto`. */
export const LoginStatistics = Type.Object(
  {
    userStatistics: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date-time' }),
        ipAddress: Nullable(Type.String()),
        ipCountry: Nullable(Type.String()),
        userAgent: Nullable(Type.String()),
      }),
    ),
  },
  { title: 'UserStatisticsListDto' },
);
