import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { ThreadCall, ThreadReply } from './thread-entry.js';

/**
 * A small pool of worker threads for CPU-heavy work (parsing, segmenting, counting; later TM and
 * analysis), so that it never blocks the event loop that serves requests when the API and a
 * worker share a process (docs/async-and-webhooks.md, "CPU work in threads").
 *
 * A call names a module and one of its exported functions (`run(moduleUrl, 'fn', input)`); the
 * thread imports the module (once) and calls the function with the input and, optionally, a
 * MessagePort for streaming in both directions. One call per thread at a time; calls beyond the
 * pool's size wait in order. A call whose signal is aborted while it runs terminates its thread
 * (CPU-bound code cannot be interrupted otherwise); a thread that dies (an uncaught error, out of
 * memory) fails its call with ThreadCrashedError. Either way the pool starts a new thread when
 * one is needed. Idle threads do not keep the process alive, and a thread idle for `idleMs`
 * (default 10 s) is ended: what a large call left in its heap (an import of a million TM units)
 * is given back to the system instead of staying resident; the next call starts a new thread.
 *
 * Modules given to `run` must be thin entry points over pure code: a thread has no database, no
 * config and no app dependencies.
 */

export class ThreadCrashedError extends Error {
  constructor(detail: string) {
    super(`the worker thread running the task stopped: ${detail}`);
    this.name = 'ThreadCrashedError';
  }
}

/** An error the thread's function threw, with its name and message (its class is not kept). */
export class ThreadCallError extends Error {
  constructor(name: string, message: string, stack?: string) {
    super(message);
    this.name = name;
    if (stack) this.stack = stack;
  }
}

export interface ThreadRunOptions {
  /** Aborting it rejects the call with the signal's reason and terminates the thread if the call runs. */
  readonly signal?: AbortSignal;
  /** Given to the function as its second argument (transferred to the thread). */
  readonly port?: MessagePort;
}

export interface ThreadPool {
  /** Calls `fn` of the module at `module` (a file URL) in a thread; resolves with its result. */
  run<T>(module: URL, fn: string, input: unknown, options?: ThreadRunOptions): Promise<T>;
  /** Calls run to the end so far (for tests and metrics). */
  readonly completed: number;
  /** Terminates every thread; pending and running calls are rejected. */
  close(): Promise<void>;
}

