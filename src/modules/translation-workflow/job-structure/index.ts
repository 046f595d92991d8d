export { jobRange } from './job-split.js';
export { jobStructureRoutes } from './job-structure.routes.js';
export { effectiveTexts, lastWorkflowLevel, loadSegmentVersions } from './segment-versions.js';
export type { SegmentVersions } from './segment-versions.js';
