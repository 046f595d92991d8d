import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { octetStreamBody, uploadFilename } from '../../../http/uploads.js';
import { putUpload } from '../../../storage/stored-files.js';
import { toUserReference } from '../../identity/users/index.js';
import { onProject, projectAccessOf } from '../kernel/index.js';
import type { ProjectAccess } from '../kernel/index.js';
import { assertDeletable } from './reference-access.js';
import { findReferenceById, findReferences, listReferences, referenceCreators } from './reference-files.repository.js';
import type { ReferenceFileRow, ReferenceOwner } from './reference-files.repository.js';
import {
  CreatorsQuery,
  ProjectReferenceListQuery,
  ProjectReferenceParams,
  ProjectReferenceSelection,
  ProjectUidParams,
  ReferenceFilePageDto,
  ReferenceFileReference,
  ReferenceFilesDto,
  ReferenceNote,
  UserReferencesDto,
} from './reference-files.schemas.js';
import {
  createReferences,
  deleteReferenceRows,
  distinct,
  notOwnedReferences,
  sendReferences,
  toProjectReferenceDtos,
} from './reference-files.service.js';
import { readMultipartUpload } from '../../../http/multipart-uploads.js';

/** Description, "Reference files": who may add and delete references of the projects they see. */
const WRITERS: Access = roles('ADMIN', 'PROJECT_MANAGER', 'GUEST', 'SUBMITTER');
/** Readers add linguists, who see the projects of their jobs (docs/reference-files.md). */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER', 'GUEST', 'SUBMITTER', 'LINGUIST');

const TAGS = ['Project Reference File'];
const INTEGER_ID = /^[0-9]{1,18}$/;

const ownerOf = (access: ProjectAccess): ReferenceOwner => ({ kind: 'project', id: access.project.id });

/** The rows of the selected ids, all of them the project's; 400 naming those that are not. */
async function selectedReferences(deps: AppDeps, access: ProjectAccess, selection: ProjectReferenceSelection): Promise<ReferenceFileRow[]> {
  const ids = distinct(selection.referenceFiles.map((r) => r.id));
  const rows = await findReferences(deps.database.db, ownerOf(access), { ids });
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw notOwnedReferences(missing, ownerOf(access));
  return rows;
}

function isOctetStream(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/octet-stream';
}

