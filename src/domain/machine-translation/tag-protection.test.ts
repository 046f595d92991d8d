import { describe, expect, it } from 'vitest';
import { protectTags, restoreTags } from './tag-protection.js';
import type { MtWarning, TagMode } from './tag-protection.js';

const E = '\uE000';

/** Protects, lets `engine` translate the engine text, and restores. */
function through(
  segment: string,
  mode: TagMode,
  engine: (engineText: string) => string,
  pairTranslations?: ReadonlyMap<number, string>,
): { text: string; warnings: MtWarning[] } {
  const p = protectTags(segment, mode);
  return restoreTags(p, engine(p.engineText), pairTranslations);
}

const reinserted = (...tags: string[]): MtWarning[] => tags.map((tag) => ({ kind: 'TAG_REINSERTED', tag }));

describe('protectTags: what goes to the engine', () => {
  it.each<[string, string, TagMode, string]>([
    ['a pair inside', 'Open the {1>blue<1} house', 'markup', 'Open the <g1>blue</g1> house'],
    ['a standalone tag glued to words stays glued', 'a{1}b', 'markup', 'a<x1/>b'],
    ['spaces around a tag are kept', 'a {1} b', 'markup', 'a <x1/> b'],
    ['leading and trailing tags are taken off', '{1}  Hello {2>world<2}. {3}', 'markup', 'Hello <g2>world</g2>.'],
    ['a pair around everything is taken off', '{1>Hello<1}', 'markup', 'Hello'],
    ['a pair opened at the start, closed inside', '{1>Bold<1} text', 'markup', 'Bold</g1> text'],
    ['leading white space alone', '  Hello ', 'markup', 'Hello'],
    ['only tags', '{1} {2>  <2}', 'markup', ''],
    ['only white space', ' \n ', 'markup', ''],
    ['empty', '', 'markup', ''],
    ['literal < and > are sent as they are', 'if a < b and c > d', 'markup', 'if a < b and c > d'],
    ['literal marker-like text is escaped', 'Type <g1> or </G2 > or <x3/> here', 'markup', `Type ${E}g1> or ${E}/G2 > or ${E}x3/> here`],
    ['an escaped literal beside a real tag', 'x <g1>{1}y', 'markup', `x ${E}g1><x1/>y`],
    ['a token-like text that is no tag', 'a {x} <y> b', 'markup', 'a {x} <y> b'],
    ['text mode: tags removed', 'Click {1>Save<1} now', 'text', 'Click Save now'],
    ['text mode: one of two spaces goes', 'a {1} b', 'text', 'a b'],
    ['text mode: several tags between spaces', 'a {1} {2} b', 'text', 'a b'],
    ['text mode: no space is added', 'a{1}b', 'text', 'ab'],
    ['text mode: literal marker-like text is not escaped', 'Type <g1> here', 'text', 'Type <g1> here'],
  ])('%s', (_name, segment, mode, engineText) => expect(protectTags(segment, mode).engineText).toBe(engineText));

  it('escapes with a private-use character the text does not use', () => {
    expect(protectTags(`${E} <g1> x`, 'markup').engineText).toBe(`${E} \uE001g1> x`);
  });

  it.each<[string, string, TagMode, Array<{ tag: number; text: string }>]>([
    ['a plain pair', 'Click {1>Save<1} now', 'markup', [{ tag: 1, text: 'Save' }]],
    [
      'two pairs',
      'A {1>bold<1} and {2> italic <2}.',
      'markup',
      [
        { tag: 1, text: 'bold' },
        { tag: 2, text: 'italic' },
      ],
    ],
    ['nested: only the inner pair', 'A {1>very {2>bold<2}<1} word', 'markup', [{ tag: 2, text: 'bold' }]],
    ['a pair holding a standalone tag', 'See {1>the {2}docs<1} now', 'markup', []],
    ['no letter in the pair', 'A {1>42<1} b', 'markup', []],
    ['a leading pair is not sent', '{1>Save<1} now', 'markup', []],
    ['text mode lists none', 'Click {1>Save<1} now', 'text', []],
  ])('pair contents: %s', (_name, segment, mode, contents) => expect(protectTags(segment, mode).pairContents).toEqual(contents));

  it('keeps the protected text plain JSON', () => {
    const p = protectTags('{1}Click {2>Save<2} and {3} go', 'markup');
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });
});

