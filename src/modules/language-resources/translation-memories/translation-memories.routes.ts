import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { assertLanguage, assertLanguages } from '../../../domain/languages/language-validation.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { resolveReference } from '../../organization-setup/setup-records/index.js';
import {
  BulkDeleteTransMemoriesBody,
  CreateTransMemoryBody,
  DeleteTransMemoryQuery,
  EditTransMemoryBody,
  InsertSegmentBody,
  ListTransMemoriesQuery,
  MetadataQuery,
  MetadataSchema,
  SearchBody,
  SearchResults,
  SegmentLangParams,
  SegmentParams,
  TargetLanguageBody,
  TransMemoryPage,
  TransMemorySchema,
  TransMemoryUidParams,
  TranslationBody,
  WildCardSearchBody,
} from './translation-memories.schemas.js';
import {
  addTargetLanguage,
  createTransMemory,
  deleteTransMemories,
  editTransMemory,
  listTransMemories,
  requireTransMemory,
} from './translation-memories.service.js';
import { toTransMemoryDtos } from './translation-memories.views.js';
import { targetLangsOf } from './translation-memories.repository.js';
import { fuzzySearch, searchResultsDto, wildcardSearch } from './tm-search.js';
import type { SearchTarget } from './tm-search.js';
import { unitCounts } from './tm-units.repository.js';
import { clearTransMemory, deleteSegment, insertSegment, updateTranslation } from './tm-units.service.js';
import { closeTmIndex } from './tm-index/index.js';

/**
 * Translation memory records, their units and search (docs/translation-memory.md). ADMIN and
 * PROJECT_MANAGER (project managers by their transMemory* rights and client / business unit
 * lists); linguists and vendors reach TMs only through their jobs (the job routes of the
 * translation workflow).
 */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const CREATORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'transMemoryCreate' };
const TAGS = ['Translation Memory'];

/** A search of one TM: no penalty, its own order. */
const alone = (tm: SearchTarget['tm']): SearchTarget => ({ tm, penalty: 0, applyPenaltyTo101Only: false, order: 0 });

/** The minimum score of searches that give none (Phrase's editor shows matches from 70 %). */
export const DEFAULT_MIN_SCORE = 70;

