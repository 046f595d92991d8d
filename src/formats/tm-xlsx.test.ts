import { Readable, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { streamOf } from './testing.js';
import type { TmUnit } from './tm-formats.js';
import { readXlsxTm, writeXlsxTm } from './tm-xlsx.js';
import type { XlsxTmReadOptions, XlsxTmWriteOptions } from './tm-xlsx.js';
import type { TmxUnit, TmxWarning } from './tmx.js';
import { FormatError } from './types.js';
import type { InlineTag } from './types.js';

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
  units: Iterable<TmxUnit | TmxUnit[]> | AsyncIterable<TmxUnit | TmxUnit[]>,
  options: XlsxTmWriteOptions,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  await writeXlsxTm(sink(parts), units, options);
  return Buffer.concat(parts);
}

async function read(bytes: Buffer, options: XlsxTmReadOptions, chunkSize = 4096): Promise<TmUnit[]> {
  const units: TmUnit[] = [];
  for await (const batch of readXlsxTm(streamOf(bytes, chunkSize), options)) units.push(...batch);
  return units;
}

async function expectFormatError(promise: Promise<unknown>, message: RegExp): Promise<FormatError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  expect((error as FormatError).message).toMatch(message);
  return error as FormatError;
}

/** A workbook as Excel writes one (shared strings), from rows of cell values. */
async function workbook(rows: ExcelJS.CellValue[][], sheets = 1): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('TM');
  for (const row of rows) sheet.addRow(row);
  // Only the first worksheet is read.
  if (sheets > 1) book.addWorksheet('Other').addRow(['en', 'de']).commit();
  return Buffer.from(await book.xlsx.writeBuffer());
}

const tag = (id: number, kind: InlineTag['kind'], original: string): InlineTag => ({
  id,
  kind,
  original,
  display: kind === 'open' ? `{${id}>` : kind === 'close' ? `<${id}}` : `{${id}}`,
});

const UNITS: TmxUnit[] = [
  {
    sourceLang: 'en-US',
    contextPrev: 'Before',
    contextNext: 'After',
    notes: ['a note'],
    variants: [
      {
        lang: 'en-US',
        text: 'Press {1>Save<1} now{2}',
        tags: [tag(1, 'open', '<b>'), tag(1, 'close', '</b>'), tag(2, 'standalone', '<br/>')],
      },
      {
        lang: 'de-DE',
        text: 'Drücken Sie {1>Speichern<1}{2}',
        tags: [tag(1, 'open', '<b>'), tag(1, 'close', '</b>'), tag(2, 'standalone', '<br/>')],
      },
      { lang: 'ja', text: '保存 😀 を押す', tags: [] },
    ],
  },
  {
    sourceLang: 'en-US',
    variants: [
      { lang: 'en-US', text: 'Tom &amp; Jerry <b> & "quotes" \u00a0 trailing ', tags: [] },
      { lang: 'ja', text: 'トムとジェリー', tags: [] },
    ],
  },
  { sourceLang: 'en-US', variants: [{ lang: 'en-US', text: 'Only source', tags: [] }] },
];

