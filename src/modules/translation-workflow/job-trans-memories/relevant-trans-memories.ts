import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { num } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { containsText } from '../../../db/text-match.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { pageWindow } from '../../../http/paging.js';
import { transMemoryVisibleTo } from '../../language-resources/translation-memories/index.js';
import type { TransMemoryRow } from '../../language-resources/translation-memories/index.js';
import { languageFamily } from './tm-settings.js';

/**
 * relevantTransMemories (of a project or a template): the TMs the caller sees whose source
 * language is the owner's and whose target languages include one of the owner's (or of
 * `targetLangs`); `strictLangMatching` compares codes exactly, otherwise by family (`de` ~ `de_at`).
 * Name filters match part of the name, ignoring case. By name, then id.
 */

export interface RelevantQuery {
  name?: string | undefined;
  domainName?: string | undefined;
  clientName?: string | undefined;
  subDomainName?: string | undefined;
  targetLangs?: readonly string[] | undefined;
  strictLangMatching?: boolean | undefined;
}

type Eb = ExpressionBuilder<DB, 'transMemories'>;

/** `code` in the JSON array of target languages: exactly, or (not strict) any code of its family. */
function hasTargetLang(eb: Eb, code: string, strict: boolean) {
  if (strict) return containsText('transMemories.targetLangs', `"${code}"`);
  const family = languageFamily(code);
  return eb.or([containsText('transMemories.targetLangs', `"${family}"`), containsText('transMemories.targetLangs', `"${family}_`)]);
}

function hasSourceLang(eb: Eb, code: string, strict: boolean) {
  if (strict) return eb(sql<string>`lower(${sql.ref('transMemories.sourceLang')})`, '=', code.toLowerCase());
  const family = languageFamily(code);
  return eb.or([
    eb(sql<string>`lower(${sql.ref('transMemories.sourceLang')})`, '=', family),
    sql<boolean>`lower(${sql.ref('transMemories.sourceLang')}) like ${`${family.replace(/[\\%_]/g, (c) => `\\${c}`)}\\_%`} escape '\\'`,
  ]);
}

function namedLike(eb: Eb, column: 'clientId' | 'domainId' | 'subDomainId', table: 'clients' | 'domains' | 'subDomains', name: string) {
  return eb(
    `transMemories.${column}`,
    'in',
    eb
      .selectFrom(table as 'clients')
      .select('id')
      .where(containsText('name', name)),
  );
}

export async function relevantTransMemories(
  db: Kysely<DB>,
  caller: Caller,
  owner: { sourceLang: string | null; targetLangs: readonly string[] },
  query: RelevantQuery,
  page: PageRequest,
): Promise<{ rows: TransMemoryRow[]; total: number }> {
  const strict = query.strictLangMatching === true;
  const wanted = query.targetLangs?.length ? assertLanguages('targetLangs', query.targetLangs) : owner.targetLangs;
  const base = db.selectFrom('transMemories').where((eb) => {
    const conditions: Expression<SqlBool>[] = [transMemoryVisibleTo(eb, caller)];
    if (owner.sourceLang) conditions.push(hasSourceLang(eb, owner.sourceLang, strict));
    if (wanted.length) conditions.push(eb.or(wanted.map((lang) => hasTargetLang(eb, lang, strict))));
    if (query.name) conditions.push(containsText('transMemories.name', query.name));
    if (query.clientName) conditions.push(namedLike(eb, 'clientId', 'clients', query.clientName));
    if (query.domainName) conditions.push(namedLike(eb, 'domainId', 'domains', query.domainName));
    if (query.subDomainName) conditions.push(namedLike(eb, 'subDomainId', 'subDomains', query.subDomainName));
    return eb.and(conditions);
  });
  const { n } = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await base
    .selectAll('transMemories')
    .orderBy('transMemories.name')
    .orderBy('transMemories.id')
    .offset(offset)
    .limit(limit)
    .execute();
  return { rows, total: num(n) };
}
