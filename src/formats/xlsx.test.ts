import { describe, expect, it } from 'vitest';
import { libreOfficeConvert, libreOfficeMissing, unzipAll, zipOf } from './ooxml-test-helpers.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions, TextUnit } from './types.js';
import { parseSpecifiedColumns, xlsxFilter } from './xlsx.js';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const RNS = `xmlns:r="${REL}"`;

const rels = (items: [string, string, string][]): string =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;

const SHARED = [
  '<si><t>Name</t></si>', // 0
  '<si><t>Apple</t></si>', // 1
  '<si><r><t xml:space="preserve">Red </t></r><r><rPr><b/><sz val="11"/></rPr><t>ripe</t></r><r><t xml:space="preserve"> fruit</t></r></si>', // 2
  '<si><t>Hidden row text</t></si>', // 3
  '<si><t xml:space="preserve">   </t></si>', // 4
  '<si><t>Secret sheet</t></si>', // 5
  '<si><t>Hidden column</t></si>', // 6
  '<si><t>Note</t></si>', // 7
];

const sheet1 =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${MAIN} ${RNS}><cols><col min="4" max="4" width="3" hidden="1"/></cols><sheetData>` +
  '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>7</v></c><c r="C1"><v>42</v></c><c r="D1" t="s"><v>6</v></c></row>' +
  '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="s"><v>2</v></c><c r="C2"><f>SUM(1,2)</f><v>3</v></c><c r="E2" t="inlineStr"><is><t>Inline &amp; text</t></is></c></row>' +
  '<row r="3" hidden="1"><c r="A3" t="s"><v>3</v></c></row>' +
  '<row r="4"><c r="A4" t="s"><v>1</v></c><c r="B4" t="s"><v>4</v></c><c r="C4" t="str"><f>"x"</f><v>x</v></c><c r="E4" t="b"><v>1</v></c><c t="s"><v>1</v></c></row>' +
  '</sheetData></worksheet>';

const sheet2 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${MAIN}><sheetData><row r="1"><c r="A1" t="s"><v>5</v></c><c r="B1" t="s"><v>1</v></c></row></sheetData></worksheet>`;

const comments = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<comments ${MAIN}><authors><author>Me</author></authors><commentList><comment ref="A1" authorId="0"><text><r><rPr><b/></rPr><t>Me:</t></r><r><t xml:space="preserve"> check this</t></r></text></comment></commentList></comments>`;

async function workbook(): Promise<Buffer> {
  return zipOf([
    ['[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'],
    ['_rels/.rels', rels([['rId1', 'officeDocument', 'xl/workbook.xml']])],
    [
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook ${MAIN} ${RNS}><sheets><sheet name="Fruit" sheetId="1" r:id="rId1"/><sheet name="Secret" sheetId="2" state="hidden" r:id="rId2"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      rels([
        ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
        ['rId2', 'worksheet', 'worksheets/sheet2.xml'],
        ['rId3', 'sharedStrings', 'sharedStrings.xml'],
      ]),
    ],
    ['xl/worksheets/sheet1.xml', sheet1],
    ['xl/worksheets/_rels/sheet1.xml.rels', rels([['rId1', 'comments', '../comments1.xml']])],
    ['xl/worksheets/sheet2.xml', sheet2],
    ['xl/comments1.xml', comments],
    [
      'xl/sharedStrings.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst ${MAIN} count="11" uniqueCount="${SHARED.length}">${SHARED.join('')}</sst>`,
    ],
  ]);
}

function brief(units: TextUnit[]): [string, string][] {
  return units.map((unit) => [unit.locator, unit.source]);
}

async function part(bytes: Buffer, name: string): Promise<string> {
  return (await unzipAll(bytes)).get(name)!.content.toString('utf8');
}

