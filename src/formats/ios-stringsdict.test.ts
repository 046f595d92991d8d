import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { iosStringsdictFilter } from './ios-stringsdict.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';

const fixture = readFileSync(new URL('../../test/fixtures/formats/ios-stringsdict/Localizable.stringsdict', import.meta.url));
const XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
const PYTHON = spawnSync('python3', ['-c', 'import plistlib']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'stringsdict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The property list as Python's plistlib reads it (a JSON dump). */
function plistlib(bytes: Buffer): unknown {
  const file = join(dir, 'Localizable.stringsdict');
  writeFileSync(file, bytes);
  const run = spawnSync('python3', ['-c', 'import json,plistlib,sys; print(json.dumps(plistlib.load(open(sys.argv[1],"rb"))))', file], {
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as unknown;
}

function xmllint(bytes: Buffer): void {
  const run = spawnSync('xmllint', ['--noout', '--nonet', '-'], { input: bytes, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
}

function plist(entries: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n${entries}\n</dict>\n</plist>\n`;
}

describe('stringsdict: parse', () => {
  it('reads the format key and each plural variant, placeholders as tags', async () => {
    const units = await parseAll(iosStringsdictFilter, fixture);
    expect(units.map((unit) => [unit.locator, unit.key, unit.context, unit.source])).toEqual([
      ['/%d file(s) remaining/NSStringLocalizedFormatKey', '%d file(s) remaining', 'NSStringLocalizedFormatKey', '{1} remaining'],
      ['/%d file(s) remaining/files/zero', '%d file(s) remaining', 'files/zero', 'No files'],
      ['/%d file(s) remaining/files/one', '%d file(s) remaining', 'files/one', '{1} file'],
      ['/%d file(s) remaining/files/other', '%d file(s) remaining', 'files/other', '{1} files'],
      ['/%lld songs in %@/NSStringLocalizedFormatKey', '%lld songs in %@', 'NSStringLocalizedFormatKey', '{1} in “{2}”'],
      ['/%lld songs in %@/songs/one', '%lld songs in %@', 'songs/one', '{1} song & more'],
      ['/%lld songs in %@/songs/other', '%lld songs in %@', 'songs/other', '{1} songs'],
    ]);
    expect(units[4]!.tags.map((tag) => tag.original)).toEqual(['%#@songs@', '%2$@']);
    expect(units[5]!.tags.map((tag) => tag.original)).toEqual(['%lld']);
    expect(await parseAll(iosStringsdictFilter, fixture, {}, 5)).toEqual(units);
  });

  it('escapes / and ~ in locators; reads device and width variants as units', async () => {
    const xml = plist(
      '<key>a/b~c</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@d@</string><key>d</key><dict>' +
        '<key>NSStringFormatSpecTypeKey</key><string>NSStringDeviceSpecificRuleType</string><key>iphone</key><string>Tap</string><key>mac</key><string>Click</string></dict></dict>',
    );
    const units = await parseAll(iosStringsdictFilter, xml);
    expect(units.map((unit) => [unit.locator, unit.source])).toEqual([
      ['/a~1b~0c/NSStringLocalizedFormatKey', '{1}'],
      ['/a~1b~0c/d/iphone', 'Tap'],
      ['/a~1b~0c/d/mac', 'Click'],
    ]);
  });

  it('refuses other property lists shapes and XML', async () => {
    await expect(parseAll(iosStringsdictFilter, '<resources/>')).rejects.toThrow(/not a property list/);
    await expect(parseAll(iosStringsdictFilter, plist('<key>a</key><dict><key>x</key></dict>'))).rejects.toThrow(/has no value/);
    await expect(parseAll(iosStringsdictFilter, plist('<dict></dict>'))).rejects.toThrow(/without its key/);
  });
});

describe('stringsdict: write', () => {
  it('gives back the original bytes without translations and with the sources as translations', async () => {
    expect((await writeAll(iosStringsdictFilter, fixture, {})).equals(fixture)).toBe(true);
    const units = await parseAll(iosStringsdictFilter, fixture);
    const same = Object.fromEntries(units.map((unit) => [unit.locator, unit.source]));
    expect((await writeAll(iosStringsdictFilter, fixture, same)).equals(fixture)).toBe(true);
  });

  it('writes the target language’s plural categories (zero kept, as iOS uses it for 0), readable by plistlib', async () => {
    const translations = {
      '/%d file(s) remaining/NSStringLocalizedFormatKey': 'Pozostało: {1}',
      '/%d file(s) remaining/files/zero': 'Brak plików',
      '/%d file(s) remaining/files/one': '{1} plik',
      '/%d file(s) remaining/files/other': '{1} pliku',
      '/%lld songs in %@/songs/other': '{1} piosenek & więcej <3',
    };
    const out = await writeAll(iosStringsdictFilter, fixture, translations, { targetLanguage: 'pl' });
    const text = out.toString();
    expect(text).toContain(
      '\t\t\t<key>zero</key>\n\t\t\t<string>Brak plików</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d plik</string>\n' +
        '\t\t\t<key>few</key>\n\t\t\t<string>%d pliku</string>\n\t\t\t<key>many</key>\n\t\t\t<string>%d pliku</string>\n' +
        '\t\t\t<key>other</key>\n\t\t\t<string>%d pliku</string>\n',
    );
    expect(text).toContain('<string>%lld piosenek &amp; więcej &lt;3</string>');
    if (XMLLINT) xmllint(out);
    if (PYTHON) {
      expect(plistlib(out)).toEqual({
        '%d file(s) remaining': {
          NSStringLocalizedFormatKey: 'Pozostało: %#@files@',
          files: {
            NSStringFormatSpecTypeKey: 'NSStringPluralRuleType',
            NSStringFormatValueTypeKey: 'd',
            zero: 'Brak plików',
            one: '%d plik',
            few: '%d pliku',
            many: '%d pliku',
            other: '%d pliku',
          },
        },
        '%lld songs in %@': {
          NSStringLocalizedFormatKey: '%#@songs@ in “%2$@”',
          songs: {
            NSStringFormatSpecTypeKey: 'NSStringPluralRuleType',
            NSStringFormatValueTypeKey: 'lld',
            one: '%lld song & more',
            few: '%lld piosenek & więcej <3',
            many: '%lld piosenek & więcej <3',
            other: '%lld piosenek & więcej <3',
          },
        },
      });
    }
    const back = Object.fromEntries((await parseAll(iosStringsdictFilter, out)).map((unit) => [unit.locator, unit.source]));
    for (const [locator, translation] of Object.entries(translations)) expect(back[locator]).toBe(translation);
  });

  it('drops categories the target language does not use (Japanese: other only)', async () => {
    const out = await writeAll(iosStringsdictFilter, fixture, { '/%lld songs in %@/songs/other': '{1} 曲' }, { targetLanguage: 'ja' });
    expect(out.toString()).toContain('<string>lld</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%lld 曲</string>\n\t\t</dict>');
    if (PYTHON) expect(Object.keys((plistlib(out) as Record<string, { songs: object }>)['%lld songs in %@']!.songs)).not.toContain('one');
  });
});

describe('stringsdict: detection and hostile input', () => {
  it('detects a plist with NSStringLocalizedFormatKey only', () => {
    expect(iosStringsdictFilter.detect!(fixture.subarray(0, 1024))).toBe(true);
    expect(iosStringsdictFilter.detect!(Buffer.from(plist('<key>CFBundleName</key><string>App</string>')))).toBe(false);
  });

  it('accepts the public plist DOCTYPE, refuses internal subsets, deep nesting and malformed XML', async () => {
    await expect(parseAll(iosStringsdictFilter, '<!DOCTYPE plist [<!ENTITY a "b">]><plist/>')).rejects.toThrow(/internal subset/);
    const deep = plist(`<key>a</key>${'<dict><key>k</key>'.repeat(600)}<string>x</string>${'</dict>'.repeat(600)}`);
    await expect(parseAll(iosStringsdictFilter, deep)).rejects.toThrow(/nested deeper/);
    const fine = plist(`<key>a</key>${'<dict><key>k</key>'.repeat(100)}<string>x</string>${'</dict>'.repeat(100)}`);
    expect(await parseAll(iosStringsdictFilter, fine)).toHaveLength(1);
    await expect(parseAll(iosStringsdictFilter, plist('<key>a</key><dict><key>b</key><string>x</dict>'))).rejects.toThrow(FormatError);
  });
});
