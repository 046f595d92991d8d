import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { ProjectPage, ProjectUidParams, onProject, ownView, projectAccessOf, toProjectViewsV1 } from '../kernel/index.js';
import {
  RelevantTransMemoriesQuery,
  SetTransMemoriesBody,
  SetTransMemoryContext,
  TransMemoryPage,
  TransMemorySettingsQuery,
} from '../job-trans-memories/index.js';
import {
  ProjectTransMemoryListV1,
  ProjectTransMemoryListV2,
  ProjectTransMemoryListV3,
  RelatedProjectsQuery,
  TransMemoryUidParams,
} from './project-trans-memories.schemas.js';
import {
  projectTransMemories,
  relatedProjects,
  relevantProjectTransMemories,
  setProjectTransMemories,
} from './project-trans-memories.service.js';

/**
 * The translation memories of a project (docs/translation-memory.md): which TMs it reads and
 * writes per target language and workflow step. v3 is current; v1 and v2 (description,
 * "Versioning": "v1/v2 translation memories of project or template → v3 transMemories") still
 * work with their older shapes. Reading needs `view` on the project, changing it `edit`; only
 * ADMIN and PROJECT_MANAGER (and a vendor's) work with TM settings.
 */

const TAGS = ['Project'];
const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');
const EDIT_ERRORS = ['ReferenceNotFound', 'UnsupportedLanguage'] as const;

const GET_DESCRIPTION =
  "Every TM of the project's setting, per context: `targetLocale` (null: all target languages) and `workflowStep` (null: all steps). With `targetLang` and/or `wfStepUid`, the setting that applies to them: the most specific context that lists any TM, of (that language, that step), (that language, all steps), (all languages, that step), (all, all); none for a language or step the project does not have.";
const PUT_DESCRIPTION =
  "Replaces the project's whole TM setting: each context (`targetLang`: a target language of the project, or all; `workflowStep`: one of its steps by the organization step's uid, or all) lists its TMs with `readMode`, `writeMode` (only with readMode; at most 2 per context), `penalty` (0–100, subtracted from the score), `applyPenaltyTo101Only` and `order` (used by searches where `orderEnabled`). A TM must be of the organization (400 ReferenceNotFound), of the project's source language, and have the context's target language (for all languages: one of the project's) among its target languages; languages match by family (`de` ~ `de_at`). A context left empty falls back to the more general one. Emits PROJECT_METADATA_UPDATED.";
const V1_SHAPES =
  'Not in the Swagger: reconstructed from the v3 shapes. The body is ONE context (SetProjectTransMemoriesV3Dto.dataPerContext[0]: `transMemories`, `targetLang`, `workflowStep`, `orderEnabled`) and replaces the whole setting; the answer is `{transMemories: [{transMemory (TransMemoryDto, with owner), targetLocale, workflowStep (WorkflowStepReference), readMode, writeMode, penalty, applyPenaltyTo101Only, order}]}`.';
const V2_SHAPES =
  'Not in the Swagger: reconstructed from the v3 shapes. The body is SetProjectTransMemoriesV3Dto (`dataPerContext`); the answer lists TransMemoryDtoV2 (with owner) and WorkflowStepReferenceV2.';

