import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';

/**
 * The code of every thread of the CPU pool (thread-pool.ts): runs one call at a time. A call names
 * a module (a file URL) and one of its exported functions, which is given the call's input and,
 * when the caller passed one, a MessagePort to stream through. The function's result (or its
 * error's name and message) goes back to the pool. Modules are imported once per thread.
 */

export interface ThreadCall {
  readonly id: number;
  readonly module: string;
  readonly fn: string;
  readonly input: unknown;
  readonly port: MessagePort | null;
}

export type ThreadReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: { name: string; message: string; stack?: string } };

type ThreadFunction = (input: unknown, port: MessagePort | null) => unknown;

if (!parentPort) throw new Error('thread-entry.ts runs only as a worker thread of the CPU pool');
const pool = parentPort;

/**
 * Linux: this thread runs at a lower priority (nice +10) than the event loop that serves
 * requests, so that on a busy machine the scheduler gives the event loop the CPU first. Linux
 * keeps a nice value per thread, and setpriority on a thread's id changes that thread only.
 * Elsewhere (or without /proc), the thread keeps the process's priority.
 */
function lowerPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10);
  } catch {
    // not Linux, or not allowed: same priority as the event loop
  }
}
lowerPriority();

pool.on('message', (call: ThreadCall) => {
  void (async () => {
    try {
      const module = (await import(call.module)) as Record<string, unknown>;
      const fn = module[call.fn];
      if (typeof fn !== 'function') throw new Error(`${call.module} exports no function ${call.fn}`);
      const result = await (fn as ThreadFunction)(call.input, call.port);
      pool.postMessage({ id: call.id, ok: true, result } satisfies ThreadReply);
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      pool.postMessage({ id: call.id, ok: false, error: { name: e.name, message: e.message, stack: e.stack } } satisfies ThreadReply);
    }
    // The port stays open: messages the function posted last must still reach the caller, who
    // closes it (which closes both ends).
  })();
});
