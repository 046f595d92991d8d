/** Table tests of the whitespace, end-punctuation and repeated-word checks. */
import { describe, expect, it } from 'vitest';
import { QaText } from '../text.js';
import type { QaWarning } from '../types.js';
import { checkEndPunctuation } from './punctuation.js';
import { checkLeadingAndTrailingSpaces, checkMultipleSpaces } from './whitespace.js';
import { checkRepeatedWords } from './words.js';

function collect(run: (out: QaWarning[]) => void): QaWarning[] {
  const out: QaWarning[] = [];
  run(out);
  return out;
}

describe('leadingAndTrailingSpaces', () => {
  it.each([
    ['Hello', 'Hallo', []],
    [' Hello\n', ' Hallo\n', []],
    ['Hello', ' Hallo', ['leading']],
    ['Hello ', 'Hallo', ['trailing']],
    ['\tHello ', ' Hallo\n', ['leading', 'trailing']],
    ['Hello\u00a0', 'Hallo ', ['trailing']],
    ['Hello', '   ', []],
  ])('%j -> %j', (source, target, keys) => {
    const out = collect((o) => checkLeadingAndTrailingSpaces(new QaText(source, 'en'), new QaText(target, 'de'), o, true));
    expect(out.map((w) => w.key)).toEqual(keys);
  });

  it('reports the whitespace and where it is', () => {
    const [w] = collect((o) => checkLeadingAndTrailingSpaces(new QaText('Hello\n', 'en'), new QaText('Hallo  ', 'de'), o, true));
    expect(w).toEqual({
      type: 'LeadingAndTrailingSpaces',
      key: 'trailing',
      ignorable: true,
      details: {
        srcPosition: { beginIndex: 5, endIndex: 6 },
        srcWhitespaces: '\n',
        tgtPosition: { beginIndex: 5, endIndex: 7 },
        tgtWhitespaces: '  ',
      },
    });
  });
});

describe('multipleSpaces', () => {
  it.each([
    ['a b', 'a  b', [['  ', [[1, 3]]]]],
    [
      'a b c',
      'a  b  c',
      [
        [
          '  ',
          [
            [1, 3],
            [4, 6],
          ],
        ],
      ],
    ],
    ['a  b', 'a  b', []],
    [
      'a  b c',
      'a  b  c',
      [
        [
          '  ',
          [
            [1, 3],
            [4, 6],
          ],
        ],
      ],
    ],
    ['a b', 'a \u00a0b', [[' \u00a0', [[1, 3]]]]],
    ['a b', 'a\u3000\u3000b', [['\u3000\u3000', [[1, 3]]]]],
    ['a\n  b', 'a\n    b', []],
    ['a', '  a  ', []],
    ['a b', 'a\tb', []],
    ['a b', 'a b', []],
  ])('%j -> %j', (source, target, expected) => {
    const out = collect((o) => checkMultipleSpaces(new QaText(source, 'en'), new QaText(target, 'de'), o, true));
    expect(
      out.map((w) => [
        w.details.spaces,
        (w.details.positions as { beginIndex: number; endIndex: number }[]).map((p) => [p.beginIndex, p.endIndex]),
      ]),
    ).toEqual(expected);
  });
});

