import { describe, expect, it } from 'vitest';
import { CustomFieldRuleError } from './custom-field-rules.js';
import type { CustomFieldType } from './custom-field-rules.js';
import {
  VALUE_MAX_LENGTH,
  assertSettableOptions,
  normalizeFieldValue,
  settableFieldValue,
  valueRequiredFor,
} from './custom-field-values.js';
import type { CustomFieldDefinition } from './custom-field-values.js';

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof CustomFieldRuleError) return error.code;
    throw error;
  }
}

const options = [
  { uid: 'low', deprecated: false },
  { uid: 'mid', deprecated: false },
  { uid: 'old', deprecated: true },
];
const field = (type: CustomFieldType, more: Partial<CustomFieldDefinition> = {}): CustomFieldDefinition => ({
  type,
  required: false,
  requiredFrom: null,
  options: type === 'SINGLE_SELECT' || type === 'MULTI_SELECT' ? options : [],
  ...more,
});

describe('assertSettableOptions', () => {
  const cases: [string, CustomFieldType, string[], string[], string | null][] = [
    ['one active option on a new record', 'SINGLE_SELECT', [], ['low'], null],
    ['no option', 'SINGLE_SELECT', [], [], null],
    ['several options of a MULTI_SELECT', 'MULTI_SELECT', [], ['low', 'mid'], null],
    ['two options of a SINGLE_SELECT', 'SINGLE_SELECT', [], ['low', 'mid'], 'TooManySelectedOptions'],
    ['a deprecated option, newly', 'SINGLE_SELECT', [], ['old'], 'OptionDeprecated'],
    ['a deprecated option, newly, next to one the record had', 'MULTI_SELECT', ['low'], ['low', 'old'], 'OptionDeprecated'],
    ['a deprecated option the record already has', 'SINGLE_SELECT', ['old'], ['old'], null],
    ['a deprecated option kept while adding an active one', 'MULTI_SELECT', ['old'], ['old', 'mid'], null],
    ['dropping a deprecated option', 'MULTI_SELECT', ['old', 'low'], ['low'], null],
    ['an option of another field', 'MULTI_SELECT', [], ['elsewhere'], 'OptionNotFound'],
    ['the same option twice', 'MULTI_SELECT', [], ['low', 'low'], 'DuplicateSelectedOption'],
    ['options on a STRING field', 'STRING', [], ['low'], 'OptionsNotAllowed'],
    ['no options on a NUMBER field', 'NUMBER', [], [], null],
  ];
  it.each(cases)('%s', (_what, type, previous, requested, expected) => {
    expect(codeOf(() => assertSettableOptions(field(type), previous, requested))).toBe(expected);
  });

  it('a reactivated option may be newly set again', () => {
    const reactivated = { type: 'SINGLE_SELECT' as const, options: [{ uid: 'old', deprecated: false }] };
    expect(codeOf(() => assertSettableOptions(reactivated, [], ['old']))).toBeNull();
  });
});

