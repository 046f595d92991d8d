import { describe, expect, it } from 'vitest';
import { arbFilter, flutterLocale, icuUnit } from './arb.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';

const sample = `{
  "@@locale": "en",
  "@@last_modified": "2024-05-01T10:00:00Z",
  "appTitle": "My \\"App\\"",
  "@appTitle": {
    "description": "The title of the application",
    "context": "HomePage"
  },
  "hello": "Hello {userName}, it's {date, date, yMMMd}",
  "@hello": {
    "description": "Greeting",
    "placeholders": {
      "userName": { "type": "String", "example": "Bob" },
      "date": { "type": "DateTime" }
    }
  },
  "nWombats": "{count, plural, =0{no wombats} =1{1 wombat} other{{count} wombats}}",
  "@nWombats": { "placeholders": { "count": { "type": "num" } } },
  "pronoun": "{gender, select, male{he} female{she} other{they}} said",
  "ordinal": "{n, selectordinal, offset:1 one{#st} other{#th}}",
  "unbalanced": "Broken {name",
  "blank": " ",
  "count": 3
}
`;

describe('ARB parse', () => {
  it('reads messages with descriptions as notes, placeholders and ICU syntax as tags', async () => {
    const units = await parseAll(arbFilter, sample, {}, 9);
    expect(units.map((u) => [u.key, u.locator, u.source, u.note])).toEqual([
      ['appTitle', '/appTitle', 'My "App"', 'The title of the application'],
      ['hello', '/hello', "Hello {1}, it's {2}", 'Greeting'],
      ['nWombats', '/nWombats', '{1>{2>no wombats<2}{3>1 wombat<3}{4>{5} wombats<4}<1}', null],
      ['pronoun', '/pronoun', '{1>{2>he<2}{3>she<3}{4>they<4}<1} said', null],
      ['ordinal', '/ordinal', '{1>{2>{3}st<2}{4>{5}th<4}<1}', null],
      ['unbalanced', '/unbalanced', 'Broken {name', null],
    ]);
    expect(units[0]?.context).toBe('HomePage');
    expect(units[1]?.tags.map((t) => t.original)).toEqual(['{userName}', '{date, date, yMMMd}']);
    expect(units[2]?.tags.map((t) => [t.display, t.original])).toEqual([
      ['{1>', '{count, plural,'],
      ['{2>', ' =0{'],
      ['<2}', '}'],
      ['{3>', ' =1{'],
      ['<3}', '}'],
      ['{4>', ' other{'],
      ['{5}', '{count}'],
      ['<4}', '}'],
      ['<1}', '}'],
    ]);
  });

  it('falls back to {name} placeholders for text that is not ICU, and applies tagRegexp', () => {
    expect(icuUnit('Hi {name} {', null).source).toBe('Hi {1} {');
    expect(icuUnit('Hi <b>{name}</b>', /<\/?b>/gu).tags.map((t) => t.original)).toEqual(['<b>', '{name}', '</b>']);
    expect(icuUnit('{n, plural, other{<b>#</b>}}', /<\/?b>/gu).source).toBe('{1>{2>{3}{4}{5}<2}<1}');
  });

  it('reads deeply nested plurals as plain text beyond its limit', () => {
    const nested = `${'{n, plural, other{'.repeat(40)}x${'}}'.repeat(40)}`;
    expect(icuUnit(nested, null).tags.map((t) => t.original)).toEqual(['{x}']);
  });

  it.each([
    ['a top-level array', '["a"]', /JSON object/],
    ['a trailing comma', '{"a": "b",}', /malformed JSON/],
    ['a duplicate key', '{"a": "b", "a": "c"}', /duplicate key/],
  ])('refuses %s', async (_name, text, message) => {
    const error = await parseAll(arbFilter, text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('ARB write', () => {
  it('gives the file back byte for byte with no translations and with the sources as translations', async () => {
    expect((await writeAll(arbFilter, sample, {}, { targetLanguage: 'de' }, 4)).toString()).toBe(sample);
    const units = await parseAll(arbFilter, sample);
    const same = Object.fromEntries(units.map((u) => [u.locator, u.source]));
    expect((await writeAll(arbFilter, sample, same, { targetLanguage: 'de' })).toString()).toBe(sample);
  });

  it('writes translations with the ICU syntax put back and sets @@locale', async () => {
    const out = (
      await writeAll(
        arbFilter,
        sample,
        {
          '/hello': 'Hallo {1}, es ist {2} "heute"',
          '/nWombats': '{1>{2>keine Wombats<2}{3>ein Wombat<3}{4>{5} Wombats<4}<1}',
          '/ordinal': '{1>{2>{3}.<2}{4>{5}.<4}<1}',
        },
        { targetLanguage: 'pt-br' },
      )
    ).toString();
    const data = JSON.parse(out) as Record<string, unknown>;
    expect(data['@@locale']).toBe('pt_BR');
    expect(data.hello).toBe('Hallo {userName}, es ist {date, date, yMMMd} "heute"');
    expect(data.nWombats).toBe('{count, plural, =0{keine Wombats} =1{ein Wombat} other{{count} Wombats}}');
    expect(data.ordinal).toBe('{n, selectordinal, offset:1 one{#.} other{#.}}');
    expect(data.appTitle).toBe('My "App"');
    expect(out).toContain('  "@@last_modified": "2024-05-01T10:00:00Z",\n  "appTitle": "My \\"App\\"",\n');
    // What was written reads back as the same units.
    const again = await parseAll(arbFilter, out);
    expect(again.find((u) => u.key === 'nWombats')?.source).toBe('{1>{2>keine Wombats<2}{3>ein Wombat<3}{4>{5} Wombats<4}<1}');
  });

  it('refuses a translation whose plural tags are broken', async () => {
    await expect(writeAll(arbFilter, sample, { '/nWombats': '{1>{2>keine<2}{3>ein<3}{4>{5} Wombats<4}' })).rejects.toThrow(
      /message nWombats: the translation's plural\/select tags/,
    );
  });

  it.each([
    ['de', 'de'],
    ['pt-br', 'pt_BR'],
    ['zh_hant_tw', 'zh_Hant_TW'],
    ['es-419', 'es_419'],
  ])('names the locale %s as %s', (code, expected) => {
    expect(flutterLocale(code)).toBe(expected);
  });

  it('keeps a UTF-8 BOM', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"@@locale": "en", "a": "Hi"}')]);
    const out = await writeAll(arbFilter, bytes, { '/a': 'Hallo' }, { targetLanguage: 'de' });
    expect(out.toString()).toBe('\ufeff{"@@locale": "de", "a": "Hallo"}');
  });
});

describe('ARB hostile input', () => {
  it('refuses nesting beyond maxDepth and reads long messages', async () => {
    await expect(parseAll(arbFilter, `{"a": ${'['.repeat(600)}${']'.repeat(600)}}`)).rejects.toThrow(/nested deeper/);
    const [unit] = await parseAll(arbFilter, `{"a": "${'{x} '.repeat(300_000)}"}`);
    expect(unit?.tags).toHaveLength(300_000);
  });

  it('reads an unterminated plural in linear time', () => {
    const started = Date.now();
    expect(icuUnit(`{n, plural, other{${'a'.repeat(1_000_000)}`, null).tags).toEqual([]);
    expect(icuUnit('{n, plural, other{'.repeat(30) + 'x', null).tags).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('ARB detect', () => {
  it.each([
    ['{\n  "@@locale": "en"', true],
    ['{"hello": "x"}', false],
    ['["@@locale"]', false],
  ])('%j → %s', (text, expected) => {
    expect(arbFilter.detect!(Buffer.from(text))).toBe(expected);
  });
});
