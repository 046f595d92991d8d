import { describe, expect, it } from 'vitest';
import {
  CUSTOM_FIELD_TYPES,
  CustomFieldRuleError,
  MAX_OPTIONS_PER_FIELD,
  deprecationMove,
  isSelectType,
  planOptionEdits,
  requiredFromAfter,
  validateNewOptions,
} from './custom-field-rules.js';
import type { CustomFieldType, ExistingOption, OptionEdits } from './custom-field-rules.js';

function ruleError(run: () => unknown): { code: string; field: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof CustomFieldRuleError) return { code: error.code, field: error.field };
    throw error;
  }
}

describe('option state machine', () => {
  it.each([
    ['ACTIVE', true, 'DEPRECATE'],
    ['ACTIVE', false, 'UNCHANGED'],
    ['DEPRECATED', false, 'REACTIVATE'],
    ['DEPRECATED', true, 'UNCHANGED'],
  ] as const)('%s with deprecated=%s -> %s', (state, deprecated, move) => {
    expect(deprecationMove(state, deprecated)).toBe(move);
  });
});

describe('requiredFrom', () => {
  const before = '2026-01-01T00:00:00.000Z';
  const now = '2026-11-21T12:00:00.000Z';
  it.each([
    ['off -> on starts now', false, null, true, now],
    ['on -> on keeps the moment', true, before, true, before],
    ['on (without a moment) -> on starts now', true, null, true, now],
    ['on -> off clears it', true, before, false, null],
    ['off -> off stays null', false, null, false, null],
  ] as const)('%s', (_what, wasRequired, from, required, expected) => {
    expect(requiredFromAfter(wasRequired, from, required, now)).toBe(expected);
  });
});

describe('options of a new field', () => {
  it('select types are exactly SINGLE_SELECT and MULTI_SELECT', () => {
    expect(CUSTOM_FIELD_TYPES.filter(isSelectType)).toEqual(['MULTI_SELECT', 'SINGLE_SELECT']);
  });

  const cases: [string, CustomFieldType, string[] | undefined, string[] | { code: string; field: string }][] = [
    ['a select field with options', 'SINGLE_SELECT', ['Low', 'High'], ['Low', 'High']],
    ['values are trimmed', 'MULTI_SELECT', ['  Low ', 'High'], ['Low', 'High']],
    ['a select field without options', 'MULTI_SELECT', [], { code: 'OptionsRequired', field: 'options' }],
    ['a select field with options absent', 'SINGLE_SELECT', undefined, { code: 'OptionsRequired', field: 'options' }],
    ['a blank value', 'SINGLE_SELECT', ['Low', '  '], { code: 'InvalidOptionValue', field: 'options[1]' }],
    ['a value of 256 characters', 'SINGLE_SELECT', ['x'.repeat(256)], { code: 'InvalidOptionValue', field: 'options[0]' }],
    ['a value of 255 characters', 'SINGLE_SELECT', ['x'.repeat(255)], ['x'.repeat(255)]],
    ['the same value twice, ignoring case', 'MULTI_SELECT', ['Low', 'LOW'], { code: 'DuplicateOptionValue', field: 'options[1]' }],
    ['options on a STRING field', 'STRING', ['a'], { code: 'OptionsNotAllowed', field: 'options' }],
    ['options on a DATE field', 'DATE', ['a'], { code: 'OptionsNotAllowed', field: 'options' }],
    ['no options on a NUMBER field', 'NUMBER', [], []],
    ['no options on a URL field', 'URL', undefined, []],
  ];
  it.each(cases)('%s', (_what, type, options, expected) => {
    if (Array.isArray(expected)) expect(validateNewOptions(type, options)).toEqual(expected);
    else expect(ruleError(() => validateNewOptions(type, options))).toEqual(expected);
  });

  it(`refuses more than ${MAX_OPTIONS_PER_FIELD} options`, () => {
    const many = Array.from({ length: MAX_OPTIONS_PER_FIELD + 1 }, (_, i) => `o${i}`);
    expect(ruleError(() => validateNewOptions('MULTI_SELECT', many))?.code).toBe('TooManyOptions');
    expect(validateNewOptions('MULTI_SELECT', many.slice(1))).toHaveLength(MAX_OPTIONS_PER_FIELD);
  });
});

