import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { PageOf } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { onProject, projectAccessOf, ProjectUidParams, ProviderReference } from '../../translation-workflow/kernel/index.js';
import type { AnalysisRow } from './analyses.repository.js';
import {
  AnalyseUidParams,
  AnalyseV2,
  AnalysesListQuery,
  AnalysesV2,
  AsyncAnalyseList,
  BulkEditAnalyseV2Body,
  CreateAnalyseListBody,
  LanguagePartV1,
  NetRateSchemeReference,
} from './analyses.schemas.js';
import { createAnalyses, editAnalyses, requireAnalysis } from './analyses.service.js';
import { analysesPage, analysisViewContext, toAnalyseV2, toLanguagePartV1 } from './analyses.views.js';
import type { AnalysisViewContext } from './analyses.views.js';

/**
 * The older versions of analysis operations that clients still call (description, replacement
 * map: v1 create -> byLanguages/byProviders, v1 edit batch -> PUT v2 bulk, v1/v2 get -> GET v3,
 * v2 list by project -> GET v3 with projectUid), each with its older shape, marked deprecated.
 * The 2024 Swagger no longer lists them; their shapes are the v1 and v2 definitions it keeps
 * (AnalyseLanguagePartDto with DataDtoV1, AnalyseV2Dto). docs/analysis.md, "Older versions".
 */

const INTERNAL = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Analysis'];

/** The v1 analysis record: AnalyseV2Dto's fields, with v1 language parts (AnalyseLanguagePartDto, DataDtoV1 figures). */
export const AnalyseV1 = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    type: Type.String(),
    name: Type.String(),
    provider: Nullable(ProviderReference),
    createdBy: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
    netRateScheme: Nullable(NetRateSchemeReference),
    analyseLanguageParts: Type.Array(LanguagePartV1),
  },
  { title: 'AnalyseDto' },
);
/** v2 list by project: pages of AnalyseV2Dto (with figures, as v2 clients read them; v3 lists AnalyseReference). */
export const AnalyseV2Page = PageOf(AnalyseV2, 'PageDtoAnalyseV2Dto');

function toAnalyseV1(row: AnalysisRow, context: AnalysisViewContext) {
  const { analyseLanguageParts: _parts, ...v2 } = toAnalyseV2(row, context);
  void _parts;
  return { ...v2, analyseLanguageParts: (context.parts.get(row.id) ?? []).map((part) => toLanguagePartV1(row, part, context)) };
}

const deprecatedBy = (replacement: string) => `Deprecated: use ${replacement}. Still works, with its older shape.`;

export function analysesOlderVersionsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const asyncItems = (created: Awaited<ReturnType<typeof createAnalyses>>) =>
    created.map(({ analysis, asyncRequest }) => ({
      asyncRequest: { id: asyncRequest.id, dateCreated: asyncRequest.createdAt, action: asyncRequest.action },
      analyse: { id: analysis.id, uid: analysis.uid },
    }));

  return async (app) => {
    app.post(
      '/v1/analyses',
      {
        config: {
          access: INTERNAL,
          errors: [
            'AnalysisTooLarge',
            'JobImportNotFinished',
            'ReferenceNotFound',
            'ResourceNotFound',
            'TooManyPendingRequests',
            'InvalidCallbackUrl',
          ],
        },
        schema: {
          tags: TAGS,
          operationId: 'createAnalyse',
          summary: 'Create analysis',
          deprecated: true,
          description: `${deprecatedBy('POST /api2/v1/analyses/byLanguages or byProviders')} Creates one analysis per target language of the listed jobs, as byLanguages does.`,
          body: CreateAnalyseListBody,
          response: { 200: AsyncAnalyseList },
        },
      },
      async (request) => ({ analyses: asyncItems(await createAnalyses(deps, callerOf(request), request.body, 'byLanguages')) }),
    );

    app.put(
      '/v1/analyses/bulk',
      {
        config: { access: INTERNAL, errors: ['ReferenceNotFound', 'ResourceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'analyses-batchEdit',
          summary: 'Edit analyses (batch)',
          deprecated: true,
          description: `${deprecatedBy('PUT /api2/v2/analyses/bulk')} Sets the name, provider and net rate scheme of each analysis; \`netRateScheme: null\` removes the scheme, left out keeps it (the v2 edit takes the new provider’s scheme instead).`,
          body: BulkEditAnalyseV2Body,
          response: { 200: AnalysesV2 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { analyses, ...changes } = request.body;
        const rows = await editAnalyses(
          deps,
          caller,
          analyses.map((a) => String(a.id)),
          changes,
          false,
        );
        const context = await analysisViewContext(db, caller.organizationId, rows);
        return { analyses: rows.map((r) => toAnalyseV2(r, context)) };
      },
    );

    app.get(
      '/v1/analyses/:analyseUid',
      {
        config: { access: INTERNAL },
        schema: {
          tags: TAGS,
          operationId: 'getAnalyse',
          summary: 'Get analysis',
          deprecated: true,
          description: `${deprecatedBy('GET /api2/v3/analyses/{analyseUid}')} Language parts as AnalyseLanguagePartDto (DataDtoV1 figures: non-translatables as match100 and match99).`,
          params: AnalyseUidParams,
          response: { 200: AnalyseV1 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { analysis } = await requireAnalysis(deps, caller, request.params.analyseUid);
        return toAnalyseV1(analysis, await analysisViewContext(db, caller.organizationId, [analysis]));
      },
    );

    app.get(
      '/v2/analyses/:analyseUid',
      {
        config: { access: INTERNAL },
        schema: {
          tags: TAGS,
          operationId: 'getAnalyseV2',
          summary: 'Get analysis',
          deprecated: true,
          description: `${deprecatedBy('GET /api2/v3/analyses/{analyseUid}')} Answers AnalyseV2Dto.`,
          params: AnalyseUidParams,
          response: { 200: AnalyseV2 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { analysis } = await requireAnalysis(deps, caller, request.params.analyseUid);
        return toAnalyseV2(analysis, await analysisViewContext(db, caller.organizationId, [analysis]));
      },
    );

    app.get(
      '/v2/projects/:projectUid/analyses',
      {
        config: { access: onProject(INTERNAL, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'listByProjectV2',
          summary: 'List analyses by project',
          deprecated: true,
          description: `${deprecatedBy('GET /api2/v3/analyses?projectUid=…')} Pages of AnalyseV2Dto, with each language part's figures; newest first unless sort/order say otherwise.`,
          params: ProjectUidParams,
          querystring: AnalysesListQuery,
          response: { 200: AnalyseV2Page },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const project = projectAccessOf(request).project;
        const { name, uid } = request.query;
        const filter = { organizationId: project.organizationId, projectId: project.id, name, uid };
        return analysesPage(db, caller.organizationId, filter, request.query, toAnalyseV2);
      },
    );
  };
}
