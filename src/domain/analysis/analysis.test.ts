import { describe, expect, it } from 'vitest';
import { PreTranslationAnalyser, editedBand, editedScore } from './analyser.js';
import type { PreTranslationSegment } from './analyser.js';
import { bandOf, totalOf } from './bands.js';
import { countsOf, dataDto, dataDtoV1, discounted, rateFieldOf, rateHundredths } from './counts-dto.js';
import { countSegmentText, isNonTranslatable } from './segment-text.js';
import { REQUEST_DEFAULTS, resolveSettings } from './settings.js';

const TAG = '\uF000';

describe('bands', () => {
  it.each([
    [101, 'match101'],
    [100, 'match100'],
    [99, 'match95'],
    [95, 'match95'],
    [94, 'match85'],
    [85, 'match85'],
    [84, 'match75'],
    [75, 'match75'],
    [74, 'match50'],
    [50, 'match50'],
    [49, 'match0'],
    [0, 'match0'],
  ])('%i is %s', (score, band) => expect(bandOf(score)).toBe(band));
});

describe('non-translatables', () => {
  it.each([
    ['12.5', true],
    ['%s', true],
    ['%1$d / %2$d', true],
    ['{0} - {1}', true],
    ['${count}', true],
    [`${TAG} 42 ${TAG}`, true],
    ['(c) 2024', false],
    ['© 2024', true],
    ['---', true],
    ['', true],
    ['&nbsp;&amp;', true],
    ['%s files', false],
    ['Open', false],
    ['v2', false],
    ['東京', false],
  ])('%j -> %s', (text, expected) => expect(isNonTranslatable(text)).toBe(expected));
});

describe('counting a segment', () => {
  it('counts numbers as words unless told not to, and characters either way', () => {
    expect(countSegmentText('Copy 3 files of 1,000', 'en', true)).toEqual({ wordHundredths: 500, characters: 21 });
    expect(countSegmentText('Copy 3 files of 1,000', 'en', false)).toEqual({ wordHundredths: 300, characters: 21 });
  });
  it('counts no words for tags, and Japanese by characters / 3', () => {
    expect(countSegmentText(`${TAG}Save${TAG}`, 'en', true)).toEqual({ wordHundredths: 100, characters: 4 });
    expect(countSegmentText('東京都', 'ja', true)).toEqual({ wordHundredths: 100, characters: 3 });
  });
});

describe('settings', () => {
  it('takes the request over the base, and the defaults where both are silent', () => {
    const s = resolveSettings(
      { includeNumbers: false, type: 'Compare', compareWorkflowLevel: 2, includeLockedSegments: null },
      { includeLockedSegments: false },
    );
    expect(s).toEqual({
      ...REQUEST_DEFAULTS,
      includeNumbers: false,
      includeLockedSegments: false,
      type: 'Compare',
      compareWorkflowLevel: 2,
    });
  });
});

function segment(source: string, tmScore = 0, extra: Partial<PreTranslationSegment> = {}): PreTranslationSegment {
  return { job: 0, source, counted: source, confirmed: false, locked: false, tmScore, ...extra };
}

describe('pre-translation analysis', () => {
  it('sorts segments into repetitions, TM bands, internal fuzzies and non-translatables', () => {
    const a = new PreTranslationAnalyser(
      { ...REQUEST_DEFAULTS, includeNonTranslatables: true, separateFuzzyRepetitions: true },
      { countLanguage: 'en' },
    );
    expect(a.add(segment('Open the file', 101))).toBe('transMemoryMatches.match101');
    expect(a.add(segment('Open  the file ', 0))).toBe('repetitions');
    expect(a.add(segment('Delete 3 files', 99))).toBe('transMemoryMatches.match95');
    expect(a.add(segment('Delete 4 files', 0))).toBe('internalFuzzyMatches.match95');
    expect(a.add(segment('42'))).toBe('nonTranslatablesMatches.match100');
    expect(a.add(segment('Something else entirely', 60))).toBe('transMemoryMatches.match50');
    expect(a.add(segment('No match here at all'))).toBe('transMemoryMatches.match0');
    const all = totalOf(a.jobs[0]!);
    expect(all.segments).toBe(7);
    expect(all.wordHundredths).toBe((3 + 3 + 3 + 3 + 1 + 3 + 5) * 100);
  });

  it('folds internal fuzzies into the TM bands unless they are separate, and ignores them when not included', () => {
    const folded = new PreTranslationAnalyser(REQUEST_DEFAULTS, { countLanguage: 'en' });
    folded.add(segment('Delete 3 files'));
    expect(folded.add(segment('Delete 4 files'))).toBe('transMemoryMatches.match95');
    const none = new PreTranslationAnalyser({ ...REQUEST_DEFAULTS, includeFuzzyRepetitions: false }, { countLanguage: 'en' });
    none.add(segment('Delete 3 files'));
    expect(none.add(segment('Delete 4 files'))).toBe('transMemoryMatches.match0');
  });

  it('leaves out confirmed and locked segments when told to, and the TM when told to', () => {
    const a = new PreTranslationAnalyser(
      { ...REQUEST_DEFAULTS, includeConfirmedSegments: false, includeLockedSegments: false, includeTransMemory: false },
      { countLanguage: 'en' },
    );
    expect(a.add(segment('One', 100, { confirmed: true }))).toBeNull();
    expect(a.add(segment('Two', 100, { locked: true }))).toBeNull();
    expect(a.add(segment('Three', 100))).toBe('transMemoryMatches.match0');
    // a segment left out is not a first occurrence either
    expect(a.add(segment('One'))).toBe('transMemoryMatches.match0');
  });

  it('counts target units when asked', () => {
    const a = new PreTranslationAnalyser({ ...REQUEST_DEFAULTS, countSourceUnits: false }, { countLanguage: 'de' });
    a.add(segment('Open the file', 0, { counted: 'Datei öffnen' }));
    a.add(segment('Close', 0, { counted: '' }));
    expect(totalOf(a.jobs[0]!)).toEqual({ segments: 2, wordHundredths: 200, characters: 12 });
  });
});

