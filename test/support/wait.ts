/** Polls `check` until it returns a truthy value, or fails after `timeoutMs` naming `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T> | T, timeoutMs = 5_000, intervalMs = 10): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`waited ${timeoutMs} ms for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A promise with its resolve function, for handlers that block until the test lets them go. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
