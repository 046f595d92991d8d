/**
 * Term bases (docs/terminology.md): records so far; concepts, terms, import, export, search and
 * the job operations come next.
 */
export { termBasesRoutes } from './term-bases.routes.js';
export { termsRoutes } from './terms.routes.js';
export { TermBaseSchema } from './term-bases.schemas.js';
export { termImportTask } from './term-import.task.js';
export { termTransfersRoutes } from './term-transfer.routes.js';
export { termSearchRoutes } from './term-search.routes.js';
