import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { pageWindow, toPage } from '../../../http/paging.js';
import { JobUidParams, onJob, onProject, jobAccessOf, projectAccessOf, ProjectUidParams } from '../../translation-workflow/kernel/index.js';
import type { AnalysisRow } from './analyses.repository.js';
import {
  AnalyseJob,
  AnalyseJobPage,
  AnalyseJobParams,
  AnalyseReferencePage,
  AnalyseUidParams,
  AnalyseV2,
  AnalyseV3,
  AnalysesListQuery,
  AnalysesV2,
  AsyncAnalyseList,
  AsyncAnalyseListV2,
  BulkDeleteBody,
  BulkEditAnalyseV2Body,
  CreateAnalyseListBody,
  CreateAnalyseV2Body,
  DeleteQuery,
  EditAnalyseV2Body,
  LanguagePartParams,
  LanguagePartV1,
  RecalculateBody,
  RecalculateResponse,
} from './analyses.schemas.js';
import { createAnalyses, deleteAnalyses, editAnalyses, recalculate, requireAnalysis } from './analyses.service.js';
import type { CreatedAnalysis } from './analyses.service.js';
import {
  analysesPage,
  analysisViewContext,
  toAnalyseJob,
  toAnalyseReference,
  toAnalyseV2,
  toAnalyseV3,
  toLanguagePartV1,
} from './analyses.views.js';
import { Type } from 'typebox';
import { PagingQuery } from '../../../http/paging.js';

/** Analyses are internal users' work (description, "Access rules": CREATE, EDIT, DELETE, RECALCULATE for internal users). */
const INTERNAL: Access = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Analysis'];
const CREATE_ERRORS = [
  'AnalysisTooLarge',
  'JobImportNotFinished',
  'ReferenceNotFound',
  'ResourceNotFound',
  'TooManyPendingRequests',
  'InvalidCallbackUrl',
] as const;

const asyncItems = (created: CreatedAnalysis[]) =>
  created.map(({ analysis, asyncRequest }) => ({
    asyncRequest: { id: asyncRequest.id, dateCreated: asyncRequest.createdAt, action: asyncRequest.action },
    analyse: { id: analysis.id, uid: analysis.uid },
  }));

