import { describe, expect, it } from 'vitest';
import { inlineTag } from '../src/formats/inline-tags.js';
import type { TextUnit } from '../src/formats/types.js';
import { segmentUnit } from '../src/modules/translation-workflow/jobs/unit-segments.js';

/**
 * segmentUnit cuts a unit without tags on a path of its own (no placeholders to put in or take
 * out). It must give exactly what the general path gives: a tag whose token does not occur in the
 * text sends the same unit down the general path without changing what it holds, and both are
 * compared on generated text (white space at the edges and between sentences, non-ASCII, text that
 * looks like tag tokens, one-character units).
 */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

const PIECES = [
  'a',
  'x',
  'Hello',
  'world',
  '.',
  '. ',
  '! ',
  '? ',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\t',
  '\r\n',
  '\u00A0',
  'Dr. ',
  'é',
  'Straße',
  '日本語。',
  'ไทย',
  '{1}',
  '<2}',
  '{3>',
  '😀',
  'e.g. ',
  'www.x.org',
  'A',
  'B. C',
];

function generate(next: () => number): string {
  const length = 1 + Math.floor(next() * 10);
  let text = '';
  for (let i = 0; i < length; i++) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

const unit = (source: string, extra: Partial<TextUnit> = {}): TextUnit => ({
  index: 3,
  key: 'k',
  locator: '1:u',
  source,
  tags: [],
  target: null,
  translatable: true,
  note: 'a note',
  ...extra,
});

/** A tag no text here names: the unit goes down the general path, its segments hold no tag. */
const UNUSED_TAG = inlineTag(999_999, 'standalone', '<x/>');

describe('segmentUnit without tags', () => {
  it.each(['en', 'de', 'ja', 'th'])('gives what the general path gives on generated units in %s', (language) => {
    const next = random(language.charCodeAt(0) * 104729);
    for (let i = 0; i < 3000; i++) {
      const source = generate(next);
      expect(segmentUnit(unit(source), language), JSON.stringify(source)).toEqual(
        segmentUnit(unit(source, { tags: [UNUSED_TAG] }), language),
      );
    }
  });

  it.each(['a', ' ', ' a', 'a ', '\n', '\r\n', 'a\n\nb', 'One. Two.', '  One.  Two.  ', '\u00A0a\u00A0'])(
    'gives what the general path gives on %j',
    (source) => {
      expect(segmentUnit(unit(source), 'en')).toEqual(segmentUnit(unit(source, { tags: [UNUSED_TAG] }), 'en'));
    },
  );

  it('refuses a segment over the character limit as the general path does', () => {
    const limits = { maxSegmentChars: 5, maxTagsPerSegment: 10 };
    expect(() => segmentUnit(unit('Hello world.'), 'en', limits)).toThrow(/segment of 12 characters; the import's limit is 5/);
    expect(() => segmentUnit(unit('Hello world.', { tags: [UNUSED_TAG] }), 'en', limits)).toThrow(
      /segment of 12 characters; the import's limit is 5/,
    );
  });
});
