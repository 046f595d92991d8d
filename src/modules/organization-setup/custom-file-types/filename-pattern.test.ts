import { describe, expect, it } from 'vitest';
import { FORMAT_FILTERS } from '../../../formats/index.js';
import { FILE_FORMAT_OF_TYPE } from './custom-file-types.service.js';
import { compileFilenamePattern, matchesFilenamePattern } from './filename-pattern.js';

describe('custom file type patterns', () => {
  it.each([
    // pattern, file name, matches
    ['*.json', 'strings.json', true],
    ['*.json', 'strings.JSON', true],
    ['*.JSON', 'Strings.json', true],
    ['*.json', 'strings.json5', false],
    ['*.json', '.json', true],
    ['*.json', 'json', false],
    ['strings_??.xml', 'strings_de.xml', true],
    ['strings_??.xml', 'strings_deu.xml', false],
    ['strings_??.xml', 'strings_d.xml', false],
    ['messages*.properties', 'messages_de.properties', true],
    ['messages*.properties', 'messages.properties', true],
    ['messages*.properties', 'my_messages.properties', false],
    ['*', 'anything.at.all', true],
    ['*', '', true],
    ['', '', true],
    ['', 'a', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*b*c', 'abcbc', true],
    ['*ab*ab*', 'aab', false],
    ['*ab*ab*', 'abab', true],
    ['*a?c*', 'xxabcxx', true],
    ['?', 'ä', true],
    ['?', '😀', true],
    ['??', '😀', false],
    ['file[1].txt', 'file[1].txt', true],
    ['file[1].txt', 'file1.txt', false],
    ['a.b', 'aXb', false],
    // Folders: the file name alone, unless the pattern names folders.
    ['*.json', 'locales/en/strings.json', true],
    ['strings.json', 'locales/en/strings.json', true],
    ['strings.json', 'locales\\en\\strings.json', true],
    ['locales/*.json', 'locales/en/strings.json', true],
    ['locales/*.json', 'other/en/strings.json', false],
    ['en/*', 'strings.json', false],
  ])('%j matches %j: %s', (pattern, name, expected) => {
    expect(matchesFilenamePattern(pattern, name)).toBe(expected);
  });

  it('counts the characters that are not wildcards', () => {
    expect(compileFilenamePattern('*.json').literalCount).toBe(5);
    expect(compileFilenamePattern('messages_??.json').literalCount).toBe(14);
    expect(compileFilenamePattern('*').literalCount).toBe(0);
  });

  it('is linear in the file name: adversarial patterns over long names stay fast', () => {
    const name = 'a'.repeat(200_000);
    const patterns = ['*a*a*a*a*a*a*a*a*a*a*b', `${'a*'.repeat(100)}b`, `*${'a'.repeat(200)}b*`, `*${'?'.repeat(250)}b`];
    const started = process.hrtime.bigint();
    for (const pattern of patterns) expect(matchesFilenamePattern(pattern, name)).toBe(false);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // Backtracking matchers take minutes here; the segment matcher does at most name x segment steps.
    expect(ms).toBeLessThan(5_000);
  });

  it('names a filter of src/formats for every file type (or one the formats plan of issue 18 adds)', () => {
    const names = new Set(FORMAT_FILTERS.map((f) => f.name));
    // docs/file-formats.md, "the plan": HTML and rule-driven XML filters join the registry in issue 18; multilingual XML has none yet.
    const planned = new Set(['html', 'xml', 'multilingual-xml']);
    for (const [type, format] of Object.entries(FILE_FORMAT_OF_TYPE)) {
      expect(names.has(format) || planned.has(format), `${type} -> ${format}`).toBe(true);
    }
    expect(names.has(FILE_FORMAT_OF_TYPE.json) && names.has(FILE_FORMAT_OF_TYPE.txt)).toBe(true);
  });
});
