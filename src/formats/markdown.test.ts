import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { markdownFilter } from './markdown.js';
import { parseAll, writeAll } from './testing.js';
import type { FilterOptions, TextUnit } from './types.js';

/** The block structure of a Markdown text: the types of its block nodes, depth first. */
function blockShape(text: string): string[] {
  const tree = fromMarkdown(text, {
    extensions: [gfm(), frontmatter(['yaml', 'toml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])],
  });
  const shape: string[] = [];
  const walk = (node: Nodes, depth: number): void => {
    shape.push(`${depth}:${node.type}`);
    if (node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell') return;
    if ('children' in node) for (const child of node.children) walk(child, depth + 1);
  };
  walk(tree, 0);
  return shape;
}

const sample = `---
title: Getting started
layout: post
description: "All about it"
---
# Welcome to *Foo*

Foo is a **fast** library. See [the docs](https://x.io "Docs") and
the [API][api] or [api] for \`foo()\` details &amp; more.
Line two  
after a hard break.

> Quoted _text_ here
> and more.

- Item one
- ![Logo](logo.png) Item <b>two</b>

| Name | Value |
|------|-------|
| a \\| b | <https://x.io> |

\`\`\`js
const x = 1;
\`\`\`

<p align="center"><img src="a.png" alt="Banner"> Hello <b>there</b></p>

[api]: https://x.io/api
`;

async function units(text: string | Buffer, options?: FilterOptions, chunk?: number): Promise<TextUnit[]> {
  return parseAll(markdownFilter, text, options, chunk);
}

describe('Markdown parse', () => {
  it('makes units of paragraphs, headings, items, cells and HTML blocks; inline markup as tags', async () => {
    const found = await units(sample);
    expect(found.map((u) => [u.locator, u.key, u.source, u.tags.map((t) => t.original)])).toEqual([
      ['1', null, 'Welcome to {1>Foo<1}', ['*', '*']],
      [
        '2',
        null,
        'Foo is a {1>fast<1} library. See {2>the docs<2} and the {3>API<3} or {4} for {5} details & more. Line two',
        ['**', '**', '[', '](https://x.io "Docs")', '[', '][api]', '[api]', '`foo()`'],
      ],
      ['3', null, 'after a hard break.', []],
      ['4', null, 'Quoted {1>text<1} here and more.', ['_', '_']],
      ['5', null, 'Item one', []],
      ['6', null, '{1>Logo<1} Item {2>two<2}', ['![', '](logo.png)', '<b>', '</b>']],
      ['7', null, 'Name', []],
      ['8', null, 'Value', []],
      ['9', null, 'a | b', []],
      ['10', null, 'Hello {1>there<1}', ['<b>', '</b>']],
      ['11', 'img@alt', 'Banner', []],
    ]);
    found.forEach((u, i) => expect(u).toMatchObject({ index: i, target: null, translatable: true, note: null }));
  });

  it('gives the same units whatever the chunk size', async () => {
    expect(await units(sample, {}, 3)).toEqual(await units(sample));
  });

  it.each<[string, Record<string, unknown>, string, string[]]>([
    [
      'front matter with processJekyllFrontMatter',
      { processJekyllFrontMatter: true },
      '---\ntitle: T\nlayout: post\n---\nBody\n',
      ['T', 'Body'],
    ],
    ['extractCodeBlocks', { extractCodeBlocks: true }, 'Text\n\n```sh\nls -l\n```\n', ['Text', 'ls -l']],
    ['hardLineBreaksSegments false', { hardLineBreaksSegments: false }, 'One  \ntwo\n', ['One{1}two']],
    ['preserveWhiteSpaces', { preserveWhiteSpaces: true }, 'One\ntwo\n', ['One\ntwo']],
    ['ignoredBlockPrefixes', { ignoredBlockPrefixes: '!!!,@' }, '!!! note\n\n@skip\n\nKeep\n', ['Keep']],
    ['tagRegexp', { tagRegexp: '\\{\\w+\\}' }, 'Hi {name}!\n', ['Hi {1}!']],
    ['setext headings and ordered lists', {}, 'Title\n=====\n\n1. First\n2. Second\n', ['Title', 'First', 'Second']],
    ['bare URLs and autolinks are tags', {}, 'See <https://a.b> or https://c.d now\n', ['See {1} or {2} now']],
    ['strikethrough and footnotes', {}, 'A ~~b~~ c[^1]\n\n[^1]: Note\n', ['A {1>b<1} c', 'Note']],
    ['shortcut and collapsed references stay whole', {}, 'x [a] and [b][] y\n\n[a]: /a\n[b]: /b\n', ['x {1} and {2} y']],
  ])('%s', async (_name, formatSettings, text, sources) => {
    expect((await units(text, { formatSettings })).map((u) => u.source)).toEqual(sources);
  });
});

describe('Markdown write', () => {
  it('gives back the very bytes with no translations and with every source as its translation', async () => {
    for (const options of [{}, { formatSettings: { processJekyllFrontMatter: true, extractCodeBlocks: true } }]) {
      const found = await units(sample, options);
      expect((await writeAll(markdownFilter, sample, {}, options)).toString()).toBe(sample);
      const same = Object.fromEntries(found.map((u) => [u.locator, u.source]));
      expect((await writeAll(markdownFilter, sample, same, options, 5)).toString()).toBe(sample);
    }
  });

  it('splices translations in, escaping markup characters and restoring tags', async () => {
    const out = (
      await writeAll(markdownFilter, sample, {
        '1': 'Willkommen bei {1>Foo<1}',
        '2': 'Foo ist *schnell* {1>sehr<1}. Siehe {2>die Doku<2}, {3>API<3}, {4} und {5} & <mehr>.',
        '4': '# Zitat {1>Text<1}\n1. nicht',
        '6': '{1>Bild<1} Punkt {2>zwei<2}',
        '9': 'a | b',
        '10': 'Hallo {1>da<1} & so',
        '11': 'Banner "groß"',
      })
    ).toString();
    expect(out).toContain('# Willkommen bei *Foo*\n');
    expect(out).toContain(
      'Foo ist \\*schnell\\* **sehr**. Siehe [die Doku](https://x.io "Docs"), [API][api], [api] und `foo()` & \\<mehr>.  \nafter',
    );
    expect(out).toContain('> \\# Zitat _Text_\n1\\. nicht\n');
    expect(out).toContain('- ![Bild](logo.png) Punkt <b>zwei</b>\n');
    expect(out).toContain('| a \\| b | <https://x.io> |');
    expect(out).toContain('<p align="center"><img src="a.png" alt="Banner &quot;groß&quot;"> Hallo <b>da</b> &amp; so</p>');
    expect(blockShape(out)).toEqual(blockShape(sample));
    const again = await units(out);
    expect(again.map((u) => u.source)[3]).toBe('# Zitat {1>Text<1} 1. nicht');
  });

  it('writes front matter values as YAML scalars of their own style', async () => {
    const text = '---\ntitle: Plain\ndescription: \'Single\'\nsummary: "Double"\n---\nBody\n';
    const options = { formatSettings: { processJekyllFrontMatter: true } };
    const out = (
      await writeAll(markdownFilter, text, { '1': 'Einfach: ja', '2': "Mit 'Zitat'", '3': 'Zwei "x"', '4': 'Text' }, options)
    ).toString();
    expect(out).toBe('---\ntitle: "Einfach: ja"\ndescription: \'Mit \'\'Zitat\'\'\'\nsummary: "Zwei \\"x\\""\n---\nText\n');
  });

  it('keeps characters notEscapedCharacters names as they are', async () => {
    const out = await writeAll(markdownFilter, 'A\n', { '1': 'a_b*c' }, { formatSettings: { notEscapedCharacters: '_' } });
    expect(out.toString()).toBe('a_b\\*c\n');
  });

  it('keeps a UTF-8 BOM and reads UTF-16 with a BOM', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const bytes = Buffer.concat([bom, Buffer.from('# Grüße\n')]);
    expect((await units(bytes)).map((u) => u.source)).toEqual(['Grüße']);
    expect(await writeAll(markdownFilter, bytes, { '1': 'Hallo' })).toEqual(Buffer.concat([bom, Buffer.from('# Hallo\n')]));
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Hi *there*\n', 'utf16le')]);
    expect((await units(utf16)).map((u) => u.source)).toEqual(['Hi {1>there<1}']);
  });
});

describe('Markdown hostile input', () => {
  it('refuses a file over the size limit, invalid UTF-8 and NUL', async () => {
    await expect(units('x'.repeat(2000), { formatSettings: { maxMarkdownBytes: 1000 } })).rejects.toThrow(/larger than 1000 bytes/);
    await expect(units(Buffer.from('caf\xe9\n', 'latin1'))).rejects.toThrow(/not valid UTF-8/);
    await expect(units('a\u0000b\n')).rejects.toThrow(/NUL character/);
  });

  it('refuses nesting deeper than maxDepth', async () => {
    await expect(units(`${'>'.repeat(600)} deep\n`)).rejects.toThrow(/nested deeper than 512 levels \(line 1/);
    expect((await units(`${'>'.repeat(600)} deep\n`, { maxDepth: 1000 })).map((u) => u.source)).toEqual(['deep']);
  });

  it('refuses a block quote or list paragraph of more than 1,000 lines (micromark is quadratic there)', async () => {
    await expect(units(`> ${'x\n'.repeat(1_001)}`)).rejects.toThrow(
      /block quote or list item starting on line 1 has more than 1000 lines without a blank line \(line 1001\)/,
    );
    await expect(units(`Intro\n\n- ${'x\n'.repeat(1_001)}`)).rejects.toThrow(/starting on line 3/);
    expect(await units(`> ${'x\n'.repeat(1_000)}\n${'y\n'.repeat(5_000)}`)).toHaveLength(2);
  });

  it('reads pathological inline shapes in reasonable time', async () => {
    for (const text of [
      '*a '.repeat(20_000),
      '['.repeat(20_000),
      '<a>'.repeat(20_000),
      '`'.repeat(5_000) + 'x',
      '- '.repeat(200) + 'x',
      '> '.repeat(200) + 'x\n'.repeat(900),
    ]) {
      const started = Date.now();
      const found = await units(text);
      expect(await writeAll(markdownFilter, text, Object.fromEntries(found.map((u) => [u.locator, u.source])))).toEqual(Buffer.from(text));
      expect(Date.now() - started, text.slice(0, 10)).toBeLessThan(15_000);
    }
  }, 120_000);
});

/** READMEs of the installed packages (a sample of about 30). */
function readmes(): string[] {
  const root = new URL('../../node_modules/', import.meta.url).pathname;
  if (!existsSync(root)) return [];
  try {
    return execFileSync('find', [root, '-maxdepth', '3', '-name', 'README.md', '-size', '-60k'], { encoding: 'utf8' })
      .split('\n')
      .filter((path) => path !== '')
      .sort()
      .filter((_path, i) => i % 12 === 0)
      .slice(0, 30);
  } catch {
    return [];
  }
}

describe('Markdown files of this machine', () => {
  const files = readmes();
  it.skipIf(files.length === 0)(
    `round-trips ${files.length} package READMEs byte for byte, and translated ones keep their block structure`,
    async () => {
      for (const path of files) {
        const bytes = readFileSync(path);
        const found = await units(bytes, {}, 4096);
        expect(await writeAll(markdownFilter, bytes, {}), path).toEqual(bytes);
        expect(await writeAll(markdownFilter, bytes, Object.fromEntries(found.map((u) => [u.locator, u.source])), {}, 4096), path).toEqual(
          bytes,
        );
        const translated = await writeAll(
          markdownFilter,
          bytes,
          Object.fromEntries(found.map((u) => [u.locator, `Ü${u.locator} ${u.source} *x* & <y> 1. # |`])),
        );
        expect(blockShape(translated.toString()), path).toEqual(blockShape(bytes.toString()));
        const again = await units(translated);
        expect(again.length, path).toBe(found.length);
        again.forEach((u, i) => expect(u.source, path).toContain(`Ü${found[i]!.locator} `));
      }
    },
    120_000,
  );
});
