import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/**
 * Table types of net rate schemes and price lists (migration
 * 2026-11-25T1000_net_rate_schemes_and_price_lists; docs/analysis.md). Rates and money are
 * decimal strings ("12.5", "0.085"), never binary floats.
 */

export interface NetRateSchemesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  /** JSON object: band (`repetition`, `tm101`, … `if0`) -> percent as a decimal string. */
  rates: string;
  createdAt: Timestamp;
  createdById: Id | null;
}

/** A scheme's own rates for one workflow step. */
export interface NetRateSchemeStepsTable {
  id: Generated<Id>;
  netRateSchemeId: Id;
  workflowStepId: Id;
  /** JSON, as NetRateSchemesTable.rates. */
  rates: string;
}

export const BILLING_UNITS = ['Word', 'Character', 'Page', 'Hour'] as const;
export type BillingUnit = (typeof BILLING_UNITS)[number];

export interface PriceListsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  /** ISO 4217 code, upper case. */
  currencyCode: string;
  billingUnit: BillingUnit;
  createdAt: Timestamp;
  createdById: Id | null;
}

/** The prices of one language pair of a price list. */
export interface PriceSetsTable {
  id: Generated<Id>;
  priceListId: Id;
  sourceLang: string;
  targetLang: string;
  /** Decimal string in the list's currency. */
  minimumPrice: Generated<string>;
}

/** The price of one billing unit for one workflow step of a price set. */
export interface PriceSetPricesTable {
  priceSetId: Id;
  workflowStepId: Id;
  /** Decimal string in the list's currency, per billing unit. */
  price: string;
}

export interface PricingTables {
  netRateSchemes: NetRateSchemesTable;
  netRateSchemeSteps: NetRateSchemeStepsTable;
  priceLists: PriceListsTable;
  priceSets: PriceSetsTable;
  priceSetPrices: PriceSetPricesTable;
}
