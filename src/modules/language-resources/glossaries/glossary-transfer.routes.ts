import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { attachmentDisposition } from '../../../http/downloads.js';
import { octetStreamBody, uploadFilename } from '../../../http/uploads.js';
import { langsOf } from './glossaries.repository.js';
import { ExportGlossaryQuery, GlossaryUidParams, GlossaryUploadResponse, UploadGlossaryQuery } from './glossaries.schemas.js';
import { requireGlossary, writeGlossaryEntries } from './glossaries.service.js';
import {
  EXPORT_FILE,
  GLOSSARY_UPLOAD_MAX_BYTES,
  GLOSSARY_UPLOAD_MAX_ENTRIES,
  glossaryFileFormat,
  readGlossaryFile,
  receiveGlossaryFile,
  writeGlossaryExport,
} from './glossary-files.js';
import type { GlossaryExportFormat } from './glossary-files.js';

/**
 * Glossary upload and export (2025 operations, not in the published spec; docs/terminology.md,
 * "Glossaries (built)"): the file is an octet-stream body named by Content-Disposition, as for
 * importTermBase, and the export streams the file as exportTermBase does. ADMIN and PROJECT_MANAGER,
 * as for the records (glossaries.routes.ts, which registers these).
 */
const GLOSSARY_MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const GLOSSARY_TAGS = ['Glossary'];

export function glossaryTransfersRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v1/glossaries/:glossaryUid/upload',
      {
        config: { access: GLOSSARY_MANAGERS, errors: ['ContentDispositionMissing', 'UnsupportedMediaType', 'FileTooLarge'] },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'uploadGlossary',
          summary: 'Upload glossary',
          description: `Adds the entries of a TBX (.tbx), Excel (.xlsx) or CSV (.csv) file to the glossary and answers when they are written, all in one transaction: a file that cannot be read changes nothing (400). The file is the octet-stream body, named by Content-Disposition (filename*=UTF-8''<name>); at most ${GLOSSARY_UPLOAD_MAX_BYTES / 1024 / 1024} MB (413 beyond) and ${GLOSSARY_UPLOAD_MAX_ENTRIES} entries. Each term of a concept (a TBX termEntry, a sheet row) in the glossary's source language becomes an entry with the concept's first term in each target language; other languages and term attributes are left out. An entry the glossary holds already (same source term and target language): see \`updateTerms\`. Rows or entries that cannot be read are skipped and listed in \`warnings\`.`,
          consumes: ['application/octet-stream'],
          params: GlossaryUidParams,
          querystring: UploadGlossaryQuery,
          response: { 200: GlossaryUploadResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const glossary = await requireGlossary(deps, caller, request.params.glossaryUid);
        const body = octetStreamBody(request);
        const filename = uploadFilename(request);
        const format = glossaryFileFormat(filename);
        if (format === null) {
          body.resume();
          throw errors.InvalidArguments({
            reason: `"${filename}" is not a file a glossary takes: send TBX (.tbx), Excel (.xlsx) or CSV (.csv).`,
            details: [{ field: 'Content-Disposition', message: 'the file name must end in .tbx, .xlsx or .csv' }],
          });
        }
        const chunks = await receiveGlossaryFile(body);
        const langs = langsOf(glossary);
        const content = await readGlossaryFile(chunks, format, filename, langs, request.query.strictLangMatching);
        const { created, updated } = await writeGlossaryEntries(deps, glossary.id, content.pairs, request.query.updateTerms);
        return { langs, createdTermsCount: created, updatedTermsCount: updated, warnings: content.warnings };
      },
    );

    app.get(
      '/v1/glossaries/:glossaryUid/export',
      {
        config: { access: GLOSSARY_MANAGERS },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'exportGlossary',
          summary: 'Export glossary',
          description:
            "The glossary's entries as Excel (the default), TBX or CSV, streamed as they are read: one concept (a row; a TBX termEntry) per source term with its target term in each target language, in the order of the source terms, in the term base layout of exportTermBase. Uploading the file gives the same entries back.",
          params: GlossaryUidParams,
          querystring: ExportGlossaryQuery,
          produces: ['application/octet-stream'],
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const glossary = await requireGlossary(deps, caller, request.params.glossaryUid);
        const format = request.query.format as GlossaryExportFormat;
        const file = EXPORT_FILE[format];
        const output = new PassThrough();
        const writing = writeGlossaryExport(db, glossary, format, output);
        writing.catch((error: unknown) => {
          request.log.error({ err: error }, 'glossary export failed');
          output.destroy(error instanceof Error ? error : new Error(String(error)));
        });
        reply.header('content-disposition', attachmentDisposition(`${glossary.name}.${file.extension}`));
        reply.header('x-content-type-options', 'nosniff');
        reply.type(file.contentType);
        return reply.send(output);
      },
    );
  };
}
