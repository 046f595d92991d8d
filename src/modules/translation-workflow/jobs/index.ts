export { assertJobCapacity } from './job-create.js';
export { importJobSource, importJobTask } from './job-import.task.js';
export { jobFileHashes } from './jobs.repository.js';
export { jobsRoutes } from './jobs.routes.js';
export { segmentUnit } from './unit-segments.js';
export { setJobStatus } from './job-edit.js';
export { findPreviousLevelJob } from './jobs.repository.js';
