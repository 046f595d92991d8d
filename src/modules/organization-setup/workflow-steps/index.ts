export { additionalWorkflowStepsRoutes } from './additional-workflow-steps.routes.js';
export { workflowStepsRoutes } from './workflow-steps.routes.js';
