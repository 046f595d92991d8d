export { segmentationRulesRoutes } from './segmentation-rules.routes.js';
export { assertSegmentationRuleIds, segmentationSrxForImport, segRuleReferencesOf } from './segmentation-rules.service.js';
export type { SegRuleReference } from './segmentation-rules.service.js';
