import { describe, expect, it } from 'vitest';
import { inlineTag } from '../src/formats/inline-tags.js';
import type { InlineTag, TextUnit } from '../src/formats/types.js';
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
