import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf } from '../../../http/access.js';
import { attachmentDisposition } from '../../../http/downloads.js';
import { discardUploads, readMultipartUpload } from '../../../http/multipart-uploads.js';
import { octetStreamBody } from '../../../http/uploads.js';
import { onProject, projectAccessOf, ProjectUidParams } from '../kernel/index.js';
import {
  CompareBilingualQuery,
  ComparedSegments,
  ConvertBilingualQuery,
  GetBilingualFileBody,
  GetBilingualFileQuery,
  ProjectJobParts,
  UploadBilingualFileQuery,
} from './bilingual-files.schemas.js';
import {
  applyBilingualFiles,
  bilingualFilename,
  compareBilingualFile,
  convertBilingualFile,
  docxOfJobs,
  jobsForDownload,
  mxliffOfJobs,
  readBilingualFile,
  tmxOfJobs,
  uploadOutcomeDto,
} from './bilingual-files.service.js';
import type { ReadBilingualJob } from '../../../formats/mxliff.js';

const FILE_RESPONSE = { 200: { description: 'The file, named by Content-Disposition', type: 'string', format: 'binary' } } as const;
const TAGS = ['Bilingual File'];
const FILE_ERRORS = [
  'BilingualFileUnreadable',
  'BilingualFileMismatch',
  'JobImportFailed',
  'JobImportNotFinished',
  'UnsupportedMediaType',
] as const;

/**
 * Bilingual files (docs/bilingual-files.md): download jobs as MXLIFF (or plain XLIFF, TMX),
 * upload them back, compare them with the jobs. Whoever sees a job downloads it; uploading needs
 * the right to translate it (linguists their own jobs).
 */
export function bilingualFilesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v1/projects/:projectUid/jobs/bilingualFile',
      {
        config: { access: onProject(AUTHENTICATED, 'view'), errors: ['JobImportFailed', 'JobImportNotFinished'] },
        schema: {
          tags: ['Job', ...TAGS],
          operationId: 'getBilingualFile',
          summary: 'Download bilingual file',
          description:
            'The jobs (`{jobs: [{uid}]}`, 1 to 1,000 jobs of the project) as one bilingual file: `MXLF` (default; MXLIFF, Phrase’s XLIFF 1.2 with `m:` state attributes, read back by uploadBilingualFileV2), `DOCX` (a table per job: id, source, target, state, score; read back too), `XLIFF` (plain XLIFF 1.2, export only) or `TMX` (the translated segments, export only). One `<file>` per job; trans-unit ids are `<job uid>:<segment index>`. 409 while a job is being imported, 400 when its import failed.',
          params: ProjectUidParams,
          querystring: GetBilingualFileQuery,
          body: GetBilingualFileBody,
          produces: ['application/octet-stream', 'application/mxliff', 'application/xliff+xml'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const access = projectAccessOf(request);
        const jobs = await jobsForDownload(
          deps,
          callerOf(request),
          access,
          request.body.jobs.map((j) => j.uid),
        );
        const format = request.query.format ?? 'MXLF';
        const [stream, extension, type]: [Readable, string, string] =
          format === 'TMX'
            ? [tmxOfJobs(deps, access, jobs), 'tmx', 'application/octet-stream']
            : format === 'DOCX'
              ? [docxOfJobs(deps, access, jobs), 'docx', 'application/octet-stream']
              : format === 'XLIFF'
                ? [mxliffOfJobs(deps, access, jobs, 'xliff'), 'xlf', 'application/xliff+xml']
                : [mxliffOfJobs(deps, access, jobs, 'mxliff'), 'mxliff', 'application/mxliff'];
        reply.header('content-disposition', attachmentDisposition(bilingualFilename(access, jobs, extension)));
        reply.type(type);
        return (reply as FastifyReply).send(stream);
      },
    );

    app.post(
      '/v2/bilingualFiles',
      {
        config: { access: AUTHENTICATED, errors: [...FILE_ERRORS, 'TooManyFiles', 'FileTooLarge', 'AccessDenied'] },
        schema: {
          tags: TAGS,
          operationId: 'uploadBilingualFileV2',
          consumes: ['multipart/form-data'],
          summary: 'Upload bilingual file',
          description:
            'MXLIFF or bilingual DOCX files, or ZIP archives of them, as multipart `file` parts (at most 50 files, ZIP entries counted). Each `<file>` updates its job segment by segment: targets, confirmation and (for project managers) locks. Segments the job holds locked are refused; every file is checked first, and a file from another job, another target language or a changed source is a 400 that changes nothing. `saveToTransMemory` (default `Confirmed`) writes the confirmed (`All`: every changed) segments to the project’s write TMs; `setCompleted` moves the jobs to COMPLETED where the caller may. Answers the jobs and, as an OpenTMS extension, `segments` with what changed, stayed and was refused.',
          querystring: UploadBilingualFileQuery,
          response: { 200: ProjectJobParts },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { files } = await readMultipartUpload(deps, request);
        try {
          const read: ReadBilingualJob[] = [];
          const budget = { files: 0 };
          for (const file of files) read.push(...(await readBilingualFile(deps, await deps.blobs.open(file.blob.sha256), budget)));
          const outcome = await applyBilingualFiles(deps, caller, read, {
            saveToTransMemory: request.query.saveToTransMemory ?? 'Confirmed',
            setCompleted: request.query.setCompleted ?? false,
          });
          return await uploadOutcomeDto(db, outcome);
        } finally {
          await discardUploads(
            deps,
            files.map((f) => f.blob),
          );
        }
      },
    );

    app.post(
      '/v1/bilingualFiles/compare',
      {
        config: { access: AUTHENTICATED, errors: [...FILE_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'compareBilingualFile',
          consumes: ['application/octet-stream'],
          summary: 'Compare bilingual file',
          description:
            'An MXLIFF file as `application/octet-stream`, compared with the jobs it names: `Diff` for a segment whose target, confirmation or lock differs from the job’s, `Miss` for one the job does not have (not its segment, or its source changed). Segments equal to the job’s are not listed.',
          querystring: CompareBilingualQuery,
          response: { 200: ComparedSegments },
        },
      },
      async (request) => compareBilingualFile(deps, callerOf(request), await readBilingualFile(deps, octetStreamBody(request))),
    );

    app.post(
      '/v1/bilingualFiles/convert',
      {
        config: { access: AUTHENTICATED, errors: ['BilingualFileUnreadable', 'UnsupportedMediaType', 'TooManyFiles'] },
        schema: {
          tags: TAGS,
          operationId: 'convertBilingualFile',
          consumes: ['application/octet-stream'],
          summary: 'Convert bilingual file',
          description:
            'A bilingual file as `application/octet-stream` converted `from` MXLF or DOCX `to` the other (the same segments, ids and states; converting to the same format rewrites the file), or to `XLIFF2` (an OpenTMS extension: XLIFF 2.0, one language pair per document). Needs no access to the jobs: only the file is read; the content decides what it is.',
          querystring: ConvertBilingualQuery,
          produces: ['application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const stream = await convertBilingualFile(deps, octetStreamBody(request), request.query.to);
        const name = { DOCX: 'bilingual.docx', XLIFF2: 'bilingual.xlf', MXLF: 'bilingual.mxliff' }[request.query.to];
        reply.header('content-disposition', attachmentDisposition(name));
        reply.type('application/octet-stream');
        return (reply as FastifyReply).send(stream);
      },
    );
  };
}
