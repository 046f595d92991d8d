/**
 * The term bases of projects, templates and jobs (docs/terminology.md): the settings shared by
 * projects and templates (which term bases are read, written and checked by QA per target
 * language and workflow step), the relevant term bases, and the job operations (search, term
 * recognition in text, create a term). Term bases themselves are reached through the front door
 * of language-resources/term-bases.
 */
export { jobTermBasesRoutes } from './job-term-bases.routes.js';
export { contextTermBases, copyTemplateTermBases, tbSettingRows } from './tb-settings.js';
export type { TbSettingRow } from './tb-settings.js';
export { qaTargetTermTexts, qaTermHits } from './qa-terms.js';
export type { QaTermsOfSegment } from './qa-terms.js';
