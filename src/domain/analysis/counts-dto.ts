import { addTo, MATCH_BANDS, totalOf } from './bands.js';
import type { Category, Group, MatchBand, Tallies, Tally } from './bands.js';

/**
 * The wire records of an analysis's figures (spec DataDto, DataDtoV1, CountsDto), made from
 * tallies, and the net-rate weighting (`discounted`). Pure.
 *
 * - words: the tally's hundredths as a number with at most 2 decimals;
 * - characters: characters of the counted text without inline tags, spaces included;
 * - normalizedPages: characters / 1,800 (the standard page), 2 decimals;
 * - percent: the category's words of all words of the record, 2 decimals (0 when there are none);
 * - editingTime: 0 (OpenTMS does not measure editing time).
 */

export const CHARACTERS_PER_PAGE = 1800;

export interface CountsDto {
  segments: number;
  words: number;
  characters: number;
  normalizedPages: number;
  percent: number;
  editingTime: number;
}

/** Rounds half up to 2 decimals from an exact rational `numerator / denominator` (integers, ≥ 0). */
function hundredthsOf(numerator: number, denominator: number): number {
  if (denominator === 0) return 0;
  return Math.floor((numerator * 100 * 2 + denominator) / (2 * denominator)) / 100;
}

export function countsOf(tally: Tally | undefined, allWordHundredths: number): CountsDto {
  const t = tally ?? { segments: 0, wordHundredths: 0, characters: 0 };
  return {
    segments: t.segments,
    words: t.wordHundredths / 100,
    characters: t.characters,
    normalizedPages: hundredthsOf(t.characters, CHARACTERS_PER_PAGE),
    percent: allWordHundredths === 0 ? 0 : hundredthsOf(t.wordHundredths * 100, allWordHundredths),
    editingTime: 0,
  };
}

const FIVE_BANDS = MATCH_BANDS.slice(1) as readonly MatchBand[];

function groupCounts(tallies: Tallies, group: Group, bands: readonly MatchBand[], all: number): Record<string, CountsDto> {
  return Object.fromEntries(bands.map((band) => [band, countsOf(tallies[`${group}.${band}` as Category], all)]));
}

/** Spec DataDto (v2/v3 analyses). */
export function dataDto(tallies: Tallies) {
  const all = totalOf(tallies);
  const w = all.wordHundredths;
  return {
    available: true,
    estimate: false,
    all: countsOf(all, w),
    repetitions: countsOf(tallies.repetitions, w),
    transMemoryMatches: groupCounts(tallies, 'transMemoryMatches', MATCH_BANDS, w),
    machineTranslationMatches: groupCounts(tallies, 'machineTranslationMatches', FIVE_BANDS, w),
    nonTranslatablesMatches: groupCounts(tallies, 'nonTranslatablesMatches', FIVE_BANDS, w),
    internalFuzzyMatches: groupCounts(tallies, 'internalFuzzyMatches', FIVE_BANDS, w),
  };
}

/** Spec DataDtoV1 (v1 analysis records): non-translatables as match100 and match99 (= the 95 band). */
export function dataDtoV1(tallies: Tallies) {
  const v2 = dataDto(tallies);
  const { available, all, repetitions, transMemoryMatches, machineTranslationMatches, internalFuzzyMatches } = v2;
  return {
    available,
    all,
    repetitions,
    transMemoryMatches,
    machineTranslationMatches,
    nonTranslatablesMatches: { match100: v2.nonTranslatablesMatches.match100, match99: v2.nonTranslatablesMatches.match95 },
    internalFuzzyMatches,
  };
}

/** The net rate scheme field of each category (spec DiscountSettingsDto). */
export function rateFieldOf(category: Category): string {
  if (category === 'repetitions') return 'repetition';
  const [group, band] = category.split('.') as [Group, MatchBand];
  const score = band === 'match0' ? '0' : band.slice('match'.length);
  switch (group) {
    case 'transMemoryMatches':
      return `tm${score}`;
    case 'machineTranslationMatches':
      return `mt${score === '101' ? '100' : score}`;
    case 'internalFuzzyMatches':
      return `if${score === '101' ? '100' : score}`;
    case 'nonTranslatablesMatches':
      return `nt${score === '95' ? '99' : score === '101' ? '100' : score}`;
  }
}

/** A percentage with at most 2 decimals as an integer of hundredths ("12.5" -> 1250). */
export function rateHundredths(rate: string | number): number {
  const text = typeof rate === 'number' ? String(rate) : rate.trim();
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new RangeError(`not a rate with at most 2 decimals: ${text}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** `value × rate / 100`, rounded half up, with the rate in hundredths of a percent: exact integer arithmetic in the value's own unit. */
function weigh(valueHundredths: number, rateH: number): number {
  // value/100 × rate/10000 in hundredths = value × rate / 10000
  return Math.floor((valueHundredths * rateH * 2 + 10000) / 20000);
}

/**
 * The tallies weighted by a net rate scheme (`rates`: field -> percent): each category's words
 * and characters times its rate, rounded half up to hundredths of a word (characters to whole
 * ones). Segments are not weighted. A category whose field the scheme lacks counts in full.
 * Weighted words are the sum of words × rate, so `totalOf(discounted(...)).wordHundredths`
 * is the analysis's weighted words.
 */
export function discounted(tallies: Tallies, rates: Readonly<Record<string, string | number>>): Tallies {
  const result: Tallies = {};
  for (const [category, tally] of Object.entries(tallies) as [Category, Tally][]) {
    const rate = rates[rateFieldOf(category)];
    const rateH = rate === undefined ? 10000 : rateHundredths(rate);
    addTo(result, category, weigh(tally.wordHundredths, rateH), weigh(tally.characters, rateH), tally.segments);
  }
  return result;
}
