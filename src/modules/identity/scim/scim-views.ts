import { bool } from '../../../db/database.js';
import type { ScimObject } from '../../../domain/scim/resource.js';
import { RESOURCE_TYPE_URN, SERVICE_PROVIDER_CONFIG_URN, USER_RESOURCE_SCHEMA, USER_SCHEMA_URN } from '../../../domain/scim/schema.js';
import type { AttributeDefinition } from '../../../domain/scim/schema.js';
import type { UserRow } from '../users/index.js';
import type { ScimUser } from './scim.schemas.js';

/** The most users one search answers (`count` above it counts as this). */
export const MAX_RESULTS = 100;
/** Users per search answer when the client names no `count` (the spec's default). */
export const DEFAULT_COUNT = 50;

/** A user record as a SCIM User resource. */
export function toScimUser(row: UserRow, location: string): ScimUser {
  return {
    schemas: [USER_SCHEMA_URN],
    id: row.uid,
    userName: row.userName,
    name: { givenName: row.firstName, familyName: row.lastName },
    // OpenTMS keeps one address; identity providers address it as the work address.
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: bool(row.active),
    roles: [{ value: row.role, primary: true }],
    // No modification time is recorded, so lastModified is the creation time.
    meta: { resourceType: 'User', created: row.createdAt, lastModified: row.createdAt, location },
  };
}

/** The writable attributes of a user, the starting point of a PATCH. */
export function patchableUser(row: UserRow): ScimObject {
  const { userName, name, emails, active, roles } = toScimUser(row, '');
  return { userName, name, emails, active, roles };
}

export function serviceProviderConfig() {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_URN],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: true },
    sort: { supported: true },
    etag: { supported: false },
    xmlDataFormat: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description:
          'Authorization: Bearer <token>, with a token of an ADMIN user: an access token of the token service (/idm/oauth/token), a personal API token or a login token.',
        specUrl: 'https://www.rfc-editor.org/rfc/rfc6750',
        primary: true,
      },
    ],
  };
}

export function resourceTypes() {
  return [
    {
      schemas: [RESOURCE_TYPE_URN],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'User Account',
      schema: USER_SCHEMA_URN,
      schemaExtensions: [],
    },
  ];
}

/** readOnly -> READ_ONLY, dateTime -> DATE_TIME: the spec's `Attribute` writes its enums in capitals. */
const capitals = (value: string) => value.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

interface WireAttribute {
  name: string;
  type: string;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: string;
  returned: string;
  uniqueness: string;
  subAttributes?: WireAttribute[];
}

function wireAttribute(attribute: AttributeDefinition): WireAttribute {
  return {
    name: attribute.name,
    type: capitals(attribute.type),
    multiValued: attribute.multiValued,
    description: attribute.description,
    required: attribute.required,
    caseExact: attribute.caseExact,
    mutability: capitals(attribute.mutability),
    returned: capitals(attribute.returned),
    uniqueness: capitals(attribute.uniqueness),
    ...(attribute.subAttributes ? { subAttributes: attribute.subAttributes.map(wireAttribute) } : {}),
  };
}

export function resourceSchemas() {
  return [
    {
      id: USER_RESOURCE_SCHEMA.id,
      name: USER_RESOURCE_SCHEMA.name,
      description: USER_RESOURCE_SCHEMA.description,
      attributes: USER_RESOURCE_SCHEMA.attributes.map(wireAttribute),
    },
  ];
}
