import { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { omegatSchema, streamOf } from './testing.js';
import { readTmx, writeTmx } from './tmx.js';
import type { TmxReadOptions, TmxUnit, TmxWarning, TmxWriteHeader } from './tmx.js';
import { FormatError } from './types.js';
import type { InlineTag } from './types.js';

async function readAll(input: Readable, options?: TmxReadOptions): Promise<TmxUnit[]> {
  const units: TmxUnit[] = [];
  for await (const batch of readTmx(input, options)) units.push(...batch);
  return units;
}

async function read(text: string, options?: TmxReadOptions, chunkSize = 7): Promise<TmxUnit[]> {
  return readAll(streamOf(text, chunkSize), options);
}

async function write(units: TmxUnit[], header: TmxWriteHeader = { srcLang: 'en-US' }): Promise<string> {
  const parts: Buffer[] = [];
  const sink = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      setImmediate(done);
    },
  });
  await writeTmx(units, sink, header);
  return Buffer.concat(parts).toString('utf8');
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

/** Tags a job or a caller might hand the writer: highlights, a forged original, nested `<sub>`, an unpaired open. */
function trickyTags(): InlineTag[] {
  const tag = (id: number, kind: 'open' | 'close' | 'standalone', original: string) => ({
    id,
    kind,
    original,
    display: kind === 'open' ? `{${id}>` : kind === 'close' ? `<${id}}` : `{${id}}`,
  });
  return [
    tag(1, 'open', '<hi>'),
    tag(1, 'close', '</hi>'),
    tag(2, 'open', '<hi type="b">'),
    tag(2, 'close', '</hi>'),
    tag(3, 'standalone', '<ph>a</ph></ph>'),
    tag(4, 'standalone', '<ph>&bogus;</ph>'),
    tag(5, 'standalone', '<ph>x<sub>in <bpt i="9">&lt;b&gt;</bpt>sub</sub></ph>'),
    tag(6, 'open', '<bpt>&lt;u&gt;</bpt>'),
  ];
}

const HEADER14 =
  '<header creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="test" adminlang="en" srclang="en-US" datatype="plaintext"/>';

const SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
  ${HEADER14}
  <body>
    <tu tuid="t1" creationdate="20240102T030405Z" creationid="ann" changedate="20240203T040506Z" changeid="bob">
      <prop type="x-context-prev">Before.</prop>
      <prop type="x-context-next">After.</prop>
      <prop type="x-domain">legal</prop>
      <note>A note &amp; more</note>
      <tuv xml:lang="en-US">
        <seg>Press <bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> now<ph x="2" type="lb">&lt;br/&gt;</ph> &amp; <hi type="emph">go<ph/></hi> <it pos="begin" x="3">&lt;i&gt;</it>x <ut>{sub}</ut></seg>
      </tuv>
      <tuv xml:lang="de-DE" changeid="carl">
        <prop type="x-state">final</prop>
        <seg>Drücken Sie <bpt i="7">&lt;b&gt;</bpt>Speichern<ept i="7">&lt;/b&gt;</ept>.</seg>
      </tuv>
    </tu>
    <tu>
      <tuv xml:lang="en-US"><seg>Plain</seg></tuv>
      <tuv xml:lang="fr"><seg>Simple</seg></tuv>
    </tu>
  </body>
</tmx>
`;

describe('TMX read', () => {
  it('reads units with inline tags as display tokens, props, notes and stamps', async () => {
    const units = await read(SAMPLE);
    expect(units).toHaveLength(2);
    const [first, second] = units as [TmxUnit, TmxUnit];
    expect(first).toMatchObject({
      tuid: 't1',
      sourceLang: 'en-US',
      creationDate: '20240102T030405Z',
      creationId: 'ann',
      changeDate: '20240203T040506Z',
      changeId: 'bob',
      contextPrev: 'Before.',
      contextNext: 'After.',
      props: [{ type: 'x-domain', value: 'legal' }],
      notes: ['A note & more'],
    });
    const [en, de] = first.variants as [TmxUnit['variants'][0], TmxUnit['variants'][0]];
    expect(en.lang).toBe('en-US');
    expect(en.text).toBe('Press {1>Save<1} now{2} & {3>go{4}<3} {5}x {6}');
    expect(en.tags.map((tag) => tag.original)).toEqual([
      '<bpt type="bold">&lt;b&gt;</bpt>',
      '<ept>&lt;/b&gt;</ept>',
      '<ph type="lb">&lt;br/&gt;</ph>',
      '<hi type="emph">',
      '<ph/>',
      '</hi>',
      '<it pos="begin">&lt;i&gt;</it>',
      '<ph>{sub}</ph>',
    ]);
    expect(de).toMatchObject({
      lang: 'de-DE',
      changeId: 'carl',
      text: 'Drücken Sie {1>Speichern<1}.',
      props: [{ type: 'x-state', value: 'final' }],
    });
    expect(second.variants.map((v) => [v.lang, v.text])).toEqual([
      ['en-US', 'Plain'],
      ['fr', 'Simple'],
    ]);
  });

  it('is lenient: TMX 1.1 `lang`, srclang *all*, en_US, CDATA, unknown languages as warnings', async () => {
    const tmx11 = `<?xml version="1.0"?>
