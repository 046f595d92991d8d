import { describe, expect, it } from 'vitest';
import { compileGlossary, protectTerms, restoreTerms } from './glossary-protection.js';
import type { GlossaryTerm, ProtectedTerm } from './glossary-protection.js';
import { protectTags, restoreTags } from './tag-protection.js';

const GLOSSARY: GlossaryTerm[] = [
  { source: 'file', target: 'archivo' },
  { source: 'print queue', target: 'cola de impresión' },
  { source: 'Print', target: 'Imprimir' },
];

/** The protected text, and each occurrence as `source→target`. */
function protect(text: string, terms: GlossaryTerm[] = GLOSSARY): [string, string[]] {
  const result = protectTerms(text, compileGlossary(terms));
  return [result.text, result.terms.map((t) => `${t.source}→${t.target}`)];
}

describe('compileGlossary', () => {
  it.each<[string, GlossaryTerm[], number]>([
    ['every term', GLOSSARY, 3],
    [
      'terms that read the same count once',
      [
        { source: 'File', target: 'archivo' },
        { source: ' file ', target: 'fichero' },
      ],
      1,
    ],
    [
      'empty and tag-holding terms are left out',
      [
        { source: '  ', target: 'x' },
        { source: 'a {1} b', target: 'y' },
      ],
      0,
    ],
    ['no terms', [], 0],
  ])('%s', (_name, terms, size) => expect(compileGlossary(terms).size).toBe(size));

  it('keeps the first of two terms that read the same', () => {
    expect(
      protect('a file', [
        { source: 'File', target: 'archivo' },
        { source: 'file', target: 'fichero' },
      ])[1],
    ).toEqual(['file→archivo']);
  });
});

describe('protectTerms', () => {
  it.each<[string, string, string, string[], GlossaryTerm[]?]>([
    ['a term', 'Open the file.', 'Open the Xgt0x.', ['file→archivo']],
    ['not inside another word', 'Edit your profile', 'Edit your profile', []],
    ['not the start of another word', 'Two files', 'Two files', []],
    ['case-insensitive', 'FILE and File', 'Xgt0x and Xgt1x', ['FILE→archivo', 'File→archivo']],
    ['the longest term wins', 'Print queue settings', 'Xgt0x settings', ['Print queue→cola de impresión']],
    ['the shorter one where the longer does not match', 'Print the file', 'Xgt0x the Xgt1x', ['Print→Imprimir', 'file→archivo']],
    ['any white space stands for a space', 'print\n  queue', 'Xgt0x', ['print\n  queue→cola de impresión']],
    ['punctuation around a term', '(file), "print"', '(Xgt0x), "Xgt1x"', ['file→archivo', 'print→Imprimir']],
    ['inside a tag pair', 'the {1>file<1}', 'the {1>Xgt0x<1}', ['file→archivo']],
    ['between engine markers', 'the <g1>file</g1><x2/>', 'the <g1>Xgt0x</g1><x2/>', ['file→archivo']],
    ['not across a tag', 'print{1} queue', 'Xgt0x{1} queue', ['print→Imprimir']],
    ['not inside a display token', '{1} 1', '{1} Xgt0x', ['1→uno'], [{ source: '1', target: 'uno' }]],
    ['not inside a marker', '<x1/> g1 x1', '<x1/> g1 Xgt0x', ['x1→equis'], [{ source: 'x1', target: 'equis' }]],
    ['another prefix when the text holds Xgt', 'xgt is a file', 'xgt is a Qgt0x', ['file→archivo']],
    [
      'non-overlapping, left to right',
      'a b c',
      'Xgt0x c',
      ['a b→1'],
      [
        { source: 'a b', target: '1' },
        { source: 'b c', target: '2' },
      ],
    ],
    [
      'the leftmost before the longest',
      'a b c d',
      'Xgt0x c d',
      ['a b→1'],
      [
        { source: 'a b', target: '1' },
        { source: 'b c d', target: '2' },
      ],
    ],
    [
      'a term that begins with punctuation',
      'Use .NET or ASP.NET',
      'Use Xgt0x or ASP.NET',
      ['.NET→.NET'],
      [{ source: '.NET', target: '.NET' }],
    ],
    ['hyphenated', 'an e-mail, not an email', 'an Xgt0x, not an email', ['e-mail→correo'], [{ source: 'e-mail', target: 'correo' }]],
    [
      'letters beyond ASCII',
      'ÄRGER mit Ärger',
      'Xgt0x mit Xgt1x',
      ['ÄRGER→trouble', 'Ärger→trouble'],
      [{ source: 'ärger', target: 'trouble' }],
    ],
    [
      'a combining mark belongs to the word',
      'cafe\u0301 cafe',
      'cafe\u0301 Xgt0x',
      ['cafe→coffee'],
      [{ source: 'cafe', target: 'coffee' }],
    ],
    ['nothing to match', '', '', []],
  ])('%s', (_name, text, expected, occurrences, terms) => {
    expect(protect(text, terms)).toEqual([expected, occurrences]);
  });

  it('returns the tokens with the occurrences', () => {
    expect(protectTerms('Print the file', compileGlossary(GLOSSARY)).terms).toEqual([
      { token: 'Xgt0x', source: 'Print', target: 'Imprimir' },
      { token: 'Xgt1x', source: 'file', target: 'archivo' },
    ]);
  });

  it('finds a prefix for a text that holds all the usual ones', () => {
    const text = 'xgt qgt zgt xqz qzx zqj jqx vqz xgtq xgtqq file';
    const [protectedText] = protect(text);
    expect(protectedText).toBe(text.replace('file', 'Xgtqqq0x'));
  });

  it('refuses a glossary it did not compile', () => {
    expect(() => protectTerms('file', { size: 1 })).toThrow(TypeError);
  });

  it('stays linear on a term that almost matches everywhere', () => {
    const long = Array.from({ length: 3000 }, () => 'a').join(' ');
    const text = Array.from({ length: 30_000 }, () => 'a').join(' ');
    const result = protectTerms(
      `${text} b`,
      compileGlossary([
        { source: `${long} b`, target: 'X' },
        { source: 'a', target: 'Y' },
      ]),
    );
    expect(result.terms).toHaveLength(30_000 - 3000 + 1);
    expect(result.terms.at(-1)).toMatchObject({ target: 'X' });
  });
});

