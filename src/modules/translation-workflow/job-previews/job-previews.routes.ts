import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { AUTHENTICATED, callerOf, roles } from '../../../http/access.js';
import { attachmentDisposition } from '../../../http/downloads.js';
import { readMultipartUpload } from '../../../http/multipart-uploads.js';
import { octetStreamBody } from '../../../http/uploads.js';
import { jobAccessOf, onJob, onProject, projectAccessOf, ProjectUidParams } from '../kernel/index.js';
import {
  AssetParams,
  JobPreviewPackage,
  PreviewParams,
  PreviewUrls,
  PreviewUrlsQuery,
  TargetFileWarnings,
} from './job-previews.schemas.js';
import { PACKAGE_HTML_CSP } from './preview-pages.js';
import { findAsset, isActiveContent, uploadPreviewPackage } from './preview-packages.service.js';
import {
  bilingualOverlay,
  jobOfBilingualFile,
  jobPreview,
  jobTargetFileWarnings,
  previewKindOf,
  readPreviewBilingualFile,
} from './previews.service.js';
import type { Preview } from './previews.service.js';
import { jobSourceFile } from '../job-files/index.js';

/** Who may upload preview packages: those who create jobs (createJob's roles), where the project lets them. */
const PACKAGE_UPLOADERS = roles('ADMIN', 'PROJECT_MANAGER', 'SUBMITTER');

const FILE_RESPONSE = { 200: { description: 'The preview, named by Content-Disposition', type: 'string', format: 'binary' } } as const;
const PREVIEW_ERRORS = ['JobImportFailed', 'JobImportNotFinished', 'TargetFileFailed', 'PreviewNotAvailable', 'PreviewFailed'] as const;
const BILINGUAL_ERRORS = ['BilingualFileUnreadable', 'BilingualFileMismatch', 'UnsupportedMediaType'] as const;

const PREVIEW_DESCRIPTION =
  'The job’s translated document (its target file, as the target-file download builds it) for viewing: an HTML file as itself with its scripts removed, Markdown rendered as HTML, an Office document (DOCX, XLSX, PPTX, ODF) as PDF made by LibreOffice, any other format as an HTML page listing its units (key, source, translation). HTML answers carry a Content-Security-Policy that lets no script run. 501 when the document is an Office file and LibreOffice is not installed (or the document is past the preview limit); 409 while the file is being imported.';

