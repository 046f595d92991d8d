import { expressionBuilder, sql } from 'kysely';
import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
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
 * Name filters match part of the name, ignoring case. By name, then id. The query is shared with
 * relevantTermBases (job-term-bases): relevantLanguageResources.
 */

export interface RelevantQuery {
  name?: string | undefined;
  domainName?: string | undefined;
  clientName?: string | undefined;
  subDomainName?: string | undefined;
  targetLangs?: readonly string[] | undefined;
  strictLangMatching?: boolean | undefined;
}

/** The language resources relevantLanguageResources pages through. */
type LanguageResource = 'transMemories' | 'termBases';

/** `code` in `column`, a JSON array of language codes: exactly, or (not strict) any code of its family. */
export function langInJsonArray(column: string, code: string, strict: boolean): Expression<SqlBool> {
  if (strict) return containsText(column, `"${code}"`);
  const family = languageFamily(code);
  return expressionBuilder<DB>().or([containsText(column, `"${family}"`), containsText(column, `"${family}_`)]);
}

/**
 * A page of the rows of `resource.table` relevant to `owner`: `visible` to the caller, holding the
 * owner's source language (`hasSourceLang`) and one of the wanted target languages (the owner's, or
 * `query.targetLangs`) in the JSON array `targetLangsColumn`, and passing the name, client, domain
 * and subdomain name filters of `query`. By name, then id.
 */
export async function relevantLanguageResources<T extends LanguageResource>(
  db: Kysely<DB>,
  resource: {
    table: T;
    visible: Expression<SqlBool>;
    hasSourceLang: (code: string, strict: boolean) => Expression<SqlBool>;
    targetLangsColumn: `${T}.${string}`;
  },
  owner: { sourceLang: string | null; targetLangs: readonly string[] },
  query: RelevantQuery,
  page: PageRequest,
): Promise<{ rows: Selectable<DB[T]>[]; total: number }> {
  const table: LanguageResource = resource.table;
  const strict = query.strictLangMatching === true;
  const wanted = query.targetLangs?.length ? assertLanguages('targetLangs', query.targetLangs) : owner.targetLangs;
  const eb = expressionBuilder<DB, LanguageResource>();
  const namedLike = (column: 'clientId' | 'domainId' | 'subDomainId', named: 'clients' | 'domains' | 'subDomains', name: string) =>
    eb(
      `${table}.${column}`,
      'in',
      eb
        .selectFrom(named as 'clients')
        .select('id')
        .where(containsText('name', name)),
    );
  const conditions: Expression<SqlBool>[] = [resource.visible];
  if (owner.sourceLang) conditions.push(resource.hasSourceLang(owner.sourceLang, strict));
  if (wanted.length) conditions.push(eb.or(wanted.map((lang) => langInJsonArray(resource.targetLangsColumn, lang, strict))));
  if (query.name) conditions.push(containsText(`${table}.name`, query.name));
  if (query.clientName) conditions.push(namedLike('clientId', 'clients', query.clientName));
  if (query.domainName) conditions.push(namedLike('domainId', 'domains', query.domainName));
  if (query.subDomainName) conditions.push(namedLike('subDomainId', 'subDomains', query.subDomainName));
  const base = db.selectFrom(table).where(eb.and(conditions));
  const { n } = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await base.selectAll(table).orderBy(`${table}.name`).orderBy(`${table}.id`).offset(offset).limit(limit).execute();
  return { rows: rows as Selectable<DB[T]>[], total: num(n) };
}

/** The TM's source language is `code`: exactly (ignoring case), or (not strict) any code of its family. */
function hasSourceLang(eb: ExpressionBuilder<DB, 'transMemories'>, code: string, strict: boolean) {
  if (strict) return eb(sql<string>`lower(${sql.ref('transMemories.sourceLang')})`, '=', code.toLowerCase());
  const family = languageFamily(code);
  return eb.or([
    eb(sql<string>`lower(${sql.ref('transMemories.sourceLang')})`, '=', family),
    sql<boolean>`lower(${sql.ref('transMemories.sourceLang')}) like ${`${family.replace(/[\\%_]/g, (c) => `\\${c}`)}\\_%`} escape '\\'`,
  ]);
}

export function relevantTransMemories(
  db: Kysely<DB>,
  caller: Caller,
  owner: { sourceLang: string | null; targetLangs: readonly string[] },
  query: RelevantQuery,
  page: PageRequest,
): Promise<{ rows: TransMemoryRow[]; total: number }> {
  const eb = expressionBuilder<DB, 'transMemories'>();
  return relevantLanguageResources(
    db,
    {
      table: 'transMemories',
      visible: transMemoryVisibleTo(eb, caller),
      hasSourceLang: (code, strict) => hasSourceLang(eb, code, strict),
      targetLangsColumn: 'transMemories.targetLangs',
    },
    owner,
    query,
    page,
  );
}
