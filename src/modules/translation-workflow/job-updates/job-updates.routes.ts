import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { memsourceHeader, octetStreamBody, uploadFilename } from '../../../http/uploads.js';
import { putUpload } from '../../../storage/stored-files.js';
import { onProject, projectAccessOf } from '../kernel/index.js';
import { JobUpdateSourceRequest, JobUpdateSourceResponse, JobUpdateTargetRequest, ProjectUidParams } from './job-updates.schemas.js';
import type { JobUpdateSourceRequest as SourceRequest, JobUpdateTargetRequest as TargetRequest } from './job-updates.schemas.js';
import { planSourceUpdate, refuseZip, startSourceUpdate } from './update-source.js';
import { planTargetUpdate, startTargetUpdate } from './update-target.js';
import { outboundPolicy } from '../../../outbound/url-policy.js';

/**
 * Update source and update target of jobs (issue 6; docs/job-updates.md). Both take the file as
 * `application/octet-stream` named by `Content-Disposition`, the request in the `Memsource`
 * header, and need edit rights on the project. Everything is checked before a byte is stored, the
 * project first (the routes' declaration): one the caller cannot see is 404 whatever the request looks like.
 */
const EDITORS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Job'];

export function jobUpdatesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const policy = outboundPolicy(deps.config);
  return async (app) => {
    app.post(
      '/v1/projects/:projectUid/jobs/source',
      {
        config: {
          access: onProject(EDITORS, 'edit'),
          errors: [
            'ContentDispositionMissing',
            'InvalidJson',
            'JobInFinalStatus',
            'JobIsSplit',
            'JobNotInFirstWorkflowStep',
            'NotSupportedYet',
            'ZipNotAllowed',
            'JobImportNotFinished',
            'UploadRaced',
            'FileTooLarge',
            'UnsupportedMediaType',
            'TooManyPendingRequests',
            'InvalidCallbackUrl',
          ],
        },
        schema: {
          tags: TAGS,
          operationId: 'updateSource',
          consumes: ['application/octet-stream'],
          summary: 'Update source',
          description:
            "The new file as `application/octet-stream` (`Content-Disposition: filename*=UTF-8''…`), the jobs in the `Memsource` header (`{jobs: [{uid}], preTranslate, allowAutomaticPostAnalysis, callbackUrl}`, at most 100 jobs of the first workflow step, not split, no step in DELIVERED, COMPLETED or CANCELLED). The file becomes a new source of those jobs and their later steps once imported (UPDATE_SOURCE async request); translations of segments whose source did not change are kept.",
          params: ProjectUidParams,
          response: { 200: JobUpdateSourceResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const body = octetStreamBody(request);
        const filename = uploadFilename(request);
        refuseZip(filename);
        const plan = await planSourceUpdate(
          db,
          caller,
          projectAccessOf(request),
          memsourceHeader(request, JobUpdateSourceRequest) as SourceRequest,
          policy,
        );
        const blob = await putUpload(deps, body);
        return startSourceUpdate(deps, caller, plan, { blob, filename });
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/target',
      {
        config: {
          access: onProject(EDITORS, 'edit'),
          errors: [
            'ContentDispositionMissing',
            'FileExtensionMismatch',
            'InvalidJson',
            'JobImportFailed',
            'JobIsSplit',
            'NotSupportedYet',
            'UpdateTargetNotAllowed',
            'ZipNotAllowed',
            'JobImportNotFinished',
            'UploadRaced',
            'FileTooLarge',
            'UnsupportedMediaType',
            'TooManyPendingRequests',
            'InvalidCallbackUrl',
          ],
        },
        schema: {
          tags: TAGS,
          operationId: 'updateTarget',
          consumes: ['application/octet-stream'],
          summary: 'Update target',
          description:
            "A translated copy of the job's file (same extension; not for XLIFF and other bilingual formats) as `application/octet-stream`, the job in the `Memsource` header (`{jobs: [{uid}], unconfirmChangedSegments, callbackUrl}`). Read asynchronously (UPDATE_TARGET): each unit is aligned to the job's segments and changed segments become the job's translations, confirmed unless `unconfirmChangedSegments`.",
          params: ProjectUidParams,
          response: { 202: JobUpdateSourceResponse },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const body = octetStreamBody(request);
        const filename = uploadFilename(request);
        const plan = await planTargetUpdate(
          db,
          caller,
          projectAccessOf(request),
          memsourceHeader(request, JobUpdateTargetRequest) as TargetRequest,
          filename,
          policy,
        );
        const blob = await putUpload(deps, body);
        return reply.code(202).send(await startTargetUpdate(deps, caller, plan, blob));
      },
    );
  };
}
