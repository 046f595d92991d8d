/**
 * Glossaries (docs/terminology.md, "Glossaries (built)"): records, activation (one active glossary
 * per language pair), upload, export and purge of their (source term, target term) entries, and
 * the entries machine translation applies for a language pair.
 */
export { activeGlossaryEntries } from './glossaries.repository.js';
export { glossariesRoutes } from './glossaries.routes.js';
export { GlossarySchema } from './glossaries.schemas.js';
