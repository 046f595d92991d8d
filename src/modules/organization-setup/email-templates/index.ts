export { emailTemplatesRoutes } from './email-templates.routes.js';
