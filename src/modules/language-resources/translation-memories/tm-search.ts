import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB, Id } from '../../../db/schema.js';
import { isRightToLeft } from '../../../domain/languages/supported-languages.js';
import { bandStages, compareMatches, EXACT, foldWhitespace, IN_CONTEXT } from '../../../domain/translation-memory/index.js';
import { displayTokensOf, wildcardMatcher } from '../../../domain/translation-memory/tm-text.js';
import type { InlineTag } from '../../../formats/types.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import type { TransMemoryRow } from './translation-memories.repository.js';
import { tmIndexOf } from './tm-index/index.js';
import { contextsOfSources, unitsOfSources, unitsPage } from './tm-units.repository.js';
import type { TmUnitRow } from './tm-units.repository.js';
import type { TagMetadata } from './translation-memories.schemas.js';

/**
 * Search (docs/translation-memory.md, "The score" and "Search and the index"): the index of each
 * TM gives candidates with their score (base minus penalties), then the units of those sources
 * are read and scored in context (101), the per-TM penalty applied, and the results ranked by the
 * published order. Also the wildcard search and the wire shape of results.
 */

/** One TM to search, with the project's settings for it (defaults for a search of one TM). */
export interface SearchTarget {
  tm: TransMemoryRow;
  /** 0..100, subtracted from the score. */
  penalty: number;
  /** The penalty applies only to 101 matches. */
  applyPenaltyTo101Only: boolean;
  /** The TM's position in the project's settings (ties go to the lower). */
  order: number;
}

export interface FuzzyQuery {
  /** The text, inline tags as display tokens. */
  text: string;
  /** Target languages to return translations in; null = every one. */
  targetLangs: readonly string[] | null;
  previous?: string | null | undefined;
  next?: string | null | undefined;
  key?: string | null | undefined;
  /** 0..101 */
  minScore: number;
  maxResults: number;
}

export interface SearchHit {
  target: SearchTarget;
  sourceHash: string;
  /** The score before the TM's penalty, and after. */
  grossScore: number;
  score: number;
  /** The units (translations) of the source, best first: in context first, then most recent. */
  units: TmUnitRow[];
}

const sameContextText = (a: string | null | undefined, b: string | null | undefined) =>
  (a === null || a === undefined || a === '' ? null : foldWhitespace(a)) ===
  (b === null || b === undefined || b === '' ? null : foldWhitespace(b));

/** In context: the same key when both have one, else the same previous and next source. */
function inContext(query: FuzzyQuery, unit: Pick<TmUnitRow, 'contextKey' | 'previousSource' | 'nextSource'>): boolean {
  const queryKey = query.key ?? null;
  if (queryKey !== null && queryKey !== '' && unit.contextKey !== null && unit.contextKey !== '') return queryKey === unit.contextKey;
  if ((query.previous ?? null) === null && (query.next ?? null) === null && queryKey === null) return false;
  return sameContextText(query.previous, unit.previousSource) && sameContextText(query.next, unit.nextSource);
}

/** Fuzzy search of `query` in the given TMs: the best `maxResults` sources, best first. */
export async function fuzzySearch(deps: AppDeps, targets: readonly SearchTarget[], query: FuzzyQuery): Promise<SearchHit[]> {
  const db = deps.database.db;
  const index = tmIndexOf(deps.database);
  const hits: SearchHit[] = [];
  for (const target of targets) {
    const penalty = target.applyPenaltyTo101Only ? 0 : target.penalty;
    // A 100 may still become 101, so the index is asked for one point less.
    const indexMin = Math.min(EXACT, Math.max(0, query.minScore + penalty - 1));
    const matches = await index.search(target.tm.id, query.text, {
      minScore: indexMin,
      limit: query.maxResults + 10,
      langs: query.targetLangs,
    });
    if (matches.length === 0) continue;
    const units = await unitsOfSources(
      db,
      target.tm.id,
      matches.map((m) => m.key),
      query.targetLangs,
    );
    const bySource = new Map<string, TmUnitRow[]>();
    for (const unit of units) {
      const list = bySource.get(unit.sourceHash);
      if (list) list.push(unit);
      else bySource.set(unit.sourceHash, [unit]);
    }
    for (const match of matches) {
      const rows = bySource.get(match.key);
      if (!rows) continue; // written away since the index saw it
      const contextual = match.score === EXACT ? rows.filter((unit) => inContext(query, unit)) : [];
      const gross = contextual.length ? IN_CONTEXT : match.score;
      const applies = !target.applyPenaltyTo101Only || gross === IN_CONTEXT;
      const score = Math.max(0, gross - (applies ? target.penalty : 0));
      if (score < query.minScore) continue;
      const ordered = [...rows].sort(
        (a, b) =>
          Number(contextual.includes(b)) - Number(contextual.includes(a)) ||
          (a.modifiedAt < b.modifiedAt ? 1 : a.modifiedAt > b.modifiedAt ? -1 : 0) ||
          Number(a.id) - Number(b.id),
      );
      hits.push({ target, sourceHash: match.key, grossScore: gross, score, units: ordered });
    }
  }
  hits.sort((a, b) =>
    compareMatches(
      { score: a.score, tmOrder: a.target.order, modifiedAt: a.units[0]!.modifiedAt, id: `${a.target.tm.uid}:${a.sourceHash}` },
      { score: b.score, tmOrder: b.target.order, modifiedAt: b.units[0]!.modifiedAt, id: `${b.target.tm.uid}:${b.sourceHash}` },
    ),
  );
  return hits.slice(0, query.maxResults);
}

