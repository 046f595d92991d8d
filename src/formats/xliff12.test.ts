import { describe, expect, it } from 'vitest';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import { xliff12Filter } from './xliff12.js';

const NS = 'urn:oasis:names:tc:xliff:document:1.2';

function xliff(body: string, { decl = '<?xml version="1.0" encoding="UTF-8"?>\n', files = 1 } = {}): string {
  const file = (n: number) =>
    `  <file original="f${n}.txt" source-language="en" target-language="de" datatype="plaintext">\n    <body>\n${body}\n    </body>\n  </file>\n`;
  return `${decl}<xliff version="1.2" xmlns="${NS}">\n${Array.from({ length: files }, (_, i) => file(i + 1)).join('')}</xliff>\n`;
}

function unit(id: string, source: string, extra = '', attrs = ''): string {
  return `      <trans-unit id="${id}"${attrs}>\n        <source>${source}</source>${extra}\n      </trans-unit>`;
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

describe('XLIFF 1.2 parse', () => {
  const cases: {
    name: string;
    body: string;
    expected: {
      key: string | null;
      source: string;
      target?: string | null;
      translatable?: boolean;
      note?: string | null;
      originals?: string[];
    }[];
  }[] = [
    { name: 'plain source, key from id', body: unit('u1', 'Hello world'), expected: [{ key: 'u1', source: 'Hello world' }] },
    {
      name: 'resname is the key',
      body: unit('u1', 'Hi', '', ' resname="home.title"'),
      expected: [{ key: 'home.title', source: 'Hi' }],
    },
    {
      name: 'entities and CDATA become text',
      body: unit('u1', 'A &amp; B &lt;c&gt; <![CDATA[<raw> & ]]>&#x263A;'),
      expected: [{ key: 'u1', source: 'A & B <c> <raw> & \u263a' }],
    },
    {
      name: '<g> is a pair, <x/> standalone',
      body: unit('u1', 'Click <g id="1" ctype="bold">here</g> now<x id="2" ctype="lb"/>'),
      expected: [
        { key: 'u1', source: 'Click {1>here<1} now{2}', originals: ['<g id="1" ctype="bold">', '</g>', '<x id="2" ctype="lb"/>'] },
      ],
    },
    {
      name: 'bpt/ept pair by id, content kept in the markup',
      body: unit('u1', '<bpt id="1">&lt;b&gt;</bpt>bold<ept id="1">&lt;/b&gt;</ept> text'),
      expected: [{ key: 'u1', source: '{1>bold<1} text', originals: ['<bpt id="1">&lt;b&gt;</bpt>', '<ept id="1">&lt;/b&gt;</ept>'] }],
    },
    {
      name: 'bx/ex pair by rid; ph and it standalone',
      body: unit('u1', '<bx id="1" rid="7"/>a<ex id="2" rid="7"/> <ph id="3">{0}</ph> <it id="4" pos="open">&lt;u&gt;</it>'),
      expected: [
        {
          key: 'u1',
          source: '{1>a<1} {2} {3}',
          originals: ['<bx id="1" rid="7"/>', '<ex id="2" rid="7"/>', '<ph id="3">{0}</ph>', '<it id="4" pos="open">&lt;u&gt;</it>'],
        },
      ],
    },
    {
      name: 'nested pairs and <mrk>; an empty <g/> is standalone',
      body: unit('u1', '<g id="1">a <mrk mtype="term" mid="m1">b <g id="2">c</g></mrk></g><g id="3"/>'),
      expected: [{ key: 'u1', source: '{1>a {2>b {3>c<3}<2}<1}{4}' }],
    },
    {
      name: '<sub> inside a code element stays in its markup',
      body: unit('u1', 'x <ph id="1">&lt;img alt="<sub>Alt text</sub>"&gt;</ph> y'),
      expected: [{ key: 'u1', source: 'x {1} y', originals: ['<ph id="1">&lt;img alt="<sub>Alt text</sub>"&gt;</ph>'] }],
    },
    {
      name: 'an unmatched ept is standalone',
      body: unit('u1', 'end<ept id="5">&lt;/b&gt;</ept>'),
      expected: [{ key: 'u1', source: 'end{1}' }],
    },
    {
      name: 'translate="no" on the unit and inherited from a group',
      body: `${unit('a', 'A', '', ' translate="no"')}\n<group translate="no">${unit('b', 'B')}${unit('c', 'C', '', ' translate="yes"')}</group>\n${unit('d', 'D')}`,
      expected: [
        { key: 'a', source: 'A', translatable: false },
        { key: 'b', source: 'B', translatable: false },
        { key: 'c', source: 'C', translatable: true },
        { key: 'd', source: 'D', translatable: true },
      ],
    },
    {
      name: 'existing target; its tags reuse the source numbers, new ones follow',
      body: unit('u1', 'a <g id="1">b</g>', '<target state="needs-review-translation">A <g id="1">B</g><x id="8"/></target>'),
      expected: [{ key: 'u1', source: 'a {1>b<1}', target: 'A {1>B<1}{2}' }],
    },
    {
      name: 'notes are joined; alt-trans source/target ignored',
      body: unit(
        'u1',
        'S',
        '<note from="dev">First</note><note>Second</note><alt-trans><source>Other</source><target>Andere</target></alt-trans>',
      ),
      expected: [{ key: 'u1', source: 'S', target: null, note: 'First\nSecond' }],
    },
    {
      name: 'white space inside <source> is kept',
      body: unit('u1', '  two  spaces\n  '),
      expected: [{ key: 'u1', source: '  two  spaces\n  ' }],
    },
  ];

  it.each(cases)('$name', async ({ body, expected }) => {
    const units = await parseAll(xliff12Filter, xliff(body));
    expect(units.map((u) => ({ key: u.key, source: u.source }))).toEqual(expected.map((e) => ({ key: e.key, source: e.source })));
    expected.forEach((e, i) => {
      const got = units[i];
      expect(got?.index).toBe(i);
      if (e.target !== undefined) expect(got?.target).toBe(e.target);
      if (e.translatable !== undefined) expect(got?.translatable).toBe(e.translatable);
      if (e.note !== undefined) expect(got?.note).toBe(e.note);
      if (e.originals) expect(got?.tags.map((t) => t.original)).toEqual(e.originals);
    });
  });

  it('gives the same units whatever the chunk size', async () => {
    const doc = xliff(cases.map((c, i) => c.body.replace(/id="(\w+)"(?=[^<]*>\n\s*<source)/g, `id="c${i}-$1"`)).join('\n'));
    const reference = await parseAll(xliff12Filter, doc);
    expect(reference.length).toBeGreaterThan(15);
    for (const size of [1, 2, 3, 7, 100]) expect(await parseAll(xliff12Filter, doc, {}, size)).toEqual(reference);
  });

  it('locates units by file number and id, so equal ids in two files stay apart', async () => {
    const units = await parseAll(xliff12Filter, xliff(unit('1', 'x'), { files: 2 }));
    expect(units.map((u) => u.locator)).toEqual(['1:1', '2:1']);
  });

  it('can leave notes out (importNotes: false)', async () => {
    const [u] = await parseAll(xliff12Filter, xliff(unit('1', 'x', '<note>n</note>')), { importNotes: false });
    expect(u?.note).toBeNull();
  });

  it('reads prefixed XLIFF elements and skips foreign ones', async () => {
    const doc =
      `<x:xliff xmlns:x="${NS}" xmlns:o="urn:other" version="1.2"><x:file original="a" source-language="en" datatype="plaintext"><x:body>` +
      '<x:trans-unit id="1"><o:source>not this</o:source><x:source>A <o:b>c</o:b></x:source></x:trans-unit></x:body></x:file></x:xliff>';
    const [u] = await parseAll(xliff12Filter, doc);
    expect(u?.source).toBe('A {1}');
    expect(u?.tags[0]?.original).toBe('<o:b>c</o:b>');
    const out = (await writeAll(xliff12Filter, doc, { '1:1': 'B {1}' })).toString();
    expect(out).toContain('<x:source>A <o:b>c</o:b></x:source><x:target state="translated">B <o:b>c</o:b></x:target></x:trans-unit>');
  });

  it('reads UTF-16 with a BOM', async () => {
    const doc = xliff(unit('1', 'Grüße ☺'), { decl: '<?xml version="1.0" encoding="UTF-16"?>\n' });
    for (const bytes of [
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doc, 'utf16le')]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(doc, 'utf16le').swap16()]),
    ]) {
      const [u] = await parseAll(xliff12Filter, bytes, {}, 5);
      expect(u?.source).toBe('Grüße ☺');
    }
  });
});