describe('option edits', () => {
  const existing: ExistingOption[] = [
    { uid: 'a', value: 'Alpha', deprecated: false },
    { uid: 'b', value: 'Beta', deprecated: true },
    { uid: 'c', value: 'Gamma', deprecated: false },
  ];

  const ok: [string, OptionEdits, Partial<ReturnType<typeof planOptionEdits>>][] = [
    ['nothing', {}, { add: [], update: [], remove: [], deprecate: [], reactivate: [], count: 3 }],
    ['add one', { addOptions: [' Delta '] }, { add: ['Delta'], count: 4 }],
    ['rename one', { updateOptions: [{ uid: 'a', value: 'Alef' }] }, { update: [{ uid: 'a', value: 'Alef' }], count: 3 }],
    ['change the case of a value', { updateOptions: [{ uid: 'a', value: 'ALPHA' }] }, { update: [{ uid: 'a', value: 'ALPHA' }] }],
    [
      'swap two values',
      {
        updateOptions: [
          { uid: 'a', value: 'Gamma' },
          { uid: 'c', value: 'Alpha' },
        ],
      },
      { count: 3 },
    ],
    ['remove one and reuse its value', { removeOptions: ['a'], addOptions: ['alpha'] }, { remove: ['a'], add: ['alpha'], count: 3 }],
    ['remove all but one', { removeOptions: ['a', 'b'] }, { count: 1 }],
    ['deprecate an active option', { deprecateOptions: ['a'] }, { deprecate: ['a'] }],
    ['deprecate a deprecated option (no change)', { deprecateOptions: ['b'] }, { deprecate: [] }],
    ['reactivate a deprecated option', { undeprecateOptions: ['b'] }, { reactivate: ['b'] }],
    ['reactivate an active option (no change)', { undeprecateOptions: ['a'] }, { reactivate: [] }],
    [
      'rename and deprecate one option',
      { updateOptions: [{ uid: 'a', value: 'Old alpha' }], deprecateOptions: ['a'] },
      { deprecate: ['a'] },
    ],
  ];
  it.each(ok)('allows: %s', (_what, edits, expected) => {
    expect(planOptionEdits('MULTI_SELECT', existing, edits)).toMatchObject(expected);
  });

  const refused: [string, CustomFieldType, OptionEdits, { code: string; field: string }][] = [
    ['options on a STRING field', 'STRING', { addOptions: ['x'] }, { code: 'OptionsNotAllowed', field: 'addOptions' }],
    ['removing options of a NUMBER field', 'NUMBER', { removeOptions: ['a'] }, { code: 'OptionsNotAllowed', field: 'removeOptions' }],
    ['an unknown uid', 'SINGLE_SELECT', { removeOptions: ['zzz'] }, { code: 'OptionNotFound', field: 'removeOptions[0]' }],
    [
      'an unknown uid to rename',
      'SINGLE_SELECT',
      { updateOptions: [{ uid: 'zzz', value: 'x' }] },
      { code: 'OptionNotFound', field: 'updateOptions[0]' },
    ],
    [
      'an unknown uid to deprecate',
      'SINGLE_SELECT',
      { deprecateOptions: ['zzz'] },
      { code: 'OptionNotFound', field: 'deprecateOptions[0]' },
    ],
    [
      'a uid twice in one list',
      'SINGLE_SELECT',
      { removeOptions: ['a', 'a'] },
      { code: 'ConflictingOptionEdits', field: 'removeOptions[1]' },
    ],
    [
      'renaming a removed option',
      'SINGLE_SELECT',
      { removeOptions: ['a'], updateOptions: [{ uid: 'a', value: 'x' }] },
      { code: 'ConflictingOptionEdits', field: 'updateOptions[0]' },
    ],
    [
      'deprecating a removed option',
      'SINGLE_SELECT',
      { removeOptions: ['a'], deprecateOptions: ['a'] },
      { code: 'ConflictingOptionEdits', field: 'deprecateOptions[0]' },
    ],
    [
      'deprecating and reactivating one option',
      'SINGLE_SELECT',
      { deprecateOptions: ['b'], undeprecateOptions: ['b'] },
      { code: 'ConflictingOptionEdits', field: 'undeprecateOptions[0]' },
    ],
    [
      'adding an existing value in another case',
      'SINGLE_SELECT',
      { addOptions: ['ALPHA'] },
      { code: 'DuplicateOptionValue', field: 'addOptions[0]' },
    ],
    ['adding a value twice', 'SINGLE_SELECT', { addOptions: ['Delta', 'delta'] }, { code: 'DuplicateOptionValue', field: 'addOptions[1]' }],
    [
      "renaming onto another option's value",
      'SINGLE_SELECT',
      { updateOptions: [{ uid: 'c', value: 'beta' }] },
      { code: 'DuplicateOptionValue', field: 'updateOptions[0].value' },
    ],
    ['a blank new value', 'SINGLE_SELECT', { addOptions: [' '] }, { code: 'InvalidOptionValue', field: 'addOptions[0]' }],
    [
      'a blank rename',
      'SINGLE_SELECT',
      { updateOptions: [{ uid: 'a', value: '' }] },
      { code: 'InvalidOptionValue', field: 'updateOptions[0].value' },
    ],
    ['removing every option', 'MULTI_SELECT', { removeOptions: ['a', 'b', 'c'] }, { code: 'OptionsRequired', field: 'removeOptions' }],
  ];
  it.each(refused)('refuses: %s', (_what, type, edits, expected) => {
    expect(ruleError(() => planOptionEdits(type, isSelectType(type) ? existing : [], edits))).toEqual(expected);
  });

  it('refuses growing past the most options a field may have', () => {
    const full = Array.from({ length: MAX_OPTIONS_PER_FIELD }, (_, i) => ({ uid: `u${i}`, value: `v${i}`, deprecated: false }));
    expect(ruleError(() => planOptionEdits('MULTI_SELECT', full, { addOptions: ['one more'] }))?.code).toBe('TooManyOptions');
    expect(planOptionEdits('MULTI_SELECT', full, { removeOptions: ['u0'], addOptions: ['one more'] }).count).toBe(MAX_OPTIONS_PER_FIELD);
  });
});
