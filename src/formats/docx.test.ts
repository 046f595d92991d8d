import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docxFilter } from './docx.js';
import { libreOfficeConvert, libreOfficeMissing, unzipAll, zipOf } from './ooxml-test-helpers.js';
import type { ZipSpec } from './ooxml-test-helpers.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions, TextUnit } from './types.js';

const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ' +
  'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A minimal valid DOCX: body paragraphs, and optional header, footnotes and comments parts. */
async function docx(
  body: string,
  parts: { header?: string; footnotes?: string; comments?: string } = {},
  extra: ZipSpec = [],
): Promise<Buffer> {
  const overrides: string[] = [
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
  ];
  const rels: string[] = [];
  const entries: ZipSpec = [];
  const add = (name: string, kind: string, root: string, content: string): void => {
    overrides.push(
      `<Override PartName="/word/${name}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.${kind}+xml"/>`,
    );
    rels.push(`<Relationship Id="rId${rels.length + 10}" Type="${REL}/${kind}" Target="${name}"/>`);
    entries.push([`word/${name}`, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:${root} ${NS}>${content}</w:${root}>`]);
  };
  if (parts.header !== undefined) add('header1.xml', 'header', 'hdr', parts.header);
  if (parts.footnotes !== undefined) add('footnotes.xml', 'footnotes', 'footnotes', parts.footnotes);
  if (parts.comments !== undefined) add('comments.xml', 'comments', 'comments', parts.comments);
  return zipOf([
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        overrides.join('') +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ],
    [
      'word/document.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${NS}><w:body>${body}<w:sectPr/></w:body></w:document>`,
    ],
    [
      'word/_rels/document.xml.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}<Relationship Id="rId9" Type="${REL}/hyperlink" Target="https://example.com/" TargetMode="External"/></Relationships>`,
    ],
    ...entries,
    ...extra,
  ]);
}

const p = (content: string, attrs = ''): string => `<w:p${attrs}>${content}</w:p>`;
const r = (text: string, rpr = ''): string => `<w:r>${rpr}<w:t xml:space="preserve">${text}</w:t></w:r>`;

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

async function documentXml(bytes: Buffer, part = 'word/document.xml'): Promise<string> {
  return (await unzipAll(bytes)).get(part)!.content.toString('utf8');
}

/** Writes each unit's source back as its translation: must give the same bytes. */
async function expectIdentity(bytes: Buffer, options?: FilterOptions): Promise<void> {
  expect((await writeAll(docxFilter, bytes, {}, options)).equals(bytes)).toBe(true);
  const units = await parseAll(docxFilter, bytes, options);
  const same = await writeAll(docxFilter, bytes, Object.fromEntries(units.map((unit) => [unit.locator, unit.source])), options);
  expect(same.equals(bytes)).toBe(true);
}

