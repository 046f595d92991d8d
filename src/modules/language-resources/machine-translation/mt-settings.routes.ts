import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { ENGINE_TYPES } from './engines/index.js';
import { CredentialsUnreadable, engineOf } from './mt-engines.js';
import type { MtSettingsRow } from './mt-settings.repository.js';
import {
  ConsumedMtusSchema,
  ListMtSettingsQuery,
  ListProfilesQuery,
  MtSettingsEditBody,
  MtSettingsPage,
  MtSettingsSchema,
  MtSettingsUidParams,
  MtStatusSchema,
  MtTypesSchema,
  TranslateBody,
  TranslateParams,
  TranslateProfilePage,
  TranslateResponse,
} from './mt-settings.schemas.js';
import { createMtSettings, deleteMtSettings, editMtSettings, listMtSettings, requireMtSettings } from './mt-settings.service.js';
import { toMtSettingsDtos, toTranslateProfileDtos } from './mt-settings.views.js';
import { translateOrFail } from './mt-translate-request.js';
import { monthOf, usageOfMonth } from './mt-usage.js';

/**
 * MT settings, MT and Language AI (docs/machine-translation.md): ADMIN manages the settings (the
 * create, edit and delete operations are an OpenTMS extension); ADMIN and PROJECT_MANAGER read
 * them (project managers choose the settings of their projects) and translate with them.
 */
const ADMINS: Access = roles('ADMIN');
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const TAGS = ['Machine Translation Settings'];

