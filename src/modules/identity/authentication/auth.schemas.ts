import { Type } from 'typebox';
import { UserReference } from '../users/index.js';

const UserName = Type.String({ minLength: 1, maxLength: 255 });
const Secret = Type.String({ minLength: 1, maxLength: 1024 });

/** Spec definition `LoginDto` (v1). */
export const LoginBody = Type.Object({
  userName: UserName,
  password: Secret,
  code: Type.Optional(Type.String({ maxLength: 64, description: 'Required only for 2-factor authentication' })),
});

/** Spec definition `LoginV3Dto`. */
export const LoginV3Body = Type.Object({
  ...LoginBody.properties,
  userUid: Type.Optional(Type.String({ maxLength: 64, description: 'When not filled, default user of identity will be logged in' })),
});

/** Spec definitions `LoginToSessionDto` / `LoginToSessionV3Dto`. */
export const LoginToSessionBody = Type.Object({
  userName: UserName,
  password: Secret,
  rememberMe: Type.Optional(Type.Boolean()),
  userUid: Type.Optional(Type.String({ maxLength: 64 })),
  twoFactorCode: Type.Optional(Type.Integer()),
  captchaCode: Type.Optional(Type.String({ maxLength: 1024 })),
});

/** Spec definitions `LoginOtherDto` / `LoginOtherV3Dto`. */
export const LoginOtherBody = Type.Object({
  userName: UserName,
  userUid: Type.Optional(Type.String({ maxLength: 64 })),
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

/** Spec definitions `LoginToSessionResponseDto` / `LoginToSessionResponseV3Dto`. */
export const LoginToSessionResponse = Type.Object(
  { user: UserReference, cookie: Type.String(), csrfToken: Type.String() },
  { title: 'LoginToSessionResponseDto' },
);

const OrganizationReference = Type.Object(
  { id: Type.String(), uid: Type.String(), name: Type.String() },
  { title: 'OrganizationReference' },
);

/** Spec definition `LoginUserDto`. */
export const WhoAmIResponse = Type.Object(
  {
    user: UserReference,
    organization: OrganizationReference,
    csrfToken: Type.Union([Type.String(), Type.Null()]),
    edition: Type.Object({ id: Type.String(), name: Type.String(), title: Type.String() }),
    features: Type.Object({}, { additionalProperties: Type.Boolean() }),
  },
  { title: 'LoginUserDto' },
);

export const LogoutQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 2048 })) });
