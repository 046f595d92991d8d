import { Type } from 'typebox';
import { UserReference } from '../users/users.schemas.js';

/** Spec definitions `LoginDto` (v1) and `LoginV3Dto` (v3). */
export const LoginBody = Type.Object({
  userName: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  code: Type.Optional(Type.String({ maxLength: 64, description: 'Required only for 2-factor authentication' })),
});

export const LoginV3Body = Type.Object({
  ...LoginBody.properties,
  userUid: Type.Optional(Type.String({ maxLength: 64, description: 'When not filled, default user of identity will be logged in' })),
});

/** Spec definitions `LoginResponseDto` / `LoginResponseV3Dto`. */
export const LoginResponse = Type.Object(
  {
    user: UserReference,
    token: Type.String(),
    expires: Type.String({ format: 'date-time' }),
    lastInvalidateAllSessionsPerformed: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'LoginResponseDto' },
);

const OrganizationReference = Type.Object({ id: Type.String(), uid: Type.String(), name: Type.String() }, { title: 'OrganizationReference' });

/** Spec definition `LoginUserDto`. */
export const WhoAmIResponse = Type.Object({ user: UserReference, organization: OrganizationReference }, { title: 'LoginUserDto' });
