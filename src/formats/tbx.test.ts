import { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { entryIdOfTbx, readTbx, tbxEntryId, tbxLanguage, writeTbx } from './tbx.js';
import type { TbxReadOptions, TbxWriteOptions } from './tbx.js';
import type { TermEntry, TermFileWarning } from './term-entries.js';
import { omegatSchema, streamOf } from './testing.js';
import { FormatError } from './types.js';

async function readAll(input: Readable, options?: TbxReadOptions): Promise<TermEntry[]> {
  const entries: TermEntry[] = [];
  for await (const batch of readTbx(input, options)) entries.push(...batch);
  return entries;
}

async function read(text: string | Buffer, options?: TbxReadOptions, chunkSize = 7): Promise<TermEntry[]> {
  return readAll(streamOf(text, chunkSize), options);
}

function slowSink(parts: Buffer[], onWrite?: () => void): Writable {
  return new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      onWrite?.();
      setImmediate(done);
    },
  });
}

async function write(
  entries: TermEntry[],
  options: TbxWriteOptions = { langs: ['en', 'de'] },
): Promise<{ xml: string; counts: { entries: number; terms: number } }> {
  const parts: Buffer[] = [];
  const counts = await writeTbx([entries], slowSink(parts), options);
  return { xml: Buffer.concat(parts).toString('utf8'), counts };
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

const BASIC = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">
<martif type="TBX-Basic" xml:lang="en-US">
  <martifHeader>
    <fileDesc>
      <titleStmt><title>Sample</title><note>header note, not an entry's</note></titleStmt>
      <sourceDesc><p>From a tool</p></sourceDesc>
    </fileDesc>
    <encodingDesc><p type="XCSURI">TBXBasicXCSV02.xcs</p></encodingDesc>
  </martifHeader>
  <text>
    <body>
      <termEntry id="c1">
        <descrip type="subjectField">Software</descrip>
        <descrip type="subdomain">UI</descrip>
        <descrip type="subdomain">Menus</descrip>
        <xref type="externalCrossReference" target="https://example.com/save">the page</xref>
        <note>Entry note &amp; more</note>
        <langSet xml:lang="en-US">
          <descrip type="definition">To keep a file.</descrip>
          <tig>
            <term>  save  </term>
            <termNote type="partOfSpeech">verb</termNote>
            <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
            <admin type="customerSubset">ACME</admin>
            <transacGrp>
              <transac type="transactionType">origination</transac>
              <transacNote type="responsibility">ann</transacNote>
              <date>2024-01-02</date>
            </transacGrp>
            <note>Term note</note>
          </tig>
          <tig>
            <term>store</term>
            <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>
          </tig>
        </langSet>
        <langSet xml:lang="de">
          <tig>
            <term>speichern</term>
            <termNote type="partOfSpeech">Verb</termNote>
            <termNote type="grammaticalGender">neuter</termNote>
          </tig>
        </langSet>
      </termEntry>
    </body>
  </text>
</martif>
`;

describe('TBX read', () => {
  it('reads a TBX-Basic file', async () => {
    const warnings: TermFileWarning[] = [];
    const entries = await read(BASIC, { warnings });
    expect(warnings).toEqual([]);
    expect(entries).toEqual([
      {
        id: 'c1',
        definition: 'To keep a file.',
        domain: 'Software',
        subdomains: ['UI', 'Menus'],
        note: 'Entry note & more',
        url: 'https://example.com/save',
        terms: [
          {
            lang: 'en_us',
            text: 'save',
            usage: 'preferred',
            preferred: true,
            partOfSpeech: 'VERB',
            note: 'Term note',
            createdAt: '2024-01-02',
            createdBy: 'ann',
          },
          { lang: 'en_us', text: 'store', usage: 'deprecated' },
          { lang: 'de', text: 'speichern', partOfSpeech: 'VERB', gender: 'NEUTRAL' },
        ],
      },
    ]);
  });

  it('reads TBX v2 ntig/termGrp, descripGrp and termNoteGrp, and `lang` for `xml:lang`', async () => {
    const xml = `<?xml version="1.0"?>
<martif type="TBX" lang="en"><martifHeader><fileDesc><sourceDesc><p>x</p></sourceDesc></fileDesc></martifHeader>
<text><body>
  <termEntry id="_.12_20.3">
    <descripGrp><descrip type="definition">A container.</descrip><note>about the definition</note><admin type="source">ISO</admin></descripGrp>
    <langSet lang="fr-CA">
      <ntig>
        <termGrp>
          <term>boîte</term>
          <termNoteGrp><termNote type="grammaticalGender">feminine</termNote><note>about the gender</note></termNoteGrp>
          <termNote type="grammaticalNumber">singular</termNote>
          <termCompList type="termElement"><termComp>boî</termComp><termNote type="partOfSpeech">verb</termNote></termCompList>
        </termGrp>
        <termNote type="termType">fullForm</termNote>
        <descrip type="usage">in packaging</descrip>
        <admin type="x-status">approved</admin>
        <transacGrp><transac type="modification"/><transacNote type="responsiblePerson">bob</transacNote><date>2024-05-06T07:08:09Z</date></transacGrp>
      </ntig>
    </langSet>
  </termEntry>
</body></text></martif>`;
    expect(await read(xml)).toEqual([
      {
        id: '12 3',
        definition: 'A container.',
        terms: [
          {
            lang: 'fr_ca',
            text: 'boîte',
            gender: 'FEMININE',
            number: 'SINGULAR',
            termType: 'FULL_FORM',
            usage: 'in packaging',
            status: 'Approved',
            modifiedAt: '2024-05-06T07:08:09Z',
            modifiedBy: 'bob',
          },
        ],
      },
    ]);
  });

  it('reads the TBX v3 core structure, prefixes and DCT-style elements', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<tbx:tbx xmlns:tbx="urn:iso:std:iso:30042:ed-2" xmlns:basic="http://www.tbxinfo.net/ns/basic" type="TBX-Basic" style="dct" xml:lang="en">
  <tbx:tbxHeader><tbx:fileDesc><tbx:sourceDesc><tbx:p>v3</tbx:p></tbx:sourceDesc></tbx:fileDesc></tbx:tbxHeader>
  <tbx:text><tbx:body>
    <tbx:conceptEntry id="k-7">
      <basic:subjectField>Finance</basic:subjectField>
      <tbx:langSec xml:lang="en-GB">
        <basic:definition>Money lent.</basic:definition>
        <tbx:termSec>
          <tbx:term>loan</tbx:term>
          <basic:partOfSpeech>noun</basic:partOfSpeech>
          <basic:termType>abbreviation</basic:termType>
          <basic:administrativeStatus>admittedTerm-admn-sts</basic:administrativeStatus>
        </tbx:termSec>
        <tbx:termSec>
          <tbx:term>credit</tbx:term>
          <tbx:termNote type="normativeAuthorization">forbiddenTerm</tbx:termNote>
        </tbx:termSec>
      </tbx:langSec>
    </tbx:conceptEntry>
    <conceptEntry id="k-8"><langSec xml:lang="es"><termSec><term>préstamo</term></termSec></langSec></conceptEntry>
  </tbx:body></tbx:text>
</tbx:tbx>`;
    expect(await read(xml)).toEqual([
      {
        id: 'k-7',
        domain: 'Finance',
        definition: 'Money lent.',
        terms: [
          { lang: 'en_gb', text: 'loan', partOfSpeech: 'NOUN', termType: 'ABBREVIATION', usage: 'admitted' },
          { lang: 'en_gb', text: 'credit', usage: 'forbidden', forbidden: true },
        ],
      },
      { id: 'k-8', terms: [{ lang: 'es', text: 'préstamo' }] },
    ]);
  });

  it('maps every data category, wherever tools put it', async () => {
    const tig = (body: string) => `<tig><term>t</term>${body}</tig>`;
    const xml = `<martif type="TBX" xml:lang="en"><text><body><termEntry>
      <admin type="domain">Law</admin>
      <descrip type="url">https://example.org</descrip>
      <note>one</note><note>two</note>
      <langSet xml:lang="EN_us">
        ${tig('<termNote type="administrativeStatus">supersededTerm-admn-sts</termNote><termNote type="usageNote">ignored: status set usage</termNote>')}
        ${tig('<termNote type="usageNote">colloquial</termNote><termNote type="partOfSpeech">properNoun</termNote>')}
        ${tig('<termNote type="administrativeStatus">preferredTerm-admn-sts</termNote><termNote type="x-preferred">no</termNote>')}
        ${tig('<termNote type="partOfSpeech">ADJECTIVE</termNote><termNote type="grammaticalNumber">mass</termNote><termNote type="termType">shortForm</termNote>')}
        ${tig('<termNote type="partOfSpeech">adverb</termNote><termNote type="grammaticalNumber">plural</termNote><termNote type="grammaticalGender">masculine</termNote>')}
        ${tig('<descrip type="termType">acronym</descrip><termNote type="grammaticalNumber">uncountable</termNote><termNote type="grammaticalGender">neutral</termNote>')}
        ${tig('<admin type="termType">phrase</admin><termNote type="x-status">REJECTED</termNote>')}
        ${tig('<termNote type="termType">variant</termNote><descrip type="status">New</descrip>')}
        ${tig('<termNote type="x-caseSensitive">yes</termNote><termNote type="x-exactMatch">0</termNote><termNote type="x-forbidden">1</termNote><termNote type="x-preferred">FALSE</termNote>')}
        ${tig('<termNote type="x-caseSensitive">maybe</termNote><admin type="x-shortTranslation">T.</admin><note>a</note><note>b</note>')}
        ${tig('<transacGrp><transac type="transactionType">creation</transac><date>d1</date></transacGrp><transacGrp><transac type="transactionType">modification</transac><date>d2</date><transacNote type="responsibility">x</transacNote></transacGrp><transacGrp><transac type="transactionType">modification</transac><date>d3</date></transacGrp>')}
        ${tig('<termNote type="termType">abbreviation</termNote><termNote type="grammaticalGender">other</termNote><termNote type="administrativeStatus">legalTerm</termNote>')}
        <tig><term>inline <hi type="b">bold</hi> and<ph>[x]</ph>
 kept</term><termNote type="partOfSpeech">nonsense</termNote></tig>
      </langSet>
    </termEntry></body></text></martif>`;
    const entries = await read(xml);
    expect(entries).toHaveLength(1);
    const [entry] = entries as [TermEntry];
    expect({ ...entry, terms: undefined }).toEqual({ domain: 'Law', url: 'https://example.org', note: 'one\ntwo', terms: undefined });
    expect(entry.terms.map(({ lang: _lang, text: _text, ...rest }) => rest)).toEqual([
      { usage: 'superseded' },
      { usage: 'colloquial' },
      { usage: 'preferred', preferred: false },
      { partOfSpeech: 'ADJECTIVE', number: 'UNCOUNTABLE', termType: 'SHORT_FORM' },
      { partOfSpeech: 'ADVERB', number: 'PLURAL', gender: 'MASCULINE' },
      { termType: 'ACRONYM', number: 'UNCOUNTABLE', gender: 'NEUTRAL' },
      { termType: 'PHRASE', status: 'Rejected' },
      { termType: 'VARIANT', status: 'New' },
      { caseSensitive: true, exactMatch: false, forbidden: true, preferred: false },
      { shortTranslation: 'T.', note: 'a\nb' },
      { createdAt: 'd1', modifiedAt: 'd3', modifiedBy: 'x' },
      { termType: 'ABBREVIATION' },
      {},
    ]);
    expect(entry.terms.every((term) => term.lang === 'en_us')).toBe(true);
    expect(entry.terms[12]!.text).toBe('inline bold and[x]\n kept');
  });

  it('takes a language-level definition only when the entry has none, and the first one', async () => {
    const xml = `<martif type="TBX" xml:lang="en"><text><body>
      <termEntry><langSet xml:lang="en"><descrip type="definition">first</descrip><tig><term>a</term></tig></langSet>
        <langSet xml:lang="de"><descrip type="definition">zweite</descrip><tig><term>b</term></tig></langSet></termEntry>
      <termEntry><descrip type="definition">entry</descrip><langSet xml:lang="en"><descrip type="definition">lang</descrip><tig><term>c</term></tig></langSet></termEntry>
    </body></text></martif>`;
    expect((await read(xml)).map((entry) => entry.definition)).toEqual(['first', 'entry']);
  });

  it('ignores unknown elements and their content, never an error', async () => {
    const xml = `<martif type="TBX" xml:lang="en"><text><body>
      <x:extension xmlns:x="urn:x"><termEntry id="no"><langSet xml:lang="en"><tig><term>nested in unknown</term></tig></langSet></termEntry></x:extension>
      <termEntry id="e1">
        <foo><note>not the entry's note</note></foo>
        <langSet xml:lang="en">
          <bar/>
          <tig><term>kept</term><baz><termNote type="partOfSpeech">noun</termNote></baz><termNote type="unknownType">v</termNote></tig>
        </langSet>
      </termEntry>
    </body><back><refObjectList type="respPerson"><refObject><item>x</item></refObject></refObjectList></back></text></martif>`;
    const entries = await read(xml);
    // Outside entries, unknown wrappers are passed through: an entry inside one is still read.
    expect(entries).toEqual([
      { id: 'no', terms: [{ lang: 'en', text: 'nested in unknown' }] },
      { id: 'e1', terms: [{ lang: 'en', text: 'kept' }] },
    ]);
  });

  it('skips entries with no terms, empty terms and languageless sets with warnings naming the line', async () => {
    const xml = `<?xml version="1.0"?>
<martif type="TBX" xml:lang="en"><text><body>
<termEntry id="empty">
  <descrip type="definition">nothing</descrip>
</termEntry>
<termEntry id="blank"><langSet xml:lang="en">
  <tig><term>   </term></tig>
</langSet></termEntry>
<termEntry id="nolang"><langSet><tig><term>x</term></tig></langSet><langSet xml:lang="de"><tig><term>y</term></tig></langSet></termEntry>
</body></text></martif>`;
    const warnings: TermFileWarning[] = [];
    const entries = await read(xml, { warnings });
    expect(entries).toEqual([{ id: 'nolang', terms: [{ lang: 'de', text: 'y' }] }]);
    expect(warnings).toEqual([
      { message: 'a <termEntry> (id "empty") at line 3 has no terms: skipped', line: 3 },
      { message: 'a term with empty text (line 7) is skipped', line: 7 },
      { message: 'a <termEntry> (id "blank") at line 6 has no terms: skipped', line: 6 },
      { message: 'a <langSet> without a language: its terms are skipped', line: 9 },
    ]);
  });

  it('caps the warnings kept', async () => {
    const body = '<termEntry/>'.repeat(10);
    const warnings: TermFileWarning[] = [];
    await read(`<martif><text><body>${body}</body></text></martif>`, { warnings, maxWarnings: 3 });
    expect(warnings).toHaveLength(4);
    expect(warnings[3]!.message).toBe('and 7 more problems');
  });

  it('decodes UTF-16 with a BOM and the declared ISO-8859-1', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-16"?><martif type="TBX" xml:lang="en"><text><body><termEntry><langSet xml:lang="de"><tig><term>Größe</term></tig></langSet></termEntry></body></text></martif>`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
    expect(await read(le, {}, 5)).toEqual([{ terms: [{ lang: 'de', text: 'Größe' }] }]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(xml, 'utf16le').swap16()]);
    expect(await read(be, {}, 3)).toEqual([{ terms: [{ lang: 'de', text: 'Größe' }] }]);
    const latin1 = Buffer.from(xml.replace('UTF-16', 'ISO-8859-1'), 'latin1');
    expect(await read(latin1)).toEqual([{ terms: [{ lang: 'de', text: 'Größe' }] }]);
  });

  it('refuses malformed XML with line and column, other roots, and depth bombs', async () => {
    const error = await expectFormatError(read('<martif>\n<text><body>\n  <termEntry></langSet>\n'), /malformed XML/);
    expect(error.line).toBe(3);
    expect(error.column).toBeGreaterThan(1);
    expect(error.message).toMatch(/line 3, column \d+/);
    await expectFormatError(read('<tmx version="1.4"><body/></tmx>'), /not a TBX document/);
    await expectFormatError(read(`<martif>${'<a>'.repeat(600)}${'</a>'.repeat(600)}</martif>`), /nested deeper than 512/);
    await expectFormatError(read(`<martif>${'<a>'.repeat(30)}${'</a>'.repeat(30)}</martif>`, { maxDepth: 20 }), /nested deeper than 20/);
    await expectFormatError(read('<!DOCTYPE martif [<!ENTITY a "aaaa">]><martif/>'), /internal subset/);
    await expectFormatError(read(''), /root element/);
  });

  it('refuses an entry larger than 10,000,000 characters', async () => {
    const big = 'x'.repeat(10_000_001);
    const xml = `<martif><text><body><termEntry><langSet xml:lang="en"><tig><term>${big}</term></tig></langSet></termEntry></body></text></martif>`;
    await expectFormatError(read(xml, {}, 1 << 20), /larger than 10000000 characters/);
  });

  it('honours batchSize', async () => {
    const body = Array.from(
      { length: 25 },
      (_, i) => `<termEntry id="e${i}"><langSet xml:lang="en"><tig><term>t${i}</term></tig></langSet></termEntry>`,
    ).join('');
    const sizes: number[] = [];
    for await (const batch of readTbx(streamOf(`<martif><text><body>${body}</body></text></martif>`, 1 << 16), { batchSize: 10 })) {
      sizes.push(batch.length);
    }
    expect(sizes).toEqual([10, 10, 5]);
  });

  it('reads 20,000 generated entries in bounded batches', async () => {
    const count = 20_000;
    function* generate(): Generator<Buffer> {
      yield Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<martif type="TBX" xml:lang="en"><text><body>\n');
      for (let at = 0; at < count; at += 500) {
        let chunk = '';
        for (let i = at; i < at + 500; i++) {
          chunk +=
            `<termEntry id="e${i}"><descrip type="subjectField">d${i % 7}</descrip>` +
            `<langSet xml:lang="en"><tig><term>term ${i}</term><termNote type="partOfSpeech">noun</termNote></tig></langSet>` +
            `<langSet xml:lang="de"><tig><term>Begriff ${i}</term></tig></langSet></termEntry>\n`;
        }
        yield Buffer.from(chunk);
      }
      yield Buffer.from('</body></text></martif>\n');
    }
    let total = 0;
    let largest = 0;
    let last: TermEntry | undefined;
    for await (const batch of readTbx(Readable.from(generate()), { batchSize: 700 })) {
      total += batch.length;
      largest = Math.max(largest, batch.length);
      last = batch[batch.length - 1];
    }
    expect(total).toBe(count);
    expect(largest).toBeLessThanOrEqual(700);
    expect(last).toEqual({
      id: `e${count - 1}`,
      domain: `d${(count - 1) % 7}`,
      terms: [
        { lang: 'en', text: `term ${count - 1}`, partOfSpeech: 'NOUN' },
        { lang: 'de', text: `Begriff ${count - 1}` },
      ],
    });
  });
});

