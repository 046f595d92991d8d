export { ensureFirstAdmin, ensureSysAdmin } from './first-start.js';
export { organizationsRoutes } from './organization-admin.routes.js';
