import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import { num } from '../../../../db/database.js';
import type { Database } from '../../../../db/database.js';
import type { DB, Id } from '../../../../db/schema.js';
import type { CandidateIndexSnapshot, IndexMatch } from '../../../../domain/translation-memory/index.js';
import { withTagPlaceholders } from '../../../../domain/translation-memory/tm-text.js';
import { createThreadPool } from '../../../../queue/thread-pool.js';
import type { ThreadPool } from '../../../../queue/thread-pool.js';
import { changedSources, liveLanguagesOfSources, liveSourceCount, liveUnitsBySource } from '../tm-units.repository.js';
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
 *
 * Reader threads (`readers`, default one per CPU beyond the first, at most 3) search snapshots of
 * the writer thread's indexes, the same shared memory: a batch of band searches (`bestMatches`) is
 * split between the writer and the readers, so an analysis uses every core. A reader adopts a new
 * snapshot of a TM before it searches it again after any change; a catch-up waits until no reader
 * is searching the TM, and a reader search starts only when no catch-up of the TM is under way.
 */

/** Rows read per page while catching up or loading. */
const PAGE = 5000;

interface TmState {
  version: number;
  /** The catch-up (or load) in progress; searches wait for it. */
  pending: Promise<void> | null;
  /** Changes the index has had (a reader's snapshot older than this is stale). */
  generation: number;
  /** Reader searches of this TM under way, and who waits for them to end. */
  readersBusy: number;
  readersIdle: (() => void)[];
}

/**
 * One index thread's port: requests answered by id; the process is kept alive only while one is
 * in flight. `close` fails the requests still waiting.
 */
class ThreadChannel {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  closed = false;

  constructor(
    private readonly port: MessagePort,
    label: string,
  ) {
    port.on('message', (reply: IndexReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) port.unref();
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new Error(`${label}: ${reply.error}`));
    });
    port.unref();
  }

  call<T>(request: ThreadRequest): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the TM index thread stopped'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (this.waiting.size === 1) this.port.ref();
      this.port.postMessage({ ...request, id } as IndexRequest);
    });
  }

  close(reason: Error): void {
    this.closed = true;
    for (const waiter of this.waiting.values()) waiter.reject(reason);
    this.waiting.clear();
    this.port.close();
  }
}

/** A reader thread, and the generation of each TM's snapshot it holds. */
interface Reader {
  channel: ThreadChannel;
  adopted: Map<Id, number>;
}

