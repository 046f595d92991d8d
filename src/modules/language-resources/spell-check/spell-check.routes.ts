import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import { AUTHENTICATED, callerOf, roles } from '../../../http/access.js';
import {
  DictionaryItem,
  MAX_TEXT_CHARS,
  MAX_TOTAL_CHARS,
  MAX_WORD_CHARS,
  SpellCheckRequest,
  SpellCheckResponse,
  SuggestRequest,
  SuggestResponse,
} from './spell-check.schemas.js';
import { addWord, checkTexts, suggestWords } from './spell-check.service.js';

/**
 * Spell Check (docs/spelling.md): check texts and suggest words with the organization's
 * dictionary (any user of the organization: "using the settings of the user's organization"),
 * and add a word to it (ADMIN, PROJECT_MANAGER and LINGUIST, who add words from the editor as
 * they translate). checkByJob lives in translation-workflow/job-spell-check, beside the jobs.
 */

export const WORD_EDITORS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');
const tags = ['Spell Check'];

/** A word the organization's dictionary may keep: trimmed, not empty, at most MAX_WORD_CHARS characters, no control characters. */
function validWord(word: string): string {
  const trimmed = word.trim();
  const refuse = (message: string) =>
    errors.InvalidArguments({ reason: `The word cannot be added: ${message}.`, details: [{ field: 'word', message }] });
  if (trimmed === '') throw refuse('it is empty');
  if (trimmed.length > MAX_WORD_CHARS) throw refuse(`it is longer than ${MAX_WORD_CHARS} characters`);
  if (/\p{Cc}/u.test(trimmed)) throw refuse('it holds a control character (a line break, a tab)');
  return trimmed;
}

export function spellCheckRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.post(
      '/v1/spellCheck/check',
      {
        config: { access: AUTHENTICATED, errors: ['SpellingDictionaryMissing'] },
        schema: {
          tags,
          operationId: 'check',
          summary: 'Spell check',
          description:
            "Spell check using the settings of the user's organization: the Hunspell dictionary of `lang` and the words the organization added for it. " +
            'Tags, placeholders, URLs, e-mail addresses and numbers are skipped; offsets are in UTF-16 code units of each text. ' +
            'A language without an installed dictionary is refused with 400 SpellingDictionaryMissing (never reported as correct). ' +
            `At most 1000 texts of at most ${MAX_TEXT_CHARS} characters, ${MAX_TOTAL_CHARS} characters together, a request. Words of \`referenceTexts\` (the source of the texts, say) are never flagged: a word the reference has is copied, not misspelled.`,
          body: SpellCheckRequest,
          response: { 200: SpellCheckResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const lang = assertLanguage('lang', request.body.lang);
        return { spellCheckResults: await checkTexts(db, caller.organizationId, lang, request.body) };
      },
    );

    app.post(
      '/v1/spellCheck/suggest',
      {
        config: { access: AUTHENTICATED, errors: ['SpellingDictionaryMissing'] },
        schema: {
          tags,
          operationId: 'suggest',
          summary: 'Suggest a word',
          description:
            'Ranked suggestions for each word from the Hunspell dictionary of `lang`, with the organization’s own words that are one or two edits away ' +
            '(one edit: first; two: after the dictionary’s). A word that is spelled right gets none. At most 100 words of at most 100 characters a request.',
          body: SuggestRequest,
          response: { 200: SuggestResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const lang = assertLanguage('lang', request.body.lang);
        return { suggestResults: await suggestWords(db, caller.organizationId, lang, request.body.words) };
      },
    );

    app.post(
      '/v1/spellCheck/words',
      {
        config: { access: WORD_EDITORS },
        schema: {
          tags,
          operationId: 'addWord',
          summary: 'Add word to dictionary',
          description:
            "Adds the word to the organization's dictionary for `lang` (a word added for a language without region, `de`, also serves `de_at`). " +
            'Spell checks and QA runs never flag it (case-insensitively). Adding a word again changes nothing. ' +
            'The word is trimmed; empty, longer than 100 characters or with a control character: 400. ADMIN, PROJECT_MANAGER and LINGUIST.',
          body: DictionaryItem,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const lang = assertLanguage('lang', request.body.lang);
        const word = validWord(request.body.word);
        await addWord(db, caller, lang, word, deps.clock().toISOString());
        return reply.code(204).send();
      },
    );
  };
}
