import { describe, expect, it } from 'vitest';
import { javaRegexToJs, javaRuleToJs, UnsupportedJavaRegexError } from './java-regex.js';

// [Java source, JavaScript source, ignoreCase]
const translations: [string, string, boolean][] = [
  ['\\b(?:Dr|Mr)\\.', '\\b(?:Dr|Mr)\\.', false],
  ['[\\.\\?!]+\\p{Pe}*', '[\\.\\?!]+\\p{Pe}*', false],
  ['\\s\\p{Lu}', '\\s\\p{Lu}', false],
  ['\\pL\\PL', '\\p{L}\\P{L}', false],
  ['\\p{IsLu}\\p{IsLatin}\\p{IsAlphabetic}', '\\p{Lu}\\p{Script=Latin}\\p{Alphabetic}', false],
  ['\\p{javaUpperCase}\\p{javaLowerCase}', '\\p{Uppercase}\\p{Lowercase}', false],
  ['\\p{javaLetterOrDigit}', '[\\p{L}\\p{Nd}]', false],
  ['[\\p{javaLetterOrDigit}_]', '[\\p{L}\\p{Nd}_]', false],
  ['\\p{sc=Han}\\p{gc=Lu}', '\\p{Script=Han}\\p{General_Category=Lu}', false],
  ['[\\p{Upper}\\p{Digit}]', '[A-Z0-9]', false],
  ['\\p{Lower}', '[a-z]', false],
  ['\\P{Alpha}', '[^a-zA-Z]', false],
  ['\\p{Punct}', '[!-\\/:-@\\[-`{-~]', false],
  ['(?i)\\bvs\\.', '\\bvs\\.', true],
  ['(?iu)etc\\.', 'etc\\.', true],
  ['\\Qe.g.\\E\\s', 'e\\.g\\.\\s', false],
  ['[\\Q.]\\E]', '[.\\]]', false],
  ['a++b*+c?+d{2}+', 'a+b*c?d{2}', false],
  ['a+?b\\++', 'a+?b\\++', false],
  ['(?>ab|a)c', '(?:ab|a)c', false],
  ['[]a]', '[\\]a]', false],
  ['[^]a]', '[^\\]a]', false],
  ['\\\'\\"\\-\\@\\:', '\'"-@:', false],
  ['[\\-a]', '[\\-a]', false],
  ['\\Aab\\Z', '^ab$', false],
  ['\\h+\\x{2026}', '[ \\t\\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000]+\\u{2026}', false],
  ['[\\h,]', '[ \\t\\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000,]', false],
  ['\\R', '(?:\\r\\n|[\\n\\x0B\\f\\r\\x85\\u2028\\u2029])', false],
  ['(?<=x)(?<name>y)\\k<name>', '(?<=x)(?<name>y)\\k<name>', false],
];

describe('javaRegexToJs', () => {
  for (const [java, js, ignoreCase] of translations) {
    it(`/${java}/ -> /${js}/`, () => {
      expect(javaRegexToJs(java)).toEqual({ source: js, ignoreCase });
      expect(() => new RegExp(js, 'u')).not.toThrow();
    });
  }

  const refused: [string, RegExp][] = [
    ['[a&&b]', /intersection/],
    ['[a[b]]', /nested character class/],
    ['\\p{InGreek}', /Unicode blocks/],
    ['(?s)a', /inline flag \(\?s\)/],
    ['a(?i:b)', /inline flags inside/],
    ['\\Ga', /\\G/],
    ['[abc', /unclosed character class/],
    ['\\p{NoSuchThing}', /unknown property/],
    ['a\\', /trailing backslash/],
    ['(a', /Cannot translate/],
  ];
  for (const [java, reason] of refused) {
    it(`refuses /${java}/`, () => {
      expect(() => javaRegexToJs(java)).toThrow(UnsupportedJavaRegexError);
      expect(() => javaRegexToJs(java)).toThrow(reason);
    });
  }

  it('translates whole rules, case-insensitive when either side says so', () => {
    expect(javaRuleToJs({ break: false, before: '(?i)\\bca\\.', after: '\\s\\p{Lu}' })).toEqual({
      break: false,
      before: '\\bca\\.',
      after: '\\s\\p{Lu}',
      ignoreCase: true,
    });
  });

  it('keeps the meaning of the translated expressions', () => {
    const upper = new RegExp(javaRegexToJs('^\\p{Upper}+$').source, 'u');
    expect(upper.test('ABC')).toBe(true);
    expect(upper.test('ÄBC')).toBe(false); // Java's POSIX classes are ASCII-only
    const letters = new RegExp(javaRegexToJs('^\\p{IsL}+$').source, 'u');
    expect(letters.test('Žluťoučký')).toBe(true);
    const quoted = new RegExp(javaRegexToJs('^\\Q(a+b)*\\E$').source, 'u');
    expect(quoted.test('(a+b)*')).toBe(true);
    expect(quoted.test('aab')).toBe(false);
  });
});
