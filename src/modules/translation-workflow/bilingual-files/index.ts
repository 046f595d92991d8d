/**
 * Bilingual files (docs/bilingual-files.md): jobs downloaded as MXLIFF, XLIFF or TMX, MXLIFF
 * uploaded back segment by segment, compared, converted and previewed.
 */
export { bilingualFilesRoutes } from './bilingual-files.routes.js';
export { jobOfBilingualFile } from './bilingual-files.service.js';
