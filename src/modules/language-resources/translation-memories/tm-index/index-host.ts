import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Kysely } from 'kysely';
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
 * one long-lived thread (tm-index.thread.ts); this host reads the database and keeps them current.
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

export class TmIndexHost {
  private pool: ThreadPool | null = null;
  private port: MessagePort | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly states = new Map<Id, TmState>();
  private closed = false;

  constructor(private readonly db: Kysely<DB>) {}

  private connect(): MessagePort {
    if (this.port) return this.port;
    if (this.closed) throw new Error('the TM index host is closed');
    const { port1, port2 } = new MessageChannel();
    this.pool = createThreadPool(1);
    this.port = port1;
    port1.on('message', (reply: IndexReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new Error(`TM index: ${reply.error}`));
    });
    port1.unref();
    // The call lasts as long as the thread; when it ends (a crash), every index is gone.
    this.pool.run(THREAD_MODULE, 'serveIndexes', null, { port: port2 }).catch((error: unknown) => {
      if (this.closed) return;
      const reason = error instanceof Error ? error : new Error(String(error));
      for (const waiter of this.waiting.values()) waiter.reject(reason);
      this.waiting.clear();
      this.states.clear();
      this.port?.close();
      this.port = null;
      const pool = this.pool;
      this.pool = null;
      void pool?.close();
    });
    return port1;
  }

  private call<T>(request: ThreadRequest): Promise<T> {
    const port = this.connect();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // Keep the process alive only while a request is in flight.
      if (this.waiting.size === 1) port.ref();
      port.postMessage({ ...request, id } as IndexRequest);
    }).finally(() => {
      if (this.waiting.size === 0) this.port?.unref();
    });
  }

  /** The fuzzy matches of `query` in one TM (index scores: no context bonus, no TM penalty). */
  async search(
    tmId: Id,
    query: string,
    options: { minScore: number; limit: number; langs: readonly string[] | null },
  ): Promise<IndexMatch[]> {
    await this.catchUp(tmId);
    return this.call<IndexMatch[]>({
      op: 'search',
      tm: tmId,
      query: withTagPlaceholders(query),
      minScore: options.minScore,
      limit: options.limit,
      langs: options.langs ? [...options.langs] : null,
    });
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
    return this.call<([string, number] | null)[]>({
      op: 'best',
      tm: tmId,
      queries: queries.map(withTagPlaceholders),
      stages: [...options.stages],
      langs: options.langs ? [...options.langs] : null,
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

  /**
   * Loads a TM from scratch: every live unit up to `toVersion`, by source (rows of one source are
   * contiguous). The next page is read while the thread indexes the one before.
   */
  private async load(tmId: Id, toVersion: number): Promise<void> {
    await this.call({ op: 'reset', tm: tmId });
    let after: UnitKey | null = null;
    let carried: [string, string, string[]] | null = null;
    let indexing: Promise<unknown> = Promise.resolve();
    const send = async (puts: [string, string, string[]][]) => {
      await indexing;
      if (puts.length === 0) return;
      indexing = this.call({ op: 'apply', tm: tmId, puts, removes: [] });
      // Handled when awaited (the next send, or the end); until then a failure is not unhandled.
      indexing.catch(() => {});
    };
    for (;;) {
      const rows = await liveUnitsBySource(this.db, tmId, toVersion, after, PAGE);
      const puts: [string, string, string[]][] = [];
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
        await send(puts);
        await indexing;
        return;
      }
      await send(puts);
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
      const puts: [string, string, string[]][] = [];
      const removes: string[] = [];
      for (const key of keys) {
        const entry = live.get(key);
        if (entry) puts.push([key, withTagPlaceholders(entry.source), entry.langs]);
        else removes.push(key);
      }
      await this.call({ op: 'apply', tm: tmId, puts, removes });
      if (changed.length < PAGE) return;
      const last = changed[changed.length - 1]!;
      after = { version: last.version, id: last.id };
    }
  }

  /** Drops the indexes of TMs (deleted ones); they load again if searched. */
  async forget(tmIds: readonly Id[]): Promise<void> {
    for (const tmId of tmIds) {
      const had = this.states.delete(tmId);
      if (had && this.port) await this.call({ op: 'drop', tm: tmId });
    }
  }

  /** What the thread holds (for benchmarks and diagnostics). */
  stats(): Promise<{ indexes: number; entries: number; bytes: number }> {
    return this.call({ op: 'stats' });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.values()) waiter.reject(new Error('the TM index host is closed'));
    this.waiting.clear();
    this.port?.close();
    this.port = null;
    await this.pool?.close();
    this.pool = null;
  }
}

const hosts = new WeakMap<Database, TmIndexHost>();

/** The index host of a database (one per process and database; tests build an app per database). */
export function tmIndexOf(database: Database): TmIndexHost {
  let host = hosts.get(database);
  if (!host) {
    host = new TmIndexHost(database.db);
    hosts.set(database, host);
  }
  return host;
}

/** Closes the index host of a database, if it has one (the app's onClose). */
export async function closeTmIndex(database: Database): Promise<void> {
  const host = hosts.get(database);
  hosts.delete(database);
  await host?.close();
}
