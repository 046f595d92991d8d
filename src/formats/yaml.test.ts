import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import { doubleQuoted, renderScalar, yamlFilter } from './yaml.js';

const rails = `# Rails locale file
en:
  # Shown on the home page
  welcome: Welcome to our shop   # keep it short
  quoted: 'It''s here'
  double: "Say \\"hi\\" to %{name}"
  multi_plain: This one
    spans two lines
  notice: |
    Your order has shipped.
    It arrives soon.

  folded: >-
    A long text that
    is folded.
  defaults: &defaults
    save: Save
    cancel: Cancel
  form:
    <<: *defaults
    submit: Submit
  title: &title Dashboard
  page_title: *title
  messages:
    one: "%{count} message"
    other: "%{count} messages"
  count: 12
  enabled: yes
  empty: ""
  blank: "   "
  nothing:
  days: [Monday, 'Tuesday', "Wednesday"]
  items:
    - First
    - name: Second
  date_format: "%Y-%m-%d"
  tagged: !!str 42
  ruby: !ruby/symbol foo
`;

function translateAll(units: Array<{ locator: string; source: string }>, f: (source: string) => string): Record<string, string> {
  return Object.fromEntries(units.map((u) => [u.locator, f(u.source)]));
}

/** Every string of the documents (as plain data), for comparing a written file with what was meant. */
function dataOf(text: string): unknown[] {
  return parseAllDocuments(text, { version: '1.1' }).map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS({ maxAliasCount: 1000 }) as unknown;
  });
}

const hasPyYaml = spawnSync('python3', ['-c', 'import yaml'], { stdio: 'ignore' }).status === 0;

/** PyYAML's reading of the file (YAML 1.1, an independent parser), as JSON. */
function pyYaml(text: string): unknown {
  const result = spawnSync(
    'python3',
    ['-c', 'import sys, json, yaml; print(json.dumps(list(yaml.safe_load_all(sys.stdin.read())), default=str))'],
    { input: text, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`PyYAML rejected the document: ${result.stderr}`);
  return JSON.parse(result.stdout) as unknown;
}

describe('YAML parse', () => {
  it('reads every non-blank string scalar of a Rails file, the locale left out of the keys', async () => {
    const units = await parseAll(yamlFilter, rails, {}, 7);
    expect(units.map((u) => [u.key, u.locator, u.source])).toEqual([
      ['welcome', '/en/welcome', 'Welcome to our shop'],
      ['quoted', '/en/quoted', "It's here"],
      ['double', '/en/double', 'Say "hi" to {1}'],
      ['multi_plain', '/en/multi_plain', 'This one spans two lines'],
      ['notice', '/en/notice', 'Your order has shipped.\nIt arrives soon.'],
      ['folded', '/en/folded', 'A long text that is folded.'],
      ['defaults.save', '/en/defaults/save', 'Save'],
      ['defaults.cancel', '/en/defaults/cancel', 'Cancel'],
      ['form.submit', '/en/form/submit', 'Submit'],
      ['title', '/en/title', 'Dashboard'],
      ['messages.one', '/en/messages/one', '{1} message'],
      ['messages.other', '/en/messages/other', '{1} messages'],
      ['days.0', '/en/days/0', 'Monday'],
      ['days.1', '/en/days/1', 'Tuesday'],
      ['days.2', '/en/days/2', 'Wednesday'],
      ['items.0', '/en/items/0', 'First'],
      ['items.1.name', '/en/items/1/name', 'Second'],
      ['date_format', '/en/date_format', '%Y-%m-%d'],
      ['tagged', '/en/tagged', '42'],
    ]);
    units.forEach((u, i) => expect(u).toMatchObject({ index: i, target: null, translatable: true }));
    expect(units[0]?.note).toBe('Shown on the home page\nkeep it short');
    expect(units[2]?.tags).toEqual([{ id: 1, kind: 'standalone', original: '%{name}', display: '{1}' }]);
  });

  it('names keys like the JSON filter, and numbers documents after the first in locators', async () => {
    const text = 'a.b:\n  "x/y": One\n  list:\n    - Two\n---\ntitle: Three\n--- Four\n';
    const units = await parseAll(yamlFilter, text);
    expect(units.map((u) => [u.key, u.locator, u.source])).toEqual([
      ['a\\.b.x/y', '/a.b/x~1y', 'One'],
      ['a\\.b.list.0', '/a.b/list/0', 'Two'],
      ['title', '2:/title', 'Three'],
      ['', '3:', 'Four'],
    ]);
  });

  it('keeps a root key that is no locale code, and a root with two keys', async () => {
    expect((await parseAll(yamlFilter, 'app:\n  name: Shop\n')).map((u) => u.key)).toEqual(['app.name']);
    expect((await parseAll(yamlFilter, 'en:\n  a: A\nde:\n  a: B\n')).map((u) => u.key)).toEqual(['en.a', 'de.a']);
  });

  it('applies includeKeyRegexp, excludeValueRegexp and tagRegexp', async () => {
    const text = 'en:\n  a:\n    x: Keep {{it}}\n    y: TODO\n  b: Other\n';
    const units = await parseAll(yamlFilter, text, {
      formatSettings: { includeKeyRegexp: 'a\\..*', excludeValueRegexp: 'TODO', tagRegexp: '\\{\\{\\w+\\}\\}' },
    });
    expect(units.map((u) => [u.key, u.source, u.tags.map((t) => t.original)])).toEqual([['a.x', 'Keep {1}', ['{{it}}']]]);
    await expect(parseAll(yamlFilter, text, { formatSettings: { includeKeyRegexp: '(' } })).rejects.toThrow(/includeKeyRegexp/);
  });

  it('reads UTF-8 split at every byte, with a BOM, and UTF-16LE with BOM', async () => {
    const text = 'de:\n  greet: Grüße, 世界 😀\n';
    expect((await parseAll(yamlFilter, text, {}, 1)).map((u) => u.source)).toEqual(['Grüße, 世界 😀']);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect((await parseAll(yamlFilter, bom, {}, 2)).map((u) => u.source)).toEqual(['Grüße, 世界 😀']);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect((await parseAll(yamlFilter, utf16, {}, 3)).map((u) => u.source)).toEqual(['Grüße, 世界 😀']);
  });

  it.each([
    ['a bad indentation', 'a:\n  b: 1\n c: 2\n', 3],
    ['an unterminated quote', 'a: "open\n', 2],
    ['a duplicate key', 'a: 1\nb: x\na: 2\n', 3],
    ['an unknown alias', 'a: *nope\n', 1],
    ['a tab indentation', 'a:\n\tb: c\n', 2],
  ])('refuses %s with a FormatError and its line', async (_name, text, line) => {
    const error = await parseAll(yamlFilter, text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).line).toBe(line);
  });
});