/** Entries that use every field, and the corners of the id and usage encodings. */
function everyField(): TermEntry[] {
  return [
    {
      id: 'concept-1',
      definition: 'A definition with <markup> & "quotes"\nover two lines',
      domain: 'Software',
      subdomains: ['UI', 'Menus & bars'],
      note: 'Entry note\r\nwith CRLF',
      url: 'https://example.com/a?b=1&c="2"',
      terms: [
        {
          lang: 'en_us',
          text: 'save  file',
          status: 'Approved',
          usage: 'preferred',
          forbidden: false,
          preferred: true,
          caseSensitive: true,
          exactMatch: false,
          termType: 'FULL_FORM',
          partOfSpeech: 'VERB',
          gender: 'NEUTRAL',
          number: 'UNCOUNTABLE',
          note: 'first\nsecond',
          shortTranslation: 'sv',
          createdAt: '2024-01-02T03:04:05Z',
          createdBy: 'ann',
          modifiedAt: '2024-02-03T04:05:06Z',
          modifiedBy: 'bob',
        },
        { lang: 'en_us', text: 'store', usage: 'forbidden', forbidden: true, termType: 'VARIANT', status: 'Rejected' },
        { lang: 'de', text: 'speichern', usage: 'preferred', gender: 'FEMININE', number: 'PLURAL', partOfSpeech: 'NOUN' },
        { lang: 'de', text: 'sichern', usage: 'forbidden', forbidden: false, preferred: false, termType: 'ABBREVIATION' },
        { lang: 'de', text: 'ablegen', usage: 'admitted', partOfSpeech: 'ADJECTIVE', number: 'SINGULAR', gender: 'MASCULINE' },
        { lang: 'pt_br', text: 'salvar', usage: 'deprecated', partOfSpeech: 'ADVERB', termType: 'SHORT_FORM', status: 'New' },
      ],
    },
    {
      id: '42',
      terms: [
        { lang: 'en_us', text: 'ASAP', termType: 'ACRONYM', usage: 'superseded', createdBy: 'only a name' },
        { lang: 'de', text: 'Phrase hier', termType: 'PHRASE', usage: 'in informal text', modifiedAt: 'yesterday' },
      ],
    },
    { id: 'with space/slash_é', terms: [{ lang: 'en_us', text: 'x' }] },
    { id: '_.looks-encoded', terms: [{ lang: 'en_us', text: 'y' }] },
    { id: '', terms: [{ lang: 'en_us', text: 'z' }] },
    { terms: [{ lang: 'de', text: 'no id' }] },
  ];
}

