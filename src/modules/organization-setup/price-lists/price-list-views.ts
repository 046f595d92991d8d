import type { Static } from 'typebox';
import { decimalToNumber, parseDecimal } from '../../../domain/pricing/decimal.js';
import type { Db } from '../../../queue/types.js';
import { listPriceSets, organizationWorkflowSteps, pricesOf } from './price-lists.repository.js';
import type { PairFilter, PriceListRow, PriceSetRow, WorkflowStepView } from './price-lists.repository.js';
import type { TranslationPriceListDto, TranslationPriceSetDto } from './price-lists.schemas.js';

type PriceListDto = Static<typeof TranslationPriceListDto>;
type PriceSetDto = Static<typeof TranslationPriceSetDto>;

/** A stored decimal string as the JSON number the spec shows (exact: amounts have at most 15 significant digits). */
export const moneyNumber = (text: string): number => decimalToNumber(parseDecimal(text));

/**
 * Price sets as the spec shows them: each with a price for every workflow step of the
 * organization, in workflow order; a step without a stored price (one added after the set) shows 0.
 */
export function toPriceSetDtos(sets: PriceSetRow[], steps: WorkflowStepView[], prices: Map<string, Map<string, string>>): PriceSetDto[] {
  return sets.map((set) => {
    const own = prices.get(String(set.id));
    return {
      sourceLang: set.sourceLang,
      targetLang: set.targetLang,
      minimumPrice: moneyNumber(set.minimumPrice),
      prices: steps.map((step) => ({ workflowStep: step, price: moneyNumber(own?.get(step.id) ?? '0') })),
    };
  });
}

/** The list's fields without its sets (the list of price lists). */
export function toPriceListSummary(row: PriceListRow): PriceListDto {
  return {
    id: String(row.id),
    uid: row.uid,
    dateCreated: row.createdAt,
    name: row.name,
    currencyCode: row.currencyCode,
    billingUnit: row.billingUnit,
  };
}

/** The list with every price set. */
export async function toPriceListDto(db: Db, row: PriceListRow): Promise<PriceListDto> {
  const [steps, { rows: sets }, prices] = await Promise.all([
    organizationWorkflowSteps(db, row.organizationId),
    listPriceSets(db, row.id, {}),
    pricesOf(db, row.id),
  ]);
  return { ...toPriceListSummary(row), priceSets: toPriceSetDtos(sets, steps, prices) };
}

/** Price sets of the list matching `filter`, as DTOs. */
export async function priceSetDtosOf(db: Db, row: PriceListRow, filter: PairFilter): Promise<PriceSetDto[]> {
  const { rows: sets } = await listPriceSets(db, row.id, filter);
  const [steps, prices] = await Promise.all([
    organizationWorkflowSteps(db, row.organizationId),
    pricesOf(
      db,
      row.id,
      sets.map((s) => s.id),
    ),
  ]);
  return toPriceSetDtos(sets, steps, prices);
}
