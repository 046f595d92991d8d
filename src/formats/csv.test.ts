import { parse as parseCsvSync } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { cellContent, csvFilter, isMultilingualCsvSettings, MAX_CSV_FIELD_CHARS, multilingualCsvFilter, tsvFilter } from './csv.js';
import { parseAll, writeAll } from './testing.js';
import type { FilterOptions } from './types.js';
import { FormatError } from './types.js';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf8bom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
const settings = (formatSettings: Record<string, unknown>, more: FilterOptions = {}): FilterOptions => ({ formatSettings, ...more });

/** Re-parses with csv-parse (the reference reader). */
function reparse(text: string | Buffer, delimiter = ','): string[][] {
  return parseCsvSync(text, { delimiter, relax_column_count: true, bom: true }) as string[][];
}

const SAMPLE = [
  'key,English,Comment,Max',
  'greeting,"Hello, world",Shown on start,20',
  'farewell,Goodbye,,',
  'multi,"Line one',
  'line ""two""",A note,x',
  '',
  'spaced,  padded  ,,5',
].join('\r\n');

describe('CSV scanner and units', () => {
  it('reads every non-blank cell by default, cells named like a spreadsheet', async () => {
    for (const size of [1, 2, 3, 7, 1000]) {
      const units = await parseAll(csvFilter, 'a,b\n"c,d",\n,e', {}, size);
      expect(units.map((u) => [u.locator, u.source])).toEqual([
        ['A1', 'a'],
        ['B1', 'b'],
        ['A2', 'c,d'],
        ['B3', 'e'],
      ]);
      units.forEach((u, i) => expect(u).toMatchObject({ index: i, key: null, target: null, translatable: true, note: null }));
    }
  });

  it('applies importColumns, importRows, contextKeyColumn, contextNoteColumns and maxLenColumn', async () => {
    const options = settings({ importColumns: 'B', importRows: '2-', contextKeyColumn: 'A', contextNoteColumns: 'C', maxLenColumn: '4' });
    for (const size of [1, 5, 4096]) {
      const units = await parseAll(csvFilter, SAMPLE, options, size);
      expect(units.map((u) => [u.locator, u.key, u.source, u.note, u.maxLength])).toEqual([
        ['B2', 'greeting', 'Hello, world', 'Shown on start', 20],
        ['B3', 'farewell', 'Goodbye', null, undefined],
        ['B4', 'multi', 'Line one\r\nline "two"', 'A note', undefined],
        ['B6', 'spaced', '  padded  ', null, 5],
      ]);
    }
  });

  it('without importColumns leaves the key, note and max-length columns out', async () => {
    const units = await parseAll(
      csvFilter,
      SAMPLE,
      settings({ contextKeyColumn: 'A', contextNoteColumns: 'C', maxLenColumn: 'D', importRows: '2,3' }),
    );
    expect(units.map((u) => u.locator)).toEqual(['B2', 'B3']);
  });

  it('takes semicolons, tabs and other delimiters', async () => {
    expect((await parseAll(csvFilter, 'a;"b;c"\n', settings({ delimiterType: 'SEMICOLON' }))).map((u) => u.source)).toEqual(['a', 'b;c']);
    expect((await parseAll(csvFilter, 'a\tb\n', settings({ delimiterType: 'TAB' }))).map((u) => u.source)).toEqual(['a', 'b']);
    expect((await parseAll(csvFilter, 'a|b\n', settings({ delimiterType: 'OTHER', delimiter: '|' }))).map((u) => u.source)).toEqual([
      'a',
      'b',
    ]);
    expect((await parseAll(tsvFilter, 'a,x\tb\n')).map((u) => u.source)).toEqual(['a,x', 'b']);
    expect((await parseAll(tsvFilter, 'a;x\tb\n', settings({ delimiterType: 'SEMICOLON' }))).map((u) => u.source)).toEqual(['a', 'x\tb']);
  });

  it('turns HTML into tags with htmlSubFilter, and tagRegexp matches into standalone tags', async () => {
    const [unit] = await parseAll(
      csvFilter,
      '"Click <b>here</b> for {count} items<br/>"\n',
      settings({ htmlSubFilter: true, tagRegexp: '\\{\\w+\\}' }),
    );
    expect(unit?.source).toBe('Click {1>here<1} for {2} items{3}');
    expect(unit?.tags.map((t) => [t.display, t.original])).toEqual([
      ['{1>', '<b>'],
      ['<1}', '</b>'],
      ['{2}', '{count}'],
      ['{3}', '<br/>'],
    ]);
    // Without the sub-filter, markup is text.
    expect(cellContent('a <b>b</b>', false, null)).toEqual({ source: 'a <b>b</b>', tags: [] });
    // Unmatched tags stand alone; a lone '<' is text.
    expect(cellContent('1 < 2 </i> <x>', true, null).source).toBe('1 < 2 {1} {2}');
  });

  it('reads UTF-8 with BOM and UTF-16 by BOM', async () => {
    for (const bytes of [utf8bom('Grüße,Welt\r\n'), utf16le('Grüße,Welt\r\n')]) {
      expect((await parseAll(csvFilter, bytes, {}, 3)).map((u) => u.source)).toEqual(['Grüße', 'Welt']);
      expect((await writeAll(csvFilter, bytes, {}, {}, 3)).equals(bytes)).toBe(true);
      const out = await writeAll(csvFilter, bytes, { A1: 'Grüß, Gott' }, {}, 3);
      expect(out.subarray(0, 2).equals(bytes.subarray(0, 2))).toBe(true);
    }
    const out = await writeAll(csvFilter, utf16le('a,b\n'), { B1: 'ö' });
    expect(out.equals(utf16le('a,ö\n'))).toBe(true);
  });
});

