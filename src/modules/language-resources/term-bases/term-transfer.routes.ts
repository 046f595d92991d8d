import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { attachmentDisposition } from '../../../http/downloads.js';
import { octetStreamBody, uploadFilename } from '../../../http/uploads.js';
import { AsyncRequestWrapperV2, toAsyncRequestDtos } from '../../integration/async-requests/index.js';
import { backgroundTasksSchema, lastBackgroundTask } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import { langsOf } from './term-bases.repository.js';
import { TermBaseUidParams } from './term-bases.schemas.js';
import { requireTermBase } from './term-bases.service.js';
import { EXPORT_FILE, writeTermBaseExport } from './term-export.js';
import type { TermExportFormat } from './term-export.js';
import { findTermTransfer, requestTermImport } from './term-import.task.js';
import type { TermImportOptions } from './term-import.task.js';
import { termCountsByLanguage } from './terms.repository.js';

/**
 * Import and export of term bases (docs/terminology.md, "Import and export"): ADMIN and
 * PROJECT_MANAGER (a project manager needs termBaseImportOther / termBaseExportOther on term bases
 * someone else created and owns).
 */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Term Base'];

/** The largest file the synchronous v1 upload takes; larger files go through v2. */
export const V1_IMPORT_MAX_BYTES = 100 * 1024 * 1024;
/** How long the v1 upload waits for its import before answering 408. */
const V1_IMPORT_TIMEOUT_MS = 10 * 60_000;

const ImportQuery = Type.Object({
  charset: Type.String({
    default: 'UTF-8',
    maxLength: 64,
    description: 'Accepted; files are read by their own declaration and byte-order mark (TBX, XLSX, CSV as UTF-8 or UTF-16).',
  }),
  strictLangMatching: Type.Boolean({
    default: false,
    description: 'true: a term in `en_us` goes only to a term base language `en_us`, not to `en`.',
  }),
  updateTerms: Type.Boolean({
    default: true,
    description:
      'true: a term the term base already holds (same language and text) takes the attributes of the file; false: it stays as it is.',
  }),
  duplicates: Type.Optional(
    Type.Union([Type.Literal('update'), Type.Literal('skip'), Type.Literal('add')], {
      description:
        'OpenTMS extension, overriding `updateTerms`: `update` (updateTerms=true), `skip` (updateTerms=false), or `add` (every entry a new concept, duplicates included).',
    }),
  ),
});

const ExportQuery = Type.Object({
  format: Type.Union([Type.Literal('Tbx'), Type.Literal('Xlsx'), Type.Literal('Csv')], {
    default: 'Tbx',
    description: '`Csv` is an OpenTMS extension (the same columns as Xlsx, UTF-8 with a byte-order mark).',
  }),
  charset: Type.String({ default: 'UTF-8', maxLength: 64, description: 'Accepted; exports are UTF-8.' }),
  termStatus: Type.Optional(Type.Union([Type.Literal('NEW'), Type.Literal('APPROVED')])),
});

/** Spec definition `ImportTermBaseResponseDto`. */
const ImportResponse = Type.Object(
  { langs: Type.Array(Type.String()), createdTermsCount: Type.Integer(), updatedTermsCount: Type.Integer() },
  { title: 'ImportTermBaseResponseDto' },
);

const LanguageMetadata = Type.Object({ segmentsCount: Type.Integer() });
const TermBaseMetadata = Type.Object(
  {
    segmentsCount: Type.Integer(),
    deduplicatedSegmentsCount: Type.Integer(),
    metadataByLanguage: Type.Record(Type.String(), LanguageMetadata),
  },
  { title: 'MetadataResponse' },
);
/** Spec definition `BackgroundTasksTbDto`. */
const BackgroundTasksSchema = backgroundTasksSchema('BackgroundTasksTbDto', TermBaseMetadata);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function importOptions(query: { updateTerms: boolean; strictLangMatching: boolean; duplicates?: TermImportOptions['duplicates'] }) {
  return { duplicates: query.duplicates ?? (query.updateTerms ? 'update' : 'skip'), strictLangMatching: query.strictLangMatching };
}

