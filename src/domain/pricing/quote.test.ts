import { describe, expect, it } from 'vitest';
import type { Tallies } from '../analysis/bands.js';
import { parseDecimal } from './decimal.js';
import { computeQuote, currencyDigits, weightedUnits } from './quote.js';
import type { QuoteInput, QuotePriceSet } from './quote.js';

/**
 * Quote prices (docs/analysis.md, "Quotes"), each computed by hand. The tallies are the analysis
 * worked example's (docs/analysis.md, "Worked example"): 9 segments, 29 words, 157 characters.
 */

const t = (segments: number, words: number, characters: number) => ({ segments, wordHundredths: words * 100, characters });
const EXAMPLE: Tallies = {
  'transMemoryMatches.match0': t(3, 9, 54), // Welcome. (8) Close the window. (17) Delete the selected file now. (29)
  'transMemoryMatches.match101': t(1, 3, 14), // Open the file.
  'transMemoryMatches.match95': t(1, 5, 24), // You have 5 new messages.
  'transMemoryMatches.match100': t(1, 3, 15), // Print the page.
  repetitions: t(1, 3, 14), // Open the file.
  'nonTranslatablesMatches.match100': t(1, 1, 6), // 12.5 %
  'internalFuzzyMatches.match95': t(1, 5, 30), // Delete the selected files now.
};
/** The worked example's scheme: repetition 10, tm101 5, tm100 20, tm95 50, tm0 100, nt100 0, if95 40. */
const RATES = { repetition: '10', tm101: '5', tm100: '20', tm95: '50', tm0: '100', nt100: '0', if95: '40' };

const TRANSLATION = '1';
const REVISION = '2';
const set = (prices: Record<string, string>, minimumPrice = '0', sourceLang = 'en', targetLang = 'de'): QuotePriceSet => ({
  sourceLang,
  targetLang,
  minimumPrice,
  prices,
});
const base = (overrides: Partial<QuoteInput>): QuoteInput => ({
  billingUnit: 'Word',
  currency: 'EUR',
  parts: [{ id: '10', sourceLang: 'en', targetLang: 'de', tallies: EXAMPLE }],
  workflowStepIds: [TRANSLATION],
  netRates: { rates: RATES },
  priceSets: [set({ [TRANSLATION]: '0.12' })],
  ...overrides,
});

describe('weighted units', () => {
  it('words: the weighted words of the worked example are 14.55', () => {
    // 3 × 0.05 + 3 × 0.20 + 5 × 0.50 + 3 × 0.10 + 1 × 0 + 5 × 0.40 + 9 × 1.00 = 14.55
    expect(weightedUnits('Word', EXAMPLE, RATES)).toEqual(parseDecimal('14.55'));
    expect(weightedUnits('Word', EXAMPLE, null)).toEqual({ units: 2900n, scale: 2 });
  });
  it('characters: each band rounded half up to whole characters', () => {
    // 14 × 0.05 = 0.7 -> 1; 15 × 0.2 = 3; 24 × 0.5 = 12; 14 × 0.1 = 1.4 -> 1; 6 × 0 = 0; 30 × 0.4 = 12; 54: 83
    expect(weightedUnits('Character', EXAMPLE, RATES)).toEqual({ units: 83n, scale: 0 });
  });
  it('pages: characters / 1,800, half up to 2 decimals', () => {
    // 157 / 1800 = 0.0872… -> 0.09; 83 / 1800 = 0.0461… -> 0.05
    expect(weightedUnits('Page', EXAMPLE, null)).toEqual({ units: 9n, scale: 2 });
    expect(weightedUnits('Page', EXAMPLE, RATES)).toEqual({ units: 5n, scale: 2 });
    expect(weightedUnits('Page', { 'transMemoryMatches.match0': t(1, 1, 2700) }, null)).toEqual({ units: 150n, scale: 2 });
    // 9 characters = 0.005 pages: half up to 0.01
    expect(weightedUnits('Page', { 'transMemoryMatches.match0': t(1, 1, 9) }, null)).toEqual({ units: 1n, scale: 2 });
  });
});