/** Reference files of projects (description, "Reference files"; docs/reference-files.md). */
export function projectReferenceRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v2/projects/:projectUid/references',
      {
        config: {
          access: onProject(WRITERS, 'writeReferences'),
          errors: ['FileOrNoteRequired', 'InvalidJson', 'TooManyFiles', 'UploadRaced', 'FileTooLarge'],
        },
        schema: {
          tags: TAGS,
          operationId: 'createReferenceFiles',
          summary: 'Create project reference files',
          description:
            'multipart/form-data: `file` parts (at most 50, each within the upload limit) and an optional `json` part `{"note": "…"}`. The note applies to every file; with no file, one `note.txt` reference is made from the note. At least one file or a note is required.',
          consumes: ['multipart/form-data'],
          params: ProjectUidParams,
          response: { 201: ReferenceFilesDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const access = projectAccessOf(request);
        const upload = await readMultipartUpload(deps, request);
        const rows = await createReferences(deps, caller, access.project.organizationId, ownerOf(access), upload);
        return reply.code(201).send({ referenceFiles: await toProjectReferenceDtos(db, rows) });
      },
    );

    app.post(
      '/v1/projects/:projectUid/references',
      {
        config: {
          access: onProject(WRITERS, 'writeReferences'),
          errors: ['ContentDispositionMissing', 'FileOrNoteRequired', 'UploadRaced', 'FileTooLarge'],
        },
        schema: {
          tags: TAGS,
          operationId: 'createReferenceFile',
          summary: 'Create project reference file',
          deprecated: true,
          description:
            'Replaced by v2 (multipart). `application/json` `{"note": "…"}` makes a `note.txt` reference from the note; `application/octet-stream` uploads one file named by the required header `Content-Disposition: filename*=UTF-8\'\'<file name>`.',
          consumes: ['application/json', 'application/octet-stream'],
          params: ProjectUidParams,
          body: { content: { 'application/json': { schema: ReferenceNote } } },
          response: { 201: ReferenceFileReference },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const access = projectAccessOf(request);
        let rows: ReferenceFileRow[];
        if (isOctetStream(request)) {
          const filename = uploadFilename(request);
          const blob = await putUpload(deps, octetStreamBody(request));
          rows = await createReferences(deps, caller, access.project.organizationId, ownerOf(access), {
            files: [{ filename, contentType: null, blob }],
            json: undefined,
          });
        } else {
          const body = request.body as { note?: unknown } | undefined;
          if (!body || typeof body !== 'object') throw octetOrJsonRequired();
          rows = await createReferences(deps, caller, access.project.organizationId, ownerOf(access), {
            files: [],
            json: JSON.stringify(body),
          });
        }
        return reply.code(201).send((await toProjectReferenceDtos(db, rows))[0]!);
      },
    );

    app.get(
      '/v1/projects/:projectUid/references',
      {
        config: { access: onProject(READERS, 'readReferences') },
        schema: {
          tags: TAGS,
          operationId: 'listReferenceFiles',
          summary: 'List project reference files',
          description:
            "`filename`: part of the file name, ignoring case; `dateCreatedSince`: created at or after; `createdBy`: the creator's uid. `access.canCreate` says whether the caller may add references.",
          params: ProjectUidParams,
          querystring: ProjectReferenceListQuery,
          response: { 200: ReferenceFilePageDto },
        },
      },
      async (request) => {
        const access = projectAccessOf(request);
        const { pageNumber, pageSize, filename, dateCreatedSince, createdBy, sort, order } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listReferences(
          db,
          ownerOf(access),
          { filename, dateCreatedSince, createdByUid: createdBy, sort, order },
          page,
        );
        const canCreate = access.permissions.has('writeReferences');
        return { ...toPage(await toProjectReferenceDtos(db, rows), total, page), access: { canCreate } };
      },
    );

    app.get(
      '/v1/projects/:projectUid/references/creators',
      {
        config: { access: onProject(READERS, 'readReferences') },
        schema: {
          tags: TAGS,
          operationId: 'listReferenceFileCreators',
          summary: 'List project reference file creators',
          description:
            'Not paged: at most 50 users, by user name. Narrow the list with `userName` (part of the user name, first or last name, ignoring case).',
          params: ProjectUidParams,
          querystring: CreatorsQuery,
          response: { 200: UserReferencesDto },
        },
      },
      async (request) => {
        const users = await referenceCreators(db, projectAccessOf(request).project.id, request.query.userName);
        return { users: users.map(toUserReference) };
      },
    );

    app.post(
      '/v1/projects/:projectUid/references/download',
      {
        config: { access: onProject(READERS, 'readReferences') },
        schema: {
          tags: TAGS,
          operationId: 'batchDownloadReferenceFiles',
          summary: 'Download project reference files (batch)',
          description:
            "One selected reference downloads as its file, several as a ZIP archive. A reference that is not the project's is a 400.",
          params: ProjectUidParams,
          body: ProjectReferenceSelection,
          produces: ['application/octet-stream', 'application/zip'],
        },
      },
      async (request, reply) => {
        const access = projectAccessOf(request);
        const rows = await selectedReferences(deps, access, request.body);
        return sendReferences(deps, reply, rows, `${access.project.name}-references.zip`);
      },
    );

    app.get(
      '/v1/projects/:projectUid/references/:referenceFileId',
      {
        config: { access: onProject(READERS, 'readReferences') },
        schema: {
          tags: TAGS,
          operationId: 'downloadReference',
          summary: 'Download project reference file',
          description: 'The file as uploaded, named by Content-Disposition. References are addressed by their integer id.',
          params: ProjectReferenceParams,
          produces: ['application/octet-stream'],
        },
      },
      async (request, reply) => {
        const id = request.params.referenceFileId;
        const row = INTEGER_ID.test(id) ? await findReferenceById(db, ownerOf(projectAccessOf(request)), id) : undefined;
        if (!row) throw errors.ResourceNotFound({ what: 'Reference file' });
        return sendReferences(deps, reply, [row], row.filename);
      },
    );

    app.delete(
      '/v1/projects/:projectUid/references',
      {
        config: { access: onProject(WRITERS, 'writeReferences') },
        schema: {
          tags: TAGS,
          operationId: 'batchDeleteReferenceFiles',
          summary: 'Delete project reference files (batch)',
          description:
            'Body `{"referenceFiles": [{"id": "…"}]}` (integer ids, not empty). A reference that is not the project\'s is a 400 and nothing is deleted. A stored file is removed once no reference points to it. Users of a vendor organization may delete only their own references, and only when the project allows vendors to upload references.',
          params: ProjectUidParams,
          body: ProjectReferenceSelection,
        },
      },
      async (request, reply) => {
        const access = projectAccessOf(request);
        const rows = await selectedReferences(deps, access, request.body);
        assertDeletable(callerOf(request), access, rows);
        await deleteReferenceRows(deps, rows);
        return reply.code(204).send();
      },
    );
  };
}

const octetOrJsonRequired = () => errors.UnsupportedMediaType({ expected: 'noteOrFile' });
