/**
 * QA runs and warnings (docs/qa-runs-and-warnings.md): running QA on jobs and segments (the
 * engine in the thread pool), the stored last run of each job, ignored warnings and checks, and
 * the delivery gate the composition root registers as the kernel's job status guard.
 */
export { qualityAssuranceRoutes } from './quality-assurance.routes.js';
export { qaDeliveryGate } from './delivery-gate.js';
export { loadQaSegments, qaJobOf, segmentIndexOf, segmentWireId } from './qa-segments.js';
export type { LoadedQaSegment, QaJob } from './qa-segments.js';
export { currentWarningId, ignoredStateOf, lastQaRun, runJobQa } from './qa-runs.service.js';
export type { QaRunOutcome, StoredQaWarning } from './qa-runs.service.js';