describe('docx parse', () => {
  it('makes a unit of each paragraph with text, formatting differences as tag pairs', async () => {
    const bytes = await docx(
      p('<w:pPr><w:jc w:val="center"/></w:pPr>' + r('Hello ') + r('bold', '<w:rPr><w:b/></w:rPr>') + r(' world.')) +
        p('<w:r><w:drawing/></w:r>') +
        p('') +
        p(r('   ')) +
        p(r('Second') + '<w:r><w:tab/></w:r>' + r('paragraph')),
    );
    const units = await parseAll(docxFilter, bytes);
    expect(brief(units)).toEqual([
      ['word/document.xml#1', 'Hello {1>bold<1} world.'],
      ['word/document.xml#5', 'Second{1}paragraph'],
    ]);
    expect(units[0]!.tags.map((tag) => [tag.display, tag.original])).toEqual([
      ['{1>', '<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">'],
      ['<1}', '</w:t></w:r>'],
    ]);
    expect(units[1]!.tags[0]!.original).toBe('<w:r><w:tab/></w:r>');
    expect(units.map((unit) => [unit.index, unit.key, unit.target, unit.translatable])).toEqual([
      [0, null, null, true],
      [1, null, null, true],
    ]);
  });

  it('joins runs of the same formatting, ignoring revision ids, language and proofing marks', async () => {
    const bytes = await docx(
      p(
        '<w:r w:rsidR="00AB12"><w:t>Spell</w:t></w:r><w:proofErr w:type="spellStart"/>' +
          '<w:r w:rsidRPr="00CD"><w:rPr><w:lang w:val="de-DE"/></w:rPr><w:t>chekc</w:t></w:r><w:proofErr w:type="spellEnd"/>' +
          '<w:r><w:rPr><w:noProof/></w:rPr><w:t xml:space="preserve"> ok</w:t></w:r><w:r><w:lastRenderedPageBreak/><w:t>.</w:t></w:r>',
      ),
    );
    expect(brief(await parseAll(docxFilter, bytes))).toEqual([['word/document.xml#1', 'Spellchekc ok.']]);
  });

  it('joinSimilarRuns also ignores size, spacing and fonts', async () => {
    const bytes = await docx(p(r('Big', '<w:rPr><w:sz w:val="28"/></w:rPr>') + r('ger text here', '<w:rPr><w:sz w:val="24"/></w:rPr>')));
    expect((await parseAll(docxFilter, bytes))[0]!.source).toBe('{1>Big<1}ger text here');
    expect((await parseAll(docxFilter, bytes, { formatSettings: { joinSimilarRuns: true } }))[0]!.source).toBe('Bigger text here');
  });

  it('pairs hyperlinks, fields and content controls; codes stand alone; codes around the text stay outside', async () => {
    const bytes = await docx(
      p(
        '<w:bookmarkStart w:id="0" w:name="start"/><w:r><w:tab/></w:r>' +
          r('See ') +
          '<w:hyperlink r:id="rId9"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>the site</w:t></w:r></w:hyperlink>' +
          r(', page ') +
          '<w:fldSimple w:instr=" PAGE "><w:r><w:t>3</w:t></w:r></w:fldSimple>' +
          r(' and ') +
          '<w:sdt><w:sdtPr><w:alias w:val="x"/></w:sdtPr><w:sdtContent><w:r><w:t>control</w:t></w:r></w:sdtContent></w:sdt>' +
          '<w:r><w:br/></w:r><w:r><w:footnoteReference w:id="1"/></w:r>' +
          r(' end') +
          '<w:bookmarkEnd w:id="0"/>',
      ),
    );
    const [unit] = await parseAll(docxFilter, bytes);
    expect(unit!.source).toBe('See {1>{2>the site<2}<1}, page {3>3<3} and {4>control<4}{5} end');
    const originals = Object.fromEntries(unit!.tags.map((tag) => [tag.display, tag.original]));
    expect(originals['{1>']).toBe('<w:hyperlink r:id="rId9">');
    expect(originals['{3>']).toBe('<w:fldSimple w:instr=" PAGE ">');
    expect(originals['{4>']).toBe('<w:sdt><w:sdtPr><w:alias w:val="x"/></w:sdtPr><w:sdtContent>');
    expect(originals['<4}']).toBe('</w:sdtContent></w:sdt>');
    expect(originals['{5}']).toBe('<w:r><w:br/></w:r><w:r><w:footnoteReference w:id="1"/></w:r>');
  });

  it('keeps hidden text as a tag unless the hidden setting asks for it', async () => {
    const bytes = await docx(p(r('Visible ') + r('secret ', '<w:rPr><w:vanish/></w:rPr>') + r('text')));
    const [plain] = await parseAll(docxFilter, bytes);
    expect(plain!.source).toBe('Visible {1}text');
    expect(plain!.tags[0]!.original).toContain('secret');
    expect((await parseAll(docxFilter, bytes, { formatSettings: { hidden: true } }))[0]!.source).toBe('Visible {1>secret <1}text');
    const notHidden = await docx(p(r('a ') + r('b', '<w:rPr><w:vanish w:val="0"/></w:rPr>')));
    expect((await parseAll(docxFilter, notHidden))[0]!.source).toBe('a {1>b<1}');
  });

  it('reads headers, footnotes and comments according to the settings', async () => {
    const bytes = await docx(p(r('Body')), {
      header: p(r('Header text')),
      footnotes:
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>' +
        `<w:footnote w:id="1">${p('<w:r><w:footnoteRef/></w:r>' + r(' A footnote.'))}</w:footnote>`,
      comments: `<w:comment w:id="0" w:author="A">${p(r('A comment'))}</w:comment>`,
    });
    expect(brief(await parseAll(docxFilter, bytes))).toEqual([
      ['word/document.xml#1', 'Body'],
      ['word/header1.xml#1', 'Header text'],
      ['word/footnotes.xml#2', ' A footnote.'],
    ]);
    expect(brief(await parseAll(docxFilter, bytes, { formatSettings: { headerFooter: false, comments: true } }))).toEqual([
      ['word/document.xml#1', 'Body'],
      ['word/footnotes.xml#2', ' A footnote.'],
      ['word/comments.xml#1', 'A comment'],
    ]);
  });

  it('makes text boxes units of their own and leaves markup-compatibility fallbacks alone', async () => {
    const box = (text: string): string => `<w:txbxContent>${p(r(text))}</w:txbxContent>`;
    const bytes = await docx(
      p(
        r('Anchor ') +
          `<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx>${box('In the box')}</wps:txbx></w:drawing></mc:Choice>` +
          `<mc:Fallback><w:pict>${box('In the box')}</w:pict></mc:Fallback></mc:AlternateContent></w:r>` +
          r(' paragraph'),
      ),
    );
    const units = await parseAll(docxFilter, bytes);
    expect(brief(units)).toEqual([
      ['word/document.xml#1', 'In the box'],
      ['word/document.xml#3', 'Anchor {1} paragraph'],
    ]);
    const out = await writeAll(docxFilter, bytes, { 'word/document.xml#1': 'Im Kasten', 'word/document.xml#3': 'Anker{1}absatz' });
    const xml = await documentXml(out);
    expect(xml).toContain('Im Kasten');
    expect(xml).toContain('Anker');
    expect(xml.match(/In the box/g)).toHaveLength(1); // the fallback copy stays
    expect(brief(await parseAll(docxFilter, out))).toEqual([
      ['word/document.xml#1', 'Im Kasten'],
      ['word/document.xml#3', 'Anker{1}absatz'],
    ]);
  });

  it('applies tagRegexp inside the text', async () => {
    const bytes = await docx(p(r('Hello {name}, you have %d messages')));
    const [unit] = await parseAll(docxFilter, bytes, { formatSettings: { tagRegexp: '\\{\\w+\\}|%d' } });
    expect(unit!.source).toBe('Hello {1}, you have {2} messages');
    const out = await writeAll(
      docxFilter,
      bytes,
      { [unit!.locator]: '{2} Nachrichten für {1}' },
      { formatSettings: { tagRegexp: '\\{\\w+\\}|%d' } },
    );
    expect(await documentXml(out)).toContain('%d Nachrichten für {name}');
  });

  it('gives the same units whatever the chunk size', async () => {
    const body = Array.from({ length: 40 }, (_, i) => p(r(`Paragraph ${i} with ünïcödé 😀 `) + r('bold', '<w:rPr><w:b/></w:rPr>'))).join(
      '',
    );
    const bytes = await docx(body);
    const whole = await parseAll(docxFilter, bytes);
    expect(whole).toHaveLength(40);
    expect(await parseAll(docxFilter, bytes, {}, 7)).toEqual(whole);
  });
});

