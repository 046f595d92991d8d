import { expressionBuilder } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { termBaseVisibleTo } from '../../language-resources/term-bases/index.js';
import type { TermBaseRow } from '../../language-resources/term-bases/index.js';
import { langInJsonArray, relevantLanguageResources } from '../job-trans-memories/index.js';
import type { RelevantQuery } from '../job-trans-memories/index.js';

/**
 * relevantTermBases (of a project): the term bases the caller sees that hold the project's source
 * language and one of its target languages (or of `targetLangs`), both in the JSON array of the
 * term base's languages; `strictLangMatching` compares codes exactly, otherwise by family
 * (`de` ~ `de_at`). Name filters match part of the name, ignoring case. By name, then id: the
 * query of relevantTransMemories (job-trans-memories' relevantLanguageResources).
 */
export function relevantTermBases(
  db: Kysely<DB>,
  caller: Caller,
  owner: { sourceLang: string | null; targetLangs: readonly string[] },
  query: RelevantQuery,
  page: PageRequest,
): Promise<{ rows: TermBaseRow[]; total: number }> {
  return relevantLanguageResources(
    db,
    {
      table: 'termBases',
      visible: termBaseVisibleTo(expressionBuilder<DB, 'termBases'>(), caller),
      hasSourceLang: (code, strict) => langInJsonArray('termBases.langs', code, strict),
      targetLangsColumn: 'termBases.langs',
    },
    owner,
    query,
    page,
  );
}
