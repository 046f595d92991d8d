import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { TermBaseUidParams } from './term-bases.schemas.js';
import {
  ConceptEditBody,
  ConceptIdParams,
  ConceptListBody,
  ConceptPage,
  ConceptSchema,
  ConceptsQuery,
  ConceptTermsSchema,
  ConceptUidParams,
  TermBaseMetadataSchema,
  TermCreateBody,
  TermEditBody,
  TermIdParams,
  TermSchema,
} from './terms.schemas.js';
import {
  clearTermBase,
  conceptTerms,
  contentWritable,
  createConcept,
  createTerm,
  deleteConcept,
  deleteConcepts,
  deleteTerm,
  editConcept,
  editTerm,
  getConcept,
  getTerm,
  listConcepts,
  termBaseMetadata,
} from './terms.service.js';
import { termsByLanguage, toConceptDtos, toTermDtos } from './terms.views.js';

/**
 * Concepts and terms of a term base (docs/terminology.md, "Records"): ADMIN and PROJECT_MANAGER
 * (a project manager changes the content of term bases created by others with termBaseEditOther);
 * linguists add terms through their jobs (createTermByJob).
 */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Term Base'];

export function termsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/termBases/:termBaseUid/metadata',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'getTermBaseMetadata',
          summary: 'Get term base metadata',
          description: 'The number of terms, in all and per language (every language of the term base, 0 when it has none).',
          params: TermBaseUidParams,
          response: { 200: TermBaseMetadataSchema },
        },
      },
      async (request) => termBaseMetadata(deps, callerOf(request), request.params.termBaseUid),
    );

    app.get(
      '/v1/termBases/:termBaseUid/concepts',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'listConcepts',
          summary: 'List concepts',
          description: 'The concepts in the order they were created.',
          params: TermBaseUidParams,
          querystring: ConceptsQuery,
          response: { 200: ConceptPage },
        },
      },
      async (request) => {
        const { rows, total } = await listConcepts(deps, callerOf(request), request.params.termBaseUid, request.query);
        return { concepts: await toConceptDtos(db, rows), totalCount: total };
      },
    );

    app.post(
      '/v1/termBases/:termBaseUid/concepts',
      {
        config: { access: MANAGERS, errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'createConcept',
          summary: 'Create concept',
          description: 'An empty concept: its terms are created with `conceptId` (POST …/terms).',
          params: TermBaseUidParams,
          body: ConceptEditBody,
          response: { 201: ConceptSchema },
        },
      },
      async (request, reply) => {
        const concept = await createConcept(deps, callerOf(request), request.params.termBaseUid, request.body ?? {});
        return reply.code(201).send((await toConceptDtos(db, [concept]))[0]!);
      },
    );

    app.delete(
      '/v1/termBases/:termBaseUid/concepts',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteConcepts',
          summary: 'Delete concepts',
          description:
            'Deletes 1 to 100 concepts with their terms; when one is not in the term base, 404 naming it and nothing is deleted.',
          params: TermBaseUidParams,
          body: ConceptListBody,
        },
      },
      async (request, reply) => {
        await deleteConcepts(
          deps,
          callerOf(request),
          request.params.termBaseUid,
          request.body.concepts.map((c) => c.id),
        );
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/termBases/:termBaseUid/concepts/:conceptUid',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'getConcept',
          summary: 'Get concept',
          params: ConceptUidParams,
          response: { 200: ConceptSchema },
        },
      },
      async (request) => {
        const concept = await getConcept(deps, callerOf(request), request.params.termBaseUid, request.params.conceptUid);
        return (await toConceptDtos(db, [concept]))[0];
      },
    );

    app.put(
      '/v1/termBases/:termBaseUid/concepts/:conceptUid',
      {
        config: { access: MANAGERS, errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAGS,
          operationId: 'updateConcept',
          summary: 'Update concept',
          description: 'Replaces the concept’s fields: omitted ones are cleared. Its terms are not touched.',
          params: ConceptUidParams,
          body: ConceptEditBody,
          response: { 200: ConceptSchema },
        },
      },
      async (request) => {
        const { termBaseUid, conceptUid } = request.params;
        const concept = await editConcept(deps, callerOf(request), termBaseUid, conceptUid, request.body ?? {});
        return (await toConceptDtos(db, [concept]))[0];
      },
    );

    app.delete(
      '/v1/termBases/:termBaseUid/concepts/:conceptId',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteConcept',
          summary: 'Delete concept',
          description: 'Deletes the concept with its terms.',
          params: ConceptIdParams,
        },
      },
      async (request, reply) => {
        await deleteConcept(deps, callerOf(request), request.params.termBaseUid, request.params.conceptId);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/termBases/:termBaseUid/concepts/:conceptId/terms',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'listTermsOfConcept',
          summary: 'Get terms of concept',
          description: 'The concept’s terms, one array per language in the term base’s order.',
          params: ConceptIdParams,
          response: { 200: ConceptTermsSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { termBase, concept, terms, writable } = await conceptTerms(
          deps,
          caller,
          request.params.termBaseUid,
          request.params.conceptId,
        );
        const dtos = await toTermDtos(db, caller.organizationId, terms, [concept], writable);
        return { id: String(concept.id), writable, terms: termsByLanguage(termBase, dtos) };
      },
    );

    app.post(
      '/v1/termBases/:termBaseUid/terms',
      {
        config: { access: MANAGERS, errors: ['ReferenceNotFound', 'UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'createTerm',
          summary: 'Create term',
          description: 'Creates a term in the concept `conceptId`, or in a new concept when it is omitted.',
          params: TermBaseUidParams,
          body: TermCreateBody,
          response: { 201: TermSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { term, concept } = await createTerm(deps, caller, request.params.termBaseUid, request.body);
        return reply.code(201).send((await toTermDtos(db, caller.organizationId, [term], [concept], true))[0]!);
      },
    );

    app.delete(
      '/v1/termBases/:termBaseUid/terms',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'clearTermBase',
          summary: 'Clear term base',
          description: 'Deletes every term and concept of the term base; the term base stays.',
          params: TermBaseUidParams,
        },
      },
      async (request, reply) => {
        await clearTermBase(deps, callerOf(request), request.params.termBaseUid);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/termBases/:termBaseUid/terms/:termId',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'getTerm',
          summary: 'Get term',
          params: TermIdParams,
          response: { 200: TermSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { termBase, term, concept } = await getTerm(deps, caller, request.params.termBaseUid, request.params.termId);
        return (await toTermDtos(db, caller.organizationId, [term], [concept], contentWritable(caller, termBase)))[0];
      },
    );

    app.put(
      '/v1/termBases/:termBaseUid/terms/:termId',
      {
        config: { access: MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'updateTerm',
          summary: 'Edit term',
          description:
            'Replaces the term: omitted flags become false and omitted texts are cleared; `lang` and `status` are kept when omitted.',
          params: TermIdParams,
          body: TermEditBody,
          response: { 200: TermSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { term, concept } = await editTerm(deps, caller, request.params.termBaseUid, request.params.termId, request.body);
        return (await toTermDtos(db, caller.organizationId, [term], [concept], true))[0];
      },
    );

    app.delete(
      '/v1/termBases/:termBaseUid/terms/:termId',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteTerm',
          summary: 'Delete term',
          description: 'Deletes the term; a concept whose last term it was is deleted with it.',
          params: TermIdParams,
        },
      },
      async (request, reply) => {
        await deleteTerm(deps, callerOf(request), request.params.termBaseUid, request.params.termId);
        return reply.code(204).send();
      },
    );
  };
}
