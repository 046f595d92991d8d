export { projectTemplatesRoutes } from './project-templates.routes.js';
export { templateTransMemoriesRoutes } from './template-trans-memories.routes.js';
