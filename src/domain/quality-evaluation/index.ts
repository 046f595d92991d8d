/** Quality evaluation's estimator: a documented heuristic, not a trained model (docs/quality-evaluation.md). */
export {
  BASE_SCORES,
  DEFAULT_PASS_THRESHOLD,
  ESTIMATOR_ID,
  LENGTH_BAND,
  QA_WEIGHTS,
  QE_SIGNALS,
  estimateJob,
  estimateSegment,
} from './estimator.js';
export type { QeContext, QeJobResult, QeSegmentInput, QeSegmentResult, QeSignal, QeWarning } from './estimator.js';
