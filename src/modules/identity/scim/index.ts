export { scimRoutes } from './scim.routes.js';
