import { afterAll, describe, expect, it } from 'vitest';
import { matchLanguage, tmxJobFilter } from './tmx-job.js';
import { omegatSchema, parseAll, streamOf, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions } from './types.js';

const HEADER =
  '<header creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="test" adminlang="en" srclang="en-US" datatype="plaintext"/>';

function tmx(body: string, { decl = '<?xml version="1.0" encoding="UTF-8"?>\n', header = HEADER } = {}): string {
  return `${decl}<tmx version="1.4">\n  ${header}\n  <body>\n${body}\n  </body>\n</tmx>\n`;
}

function tu(variants: [string, string][], attrs = '', extra = ''): string {
  const tuvs = variants.map(([lang, seg]) => `      <tuv xml:lang="${lang}">\n        <seg>${seg}</seg>\n      </tuv>`).join('\n');
  return `    <tu${attrs}>\n${extra}${tuvs}\n    </tu>`;
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

const DE: FilterOptions = { targetLanguage: 'de' };

describe('TMX job parse', () => {
  it('matches languages exactly, then by prefix, then (source only) by primary language', () => {
    expect(matchLanguage(['en-GB', 'en-US'], 'EN_us', true)).toBe(1);
    expect(matchLanguage(['fr', 'de-DE'], 'de', false)).toBe(1);
    expect(matchLanguage(['fr', 'de'], 'de-AT', false)).toBe(1);
    expect(matchLanguage(['fr', 'de-DE'], 'de-AT', false)).toBe(-1);
    expect(matchLanguage(['fr', 'en-GB'], 'en-US', true)).toBe(1);
    expect(matchLanguage(['fr'], 'en', true)).toBe(-1);
  });

  it('reads each <tu> as a unit: source by the header srclang, target by the target language', async () => {
    const doc = tmx(
      [
        tu(
          [
            ['en-US', 'Hello <bpt i="1" type="bold">&lt;b&gt;</bpt>big<ept i="1">&lt;/b&gt;</ept> <ph x="2">{0}</ph> <hi type="x">hi</hi>'],
            [
              'de-DE',
              'Hallo <bpt i="1" type="bold">&lt;b&gt;</bpt>groß<ept i="1">&lt;/b&gt;</ept> <ph x="2">{0}</ph> <it pos="begin">&lt;u&gt;</it>',
            ],
          ],
          ' tuid="greet"',
          '      <note>tu note</note>\n      <prop type="x-context">ctx</prop>\n',
        ),
        tu([
          ['fr-FR', 'Bonjour'],
          ['en-us', 'Second &amp; <![CDATA[raw]]>'],
        ]),
        tu([['fr-FR', 'Pas de source']]),
        tu([['en', 'Fourth <ut>&lt;br&gt;</ut> <bpt i="7">&lt;i&gt;</bpt>open']]),
      ].join('\n'),
    );
    const units = await parseAll(tmxJobFilter, doc, DE);
    expect(units.map((u) => [u.index, u.locator, u.key, u.source, u.target, u.note, u.translatable])).toEqual([
      [0, '1', 'greet', 'Hello {1>big<1} {2} {3>hi<3}', 'Hallo {1>groß<1} {2} {4}', 'tu note', true],
      [1, '2', null, 'Second & raw', null, null, true],
      [2, '4', null, 'Fourth {1} {2}open', null, null, true],
    ]);
    expect(units[0]!.tags.map((t) => t.original)).toEqual([
      '<bpt i="1" type="bold">&lt;b&gt;</bpt>',
      '<ept i="1">&lt;/b&gt;</ept>',
      '<ph x="2">{0}</ph>',
      '<hi type="x">',
      '</hi>',
      '<it pos="begin">&lt;u&gt;</it>',
    ]);
    expect(units[2]!.tags.map((t) => [t.display, t.original])).toEqual([
      ['{1}', '<ut>&lt;br&gt;</ut>'],
      ['{2}', '<bpt i="7">&lt;i&gt;</bpt>'],
    ]);
  });

  it('takes the source language from the options first, and the target variant may come first', async () => {
    const doc = tmx(
      tu([
        ['de', 'Eins <ph x="1"/>'],
        ['fr', 'Un <ph x="1"/>'],
      ]),
    );
    const [u] = await parseAll(tmxJobFilter, doc, { sourceLanguage: 'fr-FR', targetLanguage: 'de-DE' });
    expect([u?.source, u?.target]).toEqual(['Un {1}', 'Eins {1}']);
  });

  it('reads the tu srclang, `lang` instead of `xml:lang`, and notes of the source variant', async () => {
    const doc = tmx('<tu srclang="fr"><tuv lang="en"><seg>One</seg></tuv><tuv lang="fr"><note>fr note</note><seg>Un</seg></tuv></tu>', {
      header: HEADER.replace('srclang="en-US"', 'srclang="*all*"'),
    });
    const [u] = await parseAll(tmxJobFilter, doc);
    expect([u?.source, u?.target, u?.note]).toEqual(['Un', null, 'fr note']);
  });

  it('gives the same units whatever the chunk size', async () => {
    const doc = tmx(
      Array.from({ length: 30 }, (_, i) =>
        tu([
          ['en-US', `S${i} <bpt i="1">&lt;b&gt;</bpt>x<ept i="1">&lt;/b&gt;</ept> &amp; <hi>y</hi>`],
          ['de', `D${i}`],
        ]),
      ).join('\n'),
    );
    const reference = await parseAll(tmxJobFilter, doc, DE);
    expect(reference).toHaveLength(30);
    for (const size of [1, 2, 5, 100]) expect(await parseAll(tmxJobFilter, doc, DE, size)).toEqual(reference);
  });

  it('detects TMX by its root element', () => {
    expect(tmxJobFilter.detect!(Buffer.from(tmx(tu([['en', 'a']]))))).toBe(true);
    expect(tmxJobFilter.detect!(Buffer.from('<?xml version="1.0"?><xliff version="1.2">'))).toBe(false);
    expect(tmxJobFilter.detect!(Buffer.from('<tmxfoo version="1.4">'))).toBe(false);
  });
});

describe('TMX job malformed and hostile files', () => {
  const cases: { name: string; doc: string; error: RegExp }[] = [
    { name: 'unclosed element', doc: tmx(tu([['en-US', 'a <bpt i="1">b']])), error: /malformed XML/ },
    { name: 'another root', doc: '<xliff/>', error: /not a TMX document/ },
    { name: 'empty', doc: '', error: /root element/ },
    { name: 'tuv outside tu', doc: tmx('<tuv xml:lang="en"><seg>a</seg></tuv>'), error: /<tuv> outside a <tu>/ },
    { name: 'two segs', doc: tmx('<tu><tuv xml:lang="en"><seg>a</seg><seg>b</seg></tuv></tu>'), error: /two <seg>/ },
    { name: 'tu inside tu', doc: tmx('<tu><tu/></tu>'), error: /<tu> inside a <tu>/ },
    {
      name: 'entity bomb',
      doc: '<?xml version="1.0"?>\n<!DOCTYPE tmx [\n<!ENTITY a "aaaaaaaaaa">\n]>\n' + tmx(tu([['en-US', '&a;']]), { decl: '' }),
      error: /DOCTYPE with an internal subset/,
    },
    { name: 'unknown entity', doc: tmx(tu([['en-US', '&nbsp;']])), error: /undefined entity/ },
  ];

  it.each(cases)('$name → FormatError', async ({ doc, error }) => {
    await expectFormatError(parseAll(tmxJobFilter, doc, DE), error);
    await expectFormatError(writeAll(tmxJobFilter, doc, {}, DE), error);
  });

  it('accepts the TMX 1.4 DOCTYPE without internal subset', async () => {
    const doc = tmx(tu([['en-US', 'ok']]), { decl: '<?xml version="1.0"?>\n<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n' });
    expect((await parseAll(tmxJobFilter, doc))[0]?.source).toBe('ok');
  });

  it('limits nesting, and reads deep <hi> nesting in linear time when allowed', async () => {
    const deep = (n: number) => tmx(tu([['en-US', `${'<hi>'.repeat(n)}x${'</hi>'.repeat(n)}`]]));
    await expectFormatError(parseAll(tmxJobFilter, deep(1000)), /nested deeper than 512 levels/);
    const [u] = await parseAll(tmxJobFilter, deep(100_000), { maxDepth: 200_000 });
    expect(u!.tags).toHaveLength(200_000);
  });

  it('reads a <tu> of 200,000 tags in linear time, and refuses one over the size limit', async () => {
    const tags = Array.from({ length: 200_000 }, (_, i) => `<ph x="${i}"/>`).join('');
    const [u] = await parseAll(
      tmxJobFilter,
      tmx(
        tu([
          ['en-US', `w ${tags}`],
          ['de', `W ${tags}`],
        ]),
      ),
      DE,
    );
    expect(u!.tags).toHaveLength(200_000);
    expect(u!.target!.endsWith('{200000}')).toBe(true);
    await expectFormatError(parseAll(tmxJobFilter, tmx(tu([['en-US', 'x'.repeat(10_000_001)]]))), /<tu> number 1 is larger than 10000000/);
  });
});

describe('TMX job write-back', () => {
  const doc = tmx(
    [
      tu(
        [
          ['en-US', 'Hello <bpt i="1" type="bold">&lt;b&gt;</bpt>big<ept i="1">&lt;/b&gt;</ept> <ph x="2">{0}</ph>'],
          ['fr-FR', 'Bonjour'],
        ],
        ' tuid="a"',
      ),
      '    <tu><tuv xml:lang="en-US"><seg>Second</seg></tuv><tuv xml:lang="DE" creationid="x"><seg>Alt</seg></tuv></tu>',
      '    <tu>\n      <tuv xml:lang="en-US"><seg>Third</seg></tuv>\n      <tuv xml:lang="de"><seg/></tuv>\n    </tu>',
      tu([['en-US', 'Untouched']]),
    ].join('\n'),
  );

  it('writes the file back byte for byte when nothing is translated', async () => {
    for (const size of [1, 7, 1000]) expect((await writeAll(tmxJobFilter, doc, {}, DE, size)).toString()).toBe(doc);
  });

  it('inserts a target variant shaped like the source one, or replaces the target segment', async () => {
    const translations = { '1': 'Hallo {1>groß<1} {2} & <Co>', '2': 'Zweite', '3': 'Dritte' };
    for (const size of [1, 3, 64 * 1024]) {
      const out = (await writeAll(tmxJobFilter, doc, translations, DE, size)).toString();
      const expected = doc
        .replace(
          '<seg>Bonjour</seg>\n      </tuv>',
          '<seg>Bonjour</seg>\n      </tuv>\n      <tuv xml:lang="de">\n        <seg>Hallo <bpt i="1" type="bold">&lt;b&gt;</bpt>groß<ept i="1">&lt;/b&gt;</ept> <ph x="2">{0}</ph> &amp; &lt;Co&gt;</seg>\n      </tuv>',
        )
        .replace('<seg>Alt</seg>', '<seg>Zweite</seg>')
        .replace('<seg/>', '<seg>Dritte</seg>');
      expect(out).toBe(expected);
    }
  });

  it('round trips, and needs the target language to add a variant', async () => {
    const units = await parseAll(tmxJobFilter, doc, DE);
    const translations = Object.fromEntries(units.map((u) => [u.locator, `DE ${u.source}`]));
    const again = await parseAll(tmxJobFilter, await writeAll(tmxJobFilter, doc, translations, DE), DE);
    expect(again.map((u) => [u.source, u.target])).toEqual(units.map((u) => [u.source, `DE ${u.source}`]));
    expect(again.map((u) => u.tags)).toEqual(units.map((u) => u.tags));
    await expectFormatError(writeAll(tmxJobFilter, doc, { '4': 'x' }), /no target language was given/);
  });

  it('refuses misnested tags and characters XML cannot hold', async () => {
    const source = tmx(tu([['en-US', '<bpt i="1">&lt;b&gt;</bpt>a<ept i="1">&lt;/b&gt;</ept> <hi>b</hi>']]));
    await expectFormatError(writeAll(tmxJobFilter, source, { '1': '<1}a{1> {2>b<2}' }, DE), /unit 1 has misplaced or unbalanced tags/);
    await expectFormatError(writeAll(tmxJobFilter, source, { '1': '{1>a<1} {2>b' }, DE), /unit 1 has misplaced or unbalanced tags/);
    // A pair left out entirely is fine.
    expect((await writeAll(tmxJobFilter, source, { '1': 'a {2>b<2}' }, DE)).toString()).toContain('<seg>a <hi>b</hi></seg>');
    await expectFormatError(writeAll(tmxJobFilter, source, { '1': 'bell\u0007' }, DE), /character XML cannot hold/);
  });

  it('keeps UTF-16 with a BOM and CRLF', async () => {
    const crlf = tmx(tu([['en-US', 'Grüße']]), { decl: '<?xml version="1.0" encoding="UTF-16"?>\n' }).replace(/\n/g, '\r\n');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(crlf, 'utf16le')]);
    expect((await writeAll(tmxJobFilter, bytes, {}, DE, 3)).equals(bytes)).toBe(true);
    const out = await writeAll(tmxJobFilter, bytes, { '1': 'Schöne Grüße' }, DE, 3);
    expect(out.subarray(2).toString('utf16le')).toBe(
      crlf.replace('</tuv>', '</tuv>\r\n      <tuv xml:lang="de">\r\n        <seg>Schöne Grüße</seg>\r\n      </tuv>'),
    );
  });
});