<tmx version="1.1"><header creationtool="x" srclang="*all*" adminlang="EN" datatype="plaintext" o-tmf="x" segtype="sentence"/>
<body>
  <tu><tuv lang="EN_us"><seg>One</seg></tuv><tuv lang="DE"><seg><![CDATA[Eins <b>]]></seg></tuv></tu>
  <tu><tuv lang="fr"><seg>Deux</seg></tuv><tuv lang="xx"><seg>??</seg></tuv><tuv lang="12"><seg>??</seg></tuv></tu>
  <tu srclang="xx"><tuv lang="xx"><seg>?</seg></tuv></tu>
  <tu><tuv lang="xx"><seg>?</seg></tuv></tu>
</body></tmx>`;
    const warnings: TmxWarning[] = [];
    let version = '';
    const units = await read(tmx11, { warnings, onHeader: (header) => (version = header.version) });
    expect(version).toBe('1.1');
    expect(units.map((u) => [u.sourceLang, u.variants.map((v) => `${v.lang}:${v.text}`)])).toEqual([
      ['en-US', ['en-US:One', 'de:Eins <b>']],
      ['fr', ['fr:Deux']],
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      'unknown or invalid language code "xx": its variants are skipped',
      'unknown or invalid language code "12": its variants are skipped',
    ]);
  });

  it('reports a <tu> without a variant in its source language', async () => {
    const warnings: TmxWarning[] = [];
    const units = await read(
      `<tmx version="1.4b">${HEADER14.replace('en-US', 'en')}<body><tu><tuv xml:lang="de"><seg>a</seg></tuv></tu></body></tmx>`,
      { warnings },
    );
    expect(units).toEqual([]);
    expect(warnings[0]?.message).toMatch(/no variant in its source language en/);
  });

  it('yields batches of at most batchSize', async () => {
    const tus = Array.from({ length: 25 }, (_, i) => `<tu><tuv xml:lang="en-US"><seg>u${i}</seg></tuv></tu>`).join('');
    const sizes: number[] = [];
    for await (const batch of readTmx(streamOf(`<tmx version="1.4">${HEADER14}<body>${tus}</body></tmx>`), { batchSize: 10 })) {
      sizes.push(batch.length);
    }
    expect(sizes).toEqual([10, 10, 5]);
  });

  it('a malformed file is a FormatError with line and column', async () => {
    const error = await expectFormatError(
      read(`<tmx version="1.4">\n${HEADER14}\n<body>\n<tu><tuv xml:lang="en"><seg>a</tuv></tu>\n</body></tmx>`),
      /^malformed XML: .*\(line 4, column \d+\)$/,
    );
    expect(error.line).toBe(4);
    await expectFormatError(read('<xliff version="1.2"/>'), /not a TMX document/);
    await expectFormatError(read('<!DOCTYPE tmx [<!ENTITY a "b">]><tmx/>'), /internal subset/);
    await expectFormatError(read(`<tmx version="1.4">${HEADER14}<body><tu>`), /malformed XML/);
    const deep = `<tmx version="1.4">${HEADER14}<body><tu><tuv xml:lang="en-US"><seg>${'<hi>'.repeat(600)}x${'</hi>'.repeat(600)}</seg></tuv></tu></body></tmx>`;
    await expectFormatError(read(deep, undefined, 4096), /nested deeper than 512 levels/);
    expect(await read(deep, { maxDepth: 1000 }, 4096)).toHaveLength(1);
  });
});

describe('TMX write', () => {
  it('round trip: read → write → read gives the same units, and writing again the same bytes', async () => {
    const units = await read(SAMPLE);
    const written = await write(units);
    const again = await read(written, undefined, 13);
    expect(again).toEqual(units);
    expect(await write(again)).toBe(written);
  });

  it('writes a strict header, xml:lang, numbered tags and escapes', async () => {
    const xml = await write([
      {
        sourceLang: 'en-US',
        tuid: 'a"b',
        creationDate: '2024-05-06T07:08:09.000Z',
        contextPrev: 'p < q',
        variants: [
          {
            lang: 'en_us',
            text: 'A {1>b<1} & {2} <3} {9}',
            tags: [
              { id: 1, kind: 'open', original: '<g id="1">', display: '{1>' },
              { id: 1, kind: 'close', original: '</g>', display: '<1}' },
              { id: 2, kind: 'standalone', original: '<x id="2"/>', display: '{2}' },
              { id: 3, kind: 'close', original: '<ept>&lt;/i&gt;</ept>', display: '<3}' },
            ],
          },
        ],
      },
    ]);
    expect(xml).toContain('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n');
    expect(xml).toContain(
      '<header creationtool="OpenTMS" creationtoolversion="1.0" segtype="sentence" o-tmf="OpenTMS" adminlang="en" srclang="en-US" datatype="plaintext"/>',
    );
    expect(xml).toContain('<tu tuid="a&quot;b" srclang="en-US" creationdate="20240506T070809Z">');
    expect(xml).toContain('<prop type="x-context-prev">p &lt; q</prop>');
    expect(xml).toContain(
      '<tuv xml:lang="en-US">\n        <seg>A <bpt i="1" x="1">&lt;g id="1"&gt;</bpt>b<ept i="1">&lt;/g&gt;</ept> &amp; <ph x="2">&lt;x id="2"/&gt;</ph> <it pos="end" x="3">&lt;/i&gt;</it> {9}</seg>',
    );
  });

  it('writes well-formed XML whatever the tags: misnested or repeated highlights, isolated halves, forged originals', async () => {
    const tags = trickyTags();
    const xml = await write([
      {
        sourceLang: 'en',
        variants: [
          { lang: 'en', text: '{1>a{2>b<1}c<2} {3}{4}{5} {6>', tags },
          { lang: 'de', text: '{1>{1>x<1} {2>y<2}', tags },
        ],
      },
    ]);
    expect(xml).toContain(
      '<seg><it pos="begin" x="1"/>a<it pos="begin" x="2"/>b<it pos="end" x="1"/>c<it pos="end" x="2"/> <ph x="3">&lt;ph&gt;a&lt;/ph&gt;&lt;/ph&gt;</ph><ph x="4">&lt;ph&gt;&amp;bogus;&lt;/ph&gt;</ph><ph x="5">x<sub>in <bpt i="9">&lt;b&gt;</bpt>sub</sub></ph> <it pos="begin" x="6">&lt;u&gt;</it></seg>',
    );
    expect(xml).toContain('<seg><it pos="begin" x="1"/><it pos="begin" x="1"/>x<it pos="end" x="1"/> <hi x="2" type="b">y</hi></seg>');
    const [unit] = await read(xml);
    expect(unit?.variants[0]?.tags[6]?.original).toBe('<ph>x<sub>in <bpt i="9">&lt;b&gt;</bpt>sub</sub></ph>');
  });

  it('reads UTF-16 with a BOM', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-16"?><tmx version="1.4">${HEADER14}<body><tu><tuv xml:lang="en-US"><seg>Grüße ☕</seg></tuv></tu></body></tmx>`;
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
    const units = await readAll(streamOf(bytes, 5));
    expect(units[0]?.variants[0]?.text).toBe('Grüße ☕');
  });

  it('refuses what TMX cannot hold', async () => {
    await expectFormatError(write([{ sourceLang: 'en', variants: [{ lang: 'en', text: 'a\u0001', tags: [] }] }]), /cannot hold/);
    await expectFormatError(write([{ sourceLang: 'en', variants: [{ lang: 'zz-ZZ', text: 'a', tags: [] }] }]), /not a known language/);
  });
});

