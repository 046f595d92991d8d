import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeOrganization, signedInUser } from './factories.js';

/** Issue 15: price lists (Price List operations), exact money, XLSX export / import, references cleared on delete. */

interface Step {
  id: string;
  uid: string;
  name: string;
  abbr: string;
  order: number;
  lqaEnabled: boolean;
}
type Headers = Record<string, string>;
interface PriceSet {
  sourceLang: string;
  targetLang: string;
  minimumPrice: number;
  prices: { workflowStep: Step; price: number }[];
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('price lists', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let headers: Headers;
  let steps: Step[];

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, h: Headers = headers, payload?: unknown) =>
    t.inject({
      method,
      url: `/api2/v1/priceLists${path}`,
      headers: h,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, status = 200, h: Headers = headers) {
    const response = await api(method, path, h, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? undefined : response.json();
  }

  const create = (payload: Record<string, unknown>, h: Headers = headers) => ok('POST', '', payload, 201, h);
  const unique = (prefix: string) => `${prefix} ${newUid().slice(0, 8)}`;
  const pairs = async (uid: string, sourceLanguages: string[], targetLanguages: string[]) =>
    ok('POST', `/${uid}/priceSets`, { sourceLanguages, targetLanguages }, 201);
  const setOf = (list: { priceSets: PriceSet[] }, source: string, target: string) =>
    list.priceSets.find((s) => s.sourceLang === source && s.targetLang === target)!;
  const priceMap = (set: PriceSet) => Object.fromEntries(set.prices.map((p) => [p.workflowStep.name, p.price]));

  async function upload(uid: string, file: Buffer, form: 'octet' | 'multipart' = 'octet', h: Headers = headers) {
    if (form === 'octet') {
      return t.inject({
        method: 'POST',
        url: `/api2/v1/priceLists/${uid}/import`,
        headers: { ...h, 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="prices.xlsx"' },
        payload: file,
      });
    }
    const boundary = '----price-list-test';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="prices.xlsx"\r\nContent-Type: ${XLSX}\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.inject({
      method: 'POST',
      url: `/api2/v1/priceLists/${uid}/import`,
      headers: { ...h, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
  }

  async function sheet(rows: unknown[][]): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    const worksheet = workbook.addWorksheet('Prices');
    for (const row of rows) worksheet.addRow(row);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  async function readSheet(file: Buffer): Promise<unknown[][]> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    steps = (await t.inject({ url: '/api2/v1/workflowSteps?sort=ORDER', headers })).json().content;
    expect(steps.length).toBeGreaterThanOrEqual(2);
  });
  afterAll(() => t.close());

  it('creates, reads, lists, edits a price list; names are unique ignoring case; currency and billing unit are checked', async () => {
    const list = await create({ name: '  Standard  ', currencyCode: 'eur' });
    expect(list).toEqual({
      id: expect.any(String),
      uid: expect.stringMatching(/^[0-9A-Za-z]{22}$/),
      dateCreated: t.clock().toISOString(),
      name: 'Standard',
      currencyCode: 'EUR',
      billingUnit: 'Word',
      priceSets: [],
    });
    expect(await ok('GET', `/${list.uid}`)).toEqual(list);

    const hourly = await create({ name: 'Hourly', currencyCode: 'USD', billingUnit: 'Hour' });
    expect(hourly.billingUnit).toBe('Hour');

    const taken = await api('POST', '', headers, { name: 'STANDARD', currencyCode: 'EUR' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ errorCode: 'NameAlreadyExists', errorDetails: [{ field: 'name' }] });
    for (const [payload, field] of [
      [{ name: 'X', currencyCode: 'EURO' }, 'currencyCode'],
      [{ name: 'X', currencyCode: 'XYZ' }, 'currencyCode'],
      [{ name: '   ', currencyCode: 'EUR' }, 'name'],
      [{ name: 'X', currencyCode: 'EUR', billingUnit: 'Minute' }, 'billingUnit'],
      [{ currencyCode: 'EUR' }, 'name'],
    ] as const) {
      const refused = await api('POST', '', headers, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(refused.json().errorDetails)).toContain(field);
    }

    const page = await ok('GET', '?pageSize=1');
    expect(page).toMatchObject({ totalElements: 2, totalPages: 2, pageSize: 1, numberOfElements: 1 });
    expect(page.content[0]).toEqual({
      id: hourly.id,
      uid: hourly.uid,
      dateCreated: hourly.dateCreated,
      name: 'Hourly',
      currencyCode: 'USD',
      billingUnit: 'Hour',
    });

    const edited = await ok('PUT', `/${hourly.uid}`, { name: 'Hourly rates', currencyCode: 'gbp' });
    expect(edited).toMatchObject({ name: 'Hourly rates', currencyCode: 'GBP', billingUnit: 'Hour' });
    expect((await ok('PUT', `/${hourly.uid}`, { name: 'hourly RATES', currencyCode: 'GBP', billingUnit: 'Page' })).billingUnit).toBe(
      'Page',
    );
    expect((await api('PUT', `/${hourly.uid}`, headers, { name: 'standard', currencyCode: 'GBP' })).statusCode).toBe(409);
    expect((await api('PUT', '/nope', headers, { name: 'Nope', currencyCode: 'GBP' })).statusCode).toBe(404);
  });

  it('adds language pairs as a cross product, each with price 0 per workflow step in workflow order', async () => {
    const list = await create({ name: unique('Pairs'), currencyCode: 'EUR' });
    const added = await pairs(list.uid, ['en', 'DE'], ['de', 'fr_fr', 'en']);
    expect(added.priceSets.map((s: PriceSet) => `${s.sourceLang}>${s.targetLang}`)).toEqual(['de>en', 'de>fr_fr', 'en>de', 'en>fr_fr']);
    const ref = (s: Step) => ({ id: s.id, uid: s.uid, name: s.name, abbr: s.abbr, order: s.order, lqaEnabled: s.lqaEnabled });
    expect(added.priceSets[0]).toEqual({
      sourceLang: 'de',
      targetLang: 'en',
      minimumPrice: 0,
      prices: steps.map((s) => ({ workflowStep: ref(s), price: 0 })),
    });
    const stored = await t.database.db.selectFrom('priceSetPrices').select('price').execute();
    expect(stored.length).toBeGreaterThanOrEqual(4 * steps.length);

    // Existing pairs keep their prices; the answer lists the requested pairs.
    await ok('POST', `/${list.uid}/priceSets/minimumPrices`, { sourceLanguages: ['en'], targetLanguages: ['de'], minimumPrice: 7 });
    const again = await pairs(list.uid, ['en'], ['de', 'it']);
    expect(again.priceSets.map((s: PriceSet) => [s.targetLang, s.minimumPrice])).toEqual([
      ['de', 7],
      ['it', 0],
    ]);

    const unsupported = await api('POST', `/${list.uid}/priceSets`, headers, { sourceLanguages: ['en'], targetLanguages: ['xx-nope'] });
    expect(unsupported.json()).toMatchObject({ errorCode: 'UnsupportedLanguage', errorDetails: [{ field: 'targetLanguages' }] });
    expect((await api('POST', `/${list.uid}/priceSets`, headers, { sourceLanguages: ['en'], targetLanguages: ['en'] })).statusCode).toBe(
      400,
    );
    expect((await api('POST', `/${list.uid}/priceSets`, headers, { sourceLanguages: [], targetLanguages: ['de'] })).statusCode).toBe(400);
    expect((await ok('GET', `/${list.uid}`)).priceSets).toHaveLength(5);
  });

  it('lists price sets paged, filtered by source and target languages', async () => {
    const list = await create({ name: unique('Paged'), currencyCode: 'EUR' });
    await pairs(list.uid, ['en', 'de', 'fr'], ['en', 'de', 'fr', 'it']);
    const all = await ok('GET', `/${list.uid}/priceSets`);
    expect(all).toMatchObject({ totalElements: 9, pageNumber: 0, pageSize: 50, numberOfElements: 9 });
    const page = await ok('GET', `/${list.uid}/priceSets?pageSize=2&pageNumber=1`);
    expect(page).toMatchObject({ totalElements: 9, totalPages: 5, numberOfElements: 2 });
    expect(page.content.map((s: PriceSet) => `${s.sourceLang}>${s.targetLang}`)).toEqual(['de>it', 'en>de']);
    const filtered = await ok('GET', `/${list.uid}/priceSets?sourceLanguages=en&sourceLanguages=fr&targetLanguages=it`);
    expect(filtered.content.map((s: PriceSet) => `${s.sourceLang}>${s.targetLang}`)).toEqual(['en>it', 'fr>it']);
    expect((await ok('GET', `/${list.uid}/priceSets?targetLanguages=de`)).totalElements).toBe(2);
    expect((await api('GET', `/${list.uid}/priceSets?sourceLanguages=klingon`)).statusCode).toBe(400);
    expect((await api('GET', '/nope/priceSets')).statusCode).toBe(404);
  });

  it('stores money exactly: decimals round-trip, strings are read as written, finer than 4 places or negative is 400', async () => {
    const list = await create({ name: unique('Exact'), currencyCode: 'EUR' });
    await pairs(list.uid, ['en'], ['de', 'fr']);
    const [first, second] = steps;
    let result = await ok('POST', `/${list.uid}/priceSets/prices`, { price: 0.1, workflowSteps: [{ id: first!.id }] });
    result = await ok('POST', `/${list.uid}/priceSets/prices`, {
      price: 0.2,
      workflowSteps: [{ id: second!.uid }],
      targetLanguages: ['de'],
    });
    result = await ok('POST', `/${list.uid}/priceSets/minimumPrices`, { minimumPrice: 1234567890.1234, targetLanguages: ['de'] });
    const de = setOf(result, 'en', 'de');
    expect(de.minimumPrice).toBe(1234567890.1234);
    expect(priceMap(de)[first!.name]).toBe(0.1);
    expect(priceMap(de)[second!.name]).toBe(0.2);
    expect(priceMap(setOf(result, 'en', 'fr'))[second!.name]).toBe(0);
    // The response's JSON text holds the decimals as written.
    const text = (await api('GET', `/${list.uid}`)).body;
    expect(text).toContain('"minimumPrice":1234567890.1234');
    expect(text).toContain('"price":0.1');
    // Stored as decimal strings, never binary floats.
    const rows = await t.database.db
      .selectFrom('priceSets')
      .innerJoin('priceLists', 'priceLists.id', 'priceSets.priceListId')
      .select(['priceSets.targetLang', 'priceSets.minimumPrice'])
      .where('priceLists.uid', '=', list.uid)
      .orderBy('priceSets.targetLang')
      .execute();
    expect(rows).toEqual([
      { targetLang: 'de', minimumPrice: '1234567890.1234' },
      { targetLang: 'fr', minimumPrice: '0' },
    ]);
    const prices = await t.database.db
      .selectFrom('priceSetPrices')
      .innerJoin('priceSets', 'priceSets.id', 'priceSetPrices.priceSetId')
      .innerJoin('priceLists', 'priceLists.id', 'priceSets.priceListId')
      .select(['priceSets.targetLang', 'priceSetPrices.price', 'priceSetPrices.workflowStepId'])
      .where('priceLists.uid', '=', list.uid)
      .where('priceSetPrices.workflowStepId', 'in', [first!.id, second!.id])
      .execute();
    expect(prices.map((p) => p.price).sort()).toEqual(['0', '0.1', '0.1', '0.2']);

    // A string is read exactly as written; trailing zeros are dropped.
    result = await ok('POST', `/${list.uid}/priceSets/prices`, { price: '99999999999.9999', targetLanguages: ['fr'] });
    expect(priceMap(setOf(result, 'en', 'fr'))[first!.name]).toBe(99999999999.9999);
    result = await ok('POST', `/${list.uid}/priceSets/minimumPrices`, { minimumPrice: '12.3400' });
    expect(result.priceSets.map((s: PriceSet) => s.minimumPrice)).toEqual([12.34, 12.34]);

    for (const [path, payload, field] of [
      ['prices', { price: 0.00001 }, 'price'],
      ['prices', { price: -1 }, 'price'],
      ['prices', { price: 0.30000000000000004 }, 'price'],
      ['prices', { price: 1234567890123456 }, 'price'],
      ['prices', { price: 'ten' }, 'price'],
      ['minimumPrices', { minimumPrice: 0.12345 }, 'minimumPrice'],
      ['minimumPrices', { minimumPrice: -0.5 }, 'minimumPrice'],
      ['minimumPrices', {}, 'minimumPrice'],
    ] as const) {
      const refused = await api('POST', `/${list.uid}/priceSets/${path}`, headers, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().errorDetails, JSON.stringify(payload)).toEqual([expect.objectContaining({ field })]);
    }
    const unchanged = await ok('GET', `/${list.uid}`);
    expect(setOf(unchanged, 'en', 'de').minimumPrice).toBe(12.34);

    const unknownStep = await api('POST', `/${list.uid}/priceSets/prices`, headers, { price: 1, workflowSteps: [{ id: 'nope' }] });
    expect(unknownStep.json()).toMatchObject({ errorCode: 'ReferenceNotFound', errorDetails: [{ field: 'workflowSteps' }] });
  });

  it('sets a price for every workflow step of the organization when none is named, on every pair when none is named', async () => {
    const list = await create({ name: unique('All steps'), currencyCode: 'CHF', billingUnit: 'Hour' });
    await pairs(list.uid, ['en', 'de'], ['fr']);
    const result = await ok('POST', `/${list.uid}/priceSets/prices`, { price: 45.5 });
    expect(result.billingUnit).toBe('Hour');
    for (const set of result.priceSets as PriceSet[]) expect(set.prices.map((p) => p.price)).toEqual(steps.map(() => 45.5));
    const only = await ok('POST', `/${list.uid}/priceSets/prices`, {
      price: 50,
      sourceLanguages: ['de'],
      workflowSteps: [{ id: steps[0]!.id }],
    });
    expect(priceMap(setOf(only, 'de', 'fr'))[steps[0]!.name]).toBe(50);
    expect(priceMap(setOf(only, 'en', 'fr'))[steps[0]!.name]).toBe(45.5);
  });

  it('removes language pairs in bulk and one by one', async () => {
    const list = await create({ name: unique('Removal'), currencyCode: 'EUR' });
    await pairs(list.uid, ['en', 'de'], ['fr', 'it', 'es']);
    await ok('DELETE', `/${list.uid}/priceSets`, { sourceLanguages: ['de'], targetLanguages: ['fr', 'it'] }, 204);
    await ok('DELETE', `/${list.uid}/priceSets`, { targetLanguages: ['es'] }, 204);
    const left = (await ok('GET', `/${list.uid}`)).priceSets.map((s: PriceSet) => `${s.sourceLang}>${s.targetLang}`);
    expect(left).toEqual(['en>fr', 'en>it']);
    expect((await api('DELETE', `/${list.uid}/priceSets`, headers, {})).statusCode).toBe(400);
    await ok('DELETE', `/${list.uid}/priceSets/EN/it`, undefined, 204);
    expect((await api('DELETE', `/${list.uid}/priceSets/en/it`)).statusCode).toBe(404);
    expect((await api('DELETE', `/${list.uid}/priceSets/en/nope`)).statusCode).toBe(404);
    expect((await ok('GET', `/${list.uid}`)).priceSets.map((s: PriceSet) => s.targetLang)).toEqual(['fr']);
  });

  it('clones a list with its prices, named "(copy)" unless a name is given', async () => {
    const name = unique('Original');
    const list = await create({ name, currencyCode: 'JPY', billingUnit: 'Character' });
    await pairs(list.uid, ['ja'], ['en']);
    await ok('POST', `/${list.uid}/priceSets/prices`, { price: 3.25 });
    await ok('POST', `/${list.uid}/priceSets/minimumPrices`, { minimumPrice: 1000 });
    const original = await ok('GET', `/${list.uid}`);
    const copy = await ok('POST', `/${list.uid}/clone`, undefined, 201);
    expect(copy).toMatchObject({ name: `${name} (copy)`, currencyCode: 'JPY', billingUnit: 'Character', priceSets: original.priceSets });
    expect(copy.uid).not.toBe(list.uid);
    expect((await ok('POST', `/${list.uid}/clone`, {}, 201)).name).toBe(`${name} (copy 2)`);
    expect((await ok('POST', `/${list.uid}/clone`, { name: 'Named copy' }, 201)).name).toBe('Named copy');
    expect((await api('POST', `/${list.uid}/clone`, headers, { name: 'NAMED COPY' })).statusCode).toBe(409);
    // The copy is independent.
    await ok('POST', `/${copy.uid}/priceSets/prices`, { price: 9 });
    expect((await ok('GET', `/${list.uid}`)).priceSets).toEqual(original.priceSets);
  });

  describe('XLSX', () => {
    it('exports the template: the header with the workflow steps and no rows', async () => {
      const response = await api('GET', '/exportTemplate');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain(XLSX);
      expect(response.headers['content-disposition']).toContain('.xlsx');
      expect(await readSheet(response.rawPayload)).toEqual([
        ['Source language', 'Target language', 'Minimum price', ...steps.map((s) => s.name)],
      ]);
    });

    it('exports a list and imports it back unchanged, into itself or into another list (octet-stream and multipart)', async () => {
      const list = await create({ name: unique('Export'), currencyCode: 'EUR' });
      await pairs(list.uid, ['en'], ['de', 'fr']);
      await ok('POST', `/${list.uid}/priceSets/prices`, { price: 0.1, workflowSteps: [{ id: steps[0]!.id }] });
      await ok('POST', `/${list.uid}/priceSets/prices`, {
        price: '1234567890.1234',
        targetLanguages: ['fr'],
        workflowSteps: [{ id: steps[1]!.id }],
      });
      await ok('POST', `/${list.uid}/priceSets/minimumPrices`, { minimumPrice: 0.3, targetLanguages: ['de'] });
      const before = await ok('GET', `/${list.uid}`);

      const exported = await api('GET', `/${list.uid}/export`);
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-type']).toContain(XLSX);
      expect(exported.headers['content-disposition']).toContain(`${encodeURIComponent(list.name)}.xlsx`);
      const rows = await readSheet(exported.rawPayload);
      expect(rows[0]).toEqual(['Source language', 'Target language', 'Minimum price', ...steps.map((s) => s.name)]);
      expect(rows.slice(1).map((r) => r.slice(0, 5))).toEqual([
        ['en', 'de', 0.3, 0.1, 0],
        ['en', 'fr', 0, 0.1, 1234567890.1234],
      ]);

      const back = await upload(list.uid, exported.rawPayload);
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json()).toEqual(before);

      const target = await create({ name: unique('Imported'), currencyCode: 'EUR' });
      const imported = await upload(target.uid, exported.rawPayload, 'multipart');
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json().priceSets).toEqual(before.priceSets);
    });

    it('replaces the prices of the pairs the sheet lists, adds missing pairs, keeps what it leaves empty or out', async () => {
      const list = await create({ name: unique('Partial import'), currencyCode: 'EUR' });
      await pairs(list.uid, ['en'], ['de', 'fr']);
      await ok('POST', `/${list.uid}/priceSets/prices`, { price: 2 });
      await ok('POST', `/${list.uid}/priceSets/minimumPrices`, { minimumPrice: 10 });
      const [first, second] = steps;
      const file = await sheet([
        ['target language', 'SOURCE LANGUAGE', first!.name.toUpperCase()],
        ['de', 'en', 0.05],
        [],
        ['es', 'en-us', '1.5'],
        ['fr', 'en', null],
      ]);
      const response = await upload(list.uid, file);
      expect(response.statusCode, response.body).toBe(200);
      const result = response.json();
      expect(result.priceSets.map((s: PriceSet) => `${s.sourceLang}>${s.targetLang}`)).toEqual(['en>de', 'en>fr', 'en_us>es']);
      expect(setOf(result, 'en', 'de')).toMatchObject({ minimumPrice: 10 });
      expect(priceMap(setOf(result, 'en', 'de'))).toMatchObject({ [first!.name]: 0.05, [second!.name]: 2 });
      expect(priceMap(setOf(result, 'en', 'fr'))).toMatchObject({ [first!.name]: 2, [second!.name]: 2 });
      expect(setOf(result, 'en_us', 'es')).toMatchObject({ minimumPrice: 0 });
      expect(priceMap(setOf(result, 'en_us', 'es'))).toMatchObject({ [first!.name]: 1.5, [second!.name]: 0 });
    });

    it('refuses a bad sheet with a 400 naming the row and column, and changes nothing', async () => {
      const list = await create({ name: unique('Bad sheets'), currencyCode: 'EUR' });
      await pairs(list.uid, ['en'], ['de']);
      await ok('POST', `/${list.uid}/priceSets/prices`, { price: 1 });
      const before = await ok('GET', `/${list.uid}`);
      const step = steps[0]!.name;
      const header = ['Source language', 'Target language', 'Minimum price', step];
      const cases: [unknown[][], string][] = [
        [[header, ['en', 'de', 1, 2], ['en', 'xx-nope', 1, 2]], 'row 3, column B: "xx-nope" is not a supported language code'],
        [[header, ['en', 'de', 1, 'two']], `row 2, column D: the price for ${step} "two" is not a number`],
        [[header, ['en', 'de', -1, 2]], 'row 2, column C: the minimum price -1 must not be negative'],
        [[header, ['en', 'de', 1, 0.00001]], 'row 2, column D: the price for'],
        [
          [
            ['Source language', 'Target language', 'Proofreading X'],
            ['en', 'de', 1],
          ],
          'row 1, column C: "Proofreading X" is not a column',
        ],
        [
          [header, ['en', 'fr', 1, 2], ['en', 'de', 1, 2], ['EN', 'FR', 3, 4]],
          'row 4, column B: the pair en → fr is already listed in row 2',
        ],
        [
          [
            ['Target language', 'Minimum price'],
            ['de', 1],
          ],
          'row 1: the header has no "Source language" column',
        ],
        [[], 'row 1: the header row is missing'],
        [[header, ['en', '', 1, 2]], 'row 2, column B: the target language is missing'],
        [[header, ['en', 'en', 1, 2]], 'row 2, column B: the target language is the source language'],
        [[header, ['en', 'de', 1, 2, 'stray']], 'row 2, column E: "stray" stands in a column without a header'],
        [[[...header, step]], `row 1, column E: the column "${step}" is already column D`],
      ];
      for (const [rows, message] of cases) {
        const response = await upload(list.uid, await sheet(rows));
        expect(response.statusCode, message).toBe(400);
        expect(response.json().errorCode).toBe('InvalidArguments');
        expect(response.json().errorDescription, message).toContain(message);
        expect(response.json().errorDetails[0]).toMatchObject({ field: 'file' });
      }
      const notXlsx = await upload(list.uid, Buffer.from('Source language,Target language\nen,de\n'));
      expect(notXlsx.statusCode).toBe(400);
      expect(notXlsx.json().errorDescription).toContain('not an XLSX workbook');
      expect((await upload(list.uid, Buffer.alloc(0))).statusCode).toBe(400);
      const tooLarge = await upload(list.uid, Buffer.alloc(5 * 1024 * 1024 + 1));
      expect(tooLarge.statusCode).toBe(413);
      const wrongType = await t.inject({
        method: 'POST',
        url: `/api2/v1/priceLists/${list.uid}/import`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { rows: [] },
      });
      expect(wrongType.statusCode).toBe(415);
      expect(await ok('GET', `/${list.uid}`)).toEqual(before);
    });
  });

  it('deleting a list deletes its pairs and clears every reference to it in the same transaction', async () => {
    const db = t.database.db;
    const list = await create({ name: unique('Referenced'), currencyCode: 'EUR' });
    const other = await create({ name: unique('Kept'), currencyCode: 'EUR' });
    await pairs(list.uid, ['en'], ['de']);
    const client = await t.inject({
      method: 'POST',
      url: '/api2/v1/clients',
      headers,
      payload: { name: unique('Client'), priceList: { id: list.id } },
    });
    expect(client.json().priceList).toEqual({ id: list.id, uid: list.uid, name: list.name });
    const keptClient = await t.inject({
      method: 'POST',
      url: '/api2/v1/clients',
      headers,
      payload: { name: unique('Client'), priceList: { id: other.uid } },
    });
    expect(keptClient.json().priceList.uid).toBe(other.uid);
    const service = await t.inject({
      method: 'POST',
      url: '/api2/v1/services',
      headers,
      payload: { name: unique('Service'), priceList: { uid: list.uid } },
    });
    expect(service.json().priceList).toEqual({ id: list.id, uid: list.uid, name: list.name });
    const project = await t.inject({
      method: 'POST',
      url: '/api2/v3/projects',
      headers,
      payload: { name: 'Priced', sourceLang: 'en', targetLangs: ['de'] },
    });
    expect(project.statusCode, project.body).toBe(201);
    const financial = `/api2/v1/projects/${project.json().uid}/financialSettings`;
    const set = await t.inject({ method: 'PUT', url: financial, headers, payload: { priceList: { id: list.id } } });
    expect(set.json().priceList).toEqual({ id: list.id, uid: list.uid, name: list.name });
    const template = await t.inject({
      method: 'POST',
      url: '/api2/v1/projectTemplates',
      headers,
      payload: { project: { uid: project.json().uid }, name: unique('Template') },
    });
    expect(template.statusCode, template.body).toBe(201);
    const linguistName = `linguist-${newUid().slice(0, 8)}`;
    const linguist = await t.inject({
      method: 'POST',
      url: '/api2/v3/users',
      headers,
      payload: {
        userName: linguistName,
        firstName: 'L',
        lastName: 'L',
        email: `${linguistName}@example.test`,
        password: 'a good password',
        role: 'LINGUIST',
        timezone: 'UTC',
        translationPriceList: { uid: list.uid },
      },
    });
    expect(linguist.statusCode, linguist.body).toBe(201);
    expect(linguist.json().translationPriceList).toEqual({ id: list.id, uid: list.uid, name: list.name });

    await ok('DELETE', `/${list.uid}`, undefined, 204);
    expect((await api('GET', `/${list.uid}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/${list.uid}`)).statusCode).toBe(404);
    expect(await db.selectFrom('priceSets').select('id').where('priceListId', '=', list.id).execute()).toEqual([]);
    expect((await t.inject({ url: `/api2/v1/clients/${client.json().uid}`, headers })).json().priceList).toBeNull();
    expect((await t.inject({ url: `/api2/v1/clients/${keptClient.json().uid}`, headers })).json().priceList.uid).toBe(other.uid);
    expect((await t.inject({ url: `/api2/v1/services/${service.json().uid}`, headers })).json().priceList).toBeNull();
    expect((await t.inject({ url: financial, headers })).json()).toEqual({ priceList: null, netRateScheme: null });
    const stored = await db.selectFrom('projects').select('settings').where('uid', '=', project.json().uid).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.settings).financialSettings).toBeUndefined();
    const templateRow = await db
      .selectFrom('projectTemplates')
      .select('settings')
      .where('uid', '=', template.json().uid)
      .executeTakeFirstOrThrow();
    expect(templateRow.settings).not.toContain(`"priceListId":"${list.id}"`);
    expect((await t.inject({ url: `/api2/v3/users/${linguist.json().uid}`, headers })).json().translationPriceList).toBeNull();
  });

