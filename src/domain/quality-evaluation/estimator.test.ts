import { describe, expect, it } from 'vitest';
import type { WarningType } from '../quality-assurance/types.js';
import { DEFAULT_PASS_THRESHOLD, ESTIMATOR_ID, estimateJob, estimateSegment } from './estimator.js';
import type { QeSegmentInput } from './estimator.js';

const EN_DE = { sourceLang: 'en', targetLang: 'de' };

function input(source: string, target: string, options: Partial<QeSegmentInput['segment']> & { qa?: WarningType[] } = {}): QeSegmentInput {
  const { qa = [], ...segment } = options;
  return {
    segment: { id: 's1', source, target, confirmed: false, unmodifiedOrigin: null, unmodifiedOriginScore: null, ...segment },
    qaWarnings: qa.map((type) => ({ type })),
  };
}

const SOURCE = 'Open the settings page and choose a language.';
const TARGET = 'Öffnen Sie die Einstellungsseite und wählen Sie eine Sprache.';

describe('estimateSegment: the score by origin', () => {
  it.each([
    ['a person, confirmed', { confirmed: true }, 95, []],
    ['a person, not confirmed', {}, 90, []],
    ['a 101 % TM match', { unmodifiedOrigin: 'tm' as const, unmodifiedOriginScore: 1.01 }, 100, []],
    ['a 100 % TM match', { unmodifiedOrigin: 'tm' as const, unmodifiedOriginScore: 1 }, 100, []],
    ['an 85 % TM match', { unmodifiedOrigin: 'tm' as const, unmodifiedOriginScore: 0.85 }, 85, ['FUZZY_TM_MATCH']],
    ['a TM match without a score', { unmodifiedOrigin: 'tm' as const, unmodifiedOriginScore: null }, 0, ['FUZZY_TM_MATCH']],
    ['unedited MT', { unmodifiedOrigin: 'mt' as const }, 75, ['UNEDITED_MT']],
    ['a non-translatable', { unmodifiedOrigin: 'nt' as const, unmodifiedOriginScore: 1 }, 100, []],
  ])('%s', (_name, options, score, types) => {
    const result = estimateSegment(input(SOURCE, TARGET, options), EN_DE);
    expect(result.score).toBe(score);
    expect(result.warnings.map((w) => w.type)).toEqual(types);
  });
});

describe('estimateSegment: the signals', () => {
  it('an empty target scores 0 and says only that', () => {
    for (const target of ['', '   ']) {
      const result = estimateSegment(input(SOURCE, target, { qa: ['EmptyTranslation', 'MissingNumbersV3'] }), EN_DE);
      expect(result).toMatchObject({ score: 0, passed: false });
      expect(result.warnings).toEqual([
        { type: 'EMPTY_TARGET', penalty: 100, message: 'The target is empty.', qeId: `${ESTIMATOR_ID}/EMPTY_TARGET` },
      ]);
    }
  });

  it.each([
    ['one weighted type', ['MissingNumbersV3'], 15, 75],
    ['a type repeated counts at most 3 times', ['SpellCheck', 'SpellCheck', 'SpellCheck', 'SpellCheck'], 15, 75],
    ['types add up', ['MissingNumbersV3', 'ForbiddenTerm', 'SpellCheck'], 35, 55],
    ['the sum stops at 60', ['Malformed', 'Malformed', 'Malformed', 'ForbiddenTerm', 'ForbiddenTerm'], 60, 30],
  ] as const)('QA warnings: %s', (_name, qa, penalty, score) => {
    const result = estimateSegment(input(SOURCE, TARGET, { qa: [...qa] }), EN_DE);
    expect(result.score).toBe(score);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({ type: 'QA_WARNINGS', penalty });
  });

  it('QA warnings that say nothing of the translation cost nothing and are not reported', () => {
    const result = estimateSegment(
      input(SOURCE, TARGET, { qa: ['NotConfirmed', 'UnresolvedComment', 'UnmodifiedFuzzyTranslationTM', 'EmptyTranslation'] }),
      EN_DE,
    );
    expect(result).toMatchObject({ score: 90, warnings: [] });
  });

  it('names the QA warning types with their counts, in a fixed order', () => {
    const result = estimateSegment(input(SOURCE, TARGET, { qa: ['SpellCheck', 'MissingNumbersV3', 'SpellCheck'] }), EN_DE);
    expect(result.warnings[0]!.message).toBe('QA warnings: MissingNumbersV3, SpellCheck ×2.');
  });

  it.each([
    ['a target a third as long', 'Open the settings page and choose a language.', 'Öffnen.', true],
    [
      'a target three times as long',
      'Open the settings page.',
      'Öffnen Sie bitte die Seite mit den Einstellungen und lesen Sie alles genau durch.',
      true,
    ],
    ['a German target 1.3× as long', SOURCE, TARGET, false],
    [
      'a Chinese target of an English source (wide characters count 2)',
      'Open the settings page and choose a language.',
      '打开设置页面并选择一种语言。',
      false,
    ],
    ['a short source is not judged', 'Open it now.', 'Öffnen Sie es bitte jetzt sofort und ohne jede Verzögerung.', false],
    [
      'tags and placeholders do not count',
      '{1>Open<1} {2}{3}{4}{5}{6}{7}{8}{9}{10}{11} %s %d',
      '{1>Öffnen<1} {2}{3}{4}{5}{6}{7}{8}{9}{10}{11} %s %d',
      false,
    ],
  ])('length: %s', (_name, source, target, fires) => {
    const result = estimateSegment(input(source, target), EN_DE);
    expect(result.warnings.some((w) => w.type === 'LENGTH_RATIO')).toBe(fires);
    if (fires) expect(result.score).toBe(75);
  });

  it.each([
    [
      'the whole source copied',
      'Open the settings page and choose a language.',
      'Open the settings page and choose a language.',
      'de',
      50,
      7,
    ],
    ['half of it copied', 'Open the settings page and choose a language.', 'Öffnen Sie die settings page and choose Sprache.', 'de', 29, 7],
    [
      'names, acronyms, numbers, URLs and tags are not counted',
      'Send the PDF to Anna at https://example.com/open/page in {1>2024<1}.',
      'Senden Sie das PDF an Anna unter https://example.com/open/page in {1>2024<1}.',
      'de',
      0,
      2,
    ],
    [
      'camel-case product names are not counted',
      'Connect your iPhone with the MacBook cable.',
      'Verbinden Sie Ihr iPhone mit dem MacBook Kabel.',
      'de',
      0,
      4,
    ],
    ['fewer than 3 eligible words are not judged', 'Save changes', 'Save changes', 'de', 0, 2],
    [
      'the same language (en to en_us) is not judged',
      'Open the settings page and choose a language.',
      'Open the settings page and choose a language.',
      'en_us',
      0,
      7,
    ],
    [
      'one cognate among many words does not fire',
      'The information about your account is shown below.',
      'Die Information zu Ihrem Konto wird unten angezeigt.',
      'de',
      0,
      6,
    ],
  ])('untranslated tokens: %s', (_name, source, target, targetLang, penalty, eligibleWords) => {
    const result = estimateSegment(input(source, target), { sourceLang: 'en', targetLang });
    const found = result.warnings.find((w) => w.type === 'UNTRANSLATED_TOKENS');
    expect(found?.penalty ?? 0).toBe(penalty);
    if (found) expect(found.message).toContain(`of ${eligibleWords} source words`);
  });

  it('lists at most 10 copied words', () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima';
    const result = estimateSegment(input(words, words), EN_DE);
    const found = result.warnings.find((w) => w.type === 'UNTRANSLATED_TOKENS')!;
    expect(found.message).toBe(
      '12 of 12 source words appear untranslated in the target: alpha, bravo, charlie, delta, echo, foxtrot, golf, hotel, india, juliett, ….',
    );
  });

  it('signals add up and the score never goes below 0', () => {
    const source = 'Open the settings page and choose a language from the list.';
    const result = estimateSegment(
      input(source, source, { unmodifiedOrigin: 'mt', qa: ['Malformed', 'Malformed', 'Malformed', 'ForbiddenTerm'] }),
      EN_DE,
    );
    expect(result.warnings.map((w) => w.type)).toEqual(['UNEDITED_MT', 'QA_WARNINGS', 'UNTRANSLATED_TOKENS']);
    expect(result.score).toBe(0);
  });

  it('is deterministic', () => {
    const one = input(SOURCE, 'Öffnen Sie die settings page.', { unmodifiedOrigin: 'tm', unmodifiedOriginScore: 0.92, qa: ['SpellCheck'] });
    expect(estimateSegment(one, EN_DE)).toEqual(estimateSegment(one, EN_DE));
  });
});