describe('restoreTags: markup mode', () => {
  it.each<[string, string, string, string, MtWarning[]]>([
    ['the engine kept everything', 'Open the {1>file<1} now', 'Abra el <g1>archivo</g1> ahora', 'Abra el {1>archivo<1} ahora', []],
    ['the ends come back as they were', '{1}  Hello {2>world<2}. {3}', ' Hola <g2>mundo</g2>. ', '{1}  Hola {2>mundo<2}. {3}', []],
    ['a standalone glued tag', 'a{1}b', 'x<x1/>y', 'x{1}y', []],
    ['markers read case-insensitively, white space allowed', 'a {1>b<1} {2} c', 'x <G1 >y</g1> <X2 /> z', 'x {1>y<1} {2} z', []],
    ['a duplicate is dropped', 'a {1} b', 'x <x1/> y <x1/> z', 'x {1} y  z', []],
    ['a marker of no tag of the segment is dropped', 'a {1} b', 'x <x1/> <x9/>y <g1>z', 'x {1} y z', []],
    ['a leading tag marker is not one of the inner tags', '{1}a {2} b', 'x <x1/><x2/> y', '{1}x {2} y', []],
    ['escaped literal text comes back as text', 'Type <g1> and {1} here', `Escriba ${E}g1> y <x1/> aquí`, 'Escriba <g1> y {1} aquí', []],
    [
      'a closing marker before its opening one is swapped',
      'Hello {1>world<1} now',
      'Hola </g1>mundo<g1> ya',
      'Hola {1>mundo<1} ya',
      [{ kind: 'TAG_ORDER_REPAIRED', tag: '{1>' }],
    ],
    [
      'a lost standalone tag: relative position, nearest white-space boundary',
      'Press {1} to continue',
      'Pulse para continuar',
      'Pulse {1}para continuar',
      reinserted('{1}'),
    ],
    [
      'a lost pair: around whole words where it was',
      'The {1>file<1} is open',
      'El archivo está abierto',
      'El {1>archivo<1} está abierto',
      reinserted('{1>', '<1}'),
    ],
    [
      'a lost closing half: right after the opening one',
      'Hello {1>world<1} now',
      'Hola <g1>mundo ya',
      'Hola {1><1}mundo ya',
      reinserted('<1}'),
    ],
    [
      'a lost opening half: right before the closing one',
      'Hello {1>world<1} now',
      'Hola mundo</g1> ya',
      'Hola mundo{1><1} ya',
      reinserted('{1>'),
    ],
    [
      'a lost half whose other half leads: by position, to a word end',
      '{1>Bold<1} text',
      'Texto negrita',
      '{1>Texto<1} negrita',
      reinserted('<1}'),
    ],
    ['an empty lost pair stays empty and in order', 'a {1><1}b', 'x y', 'x {1><1}y', reinserted('{1>', '<1}')],
    ['everything lost in an empty output', 'a {1} b', '', '{1}', reinserted('{1}')],
    ['a segment of tags only ignores the output', '{1} {2>  <2}', 'whatever', '{1} {2>  <2}', []],
  ])('%s', (_name, segment, output, expected, warnings) => {
    const p = protectTags(segment, 'markup');
    expect(restoreTags(p, output)).toEqual({ text: expected, warnings });
  });

  it('reorders with the words: the tags stay where the engine put them', () => {
    const result = through('the {1>blue<1} house', 'markup', () => 'La <g1>casa</g1> azul');
    expect(result).toEqual({ text: 'La {1>casa<1} azul', warnings: [] });
  });

  it.each<[string, string, string, number, string, MtWarning[]]>([
    [
      'fires: the pair holds another word',
      'the {1>blue<1} house',
      'La <g1>casa</g1> azul',
      1,
      'azul',
      [{ kind: 'TAG_POSSIBLY_MISPLACED', tag: '{1>' }],
    ],
    ['silent: the same word', 'the {1>blue<1} house', 'La casa <g1>azul</g1>', 1, 'azul', []],
    ['silent: case, white space and surrounding punctuation', 'Click {1>Save<1} now', 'Pulse <g1> «GUARDAR</g1> ya', 1, 'Guardar.', []],
    [
      'fires: punctuation inside counts',
      'Click {1>Save all<1} now',
      'Pulse <g1>guardar-todo</g1> ya',
      1,
      'guardar todo',
      [{ kind: 'TAG_POSSIBLY_MISPLACED', tag: '{1>' }],
    ],
    ['silent: a translation for another pair', 'Click {1>Save<1} now', 'Pulse <g1>ya</g1> guardar', 2, 'guardar', []],
    ['silent: a lost pair is only re-inserted', 'Click {1>Save<1} now', 'Pulse guardar ya', 1, 'zzz', reinserted('{1>', '<1}')],
    [
      'after an order repair, the repaired pair is checked',
      'Click {1>Save<1} now',
      'Pulse </g1>guardar<g1> ya',
      1,
      'ya',
      [
        { kind: 'TAG_ORDER_REPAIRED', tag: '{1>' },
        { kind: 'TAG_POSSIBLY_MISPLACED', tag: '{1>' },
      ],
    ],
  ])('pair check %s', (_name, segment, output, n, translation, warnings) => {
    expect(through(segment, 'markup', () => output, new Map([[n, translation]])).warnings).toEqual(warnings);
  });

  it('does not split a surrogate pair', () => {
    expect(through('x {1} yyy', 'markup', () => '𠀀𠀀𠀀 zz').text).toBe('𠀀{1}𠀀𠀀 zz');
  });
});

