import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { Access } from '../../../http/access.js';
import { PageOf, PagingQuery, pageWindow, toPage } from '../../../http/paging.js';
import { countSeats, toUserReference, UserReference } from '../users/index.js';
import { listOrganizations } from '../organizations/index.js';
import type { OrganizationRow } from '../organizations/index.js';
import { CreateOrganizationBody, EditOrganizationBody, Organization, OrganizationParams } from './organization-admin.schemas.js';
import { createOrganization, editOrganization, getOrganization } from './organization-admin.service.js';

const SYS_ADMIN_ONLY: Access = { roles: ['SYS_ADMIN'] };

async function view(db: Kysely<DB>, row: OrganizationRow) {
  return {
    id: row.id,
    uid: row.uid,
    name: row.name,
    dateCreated: row.createdAt,
    ssoOnly: bool(row.ssoOnly),
    apiTokenSsoEnforced: bool(row.apiTokenSsoEnforced),
    seatLimit: row.seatLimit,
    usedSeats: await countSeats(db, row.id),
    rateLimitPerMinute: row.rateLimitPerMinute,
    businessUnitsEnabled: bool(row.businessUnitsEnabled),
  };
}

/**
 * Organizations, for the installation's SYS_ADMIN (OpenTMS extension): each organization is
 * created with its first ADMIN; its authentication settings and seat limit are edited here.
 */
export function organizationsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.post(
      '/v1/admin/organizations',
      {
        config: { access: SYS_ADMIN_ONLY, errors: ['UserNameAlreadyExists'] },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'createOrganization',
          summary: 'Create an organization with its first ADMIN (OpenTMS extension, SYS_ADMIN only)',
          body: CreateOrganizationBody,
          response: { 201: Type.Object({ ...Organization.properties, admin: UserReference }) },
        },
      },
      async (request, reply) => {
        const created = await createOrganization(deps, request.body);
        return reply.code(201).send({ ...(await view(db, created.row)), admin: toUserReference(created.user) });
      },
    );

    app.get(
      '/v1/admin/organizations',
      {
        config: { access: SYS_ADMIN_ONLY },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'listOrganizations',
          summary: 'List organizations (OpenTMS extension, SYS_ADMIN only)',
          querystring: Type.Object(PagingQuery),
          response: { 200: PageOf(Organization) },
        },
      },
      async (request) => {
        const { offset, limit } = pageWindow(request.query);
        const { rows, total } = await listOrganizations(db, offset, limit);
        return toPage(await Promise.all(rows.map((row) => view(db, row))), total, request.query);
      },
    );

    app.get(
      '/v1/admin/organizations/:organizationUid',
      {
        config: { access: SYS_ADMIN_ONLY },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'getOrganization',
          summary: 'Get an organization (OpenTMS extension)',
          params: OrganizationParams,
          response: { 200: Organization },
        },
      },
      async (request) => {
        return view(db, await getOrganization(deps, request.params.organizationUid));
      },
    );

    app.patch(
      '/v1/admin/organizations/:organizationUid',
      {
        config: { access: SYS_ADMIN_ONLY },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'editOrganization',
          summary: "Edit an organization's name and settings (OpenTMS extension)",
          params: OrganizationParams,
          body: EditOrganizationBody,
          response: { 200: Organization },
        },
      },
      async (request) => {
        const updated = await editOrganization(deps, request.params.organizationUid, request.body);
        return view(db, updated);
      },
    );
  };
}