/** Whether a request has a body (an empty body is no body). */
function hasBody(request: FastifyRequest): boolean {
  if (request.body === undefined || request.body === null) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

async function sendPreview(reply: FastifyReply, preview: Preview): Promise<FastifyReply> {
  reply.header('content-disposition', attachmentDisposition(preview.filename));
  reply.header('x-content-type-options', 'nosniff');
  if (preview.csp) reply.header('content-security-policy', preview.csp);
  if (preview.size !== undefined) reply.header('content-length', String(preview.size));
  reply.type(preview.contentType);
  if (preview.dispose) {
    const dispose = preview.dispose;
    if (typeof preview.body === 'string') await dispose();
    else (preview.body as Readable).once('close', () => void dispose());
  }
  return reply.send(preview.body);
}

/**
 * Job previews (docs/previews.md): the preview of a job's translated document, of a bilingual
 * file's translations, the PDF preview's address, target-file warnings, and preview packages.
 * Whoever sees the job (linguists only their own jobs) previews it.
 */
export function jobPreviewsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/preview',
      {
        config: { access: onJob(AUTHENTICATED, 'view'), errors: [...PREVIEW_ERRORS] },
        schema: {
          tags: ['Job'],
          operationId: 'filePreviewJob',
          summary: 'Download preview file',
          description: PREVIEW_DESCRIPTION,
          params: PreviewParams,
          produces: ['text/html', 'application/pdf', 'application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => sendPreview(reply, await jobPreview(deps, jobAccessOf(request))),
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/preview',
      {
        config: { access: onJob(AUTHENTICATED, 'view'), errors: [...PREVIEW_ERRORS, ...BILINGUAL_ERRORS] },
        schema: {
          tags: ['Job'],
          operationId: 'filePreview',
          summary: 'Download preview file',
          description: `Takes the job’s bilingual file (MXLIFF) as \`application/octet-stream\`: the preview shows its translations (segments with an empty target show the job’s). Without a body, the job’s own translations, as the GET. A file of another job, or whose sources are not the job’s, is a 400. ${PREVIEW_DESCRIPTION}`,
          params: PreviewParams,
          consumes: ['application/octet-stream'],
          produces: ['text/html', 'application/pdf', 'application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const access = jobAccessOf(request);
        if (!hasBody(request)) return sendPreview(reply, await jobPreview(deps, access));
        const [file] = await readPreviewBilingualFile(deps, octetStreamBody(request));
        return sendPreview(reply, await jobPreview(deps, access, await bilingualOverlay(db, access, file!)));
      },
    );

    app.post(
      '/v1/bilingualFiles/preview',
      {
        config: { access: AUTHENTICATED, errors: [...PREVIEW_ERRORS, ...BILINGUAL_ERRORS] },
        schema: {
          tags: ['Bilingual File'],
          operationId: 'getPreviewFile',
          summary: 'Download preview',
          description: `An MXLIFF file of one job (as downloaded with getBilingualFile) as \`application/octet-stream\`: the preview of the job it names (m:task-id) with the file’s translations (segments with an empty target show the job’s). The caller must see the job; a file of a job they cannot see, or whose sources are not the job’s, is a 400. ${PREVIEW_DESCRIPTION}`,
          consumes: ['application/octet-stream'],
          produces: ['text/html', 'application/pdf', 'application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        if (!hasBody(request))
          throw errors.BilingualFileUnreadable({ reason: 'the request has no file (send the MXLIFF file as application/octet-stream)' });
        const [file] = await readPreviewBilingualFile(deps, octetStreamBody(request));
        const access = await jobOfBilingualFile(db, callerOf(request), file!);
        return sendPreview(reply, await jobPreview(deps, access, await bilingualOverlay(db, access, file!)));
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/previewUrl',
      {
        config: { access: onJob(AUTHENTICATED, 'view') },
        schema: {
          tags: ['Job'],
          operationId: 'previewUrls',
          summary: 'Get PDF preview',
          description:
            'Where the job’s preview is: `PDF` for Office documents (the preview is a PDF made by LibreOffice), `ORIGINAL` for others (an HTML page). The address is the preview operation (filePreviewJob) of the job, or of the job of the same file and target language at `workflowLevel` when given (404 when there is none); it needs the caller’s credentials like every operation.',
          params: PreviewParams,
          querystring: PreviewUrlsQuery,
          response: { 200: PreviewUrls },
        },
      },
      async (request) => {
        const access = jobAccessOf(request);
        let jobUid = access.job.uid;
        const level = request.query.workflowLevel;
        if (level !== undefined && level !== Number(access.job.workflowLevel)) {
          const sibling = await db
            .selectFrom('jobs')
            .select('uid')
            .where('jobSourceId', '=', access.job.jobSourceId)
            .where('targetLang', '=', access.job.targetLang)
            .where('workflowLevel', '=', level)
            .orderBy('id')
            .executeTakeFirst();
          if (!sibling) throw errors.ResourceNotFound({ what: 'Job', reason: `the job has no workflow step at level ${level}` });
          jobUid = sibling.uid;
        }
        const source = await jobSourceFile(db, access.job.jobSourceId);
        const base = deps.config.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
        const url = `${base}/api2/v1/projects/${encodeURIComponent(access.project.project.uid)}/jobs/${encodeURIComponent(jobUid)}/preview`;
        const type = previewKindOf(source.format, source.filename) === 'OFFICE' ? ('PDF' as const) : ('ORIGINAL' as const);
        return { previews: [{ type, url }] };
      },
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/targetFileWarnings',
      {
        config: { access: onJob(AUTHENTICATED, 'view'), errors: ['JobImportFailed', 'JobImportNotFinished'] },
        schema: {
          tags: ['Job'],
          operationId: 'getCompletedFileWarnings',
          summary: "Get target file's warnings",
          description:
            'What writing the job’s target file adjusts (for the whole file: split jobs share it): translated segments lacking a tag or tag pair their source has (the target file lacks it too), characters the file’s encoding cannot hold (written as character references or escapes), and units whose translation is longer than the file allows (XLIFF `maxwidth`, …). One sentence per finding; none: `warnings: []`.',
          params: PreviewParams,
          response: { 200: TargetFileWarnings },
        },
      },
      async (request) => ({ warnings: await jobTargetFileWarnings(deps, jobAccessOf(request)) }),
    );

    app.post(
      '/v1/projects/:projectUid/jobPreviewPackage',
      {
        config: {
          access: onProject(PACKAGE_UPLOADERS, 'createJobs'),
          errors: ['PreviewPackageInvalid', 'InvalidJson', 'TooManyFiles', 'UploadRaced', 'FileTooLarge'],
        },
        schema: {
          tags: ['Project'],
          operationId: 'uploadJobPreviewPackage',
          summary: 'Upload Job Preview Package',
          description:
            'A ZIP archive (an HTML build of the document with its styles, images and fonts) as the multipart `file` part, stored entry by entry; each entry is then served by getAsset under its asset uid (the answer lists them with their paths). An optional `json` part `{"jobs": [{"uid": "…"}]}` (an OpenTMS extension) names the jobs of the project the package is for; without it, the package serves every job of the project. Entry names with `..`, absolute paths or backslashes, archives past the entry, size or compression-ratio limits, and files that are not ZIP archives are a 400 that stores nothing. Needs the right to create jobs in the project.',
          params: ProjectUidParams,
          consumes: ['multipart/form-data'],
          response: { 200: JobPreviewPackage },
        },
      },
      async (request) => {
        const access = projectAccessOf(request);
        const upload = await readMultipartUpload(deps, request);
        return uploadPreviewPackage(deps, callerOf(request), access, upload);
      },
    );

    app.get(
      '/v1/jobs/:jobPartUid/previewPackage/asset/:assetFileUid',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: ['Job'],
          operationId: 'getAsset',
          summary: 'Get Job Preview Package assets',
          description:
            'One file of a preview package (uploadJobPreviewPackage), by its asset uid, for a job the caller sees: the package must be of the job’s project and be for this job (or for no job in particular). Its content type comes from its extension; HTML, XHTML and SVG files carry a Content-Security-Policy that lets no script run. 404 for an asset the job has no access to.',
          params: AssetParams,
          produces: ['application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const asset = await findAsset(db, callerOf(request), request.params.jobPartUid, request.params.assetFileUid);
        const stream = await deps.blobs.open(asset.sha256);
        const name = asset.path.slice(asset.path.lastIndexOf('/') + 1);
        reply.header('content-disposition', attachmentDisposition(name).replace(/^attachment/, 'inline'));
        reply.header('x-content-type-options', 'nosniff');
        if (isActiveContent(asset.contentType)) reply.header('content-security-policy', PACKAGE_HTML_CSP);
        reply.header('content-length', String(asset.size));
        reply.type(asset.contentType);
        return (reply as FastifyReply).send(stream);
      },
    );
  };
}