describe('restoreTags: text mode', () => {
  it.each<[string, string, string, string, MtWarning[]]>([
    ['a pair around the word', 'Click {1>Save<1} now', 'Pulse Guardar ahora', 'Pulse {1>Guardar<1} ahora', reinserted('{1>', '<1}')],
    ['a standalone tag between spaces', 'a {1} b', 'x y', 'x {1}y', reinserted('{1}')],
    ['the ends are not re-inserted', '{1}Click {2}now{3}', 'Pulse ya', '{1}Pulse {2}ya{3}', reinserted('{2}')],
    ['every character edge counts in Japanese', 'ファイル{1}を開く', 'ファイルを開く', 'ファイル{1}を開く', reinserted('{1}')],
    ['a half pair whose closing half trails: a word start', 'a {1>b<1}', 'abcdef', '{1>abcdef<1}', reinserted('{1>')],
    ['a standalone tag at a word end in the source goes to a word end', 'Click{1} now', 'Pulse ya', 'Pulse{1} ya', reinserted('{1}')],
    ['several tags at one place keep their order', 'Go {1}{2} now', 'Ve ya', 'Ve {1}{2}ya', reinserted('{1}', '{2}')],
    ['text without spaces: the nearest end', 'xxx{1}y', 'abcd', 'abcd{1}', reinserted('{1}')],
  ])('%s', (_name, segment, output, expected, warnings) => {
    expect(through(segment, 'text', () => output)).toEqual({ text: expected, warnings });
  });

  it('puts a pair of the whole inner text around it', () => {
    expect(through('Save {1>all files<1} now', 'text', () => 'Guardar todos los archivos ya')).toEqual({
      text: 'Guardar {1>todos los archivos<1} ya',
      warnings: reinserted('{1>', '<1}'),
    });
  });

  it('restores an echo of many tags exactly, in linear time', () => {
    const segment = Array.from({ length: 20_000 }, (_, i) => `w${i} {${i + 1}}`).join(' ') + ' end';
    const result = through(segment, 'text', (text) => text);
    expect(result.text).toBe(segment.replace(/ \{(\d+)\} /g, ' {$1}'));
    expect(result.warnings).toHaveLength(20_000);
  });
});
