import { describe, expect, it } from 'vitest';
import { mxliffJobFilter } from './mxliff-job.js';
import { readMxliff } from './mxliff.js';
import { parseAll, streamOf, writeAll } from './testing.js';
import { FormatError } from './types.js';

const FILE = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:m="http://www.memsource.com/mxlf/2.0" version="1.2" m:version="2.17">
  <file original="a.docx" source-language="en" target-language="de" datatype="x-undefined" m:task-id="T1">
    <body>
      <group id="0" m:para-id="0">
        <trans-unit id="T1:0" xml:space="preserve" m:trans-origin="tm" m:score="1.01" m:locked="true" m:confirmed="1">
          <source>Click {1>here&lt;1} now</source>
          <target>Hier {1>klicken&lt;1}</target>
          <context-group name="x-key" purpose="information"><context context-type="x-key">btn.click</context></context-group>
        </trans-unit>
      </group>
      <group id="1" m:para-id="1">
        <trans-unit m:confirmed="0" id="T1:1">
          <source>Second {1}</source>
          <target/>
        </trans-unit>
      </group>
      <group id="2" m:para-id="1">
        <trans-unit id="T1:2">
          <source>Third</source>
        </trans-unit>
      </group>
    </body>
  </file>
</xliff>
`;

describe('MXLIFF as a job file', () => {
  it('reads trans-units with brace tags as tags, and the file state', async () => {
    const units = await parseAll(mxliffJobFilter, FILE, {}, 13);
    expect(units.map((u) => [u.locator, u.key, u.source, u.target, u.tags.map((t) => t.display)])).toEqual([
      ['T1:0', 'btn.click', 'Click {1>here<1} now', 'Hier {1>klicken<1}', ['{1>', '<1}']],
      ['T1:1', null, 'Second {1}', null, ['{1}']],
      ['T1:2', null, 'Third', null, []],
    ]);
    expect(units[0]).toMatchObject({ targetConfirmed: true, locked: true, matchScore: 1.01, origin: 'tm' });
    expect(units[1]!.targetConfirmed).toBeUndefined();
  });

  it('writes nothing new without translations, byte for byte', async () => {
    expect((await writeAll(mxliffJobFilter, FILE, new Map(), {}, 7)).toString('utf8')).toBe(FILE);
  });

  it('writes translations into existing, empty and missing targets, with m:confirmed', async () => {
    const out = await writeAll(
      mxliffJobFilter,
      FILE,
      new Map([
        ['T1:0', { text: 'Jetzt {1>hier<1} klicken', confirmed: false }],
        ['T1:1', { text: 'Zweite {1} & mehr', confirmed: true }],
        ['T1:2', { text: 'Dritte' }],
      ]),
    );
    const text = out.toString('utf8');
    expect(text).toContain('m:locked="true" m:confirmed="0">');
    expect(text).toContain('<trans-unit m:confirmed="1" id="T1:1">');
    expect(text).toContain('<target>Zweite {1} &amp; mehr</target>');
    expect(text).toContain('<source>Third</source>\n          <target>Dritte</target>');
    const [job] = await readMxliff(streamOf(out));
    expect(job!.segments.map((s) => [s.target, s.confirmedLevel])).toEqual([
      ['Jetzt {1>hier<1} klicken', 0],
      ['Zweite {1} & mehr', 1],
      ['Dritte', 0],
    ]);
  });

  it.each([
    ['<xliff version="1.2"/>', /not an MXLIFF file/],
    [FILE.replace('id="T1:1"', 'id="T1:0"'), /occurs twice/],
    [FILE.replace('<source>Third</source>', '<source>Th<b>ir</b>d</source>'), /holds markup/],
    [`<!DOCTYPE x [<!ENTITY e "x">]>${FILE.slice(FILE.indexOf('<xliff'))}`, /internal subset/],
  ])('refuses a broken file %#', async (xml, message) => {
    const failure = await parseAll(mxliffJobFilter, xml).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FormatError);
    expect((failure as Error).message).toMatch(message);
  });

  it('is recognized by content', () => {
    expect(mxliffJobFilter.detect!(Buffer.from(FILE))).toBe(true);
    expect(mxliffJobFilter.detect!(Buffer.from('<xliff version="1.2">'))).toBe(false);
  });
});