export function termTransfersRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const dtoOf = async (caller: Caller, row: AsyncRequestRow) => (await toAsyncRequestDtos(db, caller.organizationId, [row]))[0]!;

  /** Waits for an async request to finish (the v1 upload). */
  async function finished(id: string): Promise<{ errorCode?: string | null; errorDesc?: string | null }> {
    const deadline = Date.now() + V1_IMPORT_TIMEOUT_MS;
    for (let wait = 20; Date.now() < deadline; wait = Math.min(wait * 2, 500)) {
      const row = await db.selectFrom('asyncRequests').select(['finishedAt', 'response']).where('id', '=', id).executeTakeFirst();
      if (row?.finishedAt) return row.response ? JSON.parse(row.response) : {};
      await sleep(wait);
    }
    throw errors.RequestTimeout();
  }

  return async (app) => {
    app.post(
      '/v1/termBases/:termBaseUid/upload',
      {
        config: {
          access: MANAGERS,
          errors: ['ContentDispositionMissing', 'UnsupportedMediaType', 'FileTooLarge', 'UploadRaced', 'TooManyPendingRequests'],
        },
        schema: {
          tags: TAGS,
          operationId: 'importTermBase',
          summary: 'Upload term base',
          description: `Imports TBX (.tbx; TBX-Basic, TBX 2008 and the TBX v3 core structure), Excel (.xlsx) or CSV (.csv) and answers when the import is done (files up to ${V1_IMPORT_MAX_BYTES / 1024 / 1024} MB; larger ones through the v2 upload). The file is the octet-stream body, named by Content-Disposition. Duplicates (a term in the same language with the same text): see \`updateTerms\` and \`duplicates\`. An entry or row that cannot be read is skipped with a warning naming its line or row; a file that cannot be read at all is 400 (the entries before the error stay imported).`,
          consumes: ['application/octet-stream'],
          params: TermBaseUidParams,
          querystring: ImportQuery,
          response: { 200: ImportResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const termBase = await requireTermBase(deps, caller, request.params.termBaseUid, 'termBaseImportOther');
        const body = octetStreamBody(request);
        const upload = { filename: uploadFilename(request), body };
        const row = await requestTermImport(deps, caller, termBase, upload, importOptions(request.query), V1_IMPORT_MAX_BYTES);
        const response = await finished(row.id);
        if (response.errorCode) {
          throw errors.InvalidArguments({
            reason: response.errorDesc ?? 'The file could not be imported.',
            details: [{ field: 'file', message: response.errorCode }],
          });
        }
        const transfer = await findTermTransfer(deps, row.id);
        return {
          langs: langsOf(termBase),
          createdTermsCount: Number(transfer?.createdTerms ?? 0),
          updatedTermsCount: Number(transfer?.updatedTerms ?? 0),
        };
      },
    );

    app.post(
      '/v2/termBases/:termBaseUid/upload',
      {
        config: {
          access: MANAGERS,
          errors: ['ContentDispositionMissing', 'UnsupportedMediaType', 'FileTooLarge', 'UploadRaced', 'TooManyPendingRequests'],
        },
        schema: {
          tags: TAGS,
          operationId: 'importTermBaseV2',
          summary: 'Upload term base',
          description:
            'Imports TBX, Excel (.xlsx) or CSV in the background (async request IMPORT_TBX; progress in lastBackgroundTask). The entries are written in batches, each committed with the count of entries done: an interrupted import resumes after the last committed batch. `acceptedSegmentsCount` is the number of terms created or updated; skipped entries and terms are listed in `warnings`. A file that cannot be read ends the request with `errorCode` ImportFailed, and the batches before the error stay imported.',
          consumes: ['application/octet-stream'],
          params: TermBaseUidParams,
          querystring: ImportQuery,
          response: { 202: AsyncRequestWrapperV2 },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const termBase = await requireTermBase(deps, caller, request.params.termBaseUid, 'termBaseImportOther');
        const upload = { filename: uploadFilename(request), body: octetStreamBody(request) };
        const row = await requestTermImport(deps, caller, termBase, upload, importOptions(request.query));
        return reply.code(202).send({ asyncRequest: await dtoOf(caller, row) });
      },
    );

    app.get(
      '/v1/termBases/:termBaseUid/export',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'exportTermBase',
          summary: 'Export term base',
          description:
            'The whole term base as TBX (valid against the TBX schema, TBX-Basic style), Excel or CSV, streamed as it is read. `termStatus`: only terms of that status (NEW: new and rejected terms). Excel and CSV import back to the same content.',
          params: TermBaseUidParams,
          querystring: ExportQuery,
          produces: ['application/octet-stream'],
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const termBase = await requireTermBase(deps, caller, request.params.termBaseUid, 'termBaseExportOther');
        const format = request.query.format as TermExportFormat;
        const file = EXPORT_FILE[format];
        const output = new PassThrough();
        const writing = writeTermBaseExport(db, termBase, format, request.query.termStatus, output);
        writing.catch((error: unknown) => {
          request.log.error({ err: error }, 'term base export failed');
          output.destroy(error instanceof Error ? error : new Error(String(error)));
        });
        reply.header('content-disposition', attachmentDisposition(`${termBase.name}.${file.extension}`));
        reply.header('x-content-type-options', 'nosniff');
        reply.type(file.contentType);
        return reply.send(output);
      },
    );

    app.get(
      '/v1/termBases/:termBaseUid/lastBackgroundTask',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'getLastBackgroundTask',
          summary: 'Last import status',
          description:
            "The term base's last import and its term counts. `status`: NONE (no import yet), RUNNING, OK or ERROR; `lastTaskString` names the task and the entries done so far; `lastTaskError` (and its HTML-escaped `lastTaskErrorHtml`) the error of a failed one.",
          params: TermBaseUidParams,
          response: { 200: BackgroundTasksSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const termBase = await requireTermBase(deps, caller, request.params.termBaseUid);
        const counts = await termCountsByLanguage(db, termBase.id);
        const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
        const metadata = {
          segmentsCount: total,
          deduplicatedSegmentsCount: total,
          metadataByLanguage: Object.fromEntries(langsOf(termBase).map((lang) => [lang, { segmentsCount: counts.get(lang) ?? 0 }])),
        };
        return lastBackgroundTask(db, caller.organizationId, termBase.lastAsyncRequestId, metadata, async (row) => {
          const transfer = await findTermTransfer(deps, row.id);
          return transfer
            ? `: ${Number(transfer.entries)} entries, ${Number(transfer.createdTerms)} terms created, ${Number(transfer.updatedTerms)} updated, ${Number(transfer.skippedTerms)} skipped`
            : '';
        });
      },
    );
  };
}
