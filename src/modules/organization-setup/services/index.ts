export { servicesRoutes } from './services.routes.js';
