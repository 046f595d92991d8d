import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { NetRateSchemeReference, PriceListReference, WorkflowStepReference } from '../../organization-setup/setup-records/index.js';
import { ProviderReference } from '../../translation-workflow/kernel/index.js';

/**
 * Wire shapes of quotes (spec definitions QuoteCreateV2Dto, QuoteWorkflowSettingDto, QuoteUnitsDto,
 * QuoteV2Dto, QuoteDto, EmailQuotesRequestDto, EmailQuotesResponseDto, PageDtoQuoteDto). Body
 * fields take no null (a null is dropped as absent).
 */

const Key = Type.String({ minLength: 1, maxLength: 64 });
/** Spec `IdReference`: the numeric id (a number or a string) or, as scripts send it, the uid. */
const IdRef = Type.Object({ id: Type.Union([Key, Type.Integer({ minimum: 1 })]) });
const UidRef = Type.Object({ uid: Key });

/** Spec `ProviderReference` as a request gives it: USER or VENDOR, by `id` or `uid`. */
const ProviderInput = Type.Object({
  type: Type.Union([Type.Literal('USER'), Type.Literal('VENDOR')]),
  id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 })])),
  uid: Type.Optional(Type.String({ maxLength: 64 })),
});

/** Spec `QuoteUnitsDto`: the hours of one language part of the analysis (price lists billed by the Hour). */
const QuoteUnits = Type.Object({
  analyseLanguagePart: IdRef,
  value: Type.Optional(
    Type.Union([Type.Number({ minimum: 0 }), Type.String({ maxLength: 40 })], {
      description: 'Hours, at most 4 decimals; a JSON number or a string holding the decimal. Left out: 0.',
    }),
  ),
});
export type QuoteUnits = Static<typeof QuoteUnits>;

const common = {
  name: Type.String({ maxLength: 255, description: 'Trimmed; empty: "Quote of <analysis name>".' }),
  project: UidRef,
  analyse: Type.Object(IdRef.properties, { description: 'A finished analysis (status OK) of the project.' }),
  priceList: IdRef,
  netRateScheme: Type.Optional(
    Type.Object(IdRef.properties, { description: "Left out: the analysis's net rate scheme, or none (no weighting)." }),
  ),
  provider: Type.Optional(Type.Object(ProviderInput.properties, { description: "Left out: the analysis's provider, if it has one." })),
};

/** Spec `QuoteCreateV2Dto`. */
export const CreateQuoteV2Body = Type.Object({
  ...common,
  workflowSettings: Type.Optional(
    Type.Array(
      Type.Object({
        workflowStep: IdRef,
        units: Type.Optional(Type.Array(QuoteUnits, { maxItems: 100 })),
      }),
      {
        maxItems: 50,
        description:
          "The workflow steps to price (the organization's steps, by id or uid); left out: the project's workflow steps, or without any, the steps the price list prices. `units`: the hours of the step per language part (Hour price lists).",
      },
    ),
  ),
  units: Type.Optional(
    Type.Array(QuoteUnits, {
      maxItems: 1000,
      description:
        'Hours per language part for every workflow step (Hour price lists; a step’s own `units` win). Ignored for other billing units.',
    }),
  ),
  additionalSteps: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      maxItems: 100,
      description: "Names of the organization's additional workflow steps (GET /api2/v1/additionalWorkflowSteps); they carry no price.",
    }),
  ),
});
export type CreateQuoteV2Body = Static<typeof CreateQuoteV2Body>;

/** The deprecated v1 create: the v2 body without hours and additional steps (Hour price lists are refused). */
export const CreateQuoteV1Body = Type.Object({
  ...common,
  workflowSettings: Type.Optional(Type.Array(Type.Object({ workflowStep: IdRef }), { maxItems: 50 })),
});
export type CreateQuoteV1Body = Static<typeof CreateQuoteV1Body>;

/** Spec `EmailQuotesRequestDto`. */
export const EmailQuotesBody = Type.Object({
  quotes: Type.Array(UidRef, { minItems: 1, maxItems: 100 }),
  subject: Type.String({
    minLength: 1,
    maxLength: 998,
    description:
      'Placeholders {{quote.name}}, {{quote.totalPrice}}, {{quote.currency}}, {{quote.status}}, {{project.name}}, {{recipient.fullName}}, … are filled in per quote.',
  }),
  body: Type.String({ maxLength: 100_000, description: 'Plain text; the same placeholders as the subject.' }),
  cc: Type.Optional(Type.String({ maxLength: 2000, description: 'Comma-separated addresses.' })),
  bcc: Type.Optional(Type.String({ maxLength: 2000, description: 'Comma-separated addresses.' })),
});
export type EmailQuotesBody = Static<typeof EmailQuotesBody>;

/** Spec `EmailQuotesResponseDto`. */
export const EmailQuotesResponse = Type.Object(
  { recipients: Type.Array(Type.String(), { description: 'The providers’ addresses the quotes went to (cc and bcc left out).' }) },
  { title: 'EmailQuotesResponseDto' },
);

export const QuoteUidParams = Type.Object({ quoteUid: Key });
export const QuotesQuery = Type.Object(PagingQuery);

const quoteFields = {
  id: Type.Integer(),
  uid: Type.String(),
  name: Type.String(),
  status: Type.Union([
    Type.Literal('APPROVED'),
    Type.Literal('DECLINED'),
    Type.Literal('DRAFT'),
    Type.Literal('FOR_APPROVAL'),
    Type.Literal('NEW'),
  ]),
  currency: Type.String(),
  billingUnit: Type.Union([Type.Literal('Character'), Type.Literal('Word'), Type.Literal('Page'), Type.Literal('Hour')]),
  createdBy: Nullable(UserReference),
  dateCreated: Type.String({ format: 'date-time' }),
  totalPrice: Type.Number({ description: "Rounded half up to the currency's minor units." }),
  netRateScheme: Type.Optional(NetRateSchemeReference),
  priceList: Type.Optional(PriceListReference),
  workflowStepList: Type.Array(WorkflowStepReference),
  provider: Type.Optional(ProviderReference),
  quoteType: Type.Union([Type.Literal('BUYER'), Type.Literal('PROVIDER')], {
    description: 'PROVIDER when the quote has a provider (what the work costs with them), else BUYER.',
  }),
  editable: Type.Boolean(),
  outdated: Type.Boolean({ description: 'True once the analysis it was made from is gone or recalculated.' }),
};

/** Spec `QuoteDto`. */
export const QuoteDto = Type.Object(quoteFields, { title: 'QuoteDto' });
/** Spec `QuoteV2Dto`. */
export const QuoteV2Dto = Type.Object(
  { ...quoteFields, additionalSteps: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })) },
  { title: 'QuoteV2Dto' },
);
export const QuotePage = PageOf(QuoteDto, 'PageDtoQuoteDto');
