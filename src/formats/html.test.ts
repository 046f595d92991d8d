import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { describe, expect, it } from 'vitest';
import { htmlFilter } from './html.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions, TextUnit } from './types.js';

type Node = DefaultTreeAdapterMap['node'];

/** The text a browser would show (and attribute values), from parse5's tree. */
function textOf(html: string): string {
  const out: string[] = [];
  const walk = (node: Node): void => {
    if (node.nodeName === '#text') out.push((node as DefaultTreeAdapterMap['textNode']).value);
    if ('attrs' in node) for (const a of node.attrs) out.push(a.value);
    if ('content' in node && node.nodeName === 'template') walk(node.content as Node);
    if ('childNodes' in node) for (const child of node.childNodes) walk(child);
  };
  walk(parse(html));
  return out.join(' ').replace(/\s+/g, ' ');
}

const sample = `<!DOCTYPE html>
<html><head><title>My &amp; page</title>
<meta name="description" content="About us">
<meta name="viewport" content="width=device-width">
<script>if (a < b) document.write("<p>no</p>")</script>
<style>p { color: red }</style>
</head>
<body>
<h1>Welcome</h1>
<p class=intro title="Intro &amp; more">Caf&eacute; &amp;
   tea&nbsp;time with <b>bold</b> and <a href="/x" title=Link>a link <img src=a.png alt="Picture"></a>.<br>Second line</p>
<ul><li><a href="#">Home</a><li>Two <code>x()</code></ul>
<div translate="no">Brand name</div>
<p>A <span class="notranslate">Keep <b>me</b></span> end<!-- note --></p>
<pre>  line one
    line two</pre>
<input type="submit" value="Send"> <input type="text" value="typed">
<!-- A comment -->
<svg><title>icon</title></svg>
</body></html>
`;

async function units(html: string | Buffer, options?: FilterOptions, chunk?: number): Promise<TextUnit[]> {
  return parseAll(htmlFilter, html, options, chunk);
}

describe('HTML parse', () => {
  it('makes units of block text and translatable attributes, inline markup as tags', async () => {
    const found = await units(sample);
    expect(found.map((u) => [u.locator, u.key, u.source, u.tags.map((t) => t.original)])).toEqual([
      ['1', null, 'My & page', []],
      ['2', 'meta@content', 'About us', []],
      ['3', null, 'Welcome', []],
      ['4', 'p@title', 'Intro & more', []],
      [
        '5',
        null,
        'Café & tea\u00a0time with {1>bold<1} and {2>a link {3}<2}.',
        ['<b>', '</b>', '<a href="/x" title=Link>', '<img src=a.png alt="Picture">', '</a>'],
      ],
      ['6', 'a@title', 'Link', []],
      ['7', 'img@alt', 'Picture', []],
      ['8', null, 'Second line', []],
      ['9', null, 'Home', []],
      ['10', null, 'Two {1>x()<1}', ['<code>', '</code>']],
      ['11', null, 'A {1} end', ['<span class="notranslate">Keep <b>me</b></span>']],
      ['12', null, 'line one\n    line two', []],
      ['13', 'input@value', 'Send', []],
      ['14', null, 'A comment', []],
    ]);
    found.forEach((u, i) => expect(u).toMatchObject({ index: i, target: null, translatable: true, note: null }));
    expect(found[4]!.tags.map((t) => t.display)).toEqual(['{1>', '<1}', '{2>', '{3}', '<2}']);
  });

  it('gives the same units whatever the chunk size', async () => {
    expect(await units(sample, {}, 3)).toEqual(await units(sample));
  });

  it.each<[string, Record<string, unknown>, string, string[]]>([
    ['excludeElements', { excludeElements: 'h1,pre' }, '<h1>A</h1><p>B</p><pre>C</pre>', ['B']],
    ['importComments false', { importComments: false }, '<!-- c --><p>B</p>', ['B']],
    ['breakTagCreatesSegment false', { breakTagCreatesSegment: false }, '<p>A<br>B</p>', ['A{1}B']],
    ['preserveWhitespace', { preserveWhitespace: true }, '<p>A\n  B</p>', ['A\n  B']],
    ['nonTranslatableInlineElements', { nonTranslatableInlineElements: 'code' }, '<p>Run <code>ls -l</code> now</p>', ['Run {1} now']],
    ['translatableInlineElements', { translatableInlineElements: 'div' }, '<p>A <div>B</div> C</p>', ['A {1>B<1} C']],
    ['unknownTagCreatesTag false', { unknownTagCreatesTag: false }, '<p>A <my-x>B</my-x> C</p>', ['A', 'B', 'C']],
    ['unknown elements as tags', {}, '<p>A <my-x>B</my-x> C</p>', ['A {1>B<1} C']],
    ['importDefaultAttributes false', { importDefaultAttributes: false }, '<p title="T">A <img alt="I"></p>', ['A']],
    [
      'translatableAttributes',
      { importDefaultAttributes: false, translatableAttributes: 'data-label' },
      '<p data-label="L">A</p>',
      ['L', 'A'],
    ],
    ['importDefaultMetaTags false', { importDefaultMetaTags: false }, '<meta name="description" content="D"><p>A</p>', ['A']],
    ['translateMetaTagRegexp', { translateMetaTagRegexp: '^author$' }, '<meta name="author" content="Me"><p>A</p>', ['Me', 'A']],
    ['tagRegexp', { tagRegexp: '\\{\\w+\\}' }, '<p>Hi {name}, <b>{n}</b> new</p>', ['Hi {1}, {2>{3}<2} new']],
    ['a pair enclosing the whole text stays outside', {}, '<p><b><i>All</i></b></p>', ['All']],
    ['lone and crossed tags', {}, '<p>a</b> <i>b <u>c</i> d</u></p>', ['a{1} {2>b {3>c<2} d<3}']],
    ['nbsp-only cells are not units', {}, '<table><tr><td>&nbsp;</td><td>X</td></tr></table>', ['X']],
    ['implied end tags', {}, '<ul><li>One<li>Two</ul><p>Three<p>Four', ['One', 'Two', 'Three', 'Four']],
    ['translate="no" with an implied end', {}, '<ul><li translate="no">One<li>Two</ul>', ['Two']],
    ['noscript, textarea and template content', {}, '<noscript><p>N</p></noscript><textarea>T</textarea><p>P</p>', ['P']],
  ])('%s', async (_name, formatSettings, html, sources) => {
    expect((await units(html, { formatSettings })).map((u) => u.source)).toEqual(sources);
  });
});

