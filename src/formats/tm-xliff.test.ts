import { describe, expect, it } from 'vitest';
import { streamOf } from './testing.js';
import type { TmReadOptions, TmUnit } from './tm-formats.js';
import { emptyXliffTmStats, readXliffTm, tagsOfDisplayTokens } from './tm-xliff.js';
import type { XliffTmReadOptions } from './tm-xliff.js';
import { writeTmx, readTmx } from './tmx.js';
import type { TmxUnit, TmxWarning } from './tmx.js';
import { FormatError } from './types.js';
import { Readable, Writable } from 'node:stream';

async function readAll(input: Readable, options?: XliffTmReadOptions): Promise<TmUnit[]> {
  const units: TmUnit[] = [];
  for await (const batch of readXliffTm(input, options)) units.push(...batch);
  return units;
}

function read(text: string, options?: TmReadOptions, chunkSize = 7): Promise<TmUnit[]> {
  return readAll(streamOf(text, chunkSize), options);
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

const SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:foo="urn:foo">
  <file original="app.json" source-language="en_us" target-language="de-de" datatype="plaintext">
    <body>
      <trans-unit id="1" resname="greeting.hello">
        <source>Press <g id="b1" ctype="bold">Save</g> now<x id="br"/> &amp; <bpt id="5">&lt;i&gt;</bpt>go<ept id="5">&lt;/i&gt;</ept></source>
        <target state="translated">Drücken Sie <g id="b1" ctype="bold">Speichern</g><x id="br"/> <bpt id="5">&lt;i&gt;</bpt>los<ept id="5">&lt;/i&gt;</ept></target>
        <note>A note</note>
        <alt-trans><source>Alt</source><target>Nicht das</target></alt-trans>
      </trans-unit>
      <group id="g" translate="no">
        <trans-unit id="2"><source>Locked</source><target>Gesperrt</target></trans-unit>
      </group>
      <trans-unit id="3"><source>No target</source></trans-unit>
      <trans-unit id="4"><source>Empty target</source><target>  </target></trans-unit>
      <trans-unit id="5"><source>Draft <ph id="p">%s</ph><foo:bar a="1">x</foo:bar></source><target state="needs-review-translation">Entwurf <ph id="p">%s</ph></target></trans-unit>
      <trans-unit id="6" approved="yes"><source>Approved <mrk mtype="term" mid="m1">term</mrk></source><target><mrk mtype="term" mid="m1">Begriff</mrk> genehmigt <x id="new"/></target></trans-unit>
      <trans-unit id="7"><source>Final</source><target state="final">Endgültig</target></trans-unit>
    </body>
  </file>
  <file original="b" source-language="xx-nope" target-language="fr">
    <body><trans-unit id="1"><source>Skipped</source><target>Sauté</target></trans-unit></body>
  </file>
  <file original="c" source-language="en">
    <body>
      <trans-unit id="1"><source>Target language from the target</source><target xml:lang="fr_FR">Langue de la cible</target></trans-unit>
    </body>
  </file>
</xliff>
`;

describe('XLIFF as a TM source', () => {
  it('reads translated units with languages, tags, state, key and notes', async () => {
    const warnings: TmxWarning[] = [];
    const stats = emptyXliffTmStats();
    const units = await read(SAMPLE, { warnings, stats });
    expect(units.map((unit) => unit.tuid)).toEqual(['1', '5', '6', '7', '1']);
    const [first, draft, approved, final, french] = units as [TmUnit, TmUnit, TmUnit, TmUnit, TmUnit];
    expect(first).toMatchObject({ sourceLang: 'en-US', contextKey: 'greeting.hello', notes: ['A note'] });
    const [en, de] = first.variants;
    expect(en).toMatchObject({ lang: 'en-US', text: 'Press {1>Save<1} now{2} & {3>go<3}' });
    expect(en!.tags.map((tag) => [tag.display, tag.original])).toEqual([
      ['{1>', '<g id="b1" ctype="bold">'],
      ['<1}', '</g>'],
      ['{2}', '<x id="br"/>'],
      ['{3>', '<bpt id="5">&lt;i&gt;</bpt>'],
      ['<3}', '<ept id="5">&lt;/i&gt;</ept>'],
    ]);
    expect(en!.state).toBeUndefined();
    expect(de).toMatchObject({ lang: 'de-DE', text: 'Drücken Sie {1>Speichern<1}{2} {3>los<3}', state: 'translated', confirmed: true });
    expect(de!.tags).toHaveLength(5);

    expect(draft.variants[0]!.text).toBe('Draft {1}{2}');
    expect(draft.variants[0]!.tags.map((tag) => tag.original)).toEqual(['<ph id="p">%s</ph>', '<foo:bar a="1">x</foo:bar>']);
    expect(draft.variants[1]).toMatchObject({ text: 'Entwurf {1}', state: 'needs-review-translation', confirmed: false });

    expect(approved.variants[0]!.text).toBe('Approved {1>term<1}');
    // A target-only tag is numbered after the source's.
    expect(approved.variants[1]).toMatchObject({ text: '{1>Begriff<1} genehmigt {2}', confirmed: true });
    expect(approved.variants[1]!.state).toBeUndefined();
    expect(final.variants[1]).toMatchObject({ state: 'final', confirmed: true });
    expect(french).toMatchObject({ sourceLang: 'en', variants: [{ lang: 'en' }, { lang: 'fr-FR', text: 'Langue de la cible' }] });

    expect(warnings.map((warning) => warning.message)).toEqual([expect.stringMatching(/"xx-nope".*skipped/)]);
    expect(stats).toEqual({ transUnits: 9, units: 5, withoutTarget: 2, notConfirmed: 0, untranslatable: 1, inSkippedFiles: 1 });
  });

  it('confirmedOnly keeps approved, translated, signed-off and final targets', async () => {
    const stats = emptyXliffTmStats();
    const units = await read(SAMPLE, { confirmedOnly: true, stats });
    expect(units.map((unit) => unit.variants[1]!.text)).toEqual([
      'Drücken Sie {1>Speichern<1}{2} {3>los<3}',
      '{1>Begriff<1} genehmigt {2}',
      'Endgültig',
    ]);
    expect(stats.notConfirmed).toBe(2);
  });

  it('reads MXLIFF: m:confirmed, stamps, and display tokens in the text with their codes from the metadata', async () => {
    const mxliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:m="http://www.memsource.com/mxlf/2.0" version="1.2" m:version="2.0" m:level="1">
<file original="doc.docx" source-language="en" target-language="de" datatype="x-undefined" m:task-id="abc">
<body>
<group id="0" m:para-id="0">
<trans-unit id="abc:0" xml:space="preserve" m:trans-origin="tm" m:score="1.0" m:confirmed="1" m:locked="false" m:para-id="0" m:created-at="1704067200000" m:created-by="ann" m:modified-at="1706745600000" m:modified-by="bob">
<source>Click {1>here&lt;1} {2} {b>now&lt;b}</source>
<target>Klicken Sie {1>hier&lt;1} {2} {b>jetzt&lt;b}</target>
<m:tunit-metadata><m:mark id="1"><m:type>code</m:type><m:content>&lt;a href="x"&gt;</m:content></m:mark><m:mark id="2"><m:type>code</m:type><m:content>&lt;br/&gt;</m:content></m:mark></m:tunit-metadata>
<m:tunit-target-metadata><m:mark id="1"><m:type>code</m:type><m:content>&lt;a href="y"&gt;</m:content></m:mark></m:tunit-target-metadata>
</trans-unit>
<trans-unit id="abc:1" m:confirmed="0" m:created-at="0"><source>Unconfirmed</source><target>Unbestätigt</target></trans-unit>
</group>
</body>
</file>
</xliff>`;
    const all = await read(mxliff);
    expect(all).toHaveLength(2);
    const units = await read(mxliff, { confirmedOnly: true });
    expect(units).toHaveLength(1);
    const unit = units[0]!;
    expect(unit).toMatchObject({
      tuid: 'abc:0',
      sourceLang: 'en',
      creationDate: '20240101T000000Z',
      creationId: 'ann',
      changeDate: '20240201T000000Z',
      changeId: 'bob',
    });
    const [source, target] = unit.variants as [TmUnit['variants'][0], TmUnit['variants'][0]];
    expect(source.text).toBe('Click {1>here<1} {2} {b>now<b}');
    expect(source.tags.map((tag) => [tag.display, tag.original])).toEqual([
      ['{1>', '<bpt>&lt;a href="x"&gt;</bpt>'],
      ['<1}', '<ept/>'],
      ['{2}', '<ph>&lt;br/&gt;</ph>'],
    ]);
    expect(target).toMatchObject({ lang: 'de', confirmed: true });
    expect(target.tags.map((tag) => tag.original)).toEqual(['<bpt>&lt;a href="y"&gt;</bpt>', '<ept/>', '<ph>&lt;br/&gt;</ph>']);
    expect(all[1]!.creationDate).toBeUndefined();

    // The units go into TMX as they are, tags and all.
    const parts: Buffer[] = [];
    await writeTmx(
      units,
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          parts.push(chunk);
          done();
        },
      }),
      { srcLang: 'en' },
    );
    const back: TmxUnit[] = [];
    for await (const batch of readTmx(streamOf(Buffer.concat(parts)))) back.push(...batch);
    expect(back[0]!.variants.map((variant) => variant.text)).toEqual([source.text, target.text]);
    expect(back[0]!.variants[0]!.tags.map((tag) => tag.original)).toEqual(source.tags.map((tag) => tag.original));
  });

  it('yields batches of at most batchSize', async () => {
    const units = Array.from({ length: 25 }, (_, i) => `<trans-unit id="u${i}"><source>S${i}</source><target>T${i}</target></trans-unit>`);
    const xliff = `<xliff version="1.2"><file source-language="en" target-language="de"><body>${units.join('')}</body></file></xliff>`;
    const sizes: number[] = [];
    for await (const batch of readXliffTm(streamOf(xliff, 1 << 20), { batchSize: 10 })) sizes.push(batch.length);
    expect(sizes).toEqual([10, 10, 5]);
  });

  it('a malformed file is a FormatError with line and column; other documents are refused', async () => {
    const error = await expectFormatError(
      read('<xliff version="1.2">\n<file source-language="en" target-language="de"><body>\n<trans-unit id="1"><source>a</target>'),
      /malformed XML/,
    );
    expect(error.line).toBe(3);
    expect(error.column).toBeGreaterThan(1);
    await expectFormatError(read('<tmx version="1.4"/>'), /not an XLIFF document/);
    await expectFormatError(read('<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0"/>'), /only XLIFF 1\.2/);
    await expectFormatError(read('<!DOCTYPE x [<!ENTITY a "b">]><xliff version="1.2"/>'), /DOCTYPE/);
    await expectFormatError(read(''), /root element/);
  });

  it('makes tags of display tokens written as text', () => {
    const tags = tagsOfDisplayTokens('{1>a<1} {2} {01} {x} <3} {1>');
    expect(tags.map((tag) => [tag.id, tag.kind, tag.original])).toEqual([
      [1, 'open', '<bpt/>'],
      [1, 'close', '<ept/>'],
      [2, 'standalone', '<ph/>'],
      [3, 'close', '<ept/>'],
    ]);
  });
});

