import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { newUid } from '../../../db/ids.js';
import { hasRight } from '../../../domain/users/role-settings.js';
import type { ProjectManagerRight } from '../../../domain/users/role-settings.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { referenceNotFound, resolveReferences } from '../setup-records/index.js';
import { toVendorDtos } from './vendor-views.js';
import {
  findLink,
  findLinksByUids,
  insertLinkReferences,
  linkExists,
  listLinks,
  organizationByVendorToken,
  regenerateVendorToken,
  vendorTokenOf,
} from './vendors.repository.js';
import type { VendorRow } from './vendors.repository.js';
import {
  CreateVendorBody,
  DeleteVendorsBody,
  VendorListQuery,
  VendorPage,
  VendorSchema,
  VendorTokenSchema,
  VendorUidParams,
} from './vendors.schemas.js';

/** Vendors are ADMIN and PROJECT_MANAGER business; project managers' rights are checked per record. */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const CREATORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'vendorCreate' };
/** The vendor token lets another organization link this one: organization administrators only. */
const ADMINS: Access = roles('ADMIN');

/** A new link starts in the vendor's default time zone until the vendor sets its own (updateBuyer). */
export const DEFAULT_VENDOR_TIMEZONE = 'Europe/London';

/** Project managers touch vendors others created only with the matching right; ADMIN holds every right. */
function mayTouch(caller: Caller, row: VendorRow, right: ProjectManagerRight): boolean {
  if (caller.role !== 'PROJECT_MANAGER') return true;
  if (row.createdById !== null && row.createdById === caller.userId) return true;
  return hasRight(caller.role, caller.settings, right);
}

const alreadyLinked = (name: string) => errors.VendorAlreadyExists({ name });

