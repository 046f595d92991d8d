import { describe, expect, it } from 'vitest';
import { DEFAULT_TM_THRESHOLD, decide, rulesFromV4 } from './pre-translate-decisions.js';
import type { Decision, PreTranslateRules, PreTranslateSettingsV4Like, SegmentState, TmMatch } from './pre-translate-decisions.js';

const OFF: PreTranslateRules = {
  overwriteExistingTranslations: false,
  translationMemory: { use: false, threshold: 70, confirm100: false, confirm101: false, lock100: false, lock101: false },
  machineTranslation: { use: false, mtForTMAbove100: false, useAltTransOnly: false },
  nonTranslatables: { use: false, confirm100: false, lock100: false },
};

interface RulesChange {
  overwrite?: boolean;
  tm?: Partial<PreTranslateRules['translationMemory']>;
  mt?: Partial<PreTranslateRules['machineTranslation']>;
  nt?: Partial<PreTranslateRules['nonTranslatables']>;
}

function rules(change: RulesChange = {}): PreTranslateRules {
  return {
    overwriteExistingTranslations: change.overwrite ?? false,
    translationMemory: { ...OFF.translationMemory, ...change.tm },
    machineTranslation: { ...OFF.machineTranslation, ...change.mt },
    nonTranslatables: { ...OFF.nonTranslatables, ...change.nt },
  };
}

const ALL_ON: RulesChange = { tm: { use: true }, mt: { use: true }, nt: { use: true } };

function segment(change: Partial<SegmentState> = {}): SegmentState {
  return { source: 'Open the file', target: '', confirmed: false, locked: false, ...change };
}

const match = (score: number): TmMatch => ({ score, target: `tm ${score}`, tmUid: 'tm1' });
const tm = (score: number, confirmed = false, locked = false): Decision => ({
  action: 'tm',
  target: `tm ${score}`,
  score,
  tmUid: 'tm1',
  confirmed,
  locked,
});
const skip = (reason: 'LOCKED' | 'HAS_TRANSLATION' | 'NO_MATCH' | 'EMPTY_SOURCE'): Decision => ({ action: 'skip', reason });
const MT: Decision = { action: 'mt' };

describe('decide: the order', () => {
  it.each<[string, Partial<SegmentState>, boolean, TmMatch | null, RulesChange, Decision]>([
    // 1. Empty source, before everything.
    ['empty source', { source: '' }, false, match(101), ALL_ON, skip('EMPTY_SOURCE')],
    ['white-space source, even locked', { source: ' \n', locked: true }, true, null, ALL_ON, skip('EMPTY_SOURCE')],
    // 2. Locked, before an existing target and everything else.
    ['locked', { locked: true }, false, match(101), ALL_ON, skip('LOCKED')],
    [
      'locked with a target, even to overwrite',
      { locked: true, target: 'x' },
      false,
      match(100),
      { ...ALL_ON, overwrite: true },
      skip('LOCKED'),
    ],
    ['locked non-translatable', { locked: true }, true, null, ALL_ON, skip('LOCKED')],
    // 3. An existing target.
    ['a target, no overwrite', { target: 'Abrir' }, false, match(101), ALL_ON, skip('HAS_TRANSLATION')],
    ['a target of a non-translatable, no overwrite', { target: '12' }, true, null, ALL_ON, skip('HAS_TRANSLATION')],
    ['a target, overwrite', { target: 'Abrir' }, false, match(101), { ...ALL_ON, overwrite: true }, tm(101)],
    ['a white-space target is no translation', { target: '  ' }, false, match(101), ALL_ON, tm(101)],
    ['a confirmed empty target is filled', { confirmed: true }, false, match(90), ALL_ON, tm(90)],
    // 4. Non-translatables, before the TM.
    [
      'non-translatable copied',
      { source: '12.5' },
      true,
      match(101),
      ALL_ON,
      { action: 'nonTranslatable', target: '12.5', confirmed: false, locked: false },
    ],
    [
      'non-translatable confirmed and locked by its flags',
      { source: '%s' },
      true,
      null,
      { nt: { use: true, confirm100: true, lock100: true } },
      { action: 'nonTranslatable', target: '%s', confirmed: true, locked: true },
    ],
    [
      'non-translatable flags apart from the TM ones',
      { source: '42' },
      true,
      null,
      { nt: { use: true, confirm100: true }, tm: { use: true, lock100: true } },
      { action: 'nonTranslatable', target: '42', confirmed: true, locked: false },
    ],
    ['non-translatables off: the TM', { source: '42' }, true, match(100), { tm: { use: true } }, tm(100)],
    ['non-translatables off: MT', { source: '42' }, true, null, { mt: { use: true } }, MT],
    ['a translatable segment is not copied', {}, false, null, { nt: { use: true } }, skip('NO_MATCH')],
    // 5. The TM and its threshold.
    ['at the threshold', {}, false, match(70), ALL_ON, tm(70)],
    ['below the threshold: MT', {}, false, match(69), ALL_ON, MT],
    ['below the threshold, no MT', {}, false, match(69), { tm: { use: true } }, skip('NO_MATCH')],
    ['threshold 101 takes only 101', {}, false, match(101), { tm: { use: true, threshold: 101 } }, tm(101)],
    ['threshold 0 takes any match', {}, false, match(0), { tm: { use: true, threshold: 0 } }, tm(0)],
    ['TM off: the match is not used', {}, false, match(101), { mt: { use: true, mtForTMAbove100: true } }, MT],
    ['no match, TM on, MT off', {}, false, null, { tm: { use: true } }, skip('NO_MATCH')],
    // Confirm and lock by score.
    ['101 confirmed by confirm101', {}, false, match(101), { tm: { use: true, confirm101: true } }, tm(101, true)],
    ['101 not confirmed by confirm100', {}, false, match(101), { tm: { use: true, confirm100: true, lock100: true } }, tm(101)],
    ['100 confirmed by confirm100', {}, false, match(100), { tm: { use: true, confirm100: true } }, tm(100, true)],
    ['100 not confirmed by confirm101', {}, false, match(100), { tm: { use: true, confirm101: true, lock101: true } }, tm(100)],
    ['100.5 is a 100% match', {}, false, match(100.5), { tm: { use: true, confirm100: true, lock100: true } }, tm(100.5, true, true)],
    [
      '99 is never confirmed',
      {},
      false,
      match(99),
      { tm: { use: true, confirm100: true, confirm101: true, lock100: true, lock101: true } },
      tm(99),
    ],
    ['101 locked by lock101', {}, false, match(101), { tm: { use: true, lock101: true } }, tm(101, false, true)],
    ['100 locked by lock100', {}, false, match(100), { tm: { use: true, lock100: true } }, tm(100, false, true)],
    ['both flags on 101', {}, false, match(101), { tm: { use: true, confirm101: true, lock101: true } }, tm(101, true, true)],
    // 6. MT and its exceptions.
    ['no match: MT', {}, false, null, { mt: { use: true } }, MT],
    [
      'a 100% match under a 101 threshold: no MT',
      {},
      false,
      match(100),
      { tm: { use: true, threshold: 101 }, mt: { use: true } },
      skip('NO_MATCH'),
    ],
    [
      'a 100% match under a 101 threshold, mtForTMAbove100: MT',
      {},
      false,
      match(100),
      { tm: { use: true, threshold: 101 }, mt: { use: true, mtForTMAbove100: true } },
      MT,
    ],
    ['a 101 match with TM off: no MT', {}, false, match(101), { mt: { use: true } }, skip('NO_MATCH')],
    ['a 99 match with TM off: MT', {}, false, match(99), { mt: { use: true } }, MT],
    ['useAltTransOnly: no MT in the target', {}, false, null, { mt: { use: true, useAltTransOnly: true } }, skip('NO_MATCH')],
    ['useAltTransOnly does not stop the TM', {}, false, match(80), { tm: { use: true }, mt: { use: true, useAltTransOnly: true } }, tm(80)],
    ['MT off', {}, false, null, {}, skip('NO_MATCH')],
    ['overwrite with MT', { target: 'old' }, false, null, { overwrite: true, mt: { use: true } }, MT],
  ])('%s', (_name, state, nonTranslatable, best, change, expected) => {
    expect(decide(segment(state), nonTranslatable, best, rules(change))).toEqual(expected);
  });
});

