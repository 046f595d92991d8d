import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { resolveReference } from '../../organization-setup/setup-records/index.js';
import {
  DeleteTermBaseQuery,
  ListTermBasesQuery,
  TermBaseEditBody,
  TermBasePage,
  TermBaseSchema,
  TermBaseUidParams,
} from './term-bases.schemas.js';
import { createTermBase, deleteTermBase, editTermBase, listTermBases, requireTermBase } from './term-bases.service.js';
import { toTermBaseDtos } from './term-bases.views.js';

/**
 * Term base records (docs/terminology.md). ADMIN and PROJECT_MANAGER (project managers by their
 * termBase* rights and client / business unit lists); linguists reach term bases only through
 * their jobs.
 */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const CREATORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'termBaseCreate' };
const TAGS = ['Term Base'];

export function termBasesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const dto = async (organizationId: string, row: Parameters<typeof toTermBaseDtos>[2][number]) =>
    (await toTermBaseDtos(db, organizationId, [row]))[0]!;

  return async (app) => {
    app.get(
      '/v1/termBases',
      {
        config: { access: MANAGERS, errors: ['ReferenceNotFound', 'UnsupportedLanguage'] },
        schema: {
          tags: TAGS,
          operationId: 'listTermBases',
          summary: 'List term bases',
          description:
            'The term bases the caller sees, by name. `lang` (repeatable): term bases with every one of these languages. `clientId`, `domainId`, `subDomainId` take the numeric id or the uid.',
          querystring: ListTermBasesQuery,
          response: { 200: TermBasePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, name, lang, clientId, domainId, subDomainId } = request.query;
        const reference = async (kind: 'client' | 'domain' | 'subDomain', field: string, key: string | undefined) =>
          key ? resolveReference(db, caller.organizationId, kind, field, { id: key }) : undefined;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listTermBases(
          deps,
          caller,
          {
            name,
            langs: lang ? assertLanguages('lang', lang) : undefined,
            clientId: await reference('client', 'clientId', clientId),
            domainId: await reference('domain', 'domainId', domainId),
            subDomainId: await reference('subDomain', 'subDomainId', subDomainId),
          },
          page,
        );
        return toPage(await toTermBaseDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/termBases',
      {
        config: { access: CREATORS, errors: ['ReferenceNotFound', 'UnsupportedLanguage', 'InvalidArguments'] },
        schema: {
          tags: TAGS,
          operationId: 'createTermBase',
          summary: 'Create term base',
          description: 'Answers 200, as the published operation does.',
          body: TermBaseEditBody,
          response: { 200: TermBaseSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await createTermBase(deps, caller, request.body));
      },
    );

    app.get(
      '/v1/termBases/:termBaseUid',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'getTermBase',
          summary: 'Get term base',
          params: TermBaseUidParams,
          response: { 200: TermBaseSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await requireTermBase(deps, caller, request.params.termBaseUid));
      },
    );

    app.put(
      '/v1/termBases/:termBaseUid',
      {
        config: { access: MANAGERS, errors: ['ReferenceNotFound', 'UnsupportedLanguage', 'InvalidArguments', 'TermBaseInvalidInput'] },
        schema: {
          tags: TAGS,
          operationId: 'updateTermBase',
          summary: 'Edit term base',
          description: 'Replaces the record: omitted or null references and note are cleared; the owner is kept when omitted.',
          params: TermBaseUidParams,
          body: TermBaseEditBody,
          response: { 200: TermBaseSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await editTermBase(deps, caller, request.params.termBaseUid, request.body));
      },
    );

    app.delete(
      '/v1/termBases/:termBaseUid',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAGS,
          operationId: 'deleteTermBase',
          summary: 'Delete term base',
          description: 'Deletes the term base (`purge` is accepted; OpenTMS keeps no recycle bin for term bases).',
          params: TermBaseUidParams,
          querystring: DeleteTermBaseQuery,
        },
      },
      async (request, reply) => {
        await deleteTermBase(deps, callerOf(request), request.params.termBaseUid);
        return reply.code(204).send();
      },
    );
  };
}
