export { toAsyncRequestDtos } from './async-request-views.js';
export type { AsyncRequestRow } from './async-requests.repository.js';
export { asyncRequestsRoutes } from './async-requests.routes.js';
export { completeAsyncRequest, createAsyncRequest, failAsyncRequest, reportProgress } from './async-requests.service.js';
export { callbackTask } from './callback.task.js';
export { AsyncRequestSchema, AsyncRequestV2Schema, AsyncRequestWrapper, AsyncRequestWrapperV2 } from './async-requests.schemas.js';
export { backgroundTasksSchema, lastBackgroundTask } from './last-background-task.js';
