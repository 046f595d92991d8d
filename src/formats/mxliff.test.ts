import { describe, expect, it } from 'vitest';
import { mxliffStream, readMxliff } from './mxliff.js';
import type { BilingualJob, BilingualSegment } from './mxliff.js';
import { streamOf } from './testing.js';
import { FormatError } from './types.js';

const job: BilingualJob = { jobUid: 'JOB1uid', filename: 'guide & notes.html', sourceLang: 'en', targetLang: 'de', workflowLevel: 1 };

function segment(index: number, overrides: Partial<BilingualSegment> = {}): BilingualSegment {
  return {
    index,
    paraId: index,
    source: `Source ${index}`,
    target: '',
    confirmedLevel: 0,
    locked: false,
    score: 0,
    grossScore: 0,
    origin: null,
    key: null,
    tags: [],
    modifiedAt: null,
    modifiedBy: null,
    ...overrides,
  };
}

async function written(segments: BilingualSegment[], jobs: BilingualJob[] = [job]): Promise<string> {
  async function* all() {
    for (const j of jobs) {
      yield {
        job: j,
        segments: (async function* () {
          yield segments;
        })(),
      };
    }
  }
  const parts: Buffer[] = [];
  for await (const chunk of mxliffStream(all())) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

describe('MXLIFF', () => {
  it('writes one file per job and one group and trans-unit per segment, with state as m: attributes', async () => {
    const xml = await written([
      segment(0, {
        source: 'Click {1>here<1} & go',
        target: 'Klicken Sie {1>hier<1}',
        confirmedLevel: 1,
        score: 1.01,
        grossScore: 1.01,
        origin: 'tm',
        tags: [
          { id: 1, kind: 'open', original: '<b class="x">', display: '{1>' },
          { id: 1, kind: 'close', original: '</b>', display: '<1}' },
        ],
        modifiedAt: 1_700_000_000_500,
        modifiedBy: 'Ann',
      }),
      segment(1, { paraId: 0, locked: true, key: 'menu.title' }),
    ]);
    expect(xml).toContain('xmlns:m="http://www.memsource.com/mxlf/2.0"');
    expect(xml).toContain('<file original="guide &amp; notes.html" source-language="en" target-language="de"');
    expect(xml).toContain(
      '<trans-unit id="JOB1uid:0" xml:space="preserve" m:trans-origin="tm" m:score="1.01" m:gross-score="1.01" m:locked="false" m:confirmed="1" m:modified-at="1700000000" m:modified-by="Ann">',
    );
    expect(xml).toContain('<source>Click {1&gt;here&lt;1} &amp; go</source>');
    expect(xml).toContain('<m:content>&lt;b class="x"&gt;</m:content>');
    expect(xml).toContain('<group id="1" m:para-id="0">');
    expect(xml).toContain('<context context-type="x-key">menu.title</context>');
  });

  it('reads back what it writes', async () => {
    const segments = [
      segment(0, {
        source: 'A {1}',
        target: 'B {1}',
        confirmedLevel: 2,
        locked: true,
        score: 0.85,
        grossScore: 0.9,
        origin: 'mt',
        key: 'k',
      }),
      segment(5, { paraId: 3, target: 'x < y & z' }),
    ];
    const xml = await written(segments, [job, { ...job, jobUid: 'JOB2', targetLang: 'fr' }]);
    const jobs = await readMxliff(streamOf(xml, 17));
    expect(jobs.map((j) => [j.jobUid, j.targetLang, j.segments.length])).toEqual([
      ['JOB1uid', 'de', 2],
      ['JOB2', 'fr', 2],
    ]);
    expect(jobs[0]!.segments[0]).toMatchObject({
      index: 0,
      source: 'A {1}',
      target: 'B {1}',
      confirmedLevel: 2,
      locked: true,
      score: 0.85,
      origin: 'mt',
      key: 'k',
    });
    expect(jobs[0]!.segments[1]).toMatchObject({
      index: 5,
      paraId: 3,
      target: 'x < y & z',
      confirmedLevel: 0,
      locked: false,
      origin: null,
    });
  });

  it('reads attributes in any order and under any prefix, and m:confirmed="true" as the file level', async () => {
    const xml = `<?xml version="1.0"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:mem="http://www.memsource.com/mxlf/2.0">
 <file mem:level="2" target-language="de" source-language="en" original="a.txt" mem:task-id="T9">
  <body><group id="0" mem:para-id="7"><trans-unit mem:confirmed="true" mem:locked="true" id="T9:3"><source>S</source><target>T</target></trans-unit></group></body>
 </file>
</xliff>`;
    const [read] = await readMxliff(streamOf(xml));
    expect(read).toMatchObject({ jobUid: 'T9', workflowLevel: 2 });
    expect(read!.segments).toEqual([
      expect.objectContaining({ index: 3, paraId: 7, confirmedLevel: 2, locked: true, source: 'S', target: 'T' }),
    ]);
  });

  it.each([
    ['<root/>', /root element is <root>/],
    ['<xliff version="1.2"><file/></xliff>', /does not declare the namespace/],
    [
      '<xliff xmlns:m="http://www.memsource.com/mxlf/2.0"><file m:task-id="A"><body><trans-unit id="B:1"><source>x</source></trans-unit></body></file></xliff>',
      /belongs to job B, not to its file's job A/,
    ],
    ['<xliff xmlns:m="http://www.memsource.com/mxlf/2.0"><file><trans-unit id="nope"/></file></xliff>', /not <job uid>:<segment index>/],
    [
      '<xliff xmlns:m="http://www.memsource.com/mxlf/2.0"><file><trans-unit id="A:1"><source>a<b/>c</source></trans-unit></file></xliff>',
      /holds markup/,
    ],
    ['<!DOCTYPE x [<!ENTITY a "b">]><xliff/>', /internal subset/],
    ['<xliff xmlns:m="http://www.memsource.com/mxlf/2.0"><file>', /malformed XML/],
  ])('refuses %s', async (xml, message) => {
    const failure = await readMxliff(streamOf(xml)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FormatError);
    expect((failure as Error).message).toMatch(message);
  });

  it('refuses characters XML cannot hold on write', async () => {
    await expect(written([segment(0, { target: 'bell \u0007' })])).rejects.toThrow(/target of JOB1uid:0 holds a character XML cannot hold/);
  });

  it('reads 100,000 trans-units', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => segment(i, { target: `T ${i}` }));
    const xml = await written(many);
    const [read] = await readMxliff(streamOf(xml));
    expect(read!.segments).toHaveLength(100_000);
    expect(read!.segments[99_999]).toMatchObject({ index: 99_999, target: 'T 99999' });
  });
});
