import { describe, expect, it } from 'vitest';
import { libreOfficeConvert, libreOfficeMissing, unzipAll, zipOf } from './ooxml-test-helpers.js';
import { pptxFilter } from './pptx.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions, TextUnit } from './types.js';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

const shape = (paragraphs: string): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="T"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`;
const slide = (paragraphs: string, attrs = ''): string =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sld ${NS}${attrs}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape(paragraphs)}</p:spTree></p:cSld></p:sld>`;
const ap = (content: string): string => `<a:p>${content}</a:p>`;
const ar = (text: string, rpr = '<a:rPr lang="en-US" dirty="0"/>'): string => `<a:r>${rpr}<a:t>${text}</a:t></a:r>`;

const rels = (items: [string, string, string][]): string =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;

/** Two visible slides (listed in reverse file order), a hidden one, notes of slide 2 and a master. */
async function presentation(): Promise<Buffer> {
  return zipOf([
    ['[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'],
    ['_rels/.rels', rels([['rId1', 'officeDocument', 'ppt/presentation.xml']])],
    [
      'ppt/presentation.xml',
      `<p:presentation ${NS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst><p:sldId id="257" r:id="rId3"/><p:sldId id="256" r:id="rId2"/><p:sldId id="258" r:id="rId4"/></p:sldIdLst></p:presentation>`,
    ],
    [
      'ppt/_rels/presentation.xml.rels',
      rels([
        ['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'],
        ['rId2', 'slide', 'slides/slide1.xml'],
        ['rId3', 'slide', 'slides/slide2.xml'],
        ['rId4', 'slide', 'slides/slide3.xml'],
      ]),
    ],
    [
      'ppt/slides/slide1.xml',
      slide(ap(ar('Second ') + ar('bold', '<a:rPr lang="en-US" b="1"/>') + ar(' slide')) + ap('<a:endParaRPr lang="en-US"/>')),
    ],
    [
      'ppt/slides/slide2.xml',
      slide(
        ap(ar('First slide') + '<a:br><a:rPr lang="en-US"/></a:br>' + ar('line two')) +
          ap('<a:fld id="{1}" type="slidenum"><a:t>2</a:t></a:fld>'),
      ),
    ],
    ['ppt/slides/_rels/slide2.xml.rels', rels([['rId1', 'notesSlide', '../notesSlides/notesSlide1.xml']])],
    ['ppt/slides/slide3.xml', slide(ap(ar('Hidden slide')), ' show="0"')],
    ['ppt/notesSlides/notesSlide1.xml', slide(ap(ar('Speaker notes')))],
    ['ppt/slideMasters/slideMaster1.xml', slide(ap(ar('Click to edit the title style')))],
  ]);
}

function brief(units: TextUnit[]): [string, string][] {
  return units.map((unit) => [unit.locator, unit.source]);
}

