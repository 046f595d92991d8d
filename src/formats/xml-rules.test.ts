import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAll, writeAll } from './testing.js';
import type { FilterOptions, TextUnit } from './types.js';
import { FormatError } from './types.js';
import { MAX_XML_UNIT_CHARS, validateXmlRules, xmlRulesFilter } from './xml-rules.js';

const xml = (formatSettings: Record<string, unknown> = {}, more: FilterOptions = {}): FilterOptions => ({ formatSettings, ...more });
const table = (units: TextUnit[]) => units.map((u) => [u.locator, u.source]);
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
const lintDir = mkdtempSync(join(tmpdir(), 'xml-rules-'));
afterAll(() => rmSync(lintDir, { recursive: true, force: true }));
/** xmllint --noout on the document; throws with its complaint. */
function xmllint(document: Buffer | string): void {
  const file = join(lintDir, 'doc.xml');
  writeFileSync(file, document);
  const result = spawnSync('xmllint', ['--nonet', '--noout', file], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`xmllint rejected the document: ${result.stderr}`);
}

const DOC = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!-- a manual -->',
  '<doc xmlns:x="urn:x">',
  '  <title>Hello &amp; welcome</title>',
  '  <p>Text with <b>bold</b> and <i>it<sup>2</sup></i>.</p>',
  '  <p><b>Lead</b> rest &#169; <br/> end</p>',
  '  <list><item id="i1" note="first">One</item><item id="i2">Two</item></list>',
  '  <code lang="js">let x = 1;</code>',
  '  <p translate="no">Do not translate</p>',
  '  <img alt="A picture" src="a.png"/>',
  '  <x:meta>Prefixed</x:meta>',
  '  <empty>   </empty>',
  '  <data><![CDATA[Raw <text>]]></data>',
  '</doc>',
  '',
].join('\r\n');

describe('XML by rules: default rules', () => {
  it('makes every element with text a unit, mixed content giving inline tags', async () => {
    for (const size of [1, 3, 17, 100_000]) {
      const units = await parseAll(xmlRulesFilter, DOC, {}, size);
      expect(table(units)).toEqual([
        ['/doc[1]/title[1]', 'Hello & welcome'],
        ['/doc[1]/p[1]', 'Text with {1>bold<1} and {2>it{3>2<3}<2}.'],
        ['/doc[1]/p[2]', '{1>Lead<1} rest © {2} end'],
        ['/doc[1]/list[1]/item[1]', 'One'],
        ['/doc[1]/list[1]/item[2]', 'Two'],
        ['/doc[1]/code[1]', 'let x = 1;'],
        ['/doc[1]/p[3]', 'Do not translate'],
        ['/doc[1]/x:meta[1]', 'Prefixed'],
        ['/doc[1]/data[1]', 'Raw <text>'],
      ]);
      units.forEach((u, i) => expect(u).toMatchObject({ index: i, key: null, target: null, translatable: true, note: null }));
      expect(units[1]!.tags.map((t) => [t.display, t.original])).toEqual([
        ['{1>', '<b>'],
        ['<1}', '</b>'],
        ['{2>', '<i>'],
        ['{3>', '<sup>'],
        ['<3}', '</sup>'],
        ['<2}', '</i>'],
      ]);
    }
  });

  it('splits text around block elements into units of their own', async () => {
    const units = await parseAll(xmlRulesFilter, '<r>Intro <b>x</b>\n<s><p>Inner</p></s>\nOutro</r>');
    expect(table(units)).toEqual([
      ['/r[1]', 'Intro {1>x<1}'],
      ['/r[1]/s[1]/p[1]', 'Inner'],
      ['/r[1]#2', 'Outro'],
    ]);
  });

  it('takes adjacent elements without text as blocks (minified files)', async () => {
    const many = `<r>${Array.from({ length: 200 }, (_, i) => `<s>t${i}</s>`).join('')}</r>`;
    const units = await parseAll(xmlRulesFilter, many, {}, 50);
    expect(units.length).toBe(200);
    expect(units[199]).toMatchObject({ locator: '/r[1]/s[200]', source: 't199' });
  });
});