type ThreadRequest = IndexRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class TmIndexHost {
  private pool: ThreadPool | null = null;
  private writer: ThreadChannel | null = null;
  private readonly states = new Map<Id, TmState>();
  private closed = false;
  private readers: Reader[] = [];
  private generations = 0;
  private readonly readerCount: number;

  constructor(
    private readonly db: Kysely<DB>,
    options: { readers?: number } = {},
  ) {
    this.readerCount = Math.max(0, Math.min(3, options.readers ?? availableParallelism() - 1));
  }

  private connect(): ThreadChannel {
    if (this.writer) return this.writer;
    if (this.closed) throw new Error('the TM index host is closed');
    const { port1, port2 } = new MessageChannel();
    const pool = createThreadPool(1 + this.readerCount);
    this.pool = pool;
    const writer = new ThreadChannel(port1, 'TM index');
    this.writer = writer;
    // The call lasts as long as the thread; when it ends (a crash), every index is gone.
    pool.run(THREAD_MODULE, 'serveIndexes', null, { port: port2 }).catch((error: unknown) => {
      if (this.closed) return;
      const reason = error instanceof Error ? error : new Error(String(error));
      writer.close(reason);
      this.writer = null;
      this.states.clear();
      for (const reader of this.readers) reader.channel.close(reason);
      this.readers = [];
      this.pool = null;
      void pool.close();
    });
    for (let r = 0; r < this.readerCount; r++) this.startReader(pool);
    return writer;
  }

  private startReader(pool: ThreadPool): void {
    const { port1, port2 } = new MessageChannel();
    const reader: Reader = { channel: new ThreadChannel(port1, 'TM index reader'), adopted: new Map() };
    this.readers.push(reader);
    // A reader that stops is dropped: its searches fail, and the writer takes the next ones.
    pool.run(THREAD_MODULE, 'serveIndexes', null, { port: port2 }).catch((error: unknown) => {
      reader.channel.close(error instanceof Error ? error : new Error(String(error)));
      this.readers = this.readers.filter((r) => r !== reader);
    });
  }

  private call<T>(request: ThreadRequest): Promise<T> {
    return this.connect().call<T>(request);
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
    const prepared = queries.map(withTagPlaceholders);
    const request = (part: string[]): ThreadRequest => ({
      op: 'best',
      tm: tmId,
      queries: part,
      stages: [...options.stages],
      langs: options.langs ? [...options.langs] : null,
    });
    for (;;) {
      await this.catchUp(tmId);
      const state = this.states.get(tmId);
      // A catch-up began meanwhile: wait for it (readers never search while the index changes).
      if (state?.pending) continue;
      const readers = state && prepared.length > 1 ? [...this.readers] : [];
      if (!state || readers.length === 0) return this.call<([string, number] | null)[]>(request(prepared));
      // The batch in contiguous parts: the writer's first, then one per reader.
      const size = Math.ceil(prepared.length / (readers.length + 1));
      state.readersBusy++;
      try {
        const parts = await Promise.all([
          this.call<([string, number] | null)[]>(request(prepared.slice(0, size))),
          ...readers.map((reader, r) =>
            this.searchOnReader<([string, number] | null)[]>(reader, tmId, state, request(prepared.slice((r + 1) * size, (r + 2) * size))),
          ),
        ]);
        return parts.flat();
      } finally {
        state.readersBusy--;
        if (state.readersBusy === 0) for (const wake of state.readersIdle.splice(0)) wake();
      }
    }
  }

  /** A reader's search of a TM, after it adopts the TM's current snapshot if its own is older. */
  private async searchOnReader<T>(reader: Reader, tmId: Id, state: TmState, request: ThreadRequest): Promise<T> {
    if (request.op === 'best' && request.queries.length === 0) return [] as T;
    if (reader.adopted.get(tmId) !== state.generation) {
      const generation = state.generation;
      const snapshot = await this.call<CandidateIndexSnapshot | null>({ op: 'snapshot', tm: tmId });
      if (snapshot === null) return this.call<T>(request);
      await reader.channel.call({ op: 'adopt', tm: tmId, snapshot });
      reader.adopted.set(tmId, generation);
    }
    return reader.channel.call<T>(request);
  }

  /**
   * Readers let go of their snapshot of a TM that changed (a grown array of the writer would
   * otherwise stay alive in them until their next search of the TM, which adopts the new one).
   */
  private releaseStaleSnapshots(tmId: Id): void {
    for (const reader of this.readers) {
      if (reader.adopted.delete(tmId)) reader.channel.call({ op: 'drop', tm: tmId }).catch(() => {});
    }
  }

  /** Resolves once no reader searches the TM (a catch-up changes the index only then). */
  private readersDone(state: TmState): Promise<void> {
    if (state.readersBusy === 0) return Promise.resolve();
    return new Promise<void>((resolve) => state.readersIdle.push(resolve));
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
      // Another catch-up may have begun while the version was read.
      const now = this.states.get(tmId);
      if (now?.pending) continue;
      if (now && now.version >= version) return;
      const current = now ?? { version: -1, pending: null, generation: 0, readersBusy: 0, readersIdle: [] };
      this.states.set(tmId, current);
      const fresh = current.version < 0 || current.version < resetVersion;
      const change = () => (fresh ? this.load(tmId, version) : this.applyChanges(tmId, current.version, version));
      current.pending = this.readersDone(current)
        .then(change)
        .then(
          () => {
            current.version = version;
            current.generation = ++this.generations;
            current.pending = null;
            this.releaseStaleSnapshots(tmId);
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
    // Sized for the TM at once: growing to it by doubling leaves freed copies in the process.
    await this.call({ op: 'reset', tm: tmId, expectedEntries: await liveSourceCount(this.db, tmId) });
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
      if (had && this.writer) await this.call({ op: 'drop', tm: tmId });
      this.releaseStaleSnapshots(tmId);
    }
  }

  /** Reader threads running (for tests and diagnostics). */
  get liveReaders(): number {
    return this.readers.length;
  }

  /** What the thread holds (for benchmarks and diagnostics). */
  stats(): Promise<{ indexes: number; entries: number; bytes: number }> {
    return this.call({ op: 'stats' });
  }

  async close(): Promise<void> {
    this.closed = true;
    const reason = new Error('the TM index host is closed');
    this.writer?.close(reason);
    this.writer = null;
    for (const reader of this.readers) reader.channel.close(reason);
    this.readers = [];
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
