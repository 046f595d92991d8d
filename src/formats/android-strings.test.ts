import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { androidStringsFilter } from './android-strings.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions, UnitTranslation } from './types.js';

const fixture = readFileSync(new URL('../../test/fixtures/formats/android-strings/strings.xml', import.meta.url));
const XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
const NO_XMLLINT = 'xmllint is missing (apt-get install libxml2-utils)';

function xmllint(xml: Buffer): void {
  const dir = mkdtempSync(join(tmpdir(), 'android-'));
  try {
    writeFileSync(join(dir, 'strings.xml'), xml);
    const run = spawnSync('xmllint', ['--noout', '--nonet', join(dir, 'strings.xml')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function resources(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n${body}\n</resources>\n`;
}

async function sourcesOf(xml: string | Buffer, options?: FilterOptions): Promise<Record<string, string>> {
  return Object.fromEntries((await parseAll(androidStringsFilter, xml, options)).map((unit) => [unit.locator, unit.source]));
}

describe('Android strings.xml: parse', () => {
  it('reads strings, plurals and arrays with keys, notes, tags and Android escapes', async () => {
    const units = await parseAll(androidStringsFilter, fixture);
    const table = units.map((unit) => [unit.locator, unit.key, unit.source, unit.translatable, unit.note]);
    expect(table).toEqual([
      ['string:app_name', 'app_name', 'Example', false, null],
      ['string:title', 'title', 'Welcome to {1>Example<1}!', true, 'Title of the main screen'],
      ['string:apostrophe', 'apostrophe', 'Don\'t "panic" & relax\nnow', true, null],
      ['string:quoted', 'quoted', '  spaced   out  ', true, null],
      ['string:collapsed', 'collapsed', 'several lines here', true, null],
      ['string:greeting', 'greeting', 'Hello, {1>{2}<1}! You have {3} new messages (100{4}).', true, null],
      ['string:at', 'at', '@home and ?why', true, null],
      ['string:ref', 'ref', '@string/title', false, null],
      ['string:unicode', 'unicode', 'Café ☕', true, null],
      ['string:tools', 'tools', 'Ignored attribute', true, null],
      ['plurals:files:one', 'files[one]', '{1} file', true, null],
      ['plurals:files:other', 'files[other]', '{1} files', true, null],
      ['string-array:planets:0', 'planets[0]', 'Mercury', true, null],
      ['string-array:planets:1', 'planets[1]', 'Venus', true, null],
    ]);
    const greeting = units.find((unit) => unit.key === 'greeting')!;
    expect(greeting.tags.map((tag) => [tag.display, tag.original])).toEqual([
      ['{1>', '<xliff:g id="name" example="Bob">'],
      ['{2}', '%1$s'],
      ['<1}', '</xliff:g>'],
      ['{3}', '%2$d'],
      ['{4}', '%%'],
    ]);
    expect(units.every((unit) => unit.target === null)).toBe(true);
  });

  it('gives the same units whatever the chunk size', async () => {
    const whole = await parseAll(androidStringsFilter, fixture);
    expect(await parseAll(androidStringsFilter, fixture, {}, 3)).toEqual(whole);
    expect(await parseAll(androidStringsFilter, fixture, {}, 1)).toEqual(whole);
  });

  it.each([
    ['<string name="a">it\\\'s</string>', "it's"],
    ['<string name="a">a\\tb\\\\c</string>', 'a\tb\\c'],
    ['<string name="a">\\u0041\\u00e9</string>', 'Aé'],
    ['<string name="a">"it\'s"</string>', "it's"],
    ['<string name="a">a "  b  " c</string>', 'a   b   c'],
    ['<string name="a">  <i>x</i>  y  </string>', '{1>x<1} y'],
    ['<string name="a"><![CDATA[<b>raw</b>]]></string>', '<b>raw</b>'],
    ['<string name="a">50% off, %-5.2f and %tY</string>', '50% off, {1} and {2}'],
    ['<string name="a">a<br/>b<!-- c -->d</string>', 'a{1}b{2}d'],
  ])('decodes %s', async (body, source) => {
    expect(Object.values(await sourcesOf(resources(body)))).toEqual([source]);
  });

  it('makes tagRegexp matches (AndroidSettingsDto.tagRegexp) tags before printf placeholders', async () => {
    const xml = resources('<string name="a">Hi {user}, %s</string>');
    const [unit] = await parseAll(androidStringsFilter, xml, { formatSettings: { tagRegexp: '\\{\\w+\\}' } });
    expect(unit!.source).toBe('Hi {1}, {2}');
    expect(unit!.tags.map((tag) => tag.original)).toEqual(['{user}', '%s']);
  });

  it('skips blank strings and other resource types', async () => {
    const xml = resources(
      '<string name="a"></string><string name="b">  </string><string name="c"/><integer name="n">1</integer><color name="x">#fff</color>',
    );
    expect(await parseAll(androidStringsFilter, xml)).toEqual([]);
  });

  it('keeps product variants apart and refuses duplicates', async () => {
    const xml = resources('<string name="a">Phone</string><string name="a" product="tablet">Tablet</string>');
    expect(Object.keys(await sourcesOf(xml))).toEqual(['string:a', 'string:a#tablet']);
    await expect(parseAll(androidStringsFilter, resources('<string name="a">x</string><string name="a">y</string>'))).rejects.toThrow(
      /string:a is defined twice/,
    );
  });
});

describe('Android strings.xml: write', () => {
  it('gives back the original bytes without translations and with every source as its translation', async () => {
    expect((await writeAll(androidStringsFilter, fixture, {})).equals(fixture)).toBe(true);
    const units = await parseAll(androidStringsFilter, fixture);
    const same = Object.fromEntries(units.map((unit) => [unit.locator, unit.source]));
    expect((await writeAll(androidStringsFilter, fixture, same, {}, 5)).equals(fixture)).toBe(true);
  });

  it('keeps BOM, CRLF and untouched parts byte for byte', async () => {
    const xml = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        '<?xml version="1.0"?>\r\n<resources>\r\n  <string name="a">One</string>\r\n  <string  name=\'b\' >Two</string>\r\n</resources>\r\n',
      ),
    ]);
    const out = await writeAll(androidStringsFilter, xml, { 'string:a': 'Eins' });
    expect(out.toString('utf8')).toBe(
      '\ufeff<?xml version="1.0"?>\r\n<resources>\r\n  <string name="a">Eins</string>\r\n  <string  name=\'b\' >Two</string>\r\n</resources>\r\n',
    );
  });

  it.each([
    ['it\'s "quoted"', 'it\\\'s \\"quoted\\"'],
    ['line\nbreak\ttab \\ back', 'line\\nbreak\\ttab \\\\ back'],
    ['  lead  and trail ', '\\u0020\\u0020lead \\u0020and trail\\u0020'],
    ['@home ?x', '\\@home ?x'],
    ['a < b & c > d', 'a &lt; b &amp; c &gt; d'],
    ['bell\u0007', 'bell\\u0007'],
  ])('encodes %j with Android escapes', async (translation, content) => {
    const xml = resources('<string name="a">x</string>');
    const out = (await writeAll(androidStringsFilter, xml, { 'string:a': translation })).toString();
    expect(out).toContain(`<string name="a">${content}</string>`);
    expect(Object.values(await sourcesOf(out))).toEqual([translation]);
  });

  it('writes translations that read back, with tags restored, and well-formed XML', async () => {
    const units = await parseAll(androidStringsFilter, fixture);
    const translations = new Map<string, UnitTranslation>(units.map((unit) => [unit.locator, { text: `Ü  ${unit.source} "'& <x> ` }]));
    const out = await writeAll(androidStringsFilter, fixture, translations);
    if (XMLLINT) xmllint(out);
    const back = await parseAll(androidStringsFilter, out);
    for (const unit of back) {
      const sent = translations.get(unit.locator)!.text;
      if (unit.translatable) expect(unit.source).toBe(sent);
    }
    expect(back.find((unit) => unit.key === 'greeting')!.tags.map((tag) => tag.original)).toEqual([
      '<xliff:g id="name" example="Bob">',
      '%1$s',
      '</xliff:g>',
      '%2$d',
      '%%',
    ]);
    // Untranslatable units keep their text.
    expect(out.toString()).toContain('<string name="app_name" translatable="false">Example</string>');
    expect(out.toString()).toContain('<string name="ref">@string/title</string>');
  });

  it.skipIf(!XMLLINT)(`checks well-formedness with xmllint (${NO_XMLLINT} otherwise)`, async () => {
    const out = await writeAll(androidStringsFilter, fixture, { 'string:title': 'Willkommen bei {1>Beispiel<1} & Co!' });
    xmllint(out);
  });

  it('refuses misnested tags in a translation', async () => {
    await expect(writeAll(androidStringsFilter, fixture, { 'string:title': 'Willkommen <1} bei {1>' })).rejects.toThrow(FormatError);
    // Leaving a pair out is allowed.
    const out = await writeAll(androidStringsFilter, fixture, { 'string:title': 'Willkommen' });
    expect(out.toString()).toContain('<string name="title">Willkommen</string>');
  });

  it('writes the plural categories of the target language (CLDR), the missing ones from "other"', async () => {
    const xml = resources(
      '    <plurals name="files">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>',
    );
    const translations = { 'plurals:files:one': '{1} plik', 'plurals:files:other': '{1} pliku' };
    const pl = (await writeAll(androidStringsFilter, xml, translations, { targetLanguage: 'pl' })).toString();
    expect(pl).toContain(
      '<plurals name="files">\n        <item quantity="one">%d plik</item>\n        <item quantity="few">%d pliku</item>\n' +
        '        <item quantity="many">%d pliku</item>\n        <item quantity="other">%d pliku</item>\n    </plurals>',
    );
    const ja = (await writeAll(androidStringsFilter, xml, { 'plurals:files:other': '{1} ファイル' }, { targetLanguage: 'ja' })).toString();
    expect(ja).toContain('<plurals name="files">\n        <item quantity="other">%d ファイル</item>\n    </plurals>');
    // Without a (known) target language the source's categories stay.
    const unknown = (await writeAll(androidStringsFilter, xml, translations, { targetLanguage: 'xx' })).toString();
    expect(unknown).toContain('<item quantity="one">%d plik</item>\n        <item quantity="other">%d pliku</item>');
    const back = await sourcesOf(pl);
    expect(back).toEqual({
      'plurals:files:one': '{1} plik',
      'plurals:files:few': '{1} pliku',
      'plurals:files:many': '{1} pliku',
      'plurals:files:other': '{1} pliku',
    });
  });

  it('writes latin-1 files with character references for what latin-1 cannot hold', async () => {
    const xml = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<resources><string name="a">Caf\xe9</string></resources>\n',
      'latin1',
    );
    expect(await sourcesOf(xml)).toEqual({ 'string:a': 'Café' });
    const out = await writeAll(androidStringsFilter, xml, { 'string:a': 'Café ☕' });
    expect(out.toString('latin1')).toContain('<string name="a">Caf\xe9 &#x2615;</string>');
    expect(await sourcesOf(out)).toEqual({ 'string:a': 'Café ☕' });
  });

  it('reads and writes UTF-16 files', async () => {
    const text = '<?xml version="1.0" encoding="utf-16"?>\n<resources><string name="a">Hello</string></resources>\n';
    const xml = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const out = await writeAll(androidStringsFilter, xml, { 'string:a': 'Hallo' });
    expect(out.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfe]));
    expect(out.subarray(2).toString('utf16le')).toBe(text.replace('Hello', 'Hallo'));
  });
});

