import { Readable, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { TermEntry, TermFileWarning, TermReadOptions, TermWriteOptions } from './term-entries.js';
import { readCsvTerms, readXlsxTerms, writeCsvTerms, writeXlsxTerms } from './term-sheets.js';
import { streamOf } from './testing.js';
import { FormatError } from './types.js';

type Reader = (input: Readable, options?: TermReadOptions) => AsyncGenerator<TermEntry[]>;
type Writer = typeof writeCsvTerms;

function sink(parts: Buffer[]): Writable {
  return new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      setImmediate(done);
    },
  });
}

async function write(
  writer: Writer,
  entries: Iterable<TermEntry[]> | AsyncIterable<TermEntry[]>,
  options: TermWriteOptions,
): Promise<{ bytes: Buffer; counts: { entries: number; terms: number } }> {
  const parts: Buffer[] = [];
  const counts = await writer(entries, sink(parts), options);
  return { bytes: Buffer.concat(parts), counts };
}

async function read(reader: Reader, bytes: Buffer | string, options: TermReadOptions = {}, chunkSize = 4096): Promise<TermEntry[]> {
  const entries: TermEntry[] = [];
  for await (const batch of reader(streamOf(bytes, chunkSize), options)) entries.push(...batch);
  return entries;
}

async function readWithWarnings(reader: Reader, bytes: Buffer | string): Promise<{ entries: TermEntry[]; warnings: TermFileWarning[] }> {
  const warnings: TermFileWarning[] = [];
  const entries = await read(reader, bytes, { warnings });
  return { entries, warnings };
}

async function expectFormatError(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  expect((error as FormatError).message).toMatch(message);
}

