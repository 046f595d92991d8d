import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { onTemplate, templateAccessOf } from '../kernel/index.js';
import type { TemplateRow } from '../kernel/index.js';
import { findReferences, listReferences } from './reference-files.repository.js';
import type { ReferenceFileRow, ReferenceOwner } from './reference-files.repository.js';
import {
  TemplateReferenceFilePage,
  TemplateReferenceFilesDto,
  TemplateReferenceListQuery,
  TemplateReferenceParams,
  TemplateReferenceSelection,
  TemplateUidParams,
} from './reference-files.schemas.js';
import {
  createReferences,
  deleteReferenceRows,
  distinct,
  notOwnedReferences,
  sendReferences,
  toTemplateReferenceDtos,
} from './reference-files.service.js';
import { readMultipartUpload } from '../../../http/multipart-uploads.js';

/** Description, "Reference files": templates' references are written by ADMIN and PROJECT_MANAGER … */
const WRITERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** … and read by ADMIN, PROJECT_MANAGER, GUEST and LINGUIST. */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER', 'GUEST', 'LINGUIST');

const TAGS = ['Project Reference File'];
const INTEGER_ID = /^[0-9]{1,18}$/;

const ownerOf = (template: TemplateRow): ReferenceOwner => ({ kind: 'template', id: template.id });

/**
 * The template's references named by `values` (uids; for the single download also the integer
 * id); 400 when any is not the template's (description, "Condition to status" 1).
 */
async function selectedReferences(
  deps: AppDeps,
  template: TemplateRow,
  values: readonly string[],
  alsoById = false,
): Promise<ReferenceFileRow[]> {
  const wanted = distinct(values);
  const db = deps.database.db;
  const byUid = await findReferences(db, ownerOf(template), { uids: wanted });
  const ids = alsoById ? wanted.filter((v) => INTEGER_ID.test(v) && !byUid.some((r) => r.uid === v)) : [];
  const byId = await findReferences(db, ownerOf(template), { ids });
  const rows = [...byUid, ...byId];
  const missing = wanted.filter((v) => !rows.some((r) => r.uid === v || r.id === v));
  if (missing.length) throw notOwnedReferences(missing, ownerOf(template));
  return rows;
}

/** Reference files of project templates (description, "Reference files"; docs/reference-files.md). */
export function templateReferenceRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v1/projectTemplates/:projectTemplateUid/references',
      {
        config: {
          access: onTemplate(WRITERS, 'writeReferences'),
          errors: ['FileOrNoteRequired', 'InvalidJson', 'TooManyFiles', 'UploadRaced', 'FileTooLarge'],
        },
        schema: {
          tags: TAGS,
          operationId: 'createProjectTemplateReferenceFiles',
          summary: 'Create project template reference files',
          description:
            'multipart/form-data: `file` parts (0 to 50, each within the upload limit) and a `json` part `{"note": "…"}`. Either at least one file or a note is required; the note applies to every file; with no file, exactly one `note.txt` reference is made from the note.',
          consumes: ['multipart/form-data'],
          params: TemplateUidParams,
          response: { 201: TemplateReferenceFilesDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { template } = templateAccessOf(request);
        const upload = await readMultipartUpload(deps, request);
        const rows = await createReferences(deps, caller, template.organizationId, ownerOf(template), upload);
        return reply.code(201).send({ referenceFiles: await toTemplateReferenceDtos(db, caller.organizationId, rows) });
      },
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid/references',
      {
        config: { access: onTemplate(READERS, 'readReferences') },
        schema: {
          tags: TAGS,
          operationId: 'listProjectTemplateReferenceFiles',
          summary: 'List project template reference files',
          description:
            '`filename`: part of the file name, ignoring case. Sorted by `sort` (ID, FILENAME, DATE_CREATED, CREATED_BY; default ID) in `order` (default ASC).',
          params: TemplateUidParams,
          querystring: TemplateReferenceListQuery,
          response: { 200: TemplateReferenceFilePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { template } = templateAccessOf(request);
        const { pageNumber, pageSize, filename, sort, order } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listReferences(db, ownerOf(template), { filename, sort, order }, page);
        return toPage(await toTemplateReferenceDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/projectTemplates/:projectTemplateUid/references/download',
      {
        config: { access: onTemplate(READERS, 'readReferences') },
        schema: {
          tags: TAGS,
          operationId: 'batchDownloadProjectTemplateReferenceFiles',
          summary: 'Download project template reference files (batch)',
          description:
            'Body `{"referenceFiles": [{"uid": "…"}]}`. One reference downloads as its file, several as a ZIP archive; a reference that is not the template\'s is a 400.',
          params: TemplateUidParams,
          body: TemplateReferenceSelection,
          produces: ['application/octet-stream', 'application/zip'],
        },
      },
      async (request, reply) => {
        const { template } = templateAccessOf(request);
        const rows = await selectedReferences(
          deps,
          template,
          request.body.referenceFiles.map((r) => r.uid),
        );
        return sendReferences(deps, reply, rows, `${template.name}-references.zip`);
      },
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid/references/:referenceFileId',
      {
        config: { access: onTemplate(READERS, 'readReferences') },
        schema: {
          tags: TAGS,
          operationId: 'downloadProjectTemplateReference',
          summary: 'Download project template reference file',
          description:
            "The file as uploaded, named by Content-Disposition. `referenceFileId` is the reference's uid (or its integer id); a reference that is not the template's is a 400.",
          params: TemplateReferenceParams,
          produces: ['application/octet-stream'],
        },
      },
      async (request, reply) => {
        const { template } = templateAccessOf(request);
        const rows = await selectedReferences(deps, template, [request.params.referenceFileId], true);
        return sendReferences(deps, reply, rows, rows[0]!.filename);
      },
    );

    app.delete(
      '/v1/projectTemplates/:projectTemplateUid/references',
      {
        config: { access: onTemplate(WRITERS, 'writeReferences') },
        schema: {
          tags: TAGS,
          operationId: 'batchDeleteProjectTemplateReferenceFiles',
          summary: 'Delete project template reference files (batch)',
          description:
            'Body `{"referenceFiles": [{"uid": "…"}]}` (not empty). A reference that is not the template\'s (another template\'s, a project\'s, another organization\'s) is a 400 and nothing is deleted. A stored file is removed once no reference points to it.',
          params: TemplateUidParams,
          body: TemplateReferenceSelection,
        },
      },
      async (request, reply) => {
        const { template } = templateAccessOf(request);
        const rows = await selectedReferences(
          deps,
          template,
          request.body.referenceFiles.map((r) => r.uid),
        );
        await deleteReferenceRows(deps, rows);
        return reply.code(204).send();
      },
    );
  };
}
