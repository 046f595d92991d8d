import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * Price lists of organization A: one with the pair en → de that every route but the deletes
 * names, one that deleteLanguagePair removes its pair from, and one that deletePriceList deletes.
 */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const create = async (name: string) => {
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v1/priceLists',
      headers: adminHeaders,
      payload: { name, currencyCode: 'EUR' },
    });
    if (response.statusCode !== 201) throw new Error(`fixture price list: ${response.statusCode} ${response.body}`);
    const uid = response.json<{ uid: string }>().uid;
    const pairs = await t.inject({
      method: 'POST',
      url: `/api2/v1/priceLists/${uid}/priceSets`,
      headers: adminHeaders,
      payload: { sourceLanguages: ['en'], targetLanguages: ['de', 'fr'] },
    });
    if (pairs.statusCode !== 201) throw new Error(`fixture price sets: ${pairs.statusCode} ${pairs.body}`);
    return uid;
  };
  const pairRoute = '/api2/v1/priceLists/:priceListUid/priceSets/:sourceLanguage/:targetLanguage';
  return {
    values: {
      priceListUid: await create('Matrix price list'),
      [`${pairRoute}:priceListUid`]: await create('Matrix price list (pairs)'),
      [`${pairRoute}:sourceLanguage`]: 'en',
      [`${pairRoute}:targetLanguage`]: 'de',
      '/api2/v1/priceLists/:priceListUid:priceListUid': await create('Matrix price list (deleted)'),
    },
    bodies: {
      'PUT /api2/v1/priceLists/:priceListUid': { name: 'Matrix price list (deleted)', currencyCode: 'EUR' },
      'POST /api2/v1/priceLists/:priceListUid/clone': {},
      'POST /api2/v1/priceLists/:priceListUid/priceSets': { sourceLanguages: ['en'], targetLanguages: ['de'] },
      'DELETE /api2/v1/priceLists/:priceListUid/priceSets': { sourceLanguages: ['en'], targetLanguages: ['fr'] },
      'POST /api2/v1/priceLists/:priceListUid/priceSets/minimumPrices': { minimumPrice: 5 },
      'POST /api2/v1/priceLists/:priceListUid/priceSets/prices': { price: 0.1 },
    },
  };
};
export default build;