describe('XLSX translation memories', () => {
  it('round trip: write → read gives the units back, tags as display tokens with generic originals', async () => {
    const bytes = await write([UNITS.slice(0, 1), UNITS.slice(1)], {
      sourceLang: 'en_US',
      targetLangs: ['de-DE', 'ja'],
      withContext: true,
    });
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const warnings: TmxWarning[] = [];
    const units = await read(bytes, { sourceLang: 'en-us', warnings }, 100);
    expect(warnings).toEqual([]);
    expect(units).toHaveLength(3);
    const [first, second, third] = units as [TmUnit, TmUnit, TmUnit];
    expect(first).toMatchObject({ sourceLang: 'en-US', contextPrev: 'Before', contextNext: 'After', notes: ['a note'] });
    expect(first.variants.map((variant) => [variant.lang, variant.text])).toEqual([
      ['en-US', 'Press {1>Save<1} now{2}'],
      ['de-DE', 'Drücken Sie {1>Speichern<1}{2}'],
      ['ja', '保存 😀 を押す'],
    ]);
    expect(first.variants[0]!.tags).toEqual([tag(1, 'open', '<bpt/>'), tag(1, 'close', '<ept/>'), tag(2, 'standalone', '<ph/>')]);
    // Entities are decoded once (`&amp;` written in a cell stays `&amp;`); an empty cell is no variant.
    expect(second.variants.map((variant) => [variant.lang, variant.text])).toEqual([
      ['en-US', 'Tom &amp; Jerry <b> & "quotes" \u00a0 trailing '],
      ['ja', 'トムとジェリー'],
    ]);
    expect(second.contextPrev).toBeUndefined();
    expect(third.variants).toHaveLength(1);
  });

  it('reads what Excel writes: shared strings, rich text, numbers, booleans; extra columns by any name case', async () => {
    const bytes = await workbook(
      [
        ['EN', 'de_DE', 'Key', 'Previous', 'NEXT', 'Note', 'whatever', 'xx-nope', 'de-de'],
        [
          { richText: [{ text: 'Hello ' }, { font: { bold: true }, text: '{1>' }, { text: 'world<1}' }] },
          'Hallo {1>Welt<1}',
          'k.1',
          'prev',
          'next',
          'n',
          'ignored',
          'ignored',
          'dup',
        ],
        [42, 3.14, null, null, null, null],
        [true, 'wahr'],
        [null, 'Ohne Quelle'],
        [],
      ],
      2,
    );
    const warnings: TmxWarning[] = [];
    const units = await read(bytes, { sourceLang: 'en', warnings });
    expect(warnings.map((warning) => warning.message)).toEqual([
      expect.stringMatching(/column 7 \("whatever"\).*ignored/),
      expect.stringMatching(/column 8 \("xx-nope"\).*ignored/),
      expect.stringMatching(/column 9 \("de-de"\) repeats the language de-DE/),
      expect.stringMatching(/row 5 has no en text/),
    ]);
    expect(units).toHaveLength(3);
    expect(units[0]).toMatchObject({
      sourceLang: 'en',
      contextKey: 'k.1',
      contextPrev: 'prev',
      contextNext: 'next',
      notes: ['n'],
      variants: [
        { lang: 'en', text: 'Hello {1>world<1}' },
        { lang: 'de-DE', text: 'Hallo {1>Welt<1}' },
      ],
    });
    expect(units[0]!.variants[0]!.tags.map((t) => t.display)).toEqual(['{1>', '<1}']);
    expect(units[1]!.variants.map((variant) => variant.text)).toEqual(['42', '3.14']);
    expect(units[2]!.variants.map((variant) => variant.text)).toEqual(['TRUE', 'wahr']);
  });

  it('finds the source column by primary language when only one column has it', async () => {
    const bytes = await workbook([
      ['de', 'en-GB'],
      ['Hallo', 'Hello'],
    ]);
    const units = await read(bytes, { sourceLang: 'en' });
    expect(units[0]).toMatchObject({
      sourceLang: 'en-GB',
      variants: [
        { lang: 'en-GB', text: 'Hello' },
        { lang: 'de', text: 'Hallo' },
      ],
    });
  });

  it('refuses a header without the source language, a file that is no workbook, an unknown source language', async () => {
    const bytes = await workbook([
      ['de', 'fr'],
      ['a', 'b'],
    ]);
    await expectFormatError(read(bytes, { sourceLang: 'en' }), /no column for the source language en \(languages: de, fr\)/);
    await expectFormatError(read(bytes, { sourceLang: 'xx-nope' }), /not a known language code/);
    await expectFormatError(read(bytes, { sourceLang: '' }), /needs the source language/);
    await expectFormatError(read(Buffer.from('en,de\nHello,Hallo\n'), { sourceLang: 'en' }), /XLSX workbook/);
    await expectFormatError(read(bytes.subarray(0, bytes.length >> 1), { sourceLang: 'de' }), /XLSX|worksheet|workbook/);
    await expectFormatError(read(await workbook([]), { sourceLang: 'en' }), /no header row/);
  });

  it('reads a workbook whose xl/workbook.xml comes after its worksheet and shared strings (ExcelJS threw)', async () => {
    const zip = new yazl.ZipFile();
    const add = (path: string, xml: string) =>
      zip.addBuffer(Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${xml}`), path);
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const rels = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    add(
      '[Content_Types].xml',
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    );
    add(
      '_rels/.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rels}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    add(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rels}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rels}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    );
    add(
      'xl/sharedStrings.xml',
      `<sst xmlns="${main}" count="4" uniqueCount="4"><si><t>en</t></si><si><t>de</t></si><si><t>Hello</t></si><si><t>Hallo</t></si></sst>`,
    );
    add(
      'xl/worksheets/sheet1.xml',
      `<worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c></row></sheetData></worksheet>`,
    );
    add(
      'xl/workbook.xml',
      `<workbook xmlns="${main}" xmlns:r="${rels}"><sheets><sheet name="TM" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    );
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
    const units = await read(Buffer.concat(chunks), { sourceLang: 'en' });
    expect(units).toHaveLength(1);
    expect(units[0]).toMatchObject({
      sourceLang: 'en',
      variants: [
        { lang: 'en', text: 'Hello' },
        { lang: 'de', text: 'Hallo' },
      ],
    });
  });

  it('an error of the input stream rejects the read (ExcelJS would wait for ever)', async () => {
    const bytes = await workbook([['en', 'de'], ...Array.from({ length: 2000 }, (_, i) => [`Hello ${i}`, `Hallo ${i}`])]);
    const input = new Readable({
      read() {
        this.push(bytes.subarray(0, 2048));
        setImmediate(() => this.destroy(new Error('disk gone')));
      },
    });
    const consume = async () => {
      for await (const batch of readXlsxTm(input, { sourceLang: 'en' })) void batch;
    };
    const error = await consume().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(FormatError);
    expect((error as Error).message).toBe('disk gone');
  });

  it('writer: leaves out units without source text, refuses unknown languages', async () => {
    const warnings: TmxWarning[] = [];
    const bytes = await write([{ sourceLang: 'de', variants: [{ lang: 'de', text: 'Nur Deutsch', tags: [] }] }, UNITS[1]!], {
      sourceLang: 'en-US',
      targetLangs: ['ja', 'en-US'],
      warnings,
    });
    expect(warnings.map((warning) => warning.message)).toEqual([expect.stringMatching(/unit 1 has no en-US text/)]);
    const units = await read(bytes, { sourceLang: 'en-US' });
    expect(units).toHaveLength(1);
    await expectFormatError(write([], { sourceLang: 'en', targetLangs: ['xx-nope'] }), /"xx-nope" is not a known language code/);
  });

  it('a failing unit source destroys the output', async () => {
    const parts: Buffer[] = [];
    const output = sink(parts);
    async function* units(): AsyncGenerator<TmxUnit[]> {
      yield [UNITS[0]!];
      throw new Error('database gone');
    }
    await expect(writeXlsxTm(output, units(), { sourceLang: 'en-US', targetLangs: ['de-DE'] })).rejects.toThrow('database gone');
    expect(output.destroyed).toBe(true);
  });

  it('writes and reads 20,000 rows quickly, in batches', async () => {
    const count = 20_000;
    async function* units(): AsyncGenerator<TmxUnit[]> {
      for (let start = 0; start < count; start += 1000) {
        yield Array.from({ length: 1000 }, (_, i) => ({
          sourceLang: 'en',
          variants: [
            { lang: 'en', text: `Segment number ${start + i} with {1>tags<1}`, tags: [] },
            { lang: 'de', text: `Segment Nummer ${start + i} mit {1>Tags<1}`, tags: [] },
          ],
        }));
      }
    }
    const started = performance.now();
    const bytes = await write(units(), { sourceLang: 'en', targetLangs: ['de'] });
    const sizes: number[] = [];
    let last: TmUnit | undefined;
    for await (const batch of readXlsxTm(streamOf(bytes, 16 * 1024), { sourceLang: 'en', batchSize: 3000 })) {
      sizes.push(batch.length);
      last = batch[batch.length - 1];
    }
    const elapsed = performance.now() - started;
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(count);
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3000);
    expect(last?.variants[1]).toMatchObject({ lang: 'de', text: `Segment Nummer ${count - 1} mit {1>Tags<1}` });
    expect(elapsed).toBeLessThan(15_000);
  });
});