export function projectTransMemoriesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    for (const [version, operationId, response] of [
      [1, 'getProjectTransMemories', ProjectTransMemoryListV1],
      [2, 'getProjectTransMemoriesV2', ProjectTransMemoryListV2],
      [3, 'getProjectTransMemories_1', ProjectTransMemoryListV3],
    ] as const) {
      app.get(
        `/v${version}/projects/:projectUid/transMemories`,
        {
          config: { access: onProject(MANAGERS, 'view') },
          schema: {
            tags: TAGS,
            operationId,
            summary: 'Get translation memories',
            ...(version === 3 ? {} : { deprecated: true }),
            description:
              (version === 3
                ? ''
                : `Replaced by GET /api2/v3/projects/{projectUid}/transMemories; still works. ${version === 1 ? V1_SHAPES : V2_SHAPES} `) +
              GET_DESCRIPTION,
            params: ProjectUidParams,
            querystring: TransMemorySettingsQuery,
            response: { 200: response },
          },
        },
        async (request) => projectTransMemories(deps, projectAccessOf(request).project, request.query, version),
      );
    }

    app.put(
      '/v1/projects/:projectUid/transMemories',
      {
        config: { access: onProject(MANAGERS, 'edit'), errors: [...EDIT_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'setProjectTransMemories',
          summary: 'Edit translation memories',
          deprecated: true,
          description: `Replaced by PUT /api2/v3/projects/{projectUid}/transMemories; still works. ${V1_SHAPES} ${PUT_DESCRIPTION}`,
          params: ProjectUidParams,
          body: SetTransMemoryContext,
          response: { 200: ProjectTransMemoryListV1 },
        },
      },
      async (request) => setProjectTransMemories(deps, callerOf(request), projectAccessOf(request), [request.body], '', 1),
    );

    for (const [version, operationId, response] of [
      [2, 'setProjectTransMemoriesV2', ProjectTransMemoryListV2],
      [3, 'setProjectTransMemoriesV3', ProjectTransMemoryListV3],
    ] as const) {
      app.put(
        `/v${version}/projects/:projectUid/transMemories`,
        {
          config: { access: onProject(MANAGERS, 'edit'), errors: [...EDIT_ERRORS] },
          schema: {
            tags: TAGS,
            operationId,
            summary: 'Edit translation memories',
            ...(version === 3 ? {} : { deprecated: true }),
            description:
              (version === 3 ? '' : `Replaced by PUT /api2/v3/projects/{projectUid}/transMemories; still works. ${V2_SHAPES} `) +
              PUT_DESCRIPTION,
            params: ProjectUidParams,
            body: SetTransMemoriesBody,
            response: { 200: response },
          },
        },
        async (request) =>
          setProjectTransMemories(
            deps,
            callerOf(request),
            projectAccessOf(request),
            request.body.dataPerContext,
            'dataPerContext',
            version,
          ),
      );
    }

    app.get(
      '/v1/projects/:projectUid/transMemories/relevant',
      {
        config: { access: onProject(MANAGERS, 'view'), errors: ['UnsupportedLanguage'] },
        schema: {
          tags: ['Project', 'Translation Memory'],
          operationId: 'relevantTransMemories_1',
          summary: 'List project relevant translation memories',
          description:
            "The TMs the caller sees whose source language is the project's and whose target languages include one of the project's (or of `targetLangs`): by family (`de` ~ `de_at`) unless `strictLangMatching`. `name`, `clientName`, `domainName`, `subDomainName` match part of the name, ignoring case. By name.",
          params: ProjectUidParams,
          querystring: RelevantTransMemoriesQuery,
          response: { 200: TransMemoryPage },
        },
      },
      async (request) => {
        const { pageNumber, pageSize, ...query } = request.query;
        const page = { pageNumber, pageSize };
        const { content, total } = await relevantProjectTransMemories(
          deps,
          callerOf(request),
          projectAccessOf(request).project,
          query,
          page,
        );
        return toPage(content, total, page);
      },
    );

    app.get(
      '/v1/transMemories/:transMemoryUid/relatedProjects',
      {
        config: { access: MANAGERS },
        schema: {
          tags: ['Translation Memory'],
          operationId: 'getRelatedProjects',
          summary: 'List related projects',
          description:
            'The projects whose TM settings name the TM, as the caller sees them (AbstractProjectDto), newest first; 404 for a TM the caller does not see.',
          params: TransMemoryUidParams,
          querystring: RelatedProjectsQuery,
          response: { 200: ProjectPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await relatedProjects(deps, caller, request.params.transMemoryUid, page);
        const targets = rows.map((project) => ({
          project,
          view: project.organizationId === caller.organizationId ? ownView(caller) : ('VENDOR' as const),
        }));
        return toPage(await toProjectViewsV1(db, caller, targets, deps.clock().toISOString()), total, page);
      },
    );
  };
}