describe('normalizeFieldValue', () => {
  const cases: [CustomFieldType, string | null | undefined, string | null | { error: string }][] = [
    ['STRING', 'free text', 'free text'],
    ['STRING', '', null],
    ['STRING', null, null],
    ['STRING', undefined, null],
    ['STRING', 'x'.repeat(VALUE_MAX_LENGTH), 'x'.repeat(VALUE_MAX_LENGTH)],
    ['STRING', 'x'.repeat(VALUE_MAX_LENGTH + 1), { error: 'ValueTooLong' }],
    ['NUMBER', '42', '42'],
    ['NUMBER', ' -3.5 ', '-3.5'],
    ['NUMBER', '1e3', '1e3'],
    ['NUMBER', '.5', '.5'],
    ['NUMBER', 'twelve', { error: 'InvalidNumber' }],
    ['NUMBER', '1,5', { error: 'InvalidNumber' }],
    ['NUMBER', 'Infinity', { error: 'InvalidNumber' }],
    ['NUMBER', '0x10', { error: 'InvalidNumber' }],
    ['NUMBER', '1e999', { error: 'InvalidNumber' }],
    ['URL', 'https://example.test/path?q=1', 'https://example.test/path?q=1'],
    ['URL', 'http://example.test', 'http://example.test'],
    ['URL', 'ftp://example.test/file', { error: 'InvalidUrl' }],
    ['URL', 'javascript:alert(1)', { error: 'InvalidUrl' }],
    ['URL', 'example.test/no-scheme', { error: 'InvalidUrl' }],
    ['DATE', '2026-11-21T12:00:00Z', '2026-11-21T12:00:00.000Z'],
    ['DATE', '2026-11-21T12:00:00.5+01:00', '2026-11-21T11:00:00.500Z'],
    ['DATE', '2026-11-21T12:00Z', '2026-11-21T12:00:00.000Z'],
    ['DATE', '2026-11-21', { error: 'InvalidDate' }],
    ['DATE', '2026-11-21T12:00:00', { error: 'InvalidDate' }],
    ['DATE', '2026-02-30T12:00:00Z', { error: 'InvalidDate' }],
    ['DATE', '2026-11-21T24:00:00Z', { error: 'InvalidDate' }],
    ['DATE', 'tomorrow', { error: 'InvalidDate' }],
    ['SINGLE_SELECT', 'low', { error: 'ValueNotAllowed' }],
    ['MULTI_SELECT', '', null],
  ];
  it.each(cases)('%s %j', (type, value, expected) => {
    if (expected !== null && typeof expected === 'object') expect(codeOf(() => normalizeFieldValue({ type }, value))).toBe(expected.error);
    else expect(normalizeFieldValue({ type }, value)).toBe(expected);
  });
});

describe('required fields', () => {
  const since = '2026-06-01T00:00:00.000Z';
  it.each([
    ['not required', { required: false, requiredFrom: null }, '2026-07-01T00:00:00.000Z', false],
    ['required, record created after', { required: true, requiredFrom: since }, '2026-07-01T00:00:00.000Z', true],
    ['required, record created at the moment', { required: true, requiredFrom: since }, since, true],
    ['required, record created before', { required: true, requiredFrom: since }, '2026-05-31T23:59:59.999Z', false],
    ['required without a moment', { required: true, requiredFrom: null }, '2020-01-01T00:00:00.000Z', true],
  ] as const)('%s', (_what, rule, createdAt, expected) => {
    expect(valueRequiredFor(rule, createdAt)).toBe(expected);
  });

  it('settableFieldValue refuses an empty value where required, and accepts it on older records', () => {
    const required = field('NUMBER', { required: true, requiredFrom: since });
    expect(codeOf(() => settableFieldValue(required, null, { value: '' }, '2026-07-01T00:00:00.000Z'))).toBe('ValueRequired');
    expect(settableFieldValue(required, null, {}, '2026-01-01T00:00:00.000Z')).toEqual({ selectedOptionUids: [], value: null });
    expect(settableFieldValue(required, null, { value: '7' }, '2026-07-01T00:00:00.000Z')).toEqual({ selectedOptionUids: [], value: '7' });
  });

  it("settableFieldValue applies the option rules with the record's previous options", () => {
    const select = field('MULTI_SELECT', { required: true, requiredFrom: since });
    expect(codeOf(() => settableFieldValue(select, null, { selectedOptionUids: ['old'] }, since))).toBe('OptionDeprecated');
    expect(settableFieldValue(select, { selectedOptionUids: ['old'], value: null }, { selectedOptionUids: ['old', 'low'] }, since)).toEqual(
      {
        selectedOptionUids: ['old', 'low'],
        value: null,
      },
    );
    expect(codeOf(() => settableFieldValue(select, null, { selectedOptionUids: [] }, since))).toBe('ValueRequired');
    expect(codeOf(() => settableFieldValue(select, null, { value: 'low' }, since))).toBe('ValueNotAllowed');
  });
});
