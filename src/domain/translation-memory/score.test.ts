import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.js';
import { baseScore, compareMatches, isInContext, rankMatches, scoreMatch } from './score.js';
import type { ScoreOptions } from './score.js';

// Tag placeholders (segmentation contract): opening U+E000.., closing U+E800.., standalone U+F000...
const OPEN1 = '\uE001';
const CLOSE1 = '\uE801';
const ALONE1 = '\uF001';
const ALONE2 = '\uF002';

const SENTENCE = 'The quick brown fox jumps over the lazy dog today'; // 10 words, 49 characters

// [name, query, unit, options, expected score (null: dropped)]
const cases: [string, string, string, ScoreOptions, number | null][] = [
  ['identical', SENTENCE, SENTENCE, {}, 100],
  ['identical in context', SENTENCE, SENTENCE, { inContext: true }, 101],
  ['context does not lift a fuzzy match', SENTENCE, SENTENCE.replace('fox', 'cat'), { inContext: true }, 93],
  // "fox" → "cat": d = 3 over 49 characters: ⌊100 × 46 / 49⌋ = ⌊93.9⌋ = 93.
  ['one word changed in a 10-word sentence', SENTENCE, SENTENCE.replace('fox', 'cat'), {}, 93],
  // "fox" → "wolf": d = 3 (2 substitutions, 1 insertion) over 50: ⌊100 × 47 / 50⌋ = 94.
  ['one word changed, longer', SENTENCE, SENTENCE.replace('fox', 'wolf'), {}, 94],
  ['only a number differs', 'Version 2 of 10', 'Version 3 of 10', {}, 99],
  ['two numbers differ', 'Pay 5 of 10 now', 'Pay 6 of 11 now', {}, 98],
  // "page # of #" against "page of #": d = 2 over 11, ⌊100 × 9 / 11⌋ = 81; one number differs: 80.
  ['a number missing', 'Page 2 of 10', 'Page of 10', {}, 80],
  ['only a tag differs (another standalone tag)', `Click ${ALONE1} to save`, `Click ${ALONE2} to save`, {}, 99],
  // d = 2 over 16, ⌊100 × 14 / 16⌋ = 87; two tags (the halves of a pair) differ: 85.
  ['only a tag differs (a paired tag missing)', `Click ${OPEN1}Save${CLOSE1} now`, `Click Save now`, {}, 85],
  ['tags reordered', `${ALONE1}a${ALONE2}`, `${ALONE2}a${ALONE1}`, {}, 99],
  ['whitespace only (double space)', 'Hello  world', 'Hello world', {}, 99],
  ['whitespace only (trailing)', 'Hello world ', 'Hello world', {}, 99],
  ['whitespace only (moved from the start to the end)', ' a b', 'a b ', {}, 99],
  ['whitespace and case', 'Hello  World', 'hello world', {}, 99],
  ['a space removed is an edit', 'Hello world', 'Helloworld', {}, 90],
  ['case only', 'Hello World', 'hello world', {}, 99],
  ['punctuation only', 'Hello, world!', 'Hello world', {}, 99],
  ['punctuation moved', 'a ,b', 'a, b', {}, 99],
  ['number and case', 'Version 2', 'version 3', {}, 98],
  ['numbers with separators are one number', 'It costs 1,000.50', 'It costs 1,000.75', {}, 99],
  ['both empty', '', '', {}, 100],
  ['empty against text', '', 'Hello', {}, 0],
  ['only whitespace against empty', '   ', '', {}, 99],
  ['per-TM penalty', SENTENCE, SENTENCE, { tmPenalty: 5 }, 95],
  ['per-TM penalty after context', SENTENCE, SENTENCE, { tmPenalty: 5, inContext: true }, 96],
  ['per-TM penalty never below 0', 'abc', 'xyz', { tmPenalty: 10 }, 0],
  ['at the minimum score kept', SENTENCE, SENTENCE.replace('fox', 'cat'), { minScore: 93 }, 93],
  ['below the minimum score dropped', SENTENCE, SENTENCE.replace('fox', 'cat'), { minScore: 94 }, null],
  ['per-TM penalty takes it below the minimum', SENTENCE, SENTENCE, { minScore: 98, tmPenalty: 3 }, null],
  ['in context reaches a minimum of 101', SENTENCE, SENTENCE, { minScore: 101, inContext: true }, 101],
  ['unrelated texts', 'Open the file', 'Zzzz qqqq', { minScore: 75 }, null],
];

