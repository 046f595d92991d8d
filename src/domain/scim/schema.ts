/**
 * The SCIM User resource as OpenTMS supports it (RFC 7643 §4.1, reduced to what a user record
 * holds): the attribute definitions drive input normalisation, the PATCH applier, filters on
 * sub-attributes and the `/Schemas` discovery document. Pure data.
 */
export const USER_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_USER_SCHEMA_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_RESPONSE_URN = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SERVICE_PROVIDER_CONFIG_URN = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
export const RESOURCE_TYPE_URN = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';

export type AttributeType = 'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'binary' | 'reference' | 'complex';
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
export type Returned = 'always' | 'never' | 'default' | 'request';
export type Uniqueness = 'none' | 'server' | 'global';

export interface AttributeDefinition {
  readonly name: string;
  readonly type: AttributeType;
  readonly multiValued: boolean;
  readonly required: boolean;
  readonly caseExact: boolean;
  readonly mutability: Mutability;
  readonly returned: Returned;
  readonly uniqueness: Uniqueness;
  readonly description: string;
  readonly subAttributes?: readonly AttributeDefinition[];
}

type Options = Partial<Omit<AttributeDefinition, 'name' | 'type'>> & { description: string };

function attribute(name: string, type: AttributeType, options: Options): AttributeDefinition {
  return {
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
    name,
    type,
  };
}

/**
 * Role names a SCIM `roles` value may carry: the roles the API can give a user. GUEST works only
 * for users that are guests already, since a guest needs a client and SCIM cannot name one.
 */
export const SCIM_ROLES = ['ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] as const;
export type ScimRole = (typeof SCIM_ROLES)[number];

export const USER_ATTRIBUTES: readonly AttributeDefinition[] = [
  attribute('userName', 'string', {
    required: true,
    uniqueness: 'server',
    description:
      'The name the user logs in with. Unique across the installation, compared without regard to case; no white space, at most 255 characters.',
  }),
  attribute('name', 'complex', {
    required: true,
    description: "The user's name.",
    subAttributes: [
      attribute('givenName', 'string', { required: true, description: 'First name, 1 to 255 characters.' }),
      attribute('familyName', 'string', { required: true, description: 'Last name, 1 to 255 characters.' }),
    ],
  }),
  attribute('emails', 'complex', {
    multiValued: true,
    required: true,
    description: 'E-mail addresses. OpenTMS keeps one: the primary one, or else the first; it is returned as the primary "work" address.',
    subAttributes: [
      attribute('value', 'string', { required: true, description: 'The e-mail address.' }),
      attribute('type', 'string', { description: 'A label: "work", "home" or "other".' }),
      attribute('primary', 'boolean', { description: 'Whether this is the address OpenTMS keeps.' }),
    ],
  }),
  attribute('active', 'boolean', {
    description: 'Whether the user may log in and holds a seat. Default: true. Deactivating a user ends its sessions and tokens.',
  }),
  attribute('password', 'string', {
    mutability: 'writeOnly',
    returned: 'never',
    caseExact: true,
    description: 'The password, 8 to 255 characters, not the user name. Without one the user cannot log in with a password.',
  }),
  attribute('roles', 'complex', {
    multiValued: true,
    description:
      'The OpenTMS role: ADMIN, PROJECT_MANAGER, LINGUIST or SUBMITTER (names such as "Project Manager" work too), or GUEST for users that are guests already. The primary value, or else the first, counts. New users without one are LINGUISTs; leaving it out of a replace or patch keeps the role.',
    subAttributes: [
      attribute('value', 'string', { description: 'The role name.' }),
      attribute('display', 'string', { description: 'Ignored.' }),
      attribute('type', 'string', { description: 'Ignored.' }),
      attribute('primary', 'boolean', { description: 'Whether this is the role that counts.' }),
    ],
  }),
];

/** Attributes every resource has (RFC 7643 §3.1); read-only, not listed in the schema document. */
export const COMMON_ATTRIBUTES: readonly AttributeDefinition[] = [
  attribute('id', 'string', {
    mutability: 'readOnly',
    returned: 'always',
    caseExact: true,
    uniqueness: 'server',
    description: 'The user uid.',
  }),
  attribute('meta', 'complex', {
    mutability: 'readOnly',
    description: 'Resource metadata.',
    subAttributes: [
      attribute('resourceType', 'string', { mutability: 'readOnly', caseExact: true, description: 'Always "User".' }),
      attribute('created', 'dateTime', { mutability: 'readOnly', description: 'When the user was created.' }),
      attribute('lastModified', 'dateTime', {
        mutability: 'readOnly',
        description: 'OpenTMS records no modification time: the creation time.',
      }),
      attribute('location', 'reference', { mutability: 'readOnly', caseExact: true, description: 'The URL of the resource.' }),
    ],
  }),
];

export const USER_RESOURCE_SCHEMA = {
  id: USER_SCHEMA_URN,
  name: 'User',
  description: 'User Account',
  attributes: USER_ATTRIBUTES,
} as const;

/** The definition named `name` (attribute names are case-insensitive, RFC 7643 §2.1). */
export function findAttribute(attributes: readonly AttributeDefinition[] | undefined, name: string): AttributeDefinition | undefined {
  const wanted = name.toLowerCase();
  return attributes?.find((a) => a.name.toLowerCase() === wanted);
}

export function isCoreUserSchema(urn: string): boolean {
  return urn.toLowerCase() === USER_SCHEMA_URN.toLowerCase();
}