describe('CSV write-back', () => {
  it('is byte-faithful without translations and with every source as its own translation', async () => {
    const files = [SAMPLE, 'a,b\n"c,d",\n,e', 'x\r"y\r\nz"\r', 'one', '"quoted",plain,"",\n\n\n', 'a,b,\r\n'];
    for (const file of files) {
      for (const size of [1, 2, 64]) {
        expect((await writeAll(csvFilter, file, {}, {}, size)).toString()).toBe(file);
        const units = await parseAll(csvFilter, file);
        const own = Object.fromEntries(units.map((u) => [u.locator, u.source]));
        expect((await writeAll(csvFilter, file, own, {}, size)).toString()).toBe(file);
      }
    }
  });

  const cases: { name: string; file: string; translations: Record<string, string>; expected: string; options?: FilterOptions }[] = [
    { name: 'plain cell stays unquoted', file: 'a,b\n', translations: { B1: 'x' }, expected: 'a,x\n' },
    { name: 'quoted cell stays quoted', file: '"a",b\n', translations: { A1: 'x' }, expected: '"x",b\n' },
    { name: 'delimiter forces quotes', file: 'a,b\n', translations: { A1: 'x, y' }, expected: '"x, y",b\n' },
    { name: 'quotes are doubled', file: 'a,b\n', translations: { A1: 'say "hi"' }, expected: '"say ""hi""",b\n' },
    { name: 'line break forces quotes', file: 'a,b\r\n', translations: { B1: 'x\ny' }, expected: 'a,"x\ny"\r\n' },
    { name: 'leading space forces quotes', file: 'a,b\n', translations: { A1: ' x' }, expected: '" x",b\n' },
    { name: 'CRLF inside a cell is kept', file: '"l1\r\nl2",b\n', translations: { A1: 'n1\nn2' }, expected: '"n1\r\nn2",b\n' },
    { name: 'last record without line break', file: 'a,b', translations: { B1: 'c' }, expected: 'a,c' },
    {
      name: 'tags restored',
      file: '"<b>Hi</b> {n}"\n',
      translations: { A1: '{2} {1>Hallo<1}' },
      expected: '"{n} <b>Hallo</b>"\n',
      options: settings({ htmlSubFilter: true, tagRegexp: '\\{\\w\\}' }),
    },
    {
      name: 'semicolon file',
      file: 'a;b\n',
      translations: { B1: 'x;y' },
      expected: 'a;"x;y"\n',
      options: settings({ delimiterType: 'SEMICOLON' }),
    },
  ];

  it.each(cases)('$name', async ({ file, translations, expected, options }) => {
    for (const size of [1, 3, 100]) expect((await writeAll(csvFilter, file, translations, options, size)).toString()).toBe(expected);
  });

  it('gives a file csv-parse reads back with the translations in place and the same shape', async () => {
    const units = await parseAll(csvFilter, SAMPLE, settings({ importColumns: 'B,C' }));
    const translations = Object.fromEntries(
      units.map((u, i) => [u.locator, i % 2 ? `Ü "${u.source}",\n;x` : ` ${u.source.toUpperCase()} `]),
    );
    const out = await writeAll(csvFilter, SAMPLE, translations, settings({ importColumns: 'B,C' }), 7);
    const before = reparse(SAMPLE);
    const after = reparse(out);
    expect(after.length).toBe(before.length);
    after.forEach((row, r) => expect(row.length).toBe(before[r]!.length));
    for (const unit of units) {
      const column = unit.locator.charCodeAt(0) - 65;
      const row = Number(unit.locator.slice(1)) - 1;
      expect(after[row]![column]!.replace(/\r\n/g, '\n')).toBe(translations[unit.locator]!.replace(/\r\n/g, '\n'));
    }
  });
});