describe('docx write', () => {
  it('is byte-identical without translations and with each unit’s own source', async () => {
    await expectIdentity(
      await docx(p(r('Hello ') + r('bold', '<w:rPr><w:b/></w:rPr>') + '<w:proofErr w:type="spellStart"/>' + r(' world.')), {
        header: p(r('Header')),
      }),
    );
  });

  it('splices translated paragraphs and leaves the other parts byte-identical', async () => {
    const bytes = await docx(
      p(r('Hello ') + r('bold', '<w:rPr><w:b/></w:rPr>') + r(' &amp; &lt;world&gt;.')) +
        p(r('Untouched')) +
        p('<w:r><w:tab/></w:r>' + r('Tabbed')),
      { header: p(r('Header')) },
    );
    const units = await parseAll(docxFilter, bytes);
    const out = await writeAll(docxFilter, bytes, {
      [units[0]!.locator]: 'Hallo {1>fett<1} & <Welt>.',
      [units[2]!.locator]: 'Eingerückt',
    });
    const before = await unzipAll(bytes);
    const after = await unzipAll(out);
    for (const [name, entry] of before) {
      if (name !== 'word/document.xml') expect(after.get(name)!.content.equals(entry.content)).toBe(true);
    }
    const xml = after.get('word/document.xml')!.content.toString();
    expect(xml).toContain(
      '<w:p><w:r><w:t xml:space="preserve">Hallo </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">fett</w:t></w:r><w:r><w:t xml:space="preserve"> &amp; &lt;Welt&gt;.</w:t></w:r></w:p>',
    );
    expect(xml).toContain('<w:p><w:r><w:tab/><w:t xml:space="preserve">Eingerückt</w:t></w:r></w:p>');
    expect(xml).toContain(p(r('Untouched')));
    expect(brief(await parseAll(docxFilter, out))).toEqual([
      ['word/document.xml#1', 'Hallo {1>fett<1} & <Welt>.'],
      ['word/document.xml#2', 'Untouched'],
      ['word/document.xml#3', 'Eingerückt'],
      ['word/header1.xml#1', 'Header'],
    ]);
  });

  it('rewrites only the parts whose paragraphs are translated', async () => {
    const bytes = await docx(p(r('Body')), { header: p(r('Header')) });
    const out = await writeAll(docxFilter, bytes, { 'word/header1.xml#1': 'Kopf' });
    expect(await documentXml(out)).toBe(await documentXml(bytes));
    expect(await documentXml(out, 'word/header1.xml')).toContain('Kopf');
  });

  it('lets tags be reordered or left out, and refuses misnested tags', async () => {
    const bytes = await docx(p(r('a ') + r('b', '<w:rPr><w:b/></w:rPr>') + r(' c ') + r('d', '<w:rPr><w:i/></w:rPr>')));
    const [unit] = await parseAll(docxFilter, bytes);
    expect(unit!.source).toBe('a {1>b<1} c {2>d<2}');
    const reordered = await writeAll(docxFilter, bytes, { [unit!.locator]: '{2>D<2} x {1>B<1}' });
    expect((await parseAll(docxFilter, reordered))[0]!.source).toBe('{1>D<1} x {2>B<2}');
    const plain = await writeAll(docxFilter, bytes, { [unit!.locator]: 'no tags' });
    expect((await parseAll(docxFilter, plain))[0]!.source).toBe('no tags');
    await expectFormatError(writeAll(docxFilter, bytes, { [unit!.locator]: '{1>b {2>d<1}<2}' }), /misplaced or unbalanced tags/);
    await expectFormatError(writeAll(docxFilter, bytes, { [unit!.locator]: '{1>b' }), /misplaced or unbalanced tags/);
    await expectFormatError(writeAll(docxFilter, bytes, { [unit!.locator]: 'bad \u0001' }), /character XML cannot hold/);
  });
});

