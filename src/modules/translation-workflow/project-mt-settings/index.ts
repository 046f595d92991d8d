/**
 * The MT and pre-translate settings of projects and templates (docs/project-mt-settings.md):
 * which MT settings serve each target language, the pre-translate settings document (v4 and the
 * deprecated flat v1/v2 forms), and a job's translation resources.
 * MT settings records themselves are reached through language-resources/machine-translation.
 */
export { projectMtSettingsRoutes } from './project-mt-settings.routes.js';
export { preTranslateSettingsRoutes } from './pre-translate-settings.routes.js';
export { PreTranslateSettingsV4Schema } from './pre-translate-settings.schemas.js';
export type { PreTranslateSettingsV4 } from './pre-translate-settings.schemas.js';
export { preTranslateDefaults, projectPreTranslateSettings } from './pre-translate-settings.js';
export { applyMtSettingsUpdate, mtSettingsForTarget, projectMtOwner, resolveMtSettingsChange } from './project-mt-settings.service.js';
export type { MtSettingsChange, MtSettingsOwner } from './project-mt-settings.service.js';

export { copyTemplateMtSettings } from './template-copy.js';
