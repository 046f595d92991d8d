import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import type { GlossaryRow } from './glossaries.repository.js';
import {
  DeleteGlossaryQuery,
  GlossaryActivationBody,
  GlossaryEditBody,
  GlossaryPage,
  GlossarySchema,
  GlossaryUidParams,
  ListGlossariesQuery,
} from './glossaries.schemas.js';
import {
  activateGlossary,
  createGlossary,
  deleteGlossary,
  editGlossary,
  listGlossaries,
  purgeGlossary,
  requireGlossary,
} from './glossaries.service.js';
import { toGlossaryDtos } from './glossaries.views.js';
import { glossaryTransfersRoutes } from './glossary-transfer.routes.js';

/**
 * Glossary records, activation and purge (docs/terminology.md, "Glossaries (built)"): ADMIN and
 * PROJECT_MANAGER, on every glossary of their organization. Registers the upload and export
 * routes (glossary-transfer.routes.ts) too.
 */
const GLOSSARY_MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const GLOSSARY_TAGS = ['Glossary'];

export function glossariesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const dto = async (organizationId: string, row: GlossaryRow) => (await toGlossaryDtos(db, organizationId, [row]))[0]!;

  return async (app) => {
    app.get(
      '/v1/glossaries',
      {
        config: { access: GLOSSARY_MANAGERS, errors: ['UnsupportedLanguage'] },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'listGlossaries',
          summary: 'List glossaries',
          description: "The organization's glossaries, by name. `lang` (repeatable): glossaries with every one of these languages.",
          querystring: ListGlossariesQuery,
          response: { 200: GlossaryPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, name, lang } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listGlossaries(deps, caller, { name, langs: lang ? assertLanguages('lang', lang) : undefined }, page);
        return toPage(await toGlossaryDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/glossaries',
      {
        config: { access: GLOSSARY_MANAGERS, errors: ['ReferenceNotFound', 'UnsupportedLanguage', 'InvalidArguments'] },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'createGlossary',
          summary: 'Create glossary',
          description:
            "Answers 200, as the published operation does. The first of `langs` is the glossary's source language, the others its target languages; the glossary starts inactive and empty. The owner (an ADMIN or PROJECT_MANAGER) is the caller unless given.",
          body: GlossaryEditBody,
          response: { 200: GlossarySchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await createGlossary(deps, caller, request.body));
      },
    );

    app.get(
      '/v1/glossaries/:glossaryUid',
      {
        config: { access: GLOSSARY_MANAGERS },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'getGlossary',
          summary: 'Get glossary',
          params: GlossaryUidParams,
          response: { 200: GlossarySchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await requireGlossary(deps, caller, request.params.glossaryUid));
      },
    );

    app.put(
      '/v1/glossaries/:glossaryUid',
      {
        config: {
          access: GLOSSARY_MANAGERS,
          errors: ['ReferenceNotFound', 'UnsupportedLanguage', 'InvalidArguments', 'GlossaryLanguagesRemoved'],
        },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'updateGlossary',
          summary: 'Edit glossary',
          description:
            'Languages can only be added: send every language the glossary has (400 GlossaryLanguagesRemoved otherwise, and nothing changes); they keep their order and new ones are appended. The owner is kept when omitted. An active glossary that gains a language pair another active glossary has deactivates that one.',
          params: GlossaryUidParams,
          body: GlossaryEditBody,
          response: { 200: GlossarySchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await editGlossary(deps, caller, request.params.glossaryUid, request.body));
      },
    );

    app.delete(
      '/v1/glossaries/:glossaryUid',
      {
        config: { access: GLOSSARY_MANAGERS },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'deleteGlossary',
          summary: 'Delete glossary',
          description: 'Deletes the glossary and its entries (`purge` is accepted; OpenTMS keeps no recycle bin for glossaries).',
          params: GlossaryUidParams,
          querystring: DeleteGlossaryQuery,
        },
      },
      async (request, reply) => {
        await deleteGlossary(deps, callerOf(request), request.params.glossaryUid);
        return reply.code(204).send();
      },
    );

    app.put(
      '/v1/glossaries/:glossaryUid/activate',
      {
        config: { access: GLOSSARY_MANAGERS },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'activateGlossary',
          summary: 'Activate/Deactivate glossary',
          description:
            "One glossary is active per language pair (its source language and one of its target languages) in the organization: activating a glossary deactivates, in the same transaction, every other active glossary that shares a language pair with it. `{}` activates. Answers the glossary; the others' state is read with getGlossary or listGlossaries.",
          params: GlossaryUidParams,
          body: GlossaryActivationBody,
          response: { 200: GlossarySchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await activateGlossary(deps, caller, request.params.glossaryUid, request.body.active));
      },
    );

    app.post(
      '/v1/glossaries/:glossaryUid/purge',
      {
        config: { access: GLOSSARY_MANAGERS },
        schema: {
          tags: GLOSSARY_TAGS,
          operationId: 'purgeGlossary',
          summary: 'Purge glossary',
          description:
            'Removes every entry of the glossary and answers 204; the glossary itself (name, languages, activation) stays. Not in the published spec (a 2025 operation): no body, like clearTermBase.',
          params: GlossaryUidParams,
        },
      },
      async (request, reply) => {
        await purgeGlossary(deps, callerOf(request), request.params.glossaryUid);
        return reply.code(204).send();
      },
    );

    await app.register(glossaryTransfersRoutes(deps));
  };
}
