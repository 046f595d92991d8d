import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { supportedLanguages } from '../../../domain/languages/supported-languages.js';
import type { Language } from '../../../domain/languages/supported-languages.js';
import { AUTHENTICATED } from '../../../http/access.js';
import { LanguageListQuery, LanguageListSchema } from './languages.schemas.js';

type LanguageList = Static<typeof LanguageListSchema>;

function listOf(languages: readonly Language[]): LanguageList {
  return Object.freeze({
    languages: languages.map(({ code, name, rfc, android, androidBcp }) => Object.freeze({ code, name, rfc, android, androidBcp })),
  });
}

/**
 * The three possible answers, built once when the module loads: the list is static data, so a
 * request only picks one (docs/languages.md).
 */
const RESPONSES = {
  all: listOf(supportedLanguages()),
  active: listOf(supportedLanguages({ active: true })),
  inactive: listOf(supportedLanguages({ active: false })),
} as const;

/** Supported Languages (routes relative to `/api2`). */
export function languagesRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/languages',
      {
        config: { access: AUTHENTICATED },
        schema: {
          tags: ['Supported Languages'],
          operationId: 'listOfLanguages',
          summary: 'List supported languages',
          description:
            'The language codes every language parameter of the API accepts, sorted by code. `active` filters: true = offered for new work, false = legacy codes kept for older data, omitted = all.',
          querystring: LanguageListQuery,
          response: { 200: LanguageListSchema },
        },
      },
      async (request) => {
        const { active } = request.query;
        if (active === undefined) return RESPONSES.all;
        return active ? RESPONSES.active : RESPONSES.inactive;
      },
    );
  };
}
