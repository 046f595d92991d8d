import { Type } from 'typebox';
import type { Static } from 'typebox';
import { recordUid } from '../../../http/schema-helpers.js';

/** OpenTMS extension: organizations, for the installation's SYS_ADMIN. */

const Settings = {
  ssoOnly: Type.Optional(Type.Boolean({ description: 'Authentication is restricted to SSO: session logins are refused.' })),
  apiTokenSsoEnforced: Type.Optional(Type.Boolean({ description: 'With ssoOnly, password logins (v1/v3 login) are refused too.' })),
  seatLimit: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()], {
      description: 'Most active human users; bots do not count.',
    }),
  ),
  rateLimitPerMinute: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 10_000_000 }), Type.Null()])),
  businessUnitsEnabled: Type.Optional(
    Type.Boolean({ description: 'Business units exist only when enabled (default true); when off, their operations answer 403.' }),
  ),
};

export const CreateOrganizationBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  admin: Type.Object({
    userName: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\s]+$' }),
    password: Type.String({ minLength: 8, maxLength: 255 }),
    email: Type.String({ minLength: 3, maxLength: 255, pattern: '^[^\\s@]+@[^\\s@]+$' }),
    firstName: Type.String({ minLength: 1, maxLength: 255 }),
    lastName: Type.String({ minLength: 1, maxLength: 255 }),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  }),
  ...Settings,
});

export const EditOrganizationBody = Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), ...Settings });

export const Organization = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    ssoOnly: Type.Boolean(),
    apiTokenSsoEnforced: Type.Boolean(),
    seatLimit: Type.Union([Type.Integer(), Type.Null()]),
    usedSeats: Type.Integer(),
    rateLimitPerMinute: Type.Union([Type.Integer(), Type.Null()]),
    businessUnitsEnabled: Type.Boolean(),
  },
  { title: 'OrganizationDto' },
);

export const OrganizationParams = Type.Object({ organizationUid: recordUid('organizations') });

export type CreateOrganizationBody = Static<typeof CreateOrganizationBody>;
export type EditOrganizationBody = Static<typeof EditOrganizationBody>;