export function machineTranslationRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const dto = async (organizationId: string, row: MtSettingsRow) => (await toMtSettingsDtos(db, organizationId, [row], deps.clock()))[0]!;

  /** getList and getThirdPartyEnginesList: every engine of OpenTMS is a third-party one. */
  const listPage = async (request: FastifyRequest<{ Querystring: ListMtSettingsQuery }>) => {
    const caller = callerOf(request);
    const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
    const { rows, total } = await listMtSettings(deps, caller, request.query, page);
    return toPage(await toMtSettingsDtos(db, caller.organizationId, rows, deps.clock()), total, page);
  };

  return async (app) => {
    app.get(
      '/v1/machineTranslateSettings',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getList',
          summary: 'List machine translate settings',
          description: "The organization's MT settings by name (`name`: contains, ignoring case). Credentials are never shown.",
          querystring: ListMtSettingsQuery,
          response: { 200: MtSettingsPage },
        },
      },
      listPage,
    );

    app.get(
      '/v1/machineTranslateSettings/thirdPartyEngines',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getThirdPartyEnginesList',
          summary: 'List third party machine translate settings',
          description:
            "The settings of engines other than Phrase's own (Language AI): in OpenTMS every engine is a third-party one, so this is the same list as getList.",
          querystring: ListMtSettingsQuery,
          response: { 200: MtSettingsPage },
        },
      },
      listPage,
    );

    app.get(
      '/v1/machineTranslateSettings/types',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getMTTypes',
          summary: 'Get machine translate settings types',
          description:
            'Every engine type Phrase TMS knows, and Apertium. Only the types marked available in docs/machine-translation.md can be used in this installation (Apertium, through apertium-apy); the others are listed so that settings exported from Phrase are recognised, and creating them answers 400 MtEngineNotAvailable.',
          response: { 200: MtTypesSchema },
        },
      },
      async () => ({ types: ENGINE_TYPES.map((engine) => engine.type) }),
    );

    app.get(
      '/v1/machineTranslateSettings/:mtsUid',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getMTSettings',
          summary: 'Get machine translate settings',
          params: MtSettingsUidParams,
          response: { 200: MtSettingsSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await requireMtSettings(deps, caller.organizationId, request.params.mtsUid));
      },
    );

    app.get(
      '/v1/machineTranslateSettings/:mtsUid/status',
      {
        config: { access: READERS },
        schema: {
          tags: TAGS,
          operationId: 'getStatus',
          summary: 'Get status of machine translate engine',
          description: 'Whether the engine answers now (one request, a few seconds at most): `ok`, or `error` saying why not.',
          params: MtSettingsUidParams,
          response: { 200: MtStatusSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await requireMtSettings(deps, caller.organizationId, request.params.mtsUid);
        try {
          return await engineOf(deps, row).status();
        } catch (error) {
          if (error instanceof CredentialsUnreadable)
            return { ok: false, error: 'The stored credentials cannot be read with this installation’s key: enter them again.' };
          throw error;
        }
      },
    );

    app.post(
      '/v1/machineTranslateSettings',
      {
        config: { access: ADMINS, errors: ['MtEngineNotAvailable', 'UnsupportedLanguage', 'InvalidArguments'] },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'createMTSettings',
          summary: 'Create machine translate settings (OpenTMS extension)',
          description:
            'Not in the published API, which reads MT settings but cannot create them. ADMIN only. `credentials` are stored encrypted at rest and never answered.',
          body: MtSettingsEditBody,
          response: { 200: MtSettingsSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await createMtSettings(deps, caller, request.body));
      },
    );

    app.put(
      '/v1/machineTranslateSettings/:mtsUid',
      {
        config: { access: ADMINS, errors: ['MtEngineNotAvailable', 'UnsupportedLanguage', 'InvalidArguments'] },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'editMTSettings',
          summary: 'Edit machine translate settings (OpenTMS extension)',
          description:
            'Replaces name, default flag, tags mode, arguments and languages; `credentials` left out keep the stored ones. A change of arguments or credentials empties the settings’ MT cache.',
          params: MtSettingsUidParams,
          body: MtSettingsEditBody,
          response: { 200: MtSettingsSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller.organizationId, await editMtSettings(deps, caller, request.params.mtsUid, request.body));
      },
    );

    app.delete(
      '/v1/machineTranslateSettings/:mtsUid',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['OpenTMS'],
          operationId: 'deleteMTSettings',
          summary: 'Delete machine translate settings (OpenTMS extension)',
          description:
            'Removes the settings; projects and templates that used them have no MT settings for those languages afterwards. Usage counts stay.',
          params: MtSettingsUidParams,
        },
      },
      async (request, reply) => {
        await deleteMtSettings(deps, callerOf(request), request.params.mtsUid);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/machineTranslations/:mtSettingsUid/translate',
      {
        config: {
          access: READERS,
          errors: ['MtLanguagePairNotSupported', 'MachineTranslationFailed', 'UnsupportedLanguage', 'MtCredentialsUnreadable'],
        },
        schema: {
          tags: ['Machine Translation'],
          operationId: 'machineTranslation',
          summary: 'Translate with MT',
          description:
            'One translation per source text, in order. Inline tags as Phrase display tokens ({1>, <1}, {1}) are kept; the organization’s active glossary for the pair is applied. Cached translations are not sent again; what is sent counts in getConsumedMtus. An engine that cannot be reached after its retries answers 502 MachineTranslationFailed.',
          params: TranslateParams,
          body: TranslateBody,
          response: { 200: TranslateResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await requireMtSettings(deps, caller.organizationId, request.params.mtSettingsUid);
        const sourceLang = assertLanguage('from', request.body.from);
        const targetLang = assertLanguage('to', request.body.to);
        const texts = await translateOrFail(deps, {
          organizationId: caller.organizationId,
          settings: row,
          sourceLang,
          targetLang,
          segments: request.body.sourceTexts,
        });
        return { translations: texts };
      },
    );

    app.get(
      '/v1/mtuUsage',
      {
        config: { access: READERS },
        schema: {
          tags: ['Language AI'],
          operationId: 'getConsumedMtus',
          summary: 'Total amount of consumed MTUs in the current month',
          description:
            'Characters the organization sent to MT engines this month (UTC), every engine together; text answered from the MT cache does not count.',
          response: { 200: ConsumedMtusSchema },
        },
      },
      async (request) => ({ consumedMtus: await usageOfMonth(db, callerOf(request).organizationId, monthOf(deps.clock())) }),
    );

    app.get(
      '/v1/memsourceTranslateProfiles',
      {
        config: { access: READERS },
        schema: {
          tags: ['Language AI'],
          operationId: 'listMemsourceTranslateProfile',
          summary: 'List of Language AI profiles',
          description:
            'OpenTMS has no Phrase Language AI; each of the organization’s MT settings is a profile here (they all apply the active glossary), with its characters this month.',
          querystring: ListProfilesQuery,
          response: { 200: TranslateProfilePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await listMtSettings(deps, caller, { pageNumber: page.pageNumber, pageSize: page.pageSize }, page);
        return toPage(await toTranslateProfileDtos(db, caller.organizationId, rows, deps.clock()), total, page);
      },
    );
  };
}
