import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { toVendorDtos } from './vendor-views.js';
import { regenerateVendorToken, vendorTokenOf } from './vendors.repository.js';
import {
  CreateVendorBody,
  DeleteVendorsBody,
  VendorListQuery,
  VendorPage,
  VendorSchema,
  VendorTokenSchema,
  VendorUidParams,
} from './vendors.schemas.js';
import { createVendor, deleteVendors, getVendor, listVendors } from './vendors.service.js';

/** Vendors are ADMIN and PROJECT_MANAGER business; project managers' rights are checked per record. */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const CREATORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'vendorCreate' };
/** The vendor token lets another organization link this one: organization administrators only. */
const ADMINS: Access = roles('ADMIN');

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
        const { rows, total } = await listVendors(deps, caller, { name }, page);
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
        const row = await createVendor(deps, caller, request.body);
        return reply.code(201).send((await toVendorDtos(db, [row]))[0]!);
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
        const row = await getVendor(deps, caller, request.params.vendorUid);
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
        await deleteVendors(
          deps,
          caller,
          request.body.vendors.map((v) => v.uid),
        );
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