export function translationMemoriesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const dto = async (organizationId: string, row: Parameters<typeof toTransMemoryDtos>[2][number]) =>
    (await toTransMemoryDtos(db, organizationId, [row]))[0]!;

  return async (app) => {
    app.addHook('onClose', async () => closeTmIndex(deps.database));

    app.get(
      '/v1/transMemories',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'listTransMemories',
          summary: 'List translation memories',
          description:
            'The TMs the caller sees, by name. `clientId`, `domainId`, `subDomainId`, `businessUnitId` take the numeric id or the uid.',
          querystring: ListTransMemoriesQuery,
          response: { 200: TransMemoryPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, name, sourceLang, targetLang, clientId, domainId, subDomainId, businessUnitId } = request.query;
        const reference = async (kind: 'client' | 'domain' | 'subDomain' | 'businessUnit', field: string, key: string | undefined) =>
          key ? resolveReference(db, caller.organizationId, kind, field, { id: key }) : undefined;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listTransMemories(
          deps,
          caller,
          {
            name,
            sourceLang: sourceLang ? assertLanguage('sourceLang', sourceLang) : undefined,
            targetLang: targetLang ? assertLanguage('targetLang', targetLang) : undefined,
            clientId: await reference('client', 'clientId', clientId),
            domainId: await reference('domain', 'domainId', domainId),
            subDomainId: await reference('subDomain', 'subDomainId', subDomainId),
            businessUnitId: await reference('businessUnit', 'businessUnitId', businessUnitId),
          },
          page,
        );
        return toPage(await toTransMemoryDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/transMemories',
      {
        config: { access: CREATORS, errors: ['ReferenceNotFound', 'UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'createTransMemory',
          summary: 'Create translation memory',
          body: CreateTransMemoryBody,
          response: { 201: TransMemorySchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await createTransMemory(deps, caller, request.body);
        return reply.code(201).send(await dto(caller.organizationId, row));
      },
    );

    app.delete(
      '/v1/transMemories/bulk',
      {
        config: { access: MANAGERS, errors: ['ResourceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'bulkDeleteTransMemories',
          summary: 'Delete translation memories (batch)',
          description:
            'Deletes the TMs `{ transMemories: [{uid}] }` with their units and their places in projects and templates, all or none: 404 naming the TMs the caller does not see, 403 when a project manager may not delete one (transMemoryDeleteOther).',
          body: BulkDeleteTransMemoriesBody,
        },
      },
      async (request, reply) => {
        await deleteTransMemories(
          deps,
          callerOf(request),
          request.body.transMemories.map((t) => t.uid),
        );
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/transMemories/:transMemoryUid',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'getTransMemory',
          summary: 'Get translation memory',
          params: TransMemoryUidParams,
          response: { 200: TransMemorySchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await requireTransMemory(deps, caller, request.params.transMemoryUid));
      },
    );

    app.put(
      '/v1/transMemories/:transMemoryUid',
      {
        config: { access: MANAGERS, errors: ['ReferenceNotFound', 'UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'editTransMemory',
          summary: 'Edit translation memory',
          description: 'Replaces the record: omitted or null references and note are cleared; the owner is kept when omitted.',
          params: TransMemoryUidParams,
          body: EditTransMemoryBody,
          response: { 200: TransMemorySchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await editTransMemory(deps, caller, request.params.transMemoryUid, request.body));
      },
    );

    app.delete(
      '/v1/transMemories/:transMemoryUid',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteTransMemory',
          summary: 'Delete translation memory',
          description:
            'Deletes the TM, its units and its places in projects and templates (`purge` is accepted; OpenTMS has no recycle bin for TMs).',
          params: TransMemoryUidParams,
          querystring: DeleteTransMemoryQuery,
        },
      },
      async (request, reply) => {
        await deleteTransMemories(deps, callerOf(request), [request.params.transMemoryUid]);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/transMemories/:transMemoryUid/targetLanguages',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'addTargetLangToTransMemory',
          summary: 'Add target language to translation memory',
          params: TransMemoryUidParams,
          body: TargetLanguageBody,
          response: { 201: TransMemorySchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await addTargetLanguage(deps, caller, request.params.transMemoryUid, request.body.language);
        return reply.code(201).send(await dto(caller.organizationId, row));
      },
    );

    app.get(
      '/v1/transMemories/:transMemoryUid/metadata',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'getMetadata',
          summary: 'Get translation memory metadata',
          description:
            '`segmentsCount`: translations (one per source and target language pair); `deduplicatedSegmentsCount`: distinct sources; with `byLanguage`, the translations per target language.',
          params: TransMemoryUidParams,
          querystring: MetadataQuery,
          response: { 200: MetadataSchema },
        },
      },
      async (request) => {
        const tm = await requireTransMemory(deps, callerOf(request), request.params.transMemoryUid);
        const counts = await unitCounts(db, tm.id);
        return {
          segmentsCount: counts.segments,
          deduplicatedSegmentsCount: counts.sources,
          ...(request.query.byLanguage
            ? {
                metadataByLanguage: Object.fromEntries(
                  targetLangsOf(tm).map((lang) => [lang, { segmentsCount: counts.byLanguage.get(lang) ?? 0 }]),
                ),
              }
            : {}),
        };
      },
    );

    app.post(
      '/v1/transMemories/:transMemoryUid/search',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'search',
          summary: 'Search translation memory (sync)',
          description:
            'Fuzzy search of `query` in the TM, best first, from a score of 70 (0.7); with `previousSegment` and `nextSegment` an exact match in the same context scores 101. The score is published in docs/translation-memory.md.',
          params: TransMemoryUidParams,
          body: SearchBody,
          response: { 200: SearchResults },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const tm = await requireTransMemory(deps, caller, request.params.transMemoryUid);
        const body = request.body;
        assertLanguage('sourceLang', body.sourceLang);
        const targetLangs = body.targetLangs?.length ? assertLanguages('targetLangs', body.targetLangs) : null;
        const hits = await fuzzySearch(deps, [alone(tm)], {
          text: body.trimQuery === false ? body.query : body.query.trim(),
          targetLangs,
          previous: body.previousSegment,
          next: body.nextSegment,
          minScore: DEFAULT_MIN_SCORE,
          maxResults: 20,
        });
        return searchResultsDto(deps, caller.organizationId, hits);
      },
    );

    app.post(
      '/v1/transMemories/:transMemoryUid/wildCardSearch',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'wildcardSearch',
          summary: 'Wildcard search',
          description:
            '`*` stands for any run of characters and `?` for one, over the whole source, ignoring case; `count` (1–50, default 50) sources from `offset`.',
          params: TransMemoryUidParams,
          body: WildCardSearchBody,
          response: { 200: SearchResults },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const tm = await requireTransMemory(deps, caller, request.params.transMemoryUid);
        const body = request.body;
        assertLanguage('sourceLang', body.sourceLang);
        const targetLangs = body.targetLangs?.length ? assertLanguages('targetLangs', body.targetLangs) : null;
        const hits = await wildcardSearch(deps, [alone(tm)], {
          pattern: body.query ?? '*',
          targetLangs,
          reverse: false,
          offset: body.offset ?? 0,
          count: body.count ?? 50,
        });
        return searchResultsDto(deps, caller.organizationId, hits);
      },
    );

    app.post(
      '/v1/transMemories/:transMemoryUid/segments',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'insertToTransMemory',
          summary: 'Insert segment',
          description:
            'Inserts a source and its translation; the same source and target again updates that unit (its context and stamps) instead of adding another.',
          params: TransMemoryUidParams,
          body: InsertSegmentBody,
        },
      },
      async (request, reply) => {
        await insertSegment(deps, callerOf(request), request.params.transMemoryUid, request.body);
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v1/transMemories/:transMemoryUid/segments',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'clearTransMemory',
          summary: 'Delete all segments',
          description: 'Deletes every unit of the TM at once (v2 does it as a background task).',
          params: TransMemoryUidParams,
        },
      },
      async (request, reply) => {
        const tm = await requireTransMemory(deps, callerOf(request), request.params.transMemoryUid, 'transMemoryEditOther');
        await clearTransMemory(deps, tm);
        return reply.code(204).send();
      },
    );

    app.put(
      '/v1/transMemories/:transMemoryUid/segments/:segmentId',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'updateTranslation',
          summary: 'Edit segment',
          description: "Replaces the segment's translation in `lang` by `text` (the `segmentId` of a search result).",
          params: SegmentParams,
          body: TranslationBody,
        },
      },
      async (request, reply) => {
        const { transMemoryUid, segmentId } = request.params;
        await updateTranslation(deps, callerOf(request), transMemoryUid, segmentId, request.body.lang, request.body.text);
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v1/transMemories/:transMemoryUid/segments/:segmentId',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteSourceAndTranslations',
          summary: 'Delete both source and translation',
          description: 'Deletes the source and every translation of it.',
          params: SegmentParams,
        },
      },
      async (request, reply) => {
        await deleteSegment(deps, callerOf(request), request.params.transMemoryUid, request.params.segmentId, null);
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v1/transMemories/:transMemoryUid/segments/:segmentId/lang/:lang',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'deleteTranslation',
          summary: 'Delete segment of given language',
          description: 'Deletes the translations in `lang` only; the source and its other translations stay.',
          params: SegmentLangParams,
        },
      },
      async (request, reply) => {
        const { transMemoryUid, segmentId, lang } = request.params;
        await deleteSegment(deps, callerOf(request), transMemoryUid, segmentId, lang);
        return reply.code(204).send();
      },
    );
  };
}