/** Longest pattern handled by the wildcard search (its matcher is linear in the text for `*`, text × piece for `?`). */
export const WILDCARD_MAX = 200;

/**
 * Wildcard search (`*` any run, `?` one character, case-insensitive, the whole text) in the source
 * (or, `reverse`, the target) of the given TMs: units in id order, grouped by source, `offset` and
 * `count` over the sources found. Reads pages, filtered in SQL by the longest ASCII literal piece.
 */
export async function wildcardSearch(
  deps: AppDeps,
  targets: readonly SearchTarget[],
  query: { pattern: string; targetLangs: readonly string[] | null; reverse: boolean; offset: number; count: number },
): Promise<SearchHit[]> {
  const db = deps.database.db;
  const pattern = query.pattern.slice(0, WILDCARD_MAX);
  const matches = wildcardMatcher(pattern === '' ? '*' : pattern);
  const longest = pattern
    .split(/[*?]/)
    .filter((piece) => /^[\x20-\x7e]+$/.test(piece))
    .sort((a, b) => b.length - a.length)[0];
  const column = query.reverse ? 'target' : 'source';
  const wanted = query.offset + query.count;
  const found = new Map<string, SearchHit>();
  const order: string[] = [];
  for (const target of targets) {
    let afterId: string | null = null;
    while (order.length < wanted) {
      const rows = await unitsPage(db, target.tm.id, {
        afterId,
        limit: 1000,
        targetLangs: query.targetLangs,
        contains: longest ? { column, text: longest } : null,
      });
      for (const row of rows) {
        if (!matches(query.reverse ? row.target : row.source)) continue;
        const key = `${target.tm.id}:${row.sourceHash}`;
        const hit = found.get(key);
        if (hit) hit.units.push(row);
        else if (order.length < wanted) {
          found.set(key, { target, sourceHash: row.sourceHash, grossScore: EXACT, score: EXACT, units: [row] });
          order.push(key);
        }
      }
      if (rows.length < 1000) break;
      afterId = String(rows[rows.length - 1]!.id);
    }
  }
  return order.slice(query.offset).map((key) => found.get(key)!);
}

// ---- wire shapes

function tagMetadataOf(tagsJson: string | null): TagMetadata[] {
  if (!tagsJson) return [];
  try {
    const tags = JSON.parse(tagsJson) as InlineTag[];
    return tags.map((tag) => ({ id: String(tag.id), type: tag.kind, content: tag.original }));
  } catch {
    return [];
  }
}

/** The tags of a text from the API's tag metadata (by the order of its display tokens), as stored. */
export function tagsFromMetadata(text: string, metadata: readonly TagMetadata[] | null | undefined): string | null {
  const tokens = displayTokensOf(text);
  if (tokens.length === 0) return null;
  const tags: InlineTag[] = tokens.map((display, i) => {
    const kind = display.startsWith('<') ? 'close' : display.endsWith('>') ? 'open' : 'standalone';
    const id = Number(display.replace(/\D/g, ''));
    return { id, kind, original: metadata?.[i]?.content ?? display, display };
  });
  return JSON.stringify(tags);
}