/** Analysis operations (docs/analysis.md), routes relative to `/api2`. */
export function analysesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const context = (organizationId: string, rows: AnalysisRow[], withJobs = true) => analysisViewContext(db, organizationId, rows, withJobs);

  return async (app) => {
    app.post(
      '/v2/analyses',
      {
        config: { access: INTERNAL, errors: [...CREATE_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'createAnalyseAsync_1',
          summary: 'Create analysis',
          description:
            'One analysis of the listed jobs (one project; a language part per target language), computed asynchronously: poll the async request, or pass callbackUrl. ' +
            'Settings left out take the request defaults, or with useProjectAnalysisSettings the project’s analysis settings. More segments than OPENTMS_ANALYSIS_MAX_SEGMENTS (300,000) is 400 and nothing is created. See docs/analysis.md for the counting rules.',
          body: CreateAnalyseV2Body,
          response: { 200: AsyncAnalyseListV2 },
        },
      },
      async (request) => ({ asyncRequests: asyncItems(await createAnalyses(deps, callerOf(request), request.body, 'single')) }),
    );

    for (const [path, mode, operationId, summary] of [
      ['/v1/analyses/byLanguages', 'byLanguages', 'createAnalysesForLangs', 'Create analyses by languages'],
      ['/v1/analyses/byProviders', 'byProviders', 'createAnalysesForProviders', 'Create analyses by providers'],
    ] as const) {
      app.post(
        path,
        {
          config: { access: INTERNAL, errors: [...CREATE_ERRORS] },
          schema: {
            tags: TAGS,
            operationId,
            summary,
            description:
              mode === 'byLanguages'
                ? 'One analysis per target language of the listed jobs, each computed asynchronously.'
                : 'One analysis per provider of the listed jobs (a job with several providers is in each one’s analysis; jobs without a provider go together), each computed asynchronously.',
            body: CreateAnalyseListBody,
            response: { 200: AsyncAnalyseList },
          },
        },
        async (request) => ({ analyses: asyncItems(await createAnalyses(deps, callerOf(request), request.body, mode)) }),
      );
    }

    app.get(
      '/v3/analyses/:analyseUid',
      {
        config: { access: INTERNAL },
        schema: {
          tags: TAGS,
          operationId: 'getAnalyseV3',
          summary: 'Get analysis',
          params: AnalyseUidParams,
          response: { 200: AnalyseV3 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { analysis } = await requireAnalysis(deps, caller, request.params.analyseUid);
        return toAnalyseV3(analysis, await context(caller.organizationId, [analysis]));
      },
    );

    app.get(
      '/v3/analyses',
      {
        config: { access: INTERNAL, errors: ['ResourceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'listAnalysesV3',
          summary: 'List analyses',
          description: 'The analyses of the project `projectUid` (required), newest first.',
          querystring: AnalysesListQuery,
          response: { 200: AnalyseReferencePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { projectUid, name, uid } = request.query;
        if (!projectUid) {
          throw errors.InvalidArguments({ reason: 'projectUid is required.', details: [{ field: 'projectUid', message: 'required' }] });
        }
        const project = await db
          .selectFrom('projects')
          .select(['id', 'uid'])
          .where('uid', '=', projectUid)
          .where('organizationId', '=', caller.organizationId)
          .executeTakeFirst();
        if (!project) throw errors.ResourceNotFound({ what: 'Project' });
        return analysesPage(
          db,
          caller.organizationId,
          { organizationId: caller.organizationId, projectId: project.id, name, uid },
          request.query,
          toAnalyseReference,
        );
      },
    );

    app.get(
      '/v3/projects/:projectUid/analyses',
      {
        config: { access: onProject(INTERNAL, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'listByProjectV3',
          summary: 'List analyses by project',
          params: ProjectUidParams,
          querystring: AnalysesListQuery,
          response: { 200: AnalyseReferencePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const project = projectAccessOf(request).project;
        const { name, uid } = request.query;
        return analysesPage(
          db,
          caller.organizationId,
          { organizationId: project.organizationId, projectId: project.id, name, uid },
          request.query,
          toAnalyseReference,
        );
      },
    );

    app.get(
      '/v3/projects/:projectUid/jobs/:jobUid/analyses',
      {
        config: { access: onJob(INTERNAL, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'listPartAnalyseV3',
          summary: 'List analyses of a job',
          params: JobUidParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: AnalyseReferencePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { job, project } = jobAccessOf(request);
        const filter = { organizationId: project.project.organizationId, projectId: project.project.id, jobUid: job.uid };
        return analysesPage(db, caller.organizationId, filter, request.query, toAnalyseReference);
      },
    );

    app.get(
      '/v1/analyses/:analyseUid/analyseLanguageParts/:analyseLanguagePartId',
      {
        config: { access: INTERNAL },
        schema: {
          tags: TAGS,
          operationId: 'getAnalyseLanguagePart',
          summary: 'Get analysis language part',
          params: LanguagePartParams,
          response: { 200: LanguagePartV1 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { analysis } = await requireAnalysis(deps, caller, request.params.analyseUid);
        const ctx = await context(caller.organizationId, [analysis]);
        const part = (ctx.parts.get(analysis.id) ?? []).find((p) => p.id === request.params.analyseLanguagePartId);
        if (!part) throw errors.ResourceNotFound({ what: 'Analysis language part' });
        return toLanguagePartV1(analysis, part, ctx);
      },
    );

    app.get(
      '/v1/analyses/:analyseUid/analyseLanguageParts/:analyseLanguagePartId/jobs',
      {
        config: { access: INTERNAL },
        schema: {
          tags: TAGS,
          operationId: 'listJobParts',
          summary: 'List jobs of analyses',
          params: LanguagePartParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: AnalyseJobPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { analysis } = await requireAnalysis(deps, caller, request.params.analyseUid);
        const ctx = await context(caller.organizationId, [analysis]);
        const part = (ctx.parts.get(analysis.id) ?? []).find((p) => p.id === request.params.analyseLanguagePartId);
        if (!part) throw errors.ResourceNotFound({ what: 'Analysis language part' });
        const jobs = ctx.jobs.get(part.id) ?? [];
        const { offset, limit } = pageWindow(request.query);
        return toPage(
          jobs.slice(offset, offset + limit).map((j) => toAnalyseJob(analysis, j, ctx)),
          jobs.length,
          request.query,
        );
      },
    );

    app.get(
      '/v1/analyses/:analyseUid/jobs/:jobUid',
      {
        config: { access: INTERNAL },
        schema: {
          tags: TAGS,
          operationId: 'getJobPartAnalyse',
          summary: 'Get job’s analysis',
          params: AnalyseJobParams,
          response: { 200: AnalyseJob },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { analysis } = await requireAnalysis(deps, caller, request.params.analyseUid);
        const ctx = await context(caller.organizationId, [analysis]);
        const job = [...ctx.jobs.values()].flat().find((j) => j.jobUid === request.params.jobUid);
        if (!job) throw errors.ResourceNotFound({ what: 'Job of the analysis' });
        return toAnalyseJob(analysis, job, ctx);
      },
    );

    app.put(
      '/v2/analyses/bulk',
      {
        config: { access: INTERNAL, errors: ['ReferenceNotFound', 'ResourceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'analyses-batchEdit-v2',
          summary: 'Edit analyses (batch)',
          description:
            'Sets the name, provider and net rate scheme of each analysis. `netRateScheme: null` removes the scheme; left out, the new provider’s scheme is used when it has one, otherwise the scheme stays as it was.',
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
          true,
        );
        const ctx = await context(caller.organizationId, rows);
        return { analyses: rows.map((r) => toAnalyseV2(r, ctx)) };
      },
    );

    app.put(
      '/v2/analyses/:analyseUid',
      {
        config: { access: INTERNAL, errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'editAnalysis',
          summary: 'Edit analysis',
          description: 'Sets the name, provider and net rate scheme; `netRateScheme: null` removes the scheme, left out keeps it.',
          params: AnalyseUidParams,
          body: EditAnalyseV2Body,
          response: { 200: AnalyseV2 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const [row] = await editAnalyses(deps, caller, [request.params.analyseUid], request.body, false);
        return toAnalyseV2(row!, await context(caller.organizationId, [row!]));
      },
    );

    app.post(
      '/v1/analyses/recalculate',
      {
        config: { access: INTERNAL, errors: ['TooManyPendingRequests', 'InvalidCallbackUrl', 'ResourceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'recalculate',
          summary: 'Recalculate analysis',
          description:
            'Computes the analyses again with their settings against the jobs and TMs as they are now; the new results replace the old in one step when done.',
          body: RecalculateBody,
          response: { 200: RecalculateResponse },
        },
      },
      async (request) => {
        const created = await recalculate(
          deps,
          callerOf(request),
          request.body.analyses.map((a) => String(a.id)),
          request.body.callbackUrl ?? null,
        );
        return { analyses: asyncItems(created) };
      },
    );

    app.delete(
      '/v1/analyses/bulk',
      {
        config: { access: INTERNAL, errors: ['ResourceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'bulkDeleteAnalyses',
          summary: 'Delete analyses (batch)',
          description: 'With `purge`, the analyses are removed for good; otherwise they are marked deleted.',
          body: BulkDeleteBody,
        },
      },
      async (request, reply) => {
        await deleteAnalyses(
          deps,
          callerOf(request),
          request.body.analyses.map((a) => String(a.id)),
          request.body.purge === true,
        );
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v1/analyses/:analyseUid',
      {
        config: { access: INTERNAL },
        schema: { tags: TAGS, operationId: 'delete', summary: 'Delete analysis', params: AnalyseUidParams, querystring: DeleteQuery },
      },
      async (request, reply) => {
        await deleteAnalyses(deps, callerOf(request), [request.params.analyseUid], request.query.purge === true);
        return reply.code(204).send();
      },
    );
  };
}