/** Threads when OPENTMS_WORKER_THREADS is not set: one core left to the event loop, at most 4. */
export function defaultThreadCount(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * How a thread is started. From `dist/` (compiled JavaScript) the thread runs thread-entry.js
 * directly. From the TypeScript sources (vitest, tsx, `npm run dev`) nothing compiles them for a
 * new thread: a small bootstrap registers tsx's loader in the thread, then imports thread-entry.ts.
 */
function threadScript(): { script: string | URL; eval: boolean; workerData: unknown } {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return { script: new URL('./thread-entry.js', self), eval: false, workerData: null };
  const require = createRequire(self);
  const tsxRoot = dirname(require.resolve('tsx/package.json'));
  const tsxPackage = JSON.parse(readFileSync(join(tsxRoot, 'package.json'), 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  const tsxApi = pathToFileURL(join(tsxRoot, tsxPackage.exports['./esm/api']!.import.default)).href;
  const bootstrap = `
    const { workerData } = require('node:worker_threads');
    import(workerData.tsxApi).then((api) => { api.register(); return import(workerData.entry); });`;
  return { script: bootstrap, eval: true, workerData: { tsxApi, entry: new URL('./thread-entry.ts', self).href } };
}

interface Call {
  readonly id: number;
  readonly module: string;
  readonly fn: string;
  readonly input: unknown;
  readonly options: ThreadRunOptions;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  onAbort: (() => void) | null;
}

interface Thread {
  readonly worker: Worker;
  call: Call | null;
  /** Ends the thread once it has been idle for `idleMs`. */
  idleTimer: NodeJS.Timeout | null;
}

/** A thread idle this long is ended (its heap freed). */
export const THREAD_IDLE_MS = 10_000;

/**
 * The young generation of a thread's heap, in MB (V8's default is 48: two semi-spaces of 16 MB
 * plus as much for new large objects). Threads run CPU work on typed arrays and short-lived
 * strings; each of them keeping 32 MB of semi-spaces resident cost ~100 MB in a worker whose TM
 * index has a writer and a reader and whose analysis has a thread (docs/performance.md,
 * "Memory: where a worker's memory goes").
 */
export const THREAD_YOUNG_GENERATION_MB = 12;

export function createThreadPool(size: number = defaultThreadCount(), options: { idleMs?: number } = {}): ThreadPool {
  const max = Math.max(1, Math.floor(size));
  const idleMs = options.idleMs ?? THREAD_IDLE_MS;
  const resourceLimits = { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB };
  const threads = new Set<Thread>();
  const waiting: Call[] = [];
  let nextId = 1;
  let completed = 0;
  let closed = false;
  let started: ReturnType<typeof threadScript> | null = null;

  function settle(call: Call, outcome: { ok: true; value: unknown } | { ok: false; error: unknown }): void {
    if (call.onAbort) call.options.signal?.removeEventListener('abort', call.onAbort);
    call.onAbort = null;
    if (outcome.ok) call.resolve(outcome.value);
    else call.reject(outcome.error);
  }

  function retire(thread: Thread): void {
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    thread.idleTimer = null;
    threads.delete(thread);
    void thread.worker.terminate();
  }

  function spawn(): Thread {
    started ??= threadScript();
    const worker = new Worker(started.script, { eval: started.eval, workerData: started.workerData, resourceLimits });
    const thread: Thread = { worker, call: null, idleTimer: null };
    worker.on('message', (reply: ThreadReply) => {
      const call = thread.call;
      if (!call || call.id !== reply.id) return;
      thread.call = null;
      worker.unref();
      completed++;
      settle(
        call,
        reply.ok
          ? { ok: true, value: reply.result }
          : { ok: false, error: new ThreadCallError(reply.error.name, reply.error.message, reply.error.stack) },
      );
      dispatch();
      if (!thread.call && threads.has(thread)) {
        thread.idleTimer = setTimeout(() => {
          thread.idleTimer = null;
          if (!thread.call && threads.has(thread)) retire(thread);
        }, idleMs);
        thread.idleTimer.unref();
      }
    });
    const died = (detail: string) => {
      if (!threads.has(thread)) return;
      threads.delete(thread);
      const call = thread.call;
      thread.call = null;
      if (call) settle(call, { ok: false, error: new ThreadCrashedError(detail) });
      dispatch();
    };
    worker.on('error', (error) => died(error.message));
    worker.on('exit', (code) => died(`exited with code ${code}`));
    worker.unref();
    threads.add(thread);
    return thread;
  }

  function start(thread: Thread, call: Call): void {
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    thread.idleTimer = null;
    thread.call = call;
    thread.worker.ref();
    const message: ThreadCall = { id: call.id, module: call.module, fn: call.fn, input: call.input, port: call.options.port ?? null };
    thread.worker.postMessage(message, call.options.port ? [call.options.port] : []);
  }

  function dispatch(): void {
    while (waiting.length > 0 && !closed) {
      let idle: Thread | undefined;
      for (const thread of threads) if (!thread.call) idle = thread;
      if (!idle && threads.size >= max) return;
      start(idle ?? spawn(), waiting.shift()!);
    }
  }

  return {
    run<T>(module: URL, fn: string, input: unknown, options: ThreadRunOptions = {}): Promise<T> {
      if (closed) return Promise.reject(new Error('the thread pool is closed'));
      const { signal } = options;
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<T>((resolve, reject) => {
        const call: Call = {
          id: nextId++,
          module: module.href,
          fn,
          input,
          options,
          resolve: resolve as (value: unknown) => void,
          reject,
          onAbort: null,
        };
        if (signal) {
          call.onAbort = () => {
            const queued = waiting.indexOf(call);
            if (queued >= 0) waiting.splice(queued, 1);
            for (const thread of threads) {
              if (thread.call !== call) continue;
              thread.call = null;
              retire(thread);
            }
            settle(call, { ok: false, error: signal.reason });
            dispatch();
          };
          signal.addEventListener('abort', call.onAbort, { once: true });
        }
        waiting.push(call);
        dispatch();
      });
    },
    get completed() {
      return completed;
    },
    async close() {
      closed = true;
      for (const call of waiting.splice(0)) settle(call, { ok: false, error: new Error('the thread pool is closed') });
      const all = [...threads];
      threads.clear();
      for (const thread of all) {
        if (thread.idleTimer) clearTimeout(thread.idleTimer);
        if (thread.call) settle(thread.call, { ok: false, error: new Error('the thread pool is closed') });
      }
      await Promise.all(all.map((thread) => thread.worker.terminate()));
    },
  };
}

let shared: ThreadPool | null = null;
let sharedSize: number | null = null;

/**
 * Sets the size of the process's shared pool (main.ts, from OPENTMS_WORKER_THREADS) before its
 * first use; without it the pool has defaultThreadCount() threads.
 */
export function configureSharedThreadPool(size: number): void {
  sharedSize = size;
}

/** The process's one pool, started on first use. */
export function sharedThreadPool(): ThreadPool {
  shared ??= createThreadPool(sharedSize ?? defaultThreadCount());
  return shared;
}