/** OmegaT's jar ships tmx14.xsd (with the xml.xsd it imports) and tmx14.dtd. */
const schema = omegatSchema('schemas/tmx14.xsd', 'the TMX 1.4 schema', 'schemas/tmx14.dtd');
afterAll(() => schema.dispose());

describe('TMX 1.4 schema check', () => {
  const validate = (against: 'xsd' | 'dtd', xml: string) => schema.validate(xml, 'out.tmx', against);

  async function sampleOutput(): Promise<string> {
    const units = await read(SAMPLE);
    units.push({
      sourceLang: 'en-US',
      variants: [
        {
          lang: 'en-US',
          text: '<2} {1>a',
          tags: [
            { id: 1, kind: 'open', original: '<g id="1">', display: '{1>' },
            { id: 2, kind: 'close', original: '</g>', display: '<2}' },
          ],
        },
      ],
    });
    units.push({
      sourceLang: 'en-US',
      variants: [
        { lang: 'en-US', text: '{1>a{2>b<1}c<2} {3}{4}{5} {6>', tags: trickyTags() },
        { lang: 'de', text: '{1>{1>x<1} {2>y<2}', tags: trickyTags() },
      ],
    });
    return write(units, { srcLang: 'en-US', props: [{ type: 'x-tm', value: 'demo' }], notes: ['exported'], creationDate: new Date(0) });
  }

  it.skipIf(schema.missing !== null)(
    `validates against OmegaT's tmx14.xsd${schema.missing ? ` — skipped: ${schema.missing} is missing` : ''}`,
    async () => {
      validate('xsd', await sampleOutput());
    },
  );

  it.skipIf(schema.missing !== null || !schema.dtd)('the check is not vacuous: xmllint rejects broken TMX', async () => {
    const good = await sampleOutput();
    expect(() => validate('xsd', good.replace('<tuv xml:lang=', '<tuv lang='))).toThrow(/xmllint rejected/);
    expect(() => validate('xsd', good.replace(' segtype="sentence"', ''))).toThrow(/xmllint rejected/);
    expect(() => validate('dtd', good.replace('<ept i="1">', '<ept>'))).toThrow(/xmllint rejected/);
  });

  it.skipIf(schema.missing !== null || !schema.dtd)(
    `validates against OmegaT's tmx14.dtd${schema.missing ? ` — skipped: ${schema.missing} is missing` : !schema.dtd ? ' — skipped: tmx14.dtd not in the jar' : ''}`,
    async () => {
      validate('dtd', await sampleOutput());
    },
  );
});