/** A workbook as Excel writes one (shared strings, styles), from rows of cell values. */
async function workbook(rows: ExcelJS.CellValue[][], configure?: (book: ExcelJS.Workbook) => void): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  configure?.(book);
  const sheet = book.addWorksheet('Terms');
  for (const row of rows) sheet.addRow(row);
  book.addWorksheet('Other').addRow(['en', 'de']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** CSV text from rows of cells (quoted when needed), `\r\n` line ends. */
function csv(rows: string[][], delimiter = ','): string {
  const field = (cell: string) => (/[",;\t\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  return rows.map((row) => row.map(field).join(delimiter)).join('\r\n') + '\r\n';
}

const FORMATS: { name: string; reader: Reader; writer: Writer; sheet: (rows: string[][]) => Promise<Buffer> }[] = [
  { name: 'XLSX', reader: readXlsxTerms, writer: writeXlsxTerms, sheet: (rows) => workbook(rows) },
  { name: 'CSV', reader: readCsvTerms, writer: writeCsvTerms, sheet: async (rows) => Buffer.from(csv(rows)) },
];

/** Entries with every field set, terms in the order the readers give them (row by row, languages in column order). */
const FULL: TermEntry[] = [
  {
    id: '101',
    definition: 'A device that computes; "quoted", with, commas\nand a line break',
    domain: 'Computing & IT',
    subdomains: ['Hardware', 'Sales <EU>'],
    note: 'Concept note =SUM(A1) &amp; more',
    url: 'https://example.com/terms?id=101&x=1',
    terms: [
      {
        lang: 'en_us',
        text: 'computer',
        status: 'Approved',
        usage: 'preferred',
        forbidden: false,
        preferred: true,
        caseSensitive: true,
        exactMatch: false,
        termType: 'FULL_FORM',
        partOfSpeech: 'NOUN',
        gender: 'NEUTRAL',
        number: 'SINGULAR',
        note: 'a term note, "quoted"',
        shortTranslation: 'comp.',
        createdAt: '2024-01-02T03:04:05.000Z',
        createdBy: 'anna',
        modifiedAt: '2024-02-03T04:05:06.000Z',
        modifiedBy: 'bert',
      },
      {
        lang: 'de',
        text: 'Rechner',
        status: 'New',
        usage: 'admitted',
        forbidden: true,
        preferred: false,
        caseSensitive: false,
        exactMatch: true,
        termType: 'VARIANT',
        partOfSpeech: 'NOUN',
        gender: 'MASCULINE',
        number: 'PLURAL',
        note: '-leading minus',
        shortTranslation: '+plus',
        createdAt: '2023-12-31',
        createdBy: '@someone',
        modifiedAt: '2024-01-01T00:00:00Z',
        modifiedBy: 'Jürgen 😀',
      },
      {
        lang: 'en_us',
        text: 'PC',
        status: 'Rejected',
        usage: 'deprecated',
        forbidden: false,
        preferred: false,
        caseSensitive: true,
        exactMatch: true,
        termType: 'ACRONYM',
        partOfSpeech: 'NOUN',
        gender: 'FEMININE',
        number: 'UNCOUNTABLE',
        note: 'n',
        shortTranslation: 's',
        createdAt: '2020-05-05T05:05:05.000Z',
        createdBy: 'c',
        modifiedAt: '2020-06-06T06:06:06.000Z',
        modifiedBy: 'm',
      },
    ],
  },
  {
    id: 'B-2',
    definition: 'To run',
    domain: 'Sports',
    subdomains: ['Athletics'],
    note: 'tab\there',
    url: 'https://example.com/run',
    terms: [
      {
        lang: 'en_us',
        text: '  spaced & <tag> ',
        status: 'New',
        usage: 'u',
        forbidden: true,
        preferred: true,
        caseSensitive: false,
        exactMatch: false,
        termType: 'PHRASE',
        partOfSpeech: 'VERB',
        gender: 'NEUTRAL',
        number: 'SINGULAR',
        note: 'x',
        shortTranslation: 'y',
        createdAt: '2021-01-01T00:00:00.000Z',
        createdBy: 'a',
        modifiedAt: '2021-01-02T00:00:00.000Z',
        modifiedBy: 'b',
      },
      {
        lang: 'de',
        text: 'laufen',
        status: 'Approved',
        usage: 'u2',
        forbidden: false,
        preferred: true,
        caseSensitive: true,
        exactMatch: false,
        termType: 'SHORT_FORM',
        partOfSpeech: 'ADVERB',
        gender: 'FEMININE',
        number: 'PLURAL',
        note: 'x2',
        shortTranslation: 'y2',
        createdAt: '2021-01-03T00:00:00.000Z',
        createdBy: 'a2',
        modifiedAt: '2021-01-04T00:00:00.000Z',
        modifiedBy: 'b2',
      },
      {
        lang: 'de',
        text: 'rennen',
        status: 'New',
        usage: 'u3',
        forbidden: false,
        preferred: false,
        caseSensitive: false,
        exactMatch: true,
        termType: 'ABBREVIATION',
        partOfSpeech: 'ADJECTIVE',
        gender: 'MASCULINE',
        number: 'SINGULAR',
        note: 'x3',
        shortTranslation: 'y3',
        createdAt: '2021-01-05T00:00:00.000Z',
        createdBy: 'a3',
        modifiedAt: '2021-01-06T00:00:00.000Z',
        modifiedBy: 'b3',
      },
    ],
  },
];

const HEADER = [
  'Entry_ID',
  'Entry_Definition',
  'Entry_Domain',
  'Entry_Subdomains',
  'Entry_Note',
  'Entry_URL',
  ...['en_US', 'de'].flatMap((lang) => [
    lang,
    ...[
      'Status',
      'Usage',
      'Forbidden',
      'Preferred',
      'Case',
      'Exact',
      'Type',
      'Part_of_speech',
      'Gender',
      'Number',
      'Note',
      'Short',
      'Created',
      'Creator',
      'Modified',
      'Modifier',
    ].map((suffix) => `${lang}_${suffix}`),
  ]),
];

describe('term sheets: round trips', () => {
  for (const format of FORMATS) {
    it(`${format.name}: read(write(x)) gives x back, every field set, synonyms on further rows`, async () => {
      const writeWarnings: TermFileWarning[] = [];
      const { bytes, counts } = await write(format.writer, [FULL.slice(0, 1), [], FULL.slice(1)], {
        langs: ['en_US', 'de'],
        warnings: writeWarnings,
      });
      expect(writeWarnings).toEqual([]);
      expect(counts).toEqual({ entries: 2, terms: 6 });
      const { entries, warnings } = await readWithWarnings(format.reader, bytes);
      expect(warnings).toEqual([]);
      expect(entries).toStrictEqual(FULL);
      // Chunks of 7 bytes: boundaries inside characters, quotes and line ends.
      expect(await read(format.reader, bytes, {}, 7)).toStrictEqual(FULL);
    });
  }

  it('CSV: the exact header, UTF-8 with BOM, TRUE/FALSE, RFC 4180 quoting, formula-like cells unaltered', async () => {
    const { bytes } = await write(writeCsvTerms, [FULL], { langs: ['en_US', 'de'] });
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = bytes.subarray(3).toString('utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(HEADER.join(','));
    expect(lines[1]).toMatch(
      /^101,"A device that computes; ""quoted"", with, commas\nand a line break",Computing & IT,Hardware; Sales <EU>,/,
    );
    expect(lines[1]).toContain(',Concept note =SUM(A1) &amp; more,');
    expect(lines[1]).toContain(',computer,Approved,preferred,FALSE,TRUE,TRUE,FALSE,FULL_FORM,NOUN,NEUTRAL,SINGULAR,');
    expect(text).toContain(',-leading minus,+plus,2023-12-31,@someone,');
    // The synonym row repeats only the id; concept columns stay empty.
    expect(lines[2]).toMatch(/^101,,,,,,PC,Rejected,/);
    expect(lines[3]).toMatch(/^B-2,To run,/);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('XLSX: the exact header, booleans as boolean cells', async () => {
    const { bytes } = await write(writeXlsxTerms, [FULL], { langs: ['en_US', 'de'] });
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...HEADER]);
    // en_US_Forbidden, en_US_Preferred.
    expect(sheet.getRow(2).getCell(10).value).toBe(false);
    expect(sheet.getRow(2).getCell(11).value).toBe(true);
    expect(sheet.rowCount).toBe(5);
  });

  it('writers: generated ids keep synonyms together and differ from the neighbours; unwritable terms and entries are reported', async () => {
    const entries: TermEntry[] = [
      {
        terms: [
          { lang: 'en', text: 'a' },
          { lang: 'en', text: 'a2' },
          { lang: 'fr', text: 'not written' },
        ],
      },
      { id: '2', terms: [{ lang: 'de', text: 'b' }] },
      { terms: [{ lang: 'EN', text: 'c' }] },
      { id: 'only-fr', terms: [{ lang: 'fr', text: 'rien' }] },
      {
        id: 'x',
        terms: [
          { lang: 'en', text: '   ' },
          { lang: 'de', text: 'y'.repeat(40_000) },
        ],
      },
      { terms: [{ lang: 'de', text: 'd' }] },
      { id: '4', terms: [{ lang: 'de', text: 'e' }] },
      { id: '4', terms: [{ lang: 'de', text: 'f' }] },
    ];
    for (const format of FORMATS) {
      const warnings: TermFileWarning[] = [];
      const { bytes, counts } = await write(format.writer, [entries.slice(0, 3), entries.slice(3)], {
        langs: ['en', 'de', 'EN'],
        warnings,
      });
      expect(counts).toEqual({ entries: 6, terms: 7 });
      expect(warnings.map((warning) => warning.message)).toEqual([
        expect.stringMatching(/^entry 1: terms in fr .*left out/),
        expect.stringMatching(/^entry only-fr: terms in fr/),
        expect.stringMatching(/^entry only-fr has no term in the languages written: left out/),
        expect.stringMatching(/^entry x: a en term has no text: left out/),
        expect.stringMatching(/^entry x has a text longer than 32767 characters/),
        expect.stringMatching(/^entry 4 follows an entry with the same id/),
      ]);
      const back = await read(format.reader, bytes);
      expect(back.map((entry) => [entry.id, entry.terms.map((term) => term.text)])).toEqual([
        ['1', ['a', 'a2']],
        ['2', ['b']],
        ['3', ['c']],
        // The next generated id would be 4, the id of the entry after it.
        ['5', ['d']],
        ['4', ['e', 'f']],
      ]);
    }
  });

  it('writers: XLSX leaves out entries with characters XML cannot hold; both refuse bad language lists', async () => {
    const warnings: TermFileWarning[] = [];
    const { counts } = await write(writeXlsxTerms, [[{ id: '1', terms: [{ lang: 'en', text: 'bell\u0007' }] }]], {
      langs: ['en'],
      warnings,
    });
    expect(counts).toEqual({ entries: 0, terms: 0 });
    expect(warnings[0]?.message).toMatch(/entry 1 has a character XML cannot hold/);
    for (const format of FORMATS) {
      await expectFormatError(write(format.writer, [], { langs: [] }), /at least one language/);
      await expectFormatError(write(format.writer, [], { langs: ['en', 'English'] }), /"English" cannot be a language column/);
      await expectFormatError(write(format.writer, [], { langs: ['url'] }), /"url" cannot be a language column/);
    }
  });

  it('writers: a failing entry source destroys the output', async () => {
    async function* entries(): AsyncGenerator<TermEntry[]> {
      yield FULL;
      throw new Error('database gone');
    }
    for (const format of FORMATS) {
      const output = sink([]);
      await expect(format.writer(entries(), output, { langs: ['en_us', 'de'] })).rejects.toThrow('database gone');
      expect(output.destroyed).toBe(true);
    }
  });

  it('CSV writer: an output that fails rejects the write', async () => {
    const output = new Writable({
      highWaterMark: 16,
      write(_chunk, _encoding, done) {
        done(new Error('disk full'));
      },
    });
    const many = Array.from({ length: 500 }, (_, i): TermEntry => ({ id: String(i), terms: [{ lang: 'en', text: `term ${i}` }] }));
    await expect(writeCsvTerms([many], output, { langs: ['en'] })).rejects.toThrow('disk full');
  });
});

describe('term sheets: reading', () => {
  for (const format of FORMATS) {
    it(`${format.name}: header names in any case, with spaces, _ or -, and their aliases`, async () => {
      const bytes = await format.sheet([
        ['entry id', 'DEFINITION', 'Entry-Subject', 'subdomain', 'Concept Note', 'url', 'EN', 'en term status', 'de_DE', 'DE-de_Term_Note'],
        ['7', 'def', 'Law', 'Civil;  Penal ;', 'cn', 'http://x', 'court', 'approved', 'Gericht', 'eine Notiz'],
      ]);
      const { entries, warnings } = await readWithWarnings(format.reader, bytes);
      expect(warnings).toEqual([]);
      expect(entries).toStrictEqual([
        {
          id: '7',
          definition: 'def',
          domain: 'Law',
          subdomains: ['Civil', 'Penal'],
          note: 'cn',
          url: 'http://x',
          terms: [
            { lang: 'en', text: 'court', status: 'Approved' },
            { lang: 'de_de', text: 'Gericht', note: 'eine Notiz' },
          ],
        },
      ]);
    });
  }

  it('other aliases: Entry_Domain, Domain, Subject, Entry_Subdomains, Subdomains, Note, Entry_Note, URL, Entry_URL, Definition', async () => {
    const cases: [string, keyof TermEntry, unknown][] = [
      ['Entry_Domain', 'domain', 'v'],
      ['Domain', 'domain', 'v'],
      ['Subject', 'domain', 'v'],
      ['Entry_Subdomains', 'subdomains', ['v']],
      ['Subdomains', 'subdomains', ['v']],
      ['Note', 'note', 'v'],
      ['Entry_Note', 'note', 'v'],
      ['URL', 'url', 'v'],
      ['Entry_URL', 'url', 'v'],
      ['Definition', 'definition', 'v'],
      ['Entry_Definition', 'definition', 'v'],
    ];
    for (const [header, field, value] of cases) {
      const [entry] = await read(
        readCsvTerms,
        csv([
          [header, 'en'],
          ['v', 'term'],
        ]),
      );
      expect(entry?.[field], header).toEqual(value);
    }
  });

  it('language codes in every form: en_US → en_us, en-US, zh_Hans_CN, pt-BR; attributes follow each spelling', async () => {
    const bytes = csv([
      ['en_US', 'en-us_Status', 'zh_Hans_CN', 'zh-hans-cn_Term_Usage', 'pt-BR', 'PT_br_Note', 'EN', 'en_Term_Type', 'id'],
      ['color', 'New', '颜色', 'often', 'cor', 'n', 'colour', 'variant', 'warna'],
    ]);
    const { entries, warnings } = await readWithWarnings(readCsvTerms, bytes);
    expect(warnings).toEqual([]);
    expect(entries[0]?.terms).toStrictEqual([
      { lang: 'en_us', text: 'color', status: 'New' },
      { lang: 'zh_hans_cn', text: '颜色', usage: 'often' },
      { lang: 'pt_br', text: 'cor', note: 'n' },
      { lang: 'en', text: 'colour', termType: 'VARIANT' },
      { lang: 'id', text: 'warna' },
    ]);
  });

  it('synonyms: consecutive rows with one Entry_ID are one concept; rows without id and repeated ids later are concepts of their own', async () => {
    for (const format of FORMATS) {
      const bytes = await format.sheet([
        ['Entry_ID', 'Entry_Note', 'en', 'de'],
        ['1', 'first', 'car', 'Auto'],
        ['1', '', 'automobile', 'Wagen'],
        ['1', 'ignored: the first row gave it', '', 'Kfz'],
        ['', '', 'bike', 'Fahrrad'],
        ['', '', 'bicycle', ''],
        ['2', '', '', 'nur Deutsch'],
        ['2', 'second', 'only English', ''],
        ['1', '', 'car again', ''],
      ]);
      const entries = await read(format.reader, bytes);
      expect(entries).toStrictEqual([
        {
          id: '1',
          note: 'first',
          terms: [
            { lang: 'en', text: 'car' },
            { lang: 'de', text: 'Auto' },
            { lang: 'en', text: 'automobile' },
            { lang: 'de', text: 'Wagen' },
            { lang: 'de', text: 'Kfz' },
          ],
        },
        {
          terms: [
            { lang: 'en', text: 'bike' },
            { lang: 'de', text: 'Fahrrad' },
          ],
        },
        { terms: [{ lang: 'en', text: 'bicycle' }] },
        {
          id: '2',
          note: 'second',
          terms: [
            { lang: 'de', text: 'nur Deutsch' },
            { lang: 'en', text: 'only English' },
          ],
        },
        { id: '1', terms: [{ lang: 'en', text: 'car again' }] },
      ]);
    }
  });

  it('every attribute column, by its aliases', async () => {
    const header = [
      'en',
      'en_Status',
      'en_Usage',
      'en_Forbidden',
      'en_Preferred',
      'en_CaseSensitive',
      'en_ExactMatch',
      'en_Type',
      'en_POS',
      'en_Gender',
      'en_Number',
      'en_Term_Note',
      'en_ShortTranslation',
      'en_Creation date',
      'en_Created by',
      'en_Term_Modification date',
      'en_Modified by',
      'en_Definition',
      'de',
      'de_Case',
      'de_Exact',
      'de_PartOfSpeech',
      'de_Short',
      'de_Created',
      'de_Creator',
      'de_Modified',
      'de_Modifier',
      'de_Part_of_speech',
      'de_Definition',
    ];
    const row = [
      'cat',
      'REJECTED',
      'informal',
      'yes',
      'no',
      '1',
      '0',
      'short form',
      'noun',
      'neuter',
      'plural',
      'tn',
      'st',
      '2024-05-06T07:08:09Z',
      'cr',
      '2024-06-07',
      'md',
      'a small feline',
      'Katze',
      'False',
      'TRUE',
      'Verb',
      'K.',
      '2020-01-01',
      'c',
      '2020-01-02',
      'm',
      'adverb',
      'eine kleine Katze',
    ];
    const { entries, warnings } = await readWithWarnings(readCsvTerms, csv([header, row]));
    expect(warnings.map((warning) => warning.message)).toEqual([expect.stringMatching(/column 28 \("de_Part_of_speech"\) repeats/)]);
    expect(entries).toStrictEqual([
      {
        definition: 'a small feline',
        terms: [
          {
            lang: 'en',
            text: 'cat',
            status: 'Rejected',
            usage: 'informal',
            forbidden: true,
            preferred: false,
            caseSensitive: true,
            exactMatch: false,
            termType: 'SHORT_FORM',
            partOfSpeech: 'NOUN',
            gender: 'NEUTRAL',
            number: 'PLURAL',
            note: 'tn',
            shortTranslation: 'st',
            createdAt: '2024-05-06T07:08:09Z',
            createdBy: 'cr',
            modifiedAt: '2024-06-07',
            modifiedBy: 'md',
          },
          {
            lang: 'de',
            text: 'Katze',
            caseSensitive: false,
            exactMatch: true,
            partOfSpeech: 'VERB',
            shortTranslation: 'K.',
            createdAt: '2020-01-01',
            createdBy: 'c',
            modifiedAt: '2020-01-02',
            modifiedBy: 'm',
          },
        ],
      },
    ]);
    // An Entry_Definition wins over a language's definition.
    const [withBoth] = await read(
      readCsvTerms,
      csv([
        ['de', 'de_Definition', 'Entry_Definition'],
        ['Hund', 'ein Hund', 'a dog'],
      ]),
    );
    expect(withBoth?.definition).toBe('a dog');
  });

  it('booleans: English, 1/0, localized Excel spellings, Excel boolean cells', async () => {
    const cases: [ExcelJS.CellValue, boolean][] = [
      ['TRUE', true],
      ['false', false],
      ['Yes', true],
      ['NO', false],
      ['1', true],
      ['0', false],
      [1, true],
      [0, false],
      ['WAHR', true],
      ['Falsch', false],
      ['vrai', true],
      ['FAUX', false],
      ['VERDADERO', true],
      ['falso', false],
      [true, true],
      [false, false],
      [' true ', true],
    ];
    const rows: ExcelJS.CellValue[][] = [['en', 'en_Forbidden'], ...cases.map(([value], i) => [`t${i}`, value])];
    const { entries, warnings } = await readWithWarnings(readXlsxTerms, await workbook(rows));
    expect(warnings).toEqual([]);
    expect(entries.map((entry) => entry.terms[0]?.forbidden)).toEqual(cases.map(([, expected]) => expected));
  });

  it('enum values: any case, spaces, hyphens or underscores', async () => {
    const cases: [string, string, string][] = [
      ['Type', 'full form', 'FULL_FORM'],
      ['Type', 'Short-Form', 'SHORT_FORM'],
      ['Type', 'acronym', 'ACRONYM'],
      ['Type', ' Abbreviation ', 'ABBREVIATION'],
      ['Part_of_speech', 'noun', 'NOUN'],
      ['Part_of_speech', 'Adjective', 'ADJECTIVE'],
      ['Gender', 'feminine', 'FEMININE'],
      ['Gender', 'Neuter', 'NEUTRAL'],
      ['Number', 'uncountable', 'UNCOUNTABLE'],
    ];
    const fields: Record<string, string> = { Type: 'termType', Part_of_speech: 'partOfSpeech', Gender: 'gender', Number: 'number' };
    for (const [suffix, value, expected] of cases) {
      const [entry] = await read(
        readCsvTerms,
        csv([
          ['en', `en_${suffix}`],
          ['t', value],
        ]),
      );
      expect((entry?.terms[0] as unknown as Record<string, string>)[fields[suffix]!], value).toBe(expected);
    }
  });

  it('XLSX: Excel date cells become ISO 8601 UTC (1900 and 1904 date systems); date text is kept', async () => {
    const date = new Date(Date.UTC(2024, 2, 15, 13, 45, 30));
    const rows: ExcelJS.CellValue[][] = [
      ['en', 'en_Created', 'en_Modified', 'en_Note'],
      ['a', date, '2024-03-15', 45366.5],
      ['b', 1, 2.5, null],
    ];
    const [first, second] = await read(readXlsxTerms, await workbook(rows));
    expect(first?.terms[0]).toStrictEqual({
      lang: 'en',
      text: 'a',
      createdAt: '2024-03-15T13:45:30.000Z',
      modifiedAt: '2024-03-15',
      note: '45366.5',
    });
    expect(second?.terms[0]).toMatchObject({ createdAt: '1900-01-01T00:00:00.000Z', modifiedAt: '1900-01-02T12:00:00.000Z' });
    const book1904 = await workbook(rows, (book) => {
      (book.properties as { date1904?: boolean }).date1904 = true;
    });
    const [, second1904] = await read(readXlsxTerms, book1904);
    expect(second1904?.terms[0]).toMatchObject({ createdAt: '1904-01-02T00:00:00.000Z' });
  });

  for (const format of FORMATS) {
    it(`${format.name}: bad rows are skipped whole with their row, column and value; the rest is read`, async () => {
      const long = 'x'.repeat(32_768);
      const bytes = await format.sheet([
        ['Entry_ID', 'en', 'en_Status', 'en_Type', 'en_Forbidden', 'de', 'de_Gender', 'en_Number', 'en_Part_of_speech'],
        ['1', 'good', 'New', 'full form', 'TRUE', 'gut', 'neutral', '', ''],
        ['2', 'bad type', '', 'longest form', '', 'x', '', '', ''],
        ['3', 'bad boolean', '', '', 'maybe', 'x', '', '', ''],
        ['4', 'bad status', 'Pending', '', '', 'x', '', '', ''],
        ['5', long, '', '', '', 'x', '', '', ''],
        ['6', 'bad gender', '', '', '', 'x', 'robot', '', ''],
        ['7', 'bad number', '', '', '', '', '', 'dual', ''],
        ['8', 'bad pos', '', '', '', '', '', '', 'pronoun'],
        ['', '', '', '', '', '', '', '', ''],
        ['9', '', 'New', '', '', '', '', '', ''],
        ['10', 'last', '', '', '', '', 'masculine', '', ''],
        ['1', 'synonym', 'unknown-status', '', '', '', '', '', ''],
      ]);
      const { entries, warnings } = await readWithWarnings(format.reader, bytes);
      expect(entries.map((entry) => entry.id)).toEqual(['1', '10']);
      expect(entries[0]?.terms).toStrictEqual([
        { lang: 'en', text: 'good', status: 'New', termType: 'FULL_FORM', forbidden: true },
        { lang: 'de', text: 'gut', gender: 'NEUTRAL' },
      ]);
      expect(warnings).toEqual([
        { line: 3, message: expect.stringMatching(/^row 3: column "en_Type" has "longest form", which is not a term type \(FULL_FORM, /) },
        { line: 4, message: expect.stringMatching(/^row 4: column "en_Forbidden" has "maybe", which is not a boolean/) },
        {
          line: 5,
          message: expect.stringMatching(/^row 5: column "en_Status" has "Pending", which is not a status \(New, Approved, Rejected\)/),
        },
        {
          line: 6,
          message: expect.stringMatching(/^row 6: column "en" has 32768 characters, more than a cell holds \(32767\): row skipped/),
        },
        { line: 7, message: expect.stringMatching(/^row 7: column "de_Gender" has "robot", which is not a gender/) },
        { line: 8, message: expect.stringMatching(/^row 8: column "en_Number" has "dual", which is not a grammatical number/) },
        { line: 9, message: expect.stringMatching(/^row 9: column "en_Part_of_speech" has "pronoun", which is not a part of speech/) },
        // Row 10 is empty: skipped silently.
        { line: 11, message: 'row 11 has no term text: skipped' },
        { line: 12, message: 'row 12: "de_Gender" given without the term: ignored' },
        { line: 13, message: expect.stringMatching(/^row 13: column "en_Status" has "unknown-status"/) },
      ]);
      expect(warnings.every((warning) => warning.message.endsWith('skipped') || warning.message.endsWith('ignored'))).toBe(true);
    });
  }

  it('unknown, repeated and orphaned columns are ignored with one warning each, in column order', async () => {
    const bytes = csv([
      ['en', 'Comment', 'en_Colour', 'EN', 'fr_Status', 'Entry_ID', 'entry-id', 'en_status', 'en_Status', ''],
      ['a', 'c1', 'red', 'dup', 'New', '1', '2', 'New', 'Approved', 'stray'],
      ['b', 'c2', 'blue', 'dup', 'New', '2', '3', 'New', 'Approved', 'stray'],
    ]);
    const { entries, warnings } = await readWithWarnings(readCsvTerms, bytes);
    expect(warnings).toEqual([
      { line: 1, message: 'column 2 ("Comment") is not a known column: ignored' },
      { line: 1, message: 'column 3 ("en_Colour") is not a known column: ignored' },
      { line: 1, message: 'column 4 ("EN") repeats the language en: ignored' },
      { line: 1, message: 'column 5 ("fr_Status") has no term column "fr": ignored' },
      { line: 1, message: 'column 7 ("entry-id") repeats an earlier column: ignored' },
      { line: 1, message: 'column 9 ("en_Status") repeats an earlier column: ignored' },
    ]);
    expect(entries).toStrictEqual([
      { id: '1', terms: [{ lang: 'en', text: 'a', status: 'New' }] },
      { id: '2', terms: [{ lang: 'en', text: 'b', status: 'New' }] },
    ]);
  });

  it('keeps at most maxWarnings warnings and counts the rest', async () => {
    const rows = [['en', 'en_Status'], ...Array.from({ length: 10 }, (_, i) => [`t${i}`, 'bad'])];
    const warnings: TermFileWarning[] = [];
    await read(readCsvTerms, csv(rows), { warnings, maxWarnings: 3 });
    expect(warnings).toHaveLength(4);
    expect(warnings[3]).toEqual({ message: 'and 7 more problems' });
  });

  it('refuses a header without a language column, files that are no XLSX or CSV, malformed CSV', async () => {
    for (const format of FORMATS) {
      await expectFormatError(
        read(
          format.reader,
          await format.sheet([
            ['Entry_ID', 'Term', 'Comment'],
            ['1', 'a', 'b'],
          ]),
        ),
        /no language column/,
      );
    }
    await expectFormatError(read(readCsvTerms, csv([['Entry_ID', 'Entry_Note']])), /no language column \(.*\) \(line 1\)/);
    await expectFormatError(read(readXlsxTerms, csv([['en'], ['a']])), /not a readable XLSX workbook/);
    await expectFormatError(read(readXlsxTerms, Buffer.alloc(0)), /XLSX/);
    await expectFormatError(read(readCsvTerms, await workbook([['en'], ['a']])), /not a CSV file: this is a zip archive/);
    await expectFormatError(read(readCsvTerms, Buffer.from([0x65, 0x6e, 0x0a, 0xff, 0xfe, 0xfd, 0x0a])), /not valid UTF-8/);
    await expectFormatError(read(readCsvTerms, Buffer.from('en\u0000\u0001\u0002,de\n')), /binary data/);
    await expectFormatError(read(readCsvTerms, 'en,de\n"unclosed,x\n'), /malformed CSV: Quote Not Closed/);
    await expectFormatError(read(readCsvTerms, ''), /no header row/);
    await expectFormatError(read(readCsvTerms, '\n\n'), /no header row/);
    await expectFormatError(read(readXlsxTerms, await workbook([])), /no header row/);
  });

  it('CSV: delimiters , ; and tab from the header line', async () => {
    const rows = [
      ['Entry_ID', 'en', 'de', 'en_Note'],
      ['1', 'a, b; c', 'd\te', 'n'],
    ];
    for (const delimiter of [',', ';', '\t']) {
      const entries = await read(readCsvTerms, csv(rows, delimiter));
      expect(entries, JSON.stringify(delimiter)).toStrictEqual([
        {
          id: '1',
          terms: [
            { lang: 'en', text: 'a, b; c', note: 'n' },
            { lang: 'de', text: 'd\te' },
          ],
        },
      ]);
    }
    // More commas than semicolons in the header: commas, even with semicolons in a quoted name.
    const [entry] = await read(readCsvTerms, '"en;x",en,de\n1,a,b\n');
    expect(entry?.terms.map((term) => term.text)).toEqual(['a', 'b']);
    // A header of one column.
    expect(await read(readCsvTerms, 'en\nsolo')).toStrictEqual([{ terms: [{ lang: 'en', text: 'solo' }] }]);
  });

  it('CSV: UTF-8 with and without BOM, UTF-16 LE and BE with BOM, in chunks of any size', async () => {
    const text = 'Entry_ID;en;ja\r\n1;naïve;日本語 😀\r\n';
    const expected = [
      {
        id: '1',
        terms: [
          { lang: 'en', text: 'naïve' },
          { lang: 'ja', text: '日本語 😀' },
        ],
      },
    ];
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const utf16be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    const inputs: [string, Buffer][] = [
      ['utf-8', Buffer.from(text)],
      ['utf-8 bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
      ['utf-16le', utf16le],
      ['utf-16be', utf16be],
    ];
    for (const [name, bytes] of inputs) {
      for (const chunkSize of [1, 3, 4096]) {
        expect(await read(readCsvTerms, bytes, {}, chunkSize), `${name} / ${chunkSize}`).toStrictEqual(expected);
      }
    }
  });

  it('CSV: quoted fields with line breaks and quotes; mixed line ends; the row numbers count records', async () => {
    const text =
      'en,de,en_Status\n' + '"two\nlines","with ""quotes""",New\r\n' + '"x\r\ny",z,Approved\r' + 'bad,row,Sometimes\n' + 'last,one,\n';
    const { entries, warnings } = await readWithWarnings(readCsvTerms, text);
    expect(entries.map((entry) => entry.terms.map((term) => term.text))).toEqual([
      ['two\nlines', 'with "quotes"'],
      ['x\r\ny', 'z'],
      ['last', 'one'],
    ]);
    expect(warnings).toEqual([{ line: 4, message: expect.stringMatching(/^row 4: column "en_Status" has "Sometimes"/) }]);
  });

  it('XLSX: the first worksheet only; rich text, inline strings and entities decoded once', async () => {
    const bytes = await workbook([
      ['Entry_ID', 'en', 'de'],
      [42, { richText: [{ text: 'Tom ' }, { font: { bold: true }, text: '&amp;' }, { text: ' Jerry' }] }, '<b>fett</b>'],
    ]);
    const entries = await read(readXlsxTerms, bytes);
    expect(entries).toStrictEqual([
      {
        id: '42',
        terms: [
          { lang: 'en', text: 'Tom &amp; Jerry' },
          { lang: 'de', text: '<b>fett</b>' },
        ],
      },
    ]);
  });

  it('stopping early releases the input', async () => {
    const rows = [['Entry_ID', 'en'], ...Array.from({ length: 3000 }, (_, i) => [String(i), `term ${i}`])];
    for (const format of FORMATS) {
      const input = streamOf(await format.sheet(rows), 1024);
      for await (const batch of format.reader(input, { batchSize: 100 })) {
        expect(batch).toHaveLength(100);
        break;
      }
      expect(input.destroyed).toBe(true);
    }
  });

  it('an error of the input stream rejects the read', async () => {
    for (const format of FORMATS) {
      const bytes = await format.sheet([['en'], ...Array.from({ length: 2000 }, (_, i) => [`term ${i}`])]);
      let sent = false;
      const input = new Readable({
        read() {
          if (sent) setImmediate(() => this.destroy(new Error('disk gone')));
          else this.push(bytes.subarray(0, 2048));
          sent = true;
        },
      });
      const consume = async () => {
        for await (const batch of format.reader(input)) void batch;
      };
      await expect(consume()).rejects.toThrow('disk gone');
    }
  });
});

describe('term sheets: size', () => {
  for (const format of FORMATS) {
    it(`${format.name}: 20,000 concepts (30,000 rows) written and read back in batches`, async () => {
      const count = 20_000;
      async function* entries(): AsyncGenerator<TermEntry[]> {
        for (let start = 0; start < count; start += 1000) {
          yield Array.from({ length: 1000 }, (_, i): TermEntry => {
            const n = start + i;
            const terms: TermEntry['terms'] = [
              { lang: 'en', text: `term ${n}`, status: 'Approved', forbidden: false },
              { lang: 'de', text: `Begriff ${n}`, gender: 'MASCULINE' },
            ];
            if (n % 2 === 0) terms.push({ lang: 'de', text: `Synonym ${n}` });
            return { id: `c${n}`, domain: 'General', terms };
          });
        }
      }
      const started = performance.now();
      const { bytes, counts } = await write(format.writer, entries(), { langs: ['en', 'de'] });
      expect(counts).toEqual({ entries: count, terms: count * 2 + count / 2 });
      const sizes: number[] = [];
      let last: TermEntry | undefined;
      let terms = 0;
      for await (const batch of format.reader(streamOf(bytes, 16 * 1024), { batchSize: 1000 })) {
        sizes.push(batch.length);
        for (const entry of batch) terms += entry.terms.length;
        last = batch[batch.length - 1];
      }
      const elapsed = performance.now() - started;
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(count);
      expect(sizes.length).toBeGreaterThanOrEqual(count / 1000);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(1000);
      expect(terms).toBe(counts.terms);
      expect(last).toStrictEqual({
        id: `c${count - 1}`,
        domain: 'General',
        terms: [
          { lang: 'en', text: `term ${count - 1}`, status: 'Approved', forbidden: false },
          { lang: 'de', text: `Begriff ${count - 1}`, gender: 'MASCULINE' },
        ],
      });
      expect(elapsed).toBeLessThan(20_000);
    });
  }
});
