import { Type } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, PathUid } from '../../../http/schema-helpers.js';

/**
 * Wire shapes of price lists (spec definitions TranslationPriceList*, TranslationPriceSet*,
 * TranslationPriceDto, WorkflowStepDto). Money travels as JSON numbers, as the spec says
 * (`format: double`), but is stored and computed as decimals (src/domain/pricing/decimal.ts): a
 * request's amount is read through its shortest round-trip text, and may also be sent as a string
 * holding the decimal (`"12.3456"`), which is read as written.
 */

/** Most language pairs (price sets) one price list holds; adding or importing beyond it is a 400. */
export const MAX_PRICE_SETS = 10_000;
/** Most languages on each side of one request (TranslationPriceSetCreateDto: maxItems 100). */
export const MAX_LANGUAGES = 100;

const Name = Type.String({ minLength: 1, maxLength: 255, description: 'Unique in the organization, ignoring case; trimmed.' });
const Language = Type.String({ minLength: 1, maxLength: 32 });
const Languages = (description: string) => Type.Array(Language, { maxItems: MAX_LANGUAGES, description });
/** An amount of money: a JSON number, or a string holding the decimal; >= 0, at most 4 decimal places and 15 significant digits. */
export const Amount = Type.Union([Type.Number(), Type.String({ maxLength: 64 })], {
  description:
    'A decimal amount >= 0 with at most 4 decimal places and 15 significant digits: a JSON number, or a string holding the decimal (read exactly as written).',
});

/** The spec's billing units (BILLING_UNITS of the table types). */
const BillingUnit = Type.Union([Type.Literal('Character'), Type.Literal('Word'), Type.Literal('Page'), Type.Literal('Hour')]);

/** Spec definition `WorkflowStepDto`. */
export const WorkflowStepDto = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    abbr: Type.String(),
    order: Type.Integer(),
    lqaEnabled: Type.Boolean(),
  },
  { title: 'WorkflowStepDto' },
);

/** Spec definition `TranslationPriceDto`. */
export const TranslationPriceDto = Type.Object(
  { workflowStep: WorkflowStepDto, price: Type.Number({ description: 'Per billing unit, in the list currency.' }) },
  { title: 'TranslationPriceDto' },
);

/** Spec definition `TranslationPriceSetDto`. */
export const TranslationPriceSetDto = Type.Object(
  {
    sourceLang: Type.String(),
    targetLang: Type.String(),
    minimumPrice: Type.Number(),
    prices: Type.Array(TranslationPriceDto, {
      description: 'One per workflow step of the organization, in workflow order (0 where none was set).',
    }),
  },
  { title: 'TranslationPriceSetDto' },
);

/** Spec definition `TranslationPriceListDto`. */
export const TranslationPriceListDto = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    name: Type.String(),
    currencyCode: Type.String(),
    billingUnit: BillingUnit,
    priceSets: Type.Optional(
      Type.Array(TranslationPriceSetDto, {
        description: 'Every language pair, by source then target language (left out of the list of price lists).',
      }),
    ),
  },
  { title: 'TranslationPriceListDto' },
);

export const PriceListPage = PageOf(TranslationPriceListDto, 'PageDtoTranslationPriceListDto');
export const PriceSetPage = PageOf(TranslationPriceSetDto, 'PageDtoTranslationPriceSetDto');

/** Spec definition `TranslationPriceSetListDto`. */
export const TranslationPriceSetListDto = Type.Object(
  { priceSets: Type.Array(TranslationPriceSetDto) },
  { title: 'TranslationPriceSetListDto' },
);

/** Spec definition `TranslationPriceListCreateDto` (create and edit). */
export const PriceListBody = Type.Object({
  name: Name,
  currencyCode: Type.String({ minLength: 1, maxLength: 8, description: 'ISO 4217 code (any case; stored upper case).' }),
  billingUnit: Type.Optional(
    Type.Union([Type.Literal('Word'), Type.Literal('Page'), Type.Literal('Character'), Type.Literal('Hour')], {
      description: 'Default: Word on create; left out on edit: unchanged.',
    }),
  ),
});

/** The body of clonePriceList (OpenTMS design; the 2025 operation is not in the published spec): optional, as is its `name`. */
export const ClonePriceListBody = Nullable(
  Type.Object({
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'The copy\'s name; left out: "<name> (copy)", "<name> (copy 2)", …' }),
    ),
  }),
);

/** Spec definition `TranslationPriceSetCreateDto`. */
export const AddLanguagePairsBody = Type.Object({
  sourceLanguages: Type.Array(Language, { minItems: 1, maxItems: MAX_LANGUAGES }),
  targetLanguages: Type.Array(Language, { minItems: 1, maxItems: MAX_LANGUAGES }),
});

/** Spec definition `TranslationPriceSetBulkDeleteDto`. */
export const DeleteLanguagePairsBody = Type.Object({
  sourceLanguages: Type.Optional(Languages('Pairs from these languages; left out or empty: from any.')),
  targetLanguages: Type.Optional(Languages('Pairs into these languages; left out or empty: into any.')),
});

/** Spec definition `TranslationPriceSetBulkMinimumPricesDto`. */
export const MinimumPricesBody = Type.Object({
  sourceLanguages: Type.Optional(Languages('Pairs from these languages; left out or empty: from any.')),
  targetLanguages: Type.Optional(Languages('Pairs into these languages; left out or empty: into any.')),
  minimumPrice: Amount,
});

/** Spec definition `TranslationPriceSetBulkPricesDto`. */
export const PricesBody = Type.Object({
  sourceLanguages: Type.Optional(Languages('Pairs from these languages; left out or empty: from any.')),
  targetLanguages: Type.Optional(Languages('Pairs into these languages; left out or empty: into any.')),
  price: Amount,
  workflowSteps: Type.Optional(
    Type.Array(Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }), {
      maxItems: 15,
      description: 'Workflow steps by id (or uid); left out or empty: every workflow step of the organization.',
    }),
  ),
});

export const PriceSetListQuery = Type.Object({
  ...PagingQuery,
  sourceLanguages: Type.Optional(Languages('Only pairs from these languages')),
  targetLanguages: Type.Optional(Languages('Only pairs into these languages')),
});

export const PriceListUidParams = Type.Object({ priceListUid: PathUid });
export const PriceSetParams = Type.Object({
  priceListUid: PathUid,
  sourceLanguage: Type.String({ minLength: 1, maxLength: 32 }),
  targetLanguage: Type.String({ minLength: 1, maxLength: 32 }),
});