describe('HTML write', () => {
  it('gives back the very bytes with no translations and with every source as its translation', async () => {
    const found = await units(sample);
    expect((await writeAll(htmlFilter, sample, {})).toString()).toBe(sample);
    const same = Object.fromEntries(found.map((u) => [u.locator, u.source]));
    expect((await writeAll(htmlFilter, sample, same, {}, 5)).toString()).toBe(sample);
  });

  it('splices translations in, escaping text and restoring tags', async () => {
    const out = (
      await writeAll(htmlFilter, sample, {
        '1': 'Meine <Seite> & mehr',
        '4': 'Einführung "mehr"',
        '5': 'Café & Tee\u00a0zeit mit {1>fett<1} und {2>einem Link {3}<2}.',
        '6': "Verweis 'x'",
        '7': 'Bild',
        '13': 'Senden',
        '14': 'Ein Kommentar',
      })
    ).toString();
    expect(out).toContain('<title>Meine &lt;Seite&gt; &amp; mehr</title>');
    expect(out).toContain('title="Einführung &quot;mehr&quot;"');
    // The attributes inside the unit's tags are translated along with it.
    expect(out).toContain(
      `Café &amp; Tee&nbsp;zeit mit <b>fett</b> und <a href="/x" title="Verweis 'x'">einem Link <img src=a.png alt="Bild"></a>.<br>Second line`,
    );
    expect(out).toContain('<input type="submit" value="Senden">');
    expect(out).toContain('<!-- Ein Kommentar -->');
    expect(textOf(out)).toContain('Meine <Seite> & mehr');
    expect(await units(out)).toHaveLength(14);
  });

  it('translates an attribute inside a unit whose own text is not translated', async () => {
    const html = '<p>See <img src="a.png" alt=\'A "pic"\'> here</p>';
    const out = (await writeAll(htmlFilter, html, { '2': "Ein 'Bild'" })).toString();
    expect(out).toBe('<p>See <img src="a.png" alt=\'Ein &#39;Bild&#39;\'> here</p>');
  });

  it('quotes an unquoted attribute value it rewrites', async () => {
    const out = (await writeAll(htmlFilter, '<img alt=Logo src=x>', { '1': 'Das Logo' })).toString();
    expect(out).toBe('<img alt="Das Logo" src=x>');
  });

  it('keeps a token that names no tag of the unit as text', async () => {
    const out = (await writeAll(htmlFilter, '<p>A <b>B</b></p>', { '1': '{7} {1>B<1} {2}' })).toString();
    expect(out).toBe('<p>{7} <b>B</b> {2}</p>');
  });

  it('updateLang sets <html lang> to the target language', async () => {
    const options = { targetLanguage: 'de-AT', formatSettings: { updateLang: true } };
    expect((await writeAll(htmlFilter, '<html lang="en"><p>A</p></html>', {}, options)).toString()).toBe(
      '<html lang="de-AT"><p>A</p></html>',
    );
    expect((await writeAll(htmlFilter, '<html><p>A</p></html>', {}, options)).toString()).toBe('<html lang="de-AT"><p>A</p></html>');
    expect((await writeAll(htmlFilter, '<html lang=en><p>A</p></html>', {}, { targetLanguage: 'de' })).toString()).toBe(
      '<html lang=en><p>A</p></html>',
    );
  });

  it('refuses a comment translation that would end the comment', async () => {
    await expect(writeAll(htmlFilter, '<!-- note --><p>A</p>', { '1': 'a -- b' })).rejects.toThrow(FormatError);
  });
});

