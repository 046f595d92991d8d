import { estimateJob } from '../../../domain/quality-evaluation/index.js';
import type { QeContext, QeJobResult, QeSegmentInput } from '../../../domain/quality-evaluation/index.js';

/**
 * The thread entry of an evaluation (docs/quality-evaluation.md, "Evaluating"): the estimator over a
 * job part's segments is CPU work (about 15,000 segments a second on one core), so it runs in the
 * shared thread pool, never on the event loop that serves requests when the API and a worker share
 * a process. Pure: segments and QA warning types in, the estimate out.
 */
export interface QeThreadInput {
  inputs: QeSegmentInput[];
  context: QeContext;
}

export function estimateInThread(input: QeThreadInput): QeJobResult {
  return estimateJob(input.inputs, input.context);
}
