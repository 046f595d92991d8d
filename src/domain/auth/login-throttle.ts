/**
 * Slowing down password guessing. Failures are counted per user name as typed (lower-cased),
 * whether or not such a user exists, so the answers never reveal which names exist. After
 * FREE_ATTEMPTS consecutive failures every further attempt must wait: 1 minute, then 2, 4, 8,
 * up to MAX_LOCK_MINUTES. A success, or an hour without failures, starts the count again.
 *
 * A temporary lock rather than a permanent one: a permanent lock would let anyone lock any
 * user out by typing wrong passwords for them.
 */
export const FREE_ATTEMPTS = 5;
export const MAX_LOCK_MINUTES = 15;
export const FORGET_AFTER_MS = 60 * 60 * 1000;

export interface FailureState {
  failures: number;
  lastFailureAt: string;
  lockedUntil: string | null;
}

/** Milliseconds the caller must still wait before the next attempt is even checked (0 = go). */
export function waitBeforeAttempt(state: FailureState | undefined, now: Date): number {
  if (!state?.lockedUntil) return 0;
  return Math.max(0, Date.parse(state.lockedUntil) - now.getTime());
}

/** The state after one more failed attempt at `now`. */
export function afterFailure(state: FailureState | undefined, now: Date): FailureState {
  const stale = !state || now.getTime() - Date.parse(state.lastFailureAt) > FORGET_AFTER_MS;
  const failures = stale ? 1 : state.failures + 1;
  const over = failures - FREE_ATTEMPTS;
  const lockMinutes = over >= 0 ? Math.min(MAX_LOCK_MINUTES, 2 ** over) : 0;
  return {
    failures,
    lastFailureAt: now.toISOString(),
    lockedUntil: lockMinutes > 0 ? new Date(now.getTime() + lockMinutes * 60_000).toISOString() : null,
  };
}
