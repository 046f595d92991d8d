import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/index.js';
import {
  CHECKER_TYPES,
  CHECK_TYPES,
  DEFAULT_ENABLED,
  applyQaChecks,
  defaultQaSettings,
  enabledChecksView,
  enabledWarningTypes,
  forbiddenStrings,
  qaChecksView,
  qaSettingsDocument,
  qaSettingsView,
} from './settings.js';
import { QA_CHECK_NAMES, WARNING_TYPES } from './types.js';
import { MAX_QA_REGEXP_LENGTH } from './checks/strings.js';
import type { QaSettings } from './types.js';

let counter = 0;
const newId = () => `rule-${++counter}`;
const edit = (checks: unknown[], base: QaSettings = defaultQaSettings(), extra: Record<string, unknown> = {}) =>
  applyQaChecks(base, checks, { newId, ...extra });

/** The 400 an edit answers: its errorCode and the fields errorDetails name. */
function refusal(run: () => unknown): { code: string; fields: string[]; description: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.status).toBe(400);
    return { code: error.errorCode, fields: error.details.map((d) => d.field ?? ''), description: error.message };
  }
  throw new Error('expected a 400');
}

describe('defaultQaSettings', () => {
  it('has every check, ignorable and not instant, with the documented ones on', () => {
    const settings = defaultQaSettings();
    expect(Object.keys(settings.checks).sort()).toEqual([...QA_CHECK_NAMES].sort());
    for (const name of QA_CHECK_NAMES) {
      expect(settings.checks[name]).toMatchObject({ enabled: DEFAULT_ENABLED.has(name), ignorable: true, instant: false });
    }
    expect(settings.checks.emptyTarget.enabled).toBe(true);
    expect(settings.checks.missingNumber.enabled).toBe(true);
    // Off: length limits (no limit set), forbidden strings (none), flags, regexp (no rules).
    for (const off of ['targetLength', 'forbiddenStringsEnabled', 'strictJobStatus', 'excludeLockedSegments', 'regexp', 'moravia'] as const)
      expect(settings.checks[off].enabled).toBe(false);
    expect(settings.checks.targetLength.value).toBeNull();
    expect(settings.checks.forbiddenStringsEnabled.value).toBe('');
    expect(settings.regexpRules).toEqual([]);
    expect(settings.inconsistencyScope).toBe('JOB');
    expect(settings.customChecks.unbalancedBrackets.enabled).toBe(true);
    expect(settings.customChecks.capitalization.enabled).toBe(false);
  });

  it('returns a new object every time', () => {
    const a = defaultQaSettings();
    a.checks.emptyTarget.enabled = false;
    expect(defaultQaSettings().checks.emptyTarget.enabled).toBe(true);
  });
});

