import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { keyContains, keyStartsWith } from '../../../db/text-match.js';
import { normalize, scoreMatch } from '../../../domain/translation-memory/index.js';
import type { TermRow } from './terms.repository.js';
import { termTextKey } from './terms.repository.js';

/**
 * Term search and browse (docs/terminology.md, "Search and browse"):
 *
 * - **Search** finds terms of one language by text, best first: exact (case-insensitive), then
 *   those that start with the query (`text_key` LIKE, within the `(term_base_id, lang)` part of
 *   the index: a range over the key would depend on PostgreSQL's collation), then fuzzy ones
 *   scored with the TM's own score (src/domain/translation-memory, `scoreMatch`, at least 70):
 *   the candidates are the terms holding the query's longest word (at most FUZZY_CANDIDATES of
 *   them), so a search costs a bounded number of rows whatever the term base's size.
 * - **Browse** pages through concepts in the alphabetical order (by lower-case text) of one
 *   language's first term, from a prefix.
 */

export interface TermSearch {
  termBaseIds: readonly Id[];
  lang: string;
  query: string;
  /** New (new and rejected) or Approved; undefined: any. */
  status?: 'New' | 'Approved' | undefined;
  offset?: number;
  limit: number;
}

export interface TermHit {
  term: TermRow;
  /** 101 exact as written, 100 exact ignoring case, 99 prefix; otherwise the fuzzy score. */
  score: number;
}

export const FUZZY_MIN_SCORE = 70;
const FUZZY_CANDIDATES = 2000;
const PREFIX_CANDIDATES = 2000;

function filtered(db: Kysely<DB>, search: TermSearch) {
  let query = db
    .selectFrom('tbTerms')
    .selectAll()
    .where('termBaseId', 'in', [...search.termBaseIds])
    .where('lang', '=', search.lang);
  if (search.status === 'Approved') query = query.where('status', '=', 'Approved');
  else if (search.status === 'New') query = query.where('status', '<>', 'Approved');
  return query;
}

/** The longest word of a text (letters, marks, digits), lower case; the text itself when it has none. */
function longestWord(text: string): string {
  let best = '';
  for (const word of text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) if (word.length > best.length) best = word;
  return best || text.toLowerCase();
}

export async function searchTerms(db: Kysely<DB>, search: TermSearch): Promise<TermHit[]> {
  const text = search.query.trim();
  if (!text || search.termBaseIds.length === 0) return [];
  const key = termTextKey(text);
  const lower = text.toLowerCase();
  const hits = new Map<string, TermHit>();
  const prefix = await filtered(db, search)
    .where(keyStartsWith('tb_terms.text_key', key))
    .orderBy('textKey')
    .orderBy('id')
    .limit(PREFIX_CANDIDATES)
    .execute();
  for (const term of prefix) {
    const score = term.text === text ? 101 : term.text.toLowerCase() === lower ? 100 : term.text.toLowerCase().startsWith(lower) ? 99 : 0;
    if (score) hits.set(String(term.id), { term, score });
  }
  const word = longestWord(text);
  const candidates = await filtered(db, search)
    .where(keyContains('tb_terms.text_key', word.slice(0, 200)))
    .limit(FUZZY_CANDIDATES)
    .execute();
  const normalizedQuery = normalize(text);
  for (const term of candidates) {
    if (hits.has(String(term.id))) continue;
    const score = scoreMatch(normalizedQuery, normalize(term.text), { minScore: FUZZY_MIN_SCORE });
    if (score !== null) hits.set(String(term.id), { term, score: Math.min(score, 98) });
  }
  const ranked = [...hits.values()].sort(
    (a, b) => b.score - a.score || a.term.text.length - b.term.text.length || Number(a.term.id) - Number(b.term.id),
  );
  const offset = search.offset ?? 0;
  return ranked.slice(offset, offset + search.limit);
}

/** The terms of concepts in the given languages (all languages when `langs` is empty), by concept. */
export async function conceptTermsIn(db: Kysely<DB>, conceptIds: readonly Id[], langs: readonly string[]): Promise<Map<string, TermRow[]>> {
  const byConcept = new Map<string, TermRow[]>();
  const ids = [...new Set(conceptIds.map(String))];
  for (let at = 0; at < ids.length; at += 500) {
    let query = db
      .selectFrom('tbTerms')
      .selectAll()
      .where('conceptId', 'in', ids.slice(at, at + 500))
      .orderBy('id');
    if (langs.length) query = query.where('lang', 'in', [...langs]);
    for (const term of await query.execute()) {
      const list = byConcept.get(String(term.conceptId));
      if (list) list.push(term);
      else byConcept.set(String(term.conceptId), [term]);
    }
  }
  return byConcept;
}

export interface Browse {
  termBaseId: Id;
  lang: string;
  /** A prefix of the language's terms (case-insensitive); empty: from the start. */
  query: string;
  status?: 'New' | 'Approved' | undefined;
  pageNumber: number;
  pageSize: number;
}

/** One page of concept ids in the alphabetical order of their first term in `lang`. */
export async function browseConceptIds(db: Kysely<DB>, browse: Browse): Promise<Id[]> {
  let query = db
    .selectFrom('tbTerms')
    .select(['conceptId', (eb) => eb.fn.min('textKey').as('firstKey')])
    .where('termBaseId', '=', browse.termBaseId)
    .where('lang', '=', browse.lang);
  const prefix = browse.query.trim();
  if (prefix) {
    query = query.where(keyStartsWith('tb_terms.text_key', termTextKey(prefix)));
  }
  if (browse.status === 'Approved') query = query.where('status', '=', 'Approved');
  else if (browse.status === 'New') query = query.where('status', '<>', 'Approved');
  const rows = await query
    .groupBy('conceptId')
    .orderBy('firstKey')
    .orderBy('conceptId')
    .offset(browse.pageNumber * browse.pageSize)
    .limit(browse.pageSize)
    .execute();
  return rows.map((row) => String(row.conceptId));
}