describe('XML by rules: plain rules', () => {
  it('includes, excludes, attributes, inline and non-translatable inline elements, locks', async () => {
    const settings = xml({
      includeElementsPlain: 'title,p,item',
      excludeElementsPlain: 'code',
      includeAttributesPlain: 'alt,note',
      inlineElementsPlain: 'b,i',
      inlineElementsNonTranslatablePlain: 'sup,br',
      lockElementsPlain: 'title',
      lockAttributesPlain: 'note',
    });
    const units = await parseAll(xmlRulesFilter, DOC, settings, 5);
    expect(units.map((u) => [u.locator, u.source, u.locked ?? false])).toEqual([
      ['/doc[1]/title[1]', 'Hello & welcome', true],
      ['/doc[1]/p[1]', 'Text with {1>bold<1} and {2>it{3}<2}.', false],
      ['/doc[1]/p[2]', '{1>Lead<1} rest © {2} end', false],
      ['/doc[1]/list[1]/item[1]/@note', 'first', true],
      ['/doc[1]/list[1]/item[1]', 'One', false],
      ['/doc[1]/list[1]/item[2]', 'Two', false],
      ['/doc[1]/p[3]', 'Do not translate', false],
      ['/doc[1]/img[1]/@alt', 'A picture', false],
    ]);
    expect(units[1]!.tags.find((t) => t.id === 3)?.original).toBe('<sup>2</sup>');
  });

  it('excludes a subtree, an excluded element inside text being one tag', async () => {
    const file = '<r><p>Call <code>f(<b>x</b>)</code> now</p><code><p>re-included</p><q>not</q></code></r>';
    const units = await parseAll(xmlRulesFilter, file, xml({ excludeElementsPlain: 'code', includeElementsPlain: '*,p' }));
    expect(table(units)).toEqual([
      ['/r[1]/p[1]', 'Call {1} now'],
      ['/r[1]/code[1]/p[1]', 're-included'],
    ]);
  });

  it('refuses a bad name', () => {
    expect(validateXmlRules({ includeElementsPlain: 'p, a[b]' })).toMatch(
      /includeElementsPlain: "a\[b\]" is not an element or attribute name/,
    );
  });
});

