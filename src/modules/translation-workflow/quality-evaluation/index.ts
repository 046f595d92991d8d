/**
 * Quality evaluation (docs/quality-evaluation.md): evaluateQuality and the deprecated evaluate
 * (async, the estimator of domain/quality-evaluation on the worker), qeWarnings and segmentWarnings.
 */
export { qualityEvaluationRoutes } from './quality-evaluation.routes.js';
export { qualityEvaluationTask } from './quality-evaluation.task.js';
