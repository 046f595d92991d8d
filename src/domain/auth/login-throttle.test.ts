import { describe, expect, it } from 'vitest';
import { afterFailure, FREE_ATTEMPTS, waitBeforeAttempt } from './login-throttle.js';
import type { FailureState } from './login-throttle.js';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 21, 12, 0, 0) + minutes * 60_000);

function failTimes(n: number, start = 0): FailureState | undefined {
  let state: FailureState | undefined;
  for (let i = 0; i < n; i++) state = afterFailure(state, at(start));
  return state;
}

describe('login throttling', () => {
  it.each([
    [1, 0],
    [FREE_ATTEMPTS - 1, 0],
    [FREE_ATTEMPTS, 1],
    [FREE_ATTEMPTS + 1, 2],
    [FREE_ATTEMPTS + 2, 4],
    [FREE_ATTEMPTS + 3, 8],
    [FREE_ATTEMPTS + 4, 15],
    [FREE_ATTEMPTS + 20, 15],
  ])('after %i failures the next attempt waits %i minutes', (failures, minutes) => {
    expect(waitBeforeAttempt(failTimes(failures), at(0))).toBe(minutes * 60_000);
  });

  it('the wait runs out', () => {
    const state = failTimes(FREE_ATTEMPTS);
    expect(waitBeforeAttempt(state, at(0.5))).toBe(30_000);
    expect(waitBeforeAttempt(state, at(1))).toBe(0);
    expect(waitBeforeAttempt(state, at(5))).toBe(0);
  });

  it('forgets failures an hour old', () => {
    const state = failTimes(FREE_ATTEMPTS + 3);
    const next = afterFailure(state, at(61));
    expect(next.failures).toBe(1);
    expect(next.lockedUntil).toBeNull();
  });

  it('no state means no wait', () => {
    expect(waitBeforeAttempt(undefined, at(0))).toBe(0);
  });
});
