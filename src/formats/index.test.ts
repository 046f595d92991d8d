import { describe, expect, it } from 'vitest';
import { filterFor } from './index.js';
import { compileTagRegexp, displayToken, inlineTag, restoreTags, splitTokens, tagsByPattern } from './inline-tags.js';
import { FormatError } from './types.js';

const XLIFF_HEAD = '<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">';

describe('filterFor', () => {
  it.each([
    ['notes.txt', 'anything', 'plain-text'],
    ['NOTES.TXT', 'anything', 'plain-text'],
    ['strings.xlf', '', 'xliff12'],
    ['strings.XLIFF', '', 'xliff12'],
    ['en.json', '', 'json'],
    ['export', XLIFF_HEAD, 'xliff12'],
    ['export.xml', "<xliff version='1.2'>", 'xliff12'],
    ['export.dat', '\ufeff{\n  "a": "b"}', 'json'],
    ['export.dat', '{}', 'json'],
    ['export.dat', '<html></html>', 'html'],
    ['export.dat', '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0">', 'xliff2'],
    ['strings.xlf', '<xliff version="2.1" xmlns="urn:oasis:names:tc:xliff:document:2.0">', 'xliff2'],
    ['job.mxliff', '', 'mxliff'],
    ['export.xlf', '<xliff xmlns:m="http://www.memsource.com/mxlf/2.0" version="1.2">', 'xliff12'],
    ['export.dat', '<xliff xmlns:m="http://www.memsource.com/mxlf/2.0" version="1.2">', 'mxliff'],
    ['messages.po', '', 'gettext-po'],
    ['messages.pot', '', 'gettext-po'],
    ['export.dat', '# comment\nmsgid ""\nmsgstr ""', 'gettext-po'],
    ['app_en.arb', '', 'arb'],
    ['export.dat', '{\n  "@@locale": "en",', 'arb'],
    ['en.yml', '', 'yaml'],
    ['Localizable.strings', '', 'ios-strings'],
    ['movie.srt', '', 'srt'],
    ['movie.vtt', '', 'webvtt'],
    ['memory.tmx', '', 'tmx-job'],
    ['messages.properties', '', 'java-properties'],
    ['table.csv', 'a,b', 'csv'],
    ['table.tsv', 'a\tb', 'tsv'],
    ['book.xml', '<?xml version="1.0"?><book/>', 'xml'],
    ['book.xml', '<book/>', 'xml'],
    ['memory.xml', '<?xml version="1.0"?><tmx version="1.4">', 'tmx-job'],
    ['strings.xml', '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="app">App</string>', 'android-strings'],
    ['Strings.resx', '', 'resx'],
    ['app_de.ts', '', 'qt-ts'],
    ['Localizable.stringsdict', '', 'ios-stringsdict'],
    ['index.html', '', 'html'],
    ['page.htm', '', 'html'],
    ['export.dat', '<!DOCTYPE html>\n<html lang="en">', 'html'],
    ['README.md', '', 'markdown'],
    ['export.dat', 'plain words', null],
    ['export.docx', 'PK\u0003\u0004', 'docx'],
    ['deck.pptx', '', 'pptx'],
    ['book.xlsx', '', 'xlsx'],
    ['letter.odt', '', 'odt'],
    ['sheet.ods', '', 'ods'],
    ['slides.odp', '', 'odp'],
    ['export.dat', 'PK\u0003\u0004', null],
  ])('%s starting with %j → %s', (filename, head, expected) => {
    expect(filterFor(filename, Buffer.from(head))?.name ?? null).toBe(expected);
  });

  it('recognizes UTF-16 XLIFF by content', () => {
    const head = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(XLIFF_HEAD, 'utf16le')]);
    expect(filterFor('upload.bin', head)?.name).toBe('xliff12');
  });
});

describe('inline tag tokens', () => {
  const tags = [inlineTag(1, 'open', '<b>'), inlineTag(1, 'close', '</b>'), inlineTag(2, 'standalone', '<br/>')];

  it.each([
    ['open', 3, '{3>'],
    ['close', 3, '<3}'],
    ['standalone', 12, '{12}'],
  ] as const)('shows %s tag %i as %s', (kind, id, display) => {
    expect(displayToken(kind, id)).toBe(display);
  });

  it.each([
    ['{1>bold<1}{2}', '[<b>][bold][</b>][<br/>]'],
    ['{1}{2}x<3}{2>', '[{1}][<br/>][x<3}{2>]'],
    ['no tags', '[no tags]'],
    ['<1}{1>', '[</b>][<b>]'],
  ])('splits %j into known tags and literal text', (text, expected) => {
    expect(
      splitTokens(text, tags)
        .map((p) => `[${'tag' in p ? p.tag.original : p.text}]`)
        .join(''),
    ).toBe(expected);
  });

  it('restores tags and escapes only the text', () => {
    expect(restoreTags('a<{1>b<1}', tags, (t) => t.replace(/</g, '&lt;'))).toBe('a&lt;<b>b</b>');
  });

  it('makes standalone tags from a pattern, ignoring empty matches', () => {
    expect(tagsByPattern('%s and %d', compileTagRegexp('%[sd]|x*')).source).toBe('{1} and {2}');
    expect(tagsByPattern('plain', null)).toEqual({ source: 'plain', tags: [] });
  });

  it('reports a bad tagRegexp as a FormatError', () => {
    expect(() => compileTagRegexp('[')).toThrow(FormatError);
    expect(compileTagRegexp('')).toBeNull();
  });
});
