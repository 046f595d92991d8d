export { jobUpdatesRoutes } from './job-updates.routes.js';
export { updateSourceTask } from './update-source.task.js';
export { updateTargetTask } from './update-target.js';
