import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { PagingQuery } from '../../../http/paging.js';
import { Type } from 'typebox';
import { toPriceListDto, toPriceListSummary } from './price-list-views.js';
import { listPriceLists } from './price-lists.repository.js';
import { ClonePriceListBody, PriceListBody, PriceListPage, PriceListUidParams, TranslationPriceListDto } from './price-lists.schemas.js';
import { clonePriceList, createPriceList, deletePriceList, editPriceList, getPriceList } from './price-lists.service.js';

/** Reading: ADMIN and PROJECT_MANAGER (they pick a list for clients, vendors and projects). */
export const PRICE_LIST_READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Writing is setting up the organization: ADMIN, or a project manager with the setupServer right. */
export const PRICE_LIST_WRITERS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };
export const TAGS = ['Price List'];

/** The price lists themselves (routes relative to `/api2`); their language pairs are price-sets.routes.ts, sheets price-list-sheets.routes.ts. */
export function priceListsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/priceLists',
      {
        config: { access: PRICE_LIST_READERS },
        schema: {
          tags: TAGS,
          operationId: 'getListOfPriceList',
          summary: 'List price lists',
          description:
            'Sorted by name. The lists come without `priceSets` (read them with getPriceList or, paged, getPricesWithWorkflowSteps).',
          querystring: Type.Object(PagingQuery),
          response: { 200: PriceListPage },
        },
      },
      async (request) => {
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await listPriceLists(db, callerOf(request).organizationId, page);
        return toPage(rows.map(toPriceListSummary), total, page);
      },
    );

    app.post(
      '/v1/priceLists',
      {
        config: { access: PRICE_LIST_WRITERS, errors: ['NameAlreadyExists'] },
        schema: {
          tags: TAGS,
          operationId: 'createPriceList',
          summary: 'Create price list',
          description:
            'The name is trimmed and unique in the organization, ignoring case (409 NameAlreadyExists); `currencyCode` is an ISO 4217 code (any case, stored upper case; 400 otherwise); `billingUnit` Word (default), Character, Page or Hour. The new list has no language pairs.',
          body: PriceListBody,
          response: { 201: TranslationPriceListDto },
        },
      },
      async (request, reply) => {
        const row = await createPriceList(deps, callerOf(request), request.body);
        return reply.code(201).send(await toPriceListDto(db, row));
      },
    );

    app.get(
      '/v1/priceLists/:priceListUid',
      {
        config: { access: PRICE_LIST_READERS },
        schema: {
          tags: TAGS,
          operationId: 'getPriceList',
          summary: 'Get price list',
          description:
            "With every language pair by source then target language; each pair shows a price per workflow step of the organization, in workflow order. Another organization's list is 404.",
          params: PriceListUidParams,
          response: { 200: TranslationPriceListDto },
        },
      },
      async (request) => toPriceListDto(db, await getPriceList(deps, callerOf(request), request.params.priceListUid)),
    );

    app.put(
      '/v1/priceLists/:priceListUid',
      {
        config: { access: PRICE_LIST_WRITERS, errors: ['NameAlreadyExists'] },
        schema: {
          tags: TAGS,
          operationId: 'updatePriceList',
          summary: 'Update price list',
          description:
            'Sets name, currency and billing unit (a billing unit left out stays). Prices are kept as they are: changing the currency converts nothing.',
          params: PriceListUidParams,
          body: PriceListBody,
          response: { 200: TranslationPriceListDto },
        },
      },
      async (request) => toPriceListDto(db, await editPriceList(deps, callerOf(request), request.params.priceListUid, request.body)),
    );

    app.delete(
      '/v1/priceLists/:priceListUid',
      {
        config: { access: PRICE_LIST_WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'deletePriceList',
          summary: 'Delete price list',
          description:
            'Deletes the list with its language pairs and, in the same transaction, clears every reference to it: clients, vendors, services, the financial settings of projects and templates, and linguists.',
          params: PriceListUidParams,
        },
      },
      async (request, reply) => {
        await deletePriceList(deps, callerOf(request), request.params.priceListUid);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/priceLists/:priceListUid/clone',
      {
        config: { access: PRICE_LIST_WRITERS, errors: ['NameAlreadyExists'] },
        schema: {
          tags: TAGS,
          operationId: 'clonePriceList',
          summary: 'Clone price list',
          description:
            'Copies the list with its currency, billing unit, language pairs and prices. The body is optional: `{"name": "…"}` names the copy (409 when taken); without a name the copy is "<name> (copy)", then "(copy 2)", … (OpenTMS design: the 2025 operation is not in the published spec).',
          params: PriceListUidParams,
          body: ClonePriceListBody,
          response: { 201: TranslationPriceListDto },
        },
      },
      async (request, reply) => {
        const row = await clonePriceList(deps, callerOf(request), request.params.priceListUid, request.body ?? undefined);
        return reply.code(201).send(await toPriceListDto(db, row));
      },
    );
  };
}
