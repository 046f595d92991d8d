import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { PageOf, PagingQuery, pageWindow, toPage } from '../../../http/paging.js';
import { hashPassword } from '../credentials/index.js';
import { assertTimezone, checkPassword } from '../users/index.js';
import { toUserReference } from '../users/index.js';
import { UserReference } from '../users/index.js';
import { countSeats, findUserByUserName, insertUser } from '../users/index.js';
import { findOrganizationByUid, insertOrganization, listOrganizations, updateOrganization } from '../organizations/index.js';
import type { OrganizationRow } from '../organizations/index.js';

const SYS_ADMIN_ONLY: Access = { roles: ['SYS_ADMIN'] };

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

const CreateOrganizationBody = Type.Object({
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

const EditOrganizationBody = Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), ...Settings });

const Organization = Type.Object(
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

const OrganizationParams = Type.Object({ organizationUid: Type.String({ minLength: 1, maxLength: 64 }) });

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
        const { admin, ...organization } = request.body;
        checkPassword(admin.password, admin.userName);
        const timezone = admin.timezone ?? 'UTC';
        assertTimezone(timezone, 'admin.timezone');
        const passwordHash = await hashPassword(admin.password);
        const created = await db.transaction().execute(async (trx) => {
          if (await findUserByUserName(trx, admin.userName)) {
            throw errors.UserNameAlreadyExists({ userName: admin.userName, field: 'admin.userName' });
          }
          const row = await insertOrganization(trx, organization);
          const user = await insertUser(trx, { organizationId: row.id, ...admin, timezone, role: 'ADMIN', passwordHash });
          return { row, user };
        });
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
        const row = await findOrganizationByUid(db, request.params.organizationUid);
        if (!row) throw errors.ResourceNotFound({ what: 'Organization' });
        return view(db, row);
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
        const row = await findOrganizationByUid(db, request.params.organizationUid);
        if (!row) throw errors.ResourceNotFound({ what: 'Organization' });
        const changes = Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined));
        const updated = Object.keys(changes).length > 0 ? await updateOrganization(db, row.id, changes) : row;
        return view(db, updated);
      },
    );
  };
}
