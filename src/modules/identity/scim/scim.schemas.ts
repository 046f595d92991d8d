import { Type } from 'typebox';
import type { Static } from 'typebox';

/**
 * Wire shapes of the SCIM operations. Responses follow the spec's definitions (ScimUserCoreDto,
 * ScimMeta, ServiceProviderConfigDto, ScimResourceTypeSchema, ScimResourceSchema, Attribute),
 * plus what RFC 7643 requires of every resource (`schemas`, `meta.resourceType`) and the
 * `lastModified` and `roles` OpenTMS adds. Request bodies are declared loosely on purpose:
 * identity providers send booleans as strings and many attributes OpenTMS ignores, so the
 * service normalises and checks them itself and answers SCIM errors (src/domain/scim).
 */

const ScimMeta = Type.Object(
  {
    resourceType: Type.String(),
    created: Type.String({ format: 'date-time' }),
    lastModified: Type.String({ format: 'date-time', description: 'OpenTMS records no modification time: the creation time.' }),
    location: Type.String(),
  },
  { title: 'ScimMeta' },
);

const RoleValue = Type.Object({ value: Type.String(), primary: Type.Optional(Type.Boolean()) });

/** Spec definition `ScimUserCoreDto`, as OpenTMS returns it. */
export const ScimUser = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    id: Type.String({ description: 'The user uid.' }),
    userName: Type.String(),
    name: Type.Object({ givenName: Type.String(), familyName: Type.String() }, { title: 'Name' }),
    emails: Type.Array(Type.Object({ value: Type.String(), type: Type.String(), primary: Type.Boolean() }, { title: 'Email' })),
    active: Type.Boolean(),
    roles: Type.Array(RoleValue, { description: 'The OpenTMS role (OpenTMS extension of the spec, a core SCIM attribute).' }),
    meta: ScimMeta,
  },
  { title: 'ScimUserCoreDto' },
);
export type ScimUser = Static<typeof ScimUser>;

/** A user in a list, where `attributes` / `excludedAttributes` may leave any field out. */
const ScimUserPartial = Type.Object({
  schemas: Type.Array(Type.String()),
  id: Type.String(),
  userName: Type.Optional(Type.String()),
  name: Type.Optional(Type.Object({ givenName: Type.Optional(Type.String()), familyName: Type.Optional(Type.String()) })),
  emails: Type.Optional(
    Type.Array(
      Type.Object({ value: Type.Optional(Type.String()), type: Type.Optional(Type.String()), primary: Type.Optional(Type.Boolean()) }),
    ),
  ),
  active: Type.Optional(Type.Boolean()),
  roles: Type.Optional(Type.Array(Type.Object({ value: Type.Optional(Type.String()), primary: Type.Optional(Type.Boolean()) }))),
  meta: Type.Optional(
    Type.Object({
      resourceType: Type.Optional(Type.String()),
      created: Type.Optional(Type.String()),
      lastModified: Type.Optional(Type.String()),
      location: Type.Optional(Type.String()),
    }),
  ),
});

export type ScimUserPartial = Static<typeof ScimUserPartial>;

/** RFC 7644 §3.4.2 ListResponse. */
export const ScimUserList = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    totalResults: Type.Integer(),
    startIndex: Type.Integer(),
    itemsPerPage: Type.Integer(),
    Resources: Type.Array(ScimUserPartial),
  },
  { title: 'ScimListResponse' },
);

/** Spec definition `ScimUserCoreDto` as a request: create (POST) and replace (PUT). */
export const ScimUserBody = Type.Object(
  {
    schemas: Type.Optional(Type.Array(Type.String())),
    userName: Type.Optional(
      Type.String({ description: 'Required. 1 to 255 characters without white space; unique across the installation.' }),
    ),
    name: Type.Optional(
      Type.Object(
        {
          givenName: Type.Optional(Type.String({ description: 'Required.' })),
          familyName: Type.Optional(Type.String({ description: 'Required.' })),
        },
        { additionalProperties: true },
      ),
    ),
    emails: Type.Optional(
      Type.Array(
        Type.Object(
          {
            value: Type.Optional(Type.String()),
            type: Type.Optional(Type.String()),
            primary: Type.Optional(Type.Unknown({ description: 'true or false' })),
          },
          { additionalProperties: true },
        ),
        { description: 'Required: at least one. OpenTMS keeps the primary address, or else the first.' },
      ),
    ),
    active: Type.Optional(
      Type.Unknown({ description: 'true or false ("True"/"False" accepted). Default on create: true; left out of a replace: unchanged.' }),
    ),
    password: Type.Optional(
      Type.String({ description: '8 to 255 characters, not the user name. Without one a new user has no password.' }),
    ),
    roles: Type.Optional(
      Type.Array(
        Type.Object({ value: Type.Optional(Type.String()), primary: Type.Optional(Type.Unknown()) }, { additionalProperties: true }),
        {
          description:
            'The OpenTMS role (ADMIN, PROJECT_MANAGER, LINGUIST, SUBMITTER; GUEST only for existing guests): the primary value, or else the first. New users without one are LINGUISTs; left out of a replace: unchanged.',
        },
      ),
    ),
  },
  { additionalProperties: true, title: 'ScimUserCoreDto' },
);

