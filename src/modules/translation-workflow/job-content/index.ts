export { jobContentRoutes } from './job-content.routes.js';
export { assertImported } from './job-content.service.js';
