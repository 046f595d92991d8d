export { verifyClientSecret } from './client-secrets.js';
export { findServiceAccountByClientId, productsOf } from './service-accounts.repository.js';
export { serviceAccountsRoutes } from './service-accounts.routes.js';
