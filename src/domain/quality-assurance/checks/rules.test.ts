/** Table tests of forbidden strings, regexp rules, terminology and inconsistency. */
import { describe, expect, it } from 'vitest';
import { QaText } from '../text.js';
import type { QaRegexpRule, QaTermHit, QaWarning } from '../types.js';
import { inconsistencyIndex, MAX_INCONSISTENCIES } from './inconsistency.js';
import {
  QaRegexpError,
  checkForbiddenStrings,
  checkRegexpRule,
  compileForbiddenStrings,
  compileQaRegexpRule,
  nestedQuantifier,
} from './strings.js';
import { MAX_TERMS_PER_SEGMENT, checkForbiddenTerms, checkNonConformingTerms } from './terms.js';

const en = (text: string): QaText => new QaText(text, 'en');
const de = (text: string): QaText => new QaText(text, 'de');

describe('forbiddenStringsEnabled', () => {
  it('splits the value on commas, trims, drops empties and duplicates', () => {
    expect(compileForbiddenStrings(' foo, Bar ,,foo, FOO, a.b ').map((s) => s.text)).toEqual(['foo', 'Bar', 'a.b']);
    expect(compileForbiddenStrings(null)).toEqual([]);
    expect(compileForbiddenStrings(12)).toEqual([]);
  });

  it.each([
    [
      'Das ist foo und FOO',
      'foo',
      [
        [
          'foo',
          [
            [8, 11],
            [16, 19],
          ],
        ],
      ],
    ],
    ['Das ist Foobar', 'foo', [['foo', [[8, 11]]]]],
    [
      'Ärger und ärger',
      'ärger',
      [
        [
          'ärger',
          [
            [0, 5],
            [10, 15],
          ],
        ],
      ],
    ],
    ['a.b and axb', 'a.b', [['a.b', [[0, 3]]]]],
    ['nothing here', 'foo, bar', []],
  ])('%j with %j', (target, value, expected) => {
    const out: QaWarning[] = [];
    checkForbiddenStrings(de(target), compileForbiddenStrings(value), out, true);
    expect(
      out.map((w) => [w.key, (w.details.positions as { beginIndex: number; endIndex: number }[]).map((p) => [p.beginIndex, p.endIndex])]),
    ).toEqual(expected);
    for (const w of out) expect(w.type).toBe('ForbiddenString');
  });
});

function rule(sourceRegexp: string | null, targetRegexp: string | null): QaRegexpRule {
  return { id: 'r1', description: 'a rule', sourceRegexp, targetRegexp, ignorable: true, instant: false };
}

describe('regexp', () => {
  it.each([
    // both: source matches and target does not
    ['\\d+ items?', '\\d+ (Elemente?|Stück)', 'Add 3 items', 'Fügen Sie 3 Elemente hinzu', false],
    ['\\d+ items?', '\\d+ (Elemente?|Stück)', 'Add 3 items', 'Fügen Sie drei Elemente hinzu', true],
    ['\\d+ items?', '\\d+ (Elemente?|Stück)', 'Add items', 'Fügen Sie drei Elemente hinzu', false],
    // target only: fires when the target matches
    [null, '(?i)\\bsie\\b', 'You', 'Sie', true],
    ['', '(?i)\\bsie\\b', 'You', 'Du', false],
    // source only: fires when the source matches
    ['\\bTODO\\b', null, 'TODO: fix', 'zu erledigen', true],
    ['\\bTODO\\b', '', 'Done', 'Fertig', false],
    // Java syntax
    ['\\p{Lu}{2,}', '\\p{javaUpperCase}{2,}', 'the USB port', 'der Anschluss', true],
    ['\\Qa.b\\E', null, 'axb', 'x', false],
    [null, null, 'a', 'b', false],
  ])('source /%s/ target /%s/: %j -> %j fires: %s', (sourceRegexp, targetRegexp, source, target, fires) => {
    const out: QaWarning[] = [];
    checkRegexpRule(en(source), de(target), compileQaRegexpRule(rule(sourceRegexp, targetRegexp)), out);
    expect(out).toEqual(fires ? [{ type: 'SourceOrTargetRegexp', key: 'r1', ignorable: true, details: { description: 'a rule' } }] : []);
  });

  it.each([
    ['(unclosed', null, 'sourceRegexp'],
    [null, '[a', 'targetRegexp'],
    ['ok', '\\p{InGreek}', 'targetRegexp'],
    ['a(?s)b', null, 'sourceRegexp'],
    ['x'.repeat(1001), null, 'sourceRegexp'],
  ])('/%s/ /%s/ does not compile: names the %s', (sourceRegexp, targetRegexp, side) => {
    let error: unknown;
    try {
      compileQaRegexpRule(rule(sourceRegexp, targetRegexp));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QaRegexpError);
    expect((error as QaRegexpError).ruleId).toBe('r1');
    expect((error as QaRegexpError).side).toBe(side);
  });
});