describe('scoreMatch', () => {
  for (const [name, query, unit, options, expected] of cases) {
    it(`${name}: ${JSON.stringify(query)} / ${JSON.stringify(unit)} → ${expected}`, () => {
      expect(scoreMatch(normalize(query), normalize(unit), options)).toBe(expected);
    });
  }

  it('a number or tag difference never gives 100, even on long texts where the base would round to 100', () => {
    const long = 'word '.repeat(400);
    expect(scoreMatch(normalize(`${long} 1`), normalize(`${long} 2`))).toBe(99);
    expect(scoreMatch(normalize(`${long}${ALONE1}`), normalize(long))).toBeLessThanOrEqual(99);
    expect(scoreMatch(normalize(`${long}x`), normalize(long))).toBe(99); // base ⌊100 × 2000 / 2001⌋ = 99
  });

  it('is symmetric', () => {
    for (const [, query, unit] of cases) {
      expect(scoreMatch(normalize(unit), normalize(query))).toBe(scoreMatch(normalize(query), normalize(unit)));
    }
  });

  it('with a minimum score, gives the unbounded score or null (2,000 random pairs)', () => {
    let state = 42;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    const words = ['the', 'file', 'File', 'open', '2', '10', ',', '.', ALONE1, OPEN1, CLOSE1, ' ', 'Save'];
    const text = () => Array.from({ length: Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]!).join(' ');
    for (let round = 0; round < 2000; round++) {
      const a = normalize(text());
      const b = normalize(next() < 0.5 ? text() : a.text.replace('file', 'File'));
      const options = { inContext: next() < 0.3, tmPenalty: Math.floor(next() * 5) };
      const full = scoreMatch(a, b, options)!;
      const minScore = Math.floor(next() * 102);
      expect(scoreMatch(a, b, { ...options, minScore })).toBe(full >= minScore ? full : null);
    }
  });

  it('the bounded base is exact whenever it reaches the bound', () => {
    const a = normalize(SENTENCE);
    const b = normalize(SENTENCE.replace('quick brown', 'slow red'));
    const exact = baseScore(a, b);
    expect(baseScore(a, b, exact)).toBe(exact);
    expect(baseScore(a, b, exact + 1)).toBeLessThan(exact + 1);
  });
});

describe('isInContext', () => {
  const at = (previousHash: string | null, nextHash: string | null, key: string | null = null) => ({ previousHash, nextHash, key });
  it('needs both neighbours the same', () => {
    expect(isInContext(at('p', 'n'), at('p', 'n'))).toBe(true);
    expect(isInContext(at('p', 'n'), at('p', 'x'))).toBe(false);
    expect(isInContext(at(null, 'n'), at(null, 'n'))).toBe(true);
    expect(isInContext(at(null, 'n'), at('p', 'n'))).toBe(false);
  });
  it('uses the key when both have one', () => {
    expect(isInContext(at('p', 'n', 'k'), at('x', 'y', 'k'))).toBe(true);
    expect(isInContext(at('p', 'n', 'k'), at('p', 'n', 'j'))).toBe(false);
  });
});

describe('ranking', () => {
  const match = (score: number, tmOrder: number, modifiedAt: string, id: string) => ({ score, tmOrder, modifiedAt, id });
  it('orders by score, TM order, most recent change, id; drops those below the minimum', () => {
    const a = match(90, 1, '2026-01-01T00:00:00.000Z', 'a');
    const b = match(95, 2, '2026-01-01T00:00:00.000Z', 'b');
    const c = match(90, 0, '2025-01-01T00:00:00.000Z', 'c');
    const d = match(90, 1, '2026-06-01T00:00:00.000Z', 'd');
    const e = match(90, 1, '2026-06-01T00:00:00.000Z', 'e');
    const f = match(70, 0, '2026-06-01T00:00:00.000Z', 'f');
    expect(rankMatches([f, e, a, d, c, b], 75).map((m) => m.id)).toEqual(['b', 'c', 'd', 'e', 'a']);
    expect(compareMatches(a, a)).toBe(0);
  });
});
