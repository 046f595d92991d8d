import { afterAll, describe, expect, it } from 'vitest';
import { parseAll, streamOf, writeAll, xliff2Schema } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions, TextUnit, UnitTranslation } from './types.js';
import { xliff2Filter } from './xliff2.js';
import { xliff12Filter } from './xliff12.js';

const NS = 'urn:oasis:names:tc:xliff:document:2.0';

function xliff(body: string, { decl = '<?xml version="1.0" encoding="UTF-8"?>\n', root = '', version = '2.0' } = {}): string {
  return `${decl}<xliff xmlns="${NS}" version="${version}" srcLang="en"${root}>\n  <file id="f1">\n${body}\n  </file>\n</xliff>\n`;
}

function unit(id: string, segments: string, attrs = '', before = ''): string {
  return `    <unit id="${id}"${attrs}>\n${before}${segments}\n    </unit>`;
}

function segment(source: string, extra = '', attrs = ''): string {
  return `      <segment${attrs}>\n        <source>${source}</source>${extra}\n      </segment>`;
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

type Expected = Partial<
  Pick<TextUnit, 'key' | 'locator' | 'source' | 'target' | 'translatable' | 'note' | 'targetConfirmed' | 'locked'>
> & {
  originals?: string[];
};

const xlf2 = (settings: Record<string, unknown>): FilterOptions => ({ formatSettings: settings });

describe('XLIFF 2 parse', () => {
  const cases: {
    name: string;
    body: string;
    options?: FilterOptions;
    expected: Expected[];
  }[] = [
    {
      name: 'one segment per unit; key from id, locator file/unit/segment',
      body: unit('u1', segment('Hello world')),
      expected: [{ key: 'u1', locator: 'f1/u1/1', source: 'Hello world', target: null, translatable: true, note: null }],
    },
    {
      name: 'name is the key; every segment a unit, ignorables are not',
      body: unit(
        'u1',
        `${segment('One.')}\n      <ignorable><source> </source></ignorable>\n${segment('Two.', '', ' id="s9"')}`,
        ' name="home.intro"',
      ),
      expected: [
        { key: 'home.intro', locator: 'f1/u1/1', source: 'One.' },
        { key: 'home.intro', locator: 'f1/u1/2', source: 'Two.' },
      ],
    },
    {
      name: 'entities and CDATA become text; white space kept',
      body: unit('u1', segment(' A &amp; B &lt;c&gt; <![CDATA[<raw> & ]]>&#x263A;  ')),
      expected: [{ source: ' A & B <c> <raw> & \u263a  ' }],
    },
    {
      name: '<pc> is a pair, <ph/> standalone, nested <mrk> a pair',
      body: unit('u1', segment('Click <pc id="1" type="fmt">here <mrk id="m1" type="term">now</mrk></pc><ph id="2" equiv="\n"/>')),
      expected: [
        {
          source: 'Click {1>here {2>now<2}<1}{3}',
          originals: ['<pc id="1" type="fmt">', '<mrk id="m1" type="term">', '</mrk>', '</pc>', '<ph id="2" equiv="\n"/>'],
        },
      ],
    },
    {
      name: '<sc/>/<ec/> pair by startRef, <sm/>/<em/> too; isolated ones are standalone',
      body: unit(
        'u1',
        segment(
          '<sc id="1"/>bold<ec startRef="1"/> <sm id="m" type="term"/>term<em startRef="m"/> <sc id="2" isolated="yes"/>x<ec id="3" isolated="yes"/>',
        ),
      ),
      expected: [
        {
          source: '{1>bold<1} {2>term<2} {3}x{4}',
          originals: [
            '<sc id="1"/>',
            '<ec startRef="1"/>',
            '<sm id="m" type="term"/>',
            '<em startRef="m"/>',
            '<sc id="2" isolated="yes"/>',
            '<ec id="3" isolated="yes"/>',
          ],
        },
      ],
    },
    {
      name: 'an <sc> whose <ec> is in the next segment: standalone in both',
      body: unit('u1', `${segment('A <sc id="1"/>b.')}\n${segment('C<ec startRef="1"/> d.')}`),
      expected: [
        { source: 'A {1}b.', originals: ['<sc id="1"/>'] },
        { source: 'C{1} d.', originals: ['<ec startRef="1"/>'] },
      ],
    },
    {
      name: '<cp/> is a standalone tag; an empty <pc/> too',
      body: unit('u1', segment('bell<cp hex="0007"/> <pc id="1"/>')),
      expected: [{ source: 'bell{1} {2}', originals: ['<cp hex="0007"/>', '<pc id="1"/>'] }],
    },
    {
      name: 'a <mrk translate="no"> is one tag with its content',
      body: unit('u1', segment('Use <mrk id="1" translate="no">Ctrl+<pc id="2">S</pc></mrk> now')),
      expected: [{ source: 'Use {1} now', originals: ['<mrk id="1" translate="no">Ctrl+<pc id="2">S</pc></mrk>'] }],
    },
    {
      name: 'translate="no" on the unit and inherited from a group, overridden by translate="yes"',
      body: [
        unit('a', segment('A'), ' translate="no"'),
        `    <group id="g" translate="no">\n${unit('b', segment('B'))}\n${unit('c', segment('C'), ' translate="yes"')}\n    </group>`,
        unit('d', segment('D')),
      ].join('\n'),
      expected: [
        { key: 'a', translatable: false },
        { key: 'b', translatable: false },
        { key: 'c', translatable: true },
        { key: 'd', translatable: true },
      ],
    },
    {
      name: 'respectTranslateAttr: false reads translate="no" units as translatable',
      body: unit('a', segment('A <mrk id="1" translate="no">x</mrk>'), ' translate="no"'),
      options: xlf2({ respectTranslateAttr: false }),
      expected: [{ source: 'A {1>x<1}', translatable: true }],
    },
    {
      name: 'existing target: its tags reuse the source numbers, new ones follow; state="final" is confirmed',
      body: unit('u1', segment('a <pc id="1">b</pc>', '\n        <target>A <pc id="1">B</pc><ph id="9"/></target>', ' state="final"')),
      expected: [{ source: 'a {1>b<1}', target: 'A {1>B<1}{2}', targetConfirmed: true }],
    },
    {
      name: 'a translated (not final) target is not confirmed; no target says nothing',
      body: unit('u1', `${segment('a', '<target>A</target>', ' state="translated"')}\n${segment('b', '', ' state="final"')}`),
      expected: [
        { target: 'A', targetConfirmed: false },
        { target: null, targetConfirmed: undefined },
      ],
    },
    {
      name: 'unit notes are joined onto each segment',
      body: unit(
        'u1',
        `${segment('a')}\n${segment('b')}`,
        '',
        '      <notes><note category="dev">First</note><note>Second &amp; last</note></notes>\n',
      ),
      expected: [{ note: 'First\nSecond & last' }, { note: 'First\nSecond & last' }],
    },
    {
      name: 'importNotes: false',
      body: unit('u1', segment('a'), '', '      <notes><note>n</note></notes>\n'),
      options: xlf2({ importNotes: false }),
      expected: [{ note: null }],
    },
    {
      name: 'elements of other namespaces: skipped around segments, one standalone tag inside a source',
      body: unit(
        'u1',
        segment('a <o:b xmlns:o="urn:other">c</o:b> d'),
        '',
        '      <mda:metadata xmlns:mda="urn:oasis:names:tc:xliff:metadata:2.0"><mda:metaGroup><mda:meta type="x">Not a source</mda:meta></mda:metaGroup></mda:metadata>\n',
      ),
      expected: [{ source: 'a {1} d', originals: ['<o:b xmlns:o="urn:other">c</o:b>'] }],
    },
    {
      name: 'importAsLockedRules and skipImportRules',
      body: unit('u1', `${segment('a', '', ' subState="x:locked"')}\n${segment('b', '', ' state="initial"')}`, ' type="x:y"'),
      options: xlf2({ importAsLockedRules: 'subState=x:locked', skipImportRules: 'state=initial' }),
      expected: [
        { source: 'a', locked: true, translatable: true },
        { source: 'b', locked: undefined, translatable: false },
      ],
    },
    {
      name: 'importAsConfirmedRules replaces state=final',
      body: unit(
        'u1',
        `${segment('a', '<target>A</target>', ' state="reviewed"')}\n${segment('b', '<target>B</target>', ' state="final"')}`,
      ),
      options: xlf2({ importAsConfirmedRules: 'state=reviewed' }),
      expected: [{ targetConfirmed: true }, { targetConfirmed: false }],
    },
    {
      name: 'tagRegexp (formatSettings) turns matches into standalone tags, in target too',
      body: unit('u1', segment('Hi {name}, <pc id="1">{n}</pc> new', '<target>Hallo {name}</target>')),
      options: xlf2({ tagRegexp: '\\{\\w+\\}' }),
      expected: [{ source: 'Hi {1}, {2>{3}<2} new', target: 'Hallo {1}', originals: ['{name}', '<pc id="1">', '{n}', '</pc>'] }],
    },
  ];

  it.each(cases)('$name', async ({ body, options, expected }) => {
    const units = await parseAll(xliff2Filter, xliff(body), options);
    expect(units).toHaveLength(expected.length);
    expected.forEach((e, i) => {
      const got = units[i]!;
      expect(got.index).toBe(i);
      const { originals, ...fields } = e;
      for (const [field, value] of Object.entries(fields)) expect([field, got[field as keyof TextUnit]]).toEqual([field, value]);
      if (originals) expect(got.tags.map((t) => t.original)).toEqual(originals);
    });
  });

  it('gives the same units whatever the chunk size', async () => {
    const doc = xliff(cases.map((c, i) => c.body.replace(/<unit id="(\w+)"/g, `<unit id="c${i}-$1"`)).join('\n'));
    const reference = await parseAll(xliff2Filter, doc);
    expect(reference.length).toBeGreaterThan(20);
    for (const size of [1, 2, 3, 7, 100]) expect(await parseAll(xliff2Filter, doc, {}, size)).toEqual(reference);
  });

  it('reads XLIFF 2.1 and prefixed documents; escapes "/" and "%" in locators', async () => {
    const [a] = await parseAll(xliff2Filter, xliff(unit('u1', segment('x')), { version: '2.1' }));
    expect(a?.source).toBe('x');
    const doc =
      `<x:xliff xmlns:x="${NS}" version="2.0" srcLang="en"><x:file id="a/b"><x:unit id="c%d">` +
      '<x:segment><x:source>A <x:pc id="1">b</x:pc></x:source></x:segment></x:unit></x:file></x:xliff>';
    const [u] = await parseAll(xliff2Filter, doc);
    expect(u).toMatchObject({ locator: 'a%2Fb/c%25d/1', source: 'A {1>b<1}' });
    const out = (await writeAll(xliff2Filter, doc, { 'a%2Fb/c%25d/1': 'B {1>c<1}' })).toString();
    expect(out).toContain(
      '<x:segment state="translated"><x:source>A <x:pc id="1">b</x:pc></x:source><x:target>B <x:pc id="1">c</x:pc></x:target></x:segment>',
    );
  });

  it('detects XLIFF 2 and leaves XLIFF 1.2 to its own filter', () => {
    expect(xliff2Filter.detect!(Buffer.from(xliff(unit('u1', segment('x')))))).toBe(true);
    expect(xliff2Filter.detect!(Buffer.from('<xliff version="2.1" xmlns="urn:x">'))).toBe(true);
    const v12 = '<?xml version="1.0"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">';
    expect(xliff2Filter.detect!(Buffer.from(v12))).toBe(false);
    expect(xliff12Filter.detect!(Buffer.from(xliff(unit('u1', segment('x')))))).toBe(false);
    expect(xliff2Filter.detect!(Buffer.from('{"a": "xliff version=\\"2.0\\""}'))).toBe(false);
  });
});

describe('XLIFF 2 malformed and hostile files', () => {
  const cases: { name: string; doc: string; error: RegExp; line?: number }[] = [
    { name: 'unclosed element', doc: xliff(unit('u1', segment('a <pc id="1">b'))), error: /malformed XML/, line: 6 },
    { name: 'not XML', doc: 'hello', error: /malformed XML|no root/ },
    { name: 'empty file', doc: '', error: /root element/ },
    { name: 'another root', doc: '<html/>', error: /not an XLIFF document/ },
    {
      name: 'XLIFF 1.2',
      doc: '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" datatype="x"><body/></file></xliff>',
      error: /only XLIFF 2.x/,
    },
    { name: 'unit without id', doc: xliff(`<unit>${segment('a')}</unit>`), error: /a <unit> without an id/ },
    { name: 'file without id', doc: `<xliff xmlns="${NS}" version="2.0" srcLang="en"><file/></xliff>`, error: /a <file> without an id/ },
    { name: 'duplicate unit id', doc: xliff(`${unit('u', segment('a'))}${unit('u', segment('b'))}`), error: /unit id "u" is used twice/ },
    {
      name: 'duplicate file id',
      doc: `<xliff xmlns="${NS}" version="2.0" srcLang="en"><file id="f">${unit('a', segment('a'))}</file><file id="f">${unit('b', segment('b'))}</file></xliff>`,
      error: /file id "f" is used twice/,
    },
    { name: 'segment without source', doc: xliff(unit('u', '<segment><target>x</target></segment>')), error: /before its <source>/ },
    { name: 'unit without segment', doc: xliff(unit('u', '<notes><note>x</note></notes>')), error: /has no <segment>/ },
    {
      name: 'entity bomb (internal subset)',
      doc:
        '<?xml version="1.0"?>\n<!DOCTYPE xliff [\n<!ENTITY a "aaaaaaaaaa">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n' +
        xliff(unit('u', segment('&b;')), { decl: '' }),
      error: /DOCTYPE with an internal subset/,
    },
    {
      name: 'XXE',
      doc: '<!DOCTYPE xliff [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n' + xliff(unit('u', segment('&x;')), { decl: '' }),
      error: /DOCTYPE with an internal subset/,
    },
    { name: 'unknown entity', doc: xliff(unit('u', segment('&nbsp;'))), error: /undefined entity/ },
    { name: 'unbound prefix', doc: xliff(unit('u', segment('a <y:b/>'))), error: /unbound namespace prefix "y"/ },
    { name: 'unsupported encoding', doc: '<?xml version="1.0" encoding="Shift_JIS"?><xliff/>', error: /unsupported XML encoding/ },
  ];

  it.each(cases)('$name → FormatError', async ({ doc, error, line }) => {
    const e = await expectFormatError(parseAll(xliff2Filter, doc), error);
    if (line !== undefined) expect(e.line).toBe(line);
    await expectFormatError(writeAll(xliff2Filter, doc, {}), error);
  });

  it('refuses a prolog that never reaches the root element', async () => {
    await expectFormatError(
      parseAll(xliff2Filter, `<?xml version="1.0"?>${'<!-- padding -->'.repeat(10_000)}<xliff/>`),
      /no root element in the first/,
    );
  });

  const deep = (depth: number) => xliff(unit('u1', segment(`${'<pc id="1">'.repeat(depth)}x${'</pc>'.repeat(depth)}`)));

  it('refuses elements nested deeper than maxDepth, naming the limit', async () => {
    await expectFormatError(parseAll(xliff2Filter, deep(100_000), { maxDepth: 64 }), /nested deeper than 64 levels/);
    await expectFormatError(parseAll(xliff2Filter, deep(1000)), /nested deeper than 512 levels/);
  });

  it('parses 100,000 nested <pc> in linear time when the limit allows it', async () => {
    const started = Date.now();
    const [parsed] = await parseAll(xliff2Filter, deep(100_000), { maxDepth: 200_000 });
    expect(parsed!.tags).toHaveLength(200_000);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reads a segment of 200,000 tags with a target of the same tags in linear time', async () => {
    const tags = Array.from({ length: 200_000 }, (_, i) => `<ph id="p${i}"/>`).join('');
    const [parsed] = await parseAll(xliff2Filter, xliff(unit('u1', segment(`w ${tags}`, `<target>W ${tags}</target>`))));
    expect(parsed!.tags).toHaveLength(200_000);
    expect(parsed!.target!.endsWith('{200000}')).toBe(true);
  });

  it('refuses a translatable source with more than twice maxTagsPerSegment tags in a row', async () => {
    const run = (n: number) => Array.from({ length: n }, (_, i) => `<ph id="${i}"/>`).join('');
    await expectFormatError(
      parseAll(xliff2Filter, xliff(unit('u1', segment(`a ${run(13)}`), ' name="k"')), { maxTagsPerSegment: 6 }),
      /^unit f1\/u1 \("k"\) has 13 inline tags in a row/,
    );
    expect(await parseAll(xliff2Filter, xliff(unit('u1', segment(`a ${run(12)}`))), { maxTagsPerSegment: 6 })).toHaveLength(1);
    expect(await parseAll(xliff2Filter, xliff(unit('u1', segment(run(13)), ' translate="no"')), { maxTagsPerSegment: 6 })).toHaveLength(1);
  });

  it('refuses a unit over the size limit while streaming', async () => {
    const big = 'x'.repeat(10_000_001);
    await expectFormatError(parseAll(xliff2Filter, xliff(unit('u1', segment(big)))), /unit "u1" is larger than 10000000 characters/);
  });
});

describe('XLIFF 2 write-back', () => {
  const doc = xliff(
    [
      unit(
        'u1',
        segment('Hello <pc id="1" type="fmt">big</pc> world<ph id="2"/>'),
        ' name="greet"',
        '      <notes>\n        <note>greeting</note>\n      </notes>\n',
      ),
      unit('u2', segment('Keep me'), ' translate="no"'),
      unit(
        'u3',
        `${segment('Old', '\n        <target xml:lang="de">Alt</target>', ' id="s1"  state=\'initial\'')}\n${segment('Two', '\n        <target/>')}`,
      ),
      unit('u4', segment('Untouched &amp; <![CDATA[raw]]>', '<target>Bleibt</target>', ' state="final"')),
    ].join('\n'),
  );

  it('writes the file back byte for byte when nothing is translated', async () => {
    for (const size of [1, 4, 1000]) expect((await writeAll(xliff2Filter, doc, {}, undefined, size)).toString()).toBe(doc);
    // With an empty map the target language changes nothing; with translations trgLang goes only where it is missing.
    expect((await writeAll(xliff2Filter, doc, {}, { targetLanguage: 'de' })).toString()).toBe(doc);
    const withTrg = xliff(unit('u1', segment('a')), { root: ' trgLang="fr"' });
    const out = (await writeAll(xliff2Filter, withTrg, { 'f1/u1/1': 'b' }, { targetLanguage: 'de' })).toString();
    expect(out).toContain('srcLang="en" trgLang="fr">');
    expect(out).not.toContain('trgLang="de"');
  });

  it('inserts or replaces targets, sets the segment state and leaves every other byte alone', async () => {
    const translations = new Map<string, UnitTranslation>([
      ['f1/u1/1', { text: 'Hallo {1>große<1} Welt{2} & <Co>' }],
      ['f1/u2/1', { text: 'ignored: not translatable' }],
      ['f1/u3/1', { text: 'Neu', confirmed: true }],
      ['f1/u3/2', { text: 'Zwei', confirmed: false }],
    ]);
    for (const size of [1, 3, 64 * 1024]) {
      const out = (await writeAll(xliff2Filter, doc, translations, { targetLanguage: 'de-AT' }, size)).toString();
      const expected = doc
        .replace('srcLang="en">', 'srcLang="en" trgLang="de-AT">')
        .replace(
          '<segment>\n        <source>Hello <pc id="1" type="fmt">big</pc> world<ph id="2"/></source>',
          '<segment state="translated">\n        <source>Hello <pc id="1" type="fmt">big</pc> world<ph id="2"/></source>\n        <target>Hallo <pc id="1" type="fmt">große</pc> Welt<ph id="2"/> &amp; &lt;Co&gt;</target>',
        )
        .replace(`id="s1"  state='initial'`, `id="s1"  state='final'`)
        .replace('<target xml:lang="de">Alt</target>', '<target xml:lang="de">Neu</target>')
        .replace(
          '<segment>\n        <source>Two</source>\n        <target/>',
          '<segment state="translated">\n        <source>Two</source>\n        <target>Zwei</target>',
        );
      expect(out).toBe(expected);
    }
  });

  it('round trips: what was written parses back as targets with the same tags', async () => {
    const units = await parseAll(xliff2Filter, doc);
    const translations = new Map(units.filter((u) => u.translatable).map((u) => [u.locator, { text: `DE ${u.source}`, confirmed: true }]));
    const again = await parseAll(xliff2Filter, await writeAll(xliff2Filter, doc, translations));
    expect(again.map((u) => [u.source, u.target, u.targetConfirmed])).toEqual(
      units.map((u) => [
        u.source,
        u.translatable ? `DE ${u.source}` : u.target,
        u.translatable || u.target !== null ? u.translatable || u.targetConfirmed : undefined,
      ]),
    );
    expect(again.map((u) => u.tags)).toEqual(units.map((u) => u.tags));
  });

  it('writes characters XML cannot hold as <cp/>, and refuses misplaced tags', async () => {
    const source = xliff(unit('u1', segment('<pc id="1">a <mrk id="m">b</mrk></pc> <sc id="3"/>c<ec startRef="3"/>')));
    const out = (await writeAll(xliff2Filter, source, { 'f1/u1/1': 'bell\u0007 {1>a {2>b<2}<1} {3>c<3}' })).toString();
    expect(out).toContain('<target>bell<cp hex="0007"/> <pc id="1">a <mrk id="m">b</mrk></pc> <sc id="3"/>c<ec startRef="3"/></target>');
    expect((await parseAll(xliff2Filter, out))[0]?.target).toBe('bell{4} {1>a {2>b<2}<1} {3>c<3}');
    await expectFormatError(
      writeAll(xliff2Filter, source, { 'f1/u1/1': '{1>a {2>b<1}<2}' }),
      /unit f1\/u1\/1 has misplaced or unbalanced tags/,
    );
    await expectFormatError(writeAll(xliff2Filter, source, { 'f1/u1/1': '<3}c{3>' }), /misplaced or unbalanced/);
    // Leaving a pair out is allowed; tokens naming no tag stay text.
    expect((await writeAll(xliff2Filter, source, { 'f1/u1/1': 'a {7} <9}' })).toString()).toContain('<target>a {7} &lt;9}</target>');
  });

  it('export attributes follow the settings (confirmed, locked)', async () => {
    const source = xliff(unit('u1', `${segment('a')}\n${segment('b', '', ' subState="x:l"')}`));
    const options = xlf2({
      importAsLockedRules: 'subState=x:l',
      exportAttrsWhenConfirmedAndNotLocked: 'state=reviewed',
      exportAttrsWhenConfirmedAndLocked: 'state=final, subState=x:done',
    });
    const out = (
      await writeAll(
        xliff2Filter,
        source,
        new Map([
          ['f1/u1/1', { text: 'A', confirmed: true }],
          ['f1/u1/2', { text: 'B', confirmed: true }],
        ]),
        options,
      )
    ).toString();
    expect(out).toContain('<segment state="reviewed">');
    expect(out).toContain('<segment subState="x:done" state="final">');
  });

  it('copySourceToTargetIfNotImported: true copies the source of untranslatable segments without target', async () => {
    const source = xliff(unit('u1', segment('Keep <ph id="1"/> me'), ' translate="no"'));
    expect((await writeAll(xliff2Filter, source, {})).toString()).toBe(source);
    const out = (await writeAll(xliff2Filter, source, {}, xlf2({ copySourceToTargetIfNotImported: true }))).toString();
    expect(out).toContain('<source>Keep <ph id="1"/> me</source>\n        <target>Keep <ph id="1"/> me</target>');
  });

  it('keeps UTF-16 (BOM included) and CRLF; ISO-8859-1 gets character references', async () => {
    const crlf = xliff(unit('u1', segment('Grüße')), { decl: '<?xml version="1.0" encoding="UTF-16"?>\n' }).replace(/\n/g, '\r\n');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(crlf, 'utf16le')]);
    expect((await writeAll(xliff2Filter, bytes, {}, undefined, 3)).equals(bytes)).toBe(true);
    const out = await writeAll(xliff2Filter, bytes, { 'f1/u1/1': 'Schöne Grüße' }, undefined, 3);
    expect(out.subarray(2).toString('utf16le')).toBe(
      crlf
        .replace('<segment>', '<segment state="translated">')
        .replace('Grüße</source>', 'Grüße</source>\r\n        <target>Schöne Grüße</target>'),
    );
    const latin = Buffer.from(xliff(unit('u1', segment('café')), { decl: '<?xml version="1.0" encoding="ISO-8859-1"?>\n' }), 'latin1');
    const written = await writeAll(xliff2Filter, latin, { 'f1/u1/1': 'café ☕' });
    expect(written.toString('latin1')).toContain('<target>café &#x2615;</target>');
  });
});

