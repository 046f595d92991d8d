import { describe, expect, it } from 'vitest';
import { QaText, parseTags } from '../text.js';
import type { QaWarning } from '../types.js';
import { checkFormatting, checkJoinTags, checkMalformed, checkNestedTags, checkTagContent } from './tags.js';

function run(check: (s: QaText, t: QaText, out: QaWarning[], ignorable: boolean) => void, source: string, target: string): QaWarning[] {
  const out: QaWarning[] = [];
  check(new QaText(source, 'en'), new QaText(target, 'de'), out, true);
  return out;
}

describe('parseTags', () => {
  it('reads the three kinds and nothing else', () => {
    expect(parseTags('a{1>b<1}c{22}d{x}<y}{3 {4>').map((t) => [t.id, t.kind, t.start, t.end])).toEqual([
      [1, 0, 1, 4],
      [1, 1, 5, 8],
      [22, 2, 9, 13],
      [4, 0, 23, 26],
    ]);
    expect(parseTags('no tags')).toEqual([]);
  });
});

describe('joinMarksInconsistency', () => {
  it.each([
    ['a {1}b', 'b {1}a', false],
    ['{1>a<1} {2}', '{2} {1>a<1}', false],
    ['no tags', 'keine Tags', false],
    ['a {1}b', 'b a', true],
    ['a b', 'b {1}a', true],
    ['{1>a<1}', '{1>a', true],
    ['{1}{2}', '{1}{3}', true],
    ['{1}', '{1>', true],
  ])('%j -> %j fires: %s', (source, target, fires) => {
    const out = run(checkJoinTags, source, target);
    expect(out.length > 0).toBe(fires);
    if (fires)
      expect(out[0]!.details).toEqual({
        sourceTagsCount: new QaText(source, 'en').tags.length,
        translationTagsCount: new QaText(target, 'de').tags.length,
      });
  });
});

describe('malformed', () => {
  it.each([
    ['{1>a<1}', '{1>a<1}', []],
    ['{1>a<1}', '<1}a{1>', ['before <1}']],
    ['{1>a<1}', 'a<1}', ['unopened <1}']],
    ['{1>a<1}', '{1>a', ['unclosed {1>']],
    ['{1>a<1}', '{1>a{1><1}', ['twice {1>']],
    ['{1>a<1}', '{1>a<1}{7}', ['unknown {7}']],
    ['{1}a', '{1>a', ['kind {1>']],
    ['<1}a{1>', '<1}a{1>', []],
  ])('%j -> %j', (source, target, keys) => {
    const out = run(checkMalformed, source, target);
    expect(out.map((w) => w.key)).toEqual(keys);
    for (const w of out) expect(typeof w.details.message).toBe('string');
  });
});

describe('nestedTags', () => {
  it.each([
    ['{1>a{2>b<2}<1}', '{1>a{2>b<1}<2}', ['<1}']],
    ['{1>a<1}{2>b<2}', '{2>b<2}{1>a<1}', []],
    ['{1>a{2>b<2}<1}', '{1>a{2>b<2}<1}', []],
    ['{1>a{2>b<1}<2}', '{1>a{2>b<1}<2}', []],
  ])('%j -> %j', (source, target, misplaced) => {
    expect(run(checkNestedTags, source, target).map((w) => w.details.misplacedTargetTag)).toEqual(misplaced);
  });
});

describe('inconsistentFormatting', () => {
  it.each([
    ['{1>a {2>b<2}<1}', '{1>a<1} {2>b<2}', true],
    ['{1>a<1} {2>b<2}', '{1>a {2>b<2}<1}', true],
    ['{1>a {2}<1}', '{1>a<1} {2}', true],
    ['{1>a<1} {2>b<2}', '{2>b<2} {1>a<1}', false],
    ['{1>a {2>b<2}<1}', '{1>{2>b<2} a<1}', false],
    ['{1} {2}', '{2} {1}', false],
  ])('%j -> %j fires: %s', (source, target, fires) => {
    expect(run(checkFormatting, source, target).map((w) => w.type)).toEqual(fires ? ['Formatting'] : []);
  });
});

describe('tag content', () => {
  const content = (s: QaText, t: QaText, out: QaWarning[], ignorable: boolean): void =>
    checkTagContent(s, t, out, ignorable, ignorable, ignorable);
  it.each([
    ['Click {1>here<1}', 'Klicken Sie {1>hier<1}', []],
    ['Click {1>here<1}', 'Klicken Sie hier{1><1}', ['EmptyPairTags']],
    ['Click {1><1}here', 'Klicken Sie {1><1}hier', []],
    ['Click {1>here<1}', 'Klicken Sie {1> <1}hier', ['EmptyTagContent']],
    ['Click {1>here {2}<1}', 'Klicken Sie {1>{2}<1}hier', ['EmptyTagContent']],
    ['Call {1>112<1}', 'Rufen Sie {1>112<1}', []],
    ['Call {1>112<1}', 'Rufen Sie {1>110<1}', ['InconsistentTagContent']],
    ['Run {1>%s<1}', 'Führen Sie {1> %s <1} aus', []],
    ['Click {1> <1}here', 'Klicken Sie {1>hier<1}', ['InconsistentTagContent']],
    ['Click {1>here<1}', 'Klicken Sie hier', []],
  ])('%j -> %j', (source, target, types) => {
    expect(run(content, source, target).map((w) => w.type)).toEqual(types);
  });

  it('runs only the checks that are on', () => {
    const out: QaWarning[] = [];
    checkTagContent(new QaText('a {1>b<1}', 'en'), new QaText('a {1><1}', 'de'), out, null, true, true);
    expect(out).toEqual([]);
  });
});

describe('linear in the number of tags', () => {
  it('handles 20,000 crossing, nested and unopened tags', () => {
    const n = 20_000;
    const ids = Array.from({ length: n }, (_, i) => i + 1);
    const nested =
      ids.map((i) => `{${i}>`).join('') +
      'x' +
      [...ids]
        .reverse()
        .map((i) => `<${i}}`)
        .join('');
    const crossing = ids.map((i) => `{${i}>`).join('') + 'x' + ids.map((i) => `<${i}}`).join('');
    const unopened = ids.map((i) => `<${i}}`).join('') + ids.map((i) => `{${i}>`).join('');
    const all = (s: QaText, t: QaText, out: QaWarning[], ignorable: boolean): void => {
      checkJoinTags(s, t, out, ignorable);
      checkMalformed(s, t, out, ignorable);
      checkNestedTags(s, t, out, ignorable);
      checkFormatting(s, t, out, ignorable);
      checkTagContent(s, t, out, ignorable, ignorable, ignorable);
    };
    expect(run(all, nested, nested)).toEqual([]);
    expect(run(all, nested, crossing).filter((w) => w.type === 'NestedTags')).toHaveLength(n - 1);
    expect(run(all, nested, unopened).filter((w) => w.type === 'Malformed')).toHaveLength(n);
  });
});
