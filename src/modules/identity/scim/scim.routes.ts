import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { scimErrors } from '../../../errors/index.js';
import { PUBLIC, callerOf } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { installScimProtocol } from './scim-protocol.js';
import {
  ResourceSchema,
  ResourceType,
  SchemaUrnParams,
  ScimPatchBody,
  ScimSearchQuery,
  ScimUser,
  ScimUserBody,
  ScimUserList,
  ServiceProviderConfig,
  UserIdParams,
} from './scim.schemas.js';
import { createScimUser, deleteScimUser, getScimUser, patchScimUser, replaceScimUser, searchUsers } from './scim.service.js';
import type { Locate } from './scim.service.js';
import { resourceSchemas, resourceTypes, serviceProviderConfig, toScimUser } from './scim-views.js';

/**
 * SCIM is the provisioning channel: identity providers (Microsoft Entra, Okta, …) create,
 * change, deactivate and delete users through it. Only ADMIN users may, as SCIM can give any
 * role. `humansOnly: false` states that SCIM, unlike the TMS user operations, is open to bot
 * users on principle, since provisioning integrations run unattended; but the bots of service
 * accounts are PROJECT_MANAGERs (service-accounts.service.ts), so today the ADMIN role keeps them
 * out too, and an integration uses an ADMIN's token (docs/scim.md, "Authentication").
 */
const SCIM_ACCESS: Access = { roles: ['ADMIN'], humansOnly: false };

const tags = ['SCIM'];

/** SCIM 2.0 (RFC 7643, RFC 7644) under `/v1/scim` (routes relative to `/api2`). */
export function scimRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const scimPlugin: FastifyPluginAsyncTypebox = async (app) => {
    installScimProtocol(app);

    const base = (request: FastifyRequest) =>
      `${deps.config.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`}${app.prefix}`;
    const locator = (request: FastifyRequest): Locate => {
      const prefix = base(request);
      return (uid) => `${prefix}/Users/${uid}`;
    };

    app.get(
      '/ServiceProviderConfig',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          operationId: 'getServiceProviderConfigDto',
          summary: "Retrieve the Service Provider's Configuration",
          response: { 200: ServiceProviderConfig },
        },
      },
      async () => serviceProviderConfig(),
    );

    app.get(
      '/ResourceTypes',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          operationId: 'getResourceTypes',
          summary: 'List the types of SCIM Resources available',
          response: { 200: { type: 'array', items: ResourceType } },
        },
      },
      async () => resourceTypes(),
    );

    app.get(
      '/Schemas',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          operationId: 'getSchemas',
          summary: 'Get supported SCIM Schemas',
          response: { 200: { type: 'array', items: ResourceSchema } },
        },
      },
      async () => resourceSchemas(),
    );

    app.get(
      '/Schemas/:schemaUrn',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          operationId: 'getSchemaByUrn',
          summary: 'Get supported SCIM Schema by urn',
          params: SchemaUrnParams,
          response: { 200: ResourceSchema },
        },
      },
      async (request) => {
        const found = resourceSchemas().find((schema) => schema.id.toLowerCase() === request.params.schemaUrn.toLowerCase());
        if (!found)
          throw scimErrors.notFound(
            `No schema ${request.params.schemaUrn}; OpenTMS supports ${resourceSchemas()
              .map((s) => s.id)
              .join(', ')}.`,
          );
        return found;
      },
    );

    app.get(
      '/Users',
      {
        config: { access: SCIM_ACCESS },
        schema: {
          tags,
          operationId: 'searchUsers',
          summary: 'Search users',
          description:
            'Supports SCIM filters (eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, parentheses, emails[…] value filters), `attributes`, `excludedAttributes`, `sortBy`/`sortOrder`, `startIndex` and `count` (default 50, at most 100). Filterable attributes: id, userName, name.givenName, name.familyName, emails.value, emails.type, emails.primary, active, meta.created, meta.lastModified, roles.value.',
          querystring: ScimSearchQuery,
          response: { 200: ScimUserList },
        },
      },
      async (request) => searchUsers(deps, callerOf(request), request.query, locator(request)),
    );

    app.post(
      '/Users',
      {
        config: { access: SCIM_ACCESS, errors: ['uniqueness', 'SeatLimitReached'] },
        schema: {
          tags,
          operationId: 'createUserSCIM',
          summary: 'Create user using SCIM',
          description:
            'Supported schema: `urn:ietf:params:scim:schemas:core:2.0:User`. Required: userName, name.givenName, name.familyName, emails. The role comes from `roles` (default LINGUIST).',
          body: ScimUserBody,
          response: { 201: ScimUser },
        },
      },
      async (request, reply) => {
        const user = await createScimUser(deps, callerOf(request), request.body);
        const location = locator(request)(user.uid);
        return reply.code(201).header('location', location).send(toScimUser(user, location));
      },
    );

    app.get(
      '/Users/:userId',
      {
        config: { access: SCIM_ACCESS },
        schema: { tags, operationId: 'getScimUser', summary: 'Get user', params: UserIdParams, response: { 200: ScimUser } },
      },
      async (request) => {
        const user = await getScimUser(deps, callerOf(request), request.params.userId);
        return toScimUser(user, locator(request)(user.uid));
      },
    );

    app.put(
      '/Users/:userId',
      {
        config: { access: SCIM_ACCESS, errors: ['uniqueness', 'SeatLimitReached', 'LastAdmin', 'BotUserReadOnly'] },
        schema: {
          tags,
          operationId: 'editUser',
          summary: 'Edit user using SCIM',
          description: 'Replaces the user. `active`, `roles` and `password` left out keep their values.',
          params: UserIdParams,
          body: ScimUserBody,
          response: { 200: ScimUser },
        },
      },
      async (request) => {
        const user = await replaceScimUser(deps, callerOf(request), request.params.userId, request.body);
        return toScimUser(user, locator(request)(user.uid));
      },
    );

    app.patch(
      '/Users/:userId',
      {
        config: { access: SCIM_ACCESS, errors: ['uniqueness', 'SeatLimitReached', 'LastAdmin', 'BotUserReadOnly'] },
        schema: {
          tags,
          operationId: 'patchUser',
          summary: 'Patch user using SCIM',
          description:
            'RFC 7644 §3.5.2 add, remove and replace (in any case), with or without a path. `"op": "replace", "value": {"active": false}` deactivates the user.',
          params: UserIdParams,
          body: ScimPatchBody,
          response: { 200: ScimUser },
        },
      },
      async (request) => {
        const user = await patchScimUser(deps, callerOf(request), request.params.userId, request.body);
        return toScimUser(user, locator(request)(user.uid));
      },
    );

    app.delete(
      '/Users/:userId',
      {
        config: { access: SCIM_ACCESS, errors: ['LastAdmin', 'BotUserReadOnly'] },
        schema: {
          tags,
          operationId: 'deleteUser',
          summary: 'Delete user using SCIM',
          description: 'Deletes the user (it can be restored through the TMS API). Answers 204.',
          params: UserIdParams,
        },
      },
      async (request, reply) => {
        await deleteScimUser(deps, callerOf(request), request.params.userId);
        return reply.code(204).send();
      },
    );
  };

  return async (app) => {
    await app.register(scimPlugin, { prefix: '/v1/scim' });
  };
}
