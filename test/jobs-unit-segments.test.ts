import { describe, expect, it } from 'vitest';
import { inlineTag } from '../src/formats/inline-tags.js';
import type { InlineTag, TextUnit } from '../src/formats/types.js';
import { FormatError } from '../src/formats/types.js';
import { segmentUnit } from '../src/modules/translation-workflow/jobs/unit-segments.js';

/** The import's cut of one file unit into segments (src/modules/translation-workflow/jobs/unit-segments.ts), table-tested. */

const unit = (source: string, extra: Partial<TextUnit> = {}): TextUnit => ({
  index: 0,
  key: null,
  locator: '1',
  source,
  tags: [],
  target: null,
  translatable: true,
  note: null,
  ...extra,
});
const pair = (id: number, name = 'g'): InlineTag[] => [inlineTag(id, 'open', `<${name} id="${id}">`), inlineTag(id, 'close', `</${name}>`)];

/** Gaps and segment texts put back together, as the target writer does with translations. */
const rebuild = (segments: ReturnType<typeof segmentUnit>) => segments.map((s) => s.gapBefore + s.source + (s.gapAfter ?? '')).join('');

const cases: Array<{ name: string; unit: TextUnit; sources: string[]; targets?: Array<string | null>; tagsPerSegment?: string[][] }> = [
  { name: 'one sentence', unit: unit('Hello world.'), sources: ['Hello world.'] },
  {
    name: 'two sentences, the space between them kept as a gap',
    unit: unit('One here.  Two there.'),
    sources: ['One here.', 'Two there.'],
  },
  { name: 'white space around the unit stays outside the segments', unit: unit('  Padded text. \n'), sources: ['Padded text.'] },
  { name: 'an abbreviation does not split', unit: unit('Ask Dr. Smith today.'), sources: ['Ask Dr. Smith today.'] },
  {
    name: 'inline tags stay as tokens, each with the segment it belongs to',
    unit: unit('Hello {1>world<1}. Then {2}more.', { tags: [...pair(1), inlineTag(2, 'standalone', '<x id="2"/>')] }),
    sources: ['Hello {1>world<1}.', 'Then {2}more.'],
    tagsPerSegment: [['{1>', '<1}'], ['{2}']],
  },
  {
    name: 'a tag closing a sentence stays with it, an opening tag goes with the next',
    unit: unit('{1>First.<1} {2>Second.<2}', { tags: [...pair(1), ...pair(2)] }),
    sources: ['{1>First.<1}', '{2>Second.<2}'],
  },
  {
    name: 'a unit with a translation stays whole, the translation as its imported target',
    unit: unit('One. Two.', { target: ' Eins. Zwei. ' }),
    sources: ['One. Two.'],
    targets: ['Eins. Zwei.'],
  },
  {
    name: 'a blank translation does not count as one',
    unit: unit('One. Two.', { target: '  ' }),
    sources: ['One.', 'Two.'],
    targets: [null, null],
  },
  { name: 'private-use characters in the text keep the unit whole', unit: unit('A \uE001 b. C d.'), sources: ['A \uE001 b. C d.'] },
  { name: 'a unit of white space has no segments', unit: unit(' \n\t '), sources: [] },
  { name: 'a paragraph break always splits', unit: unit('Line one\n\nline two'), sources: ['Line one', 'line two'] },
];

describe('segmentUnit', () => {
  it.each(cases)('$name', ({ unit: input, sources, targets, tagsPerSegment }) => {
    const segments = segmentUnit(input, 'en');
    expect(segments.map((s) => s.source)).toEqual(sources);
    if (sources.length) expect(rebuild(segments)).toBe(input.source.trim() === '' ? '' : input.source);
    if (targets) expect(segments.map((s) => s.importedTarget)).toEqual(targets);
    if (tagsPerSegment) expect(segments.map((s) => s.tags.map((t) => t.display))).toEqual(tagsPerSegment);
    segments.forEach((s, i) => expect(s.gapAfter === null).toBe(i < segments.length - 1));
  });

  it('counts words without tags, and logographic text fractionally', () => {
    const [tagged] = segmentUnit(unit('Hello {1>big<1} world.', { tags: pair(1) }), 'en');
    expect(tagged!.words).toBe(3);
    const [japanese] = segmentUnit(unit('東京タワー'), 'ja');
    expect(japanese!.words).toBeCloseTo(5 / 3, 2);
  });

  it('keeps key and note (the note on the first segment only)', () => {
    const segments = segmentUnit(unit('First. Second.', { key: 'k', note: 'about it', locator: 'f1:k', index: 7 }), 'en');
    expect(segments.map((s) => [s.key, s.note, s.unitLocator, s.unitIndex])).toEqual([
      ['k', 'about it', 'f1:k', 7],
      ['k', null, 'f1:k', 7],
    ]);
  });
});

