export { authRoutes } from './auth.routes.js';
export { createAuthenticator } from './authenticate.js';
