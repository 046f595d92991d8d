import { describe, expect, it } from 'vitest';
import { storedForm } from './candidate-index.js';
import { normalize } from './normalize.js';
import { decodeTextDelta, encodeTextDelta } from './text-delta.js';

/** The compared form the candidate index stores for a text. */
const stored = (text: string) => storedForm(normalize(text).compared);

/** Encodes against the stored form and decodes back; returns the delta (or null). */
function roundTrip(text: string): string | null {
  const compared = stored(text);
  const delta = encodeTextDelta(text, compared);
  if (delta !== null) {
    expect(decodeTextDelta(compared, 0, delta, 0, delta.length)).toBe(text);
    expect(delta.length).toBeLessThan(text.length);
  }
  return delta;
}

describe('text deltas', () => {
  it.each([
    ['Could not open file %s: %s.', 13],
    ['Open the file.', 4],
    ['Page 12 of 30', 11],
    ['The quick brown fox jumps over the lazy dog', 2],
    ['«Bonjour», dit-il — à l’école !', 21],
    ['Lösche die Datei „%s“?', 11],
    ['  padded   text\twith\ttabs  ', 19],
  ])('%j: a delta of %s code units that decodes to the text', (text, length) => {
    const delta = roundTrip(text);
    if (length !== null) expect(delta?.length).toBe(length);
  });

  it('decodes every kind of text exactly, or keeps none', () => {
    const texts = [
      'ALL CAPITALS HERE',
      'İstanbul’da İĞNE', // upper-casing that is not one code unit to one
      'straße STRASSE',
      'Tag \uE000bold\uE800 and \uF000 image',
      '1,234.56 and 7 890',
      '日本語のテキスト、句読点。',
      'emoji 😀 and text',
      'x',
      '',
      'a'.repeat(5000),
      'Mixed.Punctuation,Without;Spaces',
      ' leading and trailing ',
      'ending with a number 42',
      '42 starting with a number',
    ];
    for (const text of texts) roundTrip(text);
  });

  it('is safe against any compared form: a wrong one gives a delta that still decodes, or none', () => {
    expect(encodeTextDelta('Hello, world', 'nothing alike')).toBeNull();
    const delta = encodeTextDelta('Hello, world. Hello again', 'hello world hello again');
    expect(delta).not.toBeNull();
    expect(decodeTextDelta('hello world hello again', 0, delta!, 0, delta!.length)).toBe('Hello, world. Hello again');
  });

  it('decodes from the code units of a pool, at offsets', () => {
    const text = 'Save changes to %s?';
    const compared = stored(text);
    const delta = encodeTextDelta(text, compared)!;
    const record = `key${compared}${delta}`;
    const units = Uint8Array.from(record, (c) => c.charCodeAt(0));
    expect(decodeTextDelta(units, 3, units, 3 + compared.length, record.length)).toBe(text);
  });

  it('covers runs longer than one operation', () => {
    const text = `${'Word '.repeat(40)}End.`;
    expect(roundTrip(text)).not.toBeNull();
  });
});
