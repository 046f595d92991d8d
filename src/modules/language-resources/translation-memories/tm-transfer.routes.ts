import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { attachmentDisposition, sendStoredFile } from '../../../http/downloads.js';
import { octetStreamBody, sanitizeFilename, uploadFilename } from '../../../http/uploads.js';
import { lastBackgroundTask, toAsyncRequestDtos } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import { findVisibleTransMemory, targetLangsOf } from './translation-memories.repository.js';
import type { TransMemoryRow } from './translation-memories.repository.js';
import { requireTransMemory } from './translation-memories.service.js';
import { unitCounts } from './tm-units.repository.js';
import { finishedExport, requestCleanedExport, requestTmClear, requestTmExport, xlsxOfExport } from './tm-export.task.js';
import type { ExportFilter } from './tm-export.task.js';
import { requestTmImport } from './tm-import.task.js';
import { findProjectId, findTransfer, findUserId } from './tm-transfers.repository.js';
import {
  AsyncExportByQueryResponse,
  AsyncExportResponse,
  AsyncRequestIdParams,
  AsyncRequestWrapper,
  AsyncRequestWrapperV2,
  BackgroundTasksSchema,
  CleanedBody,
  DownloadExportQuery,
  ExportBody,
  ExportByQueryBody,
  FILE_RESPONSE,
  ImportQuery,
  TransferUidParams,
} from './tm-transfer.schemas.js';

/**
 * Imports and exports of translation memories (docs/translation-memory.md, "Import and export";
 * the description's "Behaviour of other operations" 12): all asynchronous, each an async request
 * and a background task (tm-import.task.ts, tm-export.task.ts). ADMIN and PROJECT_MANAGER (a
 * project manager needs transMemoryImportOther / transMemoryExportOther on TMs someone else
 * created and owns); a GUEST may export the TMs of the guest's client (description, access rules:
 * "Translation memory export: Admin, Project Manager or Guest").
 */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const EXPORTERS: Access = roles('ADMIN', 'PROJECT_MANAGER', 'GUEST');
const TAGS = ['Translation Memory'];

const mediaType = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** The uploaded file: an octet-stream body named by Content-Disposition, or a multipart `file` part. */
async function receivedUpload(request: FastifyRequest): Promise<{ filename: string; body: Readable }> {
  if (mediaType(request) === 'multipart/form-data') {
    const part = await request.file();
    if (!part) {
      throw errors.InvalidArguments({ reason: 'Send the file as a `file` part.', details: [{ field: 'file', message: 'is required' }] });
    }
    return { filename: sanitizeFilename(part.filename, 'file'), body: part.file };
  }
  const body = octetStreamBody(request);
  return { filename: uploadFilename(request), body };
}

/** Target languages of a request, which must be the TM's (null: all of them). */
function exportLangs(tm: TransMemoryRow, field: string, langs: readonly string[] | null | undefined): string[] | null {
  if (!langs || langs.length === 0) return null;
  const codes = assertLanguages(field, langs);
  const own = targetLangsOf(tm);
  const foreign = codes.filter((code) => !own.includes(code));
  if (foreign.length) {
    throw errors.InvalidArguments({
      reason: `${foreign.join(', ')}: not a target language of the translation memory.`,
      details: [{ field, message: `not one of ${own.join(', ') || 'its target languages'}` }],
    });
  }
  return codes;
}

