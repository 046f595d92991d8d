import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { sendStoredFile } from '../../../http/downloads.js';
import { toAsyncRequestDtos } from '../../integration/async-requests/index.js';
import { jobAccessOf, onJob } from '../kernel/index.js';
import { jobSourceFile } from './job-files.repository.js';
import { TargetFileDownloadParams, TargetFileDownloadQuery } from './job-files.schemas.js';
import { JobUidParams } from '../kernel/index.js';
import { AsyncRequestWrapperV2 } from './job-files.schemas.js';
import { buildTargetFileNow, claimTargetFile, releaseDownloadedTargetFile, requestTargetFile } from './target-files.service.js';
import type { DownloadableTargetFile } from './target-files.service.js';

const FILE_RESPONSE = { 200: { description: 'The file, named by Content-Disposition', type: 'string', format: 'binary' } } as const;

/**
 * Job files (docs/job-files-and-operations.md): the original file and target files. Whoever sees
 * the job (linguists only their own jobs) may download both.
 */
export function jobFilesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  /** Target files being sent, released once their response is over. */
  const sending = new WeakMap<FastifyRequest, DownloadableTargetFile>();

  return async (app) => {
    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/original',
      {
        config: { access: onJob(AUTHENTICATED, 'view') },
        schema: {
          tags: ['Job'],
          operationId: 'getOriginalFile',
          summary: 'Download original file',
          description: 'The uploaded file, byte for byte, named as it was uploaded (Content-Disposition with filename*).',
          params: JobUidParams,
          produces: ['application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const source = await jobSourceFile(db, jobAccessOf(request).job.jobSourceId);
        return sendStoredFile(deps, reply, source);
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/targetFile',
      {
        config: { access: onJob(AUTHENTICATED, 'view'), errors: ['JobImportFailed', 'JobImportNotFinished', 'TargetFileFailed'] },
        schema: {
          tags: ['Job'],
          operationId: 'completedFile',
          summary: 'Download target file',
          deprecated: true,
          description:
            'Replaced by the asynchronous `PUT /api2/v2/projects/{projectUid}/jobs/{jobUid}/targetFile` (or v3); still works (issue 13). Builds the same target file while the client waits and answers it at once, named like the original (Content-Disposition). 409 while the file is still being imported (or when the file cannot be written), 400 when its import failed.',
          params: JobUidParams,
          produces: ['application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => sendStoredFile(deps, reply, await buildTargetFileNow(deps, jobAccessOf(request))),
    );

    for (const version of ['v2', 'v3'] as const) {
      app.put(
        `/${version}/projects/:projectUid/jobs/:jobUid/targetFile`,
        {
          config: { access: onJob(AUTHENTICATED, 'view'), errors: ['JobImportFailed', 'JobImportNotFinished', 'TooManyPendingRequests'] },
          schema: {
            tags: ['Job'],
            operationId: version === 'v2' ? 'completedFile_1' : 'completedFileV3',
            summary: 'Download target file (async)',
            description:
              'Starts building the target file (async request EXPORT_COMPLETE_FILE): the job’s translations written into the original file, the source where a segment has none. Download it once with `GET /api2/v2/projects/{projectUid}/jobs/{jobUid}/downloadTargetFile/{asyncRequestId}` after the async request finished. 409 while the file is still being imported, 400 when its import failed. v3 behaves as v2.',
            params: JobUidParams,
            response: { 202: AsyncRequestWrapperV2 },
          },
        },
        async (request, reply) => {
          const row = await requestTargetFile(deps, jobAccessOf(request), callerOf(request).userId);
          const [asyncRequest] = await toAsyncRequestDtos(db, row.organizationId, [row]);
          return reply.code(202).send({ asyncRequest: asyncRequest! });
        },
      );
    }

    app.get(
      '/v2/projects/:projectUid/jobs/:jobUid/downloadTargetFile/:asyncRequestId',
      {
        config: {
          access: onJob(AUTHENTICATED, 'view'),
          errors: ['TargetFileFailed', 'TargetFileNotReady', 'TargetFileAlreadyDownloaded', 'NotImplemented'],
        },
        schema: {
          tags: ['Job'],
          operationId: 'downloadCompletedFile',
          summary: 'Download target file based on async request',
          description:
            'The target file asked for with `PUT …/targetFile`, named like the original. Each asyncRequestId can be used once: a second download is 410. 409 while the file is being built (or when building it failed), 404 for an id that is not a target file of this job. `format=PDF` is not implemented (501).',
          params: TargetFileDownloadParams,
          querystring: TargetFileDownloadQuery,
          produces: ['application/octet-stream'],
          response: FILE_RESPONSE,
        },
        onResponse: async (request) => {
          const file = sending.get(request);
          if (file) await releaseDownloadedTargetFile(deps, file);
        },
      },
      async (request, reply) => {
        if (request.query.format === 'PDF')
          throw errors.NotImplemented({ reason: 'Target files are available in the original format only.' });
        const file = await claimTargetFile(deps, jobAccessOf(request), request.params.asyncRequestId);
        sending.set(request, file);
        return sendStoredFile(deps, reply, file);
      },
    );
  };
}