describe('computeQuote', () => {
  const cases: { name: string; input: Partial<QuoteInput>; total: string }[] = [
    { name: 'the worked example: 14.55 weighted words × 0.12 EUR = 1.746 -> 1.75', input: {}, total: '1.75' },
    { name: 'without a scheme: 29 words × 0.12 = 3.48', input: { netRates: null }, total: '3.48' },
    { name: 'the minimum price wins when the sum is below it', input: { priceSets: [set({ [TRANSLATION]: '0.12' }, '5')] }, total: '5.00' },
    { name: 'the sum wins when above the minimum', input: { priceSets: [set({ [TRANSLATION]: '0.12' }, '1.5')] }, total: '1.75' },
    {
      name: 'characters: 83 × 0.01 = 0.83',
      input: { billingUnit: 'Character', priceSets: [set({ [TRANSLATION]: '0.01' })] },
      total: '0.83',
    },
    {
      name: 'pages: 0.09 × 20 = 1.80 (no scheme)',
      input: { billingUnit: 'Page', netRates: null, priceSets: [set({ [TRANSLATION]: '20' })] },
      total: '1.80',
    },
    {
      name: 'two steps, the second with rates of its own (all 100 %): 14.55 × 0.12 + 29 × 0.05 = 1.746 + 1.45 = 3.196 -> 3.20',
      input: {
        workflowStepIds: [TRANSLATION, REVISION],
        netRates: { rates: RATES, byStep: { [REVISION]: {} } },
        priceSets: [set({ [TRANSLATION]: '0.12', [REVISION]: '0.05' })],
      },
      total: '3.20',
    },
    {
      name: 'a step without a price costs nothing',
      input: { workflowStepIds: [TRANSLATION, REVISION] },
      total: '1.75',
    },
    {
      name: 'hours: 2.5 h × 40 + 1.25 h × 30 = 137.50',
      input: {
        billingUnit: 'Hour',
        workflowStepIds: [TRANSLATION, REVISION],
        priceSets: [set({ [TRANSLATION]: '40', [REVISION]: '30' })],
        hours: (step) => parseDecimal(step === TRANSLATION ? '2.5' : '1.25'),
      },
      total: '137.50',
    },
    {
      name: 'hours not given count 0 (the minimum price still applies)',
      input: { billingUnit: 'Hour', priceSets: [set({ 1: '40' }, '3')] },
      total: '3.00',
    },
    {
      name: 'JPY has no minor unit: 14.55 × 12.34 = 179.547 -> 180',
      input: { currency: 'JPY', priceSets: [set({ 1: '12.34' })] },
      total: '180',
    },
    {
      name: 'half up: 0.125 -> 0.13',
      input: {
        netRates: null,
        parts: [{ id: '1', sourceLang: 'en', targetLang: 'de', tallies: { repetitions: t(1, 1, 1) } }],
        priceSets: [set({ 1: '0.125' })],
      },
      total: '0.13',
    },
    {
      name: 'two language parts add up, each against its own price set: 1.746 + 14.55 × 0.2 = 1.746 + 2.91 = 4.656 -> 4.66',
      input: {
        parts: [
          { id: '10', sourceLang: 'en', targetLang: 'de', tallies: EXAMPLE },
          { id: '11', sourceLang: 'en', targetLang: 'fr', tallies: EXAMPLE },
        ],
        netRates: { rates: RATES },
        priceSets: [set({ 1: '0.12' }), set({ 1: '0.2' }, '0', 'en', 'fr')],
      },
      total: '4.66',
    },
  ];
  it.each(cases)('$name', ({ input, total }) => {
    expect(computeQuote(base(input)).totalPrice).toBe(total);
  });

  it('keeps the lines: units, price and amount per step, the sum and the minimum per part', () => {
    const result = computeQuote(base({ priceSets: [set({ [TRANSLATION]: '0.12' }, '5')] }));
    expect(result).toMatchObject({ currency: 'EUR', fractionDigits: 2, totalPrice: '5.00' });
    expect(result.parts).toEqual([
      {
        partId: '10',
        sourceLang: 'en',
        targetLang: 'de',
        steps: [{ workflowStepId: TRANSLATION, units: '14.55', price: '0.12', amount: '1.746' }],
        sum: '1.746',
        minimumPrice: '5',
        amount: '5',
      },
    ]);
  });

  it('refuses a language pair the price list has no price set for, naming it', () => {
    expect(() => computeQuote(base({ priceSets: [set({ 1: '1' }, '0', 'en', 'fr')] }))).toThrow(/no prices for en → de/);
  });

  it('matches language codes ignoring case and - / _', () => {
    const input = base({
      parts: [{ id: '1', sourceLang: 'en-US', targetLang: 'de', tallies: EXAMPLE }],
      priceSets: [set({ 1: '0.12' }, '0', 'en_us', 'DE')],
    });
    expect(computeQuote(input).totalPrice).toBe('1.75');
  });

  it('knows the minor units of currencies', () => {
    expect([currencyDigits('EUR'), currencyDigits('JPY'), currencyDigits('BHD'), currencyDigits('XXX1')]).toEqual([2, 0, 3, 2]);
  });
});
