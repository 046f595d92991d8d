import { Type } from 'typebox';
import { PagingQuery } from '../../../http/paging.js';
import { recordUid } from '../../../http/schema-helpers.js';
import { settingsListV3, settingsListWithOwner } from '../job-trans-memories/index.js';

/**
 * Wire shapes of a project's translation memories (spec `ProjectTransMemoryListDtoV3`; the v2
 * and v1 lists, which the Swagger no longer has, reconstructed: see tm-settings.schemas.ts of
 * job-trans-memories).
 */

export const ProjectTransMemoryListV3 = settingsListV3('ProjectTransMemoryListDtoV3', 'ProjectTransMemoryDtoV3');
export const ProjectTransMemoryListV2 = settingsListWithOwner('ProjectTransMemoryListDtoV2', 'ProjectTransMemoryDtoV2');
export const ProjectTransMemoryListV1 = settingsListWithOwner('ProjectTransMemoryListDto', 'ProjectTransMemoryDto');

export const TransMemoryUidParams = Type.Object({ transMemoryUid: recordUid('transMemories') });
export const RelatedProjectsQuery = Type.Object({ ...PagingQuery });
