import { describe, expect, it } from 'vitest';
import { QaText } from '../text.js';
import type { QaSegment, QaWarning } from '../types.js';
import {
  checkAbsoluteTargetLength,
  checkEmptyTarget,
  checkNewerAtLowerLevel,
  checkNotConfirmed,
  checkRelativeTargetLength,
  checkTargetLength,
  checkTargetLengthPerSegment,
  checkTargetLengthPercent,
  checkTargetSourceIdentical,
  checkUnmodifiedFuzzy,
  checkUnmodifiedFuzzyMtNt,
  checkUnmodifiedFuzzyTm,
  lengthLimit,
} from './segment.js';

const en = (text: string): QaText => new QaText(text, 'en');
const de = (text: string): QaText => new QaText(text, 'de');
function collect(run: (out: QaWarning[]) => void): QaWarning[] {
  const out: QaWarning[] = [];
  run(out);
  return out;
}

describe('emptyTarget', () => {
  it.each([
    ['Hello', '', true],
    ['Hello', '   ', true],
    ['Hello', '{1}', true],
    ['Hello', ' {1> <1} ', true],
    ['{1}', '', true],
    ['Hello', 'Hallo', false],
    ['{1}', '{1}', false],
    ['{1}', ' ', false],
    ['Hello', '{1}x', false],
  ])('%j -> %j fires: %s', (source, target, fires) => {
    const out = collect((o) => checkEmptyTarget(en(source), de(target), o, true));
    expect(out.length > 0).toBe(fires);
    if (fires) expect(out[0]).toEqual({ type: 'EmptyTranslation', key: '', ignorable: true, details: {} });
  });
});

describe('targetSourceIdentical', () => {
  it.each([
    ['Barbados', 'Barbados', true],
    ['OK {1}', 'OK {1}', true],
    ['Barbados', 'Barbados ', false],
    ['100', '100', false],
    ['%s: %d', '%s: %d', true],
    ['{1}', '{1}', false],
    ['-- ...', '-- ...', false],
    ['File', 'Datei', false],
  ])('%j -> %j fires: %s', (source, target, fires) => {
    expect(collect((o) => checkTargetSourceIdentical(en(source), de(target), o, false)).length > 0).toBe(fires);
  });
});

describe('segment state', () => {
  const base: Pick<QaSegment, 'confirmed' | 'newerAtLowerLevel' | 'unmodifiedOrigin' | 'unmodifiedOriginScore'> = {
    confirmed: true,
    newerAtLowerLevel: false,
    unmodifiedOrigin: null,
    unmodifiedOriginScore: null,
  };
  it('NotConfirmed fires for an unconfirmed segment only', () => {
    expect(collect((o) => checkNotConfirmed({ confirmed: false }, o, true)).map((w) => w.type)).toEqual(['NotConfirmed']);
    expect(collect((o) => checkNotConfirmed({ confirmed: true }, o, true))).toEqual([]);
  });
  it('NewerAtLowerLevel fires when the flag is set', () => {
    expect(collect((o) => checkNewerAtLowerLevel({ newerAtLowerLevel: true }, o, true)).map((w) => w.type)).toEqual(['NewerAtLowerLevel']);
    expect(collect((o) => checkNewerAtLowerLevel({ newerAtLowerLevel: false }, o, true))).toEqual([]);
  });
  // origin, score -> [generic, TM, MT/NT]
  it.each([
    [null, null, [false, false, false]],
    ['tm', 0.85, [true, true, false]],
    ['tm', null, [true, true, false]],
    ['tm', 1, [false, false, false]],
    ['tm', 1.01, [false, false, false]],
    ['mt', null, [true, false, true]],
    ['nt', 1, [true, false, true]],
  ] as const)('origin %s score %s', (origin, score, expected) => {
    const segment = { ...base, unmodifiedOrigin: origin, unmodifiedOriginScore: score };
    const fired = [checkUnmodifiedFuzzy, checkUnmodifiedFuzzyTm, checkUnmodifiedFuzzyMtNt].map((check) =>
      collect((o) => check(segment, o, true)),
    );
    expect(fired.map((w) => w.length > 0)).toEqual(expected);
    if (origin === 'mt') expect(fired[2]![0]!.details).toEqual({ transOrigin: 'mt' });
    if (expected[1]) expect(fired[1]![0]!.details).toEqual({ transOrigin: 'tm' });
  });
});

describe('length limits', () => {
  it.each([
    [0, null],
    [null, null],
    [-3, null],
    ['12', 12],
    ['x', null],
    [40, 40],
  ])('lengthLimit(%j) = %j', (value, limit) => {
    expect(lengthLimit(value)).toBe(limit);
  });

  it('targetLength counts code points, not tags', () => {
    expect(collect((o) => checkTargetLength(de('{1>abcde<1}'), 5, o, true))).toEqual([]);
    expect(collect((o) => checkTargetLength(de('😀😀😀😀😀'), 5, o, true))).toEqual([]);
    expect(collect((o) => checkTargetLength(de('abcdef'), 5, o, true))).toEqual([
      { type: 'AbsoluteLength', key: 'targetLength', ignorable: true, details: { limit: '5' } },
    ]);
  });

  it('absoluteTargetLength: more than N characters longer than the source', () => {
    expect(collect((o) => checkAbsoluteTargetLength(en('abcde'), de('abcdefgh'), 3, o, true))).toEqual([]);
    expect(collect((o) => checkAbsoluteTargetLength(en('abcde'), de('abcdefghi'), 3, o, true))[0]).toMatchObject({
      type: 'AbsoluteLength',
      key: 'absoluteTargetLength',
      details: { limit: '+3' },
    });
  });

  it('targetLengthPercent: longer than N % of the source', () => {
    expect(collect((o) => checkTargetLengthPercent(en('abcdefghij'), de('abcdefghijkl'), 120, o, true))).toEqual([]);
    expect(collect((o) => checkTargetLengthPercent(en('abcdefghij'), de('abcdefghijklm'), 120, o, true))[0]).toMatchObject({
      type: 'RelativeLength',
      details: { limit: '120%' },
    });
    expect(collect((o) => checkTargetLengthPercent(en('{1}'), de('abc'), 120, o, true))).toEqual([]);
  });

  it('relativeTargetLength: longer than the source by more than N %', () => {
    expect(collect((o) => checkRelativeTargetLength(en('abcdefghij'), de('abcdefghijkl'), 20, o, true))).toEqual([]);
    expect(collect((o) => checkRelativeTargetLength(en('abcdefghij'), de('abcdefghijklm'), 20, o, true))[0]).toMatchObject({
      type: 'RelativeLength',
      key: 'relativeTargetLength',
      details: { limit: '+20%' },
    });
  });

  it('targetLengthPerSegment: the file limit', () => {
    expect(collect((o) => checkTargetLengthPerSegment(de('abcdef'), null, o, true))).toEqual([]);
    expect(collect((o) => checkTargetLengthPerSegment(de('abcdef'), 6, o, true))).toEqual([]);
    expect(collect((o) => checkTargetLengthPerSegment(de('abc{1}def'), 6, o, true))).toEqual([]);
    expect(collect((o) => checkTargetLengthPerSegment(de('abcdefg'), 6, o, false))).toEqual([
      { type: 'TranslationLength', key: '', ignorable: false, details: {} },
    ]);
  });
});
