/**
 * Translation memories (docs/translation-memory.md): records, units, the index and search, import
 * and export. The translation workflow reaches them through this front door for the TMs of
 * projects and templates, job searches and write-back.
 */
export { translationMemoriesRoutes, DEFAULT_MIN_SCORE } from './translation-memories.routes.js';
export { translationMemoryTransfersRoutes } from './tm-transfer.routes.js';
export { tmImportTask } from './tm-import.task.js';
export { tmExportTask, tmCleanedExportTask, tmClearTask } from './tm-export.task.js';
export { TransMemorySchema, TransMemoryV3Schema, SearchResults, SearchResultsV3, TagMetadata } from './translation-memories.schemas.js';
export { toTransMemoryDtos, withoutOwner } from './translation-memories.views.js';
export { transMemoriesByIds, transMemoriesByUids, targetLangsOf } from './translation-memories.repository.js';
export type { TransMemoryRow, TransMemoryFilter } from './translation-memories.repository.js';
export { bestScores, bestUnitMatches, fuzzySearch, searchResultsDto, wildcardSearch, tagsFromMetadata } from './tm-search.js';
export type { BestScoreQuery, BestUnitMatch, FuzzyQuery, IndexMemo, SearchHit, SearchTarget } from './tm-search.js';
export { writeUnits } from './tm-units.repository.js';
export type { NewTmUnit } from './tm-units.repository.js';
export { tmIndexOf } from './tm-index/index.js';
// For the translation workflow (project and template TM settings, relevant TMs, related projects).
export { requireTransMemory } from './translation-memories.service.js';
export { visibleTo as transMemoryVisibleTo } from './translation-memories.repository.js';
