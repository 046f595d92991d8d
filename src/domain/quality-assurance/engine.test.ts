import { describe, expect, it } from 'vitest';
import { CHECK_WARNING_TYPES, QaRegexpError, runQa } from './engine.js';
import type { CustomCheckName, QaCheckName, QaContext, QaSegment, QaSettings, WarningType } from './types.js';
import { CUSTOM_CHECK_NAMES, QA_CHECK_NAMES, WARNING_TYPES } from './types.js';

/** Settings with every check off (tests switch on what they test); the real defaults are in settings.ts. */
export function qaSettingsForTests(
  enabled: Partial<Record<QaCheckName, number | string | true>> = {},
  custom: CustomCheckName[] = [],
): QaSettings {
  const checks = Object.fromEntries(
    QA_CHECK_NAMES.map((name) => {
      const on = enabled[name];
      return [name, { enabled: on !== undefined, ignorable: true, instant: false, value: on === undefined || on === true ? null : on }];
    }),
  ) as QaSettings['checks'];
  return {
    checks,
    regexpRules: [],
    moraviaProfile: null,
    customChecks: Object.fromEntries(
      CUSTOM_CHECK_NAMES.map((name) => [name, { enabled: custom.includes(name), ignorable: true }]),
    ) as QaSettings['customChecks'],
    inconsistencyScope: 'JOB',
  };
}

function segment(id: string, source: string, target: string, extra: Partial<QaSegment> = {}): QaSegment {
  return {
    id,
    source,
    target,
    confirmed: true,
    locked: false,
    maxLength: null,
    unmodifiedOrigin: null,
    unmodifiedOriginScore: null,
    newerAtLowerLevel: false,
    ...extra,
  };
}

const context: QaContext = { sourceLang: 'en', targetLang: 'de', speller: null };

function typesOf(result: ReturnType<typeof runQa>, id = 's1'): string[] {
  return (result.warnings.get(id) ?? []).map((w) => (w.type === 'CustomQA' ? `CustomQA:${w.details.subType as string}` : w.type));
}

