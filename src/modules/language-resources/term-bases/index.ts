/**
 * Term bases (docs/terminology.md): records, concepts and terms, import and export, search and
 * browse, and what the translation workflow needs for the term bases of projects, templates and
 * jobs (the records by id, term search, recognizers, term answers, creating a term).
 */
export { termBasesRoutes } from './term-bases.routes.js';
export { termsRoutes } from './terms.routes.js';
export { TermBaseSchema } from './term-bases.schemas.js';
export { termImportTask } from './term-import.task.js';
export { termTransfersRoutes } from './term-transfer.routes.js';
export { termSearchRoutes } from './term-search.routes.js';
export { Enum, TermSchema, TermCreateBody } from './terms.schemas.js';
export type { TermDto } from './terms.schemas.js';
export { toTermBaseDtos } from './term-bases.views.js';
export { langsOf, termBasesByIds, termBasesByKeys, visibleTo as termBaseVisibleTo } from './term-bases.repository.js';
export type { TermBaseRow } from './term-bases.repository.js';
export { conceptTermsIn, searchTerms } from './term-search.js';
export { termRecognizer } from './term-recognizers.js';
export type { RecognizedTerm } from './term-recognizers.js';
export { toTermDtos, conceptReferenceLookup } from './terms.views.js';
export { findConcepts } from './terms.repository.js';
export type { ConceptRow, TermRow } from './terms.repository.js';
export { createTermIn } from './terms.service.js';
