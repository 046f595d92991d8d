import { describe, expect, it } from 'vitest';
import { countText, countTextInFull } from './word-count.js';

/**
 * countText's shortcut for plain ASCII text must give exactly what the general path gives: both
 * are compared on generated text, most of it inside the shortcut's alphabet, some of it just
 * outside (non-ASCII letters, CR, the underscore, tag placeholders, links).
 */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

const ASCII_PIECES = [
  'a',
  'Z',
  'word',
  '42',
  '3.14',
  '1,000',
  "don't",
  'e-mail',
  '-',
  '.',
  ',',
  ':',
  "'",
  ' ',
  '  ',
  '\t',
  '\n',
  '\v',
  '\f',
  '!',
  '?',
  '(',
  ')',
  '"',
  '/',
  '#',
  '~',
  '`',
];
const OUTSIDE = [
  '_',
  '\r',
  'é',
  'Straße',
  '日本語',
  'ไทย',
  '\uE000',
  '\uF000',
  'www.example.com',
  'a@b.org',
  'http://x.y/z',
  '\u00A0',
  '😀',
  'e\u0301',
  '\u0000',
];

function generate(next: () => number, outside: boolean): string {
  const length = Math.floor(next() * 12);
  let text = '';
  for (let i = 0; i < length; i++) {
    const pool = outside && next() < 0.2 ? OUTSIDE : ASCII_PIECES;
    text += pool[Math.floor(next() * pool.length)];
  }
  return text;
}

describe('countText shortcut', () => {
  it.each(['en', 'de', 'ja', 'zh_TW', 'th'])('agrees with the general path on generated text in %s', (language) => {
    const next = random(language.length * 7919);
    for (let i = 0; i < 4000; i++) {
      const text = generate(next, i % 2 === 1);
      expect(countText(text, language), JSON.stringify(text)).toEqual(countTextInFull(text, language));
    }
  });

  it.each(['', ' ', 'a', '\n', '\t \v\f', 'a b', ' a ', 'x-y', 'a.b', '1.2.3', "it's", 'www', 'a @ b', ':/', 'a:b'])(
    'agrees on %j',
    (text) => {
      expect(countText(text, 'en')).toEqual(countTextInFull(text, 'en'));
    },
  );
});
