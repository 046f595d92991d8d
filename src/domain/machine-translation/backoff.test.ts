import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, retryAfterMs, retryDelays } from './backoff.js';

const constant = (value: number) => () => value;

describe('retryDelays', () => {
  it.each<[string, { attempts: number; baseMs: number; maxMs: number }, number, number[]]>([
    ['the top of each bound', { attempts: 5, baseMs: 100, maxMs: 1000 }, 0.999999999, [100, 200, 400, 800, 1000]],
    ['zero at the bottom', { attempts: 3, baseMs: 100, maxMs: 1000 }, 0, [0, 0, 0]],
    ['half of each bound', { attempts: 4, baseMs: 100, maxMs: 10_000 }, 0.5, [50, 100, 200, 400]],
    ['capped by maxMs from the start', { attempts: 2, baseMs: 5000, maxMs: 1000 }, 0.999999999, [1000, 1000]],
    ['no attempts', { attempts: 0, baseMs: 100, maxMs: 1000 }, 0.5, []],
    ['negative attempts', { attempts: -2, baseMs: 100, maxMs: 1000 }, 0.5, []],
    ['a random of 1 stays in bounds', { attempts: 2, baseMs: 100, maxMs: 1000 }, 1, [100, 200]],
    ['a zero base stays zero however many attempts', { attempts: 1100, baseMs: 0, maxMs: 1000 }, 0.5, Array(1100).fill(0)],
    ['an infinite maximum: the doubling alone', { attempts: 3, baseMs: 10, maxMs: Infinity }, 0.999999999, [10, 20, 40]],
    ['a negative random stays in bounds', { attempts: 2, baseMs: 100, maxMs: 1000 }, -1, [0, 0]],
    [
      'many attempts do not overflow',
      { attempts: 1100, baseMs: 100, maxMs: 30_000 },
      0.999999999,
      [...Array(1100).keys()].map((i) => Math.min(30_000, 100 * 2 ** i)),
    ],
  ])('%s', (_name, options, random, expected) => expect(retryDelays(options, constant(random))).toEqual(expected));

  it('stays within [0, min(maxMs, baseMs * 2^i)] for any random', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      retryDelays({ attempts: 8, baseMs: 250, maxMs: 20_000 }, random).forEach((delay, i) => {
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.min(20_000, 250 * 2 ** i));
      });
    }
  });
});

describe('retryAfterMs', () => {
  const NOW = Date.UTC(2015, 9, 21, 7, 28, 0);
  it.each<[string, string | null, number | null]>([
    ['absent', null, null],
    ['empty', '  ', null],
    ['seconds', '5', 5000],
    ['zero seconds', '0', 0],
    ['seconds with white space', ' 12 ', 12_000],
    ['seconds capped at 60 s', '120', MAX_RETRY_AFTER_MS],
    ['a huge number capped', '99999999999999999999999', MAX_RETRY_AFTER_MS],
    ['an IMF-fixdate', 'Wed, 21 Oct 2015 07:28:30 GMT', 30_000],
    ['an IMF-fixdate past the cap', 'Wed, 21 Oct 2015 08:28:00 GMT', MAX_RETRY_AFTER_MS],
    ['a date in the past', 'Wed, 21 Oct 2015 07:27:00 GMT', 0],
    ['now', 'Wed, 21 Oct 2015 07:28:00 GMT', 0],
    ['the obsolete RFC 850 form', 'Wednesday, 21-Oct-15 07:28:10 GMT', 10_000],
    ['the obsolete asctime form', 'Wed Oct 21 07:28:45 2015', 45_000],
    ['asctime with a one-digit day', 'Thu Oct  1 00:00:00 2015', 0],
    ['a negative number', '-5', null],
    ['a fraction', '1.5', null],
    ['not GMT', 'Wed, 21 Oct 2015 07:28:30 PST', null],
    ['an ISO date', '2015-10-21T07:28:30Z', null],
    ['no such month', 'Wed, 21 Foo 2015 07:28:30 GMT', null],
    ['no such day', 'Sat, 31 Feb 2015 07:28:30 GMT', null],
    ['no such hour', 'Wed, 21 Oct 2015 25:28:30 GMT', null],
    ['words', 'soon', null],
  ])('%s', (_name, header, expected) => expect(retryAfterMs(header, NOW)).toBe(expected));
});
