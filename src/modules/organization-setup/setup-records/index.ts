export {
  NamedReference,
  UidReference,
  WorkflowStepReference,
  inWorkflowOrder,
  namedReferences,
  referenceNotFound,
  resolveReferences,
  workflowStepReferences,
} from './record-references.js';
export { setupRecordsRoutes } from './setup-records.routes.js';
export { resourceReferenceViews } from './resource-reference-views.js';
export type { ResourceReferenceRow } from './resource-reference-views.js';
export {
  idReferenceNotFound,
  isNumericId,
  REFERENCE_LABEL,
  resolveReference,
  resolveReferenceList,
  resolveResourceReferences,
} from './id-references.js';
export type { ResourceReferenceColumns, SetupReferenceKind } from './id-references.js';
export {
  NetRateSchemeReference,
  PriceListReference,
  clearNetRateSchemeReferences,
  clearPriceListReferences,
  netRateSchemeReferences,
  priceListReferences,
  pricingReferenceColumn,
  pricingReferenceLookup,
  resolvePricingReference,
  storedFinancialSettings,
} from './pricing-references.js';
export type { PricingReferenceKind, StoredFinancialSettings } from './pricing-references.js';
