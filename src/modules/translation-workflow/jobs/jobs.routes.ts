import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { memsourceHeader, octetStreamBody, parseJsonDocument, sanitizeFilename, uploadFilename } from '../../../http/uploads.js';
import { putUpload } from '../../../storage/stored-files.js';
import { discardUploads } from '../../../http/multipart-uploads.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { jobAccessOf, onJob, onProject, projectAccessOf } from '../kernel/index.js';
import type { ProjectAccess } from '../kernel/index.js';
import { createJobs, planJobs } from './job-create.js';
import { outboundPolicy } from '../../../outbound/url-policy.js';
import { assertJobCapacity } from './job-create.js';
import type { JobPlan, UploadedSource } from './job-create.js';
import { deleteJobsOf, editJobs, resolveChanges, setJobStatus } from './job-edit.js';
import { jobSegmentCounts, listJobSegments, previousWorkflowCounts } from './job-segments.js';
import { jobExtendedDtos, jobReferenceDtos } from '../kernel/index.js';
import { jobStatusChanges, jobWorkflowStep, jobsByUids, listJobs, sourceOf } from './jobs.repository.js';
import { JobList, JobPartExtended, JobParts, JobPartReadyReferences, JobUidParams, ProjectUidParams } from '../kernel/index.js';
import {
  DeletePartsQuery,
  JobCreateRequest,
  JobPartDeleteReferences,
  JobPartPage,
  JobPartPatchSingle,
  JobPartStatusChanges,
  JobPartUpdateBatch,
  JobPartUpdateSingle,
  JobStatusChangeAction,
  ListPartsQuery,
  ProjectWorkflowStep,
  SearchJobs,
  SearchJobsRequest,
  SegmentList,
  SegmentsCountsResponseList,
  SegmentsQuery,
} from './jobs.schemas.js';
import type { JobCreateRequest as JobCreateRequestType } from './jobs.schemas.js';

/**
 * Job operations (issue 6; docs/jobs.md). Creating jobs needs edit rights on the project, or a
 * SUBMITTER's own project; editing and deleting need edit rights; reading is open to whoever sees
 * the job (linguists: the jobs they are a provider of); status moves are also open to the job's
 * providers.
 */
const READERS: Access = AUTHENTICATED;
const CREATORS: Access = roles('ADMIN', 'PROJECT_MANAGER', 'SUBMITTER');
const EDITORS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const STATUS_MOVERS: Access = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');
const TAGS = ['Job'];

function isMultipart(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
}

const parseCreateRequest = (text: string | undefined, field: string) =>
  parseJsonDocument(text, JobCreateRequest, field) as JobCreateRequestType;
const headerText = (request: FastifyRequest) => {
  const header = request.headers['memsource'];
  return Array.isArray(header) ? header[0] : header;
};