describe('post-editing and compare', () => {
  it.each([
    ['Datei öffnen', 'Datei öffnen', 100, 'transMemoryMatches.match100'],
    ['3 Dateien', '4 Dateien', 99, 'transMemoryMatches.match95'],
    [null, 'Datei öffnen', 0, 'transMemoryMatches.match0'],
    ['Datei öffnen', 'Völlig anders geschrieben', null, 'transMemoryMatches.match0'],
  ])('%j -> %j', (given, final, score, band) => {
    if (score !== null) expect(editedScore(given, final)).toBe(score);
    expect(editedBand(given, final)).toBe(band);
  });
});

describe('wire records and net rates', () => {
  const tallies = {
    repetitions: { segments: 2, wordHundredths: 600, characters: 30 },
    'transMemoryMatches.match100': { segments: 1, wordHundredths: 400, characters: 20 },
    'transMemoryMatches.match0': { segments: 1, wordHundredths: 1000, characters: 3600 },
  } as const;

  it('makes CountsDto with pages and percents', () => {
    expect(countsOf(tallies['transMemoryMatches.match0'], 2000)).toEqual({
      segments: 1,
      words: 10,
      characters: 3600,
      normalizedPages: 2,
      percent: 50,
      editingTime: 0,
    });
    const data = dataDto({ ...tallies });
    expect(data.all).toMatchObject({ segments: 4, words: 20, characters: 3650 });
    expect(data.repetitions.percent).toBe(30);
    expect(data.transMemoryMatches.match101!.words).toBe(0);
    expect(Object.keys(data.machineTranslationMatches)).toEqual(['match100', 'match95', 'match85', 'match75', 'match50', 'match0']);
    expect(Object.keys(dataDtoV1({ ...tallies }).nonTranslatablesMatches)).toEqual(['match100', 'match99']);
  });

  it('maps categories to rate fields', () => {
    expect(rateFieldOf('repetitions')).toBe('repetition');
    expect(rateFieldOf('transMemoryMatches.match101')).toBe('tm101');
    expect(rateFieldOf('transMemoryMatches.match0')).toBe('tm0');
    expect(rateFieldOf('nonTranslatablesMatches.match95')).toBe('nt99');
    expect(rateFieldOf('internalFuzzyMatches.match75')).toBe('if75');
    expect(rateFieldOf('machineTranslationMatches.match50')).toBe('mt50');
  });

  it('weighs words exactly: the sum of words × rate', () => {
    expect(rateHundredths('12.5')).toBe(1250);
    expect(rateHundredths(33.33)).toBe(3333);
    expect(() => rateHundredths('1.234')).toThrow();
    const weighted = discounted({ ...tallies }, { repetition: '10', tm100: '33.33', tm0: 100 });
    // 6 × 0.10 = 0.6; 4 × 0.3333 = 1.3332 -> 1.33; 10 × 1 = 10
    expect(weighted.repetitions!.wordHundredths).toBe(60);
    expect(weighted['transMemoryMatches.match100']!.wordHundredths).toBe(133);
    expect(totalOf(weighted).wordHundredths).toBe(60 + 133 + 1000);
    expect(weighted['transMemoryMatches.match100']!.characters).toBe(7); // 20 × 0.3333 = 6.666
  });
});