interface Lookups {
  users: (id: Id | null | undefined) => unknown;
  projects: Map<string, { id: number; uid: string; name: string }>;
  named: Map<string, { id: number; name: string }>;
}

async function lookupsFor(db: Kysely<DB>, organizationId: Id, hits: readonly SearchHit[]): Promise<Lookups> {
  const units = hits.flatMap((h) => h.units);
  const users = await userReferenceLookup(
    db,
    organizationId,
    units.flatMap((u) => [u.createdById, u.modifiedById]),
  );
  const projectIds = [...new Set(units.map((u) => u.projectId).filter((id): id is string => id !== null))];
  const projects = new Map<string, { id: number; uid: string; name: string }>();
  if (projectIds.length) {
    for (const p of await db.selectFrom('projects').select(['id', 'uid', 'name']).where('id', 'in', projectIds).execute()) {
      projects.set(String(p.id), { id: Number(p.id), uid: p.uid, name: p.name });
    }
  }
  const named = new Map<string, { id: number; name: string }>();
  const tms = hits.map((h) => h.target.tm);
  const read = async (table: 'clients' | 'domains' | 'subDomains', ids: (string | null)[]) => {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (!wanted.length) return;
    for (const r of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', wanted).execute()) {
      named.set(`${table}:${r.id}`, { id: Number(r.id), name: r.name });
    }
  };
  await read(
    'clients',
    tms.map((t) => t.clientId),
  );
  await read(
    'domains',
    tms.map((t) => t.domainId),
  );
  await read(
    'subDomains',
    tms.map((t) => t.subDomainId),
  );
  return { users, projects, named };
}

const epoch = (iso: string) => Date.parse(iso);

function segmentDto(tm: TransMemoryRow, unit: TmUnitRow, side: 'source' | 'target', lookups: Lookups, v3: boolean) {
  const lang = side === 'source' ? tm.sourceLang : unit.targetLang;
  const named = (table: string, id: string | null) => (id === null ? null : (lookups.named.get(`${table}:${id}`) ?? null));
  return {
    id: side === 'source' ? unit.sourceHash : String(unit.id),
    text: side === 'source' ? unit.source : unit.target,
    lang,
    rtl: isRightToLeft(lang),
    modifiedAt: epoch(unit.modifiedAt),
    createdAt: epoch(unit.createdAt),
    modifiedBy: lookups.users(unit.modifiedById) as never,
    createdBy: lookups.users(unit.createdById) as never,
    filename: unit.filename,
    project: unit.projectId === null ? null : (lookups.projects.get(String(unit.projectId)) ?? null),
    client: named('clients', tm.clientId),
    domain: named('domains', tm.domainId),
    subDomain: named('subDomains', tm.subDomainId),
    tagMetadata: tagMetadataOf(side === 'source' ? unit.sourceTags : unit.targetTags),
    previousSegment: unit.previousSource,
    nextSegment: unit.nextSource,
    key: unit.contextKey,
    ...(v3 ? { targetNote: side === 'target' ? unit.targetNote : null } : {}),
  };
}

/** The segment id of the API: the TM's uid and the source's hash (stable across rewrites). */
export const segmentIdOf = (tm: Pick<TransMemoryRow, 'uid'>, sourceHash: string) => `${tm.uid}.${sourceHash}`;

/** Search hits in the published shape (`SearchResponseListTmDto`, or its V3). */
export async function searchResultsDto(
  deps: AppDeps,
  organizationId: Id,
  hits: readonly SearchHit[],
  options: { v3?: boolean; reverse?: boolean } = {},
) {
  const lookups = await lookupsFor(deps.database.db, organizationId, hits);
  const v3 = options.v3 === true;
  const reverse = options.reverse === true;
  return {
    searchResults: hits.map((hit) => {
      const first = hit.units[0]!;
      return {
        segmentId: segmentIdOf(hit.target.tm, hit.sourceHash),
        source: segmentDto(hit.target.tm, first, reverse ? 'target' : 'source', lookups, v3),
        translations: hit.units.map((unit) => segmentDto(hit.target.tm, unit, reverse ? 'source' : 'target', lookups, v3)),
        transMemory: { uid: hit.target.tm.uid, id: String(hit.target.tm.id), name: hit.target.tm.name, reverse },
        grossScore: hit.grossScore / 100,
        score: hit.score / 100,
        subSegment: false,
      };
    }),
  };
}

