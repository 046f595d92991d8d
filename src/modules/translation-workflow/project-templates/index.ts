export { projectTemplatesRoutes } from './project-templates.routes.js';
