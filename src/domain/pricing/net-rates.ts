import { errors } from '../../errors/index.js';

/**
 * Net rates (spec definition `DiscountSettingsDto`): for each match band of an analysis, the
 * percentage of the full price that a word in that band costs. A net rate scheme holds one rate
 * per band; each rate is a percentage from 0 to 100 with at most 2 decimal places.
 *
 * Rates are decimal strings ("12.5", "33.33"), never binary floats: the wire's JSON numbers are
 * read into their shortest decimal text, which is exactly the text a client wrote for any number
 * of at most 15 significant digits, then checked and kept as that text.
 */

/** The 26 bands of `DiscountSettingsDto`, in the spec's order. */
export const NET_RATE_BANDS = [
  'repetition',
  'tm101',
  'tm100',
  'tm95',
  'tm85',
  'tm75',
  'tm50',
  'tm0',
  'mt100',
  'mt95',
  'mt85',
  'mt75',
  'mt50',
  'mt0',
  'nt100',
  'nt99',
  'nt85',
  'nt75',
  'nt50',
  'nt0',
  'if100',
  'if95',
  'if85',
  'if75',
  'if50',
  'if0',
] as const;
export type NetRateBand = (typeof NET_RATE_BANDS)[number];

/** A full set of rates: every band, each a canonical decimal string ("12.5", never "12.50"). */
export type NetRates = Readonly<Record<NetRateBand, string>>;

/**
 * The rates a band takes when a new scheme leaves it out (OpenTMS choice, after the usual
 * industry grid): exact and context matches cost little, fuzzy matches from 75 % cost 60 %, and
 * below that the full price. The same grid applies to TM matches (`tm`), machine translation
 * (`mt`, where only a 100 % match is discounted: a lower MT score says nothing dependable about
 * effort), non-translatables (`nt`) and internal fuzzy matches (`if`).
 */
export const DEFAULT_NET_RATES: NetRates = {
  repetition: '25',
  tm101: '10',
  tm100: '25',
  tm95: '60',
  tm85: '60',
  tm75: '60',
  tm50: '100',
  tm0: '100',
  mt100: '25',
  mt95: '100',
  mt85: '100',
  mt75: '100',
  mt50: '100',
  mt0: '100',
  nt100: '10',
  nt99: '25',
  nt85: '60',
  nt75: '60',
  nt50: '100',
  nt0: '100',
  if100: '25',
  if95: '60',
  if85: '60',
  if75: '60',
  if50: '100',
  if0: '100',
};

const MAX_DECIMALS = 2;
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

const invalid = (field: string, message: string) =>
  errors.InvalidArguments({ reason: `${field} ${message}.`, details: [{ field, message }] });

/**
 * The canonical decimal text of one rate (`field` names it in the error): a JSON number or a
 * decimal string, from 0 to 100 with at most 2 decimal places; "12.50" and 12.5 both give "12.5".
 * Anything else is a 400 naming the field.
 */
export function parseNetRate(value: unknown, field: string): string {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(field, 'must be a number');
    text = String(value);
  } else if (typeof value === 'string') text = value.trim();
  else throw invalid(field, 'must be a number');
  if (/e/i.test(text)) {
    // Exponent notation: only numbers too small or too large for a plain text reach it.
    const n = Number(text);
    if (Number.isFinite(n) && Math.abs(n) < 1 && n !== 0) throw invalid(field, `must have at most ${MAX_DECIMALS} decimal places`);
    throw invalid(field, 'must be between 0 and 100');
  }
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) throw invalid(field, 'must be a number');
  const [, sign, intDigits, fracDigits = ''] = match;
  const whole = intDigits!.replace(/^0+(?=\d)/, '');
  const fraction = fracDigits.replace(/0+$/, '');
  if (fraction.length > MAX_DECIMALS) throw invalid(field, `must have at most ${MAX_DECIMALS} decimal places`);
  const isZero = /^0$/.test(whole) && fraction === '';
  if (sign === '-' && !isZero) throw invalid(field, 'must be between 0 and 100');
  if (whole.length > 3 || Number(whole) > 100 || (Number(whole) === 100 && fraction !== '')) {
    throw invalid(field, 'must be between 0 and 100');
  }
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * `base` with the bands `input` gives replaced (checked with parseNetRate, each named
 * `<field>.<band>`); bands left out, null or undefined keep their rate in `base`. Keys that are
 * not bands are ignored, as unknown fields of a request are.
 */
export function mergeNetRates(base: NetRates, input: Readonly<Record<string, unknown>> | null | undefined, field = 'rates'): NetRates {
  if (!input) return base;
  const merged: Record<NetRateBand, string> = { ...base };
  for (const band of NET_RATE_BANDS) {
    const value = input[band];
    if (value !== undefined && value !== null) merged[band] = parseNetRate(value, `${field}.${band}`);
  }
  return merged;
}

/** Rates as stored (JSON of decimal strings); a band missing from the text takes its default. */
export function parseStoredNetRates(json: string): NetRates {
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    stored = {};
  }
  const record = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const rates: Record<NetRateBand, string> = { ...DEFAULT_NET_RATES };
  for (const band of NET_RATE_BANDS) if (typeof record[band] === 'string') rates[band] = record[band];
  return rates;
}

/** Rates as the `rates` column stores them: JSON of decimal strings, in band order. */
export function storedNetRates(rates: NetRates): string {
  return JSON.stringify(Object.fromEntries(NET_RATE_BANDS.map((band) => [band, rates[band]])));
}

/**
 * Rates as the wire shows them (`DiscountSettingsDto`: numbers). A decimal of at most 2 places
 * and at most 100 converts to the double whose JSON text is that decimal again.
 */
export function netRatesToWire(rates: NetRates): Record<NetRateBand, number> {
  return Object.fromEntries(NET_RATE_BANDS.map((band) => [band, Number(rates[band])])) as Record<NetRateBand, number>;
}
