import { describe, expect, it } from 'vitest';
import { NUMBER_CHARACTER as N, normalize } from './normalize.js';

// [name, input, text, compared, tags, numbers, punctuation]
const cases: [string, string, string, string, string, string[], string][] = [
  ['empty', '', '', '', '', [], ''],
  ['whitespace folded and trimmed', '  Hello \t\n World\u00A0 ', 'Hello World', 'hello world', '', [], ''],
  ['punctuation left out of the compared form', 'Hello, world!', 'Hello, world!', 'hello world', '', [], ',!'],
  ['punctuation between spaces leaves one space', 'a - b', 'a - b', 'a b', '', [], '-'],
  [
    'numbers one character each, separators inside them',
    'Pay 1,000.50 or 3.',
    'Pay 1,000.50 or 3.',
    `pay ${N} or ${N}`,
    '',
    ['1,000.50', '3'],
    '.',
  ],
  ['non-ASCII digits', 'Seite ٣٤', 'Seite ٣٤', `seite ${N}`, '', ['٣٤'], ''],
  [
    'tags one character of their kind',
    'a\uE003b\uE803 c\uF007',
    'a\uE003b\uE803 c\uF007',
    'a\uE000b\uE800 c\uF000',
    '\uE003\uE803\uF007',
    [],
    '',
  ],
  ['astral characters kept', 'Smile 😀', 'Smile 😀', 'smile 😀', '', [], ''],
];

describe('normalize', () => {
  for (const [name, input, text, compared, tags, numbers, punctuation] of cases) {
    it(name, () => {
      const n = normalize(input);
      expect({ text: n.text, compared: n.compared, tags: n.tags, numbers: n.numbers, punctuation: n.punctuation }).toEqual({
        text,
        compared,
        tags,
        numbers,
        punctuation,
      });
    });
  }

  it('keeps the case in `cased` and tells where whitespace was in `spacing`', () => {
    const n = normalize(' Hello  World');
    expect(n.cased).toBe('Hello World');
    expect(n.spacing).toBe(' \u0000  \u0000');
  });
});
