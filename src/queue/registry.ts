import type { AppDeps } from '../deps.js';
import { failAsyncRequest } from '../modules/async-requests/async-requests.service.js';
import { callbackTask } from '../modules/async-requests/callback.task.js';
import { deliverTask } from '../modules/webhooks/deliver.task.js';
import { importJobTask } from '../modules/jobs/job-import.task.js';
import { targetFileTask } from '../modules/job-files/target-file.task.js';
import { updateSourceTask } from '../modules/job-updates/update-source.task.js';
import { updateTargetTask } from '../modules/job-updates/update-target.js';
import { createFromTemplateTask } from '../modules/projects/create-from-template.task.js';
import { createTaskRegistry } from './queue.js';
import type { TaskRecord, TaskRegistry } from './types.js';

/**
 * Every task handler the worker runs, in one list: a module that enqueues a new kind of task adds
 * its handler here (an enqueued kind without a handler fails with "no handler is registered").
 */
export function buildTaskRegistry(_deps: AppDeps): TaskRegistry {
  return createTaskRegistry([
    deliverTask,
    callbackTask,
    importJobTask,
    targetFileTask,
    updateSourceTask,
    updateTargetTask,
    createFromTemplateTask,
  ]);
}

/**
 * What the worker does, besides the handler's own `onFinalFailure`, when a task fails for good:
 * the place for the async-requests module to record `errorCode`/`errorDesc` on the task's
 * async request (`task.asyncRequestId`).
 */
export function buildTaskFailureHook(deps: AppDeps): (task: TaskRecord, error: unknown) => Promise<void> {
  return async (task, error) => {
    if (task.asyncRequestId) await failAsyncRequest(deps, task.asyncRequestId, error);
  };
}