describe('pptx', () => {
  it('reads slides in presentation order, with notes, hidden slides and masters by the settings', async () => {
    const bytes = await presentation();
    expect(brief(await parseAll(pptxFilter, bytes))).toEqual([
      ['ppt/slides/slide2.xml#1', 'First slide{1}line two'],
      ['ppt/slides/slide1.xml#1', 'Second {1>bold<1} slide'],
    ]);
    const all = await parseAll(pptxFilter, bytes, { formatSettings: { notes: true, hiddenSlides: true, masterSlides: true } });
    expect(brief(all)).toEqual([
      ['ppt/slides/slide2.xml#1', 'First slide{1}line two'],
      ['ppt/notesSlides/notesSlide1.xml#1', 'Speaker notes'],
      ['ppt/slides/slide1.xml#1', 'Second {1>bold<1} slide'],
      ['ppt/slides/slide3.xml#1', 'Hidden slide'],
      ['ppt/slideMasters/slideMaster1.xml#1', 'Click to edit the title style'],
    ]);
    expect(all[1]!.note).toBe('speaker notes');
    expect(all[0]!.tags[0]!.original).toBe('<a:br><a:rPr lang="en-US"/></a:br>');
  });

  it('writes translations into the slides, byte-identical otherwise', async () => {
    const bytes = await presentation();
    const options: FilterOptions = { formatSettings: { notes: true } };
    expect((await writeAll(pptxFilter, bytes, {}, options)).equals(bytes)).toBe(true);
    const units = await parseAll(pptxFilter, bytes, options);
    expect((await writeAll(pptxFilter, bytes, Object.fromEntries(units.map((u) => [u.locator, u.source])), options)).equals(bytes)).toBe(
      true,
    );
    const out = await writeAll(pptxFilter, bytes, { 'ppt/slides/slide1.xml#1': 'Zweite {1>fette<1} Folie' }, options);
    const before = await unzipAll(bytes);
    const after = await unzipAll(out);
    for (const [name, entry] of before)
      if (name !== 'ppt/slides/slide1.xml') expect(after.get(name)!.content.equals(entry.content)).toBe(true);
    const xml = after.get('ppt/slides/slide1.xml')!.content.toString();
    expect(xml).toContain(
      '<a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>Zweite </a:t></a:r><a:r><a:rPr lang="en-US" b="1"/><a:t>fette</a:t></a:r><a:r><a:rPr lang="en-US" dirty="0"/><a:t> Folie</a:t></a:r></a:p>',
    );
    expect(xml).toContain('<a:endParaRPr lang="en-US"/>');
  });

  it('refuses a non-presentation and a DOCTYPE', async () => {
    const error = await parseAll(pptxFilter, await zipOf([['x.xml', '<x/>']])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(/not a PowerPoint presentation/);
    const bytes = await presentation();
    const entries = await unzipAll(bytes);
    const withDoctype = await zipOf(
      [...entries].map(([name, entry]) => [
        name,
        name === 'ppt/slides/slide1.xml'
          ? entry.content.toString().replace('<p:sld ', '<!DOCTYPE p:sld [<!ENTITY a "aaaa">]><p:sld ')
          : entry.content,
      ]),
    );
    await expect(parseAll(pptxFilter, withDoctype)).rejects.toThrow(/DOCTYPE/);
  });

  it('detects ZIPs with ppt/ entries', async () => {
    expect(pptxFilter.detect!((await zipOf([['ppt/presentation.xml', '<p/>', { compress: false }]])).subarray(0, 1024))).toBe(true);
    expect(pptxFilter.detect!((await zipOf([['word/document.xml', '<p/>', { compress: false }]])).subarray(0, 1024))).toBe(false);
  });
});

const missing = libreOfficeMissing();

describe.skipIf(missing !== null)('pptx made by LibreOffice', () => {
  it('round-trips a real presentation and LibreOffice reads the translation', async () => {
    const fodp = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:automatic-styles><style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles>
<office:body><office:presentation>
<draw:page draw:name="p1"><draw:frame svg:x="1cm" svg:y="1cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Quarterly results</text:p></draw:text-box></draw:frame>
<draw:frame svg:x="1cm" svg:y="5cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Sales grew <text:span text:style-name="T1">strongly</text:span> this year.</text:p></draw:text-box></draw:frame>
<presentation:notes><draw:frame presentation:class="notes" svg:x="1cm" svg:y="5cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Mention the weather.</text:p></draw:text-box></draw:frame></presentation:notes>
</draw:page>
<draw:page draw:name="p2"><draw:frame svg:x="1cm" svg:y="1cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Thank you</text:p></draw:text-box></draw:frame></draw:page>
</office:presentation></office:body></office:document>`;
    const bytes = libreOfficeConvert(Buffer.from(fodp), 'deck.fodp', 'pptx');
    const options: FilterOptions = { formatSettings: { notes: true } };
    expect((await writeAll(pptxFilter, bytes, {}, options)).equals(bytes)).toBe(true);
    const units = await parseAll(pptxFilter, bytes, options);
    expect(brief(units)).toEqual([
      ['ppt/slides/slide1.xml#1', 'Quarterly results'],
      ['ppt/slides/slide1.xml#2', 'Sales grew {1>strongly<1} this year.'],
      ['ppt/notesSlides/notesSlide1.xml#1', 'Mention the weather.'],
      ['ppt/slides/slide2.xml#1', 'Thank you'],
    ]);
    expect((await writeAll(pptxFilter, bytes, Object.fromEntries(units.map((u) => [u.locator, u.source])), options)).equals(bytes)).toBe(
      true,
    );
    const translated = await writeAll(
      pptxFilter,
      bytes,
      {
        'ppt/slides/slide1.xml#1': 'Quartalsergebnisse',
        'ppt/slides/slide1.xml#2': 'Der Umsatz wuchs dieses Jahr {1>kräftig<1}.',
        'ppt/notesSlides/notesSlide1.xml#1': 'Das Wetter erwähnen.',
        'ppt/slides/slide2.xml#1': 'Danke',
      },
      options,
    );
    expect(libreOfficeConvert(translated, 'translated.pptx', 'pdf').subarray(0, 5).toString()).toBe('%PDF-');
    const odp = await unzipAll(libreOfficeConvert(translated, 'translated.pptx', 'odp'));
    const content = odp.get('content.xml')!.content.toString();
    for (const text of ['Quartalsergebnisse', 'Der Umsatz wuchs dieses Jahr ', 'kräftig', 'Das Wetter erwähnen.', 'Danke'])
      expect(content).toContain(text);
  }, 180_000);
});
