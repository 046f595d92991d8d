import { describe, expect, it } from 'vitest';
import { LevenshteinPattern, levenshtein, levenshteinReference } from './levenshtein.js';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Small alphabets make many matches (the hard case for the bit tricks); astral characters are two code units. */
const ALPHABETS = ['ab', 'abc ', 'abcdefghij', 'aé😀b\uE000'];

function randomString(next: () => number, length: number, alphabet: string[]): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(next() * alphabet.length)]!;
  return s;
}

/** A variant of `s`: a few random edits, so distances are small as well as large. */
function mutate(next: () => number, s: string, alphabet: string[]): string {
  const chars = [...s];
  const edits = Math.floor(next() * 6);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * (chars.length + 1));
    const r = next();
    const c = alphabet[Math.floor(next() * alphabet.length)]!;
    if (r < 0.33) chars.splice(at, 0, c);
    else if (r < 0.66) chars.splice(at, 1);
    else chars.splice(at, 1, c);
  }
  return chars.join('');
}

describe('levenshtein', () => {
  const table: [string, string, number][] = [
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['same', 'same', 0],
    ['😀', '😁', 1], // one code unit of the pair differs
    ['😀', '', 2],
    ['a'.repeat(32), 'a'.repeat(33), 1],
    ['a'.repeat(64), 'b'.repeat(64), 64],
    ['ab'.repeat(50), 'ba'.repeat(50), 2],
  ];
  for (const [a, b, d] of table) {
    it(`${JSON.stringify(a.length > 12 ? `${a.slice(0, 12)}…` : a)} / ${JSON.stringify(b.length > 12 ? `${b.slice(0, 12)}…` : b)} = ${d}`, () => {
      expect(levenshtein(a, b)).toBe(d);
      expect(levenshtein(b, a)).toBe(d);
      expect(levenshteinReference(a, b)).toBe(d);
    });
  }

  it('agrees with the dynamic programme on 6,000 random pairs (empty, astral, up to 200 code units)', () => {
    const next = random(14);
    let checked = 0;
    for (let round = 0; round < 6000; round++) {
      const alphabet = [...ALPHABETS[round % ALPHABETS.length]!];
      const lengthClass = round % 4;
      const maxLength = lengthClass === 0 ? 4 : lengthClass === 1 ? 40 : lengthClass === 2 ? 80 : 200;
      const a = randomString(next, Math.floor(next() * (maxLength + 1)), alphabet);
      const b = next() < 0.5 ? mutate(next, a, alphabet) : randomString(next, Math.floor(next() * (maxLength + 1)), alphabet);
      const expected = levenshteinReference(a, b);
      if (levenshtein(a, b) !== expected) expect({ a, b, d: levenshtein(a, b) }).toEqual({ a, b, d: expected });
      // With a bound: exact at or below it, above it otherwise.
      const bound = Math.floor(next() * (expected + 3));
      const bounded = levenshtein(a, b, bound);
      if (expected <= bound ? bounded !== expected : bounded <= bound)
        expect({ a, b, bound, bounded }).toEqual({ a, b, bound, bounded: expected });
      checked++;
    }
    expect(checked).toBe(6000);
  });

  it('returns bound + 1 early when the lengths alone exceed the bound', () => {
    expect(levenshtein('a', 'abcdef', 2)).toBe(3);
    expect(levenshtein('x'.repeat(100), 'y'.repeat(100), 10)).toBe(11);
    expect(levenshtein('abc', 'abd', 0)).toBe(1);
    expect(levenshtein('abc', 'abc', 0)).toBe(0);
  });

  it('handles long strings (several words) exactly', () => {
    const next = random(7);
    const alphabet = [...'abcd'];
    const a = randomString(next, 1000, alphabet);
    const b = mutate(next, a, alphabet);
    expect(levenshtein(a, b)).toBe(levenshteinReference(a, b));
  });
});

/** The UTF-16 code units of a string (an astral character is two). */
function codeUnits(text: string): Uint16Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

describe('LevenshteinPattern', () => {
  it('agrees with the dynamic programme on 6,000 random pairs, the pattern shorter or longer, on a slice of the text', () => {
    const next = random(21);
    // Code units above 255 take the map's path; astral characters are two of them.
    const alphabets = [...ALPHABETS, 'aαβγ\u4e00 '];
    for (let round = 0; round < 6000; round++) {
      const alphabet = [...alphabets[round % alphabets.length]!];
      const maxLength = [3, 31, 33, 70, 150][round % 5]!;
      const a = randomString(next, Math.floor(next() * (maxLength + 1)), alphabet);
      const b = next() < 0.5 ? mutate(next, a, alphabet) : randomString(next, Math.floor(next() * (maxLength + 1)), alphabet);
      const prefix = randomString(next, Math.floor(next() * 4), alphabet);
      const suffix = randomString(next, Math.floor(next() * 4), alphabet);
      const expected = levenshteinReference(a, b);
      const pattern = new LevenshteinPattern(a);
      const units = codeUnits(prefix + b + suffix);
      const exact = pattern.distance(units, prefix.length, prefix.length + b.length);
      if (exact !== expected) expect({ a, b, d: exact }).toEqual({ a, b, d: expected });
      const bound = Math.floor(next() * (expected + 3));
      const bounded = pattern.distance(units, prefix.length, prefix.length + b.length, bound);
      if (expected <= bound ? bounded !== expected : bounded <= bound)
        expect({ a, b, bound, bounded }).toEqual({ a, b, bound, bounded: expected });
    }
  });

  it('measures one pattern against many texts (the work arrays are reused)', () => {
    const sentence = 'the quick brown fox jumps over the lazy dog, again and again';
    const pattern = new LevenshteinPattern(sentence);
    const texts = ['the quick brown fox', sentence, '', 'x'.repeat(90), 'the quick brown fox jumped over a lazy dog'];
    for (const text of texts) expect(pattern.distanceToText(text)).toBe(levenshteinReference(sentence, text));
    const bytes = Uint8Array.from(codeUnits('the quick brown fox'));
    expect(pattern.distance(bytes, 4, bytes.length)).toBe(levenshteinReference(sentence, 'quick brown fox'));
  });
});
