import type { AppDeps, AppTaskHandler } from './deps.js';
import { callbackTask, failAsyncRequest } from './modules/integration/async-requests/index.js';
import { deliverTask } from './modules/integration/webhooks/index.js';
import { tmCleanedExportTask, tmClearTask, tmExportTask, tmImportTask } from './modules/language-resources/translation-memories/index.js';
import { termImportTask } from './modules/language-resources/term-bases/index.js';
import { analysisTask } from './modules/quoting/analyses/index.js';
import { preTranslateTask } from './modules/translation-workflow/pre-translation/index.js';
import { setJobStatusGuard } from './modules/translation-workflow/kernel/index.js';
import { qaDeliveryGate } from './modules/translation-workflow/quality-assurance/index.js';
import { qualityEvaluationTask } from './modules/translation-workflow/quality-evaluation/index.js';
import { targetFileTask } from './modules/translation-workflow/job-files/index.js';
import { updateSourceTask, updateTargetTask } from './modules/translation-workflow/job-updates/index.js';
import { importJobTask } from './modules/translation-workflow/jobs/index.js';
import { createFromTemplateTask } from './modules/translation-workflow/projects/index.js';
import { createTaskRegistry } from './queue/queue.js';
import type { TaskKind, TaskRecord, TaskRegistry } from './queue/types.js';

/** The kinds the app enqueues (`test.` kinds belong to the queue's own tests). */
type AppTaskKind = Exclude<TaskKind, `test.${string}`>;

/**
 * The composition root of background work: one handler for every task kind the modules declare
 * (each module adds its kinds to `TaskPayloads` beside its handler). A kind declared without a
 * handler here does not compile.
 */
const HANDLERS: { readonly [K in AppTaskKind]: AppTaskHandler<K> } = {
  'webhook.deliver': deliverTask,
  'async.callback': callbackTask,
  'job.import': importJobTask,
  'job.targetFile': targetFileTask,
  'job.updateSource': updateSourceTask,
  'job.updateTarget': updateTargetTask,
  'project.createFromTemplate': createFromTemplateTask,
  'tm.import': tmImportTask,
  'tm.export': tmExportTask,
  'tm.exportCleaned': tmCleanedExportTask,
  'tm.clear': tmClearTask,
  'termBase.import': termImportTask,
  'analysis.run': analysisTask,
  'preTranslate.run': preTranslateTask,
  'qualityEvaluation.run': qualityEvaluationTask,
};

/** Every task handler the worker runs. */
export function buildTaskRegistry(): TaskRegistry<AppDeps> {
  // Tasks that move job statuses (pre-translation completing a job) ask QA's delivery gate too.
  setJobStatusGuard(qaDeliveryGate);
  return createTaskRegistry<AppDeps>(Object.values(HANDLERS));
}

/**
 * What the worker does, besides the handler's own `onFinalFailure`, when a task fails for good:
 * the async-requests module records `errorCode`/`errorDesc` on the task's async request.
 */
export function buildTaskFailureHook(deps: AppDeps): (task: TaskRecord, error: unknown) => Promise<void> {
  return async (task, error) => {
    if (task.asyncRequestId) await failAsyncRequest(deps, task.asyncRequestId, error);
  };
}