describe('XML by rules: XPath rules', () => {
  const FILE = [
    '<root>',
    '<item translate="yes" label="Label one"><text>First</text><note>Context 1</note></item>',
    '<item translate="no" label="Label two"><text>Second</text></item>',
    '<group translate="false"><item label="Label three"><text>Third</text></item></group>',
    '<para>Para <em>emph</em> <ph>code</ph></para>',
    '<title>Title</title>',
    '</root>',
  ].join('\n');

  const cases: { name: string; settings: Record<string, unknown>; units: [string, string][] }[] = [
    {
      name: 'union of paths',
      settings: { includeXPath: '//para | //title' },
      units: [
        ['/root[1]/para[1]', 'Para {1} {2}'],
        ['/root[1]/title[1]', 'Title'],
      ],
    },
    {
      name: 'attribute with a predicate',
      settings: { includeXPath: "//item[@translate='yes']/@label" },
      units: [['/root[1]/item[1]/@label', 'Label one']],
    },
    {
      name: 'ancestor-or-self exclusion',
      settings: { includeXPath: "//text[not(ancestor-or-self::*[@translate='false' or @translate='no'])]" },
      units: [['/root[1]/item[1]/text[1]', 'First']],
    },
    {
      name: 'absolute path, descendant-or-self, inline XPath',
      settings: {
        includeXPath: '/root/para/descendant-or-self::*',
        inlineElementsXpath: '//em',
        inlineElementsNonTranslatableXPath: '//ph',
      },
      units: [['/root[1]/para[1]', 'Para {1>emph<1} {2}']],
    },
    {
      name: 'text() and relative paths',
      settings: { includeXPath: 'item/text/text() | title//text()' },
      units: [
        ['/root[1]/item[1]/text[1]', 'First'],
        ['/root[1]/item[2]/text[1]', 'Second'],
        ['/root[1]/group[1]/item[1]/text[1]', 'Third'],
        ['/root[1]/title[1]', 'Title'],
      ],
    },
  ];

  it.each(cases)('$name', async ({ settings, units }) => {
    for (const size of [2, 1000])
      expect(table(await parseAll(xmlRulesFilter, FILE, xml({ rulesFormat: 'XPATH', ...settings }), size))).toEqual(units);
  });

  it('reads context notes, keys and length limits; locks', async () => {
    const file = '<r><s name="k1" max="10"><note>Note 1</note><t>One</t></s><s name="k2"><t>Two</t></s></r>';
    const settings = xml({
      rulesFormat: 'XPATH',
      includeXPath: '//t',
      contextNoteXpath: '//note',
      contextKeyXPath: '@name',
      maxLenXPath: '//s/@max',
      lockXPath: "//s[@name='k2']",
    });
    const units = await parseAll(xmlRulesFilter, file, settings);
    expect(units.map((u) => [u.locator, u.key, u.note, u.maxLength, u.locked])).toEqual([
      ['/r[1]/s[1]/t[1]', 'k1', 'Note 1', 10, undefined],
      ['/r[1]/s[2]/t[1]', 'k2', null, undefined, true],
    ]);
  });

  it.each([
    ['//item[1]', /position predicates/],
    ['//item/following-sibling::x', /axis following-sibling:: is not supported/],
    ['//item[count(x)]', /function count\(\) is not supported/],
    ['//a/../b', /parent step/],
    ['//item[@a=', /expected a string/],
    ['//a[b]', /child elements in predicates/],
  ])('refuses %s, naming what is not supported', async (expression, message) => {
    const result = validateXmlRules({ rulesFormat: 'XPATH', includeXPath: expression });
    expect(result).toMatch(new RegExp(`^XPath includeXPath "${expression.replace(/[[\]().*/|^$]/g, '\\$&')}" is not supported: `));
    expect(result).toMatch(message);
    await expect(parseAll(xmlRulesFilter, '<a/>', xml({ rulesFormat: 'XPATH', includeXPath: expression }))).rejects.toThrow(FormatError);
  });

  it('validates whole settings sections', () => {
    expect(validateXmlRules({ rulesFormat: 'XPATH', includeXPath: '//p', lockXPath: '//p[@lock]' })).toBeNull();
    expect(validateXmlRules(undefined)).toBeNull();
    expect(validateXmlRules({ contextNoteXpath: 'preceding::x' })).toMatch(/contextNoteXpath/);
    expect(validateXmlRules({ tagRegexp: '(' })).toMatch(/tagRegexp/);
    expect(validateXmlRules({ preserveCharEntities: '&bogus;' })).toMatch(/preserveCharEntities/);
  });
});

