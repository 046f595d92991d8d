import { threadId } from 'node:worker_threads';

/** Functions the thread-pool tests run in a thread (test/thread-pool.test.ts). */

/** Keeps the thread's CPU busy for `ms`, then answers which thread ran it. */
export function spin(input: { ms: number }): { threadId: number } {
  const until = performance.now() + input.ms;
  while (performance.now() < until) {
    // busy: nothing else runs on this thread meanwhile
  }
  return { threadId };
}

export function echo(input: unknown): { input: unknown; threadId: number } {
  return { input, threadId };
}

export function throws(input: { message: string }): never {
  const error = new RangeError(input.message);
  throw error;
}

/** The thread dies (process.exit in a worker thread ends only the thread). */
export function crash(): never {
  process.exit(7);
}