/** Vendor operations (the buyer's side of links between organizations) and the vendor token. */
export function vendorsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/vendors',
      {
        config: { access: MANAGERS },
        schema: {
          tags: ['Vendor'],
          operationId: 'listVendors',
          summary: 'List vendors',
          description: 'Project managers without vendorViewOther see only the vendors they linked.',
          querystring: VendorListQuery,
          response: { 200: VendorPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, name } = request.query;
        const page = { pageNumber, pageSize };
        const ownOnly = caller.role === 'PROJECT_MANAGER' && !hasRight(caller.role, caller.settings, 'vendorViewOther');
        const { rows, total } = await listLinks(
          db,
          'buyer',
          caller.organizationId,
          { name, ...(ownOnly ? { createdById: caller.userId } : {}) },
          page,
        );
        return toPage(await toVendorDtos(db, rows), total, page);
      },
    );

    app.post(
      '/v1/vendors',
      {
        config: {
          access: CREATORS,
          errors: ['VendorAlreadyExists', 'InvalidVendorToken', 'CannotLinkOwnOrganization', 'ReferenceNotFound'],
        },
        schema: {
          tags: ['Vendor'],
          operationId: 'createVendor',
          summary: 'Create vendor',
          description:
            "Links the organization whose vendor token is given as a vendor. Clients, domains, subdomains and workflow steps are the caller's own records, by uid. " +
            'Price lists and net rate schemes do not exist yet: a non-null reference is 400 ReferenceNotFound.',
          body: CreateVendorBody,
          response: { 201: VendorSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const body = request.body;
        const sourceLocales = assertLanguages('sourceLocales', body.sourceLocales ?? []);
        const targetLocales = assertLanguages('targetLocales', body.targetLocales ?? []);
        if (body.priceList) throw referenceNotFound('priceList', 'price list', body.priceList.uid);
        if (body.netRateScheme) throw referenceNotFound('netRateScheme', 'net rate scheme', body.netRateScheme.uid);
        const vendor = await organizationByVendorToken(db, body.vendorToken);
        if (!vendor) {
          throw errors.InvalidVendorToken();
        }
        if (vendor.id === caller.organizationId) {
          throw errors.CannotLinkOwnOrganization();
        }
        const now = deps.clock().toISOString();
        let uid: string;
        try {
          uid = await db.transaction().execute(async (trx) => {
            if (await linkExists(trx, caller.organizationId, vendor.id)) throw alreadyLinked(vendor.name);
            const refs = {
              clients: await resolveReferences(trx, caller.organizationId, 'client', 'clients', body.clients ?? []),
              domains: await resolveReferences(trx, caller.organizationId, 'domain', 'domains', body.domains ?? []),
              subDomains: await resolveReferences(trx, caller.organizationId, 'subDomain', 'subDomains', body.subDomains ?? []),
              workflowSteps: await resolveReferences(trx, caller.organizationId, 'workflowStep', 'workflowSteps', body.workflowSteps ?? []),
            };
            const row = await trx
              .insertInto('vendors')
              .values({
                uid: newUid(),
                buyerOrganizationId: caller.organizationId,
                vendorOrganizationId: vendor.id,
                vendorToken: body.vendorToken,
                priceListId: null,
                netRateSchemeId: null,
                sourceLocales: JSON.stringify(sourceLocales),
                targetLocales: JSON.stringify(targetLocales),
                active: true,
                buyerOwnerId: null,
                timezone: DEFAULT_VENDOR_TIMEZONE,
                createdAt: now,
                createdById: caller.userId,
                lastModifiedAt: now,
                lastModifiedById: caller.userId,
              })
              .returning(['id', 'uid'])
              .executeTakeFirstOrThrow();
            await insertLinkReferences(trx, row.id, refs);
            return row.uid;
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw alreadyLinked(vendor.name);
          throw error;
        }
        const row = await findLink(db, 'buyer', caller.organizationId, uid);
        return reply.code(201).send((await toVendorDtos(db, [row!]))[0]!);
      },
    );

    app.get(
      '/v1/vendors/:vendorUid',
      {
        config: { access: MANAGERS },
        schema: {
          tags: ['Vendor'],
          operationId: 'getVendor',
          summary: 'Get vendor',
          params: VendorUidParams,
          response: { 200: VendorSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await findLink(db, 'buyer', caller.organizationId, request.params.vendorUid);
        if (!row || !mayTouch(caller, row, 'vendorViewOther')) throw errors.ResourceNotFound({ what: 'Vendor' });
        return (await toVendorDtos(db, [row]))[0];
      },
    );

    app.delete(
      '/v1/vendors',
      {
        config: { access: MANAGERS, errors: ['ResourceNotFound'] },
        schema: {
          tags: ['Vendor'],
          operationId: 'deleteVendors',
          summary: 'Delete vendors (batch)',
          description:
            'Unlinks the vendors `{ vendors: [{uid}] }`, all or none: 404 when one is not a vendor the caller sees, 403 when a project manager may not delete one (vendorDeleteOther).',
          body: DeleteVendorsBody,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const uids = [...new Set(request.body.vendors.map((v) => v.uid))];
        const rows = await findLinksByUids(db, caller.organizationId, uids);
        const visible = new Map(rows.filter((r) => mayTouch(caller, r, 'vendorViewOther')).map((r) => [r.uid, r]));
        const missing = uids.filter((uid) => !visible.has(uid));
        if (missing.length) {
          throw errors.ResourceNotFound({ what: 'Vendor', uids: missing, field: 'vendors' });
        }
        if ([...visible.values()].some((r) => !mayTouch(caller, r, 'vendorDeleteOther')))
          throw errors.AccessDenied({ reason: 'Deleting vendors linked by other users needs the vendorDeleteOther right.' });
        await db
          .deleteFrom('vendors')
          .where(
            'id',
            'in',
            [...visible.values()].map((r) => r.id),
          )
          .execute();
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/vendorToken',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['Vendor'],
          operationId: 'getVendorToken',
          summary: "Get the organization's vendor token (OpenTMS extension)",
          description:
            'The token a buyer organization gives to createVendor to link this organization as its vendor. Created on first read.',
          response: { 200: VendorTokenSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const token = await vendorTokenOf(db, caller.organizationId, deps.clock().toISOString());
        return { vendorToken: token.token, dateCreated: token.createdAt };
      },
    );

    app.post(
      '/v1/vendorToken/regenerate',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['Vendor'],
          operationId: 'regenerateVendorToken',
          summary: "Replace the organization's vendor token (OpenTMS extension)",
          description: 'The old token stops working for new links at once; existing links stay.',
          response: { 200: VendorTokenSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const token = await regenerateVendorToken(db, caller.organizationId, deps.clock().toISOString());
        return { vendorToken: token.token, dateCreated: token.createdAt };
      },
    );
  };
}
