import { JobUidParams, ProjectUidParams } from '../kernel/index.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { jobAccessOf, onJob, onProject, projectAccessOf } from '../kernel/index.js';
import { jobReferenceDtos } from '../kernel/index.js';
import { JobList } from '../kernel/index.js';
import { bulkEditJobs } from './bulk-edit.js';
import { cloneJobs } from './job-clone.js';
import { namedProjectJobs } from './job-operations.repository.js';
import { CloneJobsBody, JobPartPatchBatch, JobPartPatchResult, SuggestForJobsBody, SuggestQuery } from './job-operations.schemas.js';
import { ProviderListV2 } from './job-operations.schemas.js';
import { suggestProviders } from './provider-suggestions.js';

/** Clone, bulk edit and provider suggestions change or staff jobs: managers who may edit the project. */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');

/** Operations across jobs (docs/job-files-and-operations.md): clone, bulk edit, provider suggestions. */
export function jobOperationsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v2/projects/:projectUid/jobs/:jobUid/providers/suggest',
      {
        config: { access: onJob(MANAGERS, 'edit') },
        schema: {
          tags: ['Provider', 'Job'],
          operationId: 'listProviders_4',
          summary: 'Get suggested providers',
          description:
            '`all`: the organization’s active linguists and vendors; `relevant`: those whose languages, workflow steps, clients, domains and subdomains fit the job, best first. `limit` (query) caps `relevant`. Scoring: docs/job-files-and-operations.md.',
          params: JobUidParams,
          querystring: SuggestQuery,
          response: { 200: ProviderListV2 },
        },
      },
      async (request) => {
        const access = jobAccessOf(request);
        return suggestProviders(db, access.project.project, [access.job], request.query.limit);
      },
    );

    app.post(
      '/v2/projects/:projectUid/jobs/providers/suggest',
      {
        config: { access: onProject(MANAGERS, 'edit') },
        schema: {
          tags: ['Provider'],
          summary: 'Get suggested providers for several jobs',
          description:
            'Suggestions that fit every job of `jobs` (at most 100, of this project); `limit` caps `relevant` to the top N by relevance, omitted means all (description, "Other operations"). 404 naming jobs that are not in the project.',
          params: ProjectUidParams,
          body: SuggestForJobsBody,
          response: { 200: ProviderListV2 },
        },
      },
      async (request) => {
        const { project } = projectAccessOf(request);
        const jobs = await namedProjectJobs(
          db,
          project.id,
          request.body.jobs.map((j) => j.uid),
          'jobs',
        );
        return suggestProviders(db, project, jobs, request.body.limit ?? undefined);
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/clone',
      {
        config: {
          access: onProject(MANAGERS, 'edit'),
          errors: ['CloneNeedsTargetLanguages', 'MultilingualJobCannotBeCloned', 'ProjectJobLimitExceeded', 'ReferenceNotFound'],
        },
        schema: {
          tags: ['Job'],
          summary: 'Clone jobs to other target languages',
          description:
            'Each job of `jobPartTargetLangs` is cloned to each of its `targetLangs` (project target languages other than the job’s own): new jobs of the same file, one per workflow step, with the providers, due dates and notifications of `workflowSettings`. `keepSplit`: clones of a split job keep its part of the file (default: the whole file). 400 when the project has fewer than two target languages, for jobs of multilingual files, and past the project’s job limit. Answers 201 with the new jobs (JobListDto).',
          params: ProjectUidParams,
          body: CloneJobsBody,
          response: { 201: JobList },
        },
      },
      async (request, reply) => {
        const jobs = await cloneJobs(deps, callerOf(request), projectAccessOf(request).project, request.body);
        return reply.code(201).send({ jobs: await jobReferenceDtos(db, jobs, 'v1'), unsupportedFiles: [], asyncRequest: null });
      },
    );

    app.patch(
      '/v3/jobs',
      {
        config: { access: MANAGERS, errors: ['ReferenceNotFound'] },
        schema: {
          tags: ['Job'],
          operationId: 'patchUpdateJobParts',
          summary: 'Edit jobs (with possible partial updates)',
          description:
            'Sets `status`, `dateDue` (or `clearDateDue`), `providers` and `customFields` on up to 100 jobs across projects. Jobs are written one by one: `updated` counts the jobs written, `errors` names each job that was not (NOT_FOUND for jobs the caller cannot see, FORBIDDEN where they may not edit the project, or the value’s error code), with `args.job.uid`. Bad input for all jobs (an unknown provider) is a 400 and changes nothing.',
          body: JobPartPatchBatch,
          response: { 200: JobPartPatchResult },
        },
      },
      async (request) => bulkEditJobs(deps, callerOf(request), request.body),
    );
  };
}
