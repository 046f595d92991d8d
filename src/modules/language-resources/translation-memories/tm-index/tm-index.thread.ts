import type { MessagePort } from 'node:worker_threads';
import { bandMatch, CandidateIndex } from '../../../../domain/translation-memory/index.js';
import type { CandidateIndexSnapshot, IndexMatch } from '../../../../domain/translation-memory/index.js';

/**
 * The threads that hold this process's TM indexes (docs/translation-memory.md, "Threads"): the
 * writer keeps one CandidateIndex per TM (in shared memory), changed and searched through messages
 * on one port; readers search snapshots of the writer's indexes (`adopt`), the same memory, while
 * nothing changes them (the host sees to that). No thread has a database: the host (index-host.ts)
 * reads the changes and sends them here. A search never runs on the event loop that serves requests.
 */

export type IndexRequest =
  | { id: number; op: 'reset'; tm: string; expectedEntries?: number }
  | { id: number; op: 'apply'; tm: string; puts: [key: string, text: string, langs: string[]][]; removes: string[] }
  | { id: number; op: 'search'; tm: string; query: string; minScore: number; limit: number; langs: string[] | null }
  | { id: number; op: 'best'; tm: string; queries: string[]; stages: number[]; langs: string[] | null }
  | { id: number; op: 'drop'; tm: string }
  | { id: number; op: 'snapshot'; tm: string }
  | { id: number; op: 'adopt'; tm: string; snapshot: CandidateIndexSnapshot }
  | { id: number; op: 'stats' };

export type IndexReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

const indexes = new Map<string, CandidateIndex>();

function indexOf(tm: string): CandidateIndex {
  let index = indexes.get(tm);
  if (!index) {
    index = new CandidateIndex({ shared: true });
    indexes.set(tm, index);
  }
  return index;
}

function handle(request: IndexRequest): unknown {
  switch (request.op) {
    case 'reset':
      indexes.set(request.tm, new CandidateIndex({ shared: true, expectedEntries: request.expectedEntries ?? 0 }));
      return null;
    case 'snapshot':
      return indexes.get(request.tm)?.snapshot() ?? null;
    case 'adopt':
      indexes.set(request.tm, CandidateIndex.reader(request.snapshot));
      return null;
    case 'apply': {
      const index = indexOf(request.tm);
      for (const key of request.removes) index.remove(key);
      for (const [key, text, langs] of request.puts) index.put(key, text, langs);
      return index.size;
    }
    case 'search': {
      const index = indexes.get(request.tm);
      if (!index) return [] satisfies IndexMatch[];
      return index.search(request.query, { minScore: request.minScore, limit: request.limit, langs: request.langs });
    }
    case 'best': {
      const index = indexes.get(request.tm);
      return request.queries.map((query) => {
        const match = index ? bandMatch(index, query, request.stages, request.langs) : null;
        return match ? [match.key, match.score] : null;
      });
    }
    case 'drop':
      indexes.delete(request.tm);
      return null;
    case 'stats': {
      let entries = 0;
      let bytes = 0;
      for (const index of indexes.values()) {
        entries += index.size;
        bytes += index.approximateBytes();
      }
      return { indexes: indexes.size, entries, bytes };
    }
  }
}

/** The thread's one long call (thread-pool.ts): serves requests on `port` until the pool closes. */
export function serveIndexes(_input: unknown, port: MessagePort | null): Promise<never> {
  if (!port) throw new Error('serveIndexes needs a port');
  port.on('message', (request: IndexRequest) => {
    try {
      port.postMessage({ id: request.id, ok: true, result: handle(request) } satisfies IndexReply);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies IndexReply);
    }
  });
  return new Promise<never>(() => {});
}
