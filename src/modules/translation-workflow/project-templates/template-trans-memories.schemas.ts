import { settingsListV3, settingsListWithOwner } from '../job-trans-memories/index.js';

/**
 * Wire shapes of a template's translation memories: spec `ProjectTemplateTransMemoryListDtoV3`
 * (v3 GET) and `ProjectTemplateTransMemoryListV2Dto` (v2 PUT and GET); the v1 list, which the
 * Swagger no longer has, is the v2 one (see tm-settings.schemas.ts of job-trans-memories).
 */

export const TemplateTransMemoryListV3 = settingsListV3('ProjectTemplateTransMemoryListDtoV3', 'ProjectTemplateTransMemoryDtoV3');
export const TemplateTransMemoryListV2 = settingsListWithOwner('ProjectTemplateTransMemoryListV2Dto', 'ProjectTemplateTransMemoryV2Dto');
export const TemplateTransMemoryListV1 = settingsListWithOwner('ProjectTemplateTransMemoryListDto', 'ProjectTemplateTransMemoryDto');
