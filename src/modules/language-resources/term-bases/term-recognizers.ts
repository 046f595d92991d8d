import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { TermMatcher } from '../../../domain/terminology/index.js';
import type { TermBaseRow } from './term-bases.repository.js';

/**
 * Term recognizers of term bases (docs/terminology.md, "Term recognition"): a `TermMatcher` of the
 * terms of some term bases in one language, kept per process and rebuilt when one of the term
 * bases' `version` has moved (every write transaction on a term base's content moves it). Built a
 * page of terms at a time, letting other work run between pages, so that a large term base does
 * not hold up the requests of the process while its recognizer is built.
 */

export interface RecognizedTerm {
  readonly id: Id;
  readonly conceptId: Id;
  readonly termBaseId: Id;
  readonly text: string;
  readonly caseSensitive: boolean;
  readonly exactMatch: boolean;
  readonly forbidden: boolean;
}

/** Recognizers kept at most (each holds its terms' trie); the least recently used goes first. */
const MAX_RECOGNIZERS = 16;
const PAGE_TERMS = 5000;

const cache = new Map<string, Promise<TermMatcher<RecognizedTerm>>>();

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function build(db: Kysely<DB>, termBaseIds: readonly Id[], langs: readonly string[], language: string) {
  const matcher = new TermMatcher<RecognizedTerm>([], language);
  if (termBaseIds.length === 0 || langs.length === 0) return matcher;
  let after: Id | null = null;
  for (;;) {
    let query = db
      .selectFrom('tbTerms')
      .select(['id', 'conceptId', 'termBaseId', 'text', 'caseSensitive', 'exactMatch', 'forbidden'])
      .where('termBaseId', 'in', [...termBaseIds])
      .where('lang', 'in', [...langs])
      .orderBy('id')
      .limit(PAGE_TERMS);
    if (after !== null) query = query.where('id', '>', after);
    const rows = await query.execute();
    if (rows.length === 0) return matcher;
    matcher.addTerms(
      rows.map((row) => ({
        id: String(row.id),
        conceptId: String(row.conceptId),
        termBaseId: String(row.termBaseId),
        text: row.text,
        caseSensitive: bool(row.caseSensitive as number),
        exactMatch: bool(row.exactMatch as number),
        forbidden: bool(row.forbidden as number),
      })),
    );
    after = rows[rows.length - 1]!.id;
    await yieldToEventLoop();
  }
}

/**
 * The recognizer of the terms of `termBases` (rows read in this request, so their versions are
 * current) in the languages `langs`, matching as `language` (its stemmer).
 */
export async function termRecognizer(
  db: Kysely<DB>,
  termBases: readonly Pick<TermBaseRow, 'id' | 'version'>[],
  langs: readonly string[],
  language: string,
): Promise<TermMatcher<RecognizedTerm>> {
  const key = `${language}|${[...langs].sort().join(',')}|${termBases
    .map((tb) => `${tb.id}@${tb.version}`)
    .sort()
    .join(',')}`;
  let matcher = cache.get(key);
  if (matcher) {
    cache.delete(key);
    cache.set(key, matcher);
    return matcher;
  }
  matcher = build(
    db,
    termBases.map((tb) => tb.id),
    langs,
    language,
  );
  cache.set(key, matcher);
  matcher.catch(() => cache.delete(key));
  while (cache.size > MAX_RECOGNIZERS) cache.delete(cache.keys().next().value!);
  return matcher;
}