describe('XLIFF 1.2 malformed and hostile files', () => {
  const cases: { name: string; doc: string; error: RegExp; line?: number }[] = [
    { name: 'unclosed element', doc: xliff(unit('1', 'a <g id="1">b')), error: /malformed XML/, line: 6 },
    { name: 'not XML at all', doc: 'hello', error: /malformed XML|no root/ },
    { name: 'empty file', doc: '', error: /root element/ },
    { name: 'another root element', doc: '<html><body/></html>', error: /not an XLIFF document/ },
    {
      name: 'XLIFF 2.0',
      doc: '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0"><file id="f"/></xliff>',
      error: /only XLIFF 1.2/,
    },
    { name: 'trans-unit without id', doc: xliff('<trans-unit><source>a</source></trans-unit>'), error: /without an id/ },
    { name: 'duplicate id in one file', doc: xliff(`${unit('1', 'a')}${unit('1', 'b')}`), error: /used twice/ },
    {
      name: 'trans-unit without source',
      doc: xliff('<trans-unit id="1"><target>a</target></trans-unit>'),
      error: /before its <source>|no <source>/,
    },
    {
      name: 'entity bomb (internal subset)',
      doc:
        '<?xml version="1.0"?>\n<!DOCTYPE xliff [\n<!ENTITY a "aaaaaaaaaa">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n' +
        xliff(unit('1', '&c;&c;&c;'), { decl: '' }),
      error: /DOCTYPE with an internal subset/,
    },
    {
      name: 'external entity (XXE) is never read',
      doc:
        '<?xml version="1.0"?>\n<!DOCTYPE xliff [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n' + xliff(unit('1', '&xxe;'), { decl: '' }),
      error: /DOCTYPE with an internal subset/,
    },
    {
      name: 'reference to an entity no one declared',
      doc: '<!DOCTYPE xliff SYSTEM "http://example.invalid/x.dtd">\n' + xliff(unit('1', '&xxe;'), { decl: '' }),
      error: /undefined entity/,
    },
    {
      name: 'unsupported declared encoding',
      doc: '<?xml version="1.0" encoding="Shift_JIS"?><xliff version="1.2"/>',
      error: /unsupported XML encoding "shift_jis"/,
    },
  ];

  it.each(cases)('$name → FormatError', async ({ doc, error, line }) => {
    const e = await expectFormatError(parseAll(xliff12Filter, doc), error);
    if (line !== undefined) expect(e.line).toBe(line);
    await expectFormatError(writeAll(xliff12Filter, doc, {}), error);
  });

  it('refuses invalid UTF-8', async () => {
    const doc = Buffer.concat([Buffer.from(xliff(unit('1', 'a')).slice(0, 200)), Buffer.from([0xc3, 0x28])]);
    await expectFormatError(parseAll(xliff12Filter, doc), /not valid UTF-8/);
  });

  it('refuses a prolog that never reaches the root element', async () => {
    await expectFormatError(
      parseAll(xliff12Filter, `<?xml version="1.0"?>${'<!-- padding -->'.repeat(10_000)}<xliff version="1.2"/>`),
      /no root element in the first/,
    );
  });

  it('reads a DOCTYPE without internal subset (and ignores it)', async () => {
    const [u] = await parseAll(
      xliff12Filter,
      '<!DOCTYPE xliff PUBLIC "-//XLIFF//DTD XLIFF//EN" "http://www.oasis-open.org/committees/xliff/documents/xliff.dtd">\n' +
        xliff(unit('1', 'ok'), { decl: '' }),
    );
    expect(u?.source).toBe('ok');
  });
});

