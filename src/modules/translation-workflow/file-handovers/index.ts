export { fileHandoversRoutes } from './file-handovers.routes.js';
