export { customFileTypesRoutes } from './custom-file-types.routes.js';
export { customFileTypeFor } from './custom-file-types.service.js';
export type { CustomFileTypeChoice } from './custom-file-types.service.js';
export { compileFilenamePattern, matchesFilenamePattern } from './filename-pattern.js';