describe('estimateSegment: passing', () => {
  it.each([
    [80, 90, true],
    [90, 90, true],
    [91, 90, false],
  ])('threshold %i, score %i: passed %s', (threshold, _score, passed) => {
    expect(estimateSegment(input(SOURCE, TARGET), { ...EN_DE, threshold }).passed).toBe(passed);
  });
  it(`the default threshold is ${DEFAULT_PASS_THRESHOLD}`, () => {
    expect(estimateSegment(input(SOURCE, TARGET, { unmodifiedOrigin: 'tm', unmodifiedOriginScore: 0.8 }), EN_DE).passed).toBe(true);
    expect(estimateSegment(input(SOURCE, TARGET, { unmodifiedOrigin: 'tm', unmodifiedOriginScore: 0.79 }), EN_DE).passed).toBe(false);
  });
});

describe('estimateJob', () => {
  it('weighs each segment by its source words', () => {
    const long = 'Open the settings page and choose a language from the list below.'; // 12 words
    const result = estimateJob(
      [
        { ...input(long, 'Öffnen Sie die Einstellungen und wählen Sie unten eine Sprache aus der Liste.', { confirmed: true }) },
        { ...input('Cancel', '', {}), segment: { ...input('Cancel', '').segment, id: 's2' } },
      ],
      EN_DE,
    );
    expect(result.words).toBe(13);
    expect(result.segments.map((s) => [s.segmentId, s.score, s.words])).toEqual([
      ['s1', 95, 12],
      ['s2', 0, 1],
    ]);
    expect(result.score).toBe(Math.round((95 * 12) / 13));
    expect(result).toMatchObject({ threshold: 80, passed: true, segmentsBelowThreshold: 1 });
  });

  it('fails under the threshold', () => {
    const result = estimateJob([input(SOURCE, TARGET, { unmodifiedOrigin: 'mt' })], { ...EN_DE, threshold: 76 });
    expect(result).toMatchObject({ score: 75, passed: false, segmentsBelowThreshold: 1 });
  });

  it('a segment of numbers only weighs 1 word', () => {
    expect(estimateJob([input('12', '12', { unmodifiedOrigin: 'nt', unmodifiedOriginScore: 1 })], EN_DE)).toMatchObject({
      words: 1,
      score: 100,
    });
  });

  it('an empty job part has no score and passes', () => {
    expect(estimateJob([], EN_DE)).toEqual({ segments: [], score: null, words: 0, threshold: 80, passed: true, segmentsBelowThreshold: 0 });
  });
});
