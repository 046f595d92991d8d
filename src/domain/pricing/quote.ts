import { errors } from '../../errors/index.js';
import { totalOf } from '../analysis/bands.js';
import type { Tallies } from '../analysis/bands.js';
import { CHARACTERS_PER_PAGE, discounted } from '../analysis/counts-dto.js';
import { ZERO, addDecimals, compareDecimals, formatDecimal, multiplyDecimals, parseDecimal, roundHalfUp } from './decimal.js';
import type { Decimal } from './decimal.js';

/**
 * The price of a quote (docs/analysis.md, "Quotes"): an analysis's figures, weighted by a net rate
 * scheme, times the prices of a price list. Pure, and exact: every amount is a decimal
 * (./decimal.ts), never a binary float.
 *
 * For each language part of the analysis and each workflow step of the quote:
 * - units: Word = weighted words (`discountedData.all.words`), Character = weighted characters,
 *   Page = weighted characters / 1,800 rounded half up to 2 decimals (the analysis's normalized
 *   pages), Hour = the hours the request gave for that step and part (0 when none);
 *   the weighting uses the scheme's rates for that workflow step when it has its own, else its
 *   rates; no scheme, no weighting;
 * - amount = units × the price of the step in the price set of the part's language pair (a step
 *   without a price costs nothing; a pair without a price set is 400 naming it).
 * A part costs the sum of its steps' amounts, and at least the price set's minimum price; the
 * total is the sum of the parts, rounded half up to the currency's minor units.
 */

export const QUOTE_BILLING_UNITS = ['Word', 'Character', 'Page', 'Hour'] as const;
export type QuoteBillingUnit = (typeof QUOTE_BILLING_UNITS)[number];

/** Net rates: band field (`tm100`, `repetition`, …) -> percent as a decimal string. */
export type Rates = Readonly<Record<string, string>>;

export interface QuoteNetRates {
  rates: Rates;
  /** The scheme's own rates for some workflow steps (by workflow step id). */
  byStep?: Readonly<Record<string, Rates>>;
}

export interface QuotePart {
  id: string;
  sourceLang: string;
  targetLang: string;
  /** The part's tallies (unweighted); null reads as nothing counted. */
  tallies: Tallies | null;
}

export interface QuotePriceSet {
  sourceLang: string;
  targetLang: string;
  /** Decimal string. */
  minimumPrice: string;
  /** Workflow step id -> price per billing unit (decimal string). */
  prices: Readonly<Record<string, string>>;
}

export interface QuoteInput {
  billingUnit: QuoteBillingUnit;
  /** ISO 4217 code: it decides the total's decimals. */
  currency: string;
  parts: readonly QuotePart[];
  /** The workflow steps priced, in order. */
  workflowStepIds: readonly string[];
  netRates: QuoteNetRates | null;
  priceSets: readonly QuotePriceSet[];
  /** Hour: the hours of a workflow step and part, or null for none. */
  hours?: (workflowStepId: string, partId: string) => Decimal | null;
}

export interface QuoteStepLine {
  workflowStepId: string;
  units: string;
  price: string;
  amount: string;
}

export interface QuotePartLine {
  partId: string;
  sourceLang: string;
  targetLang: string;
  steps: QuoteStepLine[];
  /** The steps' amounts added. */
  sum: string;
  minimumPrice: string;
  /** max(sum, minimumPrice). */
  amount: string;
}

export interface QuoteResult {
  billingUnit: QuoteBillingUnit;
  currency: string;
  /** Digits after the point of the currency (2 for EUR, 0 for JPY). */
  fractionDigits: number;
  parts: QuotePartLine[];
  /** The parts' amounts added and rounded half up to `fractionDigits`, with exactly that many digits. */
  totalPrice: string;
}

/** The minor-unit digits of an ISO 4217 currency (EUR 2, JPY 0, BHD 3); 2 for a code Intl does not know. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A language code as price sets and analyses compare them: lower case, `_` for `-`. */
const langKey = (code: string) => code.trim().toLowerCase().replace(/-/g, '_');

/**
 * The weighted units of one part's tallies for a billing unit other than Hour: weighted words
 * (2 decimals), weighted characters, or normalized pages (weighted characters / 1,800, rounded
 * half up to 2 decimals).
 */
export function weightedUnits(billingUnit: Exclude<QuoteBillingUnit, 'Hour'>, tallies: Tallies, rates: Rates | null): Decimal {
  const total = totalOf(rates ? discounted(tallies, rates) : tallies);
  switch (billingUnit) {
    case 'Word':
      return { units: BigInt(total.wordHundredths), scale: 2 };
    case 'Character':
      return { units: BigInt(total.characters), scale: 0 };
    case 'Page': {
      // characters / 1800 in hundredths, half up: floor((c × 100 × 2 + 1800) / 3600)
      const hundredths = (BigInt(total.characters) * 200n + BigInt(CHARACTERS_PER_PAGE)) / BigInt(2 * CHARACTERS_PER_PAGE);
      return { units: hundredths, scale: 2 };
    }
  }
}

const ratesFor = (netRates: QuoteNetRates | null, workflowStepId: string): Rates | null =>
  netRates === null ? null : (netRates.byStep?.[workflowStepId] ?? netRates.rates);

export function computeQuote(input: QuoteInput): QuoteResult {
  const fractionDigits = currencyDigits(input.currency);
  const sets = new Map(input.priceSets.map((s) => [`${langKey(s.sourceLang)}\u0000${langKey(s.targetLang)}`, s]));
  let total: Decimal = ZERO;
  const parts: QuotePartLine[] = [];
  for (const part of input.parts) {
    const set = sets.get(`${langKey(part.sourceLang)}\u0000${langKey(part.targetLang)}`);
    if (!set) throw errors.NoPriceForLanguagePair({ sourceLang: part.sourceLang, targetLang: part.targetLang });
    const tallies = part.tallies ?? {};
    const steps: QuoteStepLine[] = [];
    let sum: Decimal = ZERO;
    for (const stepId of input.workflowStepIds) {
      const units =
        input.billingUnit === 'Hour'
          ? (input.hours?.(stepId, part.id) ?? ZERO)
          : weightedUnits(input.billingUnit, tallies, ratesFor(input.netRates, stepId));
      const price = parseDecimal(set.prices[stepId] ?? '0');
      const amount = multiplyDecimals(units, price);
      sum = addDecimals(sum, amount);
      steps.push({ workflowStepId: stepId, units: formatDecimal(units), price: formatDecimal(price), amount: formatDecimal(amount) });
    }
    const minimum = parseDecimal(set.minimumPrice);
    const amount = compareDecimals(sum, minimum) < 0 ? minimum : sum;
    total = addDecimals(total, amount);
    parts.push({
      partId: part.id,
      sourceLang: part.sourceLang,
      targetLang: part.targetLang,
      steps,
      sum: formatDecimal(sum),
      minimumPrice: formatDecimal(minimum),
      amount: formatDecimal(amount),
    });
  }
  return {
    billingUnit: input.billingUnit,
    currency: input.currency,
    fractionDigits,
    parts,
    totalPrice: formatDecimal(roundHalfUp(total, fractionDigits), fractionDigits),
  };
}