describe('runQa: each check fires through a run, and not when its segment is clean or the check is off', () => {
  // setting (value), bad segment, clean segment, expected type
  const cases: [QaCheckName, number | string | true, QaSegment, QaSegment, WarningType][] = [
    ['emptyTarget', true, segment('s1', 'Open', ''), segment('s1', 'Open', 'Öffnen'), 'EmptyTranslation'],
    ['targetSourceIdentical', true, segment('s1', 'Open', 'Open'), segment('s1', 'Open', 'Öffnen'), 'TargetSourceIdentical'],
    ['leadingAndTrailingSpaces', true, segment('s1', 'Open', 'Öffnen '), segment('s1', 'Open', 'Öffnen'), 'LeadingAndTrailingSpaces'],
    ['multipleSpaces', true, segment('s1', 'Open it', 'Öffnen  Sie'), segment('s1', 'Open it', 'Öffnen Sie'), 'MultipleSpacesV3'],
    ['endPunctuation', true, segment('s1', 'Open.', 'Öffnen'), segment('s1', 'Open.', 'Öffnen.'), 'TrailingPunctuation'],
    ['repeatedWords', true, segment('s1', 'Open it', 'Öffnen Sie Sie'), segment('s1', 'Open it', 'Öffnen Sie'), 'RepeatedWord'],
    ['missingNumber', true, segment('s1', 'Open 2', 'Öffnen'), segment('s1', 'Open 2', 'Öffnen 2'), 'MissingNumbersV3'],
    ['extraNumbers', true, segment('s1', 'Open', 'Öffnen 2'), segment('s1', 'Open 2', 'Öffnen 2'), 'ExtraNumbersV3'],
    ['joinMarksInconsistency', true, segment('s1', 'Open {1}', 'Öffnen'), segment('s1', 'Open {1}', '{1} öffnen'), 'JoinTags'],
    [
      'nestedTags',
      true,
      segment('s1', '{1>a{2>b<2}<1}', '{1>a{2>b<1}<2}'),
      segment('s1', '{1>a{2>b<2}<1}', '{1>a{2>b<2}<1}'),
      'NestedTags',
    ],
    ['emptyPairTags', true, segment('s1', '{1>a<1}', '{1><1}a'), segment('s1', '{1>a<1}', '{1>a<1}'), 'EmptyPairTags'],
    ['malformed', true, segment('s1', '{1>a<1}', '<1}a{1>'), segment('s1', '{1>a<1}', '{1>a<1}'), 'Malformed'],
    [
      'inconsistentFormatting',
      true,
      segment('s1', '{1>a {2>b<2}<1}', '{1>a<1} {2>b<2}'),
      segment('s1', '{1>a {2>b<2}<1}', '{1>a {2>b<2}<1}'),
      'Formatting',
    ],
    ['emptyTagContent', true, segment('s1', '{1>a<1}', '{1> <1}a'), segment('s1', '{1>a<1}', '{1>a<1}'), 'EmptyTagContent'],
    [
      'inconsistentTagContent',
      true,
      segment('s1', '{1>42<1}', '{1>43<1}'),
      segment('s1', '{1>42<1}', '{1>42<1}'),
      'InconsistentTagContent',
    ],
    ['targetLength', 5, segment('s1', 'Open', 'Öffnen'), segment('s1', 'Open', 'Auf'), 'AbsoluteLength'],
    ['absoluteTargetLength', 1, segment('s1', 'Open', 'Öffnen'), segment('s1', 'Open', 'Auf'), 'AbsoluteLength'],
    ['targetLengthPercent', 120, segment('s1', 'Open', 'Öffnen'), segment('s1', 'Open', 'Auf'), 'RelativeLength'],
    ['relativeTargetLength', 20, segment('s1', 'Open', 'Öffnen'), segment('s1', 'Open', 'Auf'), 'RelativeLength'],
    [
      'targetLengthPerSegment',
      true,
      segment('s1', 'Open', 'Öffnen', { maxLength: 4 }),
      segment('s1', 'Open', 'Öffnen', { maxLength: 6 }),
      'TranslationLength',
    ],
    ['segmentNotConfirmed', true, segment('s1', 'Open', 'Öffnen', { confirmed: false }), segment('s1', 'Open', 'Öffnen'), 'NotConfirmed'],
    ['forbiddenStringsEnabled', 'öffnen, zu', segment('s1', 'Open', 'Öffnen'), segment('s1', 'Open', 'Aufmachen'), 'ForbiddenString'],
    [
      'nonConformingTerms',
      true,
      segment('s1', 'Open file', 'Dokument öffnen', {
        terms: [{ sourceTerm: 'file', targetTerms: [{ text: 'Datei', preferred: true, approved: true }] }],
      }),
      segment('s1', 'Open file', 'Datei öffnen', {
        terms: [{ sourceTerm: 'file', targetTerms: [{ text: 'Datei', preferred: true, approved: true }] }],
      }),
      'NonConformingTerm',
    ],
    [
      'forbiddenTerms',
      true,
      segment('s1', 'Open folder', 'Ordner öffnen', { forbiddenTerms: [{ term: 'Ordner', beginIndex: 0, endIndex: 6, sourceTerms: [] }] }),
      segment('s1', 'Open folder', 'Verzeichnis öffnen', { forbiddenTerms: [] }),
      'ForbiddenTerm',
    ],
    [
      'unmodifiedFuzzyTranslation',
      true,
      segment('s1', 'Open', 'Öffnen', { unmodifiedOrigin: 'mt' }),
      segment('s1', 'Open', 'Öffnen'),
      'UnmodifiedFuzzyTranslation',
    ],
    [
      'unmodifiedFuzzyTranslationTM',
      true,
      segment('s1', 'Open', 'Öffnen', { unmodifiedOrigin: 'tm', unmodifiedOriginScore: 0.8 }),
      segment('s1', 'Open', 'Öffnen', { unmodifiedOrigin: 'tm', unmodifiedOriginScore: 1 }),
      'UnmodifiedFuzzyTranslationTM',
    ],
    [
      'unmodifiedFuzzyTranslationMTNT',
      true,
      segment('s1', 'Open', 'Öffnen', { unmodifiedOrigin: 'nt' }),
      segment('s1', 'Open', 'Öffnen', { unmodifiedOrigin: 'tm', unmodifiedOriginScore: 0.7 }),
      'UnmodifiedFuzzyTranslationMTNT',
    ],
    [
      'newerAtLowerLevel',
      true,
      segment('s1', 'Open', 'Öffnen', { newerAtLowerLevel: true }),
      segment('s1', 'Open', 'Öffnen'),
      'NewerAtLowerLevel',
    ],
  ];
  it.each(cases)('%s', (name, value, bad, clean, type) => {
    const settings = qaSettingsForTests({ [name]: value });
    expect(typesOf(runQa([bad], settings, context))).toContain(type);
    expect(typesOf(runQa([clean], settings, context))).not.toContain(type);
    expect(typesOf(runQa([bad], qaSettingsForTests(), context))).toEqual([]);
  });

  it('inconsistentTranslation', () => {
    const settings = qaSettingsForTests({ inconsistentTranslation: true });
    const result = runQa(
      [segment('s1', 'Open', 'Öffnen'), segment('s2', 'Open', 'Aufmachen'), segment('s3', 'Close', 'Schließen')],
      settings,
      context,
    );
    expect(typesOf(result, 's1')).toEqual(['InconsistentTranslationSourceTarget']);
    expect(result.warnings.get('s1')![0]!.details).toEqual({ segmentId: 's2' });
    expect(typesOf(result, 's3')).toEqual([]);
    const withOthers = runQa([segment('s1', 'Open', 'Öffnen')], settings, {
      ...context,
      otherSegments: [{ id: 'x', source: 'Opened', target: 'Öffnen' }],
    });
    expect(withOthers.warnings.get('s1')).toEqual([
      { type: 'InconsistentTranslationTargetSource', key: 'x', ignorable: true, details: { segmentId: 'x' } },
    ]);
  });

  it('regexp rules', () => {
    const settings = {
      ...qaSettingsForTests({ regexp: true }),
      regexpRules: [{ id: 'r9', description: 'no Sie', sourceRegexp: null, targetRegexp: '\\bSie\\b', ignorable: false, instant: false }],
    };
    expect(runQa([segment('s1', 'Open', 'Öffnen Sie')], settings, context).warnings.get('s1')).toEqual([
      { type: 'SourceOrTargetRegexp', key: 'r9', ignorable: false, details: { description: 'no Sie' } },
    ]);
    expect(runQa([segment('s1', 'Open', 'Öffne')], settings, context).warnings.size).toBe(0);
    const broken = { ...settings, regexpRules: [{ ...settings.regexpRules[0]!, targetRegexp: '(' }] };
    expect(() => runQa([segment('s1', 'Open', 'Öffne')], broken, context)).toThrow(QaRegexpError);
  });

  it.each([
    ['unbalancedBrackets', segment('s1', '(a)', '(a'), segment('s1', '(a)', '(a)')],
    ['unbalancedQuotes', segment('s1', '"a"', '„a'), segment('s1', '"a"', '„a“')],
    ['capitalization', segment('s1', 'Open', 'öffnen'), segment('s1', 'Open', 'Öffnen')],
    ['urlsAndEmails', segment('s1', 'See a@b.org', 'Siehe c@b.org'), segment('s1', 'See a@b.org', 'Siehe a@b.org')],
    ['placeholders', segment('s1', 'Open %s', 'Öffnen'), segment('s1', 'Open %s', '%s öffnen')],
  ] as const)('custom check %s', (name, bad, clean) => {
    const settings = qaSettingsForTests({}, [name]);
    expect(typesOf(runQa([bad], settings, context))).toEqual([`CustomQA:${name}`]);
    expect(typesOf(runQa([clean], settings, context))).toEqual([]);
  });
});