describe('XLIFF TM memory', () => {
  it('reads 200,000 generated trans-units with flat memory', async () => {
    const count = 200_000;
    function* generate(): Generator<string> {
      yield '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2"><file source-language="en-US" target-language="de-DE"><body>\n';
      for (let at = 0; at < count; at += 500) {
        let chunk = '';
        for (let i = at; i < at + 500; i++) {
          chunk +=
            `<trans-unit id="${i}" resname="key.${i}"><source>Source sentence number ${i} with <g id="1">bold</g> text.</source>` +
            `<target state="translated">Ausgangssatz Nummer ${i} mit <g id="1">fettem</g> Text.</target></trans-unit>\n`;
        }
        yield chunk;
      }
      yield '</body></file></xliff>\n';
    }
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let seen = 0;
    let last = '';
    for await (const batch of readXliffTm(Readable.from(generate()), { batchSize: 5000 })) {
      seen += batch.length;
      last = batch[batch.length - 1]!.variants[1]!.text;
      if (seen % 10_000 < batch.length) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    expect(seen).toBe(count);
    expect(last).toBe(`Ausgangssatz Nummer ${count - 1} mit {1>fettem<1} Text.`);
    // The file is ≈ 45 MB; holding all its units would take several hundred MB of heap.
    expect(peak - before).toBeLessThan(128 * 1024 * 1024);
  }, 60_000);
});
