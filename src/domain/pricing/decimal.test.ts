import { describe, expect, it } from 'vitest';
import {
  addDecimals,
  checkAmount,
  compareDecimals,
  decimalFromNumber,
  decimalPlaces,
  decimalToNumber,
  formatDecimal,
  multiplyDecimals,
  parseDecimal,
  roundHalfUp,
  significantDigits,
  subtractDecimals,
  tryParseDecimal,
} from './decimal.js';

const d = parseDecimal;
const f = formatDecimal;

describe('decimal', () => {
  it.each([
    ['0', '0'],
    ['12', '12'],
    ['12.50', '12.5'],
    ['-0.25', '-0.25'],
    ['+3.000', '3'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['0007.0100', '7.01'],
    ['1e-7', '0.0000001'],
    ['1.5e+21', '1500000000000000000000'],
    ['2.5E3', '2500'],
    ['-0', '0'],
    [' 4.2 ', '4.2'],
  ])('parses %j as %s', (text, expected) => {
    expect(f(d(text))).toBe(expected);
  });

  it.each([[''], ['.'], ['-'], ['1,5'], ['1.2.3'], ['abc'], ['1e'], ['0x10'], ['1e99999'], ['NaN'], ['Infinity']])('refuses %j', (text) => {
    expect(tryParseDecimal(text)).toBeNull();
    expect(() => parseDecimal(text)).toThrow(RangeError);
  });

  it.each([
    [0.1, '0.1'],
    [0.3, '0.3'],
    [1234567890.1234, '1234567890.1234'],
    [123456789012345, '123456789012345'],
    [0.0001, '0.0001'],
    [1e-7, '0.0000001'],
    [-2.5, '-2.5'],
  ])('reads the number %s as %s', (n, expected) => {
    expect(f(decimalFromNumber(n))).toBe(expected);
  });

  it.each([
    ['0.1', '0.2', '0.3'],
    ['1.005', '-0.005', '1'],
    ['99999999999999.9999', '0.0001', '100000000000000'],
    ['-1', '0.25', '-0.75'],
  ])('%s + %s = %s exactly', (a, b, sum) => {
    expect(f(addDecimals(d(a), d(b)))).toBe(sum);
    expect(f(subtractDecimals(d(sum), d(b)))).toBe(f(d(a)));
  });

  it.each([
    ['0.1', '3', '0.3'],
    ['12.5', '0.08', '1'],
    ['1.15', '1.15', '1.3225'],
    ['-2', '0.5', '-1'],
    ['123456789.123', '1000', '123456789123'],
  ])('%s × %s = %s exactly', (a, b, product) => {
    expect(f(multiplyDecimals(d(a), d(b)))).toBe(product);
  });

  it.each([
    ['2.345', 2, '2.35'],
    ['2.344', 2, '2.34'],
    ['-2.345', 2, '-2.35'],
    ['0.5', 0, '1'],
    ['-0.5', 0, '-1'],
    ['0.49999', 0, '0'],
    ['1.005', 2, '1.01'],
    ['7', 3, '7'],
    ['9.9995', 3, '10'],
  ])('rounds %s half-up to %i places: %s', (value, places, expected) => {
    expect(f(roundHalfUp(d(value), places))).toBe(expected);
  });

  it('formats with a fixed number of places', () => {
    expect(f(d('2.5'), 2)).toBe('2.50');
    expect(f(d('2.345'), 2)).toBe('2.35');
    expect(f(d('0'), 4)).toBe('0.0000');
    expect(f(d('-0.05'), 2)).toBe('-0.05');
    expect(f(d('1234'), 0)).toBe('1234');
  });

  it.each([
    ['1', '2', -1],
    ['2.50', '2.5', 0],
    ['-1', '-2', 1],
    ['0.0001', '0', 1],
    ['100', '99.9999', 1],
  ])('compares %s and %s: %i', (a, b, expected) => {
    expect(compareDecimals(d(a), d(b))).toBe(expected);
  });

  it.each([
    ['0', 0, 1],
    ['0.0012', 4, 2],
    ['1200', 0, 4],
    ['12.50', 1, 3],
    ['123456789012345', 0, 15],
  ])('%s has %i decimal places and %i significant digits', (value, places, digits) => {
    expect(decimalPlaces(d(value))).toBe(places);
    expect(significantDigits(d(value))).toBe(digits);
  });

  it('converts to the nearest number', () => {
    expect(decimalToNumber(d('0.3'))).toBe(0.3);
    expect(decimalToNumber(d('1234567890.1234'))).toBe(1234567890.1234);
  });

  it.each([
    [0, '0'],
    [0.1, '0.1'],
    [12.3456, '12.3456'],
    ['12.3400', '12.34'],
    ['99999999999.9999', '99999999999.9999'],
    [100000000000000, '100000000000000'],
  ])('accepts the amount %j as %s', (input, expected) => {
    const checked = checkAmount(input);
    expect(checked).toHaveProperty('value');
    expect(f((checked as { value: ReturnType<typeof d> }).value)).toBe(expected);
  });

  it.each([
    [0.00001, 'at most 4 decimal places'],
    ['0.12345', 'at most 4 decimal places'],
    [-1, 'not be negative'],
    [0.30000000000000004, 'at most 4 decimal places'],
    [1234567890123456, 'at most 15 significant digits'],
    ['999999999999.9999', 'at most 15 significant digits'],
    [1e21, 'at most 15 significant digits'],
    ['12,5', 'decimal number'],
    [Number.NaN, 'decimal number'],
  ])('refuses the amount %j: %s', (input, reason) => {
    const checked = checkAmount(input);
    expect(checked).toHaveProperty('reason');
    expect((checked as { reason: string }).reason).toContain(reason);
  });

  it('allows negative amounts when told to', () => {
    expect(checkAmount(-1.5, { maxPlaces: 2, maxDigits: 15, allowNegative: true })).toHaveProperty('value');
  });
});
