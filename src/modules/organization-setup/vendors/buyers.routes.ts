import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { toBuyerDtos } from './vendor-views.js';
import { listLinks } from './vendors.repository.js';
import { BuyerListQuery, BuyerPage, BuyerSchema, BuyerUidParams, UpdateBuyerBody } from './vendors.schemas.js';
import { updateBuyer } from './vendors.service.js';

/**
 * Buyers are the organizations that linked the caller's organization as their vendor; whether to
 * work for them and who at the vendor owns their work are organization decisions, and no right of
 * project managers covers them (the vendor* rights are about the buyer's side): ADMIN only.
 */
const ADMINS: Access = roles('ADMIN');

/** Buyer operations: the vendor's side of links between organizations. */
export function buyersRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/buyers',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['Buyer'],
          operationId: 'listBuyers',
          summary: 'List buyers',
          description:
            'The organizations that linked this organization as a vendor. `name`: part of the buyer’s name, ignoring case; `active`: the vendor-side flag.',
          querystring: BuyerListQuery,
          response: { 200: BuyerPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, name, active } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listLinks(db, 'vendor', caller.organizationId, { name, active }, page);
        return toPage(await toBuyerDtos(db, rows), total, page);
      },
    );

    app.put(
      '/v1/buyers/:buyerUid',
      {
        config: { access: ADMINS, errors: ['ReferenceNotFound'] },
        schema: {
          tags: ['Buyer'],
          operationId: 'updateBuyer',
          summary: 'Edit buyer',
          description:
            'Edits the vendor-side settings of the link: `active` (whether the vendor works for this buyer), `buyerOwner` (an active ADMIN or PROJECT_MANAGER of the vendor who owns the buyer’s work; null clears) and `timezone` (IANA name). Fields left out keep their values.',
          params: BuyerUidParams,
          body: UpdateBuyerBody,
          response: { 200: BuyerSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await updateBuyer(deps, caller, request.params.buyerUid, request.body);
        return (await toBuyerDtos(db, [row]))[0];
      },
    );
  };
}
