import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Config } from '../../../../config.js';
import { num } from '../../../../db/database.js';
import type { Database } from '../../../../db/database.js';
import type { DB, Id } from '../../../../db/schema.js';
import type { IndexMatch } from '../../../../domain/translation-memory/index.js';
import { withTagPlaceholders } from '../../../../domain/translation-memory/tm-text.js';
import { createThreadPool } from '../../../../queue/thread-pool.js';
import type { ThreadPool } from '../../../../queue/thread-pool.js';
import { changedSources, liveLanguagesOfSources, liveUnitsBySource } from '../tm-units.repository.js';
import type { UnitKey } from '../tm-units.repository.js';
import type { IndexReply, IndexRequest } from './tm-index.thread.js';

const THREAD_MODULE = new URL(import.meta.url.endsWith('.ts') ? './tm-index.thread.ts' : './tm-index.thread.js', import.meta.url);

/**
 * This process's TM indexes (docs/translation-memory.md, "Where the index lives"): they live in
 * long-lived threads (tm-index.thread.ts); this host reads the database and keeps them current.
 *
 * With several threads (`shards`), each TM's sources are split among them by a hash of their key,
 * so each thread holds a part of every TM and the memory stays that of one index. A search asks
 * every thread at once and merges: the best `limit` by score, ties by key; a batch of best
 * matches takes each query's best over the threads (ties by key). So the threads search in
 * parallel, on as many cores. Each part is searched with the whole postings budget, so the
 * answers are at least as good as one index's (a match a budget left out may be found).
 *
 * Before every search of a TM the host reads the TM's `version` (one primary-key read). When the
 * index is behind, it reads the units written since (`version > theirs`) and sends the current
 * state of each touched source to the thread; when the TM was cleared since (`reset_version`), or
 * the index was never loaded, it loads the TM from scratch. So any write that returned before the
 * search started, in this process or another over the same database, is found. Catch-ups of one
 * TM run one at a time; reads go in pages, so a big catch-up never holds the event loop long.
 */

/** Rows read per page while catching up or loading. */
const PAGE = 5000;

interface TmState {
  version: number;
  /** The catch-up (or load) in progress; searches wait for it. */
  pending: Promise<void> | null;
}

type ThreadRequest = IndexRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

type Put = [key: string, text: string, langs: string[]];

interface Shard {
  pool: ThreadPool;
  port: MessagePort;
}

export class TmIndexHost {
  private shards: Shard[] | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly states = new Map<Id, TmState>();
  private closed = false;
  private readonly shardCount: number;

  /** `shards`: index threads (1 to 64); each holds the part of every TM whose keys hash to it. */
  constructor(
    private readonly db: Kysely<DB>,
    shards = 1,
  ) {
    this.shardCount = Math.max(1, Math.min(64, Math.floor(shards)));
  }

  private connect(): Shard[] {
    if (this.shards) return this.shards;
    if (this.closed) throw new Error('the TM index host is closed');
    const shards: Shard[] = [];
    for (let i = 0; i < this.shardCount; i++) {
      const { port1, port2 } = new MessageChannel();
      const pool = createThreadPool(1);
      port1.on('message', (reply: IndexReply) => {
        const waiter = this.waiting.get(reply.id);
        if (!waiter) return;
        this.waiting.delete(reply.id);
        if (reply.ok) waiter.resolve(reply.result);
        else waiter.reject(new Error(`TM index: ${reply.error}`));
      });
      port1.unref();
      shards.push({ pool, port: port1 });
      // The call lasts as long as the thread; when one ends (a crash), every index is dropped,
      // in every thread, and loads again at the next search.
      pool.run(THREAD_MODULE, 'serveIndexes', null, { port: port2 }).catch((error: unknown) => {
        if (this.closed || this.shards !== shards) return;
        const reason = error instanceof Error ? error : new Error(String(error));
        for (const waiter of this.waiting.values()) waiter.reject(reason);
        this.waiting.clear();
        this.states.clear();
        this.shards = null;
        for (const shard of shards) {
          shard.port.close();
          void shard.pool.close();
        }
      });
    }
    this.shards = shards;
    return shards;
  }

