export { API_TOKEN_TOUCH_MS, findLiveApiToken, looksLikeApiToken, touchApiToken } from './api-tokens.repository.js';
export { apiTokensRoutes } from './api-tokens.routes.js';
export { createLoginToken, findLiveLoginToken, revokeLoginToken, revokeUserLoginTokens } from './login-tokens.repository.js';
export { decoyHash, generatePassword, hashPassword, verifyPassword } from './passwords.js';