describe('nonConformingTerms', () => {
  const hit = (targetTerms: QaTermHit['targetTerms']): QaTermHit => ({ sourceTerm: 'file', targetTerms });
  const run = (source: string, target: string, hits: QaTermHit[], approvedOnly = false): QaWarning[] => {
    const out: QaWarning[] = [];
    checkNonConformingTerms(en(source), de(target), hits, approvedOnly, out, true);
    return out;
  };
  it.each([
    ['Open the file', 'Öffnen Sie die Datei', [hit([{ text: 'Datei', preferred: true, approved: true }])], false, false],
    ['Open the file', 'Öffnen Sie den Dateinamen', [hit([{ text: 'Datei', preferred: true, approved: true }])], false, false],
    ['Open the file', 'Öffnen Sie das Dokument', [hit([{ text: 'Datei', preferred: true, approved: true }])], false, true],
    [
      'Open the file',
      'Öffnen Sie das File',
      [
        hit([
          { text: 'Datei', preferred: true, approved: true },
          { text: 'File', preferred: false, approved: false },
        ]),
      ],
      false,
      false,
    ],
    [
      'Open the file',
      'Öffnen Sie das File',
      [
        hit([
          { text: 'Datei', preferred: true, approved: true },
          { text: 'File', preferred: false, approved: false },
        ]),
      ],
      true,
      true,
    ],
    ['Open the file', 'Öffnen Sie das File', [hit([{ text: 'File', preferred: false, approved: false }])], true, false],
    ['Open the file', 'Öffnen Sie das File', [hit([])], false, false],
  ])('%j -> %j', (source, target, hits, approvedOnly, fires) => {
    expect(run(source, target, hits, approvedOnly).length > 0).toBe(fires);
  });

  it('reports the source positions and the suggestions', () => {
    expect(run('File: open the FILE', 'Dokument öffnen', [hit([{ text: 'Datei', preferred: true, approved: true }])])).toEqual([
      {
        type: 'NonConformingTerm',
        key: 'file',
        ignorable: true,
        details: {
          term: 'file',
          positions: [
            { beginIndex: 0, endIndex: 4 },
            { beginIndex: 15, endIndex: 19 },
          ],
          suggestedTargetTerms: [{ text: 'Datei', preferred: true }],
        },
      },
    ]);
  });

  it("takes a homonym's concepts together, lists each suggestion once, and looks at MAX_TERMS_PER_SEGMENT terms", () => {
    const bank = (text: string): QaTermHit => ({ sourceTerm: 'bank', targetTerms: [{ text, preferred: true, approved: true }] });
    expect(run('the bank', 'die Bank', [bank('Ufer'), bank('Bank')])).toEqual([]);
    const twice = run('file file', 'Dokument', [
      hit([{ text: 'Datei', preferred: true, approved: true }]),
      hit([{ text: 'Datei', preferred: true, approved: true }]),
    ]);
    expect(twice.map((w) => w.details.suggestedTargetTerms)).toEqual([[{ text: 'Datei', preferred: true }]]);
    const many = Array.from({ length: MAX_TERMS_PER_SEGMENT + 50 }, (_, i): QaTermHit => ({
      sourceTerm: `t${i}`,
      targetTerms: [{ text: `z${i}`, preferred: true, approved: true }],
    }));
    expect(run('x', 'y', many)).toHaveLength(MAX_TERMS_PER_SEGMENT);
  });
});