describe('YAML write', () => {
  it.each([
    ['the Rails file', rails],
    ['CRLF line ends', rails.replace(/\n/g, '\r\n')],
    ['a BOM', `\ufeff${rails}`],
    ['several documents', '%YAML 1.1\n---\na: One # c\n...\n---\n- Two\n- [Three, "Four"]\n'],
  ])('gives back %s byte for byte, with no translations and with the sources as translations', async (_name, text) => {
    const bytes = Buffer.from(text);
    expect((await writeAll(yamlFilter, bytes, {}, {}, 5)).equals(bytes)).toBe(true);
    const units = await parseAll(yamlFilter, bytes);
    expect(
      (
        await writeAll(
          yamlFilter,
          bytes,
          translateAll(units, (s) => s),
        )
      ).equals(bytes),
    ).toBe(true);
  });

  it('writes translations in the original style where it reads back the same, else double-quoted', async () => {
    const units = await parseAll(yamlFilter, rails);
    const out = (
      await writeAll(
        yamlFilter,
        rails,
        translateAll(units, (s) => `Ü ${s}`),
      )
    ).toString();
    expect(out).toContain('  welcome: Ü Welcome to our shop   # keep it short\n');
    expect(out).toContain("  quoted: 'Ü It''s here'\n");
    expect(out).toContain('  double: "Ü Say \\"hi\\" to %{name}"\n');
    expect(out).toContain(
      '  notice: |\n    Ü Your order has shipped.\n    It arrives soon.\n\n  folded: >-\n    Ü A long text that is folded.\n  defaults:',
    );
    expect(out).toContain('  title: &title Ü Dashboard\n  page_title: *title\n');
    expect(out).toContain('    one: "Ü %{count} message"\n');
    const [data] = dataOf(out) as Array<{ en: Record<string, unknown> }>;
    expect(data?.en.page_title).toBe('Ü Dashboard');
    expect(data?.en.form).toEqual({ save: 'Ü Save', cancel: 'Ü Cancel', submit: 'Ü Submit' });
    expect(data?.en.count).toBe(12);
  });

  const tricky = [
    'plain words',
    'yes',
    'No',
    '12',
    '0x1F',
    '2024-01-01',
    '~',
    'null',
    '- item',
    'key: value',
    'a # not a comment',
    '# comment',
    '"quoted"',
    "it's",
    'trailing space ',
    ' leading space',
    '{1}',
    'a, b [c] {d}',
    '*alias',
    '&anchor',
    '!tag',
    '%percent',
    '@at',
    '`tick',
    'line\nbreak',
    'two\n\nbreaks',
    'ends with break\n',
    'ends with two\n\n',
    '  indented\nsecond',
    'tab\there',
    'back\\slash',
    'nul \u0000 bell \u0007 esc \u001b del \u007f',
    'nel \u0085 ls \u2028 ps \u2029 bom \ufeff',
    'nbsp\u00a0here',
    'emoji 😀 and 世界',
    'crlf\r\nin text',
    '---',
    '...',
    'line\n---\nnot a document',
  ];

  it.each(['PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE'] as const)('renders tricky text as a %s scalar that reads back the same', (type) => {
    for (const value of tricky) {
      for (const inFlow of [false, true]) {
        const text = inFlow ? `a: [${renderScalar(value, type, 'x', true)}, b]\n` : `a: ${renderScalar(value, type, 'x', false)}\nb: c\n`;
        const [data] = dataOf(text) as Array<{ a: unknown }>;
        expect(inFlow ? (data?.a as unknown[])[0] : data?.a, text).toBe(value);
      }
    }
  });

  it.each([
    ['|', '|\n    old\n'],
    ['|-', '|-\n    old\n'],
    ['>', '>\n    old\n    text\n'],
    ['|+', '|+\n    old\n\n'],
    ['> with a comment', '> # note\n    old\n'],
  ])('renders tricky text in a %s block scalar that reads back the same', (_name, original) => {
    for (const value of tricky) {
      const text = `top:\n  a: ${renderScalar(value, original.startsWith('>') ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL', original, false)}  b: c\n`;
      const [data] = dataOf(text) as Array<{ top: { a: unknown; b: unknown } }>;
      expect(data?.top, text).toEqual({ a: value, b: 'c' });
    }
  });

  it('escapes what double quotes cannot hold', () => {
    expect(doubleQuoted('a"b\\c\n\t\u0000\u0085\u2028😀\ud800')).toBe('"a\\"b\\\\c\\n\t\\0\\N\\L😀\\ud800"');
  });

  it('keeps block scalars block scalars, with the chomping the translation needs', async () => {
    const text = 'a: |\n  one\n  two\nb: >\n  folded\n  text\n\nc: x\n';
    const units = await parseAll(yamlFilter, text);
    expect(units.map((u) => u.source)).toEqual(['one\ntwo', 'folded text', 'x']);
    const out = (await writeAll(yamlFilter, text, { '/a': 'eins\n\nzwei', '/b': 'gefaltet\nText', '/c': 'y' })).toString();
    expect(out).toBe('a: |\n  eins\n\n  zwei\nb: >\n  gefaltet\n\n  Text\n\nc: "y"\n');
    expect(dataOf(out)).toEqual([{ a: 'eins\n\nzwei\n', b: 'gefaltet\nText\n', c: 'y' }]);
  });

  it('accepts anchors and aliases as keys, which are no units', async () => {
    const text = '&k name: Value\nother:\n  *k : Again\n';
    expect((await parseAll(yamlFilter, text)).map((u) => [u.key, u.source])).toEqual([
      ['name', 'Value'],
      ['other.*k', 'Again'],
    ]);
  });

  it('translates an aliased value once, at its anchor', async () => {
    const text = 'base: &b Hello\ncopy: *b\nmerged:\n  <<: {k: *b}\n';
    const units = await parseAll(yamlFilter, text);
    expect(units.map((u) => u.locator)).toEqual(['/base']);
    const out = (await writeAll(yamlFilter, text, { '/base': 'Hallo' })).toString();
    expect(out).toBe('base: &b Hallo\ncopy: *b\nmerged:\n  <<: {k: *b}\n');
  });

  it('replaces the root locale key with updateRootElementLang, only when something is translated', async () => {
    const text = 'en:\n  hello: Hello\n';
    const options = { targetLanguage: 'pt_br', formatSettings: { updateRootElementLang: true, localeFormat: 'RFC_5646' } };
    expect((await writeAll(yamlFilter, text, { '/en/hello': 'Olá' }, options)).toString()).toBe('pt-BR:\n  hello: Olá\n');
    expect((await writeAll(yamlFilter, text, {}, options)).toString()).toBe(text);
    expect((await writeAll(yamlFilter, text, { '/en/hello': 'Olá' }, { targetLanguage: 'pt' })).toString()).toBe('en:\n  hello: Olá\n');
  });

  it('puts tags back as their original markup', async () => {
    const text = 'en:\n  m: "%{count} new, %<total>d in all"\n';
    const [unit] = await parseAll(yamlFilter, text);
    expect(unit?.source).toBe('{1} new, {2} in all');
    const out = (await writeAll(yamlFilter, text, { '/en/m': '{1} neu, {2} insgesamt, {3} literal' })).toString();
    expect(out).toBe('en:\n  m: "%{count} neu, %<total>d insgesamt, {3} literal"\n');
  });

  it.skipIf(!hasPyYaml)(
    'writes files PyYAML reads as the translations (skipped without python3-yaml: apt-get install python3-yaml)',
    async () => {
      const plainRails = rails.replace('  ruby: !ruby/symbol foo\n', '');
      const units = await parseAll(yamlFilter, plainRails);
      const translations = translateAll(units, (s) => `${s.split('').reverse().join('')}: "ü" # {1}\n- 'x'`);
      const out = (await writeAll(yamlFilter, plainRails, translations)).toString();
      expect(pyYaml(out)).toEqual(JSON.parse(JSON.stringify(dataOf(out))));
      const data = (pyYaml(out) as Array<{ en: Record<string, unknown> }>)[0]!.en;
      expect(data.welcome).toBe(`${'Welcome to our shop'.split('').reverse().join('')}: "ü" # {1}\n- 'x'`);
      expect(data.double).toBe(`${'Say "hi" to {1}'.split('').reverse().join('')}: "ü" # %{name}\n- 'x'`);
    },
  );

  const machineFiles = [
    '/usr/share/perl/5.36.0/CPAN/Kwalify/distroprefs.yml',
    '/usr/share/doc/python3-yaml/examples/pygments-lexer/example.yaml',
  ].filter((path) => existsSync(path));
  it.skipIf(machineFiles.length === 0)('round-trips YAML files of this machine', async () => {
    for (const path of machineFiles) {
      const bytes = readFileSync(path);
      const units = await parseAll(yamlFilter, bytes).catch(() => null);
      if (!units) continue; // not every YAML file on a machine is valid
      expect((await writeAll(yamlFilter, bytes, {})).equals(bytes), path).toBe(true);
      expect(
        (
          await writeAll(
            yamlFilter,
            bytes,
            translateAll(units, (s) => s),
          )
        ).equals(bytes),
        path,
      ).toBe(true);
      const out = (
        await writeAll(
          yamlFilter,
          bytes,
          translateAll(units, (s) => `«${s}»\n#`),
        )
      ).toString();
      const again = await parseAll(yamlFilter, out);
      expect(again.map((u) => u.locator)).toEqual(units.map((u) => u.locator));
      expect(again.map((u) => u.source)).toEqual(units.map((u) => `«${u.source}»\n#`));
    }
  });
});