describe('HTML encodings', () => {
  it('keeps a UTF-8 BOM', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Grüße</p>')]);
    expect((await units(bytes)).map((u) => u.source)).toEqual(['Grüße']);
    const out = await writeAll(htmlFilter, bytes, { '1': 'Grüße!' });
    expect(out).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Grüße!</p>')]));
  });

  it('reads a declared ISO-8859-1 file as windows-1252 and writes what it cannot hold as references', async () => {
    const bytes = Buffer.from('<meta charset="iso-8859-1"><p>caf\xe9 \x80 \x92</p>', 'latin1');
    expect((await units(bytes)).map((u) => u.source)).toEqual(['café € ’']);
    expect(await writeAll(htmlFilter, bytes, {})).toEqual(bytes);
    const out = await writeAll(htmlFilter, bytes, { '1': 'Kaffee € ’ 中' });
    expect(out).toEqual(Buffer.from('<meta charset="iso-8859-1"><p>Kaffee \x80 \x92 &#x4e2d;</p>', 'latin1'));
  });

  it('falls back to windows-1252 for an undeclared file that is not UTF-8', async () => {
    const bytes = Buffer.from('<p>caf\xe9</p>', 'latin1');
    expect((await units(bytes)).map((u) => u.source)).toEqual(['café']);
    expect(await writeAll(htmlFilter, bytes, { '1': 'café!' })).toEqual(Buffer.from('<p>caf\xe9!</p>', 'latin1'));
  });

  it('reads UTF-16 with a BOM', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Hi</p>', 'utf16le')]);
    expect((await units(bytes)).map((u) => u.source)).toEqual(['Hi']);
    expect(await writeAll(htmlFilter, bytes, { '1': 'Hallo' })).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Hallo</p>', 'utf16le')]),
    );
  });

  it('refuses an encoding it cannot read, and invalid UTF-8 that declares UTF-8', async () => {
    await expect(units('<meta charset="shift_jis"><p>A</p>')).rejects.toThrow(/encoding "shift_jis" is not supported/);
    await expect(units(Buffer.from('<meta charset="utf-8"><p>\xe9</p>', 'latin1'))).rejects.toThrow(/not valid UTF-8/);
  });
});

describe('HTML detection', () => {
  it.each([
    ['<!DOCTYPE html><html>', true],
    ['\ufeff  <!doctype HTML>', true],
    ['<html lang="en">', true],
    ['<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x">', true],
    ['<!-- c -->\n<html>', true],
    ['<?xml version="1.0"?><xliff version="1.2">', false],
    ['{"a": "<html>"}', false],
    ['Hello <html>', false],
  ])('%j → %s', (head, expected) => {
    expect(htmlFilter.detect!(Buffer.from(head))).toBe(expected);
  });
});

