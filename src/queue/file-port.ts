import { Readable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { sharedThreadPool } from './thread-pool.js';

/**
 * Streaming a stored file into a thread of the pool (thread-pool.ts) and batches of results back,
 * with backpressure both ways: the thread pulls the file chunk by chunk, and waits while
 * `batchesInFlight` batches it sent are not yet acknowledged by the main side (which writes them
 * to the database), so memory stays bounded however large the file and however slow the writes.
 * Used by the job import and the translation-memory import.
 */

/** Main side → thread. */
export type FileToThread =
  | { readonly type: 'chunk'; readonly chunk: Uint8Array }
  | { readonly type: 'end' }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'ack' };

/** Thread → main side: a request for the next chunk (batches and the result are the caller's messages). */
export type FilePull = { readonly type: 'pull' };

/**
 * Thread side: the file as a Readable, and `send`, which posts `{ type: 'batch', ...batch }` and
 * resolves once fewer than `batchesInFlight` batches are unacknowledged.
 */
export function fileFromPort<B extends object>(
  port: MessagePort,
  batchesInFlight: number,
): { source: Readable; send(batch: B): Promise<void> } {
  let inFlight = 0;
  let acked: (() => void) | null = null;
  const source = new Readable({
    read() {
      port.postMessage({ type: 'pull' } satisfies FilePull);
    },
  });
  port.on('message', (message: FileToThread) => {
    if (message.type === 'chunk') source.push(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
    else if (message.type === 'end') source.push(null);
    else if (message.type === 'error') source.destroy(new Error(message.message));
    else {
      inFlight--;
      acked?.();
      acked = null;
    }
  });
  return {
    source,
    async send(batch) {
      port.postMessage({ type: 'batch', ...batch });
      inFlight++;
      while (inFlight >= batchesInFlight) await new Promise<void>((resolve) => (acked = resolve));
    },
  };
}

/**
 * Main side: answers the thread's pulls from `chunks` one at a time, in order (a read error is
 * passed on to the thread, whose Readable then fails). Call the returned function on each pull.
 */
export function filePuller(port: MessagePort, chunks: AsyncIterator<Uint8Array>): () => void {
  let feeding: Promise<void> = Promise.resolve();
  return () => {
    feeding = feeding.then(async () => {
      try {
        const next = await chunks.next();
        port.postMessage((next.done ? { type: 'end' } : { type: 'chunk', chunk: next.value }) satisfies FileToThread);
      } catch (error) {
        port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies FileToThread);
      }
    });
  };
}

/** Main side: acknowledges one batch, letting the thread send another. */
export function ackBatch(port: MessagePort): void {
  port.postMessage({ type: 'ack' } satisfies FileToThread);
}

/** Lets the event loop serve what waits (requests) before the next batch. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Main side of a whole run: streams `file` into `fn` of `module` on the shared thread pool, hands
 * each batch the thread sends to `onBatch` in order (one at a time, the event loop served before
 * each), acknowledges it once written, and resolves with the thread's `done` result. A failing
 * `onBatch` or an aborted `signal` stops the thread and rejects. The thread side uses
 * `fileFromPort` and ends with `port.postMessage({ type: 'done', result })`. Used by the TM and
 * term base imports.
 */
export async function streamFileThroughThread<R, B extends { type: 'batch' }>(options: {
  file: Readable;
  module: URL;
  fn: string;
  input: unknown;
  signal: AbortSignal;
  onBatch: (batch: B) => Promise<void>;
}): Promise<R> {
  const chunks = (options.file as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const { port1: port, port2: threadPort } = new MessageChannel();
  const local = new AbortController();
  const stop = AbortSignal.any([options.signal, local.signal]);
  let writing: Promise<void> = Promise.resolve();
  const pull = filePuller(port, chunks);
  let finished!: (result: R) => void;
  const done = new Promise<R>((resolve) => (finished = resolve));
  port.on('message', (message: FilePull | B | { type: 'done'; result: R }) => {
    if (message.type === 'pull') pull();
    else if (message.type === 'batch') {
      writing = writing.then(async () => {
        await yieldToEventLoop();
        if (stop.aborted) return;
        try {
          await options.onBatch(message as B);
          ackBatch(port);
        } catch (error) {
          if (!local.signal.aborted) local.abort(error);
        }
      });
    } else finished((message as { result: R }).result);
  });
  try {
    const threadRun = sharedThreadPool().run<R>(options.module, options.fn, options.input, { signal: stop, port: threadPort });
    const result = await Promise.race([Promise.all([threadRun, done]).then(([, r]) => r), rejectOnAbort(stop)]);
    await writing;
    if (stop.aborted) throw stop.reason;
    return result;
  } finally {
    port.close();
    options.file.destroy();
  }
}