describe('YAML hostile input', () => {
  it.each([
    ['flow sequences', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['block sequences', '- '.repeat(5_000) + 'x'],
    ['flow mappings', '{a: '.repeat(50_000) + 'x' + '}'.repeat(50_000)],
  ])('refuses %s nested deeper than maxDepth before composing them', async (_name, text) => {
    await expect(parseAll(yamlFilter, text)).rejects.toThrow(/nested deeper than 512 levels/);
    await expect(parseAll(yamlFilter, text, { maxDepth: 10 })).rejects.toThrow(/nested deeper than 10 levels/);
  });

  it('never expands aliases (a billion laughs stays small)', async () => {
    let text = 'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
    for (let i = 0; i < 30; i++)
      text += `b${i}: &b${i} [${Array(9)
        .fill(i === 0 ? '*a' : `*b${i - 1}`)
        .join(', ')}]\n`;
    const started = Date.now();
    const units = await parseAll(yamlFilter, text);
    expect(units).toHaveLength(9);
    expect((await writeAll(yamlFilter, text, {})).toString()).toBe(text);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a file over the size limit while reading it', async () => {
    await expect(parseAll(yamlFilter, `a: ${'x'.repeat(2000)}\n`, { maxYamlBytes: 1000 } as object)).rejects.toThrow(
      /larger than 1000 bytes/,
    );
  });

  it('refuses key paths over the limit', async () => {
    await expect(parseAll(yamlFilter, `${'k'.repeat(600)}:\n  ${'k'.repeat(600)}: v\n`)).rejects.toThrow(/key path is longer than 1000/);
  });

  it('reads many keys of one mapping in linear time (no duplicate search per key)', async () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `key${i}: Value ${i}`).join('\n');
    const started = Date.now();
    expect(await parseAll(yamlFilter, text)).toHaveLength(100_000);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reads a megabyte-long scalar', async () => {
    const [unit] = await parseAll(yamlFilter, `a: "${'ab '.repeat(400_000)}"\n`);
    expect(unit?.source.length).toBe(1_200_000);
  });
});

describe('YAML detect', () => {
  it.each([
    ['%YAML 1.2\n---\na: b\n', true],
    ['# comment\nen:\n  hello: Hello\n', true],
    ['pt-BR:\n  # c\n  hello: Olá\n', true],
    ['---\ntitle: Front matter\n---\n# Markdown\n', false],
    ['{"a": "b"}', false],
    ['key=value\n', false],
    ['<?xml version="1.0"?>', false],
  ])('%j → %s', (text, expected) => {
    expect(yamlFilter.detect!(Buffer.from(text))).toBe(expected);
  });
});