describe('xlsx parse', () => {
  it('makes a unit of each cell with text, down the columns first', async () => {
    const units = await parseAll(xlsxFilter, await workbook());
    expect(brief(units)).toEqual([
      ['Fruit!A1', 'Name'],
      ['Fruit!A2', 'Apple'],
      ['Fruit!A4', 'Apple'],
      ['Fruit!B1', 'Note'],
      ['Fruit!B2', 'Red {1>ripe<1} fruit'],
      ['Fruit!E2', 'Inline & text'],
      ['Fruit!F4', 'Apple'], // no r attribute: the column after E4
    ]);
    expect(units[4]!.tags.map((tag) => tag.original)).toEqual(['<r><rPr><b/><sz val="11"/></rPr><t>', '</t></r>']);
    expect(units[0]!.key).toBe('Fruit!A1');
  });

  it('follows cellFlow, hidden, comments and specifiedColumns', async () => {
    const bytes = await workbook();
    const rowFirst = await parseAll(xlsxFilter, bytes, { formatSettings: { cellFlow: 'RightDown' } });
    expect(rowFirst.map((unit) => unit.locator)).toEqual([
      'Fruit!A1',
      'Fruit!B1',
      'Fruit!A2',
      'Fruit!B2',
      'Fruit!E2',
      'Fruit!A4',
      'Fruit!F4',
    ]);
    const all = await parseAll(xlsxFilter, bytes, { formatSettings: { hidden: true, comments: true } });
    expect(brief(all)).toEqual([
      ['Fruit!A1', 'Name'],
      ['Fruit!A2', 'Apple'],
      ['Fruit!A3', 'Hidden row text'],
      ['Fruit!A4', 'Apple'],
      ['Fruit!B1', 'Note'],
      ['Fruit!B2', 'Red {1>ripe<1} fruit'],
      ['Fruit!D1', 'Hidden column'],
      ['Fruit!E2', 'Inline & text'],
      ['Fruit!F4', 'Apple'],
      ['Fruit!A1#comment', '{1>Me:<1} check this'],
      ['Secret!A1', 'Secret sheet'],
      ['Secret!B1', 'Apple'],
    ]);
    const columns = await parseAll(xlsxFilter, bytes, { formatSettings: { specifiedColumns: 'b, D-F' } });
    expect(columns.map((unit) => unit.locator)).toEqual(['Fruit!B1', 'Fruit!B2', 'Fruit!E2', 'Fruit!F4']);
  });

  it('parses specifiedColumns', () => {
    expect([...parseSpecifiedColumns('A,C:D; aa')!]).toEqual([1, 3, 4, 27]);
    expect(parseSpecifiedColumns('')).toBeNull();
    expect(parseSpecifiedColumns('1,2')).toBeNull();
  });

  it('gives the same units whatever the chunk size', async () => {
    const bytes = await workbook();
    expect(await parseAll(xlsxFilter, bytes, {}, 5)).toEqual(await parseAll(xlsxFilter, bytes));
  });
});