describe('HTML hostile input', () => {
  it('refuses a file over the size limit', async () => {
    await expect(units(`<p>${'x'.repeat(5000)}</p>`, { formatSettings: { maxHtmlBytes: 1000 } })).rejects.toThrow(/larger than 1000 bytes/);
  });

  it('reads 200,000 nested blocks in linear time, and refuses inline nesting deeper than maxDepth', async () => {
    const started = Date.now();
    const deep = `${'<div>'.repeat(200_000)}<p>x</p>${'</div>'.repeat(200_000)}`;
    expect((await units(deep)).map((u) => u.source)).toEqual(['x']);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(units(`<p>${'<b>'.repeat(600)}x</p>`)).rejects.toThrow(/nested deeper than 512 levels/);
    expect(await units(`<p>${'<b>'.repeat(600)}x</p>`, { maxDepth: 1000 })).toHaveLength(1);
  });

  it('reads 50,000 crossed inline end tags without quadratic pairing', async () => {
    const started = Date.now();
    const html = `<p>${'<b>'.repeat(500)}${'x</i>'.repeat(50_000)}</p>`;
    const [unit] = await units(html);
    expect(unit!.tags).toHaveLength(50_499);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses a DOCTYPE internal subset, a NUL, and tag runs over the import limit', async () => {
    await expect(units('<!DOCTYPE html [<!ENTITY x "y">]><p>&x;</p>')).rejects.toThrow(/internal subset \(line 1, column 1\)/);
    await expect(units('<p>a\u0000b</p>')).rejects.toThrow(/NUL character/);
    await expect(
      units(`<p>a${'<br>'.repeat(30)}b</p>`, { maxTagsPerSegment: 10, formatSettings: { breakTagCreatesSegment: false } }),
    ).rejects.toThrow(/inline tags in a row/);
  });

  it('reads malformed markup as a browser would tokenize it', async () => {
    const html = '<p>a <b>b</p><p <x>>c</a></div></td>&bogus; <3 && 4 > 2<!-- unterminated';
    const found = await units(html);
    expect(found.map((u) => u.source)).toEqual(['a {1}b', '>c', '&bogus; <3 && 4 > 2']);
    expect((await writeAll(htmlFilter, html, {})).toString()).toBe(html);
    const same = Object.fromEntries(found.map((u) => [u.locator, u.source]));
    expect((await writeAll(htmlFilter, html, same)).toString()).toBe(html);
  });

  it('refuses a huge unit', async () => {
    // One text of 10,000,001 characters is over the per-unit limit.
    await expect(units(`<p>${'a'.repeat(10_000_001)}</p>`)).rejects.toThrow(/more than 10000000 characters/);
  }, 60_000);
});

/** HTML files on this machine (Debian documentation), when there are any. */
function machineHtmlFiles(): string[] {
  if (!existsSync('/usr/share/doc')) return [];
  try {
    return execFileSync('find', ['/usr/share/doc', '-name', '*.html', '-type', 'f', '-size', '-120k'], { encoding: 'utf8' })
      .split('\n')
      .filter((path) => path !== '')
      .sort()
      .filter((_path, i) => i % 10 === 0)
      .slice(0, 25);
  } catch {
    return [];
  }
}

describe('HTML files of this machine', () => {
  const files = machineHtmlFiles();
  it.skipIf(files.length === 0)(
    `round-trips ${files.length} HTML files of /usr/share/doc byte for byte, and translated ones re-parse`,
    async () => {
      for (const path of files) {
        const bytes = readFileSync(path);
        const found = await units(bytes, {}, 4096);
        expect(await writeAll(htmlFilter, bytes, {}), path).toEqual(bytes);
        expect(await writeAll(htmlFilter, bytes, Object.fromEntries(found.map((u) => [u.locator, u.source])), {}, 4096), path).toEqual(
          bytes,
        );
        const translated = await writeAll(
          htmlFilter,
          bytes,
          Object.fromEntries(found.map((u) => [u.locator, `TR${u.locator}# ${u.source} & <1> ü`])),
        );
        const again = await units(translated);
        expect(again.length, path).toBe(found.length);
        // Units may sit in comments (not shown); a text or attribute unit's translation is in the tree.
        const raw = translated.toString('latin1');
        const shown = textOf(raw);
        for (const u of found.slice(0, 50)) {
          const marker = `TR${u.locator}# `;
          expect(new RegExp(`<!--\\s*${marker}`).test(raw) || shown.includes(marker), `${path}: ${marker}`).toBe(true);
        }
      }
    },
    120_000,
  );
});
