import { describe, expect, it } from 'vitest';
import { StringsScanner, iosStringsFilter, quoteStrings } from './ios-strings.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';

const sample = `/* Localizable.strings
   MyApp */

/* Title of the main screen */
"main.title" = "Welcome";

/* No comment provided by engineer. */
"greeting" = "Hello, %@! You have %d new messages."; // trailing note of greeting

// Shown when nothing is there
"empty.state" = "Nothing \\"here\\" yet\\nTry again";
"positional" = "%2$@ sent %1$lld files (%.1f%%)";
"unicode" = "Caf\\U00E9 \\u2615 😀";
unquoted_key = unquoted_value;
"blank" = "   ";
"plural" = "%#@files@";
"a/b" = "Slash";
`;

function units(text: string | Buffer, chunkSize?: number): Promise<Array<[string | null, string, string, string | null]>> {
  return parseAll(iosStringsFilter, text, {}, chunkSize).then((list) => list.map((u) => [u.key, u.locator, u.source, u.note]));
}

/** Re-reads a written file with the filter's own scanner: key → value. */
function entriesOf(text: string): Record<string, string> {
  const scanner = new StringsScanner(text);
  const out: Record<string, string> = {};
  for (let entry = scanner.next(); entry; entry = scanner.next()) out[entry.key] = entry.value;
  return out;
}

describe('.strings parse', () => {
  it('reads entries with their comments as notes and format specifiers as tags', async () => {
    expect(await units(sample, 5)).toEqual([
      ['main.title', 'main.title', 'Welcome', 'Title of the main screen'],
      ['greeting', 'greeting', 'Hello, {1}! You have {2} new messages.', null],
      ['empty.state', 'empty.state', 'Nothing "here" yet\nTry again', 'Shown when nothing is there'],
      ['positional', 'positional', '{1} sent {2} files ({3}{4})', null],
      ['unicode', 'unicode', 'Café ☕ 😀', null],
      ['unquoted_key', 'unquoted_key', 'unquoted_value', null],
      ['plural', 'plural', '{1}', null],
      ['a/b', 'a/b', 'Slash', null],
    ]);
    const [, greeting, , positional] = await parseAll(iosStringsFilter, sample);
    expect(greeting?.tags.map((t) => t.original)).toEqual(['%@', '%d']);
    expect(positional?.tags.map((t) => t.original)).toEqual(['%2$@', '%1$lld', '%.1f', '%%']);
  });

  it('leaves percent signs that are no specifiers alone', async () => {
    expect(await units('"a" = "50% off, 100 % sure, 20%";')).toEqual([['a', 'a', '50% off, 100 % sure, 20%', null]]);
  });

  it('applies tagRegexp from the mac settings', async () => {
    const [unit] = await parseAll(iosStringsFilter, '"a" = "Hi {name} %@";', { formatSettings: { tagRegexp: '\\{\\w+\\}' } });
    expect(unit?.source).toBe('Hi {1} {2}');
    expect(unit?.tags.map((t) => t.original)).toEqual(['{name}', '%@']);
  });

  it('gives repeated keys locators no key of the file takes', async () => {
    expect(await units('"k" = "one";\n"k#2" = "two";\n"k" = "three";\n"k" = "four";')).toEqual([
      ['k', 'k', 'one', null],
      ['k#2', 'k#2', 'two', null],
      ['k', 'k#3', 'three', null],
      ['k', 'k#4', 'four', null],
    ]);
  });

  it('reads UTF-16LE with a BOM (as Xcode writes), UTF-16BE without one, and UTF-8 split at every byte', async () => {
    const text = '/* Grüße */\n"hello" = "Grüße 😀";\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(text, 'utf16le').swap16();
    for (const [bytes, chunk] of [
      [le, 3],
      [be, 5],
      [Buffer.from(text), 1],
    ] as const) {
      expect(await units(bytes, chunk)).toEqual([['hello', 'hello', 'Grüße 😀', 'Grüße']]);
    }
  });

  it.each([
    ['a missing semicolon', '"a" = "b"\n"c" = "d";', /expected ";"/, 2, 1],
    ['a missing equals sign', '"a" "b";', /expected "=" or ";"/, 1, 5],
    ['an unterminated string', '"a" = "b;\n', /unterminated string/, 1, 7],
    ['an unterminated comment', '/* open\n"a" = "b";', /unterminated comment/, 1, 1],
    ['a bad \\U escape', '"a" = "\\UZZZZ";', /bad \\U escape/, 1, 8],
    ['a stray character', '"a" = "b";\n{', /unexpected character/, 2, 1],
  ])('refuses %s with a FormatError at its position', async (_name, text, message, line, column) => {
    const error = await parseAll(iosStringsFilter, text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect(error).toMatchObject({ line, column });
    expect((error as Error).message).toMatch(message);
  });

  it('refuses invalid UTF-8 and a file over the size limit', async () => {
    await expect(parseAll(iosStringsFilter, Buffer.from([0x22, 0x61, 0x22, 0x3d, 0x22, 0xff, 0x22, 0x3b]))).rejects.toThrow(
      /not valid UTF-8/,
    );
    await expect(parseAll(iosStringsFilter, `"a" = "${'x'.repeat(2000)}";`, { maxStringsBytes: 1000 } as object)).rejects.toThrow(
      /larger than 1000 bytes/,
    );
  });
});

describe('.strings write', () => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sample.replace(/\n/g, '\r\n'), 'utf16le')]);

  it.each([
    ['UTF-8', Buffer.from(sample)],
    ['UTF-16LE with BOM and CRLF', le],
  ])('gives back %s byte for byte, with no translations and with the sources as translations', async (_name, bytes) => {
    expect((await writeAll(iosStringsFilter, bytes, {}, {}, 7)).equals(bytes)).toBe(true);
    const list = await parseAll(iosStringsFilter, bytes);
    const same = Object.fromEntries(list.map((u) => [u.locator, u.source]));
    expect((await writeAll(iosStringsFilter, bytes, same)).equals(bytes)).toBe(true);
  });

  it('writes translations quoted and escaped, with tags put back, in the original encoding', async () => {
    const out = await writeAll(iosStringsFilter, le, {
      greeting: 'Hallo, {1}! Du hast {2} neue "Nachrichten".\n\tTschüss \\ 😀 \u0001',
      unquoted_key: 'Wert mit Leerzeichen',
      positional: '{2} Dateien von {1} ({3}{4})',
    });
    expect(out.subarray(0, 2).equals(Buffer.from([0xff, 0xfe]))).toBe(true);
    const text = out.subarray(2).toString('utf16le');
    expect(text).toContain(
      '"greeting" = "Hallo, %@! Du hast %d neue \\"Nachrichten\\".\\n\\tTschüss \\\\ 😀 \\U0001"; // trailing note of greeting\r\n',
    );
    expect(text).toContain('unquoted_key = "Wert mit Leerzeichen";\r\n');
    const entries = entriesOf(text);
    expect(entries.greeting).toBe('Hallo, %@! Du hast %d neue "Nachrichten".\n\tTschüss \\ 😀 \u0001');
    expect(entries.positional).toBe('%1$lld Dateien von %2$@ (%.1f%%)');
    expect(entries['main.title']).toBe('Welcome');
    expect(Object.keys(entries)).toEqual(Object.keys(entriesOf(sample)));
  });

  it('escapes for the .strings syntax', () => {
    expect(quoteStrings('a"b\\c\nd\re\tf\u007f')).toBe('"a\\"b\\\\c\\nd\\re\\tf\\U007F"');
  });
});

