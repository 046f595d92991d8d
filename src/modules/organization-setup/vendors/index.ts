export { buyersRoutes } from './buyers.routes.js';
export { linkReferenceIds } from './vendors.repository.js';
export { vendorsRoutes } from './vendors.routes.js';