const term = (token: string, source: string, target: string): ProtectedTerm => ({ token, source, target });

describe('restoreTerms', () => {
  it.each<[string, string, ProtectedTerm[], string]>([
    ['a token', 'Abra el Xgt0x.', [term('Xgt0x', 'file', 'archivo')], 'Abra el archivo.'],
    ['capitalized at the start', 'Xgt0x de ajustes', [term('Xgt0x', 'Print queue', 'cola de impresión')], 'Cola de impresión de ajustes'],
    [
      'not capitalized when the source was lower case',
      'Xgt0x ok',
      [term('Xgt0x', 'print queue', 'cola de impresión')],
      'cola de impresión ok',
    ],
    ['capitalized after a sentence end', 'Listo. Xgt0x', [term('Xgt0x', 'File', 'archivo')], 'Listo. Archivo'],
    ['capitalized after ! and a closing bracket', 'Ya!) Xgt0x', [term('Xgt0x', 'File', 'archivo')], 'Ya!) Archivo'],
    ['not after a full stop without space', 'v1.Xgt0x', [term('Xgt0x', 'File', 'archivo')], 'v1.archivo'],
    ['not in the middle of a sentence', 'Abra el Xgt0x', [term('Xgt0x', 'File', 'archivo')], 'Abra el archivo'],
    ['not after a comma and space', 'Sí, Xgt0x', [term('Xgt0x', 'File', 'archivo')], 'Sí, archivo'],
    ['after opening punctuation', '¿Xgt0x?', [term('Xgt0x', 'Print', 'imprimir')], '¿Imprimir?'],
    ['after a quote and a tag', '"<g1>Xgt0x</g1>" listo', [term('Xgt0x', 'File', 'archivo')], '"<g1>Archivo</g1>" listo'],
    ['leading white space', '  Xgt0x', [term('Xgt0x', 'File', 'archivo')], '  Archivo'],
    [
      'the engine changed the case',
      'xgt0x y XGT1X',
      [term('Xgt0x', 'file', 'archivo'), term('Xgt1x', 'print', 'imprimir')],
      'archivo y imprimir',
    ],
    ['a token doubled by the engine', 'Xgt0x, Xgt0x', [term('Xgt0x', 'file', 'archivo')], 'archivo, archivo'],
    [
      'two sources to one target',
      'Xgt0x Xgt1x',
      [term('Xgt0x', 'file', 'archivo'), term('Xgt1x', 'document', 'archivo')],
      'archivo archivo',
    ],
    ['Xgt1x is not Xgt10x', 'Xgt10x', [term('Xgt1x', 'file', 'archivo'), term('Xgt10x', 'print', 'imprimir')], 'imprimir'],
  ])('%s', (_name, output, terms, expected) => {
    expect(restoreTerms(output, terms).text).toBe(expected);
  });

  it.each<[string, string, ProtectedTerm[], Array<{ source: string; target: string }>]>([
    ['fires: the token is gone', 'Abra el.', [term('Xgt0x', 'file', 'archivo')], [{ source: 'file', target: 'archivo' }]],
    [
      'fires: the token is glued into a word',
      'Abra el Xgt0xs.',
      [term('Xgt0x', 'file', 'archivo')],
      [{ source: 'file', target: 'archivo' }],
    ],
    [
      'fires for the lost one only',
      'Xgt1x',
      [term('Xgt0x', 'file', 'archivo'), term('Xgt1x', 'print', 'imprimir')],
      [{ source: 'file', target: 'archivo' }],
    ],
    ['silent: every token came back', 'Xgt1x Xgt0x', [term('Xgt0x', 'file', 'archivo'), term('Xgt1x', 'print', 'imprimir')], []],
  ])('lost terms %s', (_name, output, terms, lost) => {
    const { text, warnings } = restoreTerms(output, terms);
    expect(warnings).toEqual(lost.map((l) => ({ kind: 'GLOSSARY_TERM_LOST', ...l })));
    for (const l of lost) expect(text).not.toContain(l.target);
  });
});

describe('tags and terms through an engine together', () => {
  it('protects tags, then terms; restores terms, then tags', () => {
    const glossary = compileGlossary(GLOSSARY);
    const tags = protectTags('{1}Open the {2>file<2} in the print queue.', 'markup');
    expect(tags.engineText).toBe('Open the <g2>file</g2> in the print queue.');
    const terms = protectTerms(tags.engineText, glossary);
    expect(terms.text).toBe('Open the <g2>Xgt0x</g2> in the Xgt1x.');
    const pair = protectTerms(tags.pairContents[0]!.text, glossary);
    expect(pair.text).toBe('Xgt0x');
    // The engine reorders and capitalizes as Apertium would.
    const output = restoreTerms('Abra el <g2>Xgt0x</g2> en la Xgt1x.', terms.terms);
    const pairOutput = restoreTerms('Xgt0x', pair.terms);
    expect(restoreTags(tags, output.text, new Map([[2, pairOutput.text]]))).toEqual({
      text: '{1}Abra el {2>archivo<2} en la cola de impresión.',
      warnings: [],
    });
  });
});
