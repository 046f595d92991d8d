export { dueDateSchemesRoutes } from './due-date-schemes.routes.js';