describe('TMX job schema check (TMX 1.4)', () => {
  const schema = omegatSchema('schemas/tmx14.xsd', 'the TMX 1.4 schema', 'schemas/tmx14.dtd');
  afterAll(() => schema.dispose());
  const skip = schema.missing ? ` — skipped: ${schema.missing} is missing` : '';

  it.skipIf(schema.missing !== null)(`the translated output validates against tmx14.xsd and tmx14.dtd${skip}`, async () => {
    const doc = tmx(
      Array.from({ length: 20 }, (_, i) =>
        tu(
          [
            [
              'en-US',
              `Press <bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> now <ph x="2" type="lb">&lt;br/&gt;</ph> <hi type="x">${i}</hi>`,
            ],
            ...(i % 2 ? ([['de-DE', 'Alt']] as [string, string][]) : []),
          ],
          ` tuid="t${i}"`,
        ),
      ).join('\n'),
    );
    schema.validate(doc, 'input.tmx');
    const units = await parseAll(tmxJobFilter, doc, DE);
    const out = (await writeAll(tmxJobFilter, doc, Object.fromEntries(units.map((u) => [u.locator, `DE ${u.source}`])), DE)).toString();
    expect(out.match(/<tuv /g)).toHaveLength(40);
    schema.validate(out, 'output.tmx');
    schema.validate(out, 'output.tmx', 'dtd');
  });
});

describe('TMX job large files', () => {
  it('streams 50,000 <tu>s in batches', async () => {
    const parts = [`<tmx version="1.4">${HEADER}<body>\n`];
    for (let i = 0; i < 50_000; i++) parts.push(`<tu><tuv xml:lang="en-US"><seg>Sentence ${i} <ph x="1"/>.</seg></tuv></tu>\n`);
    parts.push('</body></tmx>\n');
    let n = 0;
    for await (const batch of tmxJobFilter.parseBatches(streamOf(Buffer.from(parts.join('')), 16 * 1024))) n += batch.length;
    expect(n).toBe(50_000);
  });
});