describe('endPunctuation', () => {
  // source, target, target language, fires, suggestion
  it.each([
    ['Hello.', 'Hallo.', 'de', false, null],
    ['Hello.', 'Hallo', 'de', true, '.'],
    ['Hello', 'Hallo.', 'de', true, ''],
    ['Really?', 'Wirklich.', 'de', true, '?'],
    ['Really?', 'Vraiment ?', 'fr', false, null],
    ['Really?', 'Vraiment\u202f?', 'fr', false, null],
    ['Note:', 'Remarque :', 'fr', false, null],
    ['Really?', 'Vraiment.', 'fr', true, '\u00a0?'],
    ['Really?', '¿De verdad?', 'es', false, null],
    ['Done.', '完成。', 'zh', false, null],
    ['Done.', '完成', 'zh', true, '\u3002'],
    ['Really?', '本当？', 'ja', false, null],
    ['Really?', 'حقا؟', 'ar', false, null],
    ['Really?', 'حقا', 'ar', true, '\u061f'],
    ['Really?', 'Αλήθεια;', 'el', false, null],
    ['Really?', 'Αλήθεια\u037e', 'el', false, null],
    ['Done.', 'पूर्ण।', 'hi', false, null],
    ['Done.', 'เสร็จ', 'th', false, null],
    ['Wait...', 'Warten …', 'de', false, null],
    ['Wait…', 'Warten...', 'de', false, null],
    ['He said "yes."', 'Er sagte „ja.“', 'de', false, null],
    ['He said "yes".', 'Er sagte „ja“', 'de', true, '.'],
    ['Click {1>here<1}.', 'Klicken Sie {1>hier<1}.', 'de', false, null],
    ['Click {1>here.<1}', 'Klicken Sie {1>hier<1}.', 'de', false, null],
    ['Stop!\n', 'Halt!\n', 'de', false, null],
    ['Stop!?', 'Halt!', 'de', true, '!?'],
    ['(optional)', '(optional)', 'de', false, null],
  ])('%j -> %j (%s) fires: %s', (source, target, lang, fires, suggestion) => {
    const out = collect((o) => checkEndPunctuation(new QaText(source, 'en'), new QaText(target, lang), o, true));
    expect(out.length > 0).toBe(fires);
    if (fires) expect(out[0]!.details.suggestedTgtEndPunctuation).toBe(suggestion);
  });

  it('reports both ends with positions', () => {
    const [w] = collect((o) => checkEndPunctuation(new QaText('Why?', 'en'), new QaText('Warum.', 'de'), o, false));
    expect(w).toEqual({
      type: 'TrailingPunctuation',
      key: '?|.',
      ignorable: false,
      details: {
        srcPosition: { beginIndex: 3, endIndex: 4 },
        srcEndPunctuation: '?',
        tgtPosition: { beginIndex: 5, endIndex: 6 },
        tgtEndPunctuation: '.',
        suggestedTgtEndPunctuation: '?',
      },
    });
    const [none] = collect((o) => checkEndPunctuation(new QaText('Why?', 'en'), new QaText('Warum', 'de'), o, false));
    expect(none!.details.tgtPosition).toEqual({ beginIndex: 5, endIndex: 5 });
  });
});

describe('repeatedWords', () => {
  it.each([
    [
      'Das ist ist gut',
      [
        [
          'ist',
          [
            [4, 7],
            [8, 11],
          ],
        ],
      ],
    ],
    [
      'Das Das ist gut',
      [
        [
          'das',
          [
            [0, 3],
            [4, 7],
          ],
        ],
      ],
    ],
    [
      'Die die Frau',
      [
        [
          'die',
          [
            [0, 3],
            [4, 7],
          ],
        ],
      ],
    ],
    [
      'ist ist ist',
      [
        [
          'ist',
          [
            [0, 3],
            [4, 7],
            [8, 11],
          ],
        ],
      ],
    ],
    [
      'Это это',
      [
        [
          'это',
          [
            [0, 3],
            [4, 7],
          ],
        ],
      ],
    ],
    [
      'ist\u00a0ist',
      [
        [
          'ist',
          [
            [0, 3],
            [4, 7],
          ],
        ],
      ],
    ],
    ['Das ist gut', []],
    ['ist, ist', []],
    ['ist {1}ist', []],
    ['{1>ist<1} ist', []],
    ['1 1', []],
    ['istist', []],
    [
      'l’homme l’homme',
      [
        [
          'l’homme',
          [
            [0, 7],
            [8, 15],
          ],
        ],
      ],
    ],
  ])('%j', (target, expected) => {
    const out = collect((o) => checkRepeatedWords(new QaText(target, 'de'), o, true));
    expect(
      out.map((w) => [w.key, (w.details.positions as { beginIndex: number; endIndex: number }[]).map((p) => [p.beginIndex, p.endIndex])]),
    ).toEqual(expected);
  });
});
