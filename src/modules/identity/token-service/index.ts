export { tokenServiceRoutes } from './token-service.routes.js';
export { verifyAccessToken } from './verify-access-token.js';
