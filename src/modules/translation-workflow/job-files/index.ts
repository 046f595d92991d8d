export { jobFilesRoutes } from './job-files.routes.js';
export { AsyncRequestWrapperV2 } from './job-files.schemas.js';
export { targetFileTask } from './target-file.task.js';
