export { workflowChangesRoutes } from './workflow-changes.routes.js';
