import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { onProject, projectAccessOf } from '../kernel/index.js';
import { ProjectUidParams } from '../kernel/index.js';
import { deleteHandovers, sendHandovers, uploadHandover } from './file-handovers.service.js';

/**
 * File handovers of projects (docs/job-content-and-handovers.md): a job's provider uploads a file
 * for the project's managers; managers (and the providers, for their own jobs) download them;
 * managers delete them. Each route declares the project; the jobs it names are checked one by one.
 */

const TAGS = ['Job'];
const UPLOADERS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');
const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');

/** Spec `FileHandoverDto`. */
const FileHandoverDto = Type.Object({ fileId: Type.String(), filename: Type.String() });
const JobPartReferences = Type.Object({
  jobs: Type.Array(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }), { minItems: 1, maxItems: 100 }),
});
const HandoverQuery = Type.Object({ jobUid: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 })) });

export function fileHandoversRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.put(
      '/v1/projects/:projectUid/fileHandovers',
      {
        config: {
          access: onProject(UPLOADERS, 'translate'),
          errors: [
            'ContentDispositionMissing',
            'FileHandoverDisabled',
            'InvalidJson',
            'UploadRaced',
            'FileTooLarge',
            'UnsupportedMediaType',
          ],
        },
        schema: {
          tags: TAGS,
          operationId: 'uploadHandoverFile',
          consumes: ['application/octet-stream'],
          summary: 'Upload handover file',
          description:
            'The body is the file (application/octet-stream), named by Content-Disposition; the `Memsource` header names the jobs (`{"jobs":[{"uid":"…"}]}`). Each job gets this file as its handover file, replacing an earlier one. The project’s fileHandover setting must be on (400 FileHandoverDisabled). Providers of the jobs and those who may edit the project upload; split and multilingual jobs are refused.',
          params: ProjectUidParams,
          response: { 200: FileHandoverDto },
        },
      },
      async (request) => uploadHandover(deps, callerOf(request), projectAccessOf(request), request),
    );

    app.get(
      '/v1/projects/:projectUid/fileHandovers',
      {
        config: { access: onProject(UPLOADERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getHandoverFiles',
          summary: 'Download handover file(s)',
          description:
            'The handover files of the jobs `jobUid` (repeatable; left out: every job of the project). One file comes as itself, several as a ZIP; 404 when none matched. Linguists get the files of their own jobs only.',
          params: ProjectUidParams,
          querystring: HandoverQuery,
          produces: ['application/octet-stream'],
          response: { 200: { description: 'File / Archive with file handovers', type: 'string', format: 'binary' } },
        },
      },
      async (request, reply) => sendHandovers(deps, reply, callerOf(request), projectAccessOf(request), request.query.jobUid ?? null),
    );

    app.delete(
      '/v1/projects/:projectUid/fileHandovers',
      {
        config: { access: onProject(MANAGERS, 'edit') },
        schema: {
          tags: TAGS,
          operationId: 'deleteHandoverFile',
          summary: 'Delete handover file',
          description: 'Deletes the handover files of the listed jobs (edit rights on the project); 404 when none of them has one.',
          params: ProjectUidParams,
          body: JobPartReferences,
        },
      },
      async (request, reply) => {
        await deleteHandovers(
          deps,
          callerOf(request),
          projectAccessOf(request),
          request.body.jobs.map((j) => j.uid),
        );
        return reply.code(204).send();
      },
    );
  };
}
