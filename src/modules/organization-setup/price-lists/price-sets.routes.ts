import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { organizationWorkflowSteps, listPriceSets, pricesOf } from './price-lists.repository.js';
import { priceSetDtosOf, toPriceListDto, toPriceSetDtos } from './price-list-views.js';
import { PRICE_LIST_READERS, PRICE_LIST_WRITERS, TAGS } from './price-lists.routes.js';
import {
  AddLanguagePairsBody,
  DeleteLanguagePairsBody,
  MinimumPricesBody,
  PriceListUidParams,
  PriceSetListQuery,
  PriceSetPage,
  PriceSetParams,
  PricesBody,
  TranslationPriceListDto,
  TranslationPriceSetListDto,
} from './price-lists.schemas.js';
import { getPriceList } from './price-lists.service.js';
import {
  addLanguagePairs,
  editMinimumPrices,
  editPrices,
  pairFilterOf,
  removeLanguagePair,
  removeLanguagePairs,
} from './price-sets.service.js';

const FILTER_NOTE = '`sourceLanguages` and `targetLanguages` choose the pairs; each left out or empty means any language on that side.';

/** The language pairs (price sets) of a price list and their prices (routes relative to `/api2`). */
export function priceSetsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/priceLists/:priceListUid/priceSets',
      {
        config: { access: PRICE_LIST_READERS },
        schema: {
          tags: TAGS,
          operationId: 'getPricesWithWorkflowSteps',
          summary: 'List price sets',
          description: `A page of the list's language pairs by source then target language, each with a price per workflow step of the organization in workflow order. ${FILTER_NOTE}`,
          params: PriceListUidParams,
          querystring: PriceSetListQuery,
          response: { 200: PriceSetPage },
        },
      },
      async (request) => {
        const list = await getPriceList(deps, callerOf(request), request.params.priceListUid);
        const { pageNumber, pageSize } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listPriceSets(db, list.id, pairFilterOf(request.query), page);
        const [steps, prices] = await Promise.all([
          organizationWorkflowSteps(db, list.organizationId),
          pricesOf(
            db,
            list.id,
            rows.map((r) => r.id),
          ),
        ]);
        return toPage(toPriceSetDtos(rows, steps, prices), total, page);
      },
    );

    app.post(
      '/v1/priceLists/:priceListUid/priceSets',
      {
        config: { access: PRICE_LIST_WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'createLanguagePair',
          summary: 'Add language pairs',
          description:
            'Adds every pair of sourceLanguages × targetLanguages (a language into itself left out), each with minimum price 0 and price 0 for every workflow step of the organization; pairs the list already has keep their prices. Answers the requested pairs. A list holds at most 10,000 pairs.',
          params: PriceListUidParams,
          body: AddLanguagePairsBody,
          response: { 201: TranslationPriceSetListDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const list = await getPriceList(deps, caller, request.params.priceListUid);
        const filter = await addLanguagePairs(deps, caller, list, request.body);
        return reply.code(201).send({ priceSets: await priceSetDtosOf(db, list, filter) });
      },
    );

    app.delete(
      '/v1/priceLists/:priceListUid/priceSets',
      {
        config: { access: PRICE_LIST_WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteLanguagePairs',
          summary: 'Remove language pairs',
          description: `Removes the pairs the body chooses. ${FILTER_NOTE} A body naming no language at all is 400 (it would empty the list).`,
          params: PriceListUidParams,
          body: DeleteLanguagePairsBody,
        },
      },
      async (request, reply) => {
        const list = await getPriceList(deps, callerOf(request), request.params.priceListUid);
        await removeLanguagePairs(deps, list, request.body);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/priceLists/:priceListUid/priceSets/minimumPrices',
      {
        config: { access: PRICE_LIST_WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'setMinimumPriceForSet',
          summary: 'Edit minimum prices',
          description: `Sets \`minimumPrice\` (>= 0, at most 4 decimal places and 15 significant digits) on the pairs the body chooses; pairs the list does not have are not added. ${FILTER_NOTE}`,
          params: PriceListUidParams,
          body: MinimumPricesBody,
          response: { 200: TranslationPriceListDto },
        },
      },
      async (request) => {
        const list = await getPriceList(deps, callerOf(request), request.params.priceListUid);
        await editMinimumPrices(deps, list, request.body);
        return toPriceListDto(db, list);
      },
    );

    app.post(
      '/v1/priceLists/:priceListUid/priceSets/prices',
      {
        config: { access: PRICE_LIST_WRITERS, errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'setPrices',
          summary: 'Edit prices',
          description: `Sets \`price\` (per billing unit; >= 0, at most 4 decimal places and 15 significant digits) for the workflow steps \`workflowSteps\` names by id (or uid; at most 15), or for every workflow step of the organization when it names none, on the pairs the body chooses; pairs the list does not have are not added. ${FILTER_NOTE}`,
          params: PriceListUidParams,
          body: PricesBody,
          response: { 200: TranslationPriceListDto },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const list = await getPriceList(deps, caller, request.params.priceListUid);
        await editPrices(deps, caller, list, request.body);
        return toPriceListDto(db, list);
      },
    );

    app.delete(
      '/v1/priceLists/:priceListUid/priceSets/:sourceLanguage/:targetLanguage',
      {
        config: { access: PRICE_LIST_WRITERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteLanguagePair',
          summary: 'Remove language pair',
          description: 'Removes one pair with its prices; 404 when the list does not have it.',
          params: PriceSetParams,
        },
      },
      async (request, reply) => {
        const { priceListUid, sourceLanguage, targetLanguage } = request.params;
        const list = await getPriceList(deps, callerOf(request), priceListUid);
        await removeLanguagePair(deps, list, sourceLanguage, targetLanguage);
        return reply.code(204).send();
      },
    );
  };
}