describe('rulesFromV4', () => {
  it('reads every field', () => {
    const dto: PreTranslateSettingsV4Like = {
      overwriteExistingTranslations: true,
      translationMemorySettings: {
        useTranslationMemory: true,
        translationMemoryThreshold: 0.85,
        confirm100PercentMatches: true,
        confirm101PercentMatches: true,
        lock100PercentMatches: true,
        lock101PercentMatches: true,
      },
      machineTranslationSettings: { useMachineTranslation: true, mtForTMAbove100: true, useAltTransOnly: true },
      nonTranslatableSettings: { preTranslateNonTranslatables: true, confirm100PercentMatches: true, lock100PercentMatches: true },
    };
    expect(rulesFromV4(dto)).toEqual({
      overwriteExistingTranslations: true,
      translationMemory: { use: true, threshold: 85, confirm100: true, confirm101: true, lock100: true, lock101: true },
      machineTranslation: { use: true, mtForTMAbove100: true, useAltTransOnly: true },
      nonTranslatables: { use: true, confirm100: true, lock100: true },
    });
  });

  it.each<[string, PreTranslateSettingsV4Like]>([
    ['an empty body', {}],
    ['null sections', { translationMemorySettings: null, machineTranslationSettings: null, nonTranslatableSettings: null }],
    [
      'null fields',
      { overwriteExistingTranslations: null, translationMemorySettings: { useTranslationMemory: null, translationMemoryThreshold: null } },
    ],
  ])('absent values are false, the threshold 70: %s', (_name, dto) => {
    expect(rulesFromV4(dto)).toEqual(OFF);
    expect(OFF.translationMemory.threshold).toBe(DEFAULT_TM_THRESHOLD);
  });

  it.each<[number, number]>([
    [0, 0],
    [0.7, 70],
    [0.755, 76],
    [0.999, 100],
    [1, 100],
    [1.01, 101],
    [1.5, 101],
    [-0.2, 0],
    [Number.NaN, 70],
  ])('threshold %d is %i points', (fraction, points) => {
    expect(rulesFromV4({ translationMemorySettings: { translationMemoryThreshold: fraction } }).translationMemory.threshold).toBe(points);
  });
});
