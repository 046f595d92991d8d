/**
 * Quotes (docs/analysis.md, "Quotes"): a finished analysis priced with a price list and weighted
 * by a net rate scheme, and emailed to its provider.
 */
export { quotesRoutes } from './quotes.routes.js';