describe('applyQaChecks', () => {
  it('changes only the listed checks and the fields they give (merge)', () => {
    const base = defaultQaSettings();
    const after = edit([{ name: 'emptyTarget', type: 'VOID', ignorable: false }], base);
    expect(after.checks.emptyTarget).toEqual({ enabled: true, ignorable: false, instant: false });
    expect(after.checks.endPunctuation).toEqual(base.checks.endPunctuation);
    // The base is untouched.
    expect(base.checks.emptyTarget.ignorable).toBe(true);
    // A second edit keeps the first one's change.
    const again = edit([{ name: 'emptyTarget', enabled: false }], after);
    expect(again.checks.emptyTarget).toEqual({ enabled: false, ignorable: false, instant: false });
  });

  it('reads the published example', () => {
    const after = edit([
      { ignorable: false, enabled: true, type: 'VOID', instant: false, name: 'emptyTarget' },
      { ignorable: false, enabled: true, value: 12, type: 'NUMBER', name: 'targetLength' },
      { ignorable: false, enabled: true, value: 'ASAP, irony', type: 'STRING', instant: true, name: 'forbiddenStrings' },
      { enabled: true, profile: 'jiris', ignorable: true, type: 'MORAVIA', name: 'moravia' },
      {
        rules: [
          { description: 'Description', sourceRegexp: '.+', targetRegexp: '.+', ignorable: true },
          { description: 'Description', sourceRegexp: 'i+', targetRegexp: 'e+', ignorable: false },
        ],
        type: 'REGEX',
        name: 'regexp',
      },
      { enabled: true, ignorable: true, type: 'VOID', name: 'customQa' },
    ]);
    expect(after.checks.targetLength).toEqual({ enabled: true, ignorable: false, instant: false, value: 12 });
    expect(after.checks.forbiddenStringsEnabled).toEqual({ enabled: true, ignorable: false, instant: true, value: 'ASAP, irony' });
    expect(forbiddenStrings(after)).toEqual(['ASAP', 'irony']);
    expect(after.moraviaProfile).toBe('jiris');
    expect(after.checks.moravia.enabled).toBe(true);
    expect(after.checks.regexp.enabled).toBe(true);
    expect(after.regexpRules.map((r) => [r.sourceRegexp, r.targetRegexp, r.ignorable, r.instant])).toEqual([
      ['.+', '.+', true, false],
      ['i+', 'e+', false, false],
    ]);
    expect(new Set(after.regexpRules.map((r) => r.id)).size).toBe(2);
    expect(Object.values(after.customChecks).every((c) => c.enabled && c.ignorable)).toBe(true);
  });

  // [value sent, value stored]
  const numbers: [unknown, number][] = [
    [0, 0],
    [12, 12],
    [150.5, 150.5],
    ['12', 12],
    [' 7 ', 7],
    ['2.5', 2.5],
  ];
  it.each(numbers)('takes the NUMBER value %j as %j', (sent, stored) => {
    expect(edit([{ name: 'relativeTargetLength', type: 'NUMBER', enabled: true, value: sent }]).checks.relativeTargetLength.value).toBe(
      stored,
    );
  });

  it('keeps a NUMBER value when the edit leaves it out or sends null', () => {
    const set = edit([{ name: 'absoluteTargetLength', enabled: true, value: 40 }]);
    expect(edit([{ name: 'absoluteTargetLength', ignorable: false }], set).checks.absoluteTargetLength.value).toBe(40);
    expect(edit([{ name: 'absoluteTargetLength', value: null }], set).checks.absoluteTargetLength.value).toBe(40);
  });

  it('keeps REGEX rule ids it is given and gives the others one', () => {
    const first = edit([{ name: 'regexp', type: 'REGEX', rules: [{ sourceRegexp: '\\d+', description: 'digits' }] }]);
    const id = first.regexpRules[0]!.id;
    const second = edit(
      [
        {
          name: 'regexp',
          rules: [
            { id, sourceRegexp: '\\d+', instant: true },
            { targetRegexp: '(?i)foo', ignorable: false },
          ],
        },
      ],
      first,
    );
    expect(second.regexpRules[0]).toEqual({
      id,
      description: '',
      sourceRegexp: '\\d+',
      targetRegexp: null,
      ignorable: true,
      instant: true,
    });
    expect(second.regexpRules[1]!.id).not.toBe(id);
    // Rules are the list: an empty list removes them and switches the check off (unless it says enabled).
    const none = edit([{ name: 'regexp', rules: [] }], second);
    expect(none.regexpRules).toEqual([]);
    expect(none.checks.regexp.enabled).toBe(false);
    // Other checks leave the rules alone.
    expect(edit([{ name: 'emptyTarget', enabled: false }], second).regexpRules).toEqual(second.regexpRules);
  });

  it('switches the custom checks one by one (customChecks) and the inconsistency scope', () => {
    const after = edit([], defaultQaSettings(), {
      customChecks: [
        { name: 'capitalization', enabled: true },
        { name: 'placeholders', enabled: false, ignorable: false },
      ],
      inconsistencyScope: 'PROJECT',
    });
    expect(after.customChecks.capitalization).toEqual({ enabled: true, ignorable: true });
    expect(after.customChecks.placeholders).toEqual({ enabled: false, ignorable: false });
    expect(after.customChecks.unbalancedBrackets).toEqual({ enabled: true, ignorable: true });
    expect(after.inconsistencyScope).toBe('PROJECT');
  });

  // [checks, extension fields, field named, description contains]
  const refused: [string, unknown[], Record<string, unknown>, string, string?][] = [
    ['an unknown name', [{ name: 'emptyTarget' }, { name: 'noSuchCheck', type: 'VOID' }], {}, 'checks[1].name', 'noSuchCheck'],
    ['no name', [{ type: 'VOID', enabled: true }], {}, 'checks[0].name'],
    ['a name of Object.prototype', [{ name: 'toString' }], {}, 'checks[0].name'],
    ['a check that is no object', [{ name: 'emptyTarget' }, 'emptyTarget'], {}, 'checks[1]'],
    ['a type not the name’s', [{ name: 'targetLength', type: 'VOID', enabled: true, value: 3 }], {}, 'checks[0].type', 'NUMBER'],
    ['an unknown type', [{ name: 'emptyTarget', type: 'BOOLEAN' }], {}, 'checks[0].type'],
    ['a flag that is not a boolean', [{ name: 'emptyTarget', enabled: 'yes' }], {}, 'checks[0].enabled'],
    ['a negative number', [{ name: 'targetLength', type: 'NUMBER', enabled: true, value: -1 }], {}, 'checks[0].value'],
    ['a negative numeric text', [{ name: 'targetLength', enabled: true, value: '-5' }], {}, 'checks[0].value'],
    ['a number that is text', [{ name: 'targetLengthPercent', enabled: true, value: 'ten' }], {}, 'checks[0].value'],
    ['an enabled NUMBER check without a value', [{ name: 'targetLength', enabled: true }], {}, 'checks[0].value'],
    ['a STRING value that is not text', [{ name: 'forbiddenStringsEnabled', value: 3 }], {}, 'checks[0].value'],
    ['rules that are not a list', [{ name: 'regexp', rules: { sourceRegexp: 'a' } }], {}, 'checks[0].rules'],
    ['a rule without expressions', [{ name: 'regexp', rules: [{ sourceRegexp: 'a' }, { description: 'x' }] }], {}, 'checks[0].rules[1]'],
    [
      'a source expression that does not compile',
      [{ name: 'emptyTarget' }, { name: 'regexp', rules: [{ sourceRegexp: 'a' }, { sourceRegexp: '(unclosed' }] }],
      {},
      'checks[1].rules[1].sourceRegexp',
      'checks[1].rules[1].sourceRegexp',
    ],
    [
      'a target expression Java has but OpenTMS cannot run',
      [{ name: 'regexp', rules: [{ sourceRegexp: 'a', targetRegexp: '[a&&b]' }] }],
      {},
      'checks[0].rules[0].targetRegexp',
    ],
    [
      'a repeated rule id',
      [
        {
          name: 'regexp',
          rules: [
            { id: 'x', sourceRegexp: 'a' },
            { id: 'x', sourceRegexp: 'b' },
          ],
        },
      ],
      {},
      'checks[0].rules[1].id',
    ],
    ['a profile that is not text', [{ name: 'moravia', profile: 1 }], {}, 'checks[0].profile'],
    ['an unknown custom check', [], { customChecks: [{ name: 'grammar', enabled: true }] }, 'customChecks[0].name'],
    ['customChecks that is no list', [], { customChecks: { capitalization: true } }, 'customChecks'],
    ['an unknown scope', [], { inconsistencyScope: 'ORGANIZATION' }, 'inconsistencyScope'],
  ];
  it.each(refused)('refuses %s with a 400 naming it', (_, checks, extra, field, text) => {
    const base = defaultQaSettings();
    const before = structuredClone(base);
    const { code, fields, description } = refusal(() => edit(checks, base, extra));
    expect(code).toBe('InvalidArguments');
    expect(fields).toEqual([field]);
    if (text) expect(description).toContain(text);
    expect(base).toEqual(before);
  });

  it('uses the compiler it is given, naming the rule when the error names no side', () => {
    const compile = (rule: { targetRegexp: string | null }) => {
      if (rule.targetRegexp === 'bad') throw new Error('no');
    };
    expect(
      refusal(() => applyQaChecks(defaultQaSettings(), [{ name: 'regexp', rules: [{ targetRegexp: 'bad' }] }], { compile })).fields,
    ).toEqual(['checks[0].rules[0]']);
  });

  it('refuses an expression longer than a run compiles', () => {
    expect(refusal(() => edit([{ name: 'regexp', rules: [{ sourceRegexp: 'a'.repeat(MAX_QA_REGEXP_LENGTH + 1) }] }])).fields).toEqual([
      'checks[0].rules[0].sourceRegexp',
    ]);
  });
});

