import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { assertLanguage, assertLanguages } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import { callerOf, roles } from '../../../http/access.js';
import { langsOf } from './term-bases.repository.js';
import { TermBaseSchema, TermBaseUidParams } from './term-bases.schemas.js';
import { requireTermBase } from './term-bases.service.js';
import { toTermBaseDtos } from './term-bases.views.js';
import { browseConceptIds, conceptTermsIn, searchTerms } from './term-search.js';
import { findConcepts } from './terms.repository.js';
import type { TermRow } from './terms.repository.js';
import { BrowseBody, BrowseResponse, TermSchema, TermSearchBody } from './terms.schemas.js';
import { contentWritable } from './terms.service.js';
import { termsByLanguage, toTermDtos } from './terms.views.js';

/** Search and browse of one term base (docs/terminology.md, "Search and browse"): ADMIN and PROJECT_MANAGER. */
const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Term Base'];
/** Hits a search answers at most (the published operation has no paging). */
export const SEARCH_MAX_RESULTS = 100;

const SearchResponse = Type.Object(
  {
    searchResults: Type.Array(
      Type.Object(
        { termBase: TermBaseSchema, conceptId: Type.String(), sourceTerm: TermSchema, translationTerms: Type.Array(TermSchema) },
        { title: 'SearchResponseTbDto' },
      ),
    ),
  },
  { title: 'SearchResponseListTbDto' },
);

/** A language of the request that must be one of the term base's. */
function ownLanguage(langs: readonly string[], field: string, code: string): string {
  const lang = assertLanguage(field, code);
  if (!langs.includes(lang)) {
    throw errors.InvalidArguments({
      reason: `"${code}" is not a language of the term base (${langs.join(', ')}).`,
      details: [{ field, message: 'not a language of the term base' }],
    });
  }
  return lang;
}

export function termSearchRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.post(
      '/v1/termBases/:termBaseUid/search',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'searchTerms',
          summary: 'Search term base',
          description: `Terms in \`sourceLang\` that match \`query\`, best first: the same text (ignoring case), then terms starting with it, then fuzzy matches of at least ${70} % by the TM's score; each with its concept's terms in \`targetLangs\`. \`status\` keeps only source terms of that status. At most ${SEARCH_MAX_RESULTS} hits.`,
          params: TermBaseUidParams,
          body: TermSearchBody,
          response: { 200: SearchResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const termBase = await requireTermBase(deps, caller, request.params.termBaseUid);
        const langs = langsOf(termBase);
        const body = request.body;
        const sourceLang = ownLanguage(langs, 'sourceLang', body.sourceLang);
        const targetLangs = assertLanguages('targetLangs', body.targetLangs);
        const hits = await searchTerms(db, {
          termBaseIds: [termBase.id],
          lang: sourceLang,
          query: body.query,
          status: body.status,
          limit: SEARCH_MAX_RESULTS,
        });
        const conceptIds = hits.map((hit) => hit.term.conceptId);
        const concepts = await findConcepts(db, termBase.id, conceptIds.map(String));
        const translations = targetLangs.length ? await conceptTermsIn(db, conceptIds, targetLangs) : new Map<string, TermRow[]>();
        const writable = contentWritable(caller, termBase);
        const allTerms = [...hits.map((hit) => hit.term), ...[...translations.values()].flat()];
        const dtos = new Map(
          (await toTermDtos(db, caller.organizationId, allTerms, concepts, writable)).map((dto) => [dto.id, dto] as const),
        );
        const [termBaseDto] = await toTermBaseDtos(db, caller.organizationId, [termBase]);
        return {
          searchResults: hits.map((hit) => ({
            termBase: termBaseDto!,
            conceptId: String(hit.term.conceptId),
            sourceTerm: dtos.get(String(hit.term.id))!,
            translationTerms: (translations.get(String(hit.term.conceptId)) ?? []).map((t) => dtos.get(String(t.id))!),
          })),
        };
      },
    );

    app.post(
      '/v1/termBases/:termBaseUid/browse',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'browseTerms',
          summary: 'Browse term base',
          description:
            'Concepts in the alphabetical order (ignoring case) of their first term in `queryLang` (default: the first language of the term base), from those whose term starts with `query`; each with all its terms, one array per language. `status` keeps concepts with a term of that status in `queryLang`.',
          params: TermBaseUidParams,
          body: BrowseBody,
          response: { 200: BrowseResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const termBase = await requireTermBase(deps, caller, request.params.termBaseUid);
        const langs = langsOf(termBase);
        const body = request.body ?? { pageNumber: 0, pageSize: 50 };
        const lang = body.queryLang !== undefined ? ownLanguage(langs, 'queryLang', body.queryLang) : langs[0]!;
        const ids = await browseConceptIds(db, {
          termBaseId: termBase.id,
          lang,
          query: body.query ?? '',
          status: body.status,
          pageNumber: body.pageNumber,
          pageSize: body.pageSize,
        });
        const concepts = await findConcepts(db, termBase.id, ids);
        const terms = await conceptTermsIn(db, ids, []);
        const writable = contentWritable(caller, termBase);
        const dtos = await toTermDtos(db, caller.organizationId, [...terms.values()].flat(), concepts, writable);
        const byConcept = new Map<string, typeof dtos>();
        for (const dto of dtos) {
          const list = byConcept.get(dto.conceptId);
          if (list) list.push(dto);
          else byConcept.set(dto.conceptId, [dto]);
        }
        return {
          searchResults: ids.map((id) => ({ id, writable, terms: termsByLanguage(termBase, byConcept.get(id) ?? []) })),
        };
      },
    );
  };
}
