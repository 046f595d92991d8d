import { describe, expect, it } from 'vitest';
import { dottedKey, jsonFilter, jsonPointer } from './json.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';

const sample = `{
  "app": {
    "title": "My App",
    "menu.label": "Menu",
    "items": ["Open", "Close", 3, true, null],
    "empty": "",
    "blank": "   ",
    "count": 12.5e3
  },
  "a/b~c": "Slash \\"quoted\\" \\u00e9",
  "back\\\\slash": "x"
}
`;

describe('JSON parse', () => {
  it('flattens objects to dotted keys, arrays by index, only non-blank strings', async () => {
    const units = await parseAll(jsonFilter, sample, {}, 7);
    expect(units.map((u) => [u.key, u.locator, u.source])).toEqual([
      ['app.title', '/app/title', 'My App'],
      ['app.menu\\.label', '/app/menu.label', 'Menu'],
      ['app.items.0', '/app/items/0', 'Open'],
      ['app.items.1', '/app/items/1', 'Close'],
      ['a/b~c', '/a~1b~0c', 'Slash "quoted" é'],
      ['back\\\\slash', '/back\\slash', 'x'],
    ]);
    units.forEach((u, i) => expect(u).toMatchObject({ index: i, target: null, translatable: true, note: null, tags: [] }));
  });

  it.each([
    [['a', 'b'], 'a.b', '/a/b'],
    [['a.b'], 'a\\.b', '/a.b'],
    [['a\\.b'], 'a\\\\\\.b', '/a\\.b'],
    [['x/y', '~'], 'x/y.~', '/x~1y/~0'],
    [['list', '0'], 'list.0', '/list/0'],
  ])('names %j as key %s and pointer %s', (path, key, pointer) => {
    expect(dottedKey(path)).toBe(key);
    expect(jsonPointer(path)).toBe(pointer);
  });

  it('reads a top-level array and UTF-16 with BOM', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('["Grüße", {"k": "v"}]', 'utf16le')]);
    expect((await parseAll(jsonFilter, bytes, {}, 3)).map((u) => [u.key, u.source])).toEqual([
      ['0', 'Grüße'],
      ['1.k', 'v'],
    ]);
  });

  it('turns tagRegexp matches into standalone tags', async () => {
    const [unit] = await parseAll(jsonFilter, '{"m": "Hi {{name}}, {{count}} new"}', { tagRegexp: '\\{\\{\\w+\\}\\}' });
    expect(unit?.source).toBe('Hi {1}, {2} new');
  });

  it.each([
    ['trailing comma', '{"a": "x",}', /expected a property name/, 1, 11],
    ['unquoted key', '{\n  a: "x"}', /expected a property name/, 2, 3],
    ['single quotes', "{'a': 'x'}", /expected a property name/, 1, 2],
    ['bad escape', '{"a": "\\q"}', /bad string literal/, 1, 7],
    ['raw control character in a string', '{"a": "x\ty"}', /bad string literal/, 1, 7],
    ['two documents', '{} {}', /after the end of the document/, 1, 4],
    ['truncated', '{"a": [1, 2', /expected "," or "]"/, 1, 12],
    ['empty file', '', /unexpected end of file/, 1, 1],
    ['duplicate key', '{"a": "1",\n "a": "2"}', /duplicate key "a"/, 2, 2],
    ['bad number', '{"a": 01}', /expected "," or "}"/, 1, 8],
  ])('refuses %s with a FormatError at its position', async (_name, text, message, line, column) => {
    const error = await parseAll(jsonFilter, text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect(error).toMatchObject({ line, column });
    expect((error as Error).message).toMatch(message);
  });

  it('reads a string value of megabytes (no regular expression over it)', async () => {
    const [unit] = await parseAll(jsonFilter, `{"long": "${'ab\\n'.repeat(1_000_000)}"}`);
    expect(unit?.source.length).toBe(3_000_000);
  });

  it('refuses nesting deep enough to threaten the stack', async () => {
    await expect(parseAll(jsonFilter, '['.repeat(10_000) + ']'.repeat(10_000))).rejects.toThrow(/nested deeper than/);
  });

  it('refuses a file over the size limit without reading it all', async () => {
    const text = `{"a": "${'x'.repeat(5000)}"}`;
    await expect(parseAll(jsonFilter, text, { maxJsonBytes: 1000 }, 100)).rejects.toThrow(/larger than 1000 bytes/);
    expect(await parseAll(jsonFilter, text, { maxJsonBytes: 10_000 })).toHaveLength(1);
  });
});

