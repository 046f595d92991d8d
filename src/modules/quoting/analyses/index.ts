/**
 * Analyses (docs/analysis.md): how many words of each job fall into which match band, from the
 * project's TMs under its analysis settings, weighted by a net rate scheme. Quotes build on them.
 */
export { analysesRoutes } from './analyses.routes.js';
export { analysisDownloadRoutes } from './analysis-downloads.routes.js';
export { analyseSettingsRoutes } from './analyse-settings.routes.js';
export { analysesOlderVersionsRoutes } from './analyses-older-versions.routes.js';
export { analysisTask } from './analysis.task.js';
export { analysisFigures } from './analysis-figures.js';
export type { AnalysisFigures } from './analysis-figures.js';
export type { AnalysisRow } from './analyses.repository.js';