export function translationMemoryTransfersRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const dtoOf = async (caller: Caller, row: AsyncRequestRow) => (await toAsyncRequestDtos(db, caller.organizationId, [row]))[0]!;

  return async (app) => {
    app.post(
      '/v2/transMemories/:transMemoryUid/import',
      {
        config: {
          access: MANAGERS,
          errors: ['ContentDispositionMissing', 'UnsupportedMediaType', 'FileTooLarge', 'UploadRaced', 'TooManyPendingRequests'],
        },
        schema: {
          tags: TAGS,
          operationId: 'importTransMemoryV2',
          summary: 'Import TMX',
          description:
            "Imports a file into the TM as a background task (async request IMPORT_TMX): TMX (.tmx; 1.1–1.4b, read leniently), XLIFF 1.2 (.xlf, .xliff, .mxliff; targets in state `new` or `needs-translation` are left out) or Excel (.xlsx; a header row of language codes). The format comes from the file name's extension (Content-Disposition `filename*=UTF-8''<name>`, or a multipart `file` part); another extension is 400 before anything is stored. The units are written in batches, each committed on its own: the same source and target again updates its unit, so importing a file twice adds nothing. Languages are matched to the TM's (`strictLangMatching`); translations in other languages are skipped and listed in the async response's `warnings`; `acceptedSegmentsCount` is the number of units written. A malformed file ends the request with `errorCode` ImportFailed, and the batches before the error stay imported.",
          consumes: ['application/octet-stream', 'multipart/form-data'],
          params: TransferUidParams,
          querystring: ImportQuery,
          response: { 202: AsyncRequestWrapperV2 },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const tm = await requireTransMemory(deps, caller, request.params.transMemoryUid, 'transMemoryImportOther');
        const upload = await receivedUpload(request);
        const row = await requestTmImport(deps, caller, tm, upload, request.query);
        return reply.code(202).send({ asyncRequest: await dtoOf(caller, row) });
      },
    );

    app.post(
      '/v2/transMemories/:transMemoryUid/export',
      {
        config: { access: EXPORTERS, errors: ['UnsupportedLanguage', 'TooManyPendingRequests', 'InvalidCallbackUrl'] },
        schema: {
          tags: TAGS,
          operationId: 'exportV2',
          summary: 'Export translation memory',
          description:
            'Exports the TM as TMX 1.4 in the background (async request EXPORT_TMX): every unit in `exportTargetLangs` (all target languages when omitted), one `<tu>` per source and translation, the context as `x-context-prev`/`x-context-next` props. Download it with [downloadSearchResult](#operation/downloadSearchResult) once the async request has finished.',
          params: TransferUidParams,
          body: ExportBody,
          response: { 200: AsyncExportResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const tm = await requireTransMemory(deps, caller, request.params.transMemoryUid, 'transMemoryExportOther');
        const targetLangs = exportLangs(tm, 'exportTargetLangs', request.body?.exportTargetLangs);
        const row = await requestTmExport(deps, caller, tm, { targetLangs, filter: null, callbackUrl: request.body?.callbackUrl ?? null });
        return {
          asyncRequest: await dtoOf(caller, row),
          asyncExport: { transMemory: { id: String(tm.id), uid: tm.uid }, exportTargetLangs: targetLangs ?? targetLangsOf(tm) },
        };
      },
    );

    app.post(
      '/v1/transMemories/:transMemoryUid/exportByQueryAsync',
      {
        config: { access: EXPORTERS, errors: ['UnsupportedLanguage', 'ReferenceNotFound', 'TooManyPendingRequests', 'InvalidCallbackUrl'] },
        schema: {
          tags: TAGS,
          operationId: 'exportByQueryAsync',
          summary: 'Search translation memory',
          description:
            "Exports the units that match as TMX in the background (async request EXPORT_TMX_BY_QUERY); download with [downloadSearchResult](#operation/downloadSearchResult). A unit matches when one of `queries` (wildcards as in wildCardSearch: `*` any run, `?` one character, the whole text, ignoring case) matches its source (when `queryLangs` holds the TM's source language) or its translation (when `queryLangs` holds its language), and it passes every other filter given: `createdAtMin`/`Max`, `modifiedAtMin`/`Max` (inclusive), `createdBy`/`modifiedBy` (user id or uid), `filename`, `project` (uid). No query, or only empty ones: every unit passing the other filters.",
          params: TransferUidParams,
          body: ExportByQueryBody,
          response: { 200: AsyncExportByQueryResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const tm = await requireTransMemory(deps, caller, request.params.transMemoryUid, 'transMemoryExportOther');
        const body = request.body;
        const targetLangs = exportLangs(tm, 'exportTargetLangs', body.exportTargetLangs);
        const queryLangs = body.queryLangs.length ? assertLanguages('queryLangs', body.queryLangs) : [tm.sourceLang];
        const user = async (field: string, ref: { id: string } | null | undefined) => {
          if (!ref) return null;
          const id = await findUserId(db, caller.organizationId, ref.id);
          if (id === null) throw errors.ReferenceNotFound({ what: 'user', key: ref.id, keyName: 'id', field });
          return String(id);
        };
        let projectId: string | null = null;
        if (body.project) {
          const id = await findProjectId(db, caller.organizationId, body.project.uid);
          if (id === null) throw errors.ReferenceNotFound({ what: 'project', key: body.project.uid, field: 'project' });
          projectId = String(id);
        }
        const filter: ExportFilter = {
          queries: body.queries,
          queryLangs,
          createdAtMin: body.createdAtMin ?? null,
          createdAtMax: body.createdAtMax ?? null,
          modifiedAtMin: body.modifiedAtMin ?? null,
          modifiedAtMax: body.modifiedAtMax ?? null,
          createdById: await user('createdBy', body.createdBy),
          modifiedById: await user('modifiedBy', body.modifiedBy),
          filename: body.filename ?? null,
          projectId,
        };
        const row = await requestTmExport(deps, caller, tm, { targetLangs, filter, callbackUrl: body.callbackUrl ?? null });
        return {
          asyncRequest: await dtoOf(caller, row),
          asyncExport: {
            asyncRequest: { id: row.id },
            transMemory: { id: String(tm.id), uid: tm.uid },
            exportTargetLangs: targetLangs ?? targetLangsOf(tm),
            queries: body.queries.flatMap((query) => queryLangs.map((lang) => ({ query, lang }))),
          },
        };
      },
    );

    app.get(
      '/v1/transMemories/downloadExport/:asyncRequestId',
      {
        config: { access: EXPORTERS },
        schema: {
          tags: TAGS,
          operationId: 'downloadSearchResult',
          summary: 'Download export',
          description:
            "The file of a finished export (exportV2 or exportByQueryAsync) as TMX, or as XLSX (`format=XLSX`: converted from the export's TMX as it is sent; a header row of language codes, one row per unit). 404 for an id that is not an export of a TM the caller sees; 400 while the export runs or when it failed. An export can be downloaded any number of times.",
          params: AsyncRequestIdParams,
          querystring: DownloadExportQuery,
          produces: ['application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const file = await finishedExport(deps, callerOf(request), request.params.asyncRequestId, 'EXPORT');
        if (request.query.format === 'XLSX') {
          const stream = await xlsxOfExport(deps, file, request.query.fields);
          reply.header('content-disposition', attachmentDisposition(file.filename.replace(/\.tmx$/i, '') + '.xlsx'));
          reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
          return reply.send(stream as never);
        }
        return sendStoredFile(deps, reply, { sha256: file.sha256, filename: file.filename, contentType: 'application/x-tmx+xml' });
      },
    );

    app.post(
      '/v1/transMemories/extractCleaned',
      {
        config: { access: EXPORTERS, errors: ['ResourceNotFound', 'UnsupportedLanguage', 'TooManyPendingRequests'] },
        schema: {
          tags: TAGS,
          operationId: 'exportCleanedTMs',
          summary: 'Extract cleaned translation memory',
          description:
            'Extracts the TMs `uids` as clean parallel text in the background (async request EXTRACT_CLEANED_TMS); download the ZIP with downloadCleanedTM. Per TM and target language (`targetLangs`, all when omitted): the source and translation pairs with inline tags left out and the texts trimmed, each pair once (duplicates after cleaning dropped), backslashes, tabs and line breaks escaped as `\\\\`, `\\t`, `\\n`, `\\r`. `outputFormat` TSV (default): one file of `source<TAB>target` lines; TXT: two files, the sources and the translations, line by line. `preserveRatio` (0 < r ≤ 1): only pairs whose length ratio (translation characters / source characters) lies within [r, 1/r]; omitted: every pair. 404 naming TMs the caller does not see.',
          body: CleanedBody,
          response: { 202: AsyncRequestWrapper },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const body = request.body;
        const tms: TransMemoryRow[] = [];
        const missing: string[] = [];
        for (const uid of new Set(body.uids)) {
          const tm = await findVisibleTransMemory(db, caller, uid);
          if (tm) tms.push(tm);
          else missing.push(uid);
        }
        if (missing.length) throw errors.ResourceNotFound({ what: 'Translation memory', uids: missing, field: 'uids' });
        for (const tm of tms) await requireTransMemory(deps, caller, tm.uid, 'transMemoryExportOther');
        const targetLangs = body.targetLangs?.length ? assertLanguages('targetLangs', body.targetLangs) : null;
        const row = await requestCleanedExport(deps, caller, tms, {
          outputFormat: body.outputFormat ?? 'TSV',
          preserveRatio: body.preserveRatio ?? null,
          targetLangs,
        });
        return reply.code(202).send({ asyncRequest: await dtoOf(caller, row) });
      },
    );

    app.get(
      '/v1/transMemories/downloadCleaned/:asyncRequestId',
      {
        config: { access: EXPORTERS },
        schema: {
          tags: TAGS,
          operationId: 'downloadCleanedTM',
          summary: 'Download cleaned TM',
          description:
            'The ZIP of a finished cleaned export (exportCleanedTMs). 404 for an id that is not such an export of the organization; 400 while it runs or when it failed.',
          params: AsyncRequestIdParams,
          produces: ['application/octet-stream'],
          response: FILE_RESPONSE,
        },
      },
      async (request, reply) => {
        const file = await finishedExport(deps, callerOf(request), request.params.asyncRequestId, 'CLEANED');
        return sendStoredFile(deps, reply, { sha256: file.sha256, filename: file.filename, contentType: 'application/zip' });
      },
    );

    app.delete(
      '/v2/transMemories/:transMemoryUid/segments',
      {
        config: { access: MANAGERS, errors: ['TooManyPendingRequests'] },
        schema: {
          tags: TAGS,
          operationId: 'clearTransMemoryV2',
          summary: 'Delete all segments.',
          description:
            'Deletes every unit of the TM in the background: answers 202 with the async request (CLEAR_TM), which finishes once the TM is empty.',
          params: TransferUidParams,
          response: { 202: AsyncRequestWrapperV2 },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const tm = await requireTransMemory(deps, caller, request.params.transMemoryUid, 'transMemoryEditOther');
        const row = await requestTmClear(deps, caller, tm);
        return reply.code(202).send({ asyncRequest: await dtoOf(caller, row) });
      },
    );

    app.get(
      '/v1/transMemories/:transMemoryUid/lastBackgroundTask',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'getBackgroundTasks_1',
          summary: 'Get last task information',
          description:
            "The TM's last background task (import, export, export by query, cleaned export, clear) and its unit counts. `status`: NONE (no task yet), RUNNING, OK or ERROR; `lastTaskString` names the task and the units it has done so far; `lastTaskError` (and its HTML-escaped `lastTaskErrorHtml`) the error of a failed one.",
          params: TransferUidParams,
          response: { 200: BackgroundTasksSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const tm = await requireTransMemory(deps, caller, request.params.transMemoryUid);
        const counts = await unitCounts(db, tm.id);
        const metadata = {
          segmentsCount: counts.segments,
          deduplicatedSegmentsCount: counts.sources,
          metadataByLanguage: Object.fromEntries(
            targetLangsOf(tm).map((lang) => [lang, { segmentsCount: counts.byLanguage.get(lang) ?? 0 }]),
          ),
        };
        return lastBackgroundTask(db, caller.organizationId, tm.lastAsyncRequestId, metadata, async (row) => {
          const transfer = await findTransfer(db, row.id);
          return transfer ? `: ${Number(transfer.units)} units` : '';
        });
      },
    );
  };
}