const ALL_LANGS = ['en-US', 'de', 'pt_BR'];

describe('TBX write', () => {
  it('round-trips every field', async () => {
    const entries = everyField();
    const warnings: TermFileWarning[] = [];
    const { xml, counts } = await write(entries, { langs: ALL_LANGS, warnings, title: 'Term base "A" & B' });
    expect(warnings).toEqual([]);
    expect(counts).toEqual({ entries: 6, terms: 12 });
    const back = await read(xml);
    expect(back).toEqual(entries);
  });

  it('writes the expected shape', async () => {
    const { xml } = await write(everyField().slice(0, 3), { langs: ALL_LANGS, sourceLang: 'de', title: 'T' });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<martif type="TBX" xml:lang="de">\n')).toBe(true);
    expect(xml).toContain('<sourceDesc>\n        <p>T</p>');
    expect(xml).toContain('<termEntry id="concept-1">');
    expect(xml).toContain('<termEntry id="_.42">');
    expect(xml).toContain('<termEntry id="_.with_20.space_2f.slash_5f._e9.">');
    expect(xml).toContain('<langSet xml:lang="en-US">');
    expect(xml).toContain('<langSet xml:lang="pt-BR">');
    expect(xml).toContain('<termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>');
    expect(xml).toContain('<termNote type="usageNote">in informal text</termNote>');
    expect(xml).toContain('<xref type="externalCrossReference" target="https://example.com/a?b=1&amp;c=&quot;2&quot;"/>');
    expect(xml).toContain('<note>Entry note&#13;\nwith CRLF</note>');
    // Languages in `langs` order within each entry.
    const first = xml.slice(xml.indexOf('concept-1'), xml.indexOf('_.42'));
    expect(first.indexOf('en-US')).toBeLessThan(first.indexOf('xml:lang="de"'));
    expect(first.indexOf('xml:lang="de"')).toBeLessThan(first.indexOf('pt-BR'));
    expect(xml.endsWith('    </body>\n  </text>\n</martif>\n')).toBe(true);
  });

  it('encodes ids as xs:IDs and decodes them back', () => {
    for (const id of ['a', 'A_b-c.d', '_x', '1', '', ' ', '_.x', 'é', 'a:b', '😀', '\u0001', '_.12_20.3']) {
      const written = tbxEntryId(id);
      expect(written).toMatch(/^[A-Za-z_][A-Za-z0-9._-]*$/);
      expect(entryIdOfTbx(written)).toBe(id);
    }
    expect(tbxEntryId('concept-1')).toBe('concept-1');
    expect(entryIdOfTbx('_.bad_110000.')).toBe('_.bad_110000.');
    expect(entryIdOfTbx('_.not encoded')).toBe('_.not encoded');
  });

  it('formats languages as xml:lang', () => {
    expect(tbxLanguage('en_us')).toBe('en-US');
    expect(tbxLanguage('zh_hant_tw')).toBe('zh-Hant-TW');
    expect(tbxLanguage('es_419')).toBe('es-419');
    expect(tbxLanguage('not a language')).toBeNull();
    expect(tbxLanguage('')).toBeNull();
  });

  it('skips with warnings what it cannot write', async () => {
    const warnings: TermFileWarning[] = [];
    const entries: TermEntry[] = [
      {
        id: 'a',
        terms: [
          { lang: 'fr', text: 'hors langue' },
          { lang: 'en', text: '  ' },
          { lang: 'en', text: 'bad\u0001char' },
          { lang: 'en', text: 'bad note', note: 'x\uffffy' },
          { lang: 'en', text: 'lone \ud800 surrogate' },
          { lang: 'en', text: 'kept' },
        ],
      },
      { id: 'b', definition: 'bad\u0000', terms: [{ lang: 'en', text: 'whole entry skipped' }] },
      { id: 'c', terms: [{ lang: 'fr', text: 'nothing left' }] },
      { id: 'a', terms: [{ lang: 'de', text: 'repeated id' }] },
    ];
    const { xml, counts } = await write(entries, { langs: ['en', 'de', 'bad lang!'], warnings });
    expect(counts).toEqual({ entries: 2, terms: 2 });
    expect(warnings.map((w) => w.message)).toEqual([
      'the language "bad lang!" is no language tag TBX can hold: its terms are skipped',
      'entry "a": a term in fr is skipped (not one of the languages exported)',
      'entry "a": a term in en with empty text is skipped',
      'entry "a": the en term "bad\u0001char" holds a character XML cannot hold: skipped',
      'entry "a": the en term "bad note" holds a character XML cannot hold: skipped',
      'entry "a": the en term "lone \ud800 surrogate" holds a character XML cannot hold: skipped',
      'entry "b" is skipped: a concept field holds a character XML cannot hold',
      'entry "c": a term in fr is skipped (not one of the languages exported)',
      'entry "c" has no term that can be written: skipped',
      'entry "a": the id is repeated; this entry is written without it',
    ]);
    expect(await read(xml)).toEqual([{ id: 'a', terms: [{ lang: 'en', text: 'kept' }] }, { terms: [{ lang: 'de', text: 'repeated id' }] }]);
  });

  it('refuses a title or source language TBX cannot hold', async () => {
    await expectFormatError(write([], { langs: ['en'], title: 'a\u0002' }), /title/);
    await expectFormatError(write([], { langs: ['en'], sourceLang: '!!' }), /source language/);
  });

  it('streams batches from an async iterable with backpressure, and ends the output', async () => {
    let pulled = 0;
    let pulledAtFirstWrite = -1;
    const batches = 200;
    async function* source(): AsyncGenerator<TermEntry[]> {
      for (let b = 0; b < batches; b++) {
        pulled += 1;
        yield Array.from({ length: 50 }, (_, i) => ({
          id: `e${b}-${i}`,
          definition: 'd'.repeat(100),
          terms: [{ lang: 'en', text: `term ${b} ${i}` }],
        }));
      }
    }
    const parts: Buffer[] = [];
    const sink = slowSink(parts, () => {
      if (pulledAtFirstWrite < 0) pulledAtFirstWrite = pulled;
    });
    let finished = false;
    sink.on('finish', () => (finished = true));
    const counts = await writeTbx(source(), sink, { langs: ['en'] });
    expect(counts).toEqual({ entries: batches * 50, terms: batches * 50 });
    expect(finished).toBe(true);
    expect(pulledAtFirstWrite).toBeGreaterThan(0);
    expect(pulledAtFirstWrite).toBeLessThan(batches / 4);
    expect(await read(Buffer.concat(parts), {}, 1 << 16)).toHaveLength(batches * 50);
  });

  it('destroys the output when the entries fail', async () => {
    async function* failing(): AsyncGenerator<TermEntry[]> {
      yield [{ terms: [{ lang: 'en', text: 'a' }] }];
      throw new Error('source broke');
    }
    const sink = slowSink([]);
    await expect(writeTbx(failing(), sink, { langs: ['en'] })).rejects.toThrow('source broke');
    expect(sink.destroyed).toBe(true);
  });
});

