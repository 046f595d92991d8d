import { describe, expect, it } from 'vitest';
import { MAX_PLAIN_TEXT_UNIT_CHARS, plainTextFilter } from './plain-text.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
const utf8bom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);

describe('plain text parse', () => {
  const cases: { name: string; text: string; mode?: 'line' | 'paragraph'; units: [locator: string, source: string][] }[] = [
    {
      name: 'one unit per line, blank lines skipped',
      text: 'First line.\n\nSecond line.\nThird.\n',
      units: [
        ['1', 'First line.'],
        ['3', 'Second line.'],
        ['4', 'Third.'],
      ],
    },
    {
      name: 'white space around a line is not part of it',
      text: '  indented\t \n \t \nlast',
      units: [
        ['1', 'indented'],
        ['3', 'last'],
      ],
    },
    {
      name: 'CRLF and lone CR end lines too',
      text: 'a\r\nb\rc\n',
      units: [
        ['1', 'a'],
        ['2', 'b'],
        ['3', 'c'],
      ],
    },
    { name: 'empty file', text: '', units: [] },
    {
      name: 'paragraph mode joins lines up to a blank line',
      text: 'One sentence\ncontinues here.\n\n  Second paragraph.  \n\n\nThird\n',
      mode: 'paragraph',
      units: [
        ['1', 'One sentence\ncontinues here.'],
        ['4', 'Second paragraph.'],
        ['7', 'Third'],
      ],
    },
  ];

  it.each(cases)('$name', async ({ text, mode, units }) => {
    for (const size of [1, 2, 1000]) {
      const got = await parseAll(plainTextFilter, text, { plainTextUnit: mode }, size);
      expect(got.map((u) => [u.locator, u.source])).toEqual(units);
      got.forEach((u, i) => expect(u).toMatchObject({ index: i, key: null, target: null, translatable: true, note: null, tags: [] }));
    }
  });

  it.each([
    ['UTF-8 with BOM', utf8bom('Grüße\r\nWelt ☺\r\n')],
    ['UTF-16LE with BOM', utf16le('Grüße\r\nWelt ☺\r\n')],
    ['UTF-16BE with BOM', utf16be('Grüße\r\nWelt ☺\r\n')],
  ])('decodes %s', async (_name, bytes) => {
    for (const size of [1, 3, 1000]) {
      expect((await parseAll(plainTextFilter, bytes, {}, size)).map((u) => u.source)).toEqual(['Grüße', 'Welt ☺']);
    }
  });

  it('turns tagRegexp matches into standalone tags', async () => {
    const [unit] = await parseAll(plainTextFilter, 'Hello {name}, you have %d messages\n', { tagRegexp: '\\{[a-z]+\\}|%d' });
    expect(unit?.source).toBe('Hello {1}, you have {2} messages');
    expect(unit?.tags.map((t) => [t.id, t.kind, t.original, t.display])).toEqual([
      [1, 'standalone', '{name}', '{1}'],
      [2, 'standalone', '%d', '{2}'],
    ]);
  });

  it.each([
    ['invalid UTF-8', Buffer.from([0x61, 0xff, 0x62]), /not valid UTF-8/],
    ['UTF-16 cut in half', Buffer.from([0xff, 0xfe, 0x61]), /not valid UTF-16LE/],
    ['a bad tagRegexp', Buffer.from('a'), /tagRegexp is not a valid regular expression/],
  ])('refuses %s with a FormatError', async (_name, bytes, message) => {
    const failure = parseAll(plainTextFilter, bytes, { tagRegexp: String(message).includes('tagRegexp') ? '(' : undefined });
    await expect(failure).rejects.toBeInstanceOf(FormatError);
    await expect(failure).rejects.toThrow(message);
  });

  it('refuses a line too long to hold in memory', async () => {
    const failure = parseAll(plainTextFilter, 'x'.repeat(MAX_PLAIN_TEXT_UNIT_CHARS + 10), {}, 64 * 1024);
    await expect(failure).rejects.toThrow(/a line is longer than/);
  });
});

describe('plain text write-back', () => {
  it.each([
    ['UTF-8 LF', Buffer.from('a\n\nb \n')],
    ['UTF-8 BOM CRLF, no final line end', utf8bom('a\r\n\r\n b\r\nc')],
    ['UTF-16LE BOM CRLF', utf16le('Grüße\r\n\r\nWelt\r\n')],
    ['UTF-16BE BOM', utf16be('Grüße\n')],
    ['mixed line ends', Buffer.from('a\r\nb\rc\n\n')],
  ])('writes %s back byte for byte when nothing is translated', async (_name, bytes) => {
    for (const size of [1, 3, 1000]) expect((await writeAll(plainTextFilter, bytes, {}, {}, size)).equals(bytes)).toBe(true);
  });

  it('replaces translated lines, keeping BOM, encoding, line ends and outer white space', async () => {
    const original = utf16le('  Hello\r\n\r\nWorld \r\nStays\r\n');
    const out = await writeAll(plainTextFilter, original, { '1': 'Hallo', '3': 'Welt' }, {}, 5);
    expect(out.equals(utf16le('  Hallo\r\n\r\nWelt \r\nStays\r\n'))).toBe(true);
  });

  it('puts tags back and gives line breaks in a translation the file’s line end', async () => {
    const out = await writeAll(plainTextFilter, 'Hi {name}!\r\nBye\r\n', { '1': 'Hallo {1}!\nZweite Zeile' }, { tagRegexp: '\\{\\w+\\}' });
    expect(out.toString()).toBe('Hallo {name}!\r\nZweite Zeile\r\nBye\r\n');
  });

  it('writes a translated paragraph in paragraph mode', async () => {
    const out = await writeAll(
      plainTextFilter,
      'Line one\nline two.\n\nNext\n',
      { '1': 'Zeile eins\nZeile zwei.' },
      { plainTextUnit: 'paragraph' },
    );
    expect(out.toString()).toBe('Zeile eins\nZeile zwei.\n\nNext\n');
  });

  it('round trips: parse, translate, write, parse shows the translations', async () => {
    const text = 'One\n\nTwo\nThree\n';
    const units = await parseAll(plainTextFilter, text);
    const out = await writeAll(plainTextFilter, text, Object.fromEntries(units.map((u) => [u.locator, `[${u.source}]`])));
    expect((await parseAll(plainTextFilter, out)).map((u) => [u.locator, u.source])).toEqual(
      units.map((u) => [u.locator, `[${u.source}]`]),
    );
  });
});
