/**
 * Exact decimal arithmetic for money and rates (price lists, net rate schemes, quotes): a value
 * is an integer number of units (`units`, a BigInt) at a decimal scale (`scale` digits after the
 * point), so `12.50` is `{ units: 1250n, scale: 2 }`. No binary floating point anywhere: money
 * is stored as decimal strings and computed here.
 *
 * A JSON number reaches the API as a JavaScript number; `String(n)` is its shortest round-trip
 * text, which is the decimal the client wrote whenever that decimal has at most 15 significant
 * digits (every such decimal converts to a double and back unchanged). `decimalFromNumber`
 * relies on that; amounts are limited to 15 significant digits (`checkAmount`) so that the
 * guarantee holds both ways (the response's JSON number is the stored decimal).
 */

export interface Decimal {
  /** The value times 10^scale. */
  readonly units: bigint;
  /** Digits after the decimal point (>= 0). */
  readonly scale: number;
}

/** What `parseDecimal` accepts: an optional sign, digits with an optional fraction, an optional exponent. */
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;
/** Exponents beyond this are refused (they would build enormous integers). */
const MAX_EXPONENT = 400;

export const ZERO: Decimal = { units: 0n, scale: 0 };

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** The decimal that `text` writes (`"12.5"`, `"-0.001"`, `"1e-7"`, `".5"`), or null when it is no decimal number. */
export function tryParseDecimal(text: string): Decimal | null {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return null;
  const [, sign, whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return null;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return null;
  let units = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return normalize({ units: sign === '-' ? -units : units, scale });
}

/** The decimal that `text` writes; throws a RangeError when it is no decimal number. */
export function parseDecimal(text: string): Decimal {
  const value = tryParseDecimal(text);
  if (value === null) throw new RangeError(`"${text}" is not a decimal number`);
  return value;
}

/** The decimal a finite JavaScript number stands for, through its shortest round-trip text (see the file comment). */
export function decimalFromNumber(n: number): Decimal {
  if (!Number.isFinite(n)) throw new RangeError(`${n} is not a finite number`);
  return parseDecimal(String(n));
}

/** The same value with no trailing zeros after the point (`12.50` -> `12.5`, `3.000` -> `3`). */
export function normalize(value: Decimal): Decimal {
  let { units, scale } = value;
  if (units === 0n) return ZERO;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

/** The same value at a larger scale (`rescale(1.5, 3)` = 1.500). */
function rescale(value: Decimal, scale: number): Decimal {
  return scale <= value.scale ? value : { units: value.units * pow10(scale - value.scale), scale };
}

/** Plain decimal text, never an exponent: `1.5`, `-0.25`, `1000`; with `places`, exactly that many fraction digits (rounded half-up). */
export function formatDecimal(value: Decimal, places?: number): string {
  const shown = places === undefined ? normalize(value) : rescale(roundHalfUp(value, places), places);
  const negative = shown.units < 0n;
  const digits = (negative ? -shown.units : shown.units).toString().padStart(shown.scale + 1, '0');
  const whole = digits.slice(0, digits.length - shown.scale);
  const fraction = digits.slice(digits.length - shown.scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return normalize({ units: rescale(a, scale).units + rescale(b, scale).units, scale });
}

export function subtractDecimals(a: Decimal, b: Decimal): Decimal {
  return addDecimals(a, { units: -b.units, scale: b.scale });
}

export function multiplyDecimals(a: Decimal, b: Decimal): Decimal {
  return normalize({ units: a.units * b.units, scale: a.scale + b.scale });
}

/**
 * `value` rounded to `places` digits after the point, half away from zero (commercial rounding,
 * Java's HALF_UP): 2.345 -> 2.35, -2.345 -> -2.35, 2.344 -> 2.34.
 */
export function roundHalfUp(value: Decimal, places: number): Decimal {
  if (!Number.isInteger(places) || places < 0) throw new RangeError(`places must be a whole number >= 0, not ${places}`);
  if (value.scale <= places) return normalize(value);
  const divisor = pow10(value.scale - places);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return normalize({ units: negative ? -quotient : quotient, scale: places });
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale).units;
  const y = rescale(b, scale).units;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Digits after the point once trailing zeros are dropped (`12.50` -> 1). */
export function decimalPlaces(value: Decimal): number {
  return normalize(value).scale;
}

/** Significant digits once trailing zeros after the point are dropped: `0.0012` -> 2, `1200` -> 4, `12.50` -> 3, `0` -> 1. */
export function significantDigits(value: Decimal): number {
  const { units } = normalize(value);
  return units === 0n ? 1 : (units < 0n ? -units : units).toString().length;
}

/** The number closest to `value` (for JSON output; exact for up to 15 significant digits). */
export function decimalToNumber(value: Decimal): number {
  return Number(formatDecimal(value));
}

export interface AmountRules {
  /** Most digits after the point. */
  maxPlaces: number;
  /** Most significant digits. */
  maxDigits: number;
  /** Whether negative amounts are allowed (default: no). */
  allowNegative?: boolean;
}

/** Money amounts of price lists: at most 4 decimal places and 15 significant digits, not negative. */
export const MONEY_RULES: AmountRules = { maxPlaces: 4, maxDigits: 15 };

/**
 * Checks an amount as a client sent it: a JSON number (read through its shortest round-trip
 * text) or a string holding a decimal. Returns the decimal, or the reason it is refused (for a
 * 400 that names the field).
 */
export function checkAmount(input: number | string, rules: AmountRules = MONEY_RULES): { value: Decimal } | { reason: string } {
  let value: Decimal | null;
  if (typeof input === 'number') value = Number.isFinite(input) ? tryParseDecimal(String(input)) : null;
  else value = tryParseDecimal(input);
  if (value === null) return { reason: 'must be a decimal number' };
  if (!rules.allowNegative && value.units < 0n) return { reason: 'must not be negative' };
  if (decimalPlaces(value) > rules.maxPlaces) return { reason: `must have at most ${rules.maxPlaces} decimal places` };
  if (significantDigits(value) > rules.maxDigits) return { reason: `must have at most ${rules.maxDigits} significant digits` };
  return { value };
}
