/**
 * Pre-translation of jobs from TMs, non-translatables and MT, MT of a job's texts, and human
 * translation requests (docs/machine-translation.md, "Pre-translation").
 */
export { preTranslationRoutes } from './pre-translation.routes.js';
export { preTranslateTask } from './pre-translation.task.js';
export { preTranslateImportedJobs } from './pre-translation.service.js';
