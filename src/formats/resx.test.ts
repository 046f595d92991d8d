import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resxFilter } from './resx.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { FilterOptions } from './types.js';

const fixture = readFileSync(new URL('../../test/fixtures/formats/resx/Strings.resx', import.meta.url));
const XMLLINT = spawnSync('xmllint', ['--version']).status === 0;

function xmllint(xml: Buffer): void {
  const dir = mkdtempSync(join(tmpdir(), 'resx-'));
  try {
    writeFileSync(join(dir, 'Strings.resx'), xml);
    const run = spawnSync('xmllint', ['--noout', '--nonet', join(dir, 'Strings.resx')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const data = (body: string): string => `<?xml version="1.0" encoding="utf-8"?>\n<root>\n${body}\n</root>\n`;

describe('RESX: parse', () => {
  it('reads string data with comments as notes; skips typed, binary and empty data', async () => {
    const units = await parseAll(resxFilter, fixture);
    expect(units.map((unit) => [unit.locator, unit.key, unit.source, unit.translatable, unit.note])).toEqual([
      ['Greeting', 'Greeting', 'Hello, {1}! You have {2} new messages.', true, 'Shown on the start page'],
      ['Braces', 'Braces', 'Use {{0}} for <b>bold</b> & more', true, null],
      ['>>button1.Name', '>>button1.Name', 'button1', false, null],
      ['Multi', 'Multi', 'Line one\nLine two ☕', true, null],
    ]);
    expect(units[0]!.tags.map((tag) => tag.original)).toEqual(['{0}', '{1:N0}']);
    expect(await parseAll(resxFilter, fixture, {}, 3)).toEqual(units);
  });

  it('makes HTML markup tags with htmlSubFilter (ResxSettingsDto) and tagRegexp matches tags', async () => {
    const xml = data('<data name="a"><value>&lt;b&gt;Bold&lt;/b&gt; &lt;br/&gt; $name$ {0}</value></data>');
    const [html] = await parseAll(resxFilter, xml, { formatSettings: { htmlSubFilter: true, tagRegexp: '\\$\\w+\\$' } });
    expect(html!.source).toBe('{1>Bold<1} {2} {3} {4}');
    expect(html!.tags.map((tag) => tag.original)).toEqual(['&lt;b&gt;', '&lt;/b&gt;', '&lt;br/&gt;', '$name$', '{0}']);
    const out = await writeAll(
      resxFilter,
      xml,
      { a: '{3}: {1>Fett<1}{2}{4}' },
      { formatSettings: { htmlSubFilter: true, tagRegexp: '\\$\\w+\\$' } },
    );
    expect(out.toString()).toContain('<value>$name$: &lt;b&gt;Fett&lt;/b&gt;&lt;br/&gt;{0}</value>');
  });

  it('refuses duplicate names, data without a name, and other roots', async () => {
    await expect(
      parseAll(resxFilter, data('<data name="a"><value>x</value></data><data name="a"><value>y</value></data>')),
    ).rejects.toThrow(/"a" is defined twice/);
    await expect(parseAll(resxFilter, data('<data><value>x</value></data>'))).rejects.toThrow(/without a name/);
    await expect(parseAll(resxFilter, '<resources/>')).rejects.toThrow(/not a .NET resource file/);
  });
});

describe('RESX: write', () => {
  it('gives back the original bytes (CRLF) without translations and with the sources as translations', async () => {
    expect((await writeAll(resxFilter, fixture, {})).equals(fixture)).toBe(true);
    const units = await parseAll(resxFilter, fixture);
    expect(
      (await writeAll(resxFilter, fixture, Object.fromEntries(units.map((unit) => [unit.locator, unit.source])))).equals(fixture),
    ).toBe(true);
  });

  it('writes translations that read back, escaped, well-formed, everything else unchanged', async () => {
    const units = await parseAll(resxFilter, fixture);
    const translations = Object.fromEntries(units.map((unit) => [unit.locator, `Übersetzt: ${unit.source} <&> "'`]));
    const out = await writeAll(resxFilter, fixture, translations);
    if (XMLLINT) xmllint(out);
    const back = await parseAll(resxFilter, out);
    for (const unit of back) expect(unit.source).toBe(unit.translatable ? translations[unit.locator] : 'button1');
    expect(out.toString()).toContain(
      '<value>Übersetzt: Hello, {0}! You have {1:N0} new messages. &lt;&amp;&gt; "\'</value>\r\n    <comment>',
    );
    expect(out.toString()).toContain('<value>AAABAAEAEBAAAAEAIABoBAAAFgAAACgAAAAQAAAAIAAAAAEAIAAAAAAAAAQAAA==</value>');
  });

  it('refuses characters XML cannot hold', async () => {
    await expect(writeAll(resxFilter, fixture, { Greeting: 'bell \u0007' })).rejects.toThrow(/character XML cannot hold/);
  });
});

describe('RESX: detection and hostile input', () => {
  it('detects ResX by its root and schema, not other XML', () => {
    expect(resxFilter.extensions).toEqual(['resx']);
    expect(resxFilter.detect!(fixture.subarray(0, 1024))).toBe(true);
    expect(resxFilter.detect!(Buffer.from('<?xml version="1.0"?><root><item/></root>'))).toBe(false);
    expect(resxFilter.detect!(Buffer.from('<resources><string name="a">x</string></resources>'))).toBe(false);
  });

  it('refuses DOCTYPE internal subsets, deep nesting, malformed XML and files over the limit', async () => {
    await expect(
      parseAll(
        resxFilter,
        '<!DOCTYPE root [<!ENTITY x SYSTEM "file:///etc/passwd">]><root><data name="a"><value>&x;</value></data></root>',
      ),
    ).rejects.toThrow(/internal subset/);
    await expect(
      parseAll(resxFilter, data(`<data name="a"><value>${'<x>'.repeat(600)}${'</x>'.repeat(600)}</value></data>`)),
    ).rejects.toThrow(/nested deeper/);
    await expect(parseAll(resxFilter, data('<data name="a"><value>x</data>'))).rejects.toThrow(FormatError);
    const big = data(`<data name="a"><value>${'x'.repeat(2_000_000)}</value></data>`);
    expect((await parseAll(resxFilter, big))[0]!.source).toHaveLength(2_000_000);
    await expect(parseAll(resxFilter, big, { maxXmlResourceBytes: 1_000_000 } as FilterOptions)).rejects.toThrow(/larger than/);
  });
});