describe('XLIFF 2 schema check (OASIS xliff-core-2.0.xsd)', () => {
  const schema = xliff2Schema();
  afterAll(() => schema.dispose());
  const realistic = () => {
    const units: string[] = [];
    for (let i = 0; i < 50; i++) {
      const inline =
        i % 3 === 0
          ? `Press <pc id="1" type="fmt" dataRefStart="d1" dataRefEnd="d2">Save</pc> now<ph id="2" dataRef="d3"/>.`
          : i % 3 === 1
            ? `Start <sc id="1" type="fmt"/>bold<ec startRef="1"/> and <mrk id="m1" type="term">term</mrk>.`
            : `Plain sentence number ${i} &amp; more.`;
      const data =
        i % 3 === 0
          ? '      <originalData><data id="d1">&lt;b&gt;</data><data id="d2">&lt;/b&gt;</data><data id="d3">&lt;br/&gt;</data></originalData>\n'
          : '';
      units.push(
        `    <unit id="u${i}" name="key.${i}">\n      <notes><note>note ${i}</note></notes>\n${data}${segment(inline)}\n      <ignorable><source> </source></ignorable>\n${segment(`Second ${i}.`, i % 2 ? '\n        <target>Zweiter.</target>' : '', i % 2 ? ' state="final"' : '')}\n    </unit>`,
      );
    }
    return xliff(`    <group id="g1" name="screen">\n${units.join('\n')}\n    </group>`);
  };

  it.skipIf(schema.missing !== null)(
    `the input and the translated output validate${schema.missing ? ` — skipped: ${schema.missing} is missing` : ''}`,
    async () => {
      const doc = realistic();
      schema.validate(doc);
      const units = await parseAll(xliff2Filter, doc);
      expect(units).toHaveLength(100);
      const translations = new Map(
        units.map((u, i) => [u.locator, { text: `DE ${u.source.replace(/\bnumber\b/, '\u0001')}`, confirmed: i % 2 === 0 }] as const),
      );
      const out = (await writeAll(xliff2Filter, doc, translations, { targetLanguage: 'de' })).toString();
      schema.validate(out);
      expect(out).toContain('trgLang="de"');
      expect((await writeAll(xliff2Filter, doc, new Map())).toString()).toBe(doc);
    },
  );

  it.skipIf(schema.missing !== null)('the schema check is real: it refuses an invalid state', () => {
    expect(() => schema.validate(xliff(unit('u1', segment('a', '', ' state="done"'))))).toThrow(/xmllint rejected/);
  });
});

describe('XLIFF 2 large files', () => {
  it('streams 50,000 units with bounded batches', async () => {
    const count = 50_000;
    const parts = [`<xliff xmlns="${NS}" version="2.0" srcLang="en"><file id="f">\n`];
    for (let i = 0; i < count; i++)
      parts.push(`<unit id="u${i}"><segment><source>Sentence ${i} with <pc id="1">bold</pc>.</source></segment></unit>\n`);
    parts.push('</file></xliff>\n');
    const doc = Buffer.from(parts.join(''));
    let n = 0;
    let largest = 0;
    for await (const batch of xliff2Filter.parseBatches(streamOf(doc, 16 * 1024))) {
      n += batch.length;
      largest = Math.max(largest, batch.length);
    }
    expect(n).toBe(count);
    expect(largest).toBeLessThan(1000);
  });
});
