import { afterAll, describe, expect, it } from 'vitest';
import { createThreadPool, ThreadCrashedError } from '../src/queue/thread-pool.js';

/**
 * The CPU pool (src/queue/thread-pool.ts) from the TypeScript sources, as vitest runs them: calls
 * run in another thread, the event loop of this one stays free meanwhile, and an abort or a
 * crashed thread fails only its own call. Every wait is bounded by the test's timeout.
 */

const MODULE = new URL('./support/test.thread.ts', import.meta.url);
const pool = createThreadPool(1);

afterAll(async () => {
  await pool.close();
});

/** The longest gap between the ticks of a 10 ms interval while `work` runs. */
async function worstTimerLag<T>(work: Promise<T>): Promise<{ result: T; lagMs: number }> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  try {
    const result = await work;
    worst = Math.max(worst, performance.now() - last - 10);
    return { result, lagMs: worst };
  } finally {
    clearInterval(timer);
  }
}

describe('the thread pool', () => {
  it('runs a call in another thread and answers its result', async () => {
    const answer = await pool.run<{ input: unknown; threadId: number }>(MODULE, 'echo', { a: [1, 'two'] });
    expect(answer.input).toEqual({ a: [1, 'two'] });
    expect(answer.threadId).toBeGreaterThan(0);
  });

  it('leaves the event loop free while a call keeps its thread busy for 1.5 s', async () => {
    const { result, lagMs } = await worstTimerLag(pool.run<{ threadId: number }>(MODULE, 'spin', { ms: 1_500 }));
    expect(result.threadId).toBeGreaterThan(0);
    // Run here, the spin would delay the timer by 1.5 s; a generous bound for a busy machine.
    expect(lagMs).toBeLessThan(500);
  });

  it('queues calls beyond its size and runs them in order', async () => {
    const before = pool.completed;
    const answers = await Promise.all([1, 2, 3].map((n) => pool.run<{ input: number }>(MODULE, 'echo', n)));
    expect(answers.map((a) => a.input)).toEqual([1, 2, 3]);
    expect(pool.completed - before).toBe(3);
  });

  it("passes the function's error back with its name and message", async () => {
    await expect(pool.run(MODULE, 'throws', { message: 'bad input' })).rejects.toMatchObject({ name: 'RangeError', message: 'bad input' });
  });

  it('an abort stops a running call at once (the thread is replaced) and the pool goes on', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const call = pool.run(MODULE, 'spin', { ms: 20_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop now')), 100);
    await expect(call).rejects.toThrow('stop now');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await pool.run<{ input: string }>(MODULE, 'echo', 'after')).toMatchObject({ input: 'after' });
  });

  it('ends a thread idle for idleMs (its heap freed); a thread busy again in time is kept', async () => {
    const short = createThreadPool(1, { idleMs: 300 });
    try {
      const first = await short.run<{ threadId: number }>(MODULE, 'echo', 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await short.run<{ threadId: number }>(MODULE, 'echo', 2)).threadId).toBe(first.threadId);
      await new Promise((resolve) => setTimeout(resolve, 900));
      expect((await short.run<{ threadId: number }>(MODULE, 'echo', 3)).threadId).not.toBe(first.threadId);
    } finally {
      await short.close();
    }
  });

  it('a thread that dies fails its call with ThreadCrashedError, and the next call gets a new thread', async () => {
    await expect(pool.run(MODULE, 'crash', null)).rejects.toBeInstanceOf(ThreadCrashedError);
    expect(await pool.run<{ input: string }>(MODULE, 'echo', 'again')).toMatchObject({ input: 'again' });
  });
});
