export { languagesRoutes } from './languages.routes.js';