describe('JSON write-back', () => {
  it('writes the file back byte for byte when nothing is translated', async () => {
    expect((await writeAll(jsonFilter, sample, {})).toString()).toBe(sample);
  });

  it('replaces only the translated string literals', async () => {
    const out = await writeAll(jsonFilter, sample, {
      '/app/title': 'Meine "App"\n',
      '/app/items/1': 'Schließen',
      '/a~1b~0c': 'Schräg \\ ☺',
      '/app/count': 'not a string: ignored',
    });
    expect(out.toString()).toBe(
      sample
        .replace('"My App"', '"Meine \\"App\\"\\n"')
        .replace('"Close"', '"Schließen"')
        .replace('"Slash \\"quoted\\" \\u00e9"', '"Schräg \\\\ ☺"'),
    );
  });

  it('round trips, keeps the BOM and restores tags', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"m": "Hi {name}", "n": ["a"]}\r\n')]);
    const units = await parseAll(jsonFilter, bytes, { tagRegexp: '\\{\\w+\\}' });
    const out = await writeAll(jsonFilter, bytes, Object.fromEntries(units.map((u) => [u.locator, `DE ${u.source}`])), {
      tagRegexp: '\\{\\w+\\}',
    });
    expect(out.equals(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"m": "DE Hi {name}", "n": ["DE a"]}\r\n')]))).toBe(
      true,
    );
    expect((await parseAll(jsonFilter, out)).map((u) => u.source)).toEqual(['DE Hi {name}', 'DE a']);
  });

  it('refuses to write over a malformed original', async () => {
    await expect(writeAll(jsonFilter, '{"a": ', { '/a': 'x' })).rejects.toBeInstanceOf(FormatError);
  });
});

describe('JSON on hostile input', () => {
  it('refuses nesting deeper than maxDepth, naming the limit', async () => {
    const doc = '['.repeat(400) + '"x"' + ']'.repeat(400);
    await expect(parseAll(jsonFilter, doc, { maxDepth: 100 })).rejects.toThrow(/nested deeper than 100 levels/);
    expect(await parseAll(jsonFilter, doc, { maxDepth: 5_000 })).toHaveLength(1);
    // At the highest configurable limit (OPENTMS_IMPORT_MAX_DEPTH up to 1,000) the scanner does not run out of stack.
    const deepest = '{"":'.repeat(1_000) + '1' + '}'.repeat(1_000);
    expect(await parseAll(jsonFilter, deepest, { maxDepth: 1_000 })).toHaveLength(0);
    // Past it, a stack overflow is still a FormatError, not a crash.
    const deeper = '['.repeat(100_000) + ']'.repeat(100_000);
    await expect(parseAll(jsonFilter, deeper, { maxDepth: 1_000_000 })).rejects.toThrow(FormatError);
  });

  it('refuses a key path longer than 1,000 characters (every unit stores its key)', async () => {
    await expect(parseAll(jsonFilter, `{"${'k'.repeat(2_000)}": ["a", "b"]}`)).rejects.toThrow(/key path is longer than 1000/);
  });

  it('reads 100,000 one-character strings', async () => {
    const units = await parseAll(jsonFilter, `{"a":[${Array(100_000).fill('"x"').join(',')}]}`);
    expect(units).toHaveLength(100_000);
    expect(units[99_999]!.key).toBe('a.99999');
  });
});
