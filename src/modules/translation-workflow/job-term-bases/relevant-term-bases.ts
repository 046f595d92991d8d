import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { num } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { containsText } from '../../../db/text-match.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { pageWindow } from '../../../http/paging.js';
import { termBaseVisibleTo } from '../../language-resources/term-bases/index.js';
import type { TermBaseRow } from '../../language-resources/term-bases/index.js';
import { languageFamily } from '../job-trans-memories/index.js';
import type { RelevantQuery } from '../job-trans-memories/index.js';

/**
 * relevantTermBases (of a project): the term bases the caller sees that hold the project's source
 * language and one of its target languages (or of `targetLangs`); `strictLangMatching` compares
 * codes exactly, otherwise by family (`de` ~ `de_at`). Name filters match part of the name,
 * ignoring case. By name, then id.
 */

type Eb = ExpressionBuilder<DB, 'termBases'>;

/** `code` in the JSON array of languages: exactly, or (not strict) any code of its family. */
function hasLang(eb: Eb, code: string, strict: boolean) {
  if (strict) return containsText('termBases.langs', `"${code}"`);
  const family = languageFamily(code);
  return eb.or([containsText('termBases.langs', `"${family}"`), containsText('termBases.langs', `"${family}_`)]);
}

function namedLike(eb: Eb, column: 'clientId' | 'domainId' | 'subDomainId', table: 'clients' | 'domains' | 'subDomains', name: string) {
  return eb(
    `termBases.${column}`,
    'in',
    eb
      .selectFrom(table as 'clients')
      .select('id')
      .where(containsText('name', name)),
  );
}

export async function relevantTermBases(
  db: Kysely<DB>,
  caller: Caller,
  owner: { sourceLang: string | null; targetLangs: readonly string[] },
  query: RelevantQuery,
  page: PageRequest,
): Promise<{ rows: TermBaseRow[]; total: number }> {
  const strict = query.strictLangMatching === true;
  const wanted = query.targetLangs?.length ? assertLanguages('targetLangs', query.targetLangs) : owner.targetLangs;
  const base = db.selectFrom('termBases').where((eb) => {
    const conditions: Expression<SqlBool>[] = [termBaseVisibleTo(eb, caller)];
    if (owner.sourceLang) conditions.push(hasLang(eb, owner.sourceLang, strict));
    if (wanted.length) conditions.push(eb.or(wanted.map((lang) => hasLang(eb, lang, strict))));
    if (query.name) conditions.push(containsText('termBases.name', query.name));
    if (query.clientName) conditions.push(namedLike(eb, 'clientId', 'clients', query.clientName));
    if (query.domainName) conditions.push(namedLike(eb, 'domainId', 'domains', query.domainName));
    if (query.subDomainName) conditions.push(namedLike(eb, 'subDomainId', 'subDomains', query.subDomainName));
    return eb.and(conditions);
  });
  const { n } = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await base.selectAll('termBases').orderBy('termBases.name').orderBy('termBases.id').offset(offset).limit(limit).execute();
  return { rows, total: num(n) };
}
