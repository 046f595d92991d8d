import { Readable } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';

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