describe('TMX memory', () => {
  it('reads 200,000 generated units with flat memory', async () => {
    const count = 200_000;
    function* generate(): Generator<string> {
      yield `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n${HEADER14}\n<body>\n`;
      for (let at = 0; at < count; at += 500) {
        let chunk = '';
        for (let i = at; i < at + 500; i++) {
          chunk +=
            `<tu tuid="${i}"><prop type="x-context-prev">previous sentence ${i - 1}</prop>` +
            `<tuv xml:lang="en-US"><seg>Source sentence number ${i} with <bpt i="1">&lt;b&gt;</bpt>bold<ept i="1">&lt;/b&gt;</ept> text.</seg></tuv>` +
            `<tuv xml:lang="de-DE"><seg>Ausgangssatz Nummer ${i} mit <bpt i="1">&lt;b&gt;</bpt>fettem<ept i="1">&lt;/b&gt;</ept> Text.</seg></tuv></tu>\n`;
        }
        yield chunk;
      }
      yield '</body>\n</tmx>\n';
    }
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let seen = 0;
    let last = '';
    for await (const batch of readTmx(Readable.from(generate()), { batchSize: 5000 })) {
      seen += batch.length;
      last = batch[batch.length - 1]!.variants[1]!.text;
      if (seen % 10_000 < batch.length) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    expect(seen).toBe(count);
    expect(last).toBe(`Ausgangssatz Nummer ${count - 1} mit {1>fettem<1} Text.`);
    // The file is ≈ 70 MB; holding all its units takes ≈ 490 MB of heap, the streaming read ≈ 60 MB (batches, GC lag).
    expect(peak - before).toBeLessThan(128 * 1024 * 1024);
  }, 60_000);
});
