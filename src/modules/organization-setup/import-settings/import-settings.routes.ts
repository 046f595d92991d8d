import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { fileImportSettingsView, parseImportSettingsDocument } from './import-settings-document.js';
import { listNamedImportSettings } from './import-settings.repository.js';
import type { ImportSettingsRow } from './import-settings.repository.js';
import {
  CreateImportSettingsBody,
  EditDefaultImportSettingsBody,
  EditImportSettingsBody,
  ImportSettingsDto,
  ImportSettingsListQuery,
  ImportSettingsPage,
  ImportSettingsUidParams,
} from './import-settings.schemas.js';
import {
  createImportSettings,
  defaultImportSettings,
  deleteImportSettings,
  editDefaultImportSettings,
  editImportSettings,
  requireImportSettings,
} from './import-settings.service.js';

/** Reading: ADMIN and PROJECT_MANAGER (they pick import settings for projects and jobs). */
export const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Writing is setting up the organization: ADMIN, or a project manager with the setupServer right. */
export const WRITERS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };

const tags = ['Import settings'];
const DOCUMENT_RULE =
  'The document (FileImportSettingsCreateDto) replaces the whole stored one: sections and fields left out take the system defaults when read. ' +
  '`segmentationRuleId` and `targetSegmentationRuleId` name segmentation rules of the organization (400 ReferenceNotFound otherwise) and read back as `segRule` / `targetSegRule`.';

async function toDto(db: Db, row: ImportSettingsRow) {
  const users = await userReferenceLookup(db, row.organizationId, [row.createdById]);
  return {
    uid: row.uid,
    name: row.name,
    createdBy: users(row.createdById),
    dateCreated: row.createdAt,
    fileImportSettings: await fileImportSettingsView(db, row.organizationId, parseImportSettingsDocument(row.settings)),
  };
}

/** Import settings operations (routes relative to `/api2`; docs/import-settings-and-file-types.md). */
export function importSettingsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/importSettings',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'listImportSettings',
          summary: 'List import settings',
          description:
            "The organization's named import settings (not its default), sorted by name ignoring case; `name` keeps those whose name contains it, ignoring case.",
          querystring: ImportSettingsListQuery,
          response: { 200: ImportSettingsPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await listNamedImportSettings(db, caller.organizationId, request.query.name, page);
        const users = await userReferenceLookup(
          db,
          caller.organizationId,
          rows.map((r) => r.createdById),
        );
        return toPage(
          rows.map((r) => ({ uid: r.uid, name: r.name, createdBy: users(r.createdById), dateCreated: r.createdAt })),
          total,
          page,
        );
      },
    );

    app.post(
      '/v1/importSettings',
      {
        config: { access: WRITERS, errors: ['ReferenceNotFound'] },
        schema: {
          tags,
          operationId: 'createImportSettings',
          summary: 'Create import settings',
          description: `Stores named import settings. The name is trimmed and not blank (names need not be unique). ${DOCUMENT_RULE}`,
          body: CreateImportSettingsBody,
          response: { 201: ImportSettingsDto },
        },
      },
      async (request, reply) => {
        const row = await createImportSettings(deps, callerOf(request), request.body);
        return reply.code(201).send(await toDto(db, row));
      },
    );

    app.put(
      '/v1/importSettings',
      {
        config: { access: WRITERS, errors: ['ReferenceNotFound', 'ResourceNotFound'] },
        schema: {
          tags,
          operationId: 'editImportSettings',
          summary: 'Edit import settings',
          description: `The import settings to edit are named by the \`uid\` of the body (404 when the organization has none with it; the default's uid edits the default). The name and the document are replaced. ${DOCUMENT_RULE}`,
          body: EditImportSettingsBody,
          response: { 200: ImportSettingsDto },
        },
      },
      async (request) => toDto(db, await editImportSettings(deps, callerOf(request), request.body)),
    );

    app.get(
      '/v1/importSettings/default',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'getImportSettings_1',
          summary: "Get organization's default import settings",
          description:
            'The settings a new project starts from when nothing else gives it import settings. Until they are edited they are the system defaults (named "Default").',
          response: { 200: ImportSettingsDto },
        },
      },
      async (request) => toDto(db, await defaultImportSettings(deps, callerOf(request))),
    );

    app.put(
      '/v1/importSettings/default',
      {
        config: { access: WRITERS, errors: ['ReferenceNotFound'] },
        schema: {
          tags,
          operationId: 'editDefaultImportSettings',
          summary: "Edit organization's default import settings",
          description:
            'The 2025 operation. The body is the FileImportSettingsCreateDto itself, as the project and template import settings edits take it, or the envelope ' +
            '`{name, fileImportSettings}` of createImportSettings (then `fileImportSettings` is the document and `name`, when given, renames the default). ' +
            `Projects created afterwards start from the new document; existing projects keep theirs. Answers ImportSettingsDto. ${DOCUMENT_RULE}`,
          body: EditDefaultImportSettingsBody,
          response: { 200: ImportSettingsDto },
        },
      },
      async (request) => toDto(db, await editDefaultImportSettings(deps, callerOf(request), request.body)),
    );

    app.get(
      '/v1/importSettings/:uid',
      {
        config: { access: READERS },
        schema: {
          tags,
          operationId: 'getImportSettings',
          summary: 'Get import settings',
          description: 'Named import settings, or the default by its uid. The document is shown over the system defaults.',
          params: ImportSettingsUidParams,
          response: { 200: ImportSettingsDto },
        },
      },
      async (request) => toDto(db, await requireImportSettings(db, callerOf(request).organizationId, request.params.uid)),
    );

    app.delete(
      '/v1/importSettings/:uid',
      {
        config: { access: WRITERS, errors: ['ImportSettingsInUse'] },
        schema: {
          tags,
          operationId: 'deleteImportSettings',
          summary: 'Delete import settings',
          description:
            "Deletes named import settings. The organization's default cannot be deleted (400 ImportSettingsInUse): edit it instead. " +
            'Projects, templates, jobs and custom file types keep copies of documents, never references, so they are not affected.',
          params: ImportSettingsUidParams,
        },
      },
      async (request, reply) => {
        await deleteImportSettings(deps, callerOf(request), request.params.uid);
        return reply.code(204).send();
      },
    );
  };
}