describe('XML by rules: write-back', () => {
  it('is byte-faithful without translations and with every source as its own translation', async () => {
    const settings = xml({ includeAttributesPlain: 'alt,label' });
    for (const file of [DOC, utf16le(DOC.replace('UTF-8', 'UTF-16'))]) {
      for (const size of [1, 5, 64, 100_000]) {
        expect((await writeAll(xmlRulesFilter, file, {}, settings, size)).equals(Buffer.from(file))).toBe(true);
        const units = await parseAll(xmlRulesFilter, file, settings);
        const own = Object.fromEntries(units.map((u) => [u.locator, u.source]));
        expect((await writeAll(xmlRulesFilter, file, own, settings, size)).equals(Buffer.from(file))).toBe(true);
      }
    }
  });

  it('writes translations that re-parse with the same units, well-formed for xmllint', async () => {
    const settings = xml({ includeAttributesPlain: 'alt', preserveCharEntities: '©' });
    const units = await parseAll(xmlRulesFilter, DOC, settings);
    const translations = Object.fromEntries(
      units.map((u) => [u.locator, `${u.source.replace(/[a-z]+/g, (w) => w.toUpperCase())} <"&'> ©`]),
    );
    for (const size of [3, 100_000]) {
      const out = await writeAll(xmlRulesFilter, DOC, translations, settings, size);
      const text = out.toString();
      expect(text).toContain('<title>HELLO &amp; WELCOME &lt;"&amp;\'&gt; &#169;</title>');
      expect(text).toContain('<img alt="A PICTURE &lt;&quot;&amp;\'> &#169;" src="a.png"/>');
      expect(text).toContain('<data><![CDATA[RAW <TEXT> <"&\'> ©]]></data>');
      expect(text).toContain('\r\n  <list>');
      if (hasXmllint) xmllint(out);
      const again = await parseAll(xmlRulesFilter, out, settings);
      expect(again.map((u) => [u.locator, u.source])).toEqual(units.map((u) => [u.locator, translations[u.locator]]));
    }
    if (!hasXmllint) console.warn('skipped xmllint validation: xmllint missing (apt-get install libxml2-utils)');
  });

  it('keeps translated attributes of inline elements inside a translated unit', async () => {
    const file = '<r><p>See <a title="Tip">here</a>.</p></r>';
    const settings = xml({ includeAttributesPlain: 'title' });
    const units = await parseAll(xmlRulesFilter, file, settings);
    expect(table(units)).toEqual([
      ['/r[1]/p[1]/a[1]/@title', 'Tip'],
      ['/r[1]/p[1]', 'See {1>here<1}.'],
    ]);
    const both = await writeAll(
      xmlRulesFilter,
      file,
      { '/r[1]/p[1]/a[1]/@title': 'Hinweis', '/r[1]/p[1]': 'Siehe {1>hier<1}.' },
      settings,
      4,
    );
    expect(both.toString()).toBe('<r><p>Siehe <a title="Hinweis">hier</a>.</p></r>');
    const onlyAttribute = await writeAll(xmlRulesFilter, file, { '/r[1]/p[1]/a[1]/@title': "It's" }, settings, 4);
    expect(onlyAttribute.toString()).toBe('<r><p>See <a title="It\'s">here</a>.</p></r>');
    const single = await writeAll(xmlRulesFilter, "<r><a title='x'>y</a></r>", { '/r[1]/a[1]/@title': `"it's"` }, settings);
    expect(single.toString()).toBe(`<r><a title='"it&apos;s"'>y</a></r>`);
  });

  it('refuses misplaced tags and characters XML cannot hold', async () => {
    const file = '<r><p>a <b>b</b> c</p></r>';
    await expect(writeAll(xmlRulesFilter, file, { '/r[1]/p[1]': '<1} a {1>' })).rejects.toThrow(/misplaced or unbalanced tags/);
    await expect(writeAll(xmlRulesFilter, file, { '/r[1]/p[1]': 'a\u0001' })).rejects.toThrow(/XML cannot hold/);
    // Leaving a pair out is fine.
    expect((await writeAll(xmlRulesFilter, file, { '/r[1]/p[1]': 'x' })).toString()).toBe('<r><p>x</p></r>');
  });

  it('round-trips real XML files of this machine', async () => {
    const candidates = [
      '/usr/share/metainfo/org.freedesktop.appstream.cli.metainfo.xml',
      '/usr/share/dbus-1/interfaces/org.freedesktop.PackageKit.xml',
      '/usr/share/mysql/charsets/Index.xml',
      '/usr/share/xml/iso-codes/iso_639-2.xml',
    ].filter((path) => existsSync(path));
    let checked = 0;
    for (const path of candidates) {
      const bytes = readFileSync(path);
      let units: TextUnit[];
      try {
        units = await parseAll(xmlRulesFilter, bytes, xml({ includeAttributesPlain: '*' }));
      } catch (error) {
        if (error instanceof FormatError && /DOCTYPE|entity/i.test(error.message)) continue;
        throw error;
      }
      checked++;
      expect((await writeAll(xmlRulesFilter, bytes, {}, xml({ includeAttributesPlain: '*' }))).equals(bytes)).toBe(true);
      const own = Object.fromEntries(units.map((u) => [u.locator, u.source]));
      expect((await writeAll(xmlRulesFilter, bytes, own, xml({ includeAttributesPlain: '*' }), 777)).equals(bytes)).toBe(true);
      const translated = Object.fromEntries(units.map((u) => [u.locator, `«${u.source}» & <ok>`]));
      const out = await writeAll(xmlRulesFilter, bytes, translated, xml({ includeAttributesPlain: '*' }), 4096);
      if (hasXmllint) xmllint(out);
      expect((await parseAll(xmlRulesFilter, out, xml({ includeAttributesPlain: '*' }))).map((u) => u.source)).toEqual(
        units.map((u) => translated[u.locator]),
      );
    }
    if (checked === 0) console.warn('skipped: no readable XML file of the machine found');
  });
});