/** RFC 7644 §3.5.2 PatchOp message. */
export const ScimPatchBody = Type.Object(
  {
    schemas: Type.Optional(Type.Array(Type.String())),
    Operations: Type.Optional(
      Type.Array(
        Type.Object(
          {
            op: Type.Optional(Type.String({ description: 'add, remove or replace, in any case.' })),
            path: Type.Optional(
              Type.String({
                description: 'Such as active, name.givenName, emails[type eq "work"].value; without it, value is an object of attributes.',
              }),
            ),
            value: Type.Optional(Type.Unknown()),
          },
          { additionalProperties: true },
        ),
      ),
    ),
  },
  { additionalProperties: true, title: 'ScimPatchOperations' },
);

export const ScimSearchQuery = Type.Object({
  filter: Type.Optional(
    Type.String({ description: 'A SCIM filter (RFC 7644 §3.4.2.2), such as userName eq "jdoe" or emails.value co "@example.com".' }),
  ),
  attributes: Type.Optional(Type.String({ description: 'Comma-separated attributes to return (id and schemas always come).' })),
  excludedAttributes: Type.Optional(Type.String({ description: 'Comma-separated attributes to leave out.' })),
  sortBy: Type.Optional(
    Type.String({
      description:
        'An attribute to sort by: id, userName, name.givenName, name.familyName, emails.value, active, meta.created, roles.value.',
    }),
  ),
  sortOrder: Type.Optional(Type.String({ description: 'ascending (default) or descending.' })),
  startIndex: Type.Optional(
    Type.Integer({ maximum: 2 ** 31 - 1, description: 'The 1-based index of the first result. Default 1; less than 1 counts as 1.' }),
  ),
  count: Type.Optional(
    Type.Integer({
      maximum: 2 ** 31 - 1,
      description: 'How many results at most: 0 to 100, default 50; more counts as 100, less than 0 as 0.',
    }),
  ),
});
export type ScimSearchQuery = Static<typeof ScimSearchQuery>;

export const UserIdParams = Type.Object({
  userId: Type.String({ minLength: 1, maxLength: 255, description: 'The SCIM id (the user uid).' }),
});
export const SchemaUrnParams = Type.Object({ schemaUrn: Type.String({ minLength: 1, maxLength: 255 }) });

const Supported = Type.Object({ supported: Type.Boolean() });

/** Spec definition `ServiceProviderConfigDto` with the RFC 7643 §5 limits (`maxResults`, …). */
export const ServiceProviderConfig = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    patch: Supported,
    bulk: Type.Object({ supported: Type.Boolean(), maxOperations: Type.Integer(), maxPayloadSize: Type.Integer() }),
    filter: Type.Object({ supported: Type.Boolean(), maxResults: Type.Integer() }),
    changePassword: Supported,
    sort: Supported,
    etag: Supported,
    xmlDataFormat: Supported,
    authenticationSchemes: Type.Array(
      Type.Object(
        { type: Type.String(), name: Type.String(), description: Type.String(), specUrl: Type.String(), primary: Type.Boolean() },
        { title: 'AuthSchema' },
      ),
    ),
  },
  { title: 'ServiceProviderConfigDto' },
);

/** Spec definition `ScimResourceTypeSchema`. */
export const ResourceType = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    id: Type.String(),
    name: Type.String(),
    endpoint: Type.String(),
    description: Type.String(),
    schema: Type.String(),
    schemaExtensions: Type.Array(Type.Object({ schema: Type.String(), required: Type.Boolean() })),
  },
  { title: 'ScimResourceTypeSchema' },
);

const attributeFields = {
  name: Type.String(),
  type: Type.String({
    description: 'STRING, BOOLEAN, DECIMAL, INTEGER, DATE_TIME, BINARY, REFERENCE or COMPLEX (the spec writes these in capitals).',
  }),
  multiValued: Type.Boolean(),
  description: Type.String(),
  required: Type.Boolean(),
  caseExact: Type.Boolean(),
  mutability: Type.String({ description: 'READ_ONLY, READ_WRITE, IMMUTABLE or WRITE_ONLY' }),
  returned: Type.String({ description: 'ALWAYS, NEVER, DEFAULT or REQUEST' }),
  uniqueness: Type.String({ description: 'NONE, SERVER or GLOBAL' }),
};

/** Spec definition `Attribute` (two levels: OpenTMS's complex attributes have simple sub-attributes). */
const Attribute = Type.Object(
  { ...attributeFields, subAttributes: Type.Optional(Type.Array(Type.Object(attributeFields, { title: 'Attribute' }))) },
  { title: 'Attribute' },
);

/** Spec definition `ScimResourceSchema`. */
export const ResourceSchema = Type.Object(
  { id: Type.String(), name: Type.String(), description: Type.String(), attributes: Type.Array(Attribute) },
  { title: 'ScimResourceSchema' },
);
