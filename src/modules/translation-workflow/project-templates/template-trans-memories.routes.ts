import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { TemplateUidParams, onTemplate, templateAccessOf } from '../kernel/index.js';
import {
  RelevantTransMemoriesQuery,
  SetTransMemoriesBody,
  SetTransMemoryContext,
  TransMemoryPage,
  TransMemorySettingsQuery,
} from '../job-trans-memories/index.js';
import { TemplateTransMemoryListV1, TemplateTransMemoryListV2, TemplateTransMemoryListV3 } from './template-trans-memories.schemas.js';
import { relevantTemplateTransMemories, setTemplateTransMemories, templateTransMemories } from './template-trans-memories.service.js';

/**
 * The translation memories of a project template, copied into the projects made from it. v3 GET
 * and v2 PUT are current; the v1 GET and PUT and the v2 GET still work with their older shapes
 * (description, "Versioning"). Reading needs `view` on the template, changing it `edit`.
 */

const TAGS = ['Project Template'];
const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');
const EDIT_ERRORS = ['ReferenceNotFound', 'UnsupportedLanguage'] as const;

const GET_DESCRIPTION =
  "Every TM of the template's setting, per context: `targetLocale` (null: all target languages) and `workflowStep` (null: all steps). With `targetLang` and/or `wfStepUid`, the setting that applies to them: the most specific context that lists any TM, of (that language, that step), (that language, all steps), (all languages, that step), (all, all).";
const PUT_DESCRIPTION =
  "Replaces the template's whole TM setting; 400 when the template has no source language or no target language (description, \"Behaviour of other operations\", point 5). Each context (`targetLang`: a target language of the template, or all; `workflowStep`: one of its steps by uid, or all) lists its TMs with `readMode`, `writeMode` (only with readMode; at most 2 per context), `penalty` (0–100), `applyPenaltyTo101Only` and `order`. A TM must be of the organization (400 ReferenceNotFound), of the template's source language and have the context's target language (for all languages: one of the template's); languages match by family (`de` ~ `de_at`). Projects made from the template get a copy of the setting.";
const V1_SHAPES =
  'Not in the Swagger: reconstructed from the v2 shapes. The body is ONE context (SetProjectTemplateTransMemoriesV2Dto.dataPerContext[0]: `transMemories`, `targetLang`, `workflowStep`, `orderEnabled`) and replaces the whole setting; the answer is ProjectTemplateTransMemoryListV2Dto.';

export function templateTransMemoriesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    for (const [version, operationId, response] of [
      [1, 'getProjectTemplateTransMemories', TemplateTransMemoryListV1],
      [2, 'getProjectTemplateTransMemoriesV2', TemplateTransMemoryListV2],
      [3, 'getProjectTemplateTransMemories_2', TemplateTransMemoryListV3],
    ] as const) {
      app.get(
        `/v${version}/projectTemplates/:projectTemplateUid/transMemories`,
        {
          config: { access: onTemplate(MANAGERS, 'view') },
          schema: {
            tags: version === 3 ? [...TAGS, 'Translation Memory'] : TAGS,
            operationId,
            summary: 'Get translation memories',
            ...(version === 3 ? {} : { deprecated: true }),
            description:
              (version === 3
                ? ''
                : `Replaced by GET /api2/v3/projectTemplates/{projectTemplateUid}/transMemories; still works. ${
                    version === 1
                      ? 'Not in the Swagger: answers ProjectTemplateTransMemoryListV2Dto (TransMemoryDtoV2, with owner).'
                      : 'Answers ProjectTemplateTransMemoryListV2Dto.'
                  } `) + GET_DESCRIPTION,
            params: TemplateUidParams,
            querystring: TransMemorySettingsQuery,
            response: { 200: response },
          },
        },
        async (request) => templateTransMemories(deps, templateAccessOf(request).template, request.query, version),
      );
    }

    app.put(
      '/v1/projectTemplates/:projectTemplateUid/transMemories',
      {
        config: { access: onTemplate(MANAGERS, 'edit'), errors: [...EDIT_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'setProjectTemplateTransMemories',
          summary: 'Edit translation memories',
          deprecated: true,
          description: `Replaced by PUT /api2/v2/projectTemplates/{projectTemplateUid}/transMemories; still works. ${V1_SHAPES} ${PUT_DESCRIPTION}`,
          params: TemplateUidParams,
          body: SetTransMemoryContext,
          response: { 200: TemplateTransMemoryListV1 },
        },
      },
      async (request) => setTemplateTransMemories(deps, callerOf(request), templateAccessOf(request).template, [request.body], ''),
    );

    app.put(
      '/v2/projectTemplates/:projectTemplateUid/transMemories',
      {
        config: { access: onTemplate(MANAGERS, 'edit'), errors: [...EDIT_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'setProjectTemplateTransMemoriesV2',
          summary: 'Edit translation memories',
          description: PUT_DESCRIPTION,
          params: TemplateUidParams,
          body: SetTransMemoriesBody,
          response: { 200: TemplateTransMemoryListV2 },
        },
      },
      async (request) =>
        setTemplateTransMemories(
          deps,
          callerOf(request),
          templateAccessOf(request).template,
          request.body.dataPerContext,
          'dataPerContext',
        ),
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid/transMemories/relevant',
      {
        config: { access: onTemplate(MANAGERS, 'view'), errors: ['UnsupportedLanguage'] },
        schema: {
          tags: ['Project Template', 'Translation Memory'],
          operationId: 'relevantTransMemories',
          summary: 'List project template relevant translation memories',
          description:
            "The TMs the caller sees whose source language is the template's (any, when it has none) and whose target languages include one of the template's (or of `targetLangs`): by family (`de` ~ `de_at`) unless `strictLangMatching`. `name`, `clientName`, `domainName`, `subDomainName` match part of the name, ignoring case. By name.",
          params: TemplateUidParams,
          querystring: RelevantTransMemoriesQuery,
          response: { 200: TransMemoryPage },
        },
      },
      async (request) => {
        const { pageNumber, pageSize, ...query } = request.query;
        const page = { pageNumber, pageSize };
        const { content, total } = await relevantTemplateTransMemories(
          deps,
          callerOf(request),
          templateAccessOf(request).template,
          query,
          page,
        );
        return toPage(content, total, page);
      },
    );
  };
}
