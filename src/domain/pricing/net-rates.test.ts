import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/index.js';
import {
  DEFAULT_NET_RATES,
  NET_RATE_BANDS,
  mergeNetRates,
  netRatesToWire,
  parseNetRate,
  parseStoredNetRates,
  storedNetRates,
} from './net-rates.js';

/** The error parseNetRate raises, or null when it accepts the value. */
function refusal(run: () => unknown): { field: string | undefined; message: string | undefined } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.errorCode).toBe('InvalidArguments');
    return { field: error.details[0]?.field, message: error.details[0]?.message };
  }
}

describe('net rates', () => {
  it('has 26 bands, each with a default from 0 to 100', () => {
    expect(NET_RATE_BANDS).toHaveLength(26);
    expect(Object.keys(DEFAULT_NET_RATES).sort()).toEqual([...NET_RATE_BANDS].sort());
    for (const band of NET_RATE_BANDS) expect(parseNetRate(DEFAULT_NET_RATES[band], band)).toBe(DEFAULT_NET_RATES[band]);
  });

  describe('parseNetRate', () => {
    const accepted: [unknown, string][] = [
      [0, '0'],
      [-0, '0'],
      [100, '100'],
      [12.5, '12.5'],
      [33.33, '33.33'],
      [0.01, '0.01'],
      [99.99, '99.99'],
      [60, '60'],
      ['12.50', '12.5'],
      ['007', '7'],
      ['100.00', '100'],
      [' 5 ', '5'],
      ['-0', '0'],
    ];
    for (const [value, text] of accepted) {
      it(`accepts ${JSON.stringify(value)} as "${text}"`, () => expect(parseNetRate(value, 'rates.tm95')).toBe(text));
    }

    const refused: [unknown, string][] = [
      [12.345, 'must have at most 2 decimal places'],
      [0.001, 'must have at most 2 decimal places'],
      [1e-7, 'must have at most 2 decimal places'],
      ['1.005', 'must have at most 2 decimal places'],
      [-1, 'must be between 0 and 100'],
      [-0.01, 'must be between 0 and 100'],
      [100.01, 'must be between 0 and 100'],
      [101, 'must be between 0 and 100'],
      [1e21, 'must be between 0 and 100'],
      ['1000', 'must be between 0 and 100'],
      [Number.NaN, 'must be a number'],
      [Number.POSITIVE_INFINITY, 'must be a number'],
      ['abc', 'must be a number'],
      ['', 'must be a number'],
      ['1.', 'must be a number'],
      [true, 'must be a number'],
      [null, 'must be a number'],
    ];
    for (const [value, message] of refused) {
      it(`refuses ${String(value)}: ${message}`, () => {
        expect(refusal(() => parseNetRate(value, 'rates.tm95'))).toEqual({ field: 'rates.tm95', message });
      });
    }
  });

  describe('mergeNetRates', () => {
    it('replaces the bands given and keeps the others', () => {
      const merged = mergeNetRates(DEFAULT_NET_RATES, { tm100: 12.5, mt0: 0, repetition: null, unknown: 5 });
      expect(merged).toEqual({ ...DEFAULT_NET_RATES, tm100: '12.5', mt0: '0' });
    });
    it('keeps the base when nothing is given', () => {
      expect(mergeNetRates(DEFAULT_NET_RATES, undefined)).toBe(DEFAULT_NET_RATES);
      expect(mergeNetRates(DEFAULT_NET_RATES, {})).toEqual(DEFAULT_NET_RATES);
    });
    it('names the band under the given field', () => {
      expect(refusal(() => mergeNetRates(DEFAULT_NET_RATES, { if50: 12.345 }, 'workflowStepNetSchemes.0.rates'))).toEqual({
        field: 'workflowStepNetSchemes.0.rates.if50',
        message: 'must have at most 2 decimal places',
      });
    });
  });

  describe('stored and wire forms', () => {
    it('stores decimal strings and shows numbers that print as the same decimals', () => {
      const rates = mergeNetRates(DEFAULT_NET_RATES, { tm95: 33.33, tm85: 12.5, tm75: 0.07 });
      const stored = storedNetRates(rates);
      expect(JSON.parse(stored)).toMatchObject({ tm95: '33.33', tm85: '12.5', tm75: '0.07' });
      expect(parseStoredNetRates(stored)).toEqual(rates);
      const wire = JSON.stringify(netRatesToWire(rates));
      expect(wire).toContain('"tm95":33.33');
      expect(wire).toContain('"tm85":12.5');
      expect(wire).toContain('"tm75":0.07');
    });
    it('fills bands missing from stored text with their defaults', () => {
      expect(parseStoredNetRates('{"tm100":"1.5"}')).toEqual({ ...DEFAULT_NET_RATES, tm100: '1.5' });
      expect(parseStoredNetRates('not json')).toEqual(DEFAULT_NET_RATES);
    });
  });
});