describe('XLIFF 1.2 write-back', () => {
  const doc = xliff(
    [
      unit('1', 'Hello <g id="1" ctype="bold">big</g> world<x id="2"/>', '\n        <note>greeting</note>', ' resname="greet"'),
      unit('2', 'Keep me', '', ' translate="no"'),
      unit('3', 'Old', '\n        <target xml:lang="de" state="needs-translation" state-qualifier="exact-match">Alt</target>'),
      unit('4', 'Untouched &amp; <![CDATA[raw]]>', '<target>Bleibt</target>'),
      '      <trans-unit id="5"><source>One</source><seg-source><mrk mtype="seg" mid="0">One</mrk></seg-source></trans-unit>',
    ].join('\n'),
  );

  it('writes the file back byte for byte when nothing is translated', async () => {
    for (const size of [1, 4, 1000]) expect((await writeAll(xliff12Filter, doc, {}, undefined, size)).toString()).toBe(doc);
  });

  it('inserts or replaces targets and leaves every other byte alone', async () => {
    const translations = { '1:1': 'Hallo {1>große<1} Welt{2} & <Co>', '1:2': 'ignored: not translatable', '1:3': 'Neu', '1:5': 'Eins' };
    for (const size of [1, 3, 64 * 1024]) {
      const out = (await writeAll(xliff12Filter, doc, translations, undefined, size)).toString();
      const expected = doc
        .replace(
          'world<x id="2"/></source>',
          'world<x id="2"/></source>\n        <target state="translated">Hallo <g id="1" ctype="bold">große</g> Welt<x id="2"/> &amp; &lt;Co&gt;</target>',
        )
        .replace(
          '<target xml:lang="de" state="needs-translation" state-qualifier="exact-match">Alt</target>',
          '<target xml:lang="de" state="translated" state-qualifier="exact-match">Neu</target>',
        )
        .replace('</seg-source>', '</seg-source><target state="translated">Eins</target>');
      expect(out).toBe(expected);
    }
  });

  it('round trips: what was written parses back as targets', async () => {
    const units = await parseAll(xliff12Filter, doc);
    const translations = Object.fromEntries(units.filter((u) => u.translatable).map((u) => [u.locator, `DE ${u.source}`]));
    const again = await parseAll(xliff12Filter, await writeAll(xliff12Filter, doc, translations));
    expect(again.map((u) => [u.source, u.target])).toEqual(units.map((u) => [u.source, u.translatable ? `DE ${u.source}` : u.target]));
    expect(again.map((u) => u.tags)).toEqual(units.map((u) => u.tags));
  });

  it('writes xml:lang on inserted targets when the target language is given', async () => {
    const out = (await writeAll(xliff12Filter, xliff(unit('1', 'a')), { '1:1': 'b' }, { targetLanguage: 'de-AT' })).toString();
    expect(out).toContain('<target xml:lang="de-AT" state="translated">b</target>');
  });

  it('refuses a translation whose pair tags are misnested or half gone', async () => {
    const source = xliff(unit('1', '<g id="1">a <mrk mtype="term" mid="m">b</mrk></g>'));
    await expectFormatError(writeAll(xliff12Filter, source, { '1:1': '{1>a {2>b<1}<2}' }), /unit 1:1 has misplaced or unbalanced tags/);
    await expectFormatError(writeAll(xliff12Filter, source, { '1:1': '{1>a b' }), /unbalanced/);
    // Leaving a whole pair out is well-formed and allowed.
    expect((await writeAll(xliff12Filter, source, { '1:1': '{1>a b<1}' })).toString()).toContain(
      '<target state="translated"><g id="1">a b</g></target>',
    );
  });

  it('keeps tokens that name no tag of the unit as literal text', async () => {
    const out = (await writeAll(xliff12Filter, xliff(unit('1', 'a<x id="1"/>')), { '1:1': 'b{1} {7} <1}' })).toString();
    expect(out).toContain('<target state="translated">b<x id="1"/> {7} &lt;1}</target>');
  });

  it('refuses characters XML cannot hold', async () => {
    await expectFormatError(writeAll(xliff12Filter, xliff(unit('1', 'a')), { '1:1': 'bell\u0007' }), /character XML cannot hold/);
  });

  it('keeps UTF-16 (BOM included) and CRLF line ends', async () => {
    const crlf = xliff(unit('1', 'Grüße'), { decl: '<?xml version="1.0" encoding="UTF-16"?>\n' }).replace(/\n/g, '\r\n');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(crlf, 'utf16le')]);
    expect((await writeAll(xliff12Filter, bytes, {}, undefined, 3)).equals(bytes)).toBe(true);
    const out = await writeAll(xliff12Filter, bytes, { '1:1': 'Schöne Grüße' }, undefined, 3);
    expect(out.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfe]));
    const text = out.subarray(2).toString('utf16le');
    expect(text).toBe(crlf.replace('Grüße</source>', 'Grüße</source>\r\n        <target state="translated">Schöne Grüße</target>'));
  });

  it('writes characters an ISO-8859-1 file cannot hold as character references', async () => {
    const latin = xliff(unit('1', 'café'), { decl: '<?xml version="1.0" encoding="ISO-8859-1"?>\n' });
    const bytes = Buffer.from(latin, 'latin1');
    const [u] = await parseAll(xliff12Filter, bytes);
    expect(u?.source).toBe('café');
    const out = await writeAll(xliff12Filter, bytes, { '1:1': 'café ☕' });
    expect(out.toString('latin1')).toContain('<target state="translated">café &#x2615;</target>');
    expect((await parseAll(xliff12Filter, out))[0]?.target).toBe('café ☕');
  });
});

