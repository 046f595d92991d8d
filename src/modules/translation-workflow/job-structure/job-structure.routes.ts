import { JobUidParams, ProjectUidParams } from '../kernel/index.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { jobAccessOf, onJob, onProject, projectAccessOf } from '../kernel/index.js';
import { jobReferenceDtos } from '../kernel/index.js';
import { JobPartReadyReferences, JobParts } from '../kernel/index.js';
import { ProviderListV2 } from '../job-operations/index.js';
import { splitJob } from './job-split.js';
import { CompareQuery, ComparedSegments, ProjectSuggestBody, ProjectSuggestQuery, SplitJobAction } from './job-structure.schemas.js';
import { compareProjectJobs } from './level-compare.js';
import { suggestProjectProviders } from './project-providers.js';

/** Splitting jobs and staffing them change the project: managers who may edit it. */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Comparing levels reads the jobs: whoever sees them (linguists: their own jobs). */
const READERS: Access = AUTHENTICATED;

/** Job structure (docs/split-compare-and-workflow-changes.md): split, compare workflow levels, project provider suggestions. */
export function jobStructureRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v2/projects/:projectUid/providers/suggest',
      {
        config: { access: onProject(MANAGERS, 'edit') },
        schema: {
          tags: ['Project', 'Provider'],
          operationId: 'listProviders_3',
          summary: 'Get suggested providers',
          description:
            'Providers for the project’s work: one job per target language and workflow step (a project without jobs: the jobs it would get). An optional body `{jobs: [{uid}], limit}` (OpenTMS extension) narrows it to some jobs; `limit` (query or body) caps `relevant`. Scoring as for job suggestions (docs/job-files-and-operations.md).',
          params: ProjectUidParams,
          querystring: ProjectSuggestQuery,
          body: ProjectSuggestBody,
          response: { 200: ProviderListV2 },
        },
      },
      async (request) => {
        const body = request.body ?? {};
        const uids = body.jobs?.map((j) => j.uid);
        return suggestProjectProviders(db, projectAccessOf(request).project, uids, body.limit ?? request.query.limit);
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/split',
      {
        config: { access: onJob(MANAGERS, 'edit'), errors: ['JobLimitExceeded', 'JobNotImported', 'NotSupportedYet', 'JobChanged'] },
        schema: {
          tags: ['Job'],
          operationId: 'split',
          summary: 'Split job',
          description:
            'Exactly one of `segmentOrdinals` (split after these segments, numbered 1.. within the job), `partCount`, `partSize` (segments per part), `wordCount` (words per part); `byDocumentPart` (PowerPoint) is a 400. The jobs of every workflow level covering the same segments are split with it. Answers the parts at the job’s level, the job itself (now the first part) first.',
          params: JobUidParams,
          body: SplitJobAction,
          response: { 200: JobParts },
        },
      },
      async (request) => {
        const parts = await splitJob(deps, callerOf(request), jobAccessOf(request).job, request.body);
        return { jobs: await jobReferenceDtos(db, parts, 'v1') };
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/compare',
      {
        config: { access: onProject(READERS, 'view') },
        schema: {
          tags: ['Job'],
          operationId: 'comparePart',
          summary: 'Compare jobs on workflow levels',
          description:
            'For each job, the segments whose text at `atWorkflowLevel` differs from the text at `withWorkflowLevel` (the text a level left: its own translation, else what it received). `Miss`: one level has none; `Diff`: both have different texts.',
          params: ProjectUidParams,
          querystring: CompareQuery,
          body: JobPartReadyReferences,
          response: { 200: ComparedSegments },
        },
      },
      async (request) => {
        const uids = request.body.jobs.map((j) => j.uid);
        const at = request.query.atWorkflowLevel ?? 1;
        const withLevel = request.query.withWorkflowLevel ?? 1;
        return { segments: await compareProjectJobs(db, callerOf(request), projectAccessOf(request), uids, at, withLevel) };
      },
    );
  };
}