describe('multilingual CSV', () => {
  const FILE = 'id,en,de,fr\nk1,Hello,Hallo,\nk2,"Bye, now",,Salut\nk3,,,\nk4,Short\n';
  const ml = (more: Record<string, unknown> = {}, target = 'de'): FilterOptions =>
    settings(
      { sourceColumns: 'B', targetColumns: 'de:C, fr:D', contextKeyColumns: 'A', importRows: '2-', ...more },
      { sourceLanguage: 'en', targetLanguage: target },
    );

  it('reads the source column with the target language column as target', async () => {
    for (const size of [1, 4, 1000]) {
      const units = await parseAll(multilingualCsvFilter, FILE, ml(), size);
      expect(units.map((u) => [u.locator, u.key, u.source, u.target])).toEqual([
        ['B2', 'k1', 'Hello', 'Hallo'],
        ['B3', 'k2', 'Bye, now', null],
        ['B5', 'k4', 'Short', null],
      ]);
    }
    const fr = await parseAll(multilingualCsvFilter, FILE, ml({}, 'fr-FR'));
    expect(fr.map((u) => u.target)).toEqual([null, 'Salut', null]);
  });

  it('takes columns from allTargetColumns by language, and nonEmptySegmentAction', async () => {
    const options = settings(
      { allTargetColumns: { en: 'B', de: 'C', fr: 'D' }, nonEmptySegmentAction: 'CONFIRM_LOCK', importRows: '2-' },
      { sourceLanguage: 'en_US', targetLanguage: 'de' },
    );
    const units = await parseAll(multilingualCsvFilter, FILE, options);
    expect(units.map((u) => [u.locator, u.target, u.targetConfirmed, u.locked])).toEqual([
      ['B2', 'Hallo', true, true],
      ['B3', null, undefined, undefined],
      ['B5', null, undefined, undefined],
    ]);
  });

  it('writes into the target column, quoting cells it fills and adding missing cells', async () => {
    const out = await writeAll(multilingualCsvFilter, FILE, { B2: 'Servus', B3: 'Tschüss', B5: 'Kurz' }, ml(), 3);
    expect(out.toString()).toBe('id,en,de,fr\nk1,Hello,Servus,\nk2,"Bye, now","Tschüss",Salut\nk3,,,\nk4,Short,"Kurz"\n');
    expect((await writeAll(multilingualCsvFilter, FILE, {}, ml())).toString()).toBe(FILE);
    const rows = reparse(out);
    expect(rows[2]).toEqual(['k2', 'Bye, now', 'Tschüss', 'Salut']);
    expect(rows[4]).toEqual(['k4', 'Short', 'Kurz']);
  });

  it('numbers target tags as the source', async () => {
    const file = 'en,de\n"<b>Hi</b> <i>x</i>","<i>y</i> <b>Hallo</b> <u>z</u>"\n';
    const [unit] = await parseAll(
      multilingualCsvFilter,
      file,
      settings({ sourceColumns: 'A', targetColumns: 'de:B', htmlSubFilter: true, importRows: '2' }, { targetLanguage: 'de' }),
    );
    expect(unit?.source).toBe('{1>Hi<1} {2>x<2}');
    expect(unit?.target).toBe('{2>y<2} {1>Hallo<1} {3>z<3}');
    expect(unit?.tags.map((t) => t.display)).toEqual(['{1>', '<1}', '{2>', '<2}', '{3>', '<3}']);
  });

  it('refuses settings without a source or target column', async () => {
    await expect(parseAll(multilingualCsvFilter, FILE, settings({ targetColumns: 'de:C' }, { targetLanguage: 'de' }))).rejects.toThrow(
      /no source column/,
    );
    await expect(writeAll(multilingualCsvFilter, FILE, { B2: 'x' }, ml({}, 'it'))).rejects.toThrow(/no target column for "it"/);
  });

  it('tells multilingual settings apart', () => {
    expect(isMultilingualCsvSettings({ sourceColumns: 'A', targetColumns: 'de:B' })).toBe(true);
    expect(isMultilingualCsvSettings({ sourceColumns: 'A', allTargetColumns: { de: 'B' } })).toBe(true);
    expect(isMultilingualCsvSettings({ delimiter: ';' })).toBe(false);
    expect(isMultilingualCsvSettings(undefined)).toBe(false);
  });
});

