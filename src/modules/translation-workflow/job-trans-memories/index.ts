/**
 * The translation memories of projects, templates and jobs (docs/translation-memory.md): the
 * settings shared by projects and templates (which TMs, read, write, penalty, order per target
 * language and workflow step), the searches of a job's TMs, and the write-back of confirmed
 * segments. TMs themselves are reached through the front door of language-resources/translation-memories.
 */
export { jobTransMemoriesRoutes } from './job-tm-search.routes.js';
export { writeConfirmedToTransMemories } from './tm-write-back.js';
export type { ConfirmedSegment } from './tm-write-back.js';
export {
  copyTemplateSettings,
  effectiveRows,
  filteredRows,
  languageFamily,
  languagesMatch,
  projectSettingsOwner,
  projectTransMemoryTargets,
  replaceSettingRows,
  rowsOfContexts,
  settingDtos,
  settingRows,
  templateSettingsOwner,
} from './tm-settings.js';
export type { OwnerStep, SettingRow, SettingsOwner } from './tm-settings.js';
export { langInJsonArray, relevantLanguageResources, relevantTransMemories } from './relevant-trans-memories.js';
export type { RelevantQuery } from './relevant-trans-memories.js';
export {
  RelevantTransMemoriesQuery,
  SetTransMemoriesBody,
  SetTransMemoryContext,
  TransMemoryPage,
  TransMemorySettingsQuery,
  settingsListV3,
  settingsListWithOwner,
} from './tm-settings.schemas.js';