describe('Android strings.xml: detection and hostile input', () => {
  it('detects string resources by content only', () => {
    expect(androidStringsFilter.extensions).toEqual([]);
    expect(androidStringsFilter.detect!(fixture.subarray(0, 1024))).toBe(true);
    expect(androidStringsFilter.detect!(Buffer.from('<?xml version="1.0"?>\n<resources>\n  <color name="x">#fff</color>'))).toBe(false);
    expect(androidStringsFilter.detect!(Buffer.from('<root><data name="a"><value>x</value></data></root>'))).toBe(false);
    expect(androidStringsFilter.detect!(Buffer.from('{"resources": "<string name=\\"a\\">"}'))).toBe(false);
  });

  it('refuses other XML, malformed XML, DOCTYPE internal subsets and deep nesting', async () => {
    await expect(parseAll(androidStringsFilter, '<root/>')).rejects.toThrow(/not an Android string resource file/);
    await expect(parseAll(androidStringsFilter, resources('<string name="a">x</strin>'))).rejects.toThrow(/malformed XML.*line 3/);
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE resources [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><resources><string name="x">&b;</string></resources>';
    await expect(parseAll(androidStringsFilter, bomb)).rejects.toThrow(/internal subset/);
    await expect(parseAll(androidStringsFilter, resources('<string name="a">&ext;</string>'))).rejects.toThrow(FormatError);
    const deep = resources(`<string name="a">${'<b>'.repeat(600)}x${'</b>'.repeat(600)}</string>`);
    await expect(parseAll(androidStringsFilter, deep)).rejects.toThrow(/nested deeper than 512/);
    await expect(parseAll(androidStringsFilter, deep, { maxDepth: 1000 })).resolves.toHaveLength(1);
    await expect(parseAll(androidStringsFilter, resources('<string>x</string>'))).rejects.toThrow(/without a name/);
    await expect(parseAll(androidStringsFilter, '')).rejects.toThrow(/root element/);
  });

  it('reads a 5 MB string and 100,000 strings in linear time; refuses files over the size limit', async () => {
    const big = resources(`<string name="a">${'word '.repeat(1_000_000)}</string>`);
    const started = Date.now();
    const [unit] = await parseAll(androidStringsFilter, big);
    expect(unit!.source.length).toBe(4_999_999);
    const many = resources(Array.from({ length: 100_000 }, (_, i) => `<string name="s${i}">Text %${(i % 9) + 1}$s</string>`).join('\n'));
    expect(await parseAll(androidStringsFilter, many)).toHaveLength(100_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(parseAll(androidStringsFilter, big, { maxXmlResourceBytes: 1_000_000 } as FilterOptions)).rejects.toThrow(
      /larger than 1000000 bytes/,
    );
  });
});