describe('.strings hostile input', () => {
  it('reads a string of megabytes and many entries in linear time', async () => {
    const [unit] = await parseAll(iosStringsFilter, `"long" = "${'ab\\n'.repeat(1_000_000)}";`);
    expect(unit?.source.length).toBe(3_000_000);
    const many = Array.from({ length: 200_000 }, (_, i) => `"k${i}" = "v${i}";`).join('\n');
    const started = Date.now();
    expect(await parseAll(iosStringsFilter, many)).toHaveLength(200_000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reads an unterminated string or comment to the end once', async () => {
    await expect(parseAll(iosStringsFilter, `"a" = "${'\\"'.repeat(1_000_000)}`)).rejects.toThrow(/unterminated string/);
    await expect(parseAll(iosStringsFilter, `/*${'*'.repeat(1_000_000)}`)).rejects.toThrow(/unterminated comment/);
  });
});

describe('.strings detect', () => {
  it.each([
    ['/* c */\n"a" = "b";', true],
    ['"a"="b";', true],
    ['// c\n"a" = "b";', true],
    ['{"a": "b"}', false],
    ['a = b', false],
    ['#include "x"', false],
  ])('%j → %s', (text, expected) => {
    expect(iosStringsFilter.detect!(Buffer.from(text))).toBe(expected);
  });

  it('recognizes UTF-16LE with BOM', () => {
    expect(iosStringsFilter.detect!(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('"a" = "b";', 'utf16le')]))).toBe(true);
  });
});