describe('XLIFF 1.2 large files', () => {
  it('streams 50,000 trans-units', async () => {
    const units = 50_000;
    function* parts(): Generator<string> {
      yield `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="${NS}"><file original="big" source-language="en" datatype="plaintext"><body>\n`;
      for (let i = 0; i < units; i += 1)
        yield `<trans-unit id="u${i}"><source>Sentence number ${i} with <g id="1">bold</g> text.</source></trans-unit>\n`;
      yield '</body></file></xliff>\n';
    }
    const doc = Buffer.from([...parts()].join(''));
    let count = 0;
    let last = '';
    for await (const u of xliff12Filter.parse((await import('./testing.js')).streamOf(doc, 16 * 1024))) {
      count += 1;
      last = u.source;
    }
    expect(count).toBe(units);
    expect(last).toBe(`Sentence number ${units - 1} with {1>bold<1} text.`);
  });
});

describe('XLIFF 1.2 on hostile input (linear time, the nesting limit)', () => {
  const deep = (depth: number) => xliff(unit('u1', `${'<g id="1">'.repeat(depth)}x${'</g>'.repeat(depth)}`));

  it('refuses elements nested deeper than maxDepth, naming the limit', async () => {
    await expectFormatError(parseAll(xliff12Filter, deep(100_000), { maxDepth: 64 }), /nested deeper than 64 levels/);
  });

  it('parses 100,000 nested <g> in linear time when the limit allows it (namespaces resolved per element in O(1))', async () => {
    const [parsed] = await parseAll(xliff12Filter, deep(100_000), { maxDepth: 200_000 });
    expect(parsed!.tags).toHaveLength(200_000);
    expect(parsed!.source.startsWith('{1>{2>')).toBe(true);
  });

  it('resolves namespaces declared deep inside, and forgets them when their element closes', async () => {
    const doc =
      `<x:xliff xmlns:x="${NS}" version="1.2"><x:file original="a" source-language="en" datatype="plaintext"><x:body>` +
      `<x:trans-unit id="1"><x:source>a <x:g id="1" xmlns:x="urn:other">b</x:g> c</x:source></x:trans-unit>` +
      `<x:trans-unit id="2"><x:source>d <x:g id="1">e</x:g></x:source></x:trans-unit>` +
      `</x:body></x:file></x:xliff>`;
    const units = await parseAll(xliff12Filter, doc);
    // In unit 1, x:g is in another namespace (a foreign element: one standalone tag); in unit 2 it is XLIFF's <g> again.
    expect(units.map((u) => u.source)).toEqual(['a {1} c', 'd {1>e<1}']);
  });

  it('refuses an element with an unbound prefix', async () => {
    await expectFormatError(parseAll(xliff12Filter, xliff(unit('u1', 'a <y:b/> c'))), /unbound namespace prefix "y"/);
  });

  it('reads a unit of 200,000 tags, with a target of the same tags, in linear time', async () => {
    const tags = Array.from({ length: 200_000 }, (_, i) => `<x id="${i}"/>`).join('');
    const [parsed] = await parseAll(xliff12Filter, xliff(unit('u1', `word ${tags}`, `<target>Wort ${tags}</target>`)));
    expect(parsed!.tags).toHaveLength(200_000);
    expect(parsed!.target!.endsWith('{200000}')).toBe(true);
  });

  it('refuses a translatable source with more than twice maxTagsPerSegment tags in a row, and nothing else', async () => {
    const run = (count: number, from = 1) => Array.from({ length: count }, (_, i) => `<x id="${from + i}"/>`).join('');
    const options = { maxTagsPerSegment: 6 };
    await expectFormatError(
      parseAll(xliff12Filter, xliff(unit('u1', `a ${run(13)}`, '', ' resname="k"')), options),
      /^unit 1:u1 \("k"\) has 13 inline tags in a row, more than twice the import's limit of 6 tags per segment/,
    );
    // Exactly twice the limit, runs broken by text, untranslatable units, targets and no limit: read as before.
    expect(await parseAll(xliff12Filter, xliff(unit('u1', `a ${run(12)}`)), options)).toHaveLength(1);
    expect(await parseAll(xliff12Filter, xliff(unit('u1', `${run(7)}b${run(7, 8)}`)), options)).toHaveLength(1);
    expect(await parseAll(xliff12Filter, xliff(unit('u1', run(13), '', ' translate="no"')), options)).toHaveLength(1);
    expect(await parseAll(xliff12Filter, xliff(unit('u1', 'a', `<target>${run(13)}</target>`)), options)).toHaveLength(1);
    expect(await parseAll(xliff12Filter, xliff(unit('u1', run(13))))).toHaveLength(1);
  });
});