describe('runQa: run rules', () => {
  const all = qaSettingsForTests(
    Object.fromEntries(QA_CHECK_NAMES.map((name) => [name, name.includes('Length') && name !== 'targetLengthPerSegment' ? 1000 : true])),
    [...CUSTOM_CHECK_NAMES],
  );

  it('an empty target gets EmptyTranslation and the state checks only', () => {
    const result = runQa([segment('s1', 'Open 2 {1} "x".', '', { confirmed: false })], all, context);
    expect(typesOf(result)).toEqual(['EmptyTranslation', 'NotConfirmed']);
  });

  it('excludeLockedSegments skips locked segments', () => {
    const segments = [segment('s1', 'Open', '', { locked: true }), segment('s2', 'Open', '')];
    const result = runQa(segments, all, context);
    expect([...result.warnings.keys()]).toEqual(['s2']);
    expect(result).toMatchObject({ segmentsChecked: 1, lockedSkipped: 1 });
    const off = { ...all, checks: { ...all.checks, excludeLockedSegments: { ...all.checks.excludeLockedSegments, enabled: false } } };
    expect([...runQa(segments, off, context).warnings.keys()]).toEqual(['s1', 's2']);
  });

  it('options.only runs only the checks of those types', () => {
    const bad = segment('s1', 'Open 2.', 'öffnen  3', { confirmed: false });
    expect(typesOf(runQa([bad], all, context, { only: new Set<WarningType>(['MissingNumbersV3', 'NotConfirmed']) }))).toEqual([
      'NotConfirmed',
      'MissingNumbersV3',
    ]);
    expect(typesOf(runQa([bad], all, context, { only: new Set<WarningType>(['CustomQA']) }))).toEqual(['CustomQA:capitalization']);
    const spaced = segment('s1', 'Open', ' Öffnen');
    expect(typesOf(runQa([spaced], all, context, { only: new Set<WarningType>(['LeadingSpaces']) }))).toEqual(['LeadingAndTrailingSpaces']);
    expect(typesOf(runQa([spaced], all, context, { only: new Set<WarningType>(['JoinTags']) }))).toEqual([]);
  });

  it('spelling without a speller is reported unchecked, never clean', () => {
    const result = runQa([segment('s1', 'Open', 'Öffnen')], qaSettingsForTests({ spellCheck: true }), context);
    expect(result.spellingUnchecked).toBe(true);
    expect(runQa([segment('s1', 'Open', 'Öffnen')], qaSettingsForTests(), context).spellingUnchecked).toBe(false);
    expect(runQa([], qaSettingsForTests({ spellCheck: true }), context).spellingUnchecked).toBe(true);
  });

  it('spelling with a speller reports each misspelled word', () => {
    const speller = { misspelled: (text: string) => [...text.matchAll(/Fehlr/g)].map((m) => ({ word: m[0], offset: m.index })) };
    const result = runQa(
      [segment('s1', 'Error error', 'Fehlr und Fehlr'), segment('s2', 'Error', 'Fehler')],
      qaSettingsForTests({ spellCheck: true }),
      { ...context, speller },
    );
    expect(result.spellingUnchecked).toBe(false);
    expect(result.warnings.get('s1')).toEqual([
      {
        type: 'SpellCheck',
        key: 'Fehlr',
        ignorable: true,
        details: {
          misspelledWords: [
            { word: 'Fehlr', offset: 0 },
            { word: 'Fehlr', offset: 10 },
          ],
        },
      },
    ]);
    expect(result.warnings.has('s2')).toBe(false);
  });

  it('spelling leaves out words the source has too (names, commands: copied, not misspelled)', () => {
    const unknown = new Set(['git', 'commit', 'fehlr']);
    const speller = {
      misspelled: (text: string) =>
        [...text.matchAll(/\p{L}+/gu)].filter((m) => unknown.has(m[0].toLowerCase())).map((m) => ({ word: m[0], offset: m.index })),
    };
    const result = runQa(
      [segment('s1', 'git commit failed', 'git: Commit fehlgeschlagen'), segment('s2', 'git commit failed', 'git: Commit Fehlr')],
      qaSettingsForTests({ spellCheck: true }),
      { ...context, speller },
    );
    expect(result.warnings.has('s1')).toBe(false);
    expect(result.warnings.get('s2')!.map((w) => w.key)).toEqual(['Fehlr']);
  });

  it("warnings carry the setting's ignorable flag", () => {
    const settings = qaSettingsForTests({ emptyTarget: true });
    settings.checks.emptyTarget.ignorable = false;
    expect(runQa([segment('s1', 'a', '')], settings, context).warnings.get('s1')![0]!.ignorable).toBe(false);
  });

  it('a clean translation passes every check', () => {
    const clean = segment(
      's1',
      'Open {1>the file<1} "%s" (2 of 10) at https://example.com.',
      'Öffnen Sie {1>die Datei<1} „%s“ (2 von 10) unter https://example.com.',
    );
    expect(runQa([clean], all, { ...context, speller: { misspelled: () => [] } }).warnings.size).toBe(0);
  });

  it('every check name maps to known warning types', () => {
    for (const name of QA_CHECK_NAMES) for (const type of CHECK_WARNING_TYPES[name]) expect(WARNING_TYPES).toContain(type);
  });
});