describe('docx hostile input', () => {
  it('refuses a DOCTYPE (XXE, entity bombs) in a part', async () => {
    const xxe = await zipOf([
      [
        '_rels/.rels',
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
      ],
      [
        'word/document.xml',
        `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:document ${NS}><w:body><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:body></w:document>`,
      ],
    ]);
    await expectFormatError(parseAll(docxFilter, xxe), /DOCTYPE/);
  });

  it('refuses a file that is not a ZIP, and a ZIP without a document', async () => {
    await expectFormatError(parseAll(docxFilter, 'just text, named .docx'), /not a valid ZIP archive/);
    await expectFormatError(parseAll(docxFilter, await zipOf([['a.txt', 'x']])), /not a Word document/);
  });

  it('refuses malformed XML with its position, deep nesting and huge paragraphs', async () => {
    await expectFormatError(
      parseAll(docxFilter, await docx('<w:p><w:r><w:t>open</w:r></w:p>')),
      /malformed XML in word\/document.xml.*\(line 2/,
    );
    const deep = '<w:customXml>'.repeat(600) + '</w:customXml>'.repeat(600);
    await expectFormatError(parseAll(docxFilter, await docx(p(deep))), /deeper than 512 levels/);
    const huge = await docx(p(r('x'.repeat(10_000_001))));
    await expectFormatError(parseAll(docxFilter, huge), /expands beyond the limit/);
    const relaxed = { zipLimits: { maxRatio: 1_000_000 } } as FilterOptions;
    await expectFormatError(parseAll(docxFilter, huge, relaxed), /paragraph of more than 10000000 characters/);
  }, 30_000);

  it('refuses a zip bomb part', async () => {
    const bomb = await docx(p(r('x'.repeat(9 * 1024 * 1024))));
    await expectFormatError(parseAll(docxFilter, bomb), /word\/document.xml expands beyond the limit/);
  }, 30_000);
});

describe('docx detection', () => {
  it('claims ZIPs whose leading entries are under word/ only', async () => {
    const word = await zipOf([['word/document.xml', '<w:document/>', { compress: false }]]);
    expect(docxFilter.detect!(word.subarray(0, 1024))).toBe(true);
    expect(docxFilter.detect!((await zipOf([['xl/workbook.xml', '<x/>', { compress: false }]])).subarray(0, 1024))).toBe(false);
    expect(docxFilter.detect!(Buffer.from('PK not really'))).toBe(false);
  });
});

const missing = libreOfficeMissing();

describe.skipIf(missing !== null)('docx made by LibreOffice', () => {
  it('round-trips a real document and LibreOffice reads the translation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docx-test-'));
    try {
      const html =
        '<html><body><h1>Annual report</h1><p>Hello <b>bold</b> and <i>italic</i> world.</p>' +
        '<p>A <a href="https://example.com/">link</a> here.</p><table><tr><td>Cell one</td><td>Cell two</td></tr></table></body></html>';
      const bytes = libreOfficeConvert(Buffer.from(html), 'report.html', 'docx:MS Word 2007 XML');
      await expectIdentity(bytes);
      const units = await parseAll(docxFilter, bytes);
      expect(units.map((unit) => unit.source)).toEqual(
        expect.arrayContaining([
          'Annual report',
          'Cell one',
          'Cell two',
          expect.stringMatching(/^Hello \{1>bold<1\} and \{2>italic<2\} world\.$/),
        ]),
      );
      const translated = await writeAll(
        docxFilter,
        bytes,
        Object.fromEntries(units.map((unit) => [unit.locator, unit.source.replace(/[A-Za-z]+/g, (word) => `${word.toUpperCase()}Ü`)])),
      );
      const file = join(dir, 'translated.docx');
      writeFileSync(file, translated);
      if (spawnSync('unzip', ['-v']).status === 0) expect(spawnSync('unzip', ['-tq', file]).status).toBe(0);
      expect(libreOfficeConvert(translated, 'translated.docx', 'pdf').subarray(0, 5).toString()).toBe('%PDF-');
      const text = libreOfficeConvert(translated, 'translated.docx', 'txt:Text (encoded):UTF8').toString('utf8');
      expect(text).toContain('ANNUALÜ REPORTÜ');
      expect(text).toContain('HELLOÜ BOLDÜ ANDÜ ITALICÜ WORLDÜ.');
      expect(text).toContain('CELLÜ ONEÜ');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe.skipIf(missing === null)('docx made by LibreOffice (skipped)', () => {
  it.skip(`skipped: ${missing}`, () => {});
});