describe('XML by rules: hostile and malformed input', () => {
  it('refuses a DOCTYPE with an internal subset', async () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><r>&b;</r>';
    await expect(parseAll(xmlRulesFilter, bomb)).rejects.toThrow(/DOCTYPE with an internal subset/);
    await expect(writeAll(xmlRulesFilter, bomb, {})).rejects.toThrow(/DOCTYPE with an internal subset/);
  });

  it('refuses nesting deeper than the limit, in linear time', async () => {
    const depth = 100_000;
    const deep = `${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`;
    await expect(parseAll(xmlRulesFilter, deep)).rejects.toThrow(/nested deeper than 512 levels/);
    const ok = `${'<a>'.repeat(400)}x${'</a>'.repeat(400)}`;
    expect((await parseAll(xmlRulesFilter, ok, {}, 100)).map((u) => u.source)).toEqual(['x']);
    await expect(parseAll(xmlRulesFilter, ok, { maxDepth: 100 })).rejects.toThrow(/deeper than 100/);
  });

  it('refuses a unit over the size limit while streaming', async () => {
    const huge = `<r><p>${'word '.repeat(MAX_XML_UNIT_CHARS / 5 + 10)}</p></r>`;
    await expect(parseAll(xmlRulesFilter, huge)).rejects.toThrow(/larger than 10000000 characters/);
  });

  it('reads a huge excluded element without holding it', async () => {
    const file = `<r><p>a</p><skip>${'<x>y</x>'.repeat(200_000)}</skip><p>b</p></r>`;
    const units = await parseAll(xmlRulesFilter, file, xml({ excludeElementsPlain: 'skip' }));
    expect(table(units)).toEqual([
      ['/r[1]/p[1]', 'a'],
      ['/r[1]/p[2]', 'b'],
    ]);
  });

  it.each([
    ['<r><p>unclosed</r>', /malformed XML/],
    ['<r>&undefined;</r>', /malformed XML/],
    ['', /root element/],
    ['<r>a</r><r2/>', /malformed XML/],
  ])('refuses %j', async (file, message) => {
    const error = await parseAll(xmlRulesFilter, file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(message);
  });

  it('handles many inline tags in one unit in linear time', async () => {
    const file = `<r><p>${'w <x/>'.repeat(100_000)}</p></r>`;
    const started = Date.now();
    const [unit] = await parseAll(xmlRulesFilter, file);
    expect(unit?.tags.length).toBe(100_000);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('detects XML by its declaration only', () => {
    expect(xmlRulesFilter.detect!(Buffer.from('<?xml version="1.0"?><r/>'))).toBe(true);
    expect(xmlRulesFilter.detect!(Buffer.from('<r/>'))).toBe(false);
    expect(xmlRulesFilter.detect!(Buffer.from('{"a":1}'))).toBe(false);
  });
});