describe('xlsx write', () => {
  it('is byte-identical without translations and with each unit’s own source', async () => {
    const bytes = await workbook();
    const options: FilterOptions = { formatSettings: { comments: true } };
    expect((await writeAll(xlsxFilter, bytes, {}, options)).equals(bytes)).toBe(true);
    const units = await parseAll(xlsxFilter, bytes, options);
    expect((await writeAll(xlsxFilter, bytes, Object.fromEntries(units.map((u) => [u.locator, u.source])), options)).equals(bytes)).toBe(
      true,
    );
  });

  it('rewrites shared strings, inline strings and comments', async () => {
    const bytes = await workbook();
    const options: FilterOptions = { formatSettings: { comments: true } };
    const out = await writeAll(
      xlsxFilter,
      bytes,
      {
        'Fruit!A1': 'Nom',
        'Fruit!B2': 'Rouge {1>mûr<1} & fruit',
        'Fruit!E2': 'Texte <en ligne>',
        'Fruit!A1#comment': '{1>Moi :<1} vérifier',
      },
      options,
    );
    const shared = await part(out, 'xl/sharedStrings.xml');
    expect(shared).toContain('<si><t xml:space="preserve">Nom</t></si>');
    expect(shared).toContain(
      '<si><r><t xml:space="preserve">Rouge </t></r><r><rPr><b/><sz val="11"/></rPr><t xml:space="preserve">mûr</t></r><r><t xml:space="preserve"> &amp; fruit</t></r></si>',
    );
    expect(shared).toContain('uniqueCount="8"');
    expect(await part(out, 'xl/worksheets/sheet1.xml')).toContain('<is><t xml:space="preserve">Texte &lt;en ligne&gt;</t></is>');
    expect(await part(out, 'xl/worksheets/sheet2.xml')).toBe(sheet2);
    expect(brief(await parseAll(xlsxFilter, out, options))).toEqual([
      ['Fruit!A1', 'Nom'],
      ['Fruit!A2', 'Apple'],
      ['Fruit!A4', 'Apple'],
      ['Fruit!B1', 'Note'],
      ['Fruit!B2', 'Rouge {1>mûr<1} & fruit'],
      ['Fruit!E2', 'Texte <en ligne>'],
      ['Fruit!F4', 'Apple'],
      ['Fruit!A1#comment', '{1>Moi :<1} vérifier'],
    ]);
  });

  it('gives cells that share a string but not its translation a string of their own', async () => {
    const bytes = await workbook();
    // "Apple" (shared string 1) is used by A2, A4, F4 and by the hidden sheet's B1.
    const out = await writeAll(xlsxFilter, bytes, { 'Fruit!A2': 'Pomme', 'Fruit!A4': 'Pomme', 'Fruit!F4': 'Pomme verte' });
    const shared = await part(out, 'xl/sharedStrings.xml');
    expect(shared).toContain('uniqueCount="10"');
    expect(shared).toMatch(/<si><t xml:space="preserve">Pomme verte<\/t><\/si><si><t>Apple<\/t><\/si><\/sst>$/);
    const sheet = await part(out, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<c r="A2" t="s"><v>1</v></c>');
    expect(sheet).toContain('<c r="A4" t="s"><v>1</v></c>');
    expect(sheet).toContain('<c t="s"><v>8</v></c>');
    expect(await part(out, 'xl/worksheets/sheet2.xml')).toContain('<c r="B1" t="s"><v>9</v></c>');
    const units = await parseAll(xlsxFilter, out, { formatSettings: { hidden: true } });
    const text = Object.fromEntries(brief(units));
    expect([text['Fruit!A2'], text['Fruit!A4'], text['Fruit!F4'], text['Secret!B1']]).toEqual(['Pomme', 'Pomme', 'Pomme verte', 'Apple']);
  });

  it('refuses misnested tags in a translation', async () => {
    const error = await writeAll(xlsxFilter, await workbook(), { 'Fruit!B2': 'Rouge <1} mûr {1>' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(/shared string 2 has misplaced or unbalanced tags/);
  });
});

describe('xlsx hostile input', () => {
  it('refuses a DOCTYPE in the shared strings and a non-workbook', async () => {
    const entries = await unzipAll(await workbook());
    const bad = await zipOf(
      [...entries].map(([name, entry]) => [
        name,
        name === 'xl/sharedStrings.xml'
          ? entry.content.toString().replace('<sst ', '<!DOCTYPE sst [<!ENTITY lol "lol">]><sst ')
          : entry.content,
      ]),
    );
    await expect(parseAll(xlsxFilter, bad)).rejects.toThrow(/DOCTYPE/);
    await expect(parseAll(xlsxFilter, await zipOf([['a.xml', '<a/>']]))).rejects.toThrow(/not an Excel workbook/);
    await expect(parseAll(xlsxFilter, 'not a zip')).rejects.toThrow(/not a valid ZIP archive/);
  });
});

const missing = libreOfficeMissing();

describe.skipIf(missing !== null)('xlsx made by LibreOffice', () => {
  it('round-trips a real workbook and LibreOffice reads the translation', async () => {
    const csv = 'Name,Value,Note\nApple,3,Red fruit\nPear,4,Green fruit\nApple,5,Red fruit\n';
    const bytes = libreOfficeConvert(Buffer.from(csv), 'fruit.csv', 'xlsx');
    expect((await writeAll(xlsxFilter, bytes, {})).equals(bytes)).toBe(true);
    const units = await parseAll(xlsxFilter, bytes);
    expect(units.map((unit) => unit.source)).toEqual([
      'Name',
      'Apple',
      'Pear',
      'Apple',
      'Value',
      'Note',
      'Red fruit',
      'Green fruit',
      'Red fruit',
    ]);
    expect((await writeAll(xlsxFilter, bytes, Object.fromEntries(units.map((u) => [u.locator, u.source])))).equals(bytes)).toBe(true);
    const sheet = units[0]!.locator.split('!')[0]!;
    const translated = await writeAll(xlsxFilter, bytes, {
      [`${sheet}!A1`]: 'Nom',
      [`${sheet}!A2`]: 'Pomme',
      [`${sheet}!A3`]: 'Poire',
      [`${sheet}!A4`]: 'Pomme rouge',
      [`${sheet}!C2`]: 'Fruit rouge',
      [`${sheet}!C4`]: 'Fruit rouge',
    });
    expect(libreOfficeConvert(translated, 'translated.xlsx', 'pdf').subarray(0, 5).toString()).toBe('%PDF-');
    const back = libreOfficeConvert(translated, 'translated.xlsx', 'csv').toString('utf8').trim().split(/\r?\n/);
    expect(back).toEqual(['Nom,Value,Note', 'Pomme,3,Fruit rouge', 'Poire,4,Green fruit', 'Pomme rouge,5,Fruit rouge']);
  }, 180_000);
});
