import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Table types of quotes (migration 2026-11-25T1200_quotes; docs/analysis.md, "Quotes"). */

export const QUOTE_STATUSES = ['NEW', 'DRAFT', 'FOR_APPROVAL', 'APPROVED', 'DECLINED'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export interface QuotesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  projectId: Id;
  /** Null once the analysis is purged (the quote keeps its figures in `breakdown`). */
  analysisId: Id | null;
  priceListId: Id | null;
  /** The scheme the quote weighed the analysis with (the request's, else the analysis's), or none. */
  netRateSchemeId: Id | null;
  providerUserId: Id | null;
  providerVendorId: Id | null;
  name: string;
  status: QuoteStatus;
  /** ISO 4217 code of the price list when the quote was made. */
  currency: string;
  /** Word, Character, Page or Hour: the price list's billing unit when the quote was made. */
  billingUnit: string;
  /** Decimal string rounded to the currency's minor units ("1.75"). */
  totalPrice: string;
  /** JSON array of the ids of the organization's workflow steps the quote prices, in order. */
  workflowSteps: Generated<string>;
  /** JSON array of {workflowStepId (null: every step), partId, value (decimal string)}: the hours of an Hour price list. */
  units: Generated<string>;
  /** JSON array of {id (the step's uid), name} of the additional workflow steps, as they were named when the quote was made. */
  additionalSteps: Generated<string>;
  /** JSON QuoteResult (src/domain/pricing/quote.ts): per language part and workflow step, units, price and amount. */
  breakdown: string;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface QuoteTables {
  quotes: QuotesTable;
}
