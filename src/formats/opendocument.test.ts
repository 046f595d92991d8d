import { describe, expect, it } from 'vitest';
import { libreOfficeConvert, libreOfficeMissing, pdfText, unzipAll, zipOf } from './ooxml-test-helpers.js';
import type { ZipSpec } from './ooxml-test-helpers.js';
import { leadingMimetype, odpFilter, odsFilter, odtFilter } from './opendocument.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit } from './types.js';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" ' +
  'xmlns:xlink="http://www.w3.org/1999/xlink" ' +
  'xmlns:dc="http://purl.org/dc/elements/1.1/" ' +
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" ' +
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';

const MIME = {
  text: 'application/vnd.oasis.opendocument.text',
  spreadsheet: 'application/vnd.oasis.opendocument.spreadsheet',
  presentation: 'application/vnd.oasis.opendocument.presentation',
};

type Kind = keyof typeof MIME;

/** A minimal ODF package: `mimetype` first and stored, content.xml, optional styles.xml and meta.xml. */
async function odf(
  kind: Kind,
  body: string,
  parts: { automatic?: string; masterStyles?: string; meta?: string; contentRaw?: string } = {},
  extra: ZipSpec = [],
): Promise<Buffer> {
  const entries: ZipSpec = [
    ['mimetype', MIME[kind], { compress: false }],
    [
      'content.xml',
      parts.contentRaw ??
        `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content ${NS} office:version="1.3">` +
          `<office:automatic-styles>${parts.automatic ?? ''}</office:automatic-styles>` +
          `<office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`,
    ],
    [
      'styles.xml',
      `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles ${NS} office:version="1.3"><office:styles/>` +
        `<office:master-styles>${parts.masterStyles ?? ''}</office:master-styles></office:document-styles>`,
    ],
    [
      'meta.xml',
      `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta ${NS} office:version="1.3"><office:meta>${parts.meta ?? ''}</office:meta></office:document-meta>`,
    ],
    [
      'META-INF/manifest.xml',
      '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
        `<manifest:file-entry manifest:full-path="/" manifest:media-type="${MIME[kind]}"/>` +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>' +
        '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>' +
        '<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    ],
    ...extra,
  ];
  return zipOf(entries);
}

const p = (content: string, attrs = ''): string => `<text:p${attrs}>${content}</text:p>`;
const span = (style: string, text: string): string => `<text:span text:style-name="${style}">${text}</text:span>`;

async function expectFormatError(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  expect((error as FormatError).message).toMatch(message);
}

function brief(units: TextUnit[]): [string, string][] {
  return units.map((unit) => [unit.locator, unit.source]);
}

async function partText(bytes: Buffer, part = 'content.xml'): Promise<string> {
  return (await unzipAll(bytes)).get(part)!.content.toString('utf8');
}

async function bodyOf(bytes: Buffer): Promise<string> {
  const content = await partText(bytes);
  return content.slice(content.indexOf('<office:body>'), content.indexOf('</office:body>'));
}

/** Empty map and every unit's own source: the same bytes. */
async function expectIdentity(filter: FormatFilter, bytes: Buffer, options?: FilterOptions): Promise<TextUnit[]> {
  expect((await writeAll(filter, bytes, {}, options)).equals(bytes)).toBe(true);
  const units = await parseAll(filter, bytes, options);
  const same = await writeAll(filter, bytes, Object.fromEntries(units.map((unit) => [unit.locator, unit.source])), options);
  expect(same.equals(bytes)).toBe(true);
  return units;
}

describe('odt parse', () => {
  it('makes a unit of each paragraph and heading with text; spans and links are pairs, spaces, tabs and breaks stand alone', async () => {
    const bytes = await odf(
      'text',
      '<text:sequence-decls><text:sequence-decl text:name="Table"/></text:sequence-decls>' +
        '<text:h text:outline-level="1">Title <text:span text:style-name="T1">one</text:span></text:h>' +
        p(
          'Hello ' +
            span('T2', 'bold') +
            ' and <text:s text:c="2"/>spaced<text:tab/>tab ' +
            '<text:a xlink:type="simple" xlink:href="http://x.org/">link ' +
            span('T2', 'inner') +
            '</text:a> end.<text:line-break/>second<text:soft-page-break/> line',
        ) +
        p('') +
        p('   ') +
        p('<draw:frame draw:name="img"><draw:image xlink:href="Pictures/x.png"/></draw:frame>') +
        '<text:list><text:list-item>' +
        p('Item one') +
        '</text:list-item></text:list>' +
        '<table:table table:name="T"><table:table-column/><table:table-row><table:table-cell office:value-type="string">' +
        p('In a cell') +
        '</table:table-cell></table:table-row></table:table>',
    );
    const units = await parseAll(odtFilter, bytes);
    expect(brief(units)).toEqual([
      ['content.xml#1', 'Title {1>one<1}'],
      ['content.xml#2', 'Hello {1>bold<1} and {2}spaced{3}tab {4>link {5>inner<5}<4} end.{6}second line'],
      ['content.xml#6', 'Item one'],
      ['content.xml#7', 'In a cell'],
    ]);
    expect(units[1]!.tags.map((tag) => [tag.display, tag.original])).toEqual([
      ['{1>', '<text:span text:style-name="T2">'],
      ['<1}', '</text:span>'],
      ['{2}', '<text:s text:c="2"/>'],
      ['{3}', '<text:tab/>'],
      ['{4>', '<text:a xlink:type="simple" xlink:href="http://x.org/">'],
      ['{5>', '<text:span text:style-name="T2">'],
      ['<5}', '</text:span>'],
      ['<4}', '</text:a>'],
      ['{6}', '<text:line-break/>'],
    ]);
    expect(units.map((unit) => [unit.index, unit.key, unit.target, unit.translatable, unit.note])).toEqual([
      [0, null, null, true, null],
      [1, null, null, true, null],
      [2, null, null, true, null],
      [3, null, null, true, null],
    ]);
  });

  it('collapses white space as ODF renders it and keeps codes, blank text and enclosing pairs outside the unit', async () => {
    const bytes = await odf(
      'text',
      p('\n    Pretty\n    printed   text\n  ') +
        p('<text:bookmark text:name="b"/><text:tab/>' + span('T1', 'All of it <text:s/>styled') + '<text:bookmark-end text:name="c"/>') +
        p('<text:a xlink:href="#x">Only a link</text:a>'),
    );
    const units = await parseAll(odtFilter, bytes);
    expect(brief(units)).toEqual([
      ['content.xml#1', 'Pretty printed text'],
      ['content.xml#2', 'All of it {1}styled'],
      ['content.xml#3', 'Only a link'],
    ]);
  });

  it('makes notes, text boxes and annotations units of their own, before their anchor paragraph', async () => {
    const bytes = await odf(
      'text',
      p(
        'Anchor<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation>' +
          '<text:note-body>' +
          p('The footnote.') +
          '</text:note-body></text:note> and ' +
          '<draw:frame draw:name="F"><draw:text-box>' +
          p('In the box') +
          '</draw:text-box></draw:frame>' +
          '<office:annotation><dc:creator>A</dc:creator>' +
          p('A comment') +
          '</office:annotation>text.',
      ),
    );
    const units = await parseAll(odtFilter, bytes);
    expect(brief(units)).toEqual([
      ['content.xml#1', 'The footnote.'],
      ['content.xml#2', 'In the box'],
      ['content.xml#4', 'Anchor{1} and {2}text.'],
    ]);
    expect(units[2]!.tags[1]!.original).toMatch(/^<draw:frame draw:name="F">.*<office:annotation>.*<\/office:annotation>$/);
    expect(brief(await parseAll(odtFilter, bytes, { formatSettings: { comments: true } }))).toEqual([
      ['content.xml#1', 'The footnote.'],
      ['content.xml#2', 'In the box'],
      ['content.xml#3', 'A comment'],
      ['content.xml#4', 'Anchor{1} and {2}text.'],
    ]);
  });

  it('reads headers and footers, index, hidden sections and properties according to the doc settings', async () => {
    const bytes = await odf(
      'text',
      '<text:table-of-content text:name="TOC"><text:index-body><text:index-title>' +
        p('Contents') +
        '</text:index-title>' +
        p('Chapter<text:tab/>1') +
        '</text:index-body></text:table-of-content>' +
        p('Body') +
        '<text:section text:name="S" text:display="none">' +
        p('Hidden text') +
        '</text:section>',
      {
        masterStyles:
          '<style:master-page style:name="Standard"><style:header>' +
          p('Header text') +
          '</style:header><style:footer>' +
          p('Page <text:page-number text:select-page="current">1</text:page-number>') +
          '</style:footer></style:master-page>',
        meta: '<meta:generator>x</meta:generator><dc:title>The title</dc:title><dc:description>About it</dc:description>',
      },
    );
    expect(brief(await parseAll(odtFilter, bytes))).toEqual([
      ['content.xml#1', 'Contents'],
      ['content.xml#2', 'Chapter{1}1'],
      ['content.xml#3', 'Body'],
      ['styles.xml#1', 'Header text'],
      ['styles.xml#2', 'Page'],
    ]);
    const other = { formatSettings: { headerFooter: false, index: false, hidden: true, properties: true } };
    expect(brief(await parseAll(odtFilter, bytes, other))).toEqual([
      ['content.xml#3', 'Body'],
      ['content.xml#4', 'Hidden text'],
      ['meta.xml#1', 'The title'],
      ['meta.xml#2', 'About it'],
    ]);
    await expectIdentity(odtFilter, bytes, other);
    const written = await writeAll(odtFilter, bytes, { 'meta.xml#1': 'Der <Titel>', 'styles.xml#1': 'Kopfzeile' }, other);
    expect(await partText(written, 'meta.xml')).toContain('<dc:title>Der &lt;Titel&gt;</dc:title>');
    // styles.xml is not read with headerFooter false: its locators are not written either.
    expect(await partText(written, 'styles.xml')).toContain('Header text');
  });

  it('applies tagRegexp inside the text', async () => {
    const bytes = await odf('text', p('Hello {name}, you have ' + span('B', '%d') + ' messages'));
    const [unit] = await parseAll(odtFilter, bytes, { formatSettings: { tagRegexp: '\\{\\w+\\}|%d' } });
    expect(unit!.source).toBe('Hello {1}, you have {2>{3}<2} messages');
    const out = await writeAll(
      odtFilter,
      bytes,
      { 'content.xml#1': '{2>{3}<2} Nachrichten für {1}' },
      {
        formatSettings: { tagRegexp: '\\{\\w+\\}|%d' },
      },
    );
    expect(await bodyOf(out)).toContain('<text:p><text:span text:style-name="B">%d</text:span> Nachrichten für {name}</text:p>');
  });

  it('gives the same units whatever the chunk size', async () => {
    const bytes = await odf('text', Array.from({ length: 40 }, (_, i) => p(`Paragraph ${i} é ${span('T', 'x')} ü`)).join(''));
    const whole = await parseAll(odtFilter, bytes);
    expect(whole).toHaveLength(40);
    expect(await parseAll(odtFilter, bytes, {}, 7)).toEqual(whole);
    expect(
      (await writeAll(odtFilter, bytes, { 'content.xml#3': 'Drei' }, {}, 7)).equals(
        await writeAll(odtFilter, bytes, { 'content.xml#3': 'Drei' }),
      ),
    ).toBe(true);
  });
});

describe('odt write', () => {
  it('is byte-identical without translations and with each unit’s own source', async () => {
    const bytes = await odf('text', p('One ' + span('T1', 'two')) + p('Three<text:tab/>four'));
    await expectIdentity(odtFilter, bytes);
  });

  it('splices translated paragraphs, keeps mimetype first and stored, other entries unchanged', async () => {
    const bytes = await odf('text', p('Hello ' + span('T1', 'bold') + ' world.', ' text:style-name="P1"') + p('Untouched'), {
      masterStyles: `<style:master-page style:name="Standard"><style:header>${p('Head')}</style:header></style:master-page>`,
    });
    const out = await writeAll(odtFilter, bytes, { 'content.xml#1': 'Hallo {1>fett<1} Welt.' });
    expect(await bodyOf(out)).toContain(
      '<text:p text:style-name="P1">Hallo <text:span text:style-name="T1">fett</text:span> Welt.</text:p><text:p>Untouched</text:p>',
    );
    expect(leadingMimetype(out.subarray(0, 1024))).toBe(MIME.text);
    const before = await unzipAll(bytes);
    const after = await unzipAll(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(after.get('mimetype')!.compressionMethod).toBe(0);
    for (const name of ['styles.xml', 'meta.xml', 'META-INF/manifest.xml'])
      expect(after.get(name)!.content.equals(before.get(name)!.content)).toBe(true);
    const head = await writeAll(odtFilter, bytes, { 'styles.xml#1': 'Kopf' });
    expect(await partText(head, 'styles.xml')).toContain(p('Kopf'));
    expect((await unzipAll(head)).get('content.xml')!.content.equals(before.get('content.xml')!.content)).toBe(true);
  });

  it('writes spaces, tabs and line breaks of a translation as ODF elements, and escapes markup characters', async () => {
    const bytes = await odf('text', p('Text') + p('<text:tab/>' + 'After a tab'));
    const out = await writeAll(odtFilter, bytes, {
      'content.xml#1': ' Lead  two   three\ttab\nline <&> end',
      'content.xml#2': ' space after the tab',
    });
    const body = await bodyOf(out);
    expect(body).toContain(
      '<text:p><text:s/>Lead <text:s/>two <text:s text:c="2"/>three<text:tab/>tab<text:line-break/>line &lt;&amp;&gt; end</text:p>',
    );
    expect(body).toContain('<text:p><text:tab/> space after the tab</text:p>');
  });

  it('lets tags be reordered or left out, and refuses misnested tags and characters XML cannot hold', async () => {
    const bytes = await odf('text', p('A ' + span('T1', 'b') + ' c ' + span('T2', 'd') + '<text:tab/>e'));
    const [unit] = await parseAll(odtFilter, bytes);
    expect(unit!.source).toBe('A {1>b<1} c {2>d<2}{3}e');
    const out = await writeAll(odtFilter, bytes, { 'content.xml#1': '{2>D<2} x {1>B<1}' });
    expect(await bodyOf(out)).toContain(
      '<text:p><text:span text:style-name="T2">D</text:span> x <text:span text:style-name="T1">B</text:span></text:p>',
    );
    await expectFormatError(
      writeAll(odtFilter, bytes, { 'content.xml#1': '{1>B {2>D<1}<2}' }),
      /content.xml#1 has misplaced or unbalanced tags/,
    );
    await expectFormatError(writeAll(odtFilter, bytes, { 'content.xml#1': '{1>B' }), /misplaced or unbalanced tags/);
    await expectFormatError(writeAll(odtFilter, bytes, { 'content.xml#1': 'bad \u0001' }), /character XML cannot hold/);
  });
});

describe('ods', () => {
  const cell = (text: string, attrs = ''): string => `<table:table-cell office:value-type="string"${attrs}>${p(text)}</table:table-cell>`;
  const automatic =
    '<style:style style:name="ta1" style:family="table"><style:table-properties table:display="true"/></style:style>' +
    '<style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style>';

  it('locates cells Sheet!A1 through repeated rows, columns and covered cells, text cells only', async () => {
    const bytes = await odf(
      'spreadsheet',
      '<table:table table:name="Data" table:style-name="ta1">' +
        '<table:table-column table:number-columns-repeated="16384"/>' +
        '<table:table-row>' +
        cell('A1 text') +
        '<table:table-cell office:value-type="float" office:value="2"><text:p>2</text:p></table:table-cell>' +
        '<table:table-cell table:number-columns-repeated="3"/>' +
        cell('F1 text', ' table:number-columns-spanned="2"') +
        '<table:covered-table-cell/>' +
        cell('H1 text') +
        '</table:table-row>' +
        '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>' +
        '<table:table-row>' +
        '<table:table-cell table:number-columns-repeated="26"/>' +
        cell('AA1048572') +
        '<table:table-cell office:value-type="string" table:formula="of:=&quot;x&quot;"><text:p>formula</text:p></table:table-cell>' +
        '<table:table-cell office:value-type="string">' +
        p('First line') +
        p('Second line') +
        '</table:table-cell>' +
        '</table:table-row></table:table>' +
        '<table:table table:name="Other sheet"><table:table-row>' +
        cell('Second sheet') +
        '</table:table-row></table:table>',
      { automatic },
    );
    const units = await parseAll(odsFilter, bytes, { formatSettings: { cellFlow: 'RightDown' } });
    expect(brief(units)).toEqual([
      ['Data!A1', 'A1 text'],
      ['Data!F1', 'F1 text'],
      ['Data!H1', 'H1 text'],
      ['Data!AA1048572', 'AA1048572'],
      ['Data!AC1048572', 'First line'],
      ['Data!AC1048572#2', 'Second line'],
      ['Other sheet!A1', 'Second sheet'],
    ]);
    expect(units.map((unit) => unit.key)).toEqual([
      'Data!A1',
      'Data!F1',
      'Data!H1',
      'Data!AA1048572',
      'Data!AC1048572',
      'Data!AC1048572',
      'Other sheet!A1',
    ]);
    // Default DownRight: column by column.
    expect((await parseAll(odsFilter, bytes)).map((unit) => unit.locator)).toEqual([
      'Data!A1',
      'Data!F1',
      'Data!H1',
      'Data!AA1048572',
      'Data!AC1048572',
      'Data!AC1048572#2',
      'Other sheet!A1',
    ]);
    await expectIdentity(odsFilter, bytes);
    const out = await writeAll(odsFilter, bytes, {
      'Data!H1': 'H1 übersetzt',
      'Data!AC1048572#2': 'Zweite Zeile',
      'Other sheet!A1': 'Zweites Blatt',
    });
    const body = await bodyOf(out);
    expect(body).toContain('<table:table-cell office:value-type="string">' + p('H1 übersetzt') + '</table:table-cell>');
    expect(body).toContain(p('First line') + p('Zweite Zeile'));
    expect(body).toContain(p('Zweites Blatt'));
  });

  it('orders cells by cellFlow', async () => {
    const bytes = await odf(
      'spreadsheet',
      '<table:table table:name="S"><table:table-row>' +
        cell('a1') +
        cell('b1') +
        '</table:table-row><table:table-row>' +
        cell('a2') +
        cell('b2') +
        '</table:table-row></table:table>',
    );
    const order = async (cellFlow: string): Promise<string[]> =>
      (await parseAll(odsFilter, bytes, { formatSettings: { cellFlow } })).map((unit) => unit.source);
    expect(await order('DownRight')).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(await order('RightDown')).toEqual(['a1', 'b1', 'a2', 'b2']);
    expect(await order('DownLeft')).toEqual(['b1', 'b2', 'a1', 'a2']);
    expect(await order('LeftDown')).toEqual(['b1', 'a1', 'b2', 'a2']);
    expect((await parseAll(odsFilter, bytes, { formatSettings: { cellFlow: 'RightDown' } })).map((unit) => unit.index)).toEqual([
      0, 1, 2, 3,
    ]);
  });

  it('leaves out hidden sheets, rows and columns unless hidden; comments and specifiedColumns as set', async () => {
    const bytes = await odf(
      'spreadsheet',
      '<table:table table:name="Visible" table:style-name="ta1">' +
        '<table:table-column/><table:table-column table:visibility="collapse" table:number-columns-repeated="2"/><table:table-column table:number-columns-repeated="3"/>' +
        '<table:table-row>' +
        cell('A1') +
        cell('B1 hidden column') +
        cell('C1 hidden column') +
        '<table:table-cell office:value-type="string"><office:annotation><dc:creator>me</dc:creator>' +
        p('Note on D1') +
        '</office:annotation>' +
        p('D1') +
        '</table:table-cell></table:table-row>' +
        '<table:table-row table:visibility="collapse">' +
        cell('A2 hidden row') +
        '</table:table-row>' +
        '<table:table-row table:visibility="filter">' +
        cell('A3 filtered row') +
        '</table:table-row>' +
        '<table:table-row>' +
        cell('A4') +
        '</table:table-row></table:table>' +
        '<table:table table:name="Hidden" table:style-name="ta2"><table:table-row>' +
        cell('In a hidden sheet') +
        '</table:table-row></table:table>',
      { automatic },
    );
    expect(brief(await parseAll(odsFilter, bytes))).toEqual([
      ['Visible!A1', 'A1'],
      ['Visible!A4', 'A4'],
      ['Visible!D1', 'D1'],
    ]);
    const all = await parseAll(odsFilter, bytes, { formatSettings: { hidden: true, comments: true, cellFlow: 'RightDown' } });
    expect(brief(all)).toEqual([
      ['Visible!A1', 'A1'],
      ['Visible!B1', 'B1 hidden column'],
      ['Visible!C1', 'C1 hidden column'],
      ['Visible!D1', 'D1'],
      ['Visible!A2', 'A2 hidden row'],
      ['Visible!A3', 'A3 filtered row'],
      ['Visible!A4', 'A4'],
      ['Visible!D1#comment', 'Note on D1'],
      ['Hidden!A1', 'In a hidden sheet'],
    ]);
    expect(all[7]!.note).toBe('comment');
    expect(brief(await parseAll(odsFilter, bytes, { formatSettings: { specifiedColumns: 'D', comments: true } }))).toEqual([
      ['Visible!D1', 'D1'],
      ['Visible!D1#comment', 'Note on D1'],
    ]);
    const out = await writeAll(
      odsFilter,
      bytes,
      { 'Visible!D1#comment': 'Anmerkung', 'Visible!D1': 'D eins' },
      { formatSettings: { comments: true } },
    );
    expect(await bodyOf(out)).toContain(p('Anmerkung') + '</office:annotation>' + p('D eins'));
  });
});

describe('odp', () => {
  it('reads slides, notes, hidden slides and master pages according to the ppt settings', async () => {
    const frame = (text: string): string => `<draw:frame presentation:class="title"><draw:text-box>${p(text)}</draw:text-box></draw:frame>`;
    const bytes = await odf(
      'presentation',
      `<draw:page draw:name="s1" draw:style-name="dp1">${frame('Slide one')}<presentation:notes><draw:page-thumbnail/>${frame('Speaker note')}</presentation:notes></draw:page>` +
        `<draw:page draw:name="s2" draw:style-name="dp2">${frame('Hidden slide')}</draw:page>`,
      {
        automatic:
          '<style:style style:name="dp1" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="visible"/></style:style>' +
          '<style:style style:name="dp2" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="hidden"/></style:style>',
        masterStyles: `<style:master-page style:name="Default">${frame('Master title')}</style:master-page>`,
      },
    );
    expect(brief(await parseAll(odpFilter, bytes))).toEqual([['content.xml#1', 'Slide one']]);
    const all = await parseAll(odpFilter, bytes, { formatSettings: { notes: true, hiddenSlides: true, masterSlides: true } });
    expect(all.map((unit) => [unit.locator, unit.source, unit.note])).toEqual([
      ['content.xml#1', 'Slide one', null],
      ['content.xml#2', 'Speaker note', 'speaker notes'],
      ['content.xml#3', 'Hidden slide', null],
      ['styles.xml#1', 'Master title', null],
    ]);
    await expectIdentity(odpFilter, bytes);
  });
});

describe('opendocument detection', () => {
  it('claims packages by their leading stored mimetype only', async () => {
    const text = await odf('text', p('x'));
    const sheet = await odf('spreadsheet', '');
    const slides = await odf('presentation', '');
    const head = (bytes: Buffer): Buffer => bytes.subarray(0, 1024);
    expect([odtFilter, odsFilter, odpFilter].map((filter) => filter.detect!(head(text)))).toEqual([true, false, false]);
    expect([odtFilter, odsFilter, odpFilter].map((filter) => filter.detect!(head(sheet)))).toEqual([false, true, false]);
    expect([odtFilter, odsFilter, odpFilter].map((filter) => filter.detect!(head(slides)))).toEqual([false, false, true]);
    const template = await zipOf([['mimetype', `${MIME.text}-template`, { compress: false }]]);
    expect(odtFilter.detect!(head(template))).toBe(true);
    const deflated = await zipOf([['mimetype', MIME.text, { compress: true }]]);
    expect(odtFilter.detect!(head(deflated))).toBe(false);
    expect(odtFilter.detect!(head(await zipOf([['word/document.xml', '<w:document/>', { compress: false }]])))).toBe(false);
    expect(odtFilter.detect!(Buffer.from('PK not really'))).toBe(false);
  });
});

describe('opendocument hostile input', () => {
  it('refuses a DOCTYPE (XXE, entity bombs) in content.xml', async () => {
    const xxe = await odf('text', '', {
      contentRaw: `<?xml version="1.0"?><!DOCTYPE office:document-content [<!ENTITY x SYSTEM "file:///etc/passwd">]><office:document-content ${NS}><office:body><office:text><text:p>&x;</text:p></office:text></office:body></office:document-content>`,
    });
    await expectFormatError(parseAll(odtFilter, xxe), /DOCTYPE/);
    await expectFormatError(writeAll(odtFilter, xxe, { 'content.xml#1': 'x' }), /DOCTYPE/);
  });

  it('refuses a file that is not a ZIP, a ZIP without content.xml, and malformed XML with its position', async () => {
    await expectFormatError(parseAll(odtFilter, 'just text, named .odt'), /not a valid ZIP archive/);
    await expectFormatError(parseAll(odsFilter, await zipOf([['mimetype', MIME.spreadsheet]])), /no content.xml/);
    await expectFormatError(parseAll(odtFilter, await odf('text', '<text:p>open</text:span>')), /malformed XML in content.xml.*\(line 2/);
  });

  it('refuses deep nesting and huge paragraphs', async () => {
    const deep = '<text:span>'.repeat(600) + 'x' + '</text:span>'.repeat(600);
    await expectFormatError(parseAll(odtFilter, await odf('text', p(deep))), /deeper than 512 levels/);
    const huge = await odf('text', p('x'.repeat(10_000_001)));
    const relaxed = { zipLimits: { maxRatio: 1_000_000 } } as FilterOptions;
    await expectFormatError(parseAll(odtFilter, huge, relaxed), /paragraph of more than 10000000 characters/);
  }, 30_000);

  it('refuses a zip bomb part', async () => {
    const bomb = await odf('text', p('x'.repeat(9 * 1024 * 1024)));
    await expectFormatError(parseAll(odtFilter, bomb), /content.xml expands beyond the limit/);
  }, 30_000);

  it('reads a paragraph of many tags and a sheet of huge repeats in linear time', async () => {
    const tags = await odf('text', p('a<text:s/>'.repeat(200_000)));
    const started = Date.now();
    const relaxed = { zipLimits: { maxRatio: 1_000_000 } } as FilterOptions;
    const [unit] = await parseAll(odtFilter, tags, relaxed);
    expect(unit!.tags).toHaveLength(199_999);
    const rows = Array.from(
      { length: 20_000 },
      () =>
        '<table:table-row table:number-rows-repeated="1000000000"><table:table-cell table:number-columns-repeated="1000000000"/></table:table-row>',
    ).join('');
    const columns = Array.from({ length: 20_000 }, (_, i) => `<table:table-column${i % 2 ? ' table:visibility="collapse"' : ''}/>`).join(
      '',
    );
    const sheet = await odf(
      'spreadsheet',
      `<table:table table:name="S">${columns}${rows}<table:table-row>${'<table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell>'.repeat(20_000)}</table:table-row></table:table>`,
    );
    expect(await parseAll(odsFilter, sheet, relaxed)).toHaveLength(10_000);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);
});

const missing = libreOfficeMissing();

describe.skipIf(missing !== null)('opendocument made by LibreOffice', () => {
  const upper = (units: TextUnit[]): Record<string, string> =>
    Object.fromEntries(units.map((unit) => [unit.locator, unit.source.replace(/[A-Za-z]+/g, (word) => `${word.toUpperCase()}Ü`)]));

  it('round-trips a real text document and LibreOffice reads the translation', async () => {
    const html =
      '<html><head><title>Report</title></head><body><h1>Annual report</h1><p>Hello <b>bold</b> and <i>italic</i> world.</p>' +
      '<p>A <a href="https://example.com/">link</a> here.<br/>New line.</p><ul><li>Item one</li></ul>' +
      '<table><tr><td>Cell one</td><td>Cell two</td></tr></table></body></html>';
    const bytes = libreOfficeConvert(Buffer.from(html), 'report.html', 'odt:writer8');
    const units = await expectIdentity(odtFilter, bytes);
    expect(units.map((unit) => unit.source)).toEqual(
      expect.arrayContaining([
        'Annual report',
        'Cell one',
        'Item one',
        'Hello {1>bold<1} and {2>italic<2} world.',
        'A {1>link<1} here.{2}New line.',
      ]),
    );
    const translated = await writeAll(odtFilter, bytes, upper(units));
    expect(leadingMimetype(translated.subarray(0, 1024))).toBe(leadingMimetype(bytes.subarray(0, 1024)));
    expect(odtFilter.detect!(translated.subarray(0, 1024))).toBe(true);
    expect(libreOfficeConvert(translated, 'translated.odt', 'pdf').subarray(0, 5).toString()).toBe('%PDF-');
    const text = libreOfficeConvert(translated, 'translated.odt', 'txt:Text (encoded):UTF8').toString('utf8');
    expect(text).toContain('ANNUALÜ REPORTÜ');
    expect(text).toContain('HELLOÜ BOLDÜ ANDÜ ITALICÜ WORLDÜ.');
    expect(text).toContain('CELLÜ ONEÜ');
    expect(text).toContain('AÜ LINKÜ HEREÜ.\nNEWÜ LINEÜ.');
  }, 180_000);

  it('writes notes, text boxes and annotations with their anchor, and LibreOffice reads the result', async () => {
    const bytes = await odf(
      'text',
      p(
        'Anchor<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body>' +
          p('The footnote.') +
          '</text:note-body></text:note> and ' +
          '<draw:frame draw:name="F" text:anchor-type="as-char" svg:width="3cm" svg:height="1cm"><draw:text-box>' +
          p('In the box') +
          '</draw:text-box></draw:frame> ' +
          '<office:annotation><dc:creator>A</dc:creator>' +
          p('A comment') +
          '</office:annotation>text.',
      ),
    );
    const options = { formatSettings: { comments: true } };
    const units = await expectIdentity(odtFilter, bytes, options);
    const translated = await writeAll(odtFilter, bytes, upper(units), options);
    expect(await bodyOf(translated)).toContain(p('THEÜ FOOTNOTEÜ.'));
    const pdf = libreOfficeConvert(translated, 'notes.odt', 'pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = libreOfficeConvert(translated, 'notes.odt', 'txt:Text (encoded):UTF8').toString('utf8');
    expect(text).toContain('ANCHORÜ1 ANDÜ');
    // The footnote and the text box are in the PDF (the text export leaves them out), when poppler-utils is installed.
    const pdfWords = pdfText(pdf);
    if (pdfWords !== null) {
      expect(pdfWords).toContain('THEÜ FOOTNOTEÜ.');
      expect(pdfWords).toContain('INÜ THEÜ BOXÜ');
    }
  }, 180_000);

  it('round-trips a real spreadsheet and LibreOffice reads the translation', async () => {
    const csv = 'Name,Value,Note\nApple,1.5,"Red, sweet"\nPear,2,\n,,\nBanana,3,Yellow\n';
    const bytes = libreOfficeConvert(Buffer.from(csv), 'fruit.csv', 'ods');
    const units = await expectIdentity(odsFilter, bytes, { formatSettings: { cellFlow: 'RightDown' } });
    expect(brief(units)).toEqual([
      ['fruit!A1', 'Name'],
      ['fruit!B1', 'Value'],
      ['fruit!C1', 'Note'],
      ['fruit!A2', 'Apple'],
      ['fruit!C2', 'Red, sweet'],
      ['fruit!A3', 'Pear'],
      ['fruit!A5', 'Banana'],
      ['fruit!C5', 'Yellow'],
    ]);
    const translated = await writeAll(odsFilter, bytes, upper(units));
    expect(libreOfficeConvert(translated, 'translated.ods', 'pdf').subarray(0, 5).toString()).toBe('%PDF-');
    const text = libreOfficeConvert(translated, 'translated.ods', 'csv:Text - txt - csv (StarCalc):44,34,76').toString('utf8');
    expect(text.split('\n').slice(0, 5).join('\n')).toBe('NAMEÜ,VALUEÜ,NOTEÜ\nAPPLEÜ,1.5,"REDÜ, SWEETÜ"\nPEARÜ,2,\n,,\nBANANAÜ,3,YELLOWÜ');
  }, 180_000);
});

describe.skipIf(missing === null)('opendocument made by LibreOffice (skipped)', () => {
  it.skip(`skipped: ${missing}`, () => {});
});
