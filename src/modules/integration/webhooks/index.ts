export { deliverTask } from './deliver.task.js';
export { webhookCallsRoutes } from './webhook-calls.routes.js';
export { emitEvent } from './webhook-calls.js';
export { webhooksRoutes } from './webhooks.routes.js';
