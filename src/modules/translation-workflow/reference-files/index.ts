export { referenceFilesRoutes } from './reference-files.routes.js';