  it("answers 404 for another organization's list on every operation", async () => {
    const other = await signedInUser(t, 'ADMIN', await makeOrganization(t.database.db));
    const theirs = await create({ name: 'Theirs', currencyCode: 'EUR' }, other.headers);
    await pairs(theirs.uid, ['en'], ['de']).catch(() => undefined);
    const calls: [string, string, unknown?][] = [
      ['GET', `/${theirs.uid}`],
      ['PUT', `/${theirs.uid}`, { name: 'Mine', currencyCode: 'EUR' }],
      ['DELETE', `/${theirs.uid}`],
      ['POST', `/${theirs.uid}/clone`, {}],
      ['GET', `/${theirs.uid}/export`],
      ['GET', `/${theirs.uid}/priceSets`],
      ['POST', `/${theirs.uid}/priceSets`, { sourceLanguages: ['en'], targetLanguages: ['fr'] }],
      ['DELETE', `/${theirs.uid}/priceSets`, { sourceLanguages: ['en'] }],
      ['POST', `/${theirs.uid}/priceSets/minimumPrices`, { minimumPrice: 1 }],
      ['POST', `/${theirs.uid}/priceSets/prices`, { price: 1 }],
      ['DELETE', `/${theirs.uid}/priceSets/en/de`],
    ];
    for (const [method, path, payload] of calls) {
      const response = await api(method as 'GET', path, headers, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json().errorDescription).toContain('Price list not found');
    }
    expect((await upload(theirs.uid, await sheet([['Source language', 'Target language']]))).statusCode).toBe(404);
    expect((await ok('GET', '', undefined, 200, other.headers)).content.map((l: { name: string }) => l.name)).toEqual(['Theirs']);
    // Their list cannot be referenced either.
    const client = await t.inject({
      method: 'POST',
      url: '/api2/v1/clients',
      headers,
      payload: { name: unique('C'), priceList: { id: theirs.id } },
    });
    expect(client.json()).toMatchObject({ errorCode: 'ReferenceNotFound', errorDetails: [{ field: 'priceList' }] });
  });