describe('qaSettingsDocument', () => {
  it('reads what an edit stores, through JSON', () => {
    const edited = edit([
      { name: 'targetLength', enabled: true, value: 30 },
      { name: 'regexp', rules: [{ sourceRegexp: 'a', description: 'd' }] },
      { name: 'moravia', profile: 'p' },
    ]);
    expect(qaSettingsDocument(JSON.parse(JSON.stringify(edited)))).toEqual(edited);
  });

  // [stored, what differs from the defaults]
  const tolerant: [string, unknown, (s: QaSettings) => unknown, unknown][] = [
    ['nothing', undefined, (s) => s, defaultQaSettings()],
    ['an array', [], (s) => s, defaultQaSettings()],
    ['a flag of the wrong type', { checks: { emptyTarget: { enabled: 'no' } } }, (s) => s.checks.emptyTarget.enabled, true],
    ['a negative limit', { checks: { targetLength: { value: -3 } } }, (s) => s.checks.targetLength.value, null],
    ['an unknown check', { checks: { nope: { enabled: true } } }, (s) => Object.keys(s.checks).length, QA_CHECK_NAMES.length],
    ['a rule without id', { regexpRules: [{ sourceRegexp: 'a' }] }, (s) => s.regexpRules, []],
    ['an unknown scope', { inconsistencyScope: 'X' }, (s) => s.inconsistencyScope, 'JOB'],
  ];
  it.each(tolerant)('falls back to the defaults for %s', (_, stored, pick, expected) => {
    expect(pick(qaSettingsDocument(stored))).toEqual(expected);
  });
});