export function jobsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const policy = outboundPolicy(deps.config);

  /** octet-stream: one file, named by Content-Disposition, the request in the Memsource header. */
  async function readOctetStream(request: FastifyRequest, access: ProjectAccess): Promise<{ plan: JobPlan; uploads: UploadedSource[] }> {
    const body = octetStreamBody(request);
    const filename = uploadFilename(request);
    const plan = await planJobs(db, policy, access.project, memsourceHeader(request, JobCreateRequest) as JobCreateRequestType);
    await assertJobCapacity(deps, db, access.project.id, plan.jobs.length);
    const blob = await putUpload(deps, body);
    return { plan, uploads: [{ blob, filename, contentType: 'application/octet-stream' }] };
  }

  /**
   * multipart/form-data: `file` parts (one job source each) and the request as a `json` part,
   * before or after the files, or else in the Memsource header. A request that arrives before the
   * first file (a leading `json` part, or the header) is checked before that file is stored; one
   * that follows the files is checked once every part is read, and the files stored are discarded
   * when it is refused.
   */
  async function readMultipart(request: FastifyRequest, access: ProjectAccess): Promise<{ plan: JobPlan; uploads: UploadedSource[] }> {
    let json: string | undefined;
    let plan: JobPlan | null = null;
    let planFromHeader = false;
    const uploads: UploadedSource[] = [];
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname !== 'json') continue;
          if (json !== undefined)
            throw errors.InvalidArguments({
              reason: 'Send one json part.',
              details: [{ field: 'json', message: 'is repeated' }],
            });
          json = String(part.value);
          // The json part wins over the header, whenever it comes.
          if (planFromHeader) {
            plan = null;
            planFromHeader = false;
          }
          continue;
        }
        if (part.fieldname !== 'file')
          throw errors.InvalidArguments({
            reason: `Unexpected file part "${part.fieldname}"; send files as "file".`,
            details: [{ field: part.fieldname, message: 'unexpected part' }],
          });
        if (!plan && json !== undefined) plan = await planJobs(db, policy, access.project, parseCreateRequest(json, 'json'));
        else if (!plan && uploads.length === 0 && headerText(request) !== undefined) {
          plan = await planJobs(db, policy, access.project, memsourceHeader(request, JobCreateRequest) as JobCreateRequestType);
          planFromHeader = true;
        }
        const filename = sanitizeFilename(part.filename ?? '', 'file');
        if (plan) await assertJobCapacity(deps, db, access.project.id, plan.jobs.length * (uploads.length + 1));
        uploads.push({ blob: await putUpload(deps, part.file), filename, contentType: part.mimetype || null });
      }
      if (uploads.length === 0)
        throw errors.InvalidArguments({
          reason: 'Send at least one file part named "file".',
          details: [{ field: 'file', message: 'is required' }],
        });
      if (!plan) {
        const parsed =
          json !== undefined ? parseCreateRequest(json, 'json') : (memsourceHeader(request, JobCreateRequest) as JobCreateRequestType);
        plan = await planJobs(db, policy, access.project, parsed);
        await assertJobCapacity(deps, db, access.project.id, plan.jobs.length * uploads.length);
      }
    } catch (error) {
      await discardUploads(
        deps,
        uploads.map((upload) => upload.blob),
      );
      throw error;
    }
    return { plan, uploads };
  }

  return async (app) => {
    app.post(
      '/v1/projects/:projectUid/jobs',
      {
        config: {
          access: onProject(CREATORS, 'createJobs'),
          errors: [
            'ContentDispositionMissing',
            'InvalidJson',
            'InvalidTargetLanguage',
            'JobLimitExceeded',
            'NotSupportedYet',
            'ReferenceNotFound',
            'UnsupportedLanguage',
            'UploadRaced',
            'FileTooLarge',
            'UnsupportedMediaType',
            'TooManyPendingRequests',
            'InvalidCallbackUrl',
          ],
        },
        schema: {
          tags: TAGS,
          operationId: 'createJob',
          consumes: ['application/octet-stream', 'multipart/form-data'],
          summary: 'Create job',
          description:
            "The file as `application/octet-stream` (named by `Content-Disposition: filename*=UTF-8''…`, the JobCreateRequestDto in the `Memsource` header), or `multipart/form-data` with `file` parts and a `json` part, before or after them (or the `Memsource` header). One job per target language and project workflow step; the import runs asynchronously (IMPORT_JOB).",
          params: ProjectUidParams,
          response: { 201: JobList },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const access = projectAccessOf(request);
        const { plan, uploads } = isMultipart(request) ? await readMultipart(request, access) : await readOctetStream(request, access);
        const created = await createJobs(deps, caller, access, plan, uploads);
        return reply
          .code(201)
          .send({ unsupportedFiles: [], jobs: await jobReferenceDtos(db, created.jobs, 'v1'), asyncRequest: created.asyncRequest });
      },
    );

    app.get(
      '/v2/projects/:projectUid/jobs',
      {
        config: { access: onProject(READERS, 'view'), errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'listPartsV2',
          summary: 'List jobs',
          description:
            'Jobs of one workflow level (default 1), ordered by file and creation. `filename` and `targetLang` match exactly; `dueInHours` keeps jobs due within that many hours from now (overdue ones too); `count=true` answers the totals only.',
          params: ProjectUidParams,
          querystring: ListPartsQuery,
          response: { 200: JobPartPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const access = projectAccessOf(request);
        const q = request.query;
        const page = { pageNumber: q.pageNumber, pageSize: q.pageSize };
        const { rows, total } = await listJobs(
          db,
          caller,
          access,
          {
            workflowLevel: q.workflowLevel,
            statuses: q.status ?? [],
            ...(q.assignedUser !== undefined ? { assignedUserId: q.assignedUser } : {}),
            ...(q.assignedVendor !== undefined ? { assignedVendorId: q.assignedVendor } : {}),
            ...(q.dueInHours !== undefined ? { dueBefore: new Date(deps.clock().getTime() + q.dueInHours * 3_600_000).toISOString() } : {}),
            ...(q.filename !== undefined ? { filename: q.filename } : {}),
            ...(q.targetLang !== undefined ? { targetLang: assertLanguage('targetLang', q.targetLang) } : {}),
            ...(q.notReady !== undefined ? { notReady: q.notReady } : {}),
          },
          page,
          q.count,
        );
        return toPage(await jobReferenceDtos(db, rows, 'v2'), total, page);
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid',
      {
        config: { access: onJob(READERS, 'view') },
        schema: { tags: TAGS, operationId: 'getPart', summary: 'Get job', params: JobUidParams, response: { 200: JobPartExtended } },
      },
      async (request) => {
        const { job } = jobAccessOf(request);
        return (await jobExtendedDtos(db, [job]))[0];
      },
    );

    app.put(
      '/v1/projects/:projectUid/jobs/:jobUid',
      {
        config: { access: onJob(EDITORS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'editPart',
          summary: 'Edit job',
          description: '`status` is required; `dateDue` and `providers` left out keep their values, null clears them.',
          params: JobUidParams,
          body: JobPartUpdateSingle,
          response: { 200: JobPartExtended },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { job } = jobAccessOf(request);
        const [edited] = await editJobs(deps, caller, [job], await resolveChanges(db, job.organizationId, request.body));
        return (await jobExtendedDtos(db, [edited!]))[0];
      },
    );

    app.patch(
      '/v1/projects/:projectUid/jobs/:jobUid',
      {
        config: { access: onJob(EDITORS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'patchPart',
          summary: 'Patch job',
          description: 'Fields left out keep their values; null clears `dateDue` and `providers`.',
          params: JobUidParams,
          body: JobPartPatchSingle,
          response: { 200: JobPartExtended },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { job } = jobAccessOf(request);
        const [edited] = await editJobs(deps, caller, [job], await resolveChanges(db, job.organizationId, request.body));
        return (await jobExtendedDtos(db, [edited!]))[0];
      },
    );

    app.put(
      '/v1/projects/:projectUid/jobs/batch',
      {
        config: { access: onProject(EDITORS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'editParts',
          summary: 'Edit jobs (batch)',
          description: 'The same change for every job listed, all or none (404 naming unknown jobs).',
          params: ProjectUidParams,
          body: JobPartUpdateBatch,
          response: { 200: JobParts },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const access = projectAccessOf(request);
        const jobs = await jobsByUids(
          db,
          caller,
          access,
          request.body.jobs.map((j) => j.uid),
        );
        const edited = await editJobs(deps, caller, jobs, await resolveChanges(db, access.project.organizationId, request.body));
        return { jobs: await jobReferenceDtos(db, edited, 'v1') };
      },
    );

    app.delete(
      '/v1/projects/:projectUid/jobs/batch',
      {
        config: { access: onProject(EDITORS, 'delete') },
        schema: {
          tags: TAGS,
          operationId: 'deleteParts',
          summary: 'Delete job (batch)',
          description:
            'Deletes the jobs for good (OpenTMS has no recycle bin for jobs, so `purge` changes nothing). A file left without jobs is removed with its segments and, once unreferenced, its stored bytes.',
          params: ProjectUidParams,
          querystring: DeletePartsQuery,
          body: JobPartDeleteReferences,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const access = projectAccessOf(request);
        const jobs = await jobsByUids(
          db,
          caller,
          access,
          request.body.jobs.map((j) => j.uid),
        );
        await deleteJobsOf(deps, caller, access, jobs);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/setStatus',
      {
        config: { access: onJob(STATUS_MOVERS, 'setStatus'), errors: ['JobStatusChangeNotAllowed', 'JobStatusUnchanged'] },
        schema: {
          tags: TAGS,
          operationId: 'setStatus',
          summary: 'Edit job status',
          description:
            'Managers set any status; the job’s providers move it along their part (NEW/EMAILED → ACCEPTED/DECLINED, ACCEPTED → DELIVERED/REJECTED, DELIVERED → ACCEPTED). See docs/jobs.md.',
          params: JobUidParams,
          body: JobStatusChangeAction,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const access = jobAccessOf(request);
        await setJobStatus(deps, caller, access, request.body.requestedStatus);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/statusChanges',
      {
        config: { access: onJob(READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'statusChanges',
          summary: 'Get status changes',
          params: JobUidParams,
          response: { 200: JobPartStatusChanges },
        },
      },
      async (request) => {
        const { job } = jobAccessOf(request);
        return { statusChanges: await jobStatusChanges(db, job) };
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/workflowStep',
      {
        config: { access: onJob(READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getPartsWorkflowStep',
          summary: "Get job's workflowStep",
          params: JobUidParams,
          response: { 200: ProjectWorkflowStep },
        },
      },
      async (request) => {
        const { job } = jobAccessOf(request);
        return jobWorkflowStep(db, job);
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/segments',
      {
        config: { access: onJob(READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'listSegments',
          summary: 'Get segments',
          description:
            'Segments `beginIndex`..`endIndex` (inclusive, at most 1000) of the job; empty until the import is OK. Each carries its source, translation (the job’s, else the target the file had), and, as OpenTMS extensions, `index`, `key` and inline `tags`.',
          params: JobUidParams,
          querystring: SegmentsQuery,
          response: { 200: SegmentList },
        },
      },
      async (request) => {
        const { job } = jobAccessOf(request);
        return { segments: await listJobSegments(db, job, await sourceOf(db, job), request.query.beginIndex, request.query.endIndex) };
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/segmentsCount',
      {
        config: { access: onProject(READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getSegmentsCount',
          summary: 'Get segments count',
          params: ProjectUidParams,
          body: JobPartReadyReferences,
          response: { 200: SegmentsCountsResponseList },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const access = projectAccessOf(request);
        const jobs = await jobsByUids(
          db,
          caller,
          access,
          request.body.jobs.map((j) => j.uid),
        );
        const results = [];
        for (const job of jobs) {
          const source = await sourceOf(db, job);
          results.push({
            jobPartUid: job.uid,
            counts: await jobSegmentCounts(db, job, source),
            previousWorkflow: await previousWorkflowCounts(db, job, source),
          });
        }
        return { segmentsCountsResults: results };
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/search',
      {
        config: { access: onProject(READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'searchPartsInProject',
          summary: 'Search jobs in project',
          params: ProjectUidParams,
          body: SearchJobsRequest,
          response: { 200: SearchJobs },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const access = projectAccessOf(request);
        return {
          jobs: await jobExtendedDtos(
            db,
            await jobsByUids(
              db,
              caller,
              access,
              request.body.jobs.map((j) => j.uid),
            ),
          ),
        };
      },
    );
  };
}
