import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import type { Db } from '../../../queue/types.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import {
  IMPORT_SETTINGS_READERS,
  IMPORT_SETTINGS_WRITERS,
  fileImportSettingsView,
  parseImportSettingsDocument,
} from '../import-settings/index.js';
import { listCustomFileTypes } from './custom-file-types.repository.js';
import type { CustomFileTypeRow } from './custom-file-types.repository.js';
import {
  CreateCustomFileTypeBody,
  CustomFileTypeDto,
  CustomFileTypeListQuery,
  CustomFileTypePage,
  CustomFileTypeUidParams,
  DeleteCustomFileTypesBody,
  FindCustomFileTypeQuery,
  UpdateCustomFileTypeBody,
} from './custom-file-types.schemas.js';
import {
  createCustomFileType,
  deleteCustomFileType,
  deleteCustomFileTypes,
  matchingCustomFileType,
  requireCustomFileType,
  supportsContinuousJob,
  updateCustomFileType,
} from './custom-file-types.service.js';

const tags = ['Custom File Type'];
const PATTERN_RULE =
  '`filenamePattern` is a glob over the file name without its folders (unless the pattern has a `/`), ignoring case: `*` any characters, `?` exactly one, anything else itself. ' +
  '`type` is one of html, json, xml, multiling_xml, txt (400 otherwise). `fileImportSettings` (FileImportSettingsCreateDto) are the settings files of the type are imported with; ' +
  'segmentation rules it names must be rules of the organization (400 ReferenceNotFound).';

async function toDtos(db: Db, organizationId: string, rows: CustomFileTypeRow[]) {
  const users = await userReferenceLookup(
    db,
    organizationId,
    rows.map((r) => r.createdById),
  );
  return Promise.all(
    rows.map(async (row) => ({
      uid: row.uid,
      name: row.name,
      filenamePattern: row.filenamePattern,
      type: row.type,
      createdBy: users(row.createdById),
      dateCreated: row.createdAt,
      fileImportSettings: await fileImportSettingsView(db, organizationId, parseImportSettingsDocument(row.settings)),
      supportsContinuousJob: supportsContinuousJob(row.type),
    })),
  );
}

const toDto = async (db: Db, row: CustomFileTypeRow) => (await toDtos(db, row.organizationId, [row]))[0]!;

/** Custom File Type operations (routes relative to `/api2`; docs/import-settings-and-file-types.md). */
export function customFileTypesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/customFileTypes',
      {
        config: { access: IMPORT_SETTINGS_READERS },
        schema: {
          tags,
          operationId: 'getAllCustomFileType',
          summary: 'Get All Custom file type',
          description: 'Sorted by name, ignoring case. `supportsContinuousJob` is derived from the file type (json, xml, multiling_xml).',
          querystring: CustomFileTypeListQuery,
          response: { 200: CustomFileTypePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await listCustomFileTypes(db, caller.organizationId, page);
        return toPage(await toDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/customFileTypes',
      {
        config: { access: IMPORT_SETTINGS_WRITERS, errors: ['ReferenceNotFound'] },
        schema: {
          tags,
          operationId: 'createCustomFileTypes',
          summary: 'Create custom file type',
          description: `Name and pattern are trimmed and not blank. ${PATTERN_RULE}`,
          body: CreateCustomFileTypeBody,
          response: { 201: CustomFileTypeDto },
        },
      },
      async (request, reply) => reply.code(201).send(await toDto(db, await createCustomFileType(deps, callerOf(request), request.body))),
    );

    app.delete(
      '/v1/customFileTypes',
      {
        config: { access: IMPORT_SETTINGS_WRITERS, errors: ['ResourceNotFound'] },
        schema: {
          tags,
          operationId: 'deleteBatchCustomFileType',
          summary: 'Delete multiple Custom file type',
          description: 'Deletes every type listed, or none: a uid the organization has no type with is 404 naming it.',
          body: DeleteCustomFileTypesBody,
        },
      },
      async (request, reply) => {
        await deleteCustomFileTypes(
          deps,
          callerOf(request),
          request.body.customFileTypes.map((r) => r.uid),
        );
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/customFileTypes/find',
      {
        config: { access: IMPORT_SETTINGS_READERS },
        schema: {
          tags,
          operationId: 'findCustomFileType',
          summary: 'Find custom file type',
          description:
            'The custom file type a file of this name is imported as: of the types whose pattern matches, the most specific (the most characters that are not wildcards), then the oldest. ' +
            'If no matching custom file type is found (or `fileName` is not given) it returns status 200 and empty body.',
          querystring: FindCustomFileTypeQuery,
          response: { 200: CustomFileTypeDto },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const fileName = request.query.fileName;
        const row = fileName ? await matchingCustomFileType(db, caller.organizationId, fileName) : undefined;
        // The spec: "If no matching custom file type is found it returns status 200 and empty body."
        if (!row) return (reply as FastifyReply).code(200).send();
        return toDto(db, row);
      },
    );

    app.get(
      '/v1/customFileTypes/:customFileTypeUid',
      {
        config: { access: IMPORT_SETTINGS_READERS },
        schema: {
          tags,
          operationId: 'getCustomFileType',
          summary: 'Get Custom file type',
          params: CustomFileTypeUidParams,
          response: { 200: CustomFileTypeDto },
        },
      },
      async (request) => toDto(db, await requireCustomFileType(db, callerOf(request).organizationId, request.params.customFileTypeUid)),
    );

    app.put(
      '/v1/customFileTypes/:customFileTypeUid',
      {
        config: { access: IMPORT_SETTINGS_WRITERS, errors: ['ReferenceNotFound'] },
        schema: {
          tags,
          operationId: 'updateCustomFileType',
          summary: 'Update Custom file type',
          description: `Fields left out keep their values; \`fileImportSettings\` given replaces the whole document. ${PATTERN_RULE}`,
          params: CustomFileTypeUidParams,
          body: UpdateCustomFileTypeBody,
          response: { 200: CustomFileTypeDto },
        },
      },
      async (request) => toDto(db, await updateCustomFileType(deps, callerOf(request), request.params.customFileTypeUid, request.body)),
    );

    app.delete(
      '/v1/customFileTypes/:customFileTypeUid',
      {
        config: { access: IMPORT_SETTINGS_WRITERS },
        schema: {
          tags,
          operationId: 'deleteCustomFileType',
          summary: 'Delete Custom file type',
          params: CustomFileTypeUidParams,
        },
      },
      async (request, reply) => {
        await deleteCustomFileType(deps, callerOf(request), request.params.customFileTypeUid);
        return reply.code(204).send();
      },
    );
  };
}