describe('views', () => {
  it('shows every check once with its type (QASettingsDtoV2)', () => {
    const view = qaChecksView(edit([{ name: 'targetLength', enabled: true, value: 5 }]));
    expect(view.map((c) => c.name)).toEqual([...QA_CHECK_NAMES]);
    for (const check of view) expect(check.type).toBe(CHECK_TYPES[check.name]);
    expect(view.find((c) => c.name === 'emptyTarget')).toEqual({
      type: 'VOID',
      name: 'emptyTarget',
      enabled: true,
      ignorable: true,
      instant: false,
    });
    expect(view.find((c) => c.name === 'targetLength')).toEqual({
      type: 'NUMBER',
      name: 'targetLength',
      enabled: true,
      ignorable: true,
      instant: false,
      value: 5,
    });
    // Unset limits are left out; the STRING check always has its text.
    expect(view.find((c) => c.name === 'absoluteTargetLength')).not.toHaveProperty('value');
    expect(view.find((c) => c.name === 'forbiddenStringsEnabled')).toMatchObject({ type: 'STRING', value: '' });
    expect(view.find((c) => c.name === 'regexp')).toEqual({ type: 'REGEX', name: 'regexp', enabled: false, rules: [] });
    expect(view.find((c) => c.name === 'moravia')).toEqual({
      type: 'MORAVIA',
      name: 'moravia',
      enabled: false,
      ignorable: true,
      instant: false,
    });
  });

  it('adds the extension fields', () => {
    const view = qaSettingsView(defaultQaSettings());
    expect(view.inconsistencyScope).toBe('JOB');
    expect(view.customChecks).toContainEqual({ name: 'capitalization', enabled: false, ignorable: true });
  });

  it('lists the running checks under their checker types (QualityAssuranceChecksDtoV2)', () => {
    const settings = edit(
      [
        { name: 'emptyTarget', ignorable: false, instant: true },
        { name: 'missingNumber', enabled: true },
        { name: 'inconsistentTranslation', enabled: true },
        { name: 'forbiddenStringsEnabled', enabled: true, value: ' ASAP ,, irony ' },
        { name: 'strictJobStatus', enabled: true },
        { name: 'targetLengthPercent', enabled: false, value: 120 },
        { name: 'absoluteTargetLength', enabled: true, value: 80 },
        { name: 'regexp', rules: [{ sourceRegexp: '\\d', id: 'r1' }] },
        { name: 'moravia', enabled: true, profile: 'prof' },
      ],
      defaultQaSettings(),
      { customChecks: [{ name: 'capitalization', enabled: true }] },
    );
    const view = enabledChecksView(settings, false);
    const types = view.enabledChecks.map((c) => c.checkerType);
    expect(types).toContain('MissingNumbersV3');
    expect(types).toContain('ExtraNumbersV3');
    expect(types).toContain('InconsistentTranslationTargetSource');
    expect(types).toContain('InconsistentTranslationSourceTarget');
    expect(types).toContain('AbsoluteLength');
    expect(types).toContain('SourceOrTargetRegexp');
    expect(types).not.toContain('TargetSourceIdentical');
    expect(view.enabledChecks.find((c) => c.checkerType === 'EmptyTranslation')).toEqual({
      checkerType: 'EmptyTranslation',
      ignorable: false,
      instant: true,
    });
    expect(view.enabledChecks.find((c) => c.checkerType === 'Moravia')?.context).toEqual({ moraviaProfileId: 'prof' });
    expect(view.enabledChecks.filter((c) => c.checkerType === 'CustomQA').map((c) => c.context?.customQaDisplayName)).toEqual([
      'unbalancedBrackets',
      'capitalization',
      'urlsAndEmails',
      'placeholders',
    ]);
    expect(view.forbiddenStrings).toEqual(['ASAP', 'irony']);
    expect(view.strictJobStatus).toBe(true);
    expect(view.excludeLockedSegments).toBe(false);
    expect(view.userCanSetInstantQA).toBe(false);
    expect(view.regexpRules).toEqual([{ id: 'r1', description: '', sourceRegexp: '\\d', ignorable: true, instant: false }]);
  });

  it('lists a type two running checks share once, ignorable only when both are', () => {
    const settings = edit([
      { name: 'targetLength', enabled: true, value: 50, ignorable: true },
      { name: 'absoluteTargetLength', enabled: true, value: 40, ignorable: false, instant: true },
    ]);
    const lengths = enabledChecksView(settings).enabledChecks.filter((c) => c.checkerType === 'AbsoluteLength');
    expect(lengths).toEqual([{ checkerType: 'AbsoluteLength', ignorable: false, instant: true }]);
    // A limit of 0 is no limit: the check does not run.
    const zero = edit([{ name: 'relativeTargetLength', enabled: true, value: 0 }]);
    expect(enabledChecksView(zero).enabledChecks.map((c) => c.checkerType)).not.toContain('RelativeLength');
    expect(enabledWarningTypes(zero)).not.toContain('RelativeLength');
  });

  it('lists no forbidden strings or rules when their checks are off', () => {
    const settings = edit([
      { name: 'forbiddenStringsEnabled', enabled: false, value: 'a,b' },
      { name: 'regexp', enabled: false, rules: [{ sourceRegexp: 'x' }] },
    ]);
    const view = enabledChecksView(settings);
    expect(view.forbiddenStrings).toEqual([]);
    expect(view.regexpRules).toEqual([]);
    // On, but no strings: it does not run.
    expect(
      enabledChecksView(edit([{ name: 'forbiddenStringsEnabled', enabled: true, value: ' , ' }])).enabledChecks.map((c) => c.checkerType),
    ).not.toContain('ForbiddenString');
  });

  it('lists each reported warning type once, in the published order (EnabledQualityChecksDto)', () => {
    const types = enabledWarningTypes(defaultQaSettings());
    expect(types).toEqual(WARNING_TYPES.filter((t) => types.includes(t)));
    expect(new Set(types).size).toBe(types.length);
    expect(types).toEqual(
      expect.arrayContaining(['MissingNumbersV3', 'ExtraNumbersV3', 'MultipleSpacesV3', 'LeadingAndTrailingSpaces', 'CustomQA']),
    );
    expect(types).not.toContain('NotConfirmed');
    const none = edit(
      QA_CHECK_NAMES.map((name) => ({ name, enabled: false })),
      defaultQaSettings(),
      {
        customChecks: ['unbalancedBrackets', 'unbalancedQuotes', 'capitalization', 'urlsAndEmails', 'placeholders'].map((name) => ({
          name,
          enabled: false,
        })),
      },
    );
    expect(enabledWarningTypes(none)).toEqual([]);
    expect(enabledChecksView(none).enabledChecks).toEqual([]);
  });

  it('maps every check that is not a flag to warning types of the published enum', () => {
    for (const name of QA_CHECK_NAMES) for (const type of CHECKER_TYPES[name]) expect(WARNING_TYPES).toContain(type);
  });
});