  it('ADMIN and PROJECT_MANAGER read; writing needs the setupServer right; other roles are refused', async () => {
    const pm = async (setupServer: boolean) => {
      const userName = `pm-${newUid().slice(0, 10)}`;
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v3/users',
        headers,
        payload: {
          userName,
          firstName: 'P',
          lastName: 'M',
          email: `${userName}@example.test`,
          password: 'a good password',
          role: 'PROJECT_MANAGER',
          timezone: 'UTC',
          setupServer,
        },
      });
      const row = await t.database.db.selectFrom('users').selectAll().where('uid', '=', response.json().uid).executeTakeFirstOrThrow();
      return apiToken(await loginAs(t, row, 'a good password'));
    };
    const without = await pm(false);
    const withRight = await pm(true);
    const list = await create({ name: unique('By admin'), currencyCode: 'EUR' });
    expect((await api('GET', '', without)).statusCode).toBe(200);
    expect((await api('GET', `/${list.uid}`, without)).statusCode).toBe(200);
    expect((await api('GET', `/${list.uid}/export`, without)).statusCode).toBe(200);
    expect((await api('GET', '/exportTemplate', without)).statusCode).toBe(200);
    expect((await api('GET', `/${list.uid}/priceSets`, without)).statusCode).toBe(200);
    expect((await api('POST', '', without, { name: 'By PM', currencyCode: 'EUR' })).statusCode).toBe(403);
    expect((await api('POST', `/${list.uid}/priceSets/prices`, without, { price: 1 })).statusCode).toBe(403);
    expect((await upload(list.uid, await sheet([['Source language', 'Target language']]), 'octet', without)).statusCode).toBe(403);
    const made = await create({ name: unique('By PM'), currencyCode: 'EUR' }, withRight);
    await ok('POST', `/${made.uid}/priceSets`, { sourceLanguages: ['en'], targetLanguages: ['de'] }, 201, withRight);
    expect((await api('DELETE', `/${made.uid}`, without)).statusCode).toBe(403);
    expect((await api('DELETE', `/${made.uid}`, withRight)).statusCode).toBe(204);
    for (const role of ['LINGUIST', 'GUEST', 'SUBMITTER'] as const) {
      const { headers: h } = await signedInUser(t, role, admin.organization);
      expect((await api('GET', '', h)).statusCode, role).toBe(403);
      expect((await api('GET', `/${list.uid}`, h)).statusCode, role).toBe(403);
    }
    expect((await api('GET', '', {})).statusCode).toBe(401);
  });
});
