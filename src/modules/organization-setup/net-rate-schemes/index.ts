export { netRateSchemesRoutes } from './net-rate-schemes.routes.js';