describe('forbiddenTerms', () => {
  it('one warning per term with every position', () => {
    const out: QaWarning[] = [];
    checkForbiddenTerms(
      [
        { term: 'Ordner', beginIndex: 0, endIndex: 6, sourceTerms: [{ text: 'folder', preferred: true }] },
        { term: 'ordner', beginIndex: 10, endIndex: 16, sourceTerms: [] },
      ],
      out,
      false,
    );
    expect(out).toEqual([
      {
        type: 'ForbiddenTerm',
        key: 'ordner',
        ignorable: false,
        details: {
          term: 'Ordner',
          positions: [
            { beginIndex: 0, endIndex: 6 },
            { beginIndex: 10, endIndex: 16 },
          ],
          sourceTerms: [{ text: 'folder', preferred: true }],
        },
      },
    ]);
    const none: QaWarning[] = [];
    checkForbiddenTerms(undefined, none, true);
    checkForbiddenTerms([], none, true);
    expect(none).toEqual([]);
  });
});

describe('inconsistentTranslation', () => {
  const hasContent = (text: string): boolean => text.trim() !== '';
  const run = (
    segments: { id: string; source: string; target: string }[],
    others?: { id: string; source: string; target: string }[],
  ): Record<string, string[]> => {
    const report = inconsistencyIndex(segments, others, hasContent);
    const result: Record<string, string[]> = {};
    for (const [index, segment] of segments.entries()) {
      const out: QaWarning[] = [];
      report(index, out, true);
      if (out.length)
        result[segment.id] = out.map(
          (w) => `${w.type === 'InconsistentTranslationSourceTarget' ? 'ST' : 'TS'}:${w.details.segmentId as string}`,
        );
    }
    return result;
  };

  it('same source, different targets', () => {
    expect(
      run([
        { id: 'a', source: 'Open', target: 'Öffnen' },
        { id: 'b', source: 'Open', target: 'Offen' },
        { id: 'c', source: 'Open', target: 'Öffnen' },
      ]),
    ).toEqual({ a: ['ST:b'], b: ['ST:a'], c: ['ST:b'] });
  });

  it('same target, different sources', () => {
    expect(
      run([
        { id: 'a', source: 'Open', target: 'Öffnen' },
        { id: 'b', source: 'Opens', target: 'Öffnen' },
      ]),
    ).toEqual({ a: ['TS:b'], b: ['TS:a'] });
  });

  it('whitespace is collapsed, case and tags count, empty targets take no part', () => {
    expect(
      run([
        { id: 'a', source: 'Open  file', target: 'Datei öffnen ' },
        { id: 'b', source: 'Open file', target: 'Datei\töffnen' },
        { id: 'c', source: 'Open file', target: '' },
      ]),
    ).toEqual({});
    expect(
      run([
        { id: 'a', source: 'Open', target: 'öffnen' },
        { id: 'b', source: 'Open', target: 'Öffnen' },
        { id: 'c', source: '{1}Open', target: 'Öffnen' },
      ]),
    ).toEqual({ a: ['ST:b'], b: ['ST:a', 'TS:c'], c: ['TS:b'] });
  });

  it('compares with the other segments of the job, the run winning for the same id', () => {
    expect(
      run(
        [{ id: 'a', source: 'Open', target: 'Öffnen' }],
        [
          { id: 'x', source: 'Open', target: 'Offen' },
          { id: 'a', source: 'Open', target: 'Aufmachen' },
        ],
      ),
    ).toEqual({ a: ['ST:x'] });
  });

  it('reports at most MAX_INCONSISTENCIES per segment and direction', () => {
    const segments = Array.from({ length: 50 }, (_, i) => ({ id: String(i), source: 'Open', target: `Öffnen ${i}` }));
    expect(run(segments)['0']).toHaveLength(MAX_INCONSISTENCIES);
  });
});

describe('nestedQuantifier', () => {
  it.each([
    ['(a+)+', 0],
    ['x(\\w+\\s?)*y', 1],
    ['((ab)*c)+', 0],
    ['([a-z]+){2,}', 0],
    ['(a|b)+', -1],
    ['(a+)?', -1],
    ['(a+){1}', -1],
    ['\\d+ (Elemente?|Stück)', -1],
    ['[(]+a', -1],
    ['\\(a+\\)+', -1],
  ])('/%s/ -> %i', (source, at) => {
    expect(nestedQuantifier(source)).toBe(at);
  });

  it('a rule with one is refused', () => {
    expect(() => compileQaRegexpRule(rule('(a+)+b', null))).toThrow(QaRegexpError);
  });
});
