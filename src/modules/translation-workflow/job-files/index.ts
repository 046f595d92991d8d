export { jobFilesRoutes } from './job-files.routes.js';
export { AsyncRequestWrapperV2 } from './job-files.schemas.js';
export { targetFileTask, writeTargetFile } from './target-file.task.js';
export { candidateTranslations, jobSourceFile, sourceSegmentsForTarget } from './job-files.repository.js';
export type { JobSourceFile, TargetFileWork } from './job-files.repository.js';
export { filterOfSource, pickTranslations, unitTranslations } from './target-content.js';
export type { SegmentForTarget } from './target-content.js';
