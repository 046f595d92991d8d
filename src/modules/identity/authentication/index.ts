export { authRoutes } from './auth.routes.js';
export { createAuthenticator } from './authenticate.js';
export { startCredentialCache } from './credential-cache.js';
export type { RunningCredentialCache } from './credential-cache.js';
