import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { pageWindow, toPage } from '../../../http/paging.js';
import { onProject, projectAccessOf, ProjectUidParams } from '../../translation-workflow/kernel/index.js';
import { emailQuotes } from './quotes-email.service.js';
import { listProjectQuotes } from './quotes.repository.js';
import {
  CreateQuoteV1Body,
  CreateQuoteV2Body,
  EmailQuotesBody,
  EmailQuotesResponse,
  QuoteDto,
  QuotePage,
  QuoteUidParams,
  QuotesQuery,
  QuoteV2Dto,
} from './quotes.schemas.js';
import { createQuote, deleteQuote, requireQuote } from './quotes.service.js';
import { quoteViewContext, toQuoteDto, toQuoteV2Dto } from './quotes.views.js';

/** Quotes are internal users' work, on projects they may see (read) or edit (create, delete, email). */
const INTERNAL: Access = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Quote'];
const CREATE_ERRORS = ['ResourceNotFound', 'ReferenceNotFound', 'NoPriceForLanguagePair', 'AnalysisNotFinished'] as const;
const CREATE_DESCRIPTION =
  'Prices a finished analysis of the project with a price list (docs/analysis.md, "Quotes"): per language part and workflow step, ' +
  'the weighted units (by the net rate scheme: the request’s, else the analysis’s) times the step’s price, at least the price set’s minimum price per part; ' +
  'the total is rounded half up to the currency’s minor units. ';

/** Quote operations (docs/analysis.md, "Quotes"), routes relative to `/api2`. */
export function quotesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v2/quotes',
      {
        config: { access: INTERNAL, errors: [...CREATE_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'createQuoteV2',
          summary: 'Create quote',
          description:
            CREATE_DESCRIPTION +
            'Either workflowSettings[].units or units must be sent for billingUnit "Hour" (hours per analysis language part).',
          body: CreateQuoteV2Body,
          response: { 201: QuoteV2Dto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const quote = await createQuote(deps, caller, request.body, 'v2');
        return reply.code(201).send(toQuoteV2Dto(quote, await quoteViewContext(db, caller.organizationId, [quote])));
      },
    );

    app.post(
      '/v1/quotes',
      {
        config: { access: INTERNAL, errors: [...CREATE_ERRORS, 'HourBillingNotSupported'] },
        schema: {
          tags: TAGS,
          operationId: 'createQuote',
          summary: 'Create quote (deprecated)',
          deprecated: true,
          description: CREATE_DESCRIPTION + 'Deprecated: use POST /api2/v2/quotes. Price lists billed by the Hour are refused (400).',
          body: CreateQuoteV1Body,
          response: { 201: QuoteDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const quote = await createQuote(deps, caller, request.body, 'v1');
        return reply.code(201).send(toQuoteDto(quote, await quoteViewContext(db, caller.organizationId, [quote])));
      },
    );

    app.post(
      '/v1/quotes/email',
      {
        config: { access: INTERNAL, errors: ['ResourceNotFound', 'QuoteWithoutProvider', 'MailNotConfigured'] },
        schema: {
          tags: TAGS,
          operationId: 'emailQuotes',
          summary: 'Email quotes',
          description:
            'Sends each quote to its provider (a user: their email; a vendor: its owner of your work, else its ADMINs) over the installation’s SMTP server (OPENTMS_SMTP_URL; without one: 400 MailNotConfigured). ' +
            'Every quote needs a provider (400 otherwise, and nothing is sent). Subject and body take the email template placeholders ({{quote.name}}, {{quote.totalPrice}}, {{quote.currency}}, {{project.name}}, {{recipient.fullName}}, …).',
          body: EmailQuotesBody,
          response: { 200: EmailQuotesResponse },
        },
      },
      async (request) => emailQuotes(deps, callerOf(request), request.body),
    );

    app.get(
      '/v1/quotes/:quoteUid',
      {
        config: { access: INTERNAL },
        schema: { tags: TAGS, operationId: 'get_2', summary: 'Get quote', params: QuoteUidParams, response: { 200: QuoteDto } },
      },
      async (request) => {
        const caller = callerOf(request);
        const { quote } = await requireQuote(deps, caller, request.params.quoteUid, 'view');
        return toQuoteDto(quote, await quoteViewContext(db, caller.organizationId, [quote]));
      },
    );

    app.delete(
      '/v1/quotes/:quoteUid',
      {
        config: { access: INTERNAL },
        schema: {
          tags: TAGS,
          operationId: 'deleteQuote',
          summary: 'Delete quote',
          description: 'Needs edit rights on the quote’s project (the quote-edit project permission).',
          params: QuoteUidParams,
        },
      },
      async (request, reply) => {
        await deleteQuote(deps, callerOf(request), request.params.quoteUid);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projects/:projectUid/quotes',
      {
        config: { access: onProject(INTERNAL, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'getQuotesForProject',
          summary: 'List quotes',
          description: 'The project’s quotes, oldest first.',
          params: ProjectUidParams,
          querystring: QuotesQuery,
          response: { 200: QuotePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { project } = projectAccessOf(request);
        const page = request.query;
        const { rows, total } = await listProjectQuotes(db, project.id, pageWindow(page));
        const ctx = await quoteViewContext(db, caller.organizationId, rows);
        return toPage(
          rows.map((r) => toQuoteDto(r, ctx)),
          total,
          page,
        );
      },
    );
  };
}