/** A segment of an analysis, as the TM's best-match lookup sees it. */
export interface BestScoreQuery {
  /** The source, inline tags as display tokens. */
  text: string;
  previous: string | null;
  next: string | null;
  key: string | null;
}

/** Most sources read in one query while checking the context of exact matches. */
const CONTEXT_CHUNK = 500;

/**
 * A score of each query's best band over the given TMs (the same index, score, 101 in context
 * and per-TM penalty as `fuzzySearch`), in one batch per TM: a score in the band of the best
 * match (not always the band's best score: docs/analysis.md, "Performance"), 0 where no TM
 * has a match of at least 50 after its penalty. For analyses.
 */
export async function bestScores(
  deps: AppDeps,
  targets: readonly SearchTarget[],
  queries: readonly BestScoreQuery[],
  targetLang: string,
): Promise<number[]> {
  const db = deps.database.db;
  const index = tmIndexOf(deps.database);
  const best = new Array<number>(queries.length).fill(0);
  if (queries.length === 0) return best;
  const texts = queries.map((q) => q.text);
  for (const target of targets) {
    // The index's stages are the net bands' floors plus the TM's penalty: a match found at a stage
    // is then in one net band, whatever its score within it.
    const stages = bandStages(target.applyPenaltyTo101Only ? 0 : target.penalty);
    const matches = await index.bestMatches(target.tm.id, texts, { stages, langs: [targetLang] });
    const exact = new Map<string, number[]>();
    matches.forEach((match, i) => {
      if (match && match[1] === EXACT) {
        const list = exact.get(match[0]);
        if (list) list.push(i);
        else exact.set(match[0], [i]);
      }
    });
    const inContextAt = new Set<number>();
    const keys = [...exact.keys()];
    for (let from = 0; from < keys.length; from += CONTEXT_CHUNK) {
      const units = await contextsOfSources(db, target.tm.id, keys.slice(from, from + CONTEXT_CHUNK), [targetLang]);
      for (const unit of units) {
        for (const i of exact.get(unit.sourceHash) ?? []) {
          const q = queries[i]!;
          if (
            !inContextAt.has(i) &&
            inContext({ text: q.text, previous: q.previous, next: q.next, key: q.key, targetLangs: null, minScore: 0, maxResults: 1 }, unit)
          ) {
            inContextAt.add(i);
          }
        }
      }
    }
    matches.forEach((match, i) => {
      if (!match) return;
      const gross = inContextAt.has(i) ? IN_CONTEXT : match[1];
      const applies = !target.applyPenaltyTo101Only || gross === IN_CONTEXT;
      const score = Math.max(0, gross - (applies ? target.penalty : 0));
      if (score > best[i]!) best[i] = score;
    });
  }
  return best;
}

/** The best TM match of a segment for pre-translation: its score after the TM's penalty, the unit's target and the TM. */
export interface BestUnitMatch {
  score: number;
  target: string;
  tmUid: string;
  unitId: Id;
}

/**
 * The best match of each query at or above `minScore` (0..101, after each TM's penalty) over the
 * given TMs, with the unit that gives it (in context first, then the most recent): what
 * pre-translation fills a segment with. The same index, bands, 101 in context and penalties as
 * `bestScores`; the bands below `minScore` are never searched, so a high threshold costs an exact
 * lookup a text. Ties go to the TM earlier in the project's order.
 */
/**
 * The index's answers already had in one pre-translation, by TM, language, stages and text: a text
 * repeated in a job is searched once. What the TM gains meanwhile is not seen by a later repeat (a
 * run sees the TM as at its first lookup of the text). The caller bounds it (MEMO_LIMIT).
 */
export type IndexMemo = Map<string, readonly [string, number] | null>;
const MEMO_LIMIT = 500_000;