describe('segmentUnit with many tags, limits and NUL (issue 13)', () => {
  const standalone = (count: number) => Array.from({ length: count }, (_, i) => inlineTag(i + 1, 'standalone', `<x id="${i + 1}"/>`));
  const tokens = (count: number, from = 1) => Array.from({ length: count }, (_, i) => `{${from + i}}`).join('');

  it.each([1, 2_047, 2_048, 6_144, 40_000, 100_000])('a word with %i tags counts 1 word (tags never count, at any count)', (count) => {
    const segments = segmentUnit(unit(`Hello${tokens(count)}`, { tags: standalone(count) }), 'en', {
      maxSegmentChars: 10_000_000,
      maxTagsPerSegment: 10_000_000,
    });
    expect(segments).toHaveLength(1);
    expect(segments[0]!.words).toBe(1);
    expect(segments[0]!.tags).toHaveLength(count);
  });

  it('a unit with a target and 40,000 tags (kept whole) counts 1 word', () => {
    const [segment] = segmentUnit(unit(`Hello${tokens(40_000)}`, { tags: standalone(40_000), target: `Hallo${tokens(40_000)}` }), 'en');
    expect(segment!.words).toBe(1);
  });

  it('gives each of many segments its own tags back, past the old placeholder ranges', () => {
    // 3,000 sentences, each wrapped in a pair: 6,000 tags, tag numbers far beyond 2,047.
    const tags = Array.from({ length: 3_000 }, (_, i) => [inlineTag(i + 1, 'open', '<g>'), inlineTag(i + 1, 'close', '</g>')]).flat();
    const source = Array.from({ length: 3_000 }, (_, i) => `{${i + 1}>Sentence ${i + 1}.<${i + 1}}`).join(' ');
    const segments = segmentUnit(unit(source, { tags }), 'en');
    expect(segments).toHaveLength(3_000);
    expect(segments[2_999]!.source).toBe('{3000>Sentence 3000.<3000}');
    expect(segments[2_999]!.tags.map((t) => t.display)).toEqual(['{3000>', '<3000}']);
    expect(rebuild(segments)).toBe(source);
    expect(segments.every((s) => s.words === 2)).toBe(true);
  });

  const limits = { maxSegmentChars: 1_000, maxTagsPerSegment: 100 };
  it.each([
    [
      'a segment over maxSegmentChars',
      unit('word '.repeat(1_000)),
      /segment of 4999 characters; the import's limit is 1000 characters per segment/,
    ],
    [
      'a segment over maxTagsPerSegment',
      unit(`A${tokens(101)}`, { tags: standalone(101) }),
      /segment with 101 inline tags; the import's limit is 100 tags per segment/,
    ],
    ['a NUL in the source', unit('Hello\u0000world'), /NUL character \(U\+0000\)/],
    ['a NUL in the key', unit('Hello', { key: 'a\u0000b' }), /NUL character/],
    ['a NUL in a note', unit('Hello', { note: '\u0000' }), /NUL character/],
  ] as const)('refuses %s with a FormatError naming the unit', (_name, input, message) => {
    let error: unknown = null;
    try {
      segmentUnit(input, 'en', limits);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/^unit 1/);
  });

  it('splits a long unit into segments under the limit without complaint', () => {
    expect(segmentUnit(unit('A sentence here. '.repeat(1_000)), 'en', limits)).toHaveLength(1_000);
  });

  it('segments and counts a 5 MB unit of 500,000 sentences (a loose sanity bound)', () => {
    const source = 'Go. '.repeat(1_250_000);
    const began = performance.now();
    const segments = segmentUnit(unit(source), 'en');
    expect(segments).toHaveLength(1_250_000);
    expect(performance.now() - began).toBeLessThan(30_000);
  });
});
