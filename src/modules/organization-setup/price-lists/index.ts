import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { priceListSheetsRoutes } from './price-list-sheets.routes.js';
import { priceListsRoutes as listRoutes } from './price-lists.routes.js';
import { priceSetsRoutes } from './price-sets.routes.js';

/** Every Price List operation (routes relative to `/api2`). */
export function priceListsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    await app.register(priceListSheetsRoutes(deps));
    await app.register(listRoutes(deps));
    await app.register(priceSetsRoutes(deps));
  };
}