/** `index.bestMatches` of each distinct text not in `memo`, the others from it. */
async function memoizedBestMatches(
  index: ReturnType<typeof tmIndexOf>,
  tmId: Id,
  texts: readonly string[],
  options: { stages: readonly number[]; langs: readonly string[] },
  memo: IndexMemo | undefined,
): Promise<Array<readonly [string, number] | null>> {
  const prefix = `${tmId}\u0000${options.langs.join(',')}\u0000${options.stages.join(',')}\u0000`;
  const answers = new Array<readonly [string, number] | null>(texts.length).fill(null);
  const unique: string[] = [];
  const uniqueAt = new Map<string, number>();
  const waiting: Array<[at: number, unique: number]> = [];
  texts.forEach((text, at) => {
    const known = memo?.get(prefix + text);
    if (known !== undefined) {
      answers[at] = known;
      return;
    }
    let u = uniqueAt.get(text);
    if (u === undefined) {
      u = unique.length;
      unique.push(text);
      uniqueAt.set(text, u);
    }
    waiting.push([at, u]);
  });
  if (unique.length === 0) return answers;
  const fresh = await index.bestMatches(tmId, unique, options);
  for (const [at, u] of waiting) answers[at] = fresh[u] ?? null;
  if (memo) {
    if (memo.size + unique.length > MEMO_LIMIT) memo.clear();
    unique.forEach((text, u) => memo.set(prefix + text, fresh[u] ?? null));
  }
  return answers;
}

export async function bestUnitMatches(
  deps: AppDeps,
  targets: readonly SearchTarget[],
  queries: readonly BestScoreQuery[],
  targetLang: string,
  minScore: number,
  memo?: IndexMemo,
): Promise<Array<BestUnitMatch | null>> {
  const db = deps.database.db;
  const index = tmIndexOf(deps.database);
  const best = new Array<(BestUnitMatch & { order: number; modifiedAt: string }) | null>(queries.length).fill(null);
  if (queries.length === 0) return best;
  const texts = queries.map((q) => q.text);
  const floors = [...new Set([...[100, 95, 85, 75, 50].filter((floor) => floor > minScore), Math.min(100, minScore)])];
  for (const target of targets) {
    const penalty = target.applyPenaltyTo101Only ? 0 : target.penalty;
    const stages = bandStages(penalty, floors).filter((stage) => stage >= Math.min(100, minScore));
    if (stages.length === 0) continue;
    const matches = await memoizedBestMatches(index, target.tm.id, texts, { stages, langs: [targetLang] }, memo);
    const keys = [...new Set(matches.flatMap((match) => (match ? [match[0]] : [])))];
    const unitsBySource = new Map<string, TmUnitRow[]>();
    for (let from = 0; from < keys.length; from += CONTEXT_CHUNK) {
      for (const unit of await unitsOfSources(db, target.tm.id, keys.slice(from, from + CONTEXT_CHUNK), [targetLang])) {
        const list = unitsBySource.get(unit.sourceHash);
        if (list) list.push(unit);
        else unitsBySource.set(unit.sourceHash, [unit]);
      }
    }
    matches.forEach((match, i) => {
      if (!match) return;
      const units = unitsBySource.get(match[0]);
      if (!units?.length) return; // written away since the index saw it
      const q = queries[i]!;
      const query: FuzzyQuery = {
        text: q.text,
        previous: q.previous,
        next: q.next,
        key: q.key,
        targetLangs: null,
        minScore: 0,
        maxResults: 1,
      };
      const contextual = match[1] === EXACT ? units.filter((unit) => inContext(query, unit)) : [];
      const gross = contextual.length ? IN_CONTEXT : match[1];
      const applies = !target.applyPenaltyTo101Only || gross === IN_CONTEXT;
      const score = Math.max(0, gross - (applies ? target.penalty : 0));
      if (score < minScore) return;
      const pool = contextual.length ? contextual : units;
      const unit = pool.reduce((a, b) =>
        b.modifiedAt > a.modifiedAt || (b.modifiedAt === a.modifiedAt && Number(b.id) > Number(a.id)) ? b : a,
      );
      const current = best[i];
      if (
        !current ||
        compareMatches(
          { score, tmOrder: target.order, modifiedAt: unit.modifiedAt, id: `${target.tm.uid}:${unit.sourceHash}` },
          { score: current.score, tmOrder: current.order, modifiedAt: current.modifiedAt, id: `${current.tmUid}:` },
        ) < 0
      ) {
        best[i] = { score, target: unit.target, tmUid: target.tm.uid, unitId: unit.id, order: target.order, modifiedAt: unit.modifiedAt };
      }
    });
  }
  return best.map((match) => (match ? { score: match.score, target: match.target, tmUid: match.tmUid, unitId: match.unitId } : null));
}
