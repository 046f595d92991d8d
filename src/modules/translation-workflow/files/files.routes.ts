import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { octetStreamBody, uploadFilename } from '../../../http/uploads.js';
import { putUpload } from '../../../storage/stored-files.js';
import { sendStoredFile } from '../../../http/downloads.js';
import { discardUploads, notMultipart, readMultipartUpload } from '../../../http/multipart-uploads.js';
import type { UploadedFile } from '../../../http/multipart-uploads.js';
import { listFiles } from './files.repository.js';
import type { UploadedFileRow } from './files.repository.js';
import { FileListQuery, FileUidParams, RemoteUploadedFileBody, UploadedFileDto, UploadedFilePage } from './files.schemas.js';
import { OCTET_STREAM, deleteUploadedFile, requireFile, storeFile } from './files.service.js';

const TAGS = ['File'];

const toDto = (row: UploadedFileRow) => ({ uid: row.uid, name: row.name, size: Number(row.size), type: row.contentType ?? OCTET_STREAM });

const mediaType = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** getFileJson answers the file itself when the client asks for octet-stream (spec: "based on 'Accept' header"). */
const wantsFile = (request: FastifyRequest) => /application\/octet-stream/i.test(request.headers.accept ?? '');

/** The one file of a multipart upload: a request with no file or several is a 400 (the answer describes one file). */
async function singleMultipartFile(deps: AppDeps, request: FastifyRequest): Promise<UploadedFile> {
  const { files } = await readMultipartUpload(deps, request);
  if (files.length !== 1) {
    await discardUploads(
      deps,
      files.map((f) => f.blob),
    );
    throw errors.InvalidArguments({
      reason: `Send exactly one \`file\` part (got ${files.length}).`,
      details: [{ field: 'file', message: 'exactly one file part' }],
    });
  }
  return files[0]!;
}

/** The file an upload request carries: a multipart `file` part or an octet-stream body named by Content-Disposition. */
async function receivedFile(deps: AppDeps, request: FastifyRequest): Promise<UploadedFile> {
  const type = mediaType(request);
  if (type === 'multipart/form-data') return singleMultipartFile(deps, request);
  if (type === OCTET_STREAM) {
    const filename = uploadFilename(request);
    return { filename, contentType: OCTET_STREAM, blob: await putUpload(deps, octetStreamBody(request)) };
  }
  if (type === 'application/json') {
    // Fetching from a URL needs a streamed GET through src/outbound (private-address protection);
    // until the outbound client offers one, the JSON form is refused (docs/reference-files.md).
    throw errors.RemoteUploadNotSupported();
  }
  throw notMultipart();
}

/** The Files API (/api2/v1/files): files uploaded for later use, e.g. by job creation (docs/reference-files.md). */
export function filesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/files',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: TAGS,
          operationId: 'getFiles',
          summary: 'List files',
          description:
            "An ADMIN sees the organization's files, anyone else the files they uploaded. `name`: part of the name, ignoring case; `types`: media types; `createdBy`: the uploader's id; `biggerThan`: bytes. Newest first.",
          querystring: FileListQuery,
          response: { 200: UploadedFilePage },
        },
      },
      async (request) => {
        const { pageNumber, pageSize, name, types, createdBy, biggerThan } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listFiles(db, callerOf(request), { name, types, createdById: createdBy, biggerThan }, page);
        return toPage(rows.map(toDto), total, page);
      },
    );

    app.post(
      '/v1/files',
      {
        config: {
          access: AUTHENTICATED,
          errors: ['ContentDispositionMissing', 'RemoteUploadNotSupported', 'TooManyFiles', 'UploadRaced', 'FileTooLarge'],
        },
        schema: {
          tags: TAGS,
          operationId: 'createUrlFile',
          summary: 'Upload file',
          description:
            'multipart/form-data with one `file` part, or application/octet-stream named by `Content-Disposition: filename*=UTF-8\'\'<file name>`. At most the upload limit (413 beyond). The JSON form (`{"url": …}`, fetching the file from a URL) is not supported yet: 400 RemoteUploadNotSupported.',
          consumes: ['multipart/form-data', 'application/octet-stream', 'application/json'],
          body: { content: { 'application/json': { schema: RemoteUploadedFileBody } } },
          response: { 201: UploadedFileDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await storeFile(deps, caller, await receivedFile(deps, request));
        return reply.code(201).send(toDto(row));
      },
    );

    app.get(
      '/v1/files/:fileUid',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: TAGS,
          operationId: 'getFileJson',
          summary: 'Get file',
          description:
            "The file's record as JSON, or the file itself (byte-identical, named by Content-Disposition) when `Accept` asks for application/octet-stream.",
          params: FileUidParams,
          produces: ['application/json', OCTET_STREAM],
          response: { 200: UploadedFileDto },
        },
      },
      async (request, reply) => {
        const row = await requireFile(db, callerOf(request), request.params.fileUid);
        if (wantsFile(request))
          return sendStoredFile(deps, reply, { sha256: row.sha256, filename: row.name, size: row.size, contentType: row.contentType });
        return toDto(row);
      },
    );

    app.delete(
      '/v1/files/:fileUid',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: TAGS,
          operationId: 'deletesFile',
          summary: 'Delete file',
          description: 'Deletes the file; its stored bytes go once nothing else uses them.',
          params: FileUidParams,
        },
      },
      async (request, reply) => {
        await deleteUploadedFile(deps, await requireFile(db, callerOf(request), request.params.fileUid));
        return reply.code(204).send();
      },
    );
  };
}