describe('CSV hostile and malformed input', () => {
  it('refuses a quote never closed, with its line', async () => {
    const error = await parseAll(csvFilter, 'a,b\nc,"never\nclosed,x\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).line).toBe(2);
    expect((error as FormatError).message).toMatch(/never closed \(line 2, column 3\)/);
  });

  it('refuses text after a closing quote', async () => {
    await expect(parseAll(csvFilter, 'a\n"b"c\n')).rejects.toThrow(/after the closing quote of a quoted field \(line 2, column 4\)/);
  });

  it('refuses a field over the limit while streaming', async () => {
    const huge = `"${'x'.repeat(MAX_CSV_FIELD_CHARS + 10)}"`;
    await expect(parseAll(csvFilter, huge)).rejects.toThrow(/a field is longer than/);
    await expect(parseAll(csvFilter, 'y'.repeat(MAX_CSV_FIELD_CHARS + 10))).rejects.toThrow(/a field is longer than/);
  });

  it('refuses bad settings', async () => {
    await expect(parseAll(csvFilter, 'a', settings({ importColumns: 'B,?' }))).rejects.toThrow(/importColumns: "\?"/);
    await expect(parseAll(csvFilter, 'a', settings({ delimiterType: 'OTHER', delimiter: '||' }))).rejects.toThrow(/one character/);
    await expect(parseAll(csvFilter, 'a', settings({ importRows: '5-2' }))).rejects.toThrow(/ends before it starts/);
  });

  it('reads many tiny records and long quoted runs in linear time', async () => {
    const many = 'a,b\n'.repeat(200_000);
    const started = Date.now();
    expect((await parseAll(csvFilter, many)).length).toBe(400_000);
    const quotes = `"${'""'.repeat(200_000)}"\n`;
    const [unit] = await parseAll(csvFilter, quotes, {}, 1000);
    expect(unit?.source.length).toBe(200_000);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
