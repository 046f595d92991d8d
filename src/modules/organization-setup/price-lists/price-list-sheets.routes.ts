import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { callerOf } from '../../../http/access.js';
import { attachmentDisposition } from '../../../http/downloads.js';
import { octetStreamBody } from '../../../http/uploads.js';
import { toPriceListDto } from './price-list-views.js';
import { listPriceSets, organizationWorkflowSteps, pricesOf } from './price-lists.repository.js';
import { PRICE_LIST_READERS, PRICE_LIST_WRITERS, TAGS } from './price-lists.routes.js';
import { PriceListUidParams, TranslationPriceListDto } from './price-lists.schemas.js';
import { getPriceList } from './price-lists.service.js';
import { importPriceSets } from './price-sets.service.js';
import { HEADER, MAX_SHEET_BYTES, XLSX_CONTENT_TYPE, readPriceSheet, writePriceSheet } from './price-lists.xlsx.js';

/**
 * Price lists as XLSX sheets (exportPriceList, importPriceList, exportPriceListTemplate: 2025
 * operations, not in the published spec; the layout is in price-lists.xlsx.ts).
 */

const FILE_RESPONSE = {
  200: { description: 'The XLSX workbook, named by Content-Disposition', type: 'string', format: 'binary' },
} as const;

const LAYOUT = `One worksheet: the header row "${HEADER.source}", "${HEADER.target}", "${HEADER.minimum}", then one column per workflow step of the organization named by the step's name, in workflow order; then one row per language pair with the amounts as numbers.`;

const mediaType = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** The uploaded sheet, read whole (it is small: at most MAX_SHEET_BYTES, else 413). */
async function receivedSheet(request: FastifyRequest): Promise<Buffer> {
  let body: Readable;
  if (mediaType(request) === 'multipart/form-data') {
    const part = await request.file();
    if (!part)
      throw errors.InvalidArguments({ reason: 'Send the sheet as a `file` part.', details: [{ field: 'file', message: 'is required' }] });
    body = part.file;
  } else {
    body = octetStreamBody(request);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_SHEET_BYTES) {
      body.destroy();
      throw errors.FileTooLarge({ limitBytes: MAX_SHEET_BYTES });
    }
    chunks.push(chunk);
  }
  if (size === 0) throw errors.InvalidArguments({ reason: 'The sheet is empty.', details: [{ field: 'file', message: 'is empty' }] });
  return Buffer.concat(chunks);
}

// eslint-disable-next-line no-control-regex
const fileNameOf = (name: string) => `${name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim() || 'price-list'}.xlsx`;

export function priceListSheetsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/priceLists/exportTemplate',
      {
        config: { access: PRICE_LIST_READERS },
        schema: {
          tags: TAGS,
          operationId: 'exportPriceListTemplate',
          summary: 'Export translation price list template',
          description: `An empty sheet to fill in and import: ${LAYOUT} The template has the header row only.`,
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const steps = await organizationWorkflowSteps(db, callerOf(request).organizationId);
        const file = await writePriceSheet('Price list', steps, []);
        reply.header('content-disposition', attachmentDisposition('price-list-template.xlsx'));
        return reply.type(XLSX_CONTENT_TYPE).send(file as unknown as string);
      },
    );

    app.get(
      '/v1/priceLists/:priceListUid/export',
      {
        config: { access: PRICE_LIST_READERS },
        schema: {
          tags: TAGS,
          operationId: 'exportPriceList',
          summary: 'Export translation price list',
          description: `The list's prices as an XLSX sheet named after the list: ${LAYOUT} Importing the sheet back changes nothing.`,
          params: PriceListUidParams,
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const list = await getPriceList(deps, callerOf(request), request.params.priceListUid);
        const [steps, { rows: sets }, prices] = await Promise.all([
          organizationWorkflowSteps(db, list.organizationId),
          listPriceSets(db, list.id, {}),
          pricesOf(db, list.id),
        ]);
        const file = await writePriceSheet(
          list.name,
          steps,
          sets.map((set) => ({
            sourceLang: set.sourceLang,
            targetLang: set.targetLang,
            minimumPrice: set.minimumPrice,
            prices: prices.get(String(set.id)) ?? new Map(),
          })),
        );
        reply.header('content-disposition', attachmentDisposition(fileNameOf(list.name)));
        return reply.type(XLSX_CONTENT_TYPE).send(file as unknown as string);
      },
    );

    app.post(
      '/v1/priceLists/:priceListUid/import',
      {
        config: { access: PRICE_LIST_WRITERS, errors: ['UnsupportedMediaType', 'FileTooLarge'] },
        schema: {
          tags: TAGS,
          operationId: 'importPriceList',
          summary: 'Import translation price list',
          description:
            `Reads an XLSX sheet (${LAYOUT}) sent as application/octet-stream (Content-Disposition optional) or as the multipart part \`file\`, at most ${MAX_SHEET_BYTES} bytes. ` +
            'Each pair the sheet lists gets the prices of its row; a pair the list does not have is added (cells left empty: 0); in a pair it has, an empty cell or a step without a column keeps the current price. Pairs the sheet does not list stay. ' +
            'The sheet is checked whole first: a bad one (no header row, a missing language column, a column that is no step of the organization, an unsupported language, a pair listed twice, a price that is no number, negative, or finer than 4 decimal places) is 400 naming the row and column ("row 3, column D: …"), and nothing changes. Answers the list.',
          consumes: ['application/octet-stream', 'multipart/form-data'],
          params: PriceListUidParams,
          response: { 200: TranslationPriceListDto },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const list = await getPriceList(deps, caller, request.params.priceListUid);
        const data = await receivedSheet(request);
        const steps = await organizationWorkflowSteps(db, caller.organizationId);
        const pairs = await readPriceSheet(data, steps);
        await importPriceSets(deps, caller, list, pairs);
        return toPriceListDto(db, list);
      },
    );
  };
}