  /** One request to one thread. */
  private call<T>(shard: number, request: ThreadRequest): Promise<T> {
    const { port } = this.connect()[shard]!;
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // Keep the process alive only while a request is in flight.
      port.ref();
      port.postMessage({ ...request, id } as IndexRequest);
    }).finally(() => {
      if (this.waiting.size === 0) for (const s of this.shards ?? []) s.port.unref();
    });
  }

  /** The same request to every thread, answers in thread order. */
  private callAll<T>(request: ThreadRequest): Promise<T[]> {
    const count = this.connect().length;
    return Promise.all(Array.from({ length: count }, (_, shard) => this.call<T>(shard, request)));
  }

  /** The thread that holds a key's source. */
  private shardOf(key: string): number {
    if (this.shardCount === 1) return 0;
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    return (hash >>> 0) % this.shardCount;
  }

  /** Sends puts and removes, each to the thread of its key. */
  private async apply(tmId: Id, puts: readonly Put[], removes: readonly string[]): Promise<void> {
    const parts = Array.from({ length: this.shardCount }, () => ({ puts: [] as Put[], removes: [] as string[] }));
    for (const put of puts) parts[this.shardOf(put[0])]!.puts.push(put);
    for (const key of removes) parts[this.shardOf(key)]!.removes.push(key);
    await Promise.all(
      parts.map((part, shard) =>
        part.puts.length || part.removes.length
          ? this.call(shard, { op: 'apply', tm: tmId, puts: part.puts, removes: part.removes })
          : null,
      ),
    );
  }

  /** The fuzzy matches of `query` in one TM (index scores: no context bonus, no TM penalty). */
  async search(
    tmId: Id,
    query: string,
    options: { minScore: number; limit: number; langs: readonly string[] | null },
  ): Promise<IndexMatch[]> {
    await this.catchUp(tmId);
    const answers = await this.callAll<IndexMatch[]>({
      op: 'search',
      tm: tmId,
      query: withTagPlaceholders(query),
      minScore: options.minScore,
      limit: options.limit,
      langs: options.langs ? [...options.langs] : null,
    });
    if (answers.length === 1) return answers[0]!;
    return answers
      .flat()
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, options.limit);
  }

  /**
   * The best match of each query in one TM (index scores: no context bonus, no TM penalty), or
   * null when none reaches the last of `stages` (descending minimum scores, searched in turn).
   * One catch-up and one message for the whole batch.
   */
  async bestMatches(
    tmId: Id,
    queries: readonly string[],
    options: { stages: readonly number[]; langs: readonly string[] | null },
  ): Promise<([key: string, score: number] | null)[]> {
    await this.catchUp(tmId);
    const answers = await this.callAll<([string, number] | null)[]>({
      op: 'best',
      tm: tmId,
      queries: queries.map(withTagPlaceholders),
      stages: [...options.stages],
      langs: options.langs ? [...options.langs] : null,
    });
    if (answers.length === 1) return answers[0]!;
    return queries.map((_, i) => {
      let best: [string, number] | null = null;
      for (const answer of answers) {
        const match = answer[i] ?? null;
        if (match && (!best || match[1] > best[1] || (match[1] === best[1] && match[0] < best[0]))) best = match;
      }
      return best;
    });
  }

  /** Brings the index of one TM up to the database's current version (see above). */
  async catchUp(tmId: Id): Promise<void> {
    for (;;) {
      const state = this.states.get(tmId);
      if (state?.pending) {
        await state.pending;
        continue;
      }
      const tm = await this.db.selectFrom('transMemories').select(['version', 'resetVersion']).where('id', '=', tmId).executeTakeFirst();
      if (!tm) {
        await this.forget([tmId]);
        return;
      }
      const version = num(tm.version);
      const resetVersion = num(tm.resetVersion);
      if (state && state.version >= version) return;
      const current = state ?? { version: -1, pending: null };
      this.states.set(tmId, current);
      const fresh = current.version < 0 || current.version < resetVersion;
      current.pending = (fresh ? this.load(tmId, version) : this.applyChanges(tmId, current.version, version)).then(
        () => {
          current.version = version;
          current.pending = null;
        },
        (error: unknown) => {
          this.states.delete(tmId);
          throw error;
        },
      );
      await current.pending;
      return;
    }
  }

  /** Loads a TM from scratch: every live unit up to `toVersion`, by source (rows of one source are contiguous). */
  private async load(tmId: Id, toVersion: number): Promise<void> {
    await this.callAll({ op: 'reset', tm: tmId });
    let after: UnitKey | null = null;
    let carried: Put | null = null;
    for (;;) {
      const rows = await liveUnitsBySource(this.db, tmId, toVersion, after, PAGE);
      const puts: Put[] = [];
      for (const row of rows) {
        if (carried && carried[0] === row.sourceHash) {
          if (!carried[2].includes(row.targetLang)) carried[2].push(row.targetLang);
          continue;
        }
        if (carried) puts.push(carried);
        carried = [row.sourceHash, withTagPlaceholders(row.source), [row.targetLang]];
      }
      if (rows.length < PAGE) {
        if (carried) puts.push(carried);
        if (puts.length) await this.apply(tmId, puts, []);
        return;
      }
      if (puts.length) await this.apply(tmId, puts, []);
      const last = rows[rows.length - 1]!;
      after = { sourceHash: last.sourceHash, targetLang: last.targetLang, targetHash: last.targetHash };
    }
  }

  /**
   * Applies the sources written after `fromVersion` up to `toVersion` (the version read before the
   * catch-up: writes committed after it are the next search's): each touched source as it is now.
   */
  private async applyChanges(tmId: Id, fromVersion: number, toVersion: number): Promise<void> {
    let after: { version: number; id: string } | null = null;
    for (;;) {
      const changed = await changedSources(this.db, tmId, fromVersion, toVersion, after, PAGE);
      if (changed.length === 0) return;
      const keys = [...new Set(changed.map((c) => c.sourceHash))];
      const live = await liveLanguagesOfSources(this.db, tmId, keys);
      const puts: Put[] = [];
      const removes: string[] = [];
      for (const key of keys) {
        const entry = live.get(key);
        if (entry) puts.push([key, withTagPlaceholders(entry.source), entry.langs]);
        else removes.push(key);
      }
      await this.apply(tmId, puts, removes);
      if (changed.length < PAGE) return;
      const last = changed[changed.length - 1]!;
      after = { version: last.version, id: last.id };
    }
  }

  /** Drops the indexes of TMs (deleted ones); they load again if searched. */
  async forget(tmIds: readonly Id[]): Promise<void> {
    for (const tmId of tmIds) {
      const had = this.states.delete(tmId);
      if (had && this.shards) await this.callAll({ op: 'drop', tm: tmId });
    }
  }

  /** What the thread holds (for benchmarks and diagnostics). */
  async stats(): Promise<{ indexes: number; entries: number; bytes: number }> {
    const answers = await this.callAll<{ indexes: number; entries: number; bytes: number }>({ op: 'stats' });
    return {
      indexes: Math.max(...answers.map((a) => a.indexes)),
      entries: answers.reduce((sum, a) => sum + a.entries, 0),
      bytes: answers.reduce((sum, a) => sum + a.bytes, 0),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.values()) waiter.reject(new Error('the TM index host is closed'));
    this.waiting.clear();
    const shards = this.shards ?? [];
    this.shards = null;
    for (const shard of shards) shard.port.close();
    await Promise.all(shards.map((shard) => shard.pool.close()));
  }
}

const hosts = new WeakMap<Database, TmIndexHost>();

/**
 * The index host of a database (one per process and database; tests build an app per database),
 * with `config.tmIndexThreads` threads.
 */
export function tmIndexOf(deps: { database: Database; config: Pick<Config, 'tmIndexThreads'> }): TmIndexHost {
  let host = hosts.get(deps.database);
  if (!host) {
    host = new TmIndexHost(deps.database.db, deps.config.tmIndexThreads);
    hosts.set(deps.database, host);
  }
  return host;
}

/** Closes the index host of a database, if it has one (the app's onClose). */
export async function closeTmIndex(database: Database): Promise<void> {
  const host = hosts.get(database);
  hosts.delete(database);
  await host?.close();
}