/** OmegaT's jar ships schemas/tbx.xsd (TBX core structure, `martif` root) and the xml.xsd it imports. */
const schema = omegatSchema('schemas/tbx.xsd', 'the TBX schema');
afterAll(() => schema.dispose());

describe('TBX schema check', () => {
  const validate = (xml: string) => schema.validate(xml, 'out.tbx');

  it.skipIf(schema.missing !== null)(
    `validates against OmegaT's schemas/tbx.xsd with xmllint --nonet --schema${schema.missing ? ` — skipped: ${schema.missing} is missing` : ''}`,
    async () => {
      const entries = everyField();
      entries.push({ id: 'concept-1', terms: [{ lang: 'de', text: 'a repeated id is dropped' }] });
      const { xml } = await write(entries, { langs: ALL_LANGS, title: 'Every field' });
      validate(xml);
    },
  );

  it.skipIf(schema.missing !== null)('the check is not vacuous: xmllint rejects broken TBX', async () => {
    const { xml } = await write(everyField(), { langs: ALL_LANGS });
    expect(() => validate(xml.replace('<langSet xml:lang=', '<langSet lang='))).toThrow(/xmllint rejected/);
    expect(() => validate(xml.replace('<termEntry id="concept-1">', '<termEntry id="1">'))).toThrow(/xmllint rejected/);
    expect(() => validate(xml.replace('<termEntry id="_.42">', '<termEntry id="concept-1">'))).toThrow(/xmllint rejected/);
    // tig: termNotes come before admin/note/transacGrp.
    expect(() => validate(xml.replace(/(<tig>\n\s*<term>[^<]*<\/term>\n)/, '$1<note>n</note>\n'))).toThrow(/xmllint rejected/);
  });
});
