import { describe, expect, it } from 'vitest';
import { targetCharset, targetFileWarnings, UNICODE_CHARSET } from './target-warnings.js';
import type { WarningTag, WarningUnit } from './target-warnings.js';

const pair = (id: number): WarningTag[] => [
  { id, kind: 'open', display: `{${id}>` },
  { id, kind: 'close', display: `<${id}}` },
];
const unit = (source: string, target: string | null, tags: WarningTag[] = [], extra: Partial<WarningUnit> = {}): WarningUnit => ({
  key: null,
  segments: [{ idx: 0, source, tags, target }],
  text: target,
  ...extra,
});

describe('targetFileWarnings', () => {
  it.each<[string, WarningUnit, string[]]>([
    ['a translation with every tag', unit('Click {1>Save<1}.', 'Klicken Sie auf {1>Speichern<1}.', pair(1)), []],
    [
      'a dropped tag pair',
      unit('Click {1>Save<1}.', 'Klicken Sie auf Speichern.', pair(1)),
      ['Segment 1: the translation lacks the tag pair {1>…<1} of the source; the target file does not have it.'],
    ],
    [
      'half a pair',
      unit('Click {1>Save<1}.', 'Klicken Sie auf {1>Speichern.', pair(1)),
      ['Segment 1: the translation lacks the tag pair {1>…<1} of the source; the target file does not have it.'],
    ],
    [
      'a dropped standalone tag and a pair',
      unit('A{2} {1>b<1}', 'A b', [...pair(1), { id: 2, kind: 'standalone', display: '{2}' }]),
      ['Segment 1: the translation lacks the tag {2}, the tag pair {1>…<1} of the source; the target file does not have them.'],
    ],
    ['an untranslated segment (the source is written)', unit('Click {1>Save<1}.', null, pair(1)), []],
    [
      'a target longer than maxLength',
      unit('Save', 'Speichern unter', [], { key: 'button.save', maxLength: 10 }),
      ['Unit “button.save”: the translation has 15 characters, more than the 10 the file allows.'],
    ],
    ['a target within maxLength (characters, not UTF-16 units)', unit('Hi', '😀😀😀', [], { maxLength: 3 }), []],
    ['characters in Unicode', unit('Hello', 'Dobrý den, žluťoučký', []), []],
  ])('%s', (_name, input, expected) => {
    expect(targetFileWarnings([input], UNICODE_CHARSET)).toEqual(expected);
  });

  it('names characters an ISO-8859-1 file cannot hold', () => {
    expect(targetFileWarnings([unit('Hello', 'Dobrý žluťoučký', [])], { name: 'ISO-8859-1', maxCodePoint: 0xff })).toEqual([
      "Segment 1: “ž” (U+017E), “ť” (U+0165), “č” (U+010D) cannot be written in the file's encoding ISO-8859-1; written as character references.",
    ]);
  });
});

describe('targetCharset', () => {
  it.each<[string, string, string]>([
    ['java-properties', 'key=value\n', 'US-ASCII'],
    ['java-properties', 'key=caf\u00e9\n', 'UTF-8'],
    ['xliff12', '<?xml version="1.0" encoding="ISO-8859-1"?><xliff/>', 'ISO-8859-1'],
    ['html', '<html><head><meta charset="windows-1252">', 'windows-1252'],
    ['html', '<html><head><meta charset="utf-8">', 'UTF-8'],
    ['json', '{"a": "b"}', 'UTF-8'],
  ])('%s %j: %s', (filter, text, expected) => {
    expect(targetCharset(filter, Buffer.from(text, 'utf8')).name).toBe(expected);
  });

  it('reads a properties file that is not UTF-8 as ISO-8859-1', () => {
    expect(targetCharset('java-properties', Buffer.from('key=caf\u00e9\n', 'latin1')).name).toBe('ISO-8859-1');
  });
});
