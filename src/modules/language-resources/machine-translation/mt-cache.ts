import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB, Id } from '../../../db/schema.js';

/**
 * The MT cache (docs/machine-translation.md, "Cache and usage"): what an engine answered for a
 * text, by settings, languages and the SHA-256 of the text sent (tags and glossary terms already
 * protected), so that the same text is never sent twice. Two levels:
 *  - the database (`mt_cache`), shared by every process and surviving restarts: a translation is
 *    written in the transaction that counts its characters, right after the engine answered, so a
 *    pre-translation killed after that point asks the cache, not the engine, when it resumes;
 *  - a per-process map of the most recently used translations (`MEMORY_ENTRIES`) in front of it.
 * Lifetime: `OPENTMS_MT_CACHE_DAYS` after the last use (30 by default); size:
 * `OPENTMS_MT_CACHE_MAX_ENTRIES` rows (1,000,000 by default), the least recently used removed
 * first. The sweep runs at most once every `SWEEP_INTERVAL_MS` per process, after a write.
 */

const MEMORY_ENTRIES = 100_000;
const LOOKUP_CHUNK = 500;
const SWEEP_INTERVAL_MS = 10 * 60_000;
/** A hit refreshes `used_at` only when it is older than this (no write for every hit). */
const TOUCH_AFTER_MS = 24 * 3600_000;

export interface CacheScope {
  mtSettingsId: Id;
  sourceLang: string;
  targetLang: string;
}

export const textKeyOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const memory = new Map<string, string>();
let lastSweep = 0;

/** The per-process map is keyed by the text itself (no hash to compute for a hit); long texts are not kept in it. */
const MEMORY_TEXT_LIMIT = 2_000;
const memoryKey = (scope: CacheScope, text: string) => `${scope.mtSettingsId}|${scope.sourceLang}|${scope.targetLang}|${text}`;

function remember(key: string, translation: string): void {
  if (memory.has(key)) memory.delete(key);
  memory.set(key, translation);
  if (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
}

/** Forgets what this process holds for the settings (after an edit that changes the engine). */
export function forgetInMemory(mtSettingsId: Id): void {
  const prefix = `${mtSettingsId}|`;
  for (const key of memory.keys()) if (key.startsWith(prefix)) memory.delete(key);
}

/** The translation of each text the cache holds (undefined for the others), in order. */
export async function cachedTranslations(deps: AppDeps, scope: CacheScope, texts: readonly string[]): Promise<Array<string | undefined>> {
  const found = new Array<string | undefined>(texts.length).fill(undefined);
  const missing: number[] = [];
  texts.forEach((text, i) => {
    if (text.length > MEMORY_TEXT_LIMIT) {
      missing.push(i);
      return;
    }
    const key = memoryKey(scope, text);
    const hit = memory.get(key);
    if (hit === undefined) missing.push(i);
    else {
      found[i] = hit;
      remember(key, hit);
    }
  });
  if (missing.length === 0) return found;
  const db = deps.database.db;
  const stale = new Date(deps.clock().getTime() - TOUCH_AFTER_MS).toISOString();
  const touch: string[] = [];
  const atOfKey = new Map<string, number[]>();
  for (const i of missing) {
    const key = textKeyOf(texts[i]!);
    const list = atOfKey.get(key);
    if (list) list.push(i);
    else atOfKey.set(key, [i]);
  }
  const keys = [...atOfKey.keys()];
  for (let from = 0; from < keys.length; from += LOOKUP_CHUNK) {
    const rows = await db
      .selectFrom('mtCache')
      .select(['textKey', 'translation', 'usedAt'])
      .where('mtSettingsId', '=', scope.mtSettingsId)
      .where('sourceLang', '=', scope.sourceLang)
      .where('targetLang', '=', scope.targetLang)
      .where('textKey', 'in', keys.slice(from, from + LOOKUP_CHUNK))
      .execute();
    for (const row of rows) {
      for (const i of atOfKey.get(row.textKey) ?? []) {
        found[i] = row.translation;
        if (texts[i]!.length <= MEMORY_TEXT_LIMIT) remember(memoryKey(scope, texts[i]!), row.translation);
      }
      if (row.usedAt < stale) touch.push(row.textKey);
    }
  }
  if (touch.length) {
    const now = deps.clock().toISOString();
    for (let from = 0; from < touch.length; from += LOOKUP_CHUNK) {
      await db
        .updateTable('mtCache')
        .set({ usedAt: now })
        .where('mtSettingsId', '=', scope.mtSettingsId)
        .where('sourceLang', '=', scope.sourceLang)
        .where('targetLang', '=', scope.targetLang)
        .where('textKey', 'in', touch.slice(from, from + LOOKUP_CHUNK))
        .execute();
    }
  }
  return found;
}

/**
 * Stores the engine's answers, in the caller's transaction (which counts their characters too:
 * mt-usage.ts). Entries another process stored meanwhile are kept as they are.
 */
export async function storeTranslations(
  trx: Kysely<DB>,
  scope: CacheScope,
  entries: ReadonlyArray<{ text: string; translation: string }>,
  now: string,
): Promise<void> {
  for (let from = 0; from < entries.length; from += LOOKUP_CHUNK) {
    const chunk = entries.slice(from, from + LOOKUP_CHUNK);
    await trx
      .insertInto('mtCache')
      .values(
        chunk.map((entry) => ({
          mtSettingsId: scope.mtSettingsId,
          sourceLang: scope.sourceLang,
          targetLang: scope.targetLang,
          textKey: textKeyOf(entry.text),
          translation: entry.translation,
          createdAt: now,
          usedAt: now,
        })),
      )
      .onConflict((oc) => oc.columns(['mtSettingsId', 'sourceLang', 'targetLang', 'textKey']).doNothing())
      .execute();
  }
}

/** After the commit of stored translations: this process's map learns them too. */
export function rememberTranslations(scope: CacheScope, entries: ReadonlyArray<{ text: string; translation: string }>): void {
  for (const entry of entries) if (entry.text.length <= MEMORY_TEXT_LIMIT) remember(memoryKey(scope, entry.text), entry.translation);
}

/** Removes what outlived the cache's lifetime, then the least recently used beyond its size; at most once per interval. */
export async function sweepMtCache(deps: AppDeps, force = false): Promise<number> {
  const nowMs = deps.clock().getTime();
  if (!force && nowMs - lastSweep < SWEEP_INTERVAL_MS) return 0;
  lastSweep = nowMs;
  const { cacheDays, cacheMaxEntries } = deps.config.machineTranslation;
  const db = deps.database.db;
  const expired = new Date(nowMs - cacheDays * 24 * 3600_000).toISOString();
  const removed = await db.deleteFrom('mtCache').where('usedAt', '<', expired).executeTakeFirst();
  let count = Number(removed.numDeletedRows);
  const { total } = await db
    .selectFrom('mtCache')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const over = Number(total) - cacheMaxEntries;
  if (over > 0) {
    // The ids of the least recently used rows, then those rows.
    const victims = db.selectFrom('mtCache').select('id').orderBy('usedAt').orderBy('id').limit(over);
    const result = await db.deleteFrom('mtCache').where('id', 'in', victims).executeTakeFirst();
    count += Number(result.numDeletedRows);
  }
  return count;
}

/** Empties every process-level state (tests). */
export function resetMtCacheMemory(): void {
  memory.clear();
  lastSweep = 0;
}
