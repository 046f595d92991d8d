import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qtNumerusForms, qtTsFilter } from './qt-ts.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import type { UnitTranslation } from './types.js';

const fixture = readFileSync(new URL('../../test/fixtures/formats/qt-ts/app_de.ts.xml', import.meta.url));
const QT_TOOLS = spawnSync('lconvert', ['-help']).status === 0 && spawnSync('lupdate', ['-help']).status === 0;
const NO_QT_TOOLS = 'lconvert/lupdate are missing (apt-get install qttools5-dev-tools)';
const XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'qt-ts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Qt's own reader and writer: `lconvert` reads the file and writes it again (it fails on what it cannot read). */
function lconvert(ts: Buffer): Buffer {
  writeFileSync(join(dir, 'in.ts'), ts);
  const run = spawnSync('lconvert', ['-i', join(dir, 'in.ts'), '-o', join(dir, 'out.ts')], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return readFileSync(join(dir, 'out.ts'));
}

function targets(
  units: { locator: string; target: string | null; targetConfirmed?: boolean }[],
): Record<string, [string | null, boolean | undefined]> {
  return Object.fromEntries(units.map((unit) => [unit.locator, [unit.target, unit.targetConfirmed]]));
}

describe('Qt TS: parse', () => {
  it('reads messages with context, notes, targets and confirmation; numerus forms per language', async () => {
    const units = await parseAll(qtTsFilter, fixture);
    expect(
      units.map((unit) => [
        unit.locator,
        unit.key,
        unit.context,
        unit.source,
        unit.target,
        unit.targetConfirmed,
        unit.translatable,
        unit.note,
      ]),
    ).toEqual([
      ['1:1', null, 'MainWindow', '&File', '&Datei', true, true, 'menu'],
      ['1:2', null, 'MainWindow', 'Open "{1}" from {2}?', null, undefined, true, '%1 is a file name'],
      ['1:3:1', null, 'MainWindow', '{1} file(s) selected', '{1} Datei ausgewählt', false, true, 'plural form 1 of 2'],
      ['1:3:2', null, 'MainWindow', '{1} file(s) selected', null, undefined, true, 'plural form 2 of 2'],
      ['1:4', null, 'MainWindow', 'Old text', 'Alter Text', false, false, null],
      ['2:1', 'dialog.ok', 'Dialog', 'OK', null, undefined, true, null],
      ['2:2', null, 'Dialog', 'Bell{1} rings', null, undefined, true, null],
    ]);
    expect(units[1]!.tags.map((tag) => tag.original)).toEqual(['%1', '%2']);
    expect(units[6]!.tags.map((tag) => tag.original)).toEqual(['<byte value="x7"/>']);
    expect(await parseAll(qtTsFilter, fixture, {}, 2)).toEqual(units);
  });

  it('numbers target tags like the source tags they repeat', async () => {
    const ts =
      '<TS version="2.1" language="de"><context><name>C</name><message><source>%1 of %2</source><translation>%2 von %1 %L3</translation></message></context></TS>';
    const [unit] = await parseAll(qtTsFilter, ts);
    expect(unit!.source).toBe('{1} of {2}');
    expect(unit!.target).toBe('{2} von {1} {3}');
    expect(unit!.tags.map((tag) => [tag.display, tag.original])).toEqual([
      ['{1}', '%1'],
      ['{2}', '%2'],
      ['{3}', '%L3'],
    ]);
  });

  it('gives numerus messages as many units as Qt has plural forms for the language', async () => {
    expect([qtNumerusForms('ja'), qtNumerusForms('de_DE'), qtNumerusForms('pl'), qtNumerusForms('ar'), qtNumerusForms(undefined)]).toEqual([
      1, 2, 3, 6, 2,
    ]);
    const units = await parseAll(qtTsFilter, fixture, { targetLanguage: 'pl' });
    expect(units.filter((unit) => unit.locator.startsWith('1:3:')).map((unit) => unit.locator)).toEqual(['1:3:1', '1:3:2', '1:3:3']);
  });
});

describe('Qt TS: write', () => {
  it('gives back the original bytes without translations', async () => {
    expect((await writeAll(qtTsFilter, fixture, {})).equals(fixture)).toBe(true);
  });

  it('writes translations, sets or removes type="unfinished" by confirmed, and reads them back', async () => {
    const translations = new Map<string, UnitTranslation>([
      ['1:1', { text: '&Datei & mehr', confirmed: false }],
      ['1:2', { text: '"{1}" aus {2} öffnen?', confirmed: true }],
      ['1:3:1', { text: '{1} Datei gewählt' }],
      ['1:3:2', { text: '{1} Dateien gewählt' }],
      ['1:4', { text: 'ignored: vanished' }],
      ['2:1', { text: 'OK!' }],
      ['2:2', { text: 'Glocke{1} läutet <laut>' }],
    ]);
    const out = await writeAll(qtTsFilter, fixture, translations);
    const text = out.toString();
    expect(text).toContain('<translation type="unfinished">&amp;Datei &amp; mehr</translation>');
    expect(text).toContain('<translation>&quot;%1&quot; aus %2 öffnen?</translation>');
    expect(text).toContain(
      '<translation>\n            <numerusform>%n Datei gewählt</numerusform>\n            <numerusform>%n Dateien gewählt</numerusform>\n        </translation>',
    );
    expect(text).toContain('<translation type="vanished">Alter Text</translation>');
    expect(text).toContain('<translation>OK!</translation>');
    expect(text).toContain('<translation>Glocke<byte value="x7"/> läutet &lt;laut&gt;</translation>');
    expect(targets(await parseAll(qtTsFilter, out))).toEqual({
      '1:1': ['&Datei & mehr', false],
      '1:2': ['"{1}" aus {2} öffnen?', true],
      '1:3:1': ['{1} Datei gewählt', true],
      '1:3:2': ['{1} Dateien gewählt', true],
      '1:4': ['Alter Text', false],
      '2:1': ['OK!', true],
      '2:2': ['Glocke{1} läutet <laut>', true],
    });
  });

  it('sets the language and writes the target language’s number of plural forms', async () => {
    const options = { targetLanguage: 'pl' };
    const out = await writeAll(qtTsFilter, fixture, { '1:3:1': '{1} plik', '1:3:3': '{1} plików' }, options);
    const text = out.toString();
    expect(text).toContain('<TS version="2.1" language="pl" sourcelanguage="en_US">');
    // Form 2 keeps the (empty) form the file had.
    expect(text).toContain(
      '<translation>\n            <numerusform>%n plik</numerusform>\n            <numerusform></numerusform>\n            <numerusform>%n plików</numerusform>\n        </translation>',
    );
    const pt = await writeAll(qtTsFilter, fixture, { '2:1': 'OK' }, { targetLanguage: 'pt-br' });
    expect(pt.toString()).toContain('language="pt_BR"');
  });

  it('adds a missing <translation> after the last child of the message', async () => {
    const ts =
      '<TS version="2.1">\n<context>\n    <name>C</name>\n    <message>\n        <source>Hi</source>\n    </message>\n</context>\n</TS>\n';
    const out = await writeAll(qtTsFilter, ts, new Map([['1:1', { text: 'Hallo', confirmed: false }]]));
    expect(out.toString()).toBe(
      '<TS version="2.1">\n<context>\n    <name>C</name>\n    <message>\n        <source>Hi</source>\n        <translation type="unfinished">Hallo</translation>\n    </message>\n</context>\n</TS>\n',
    );
  });

  it.skipIf(!QT_TOOLS)(`is read by Qt's lconvert, which gives the same translations back (${NO_QT_TOOLS} otherwise)`, async () => {
    const translations = new Map<string, UnitTranslation>([
      ['1:1', { text: '&Datei', confirmed: true }],
      ['1:2', { text: '"{1}" aus {2} öffnen?', confirmed: false }],
      ['1:3:1', { text: '{1} Datei' }],
      ['1:3:2', { text: '{1} Dateien' }],
      ['2:1', { text: 'OK' }],
      ['2:2', { text: 'Glocke{1} läutet' }],
    ]);
    const out = await writeAll(qtTsFilter, fixture, translations, { targetLanguage: 'de' });
    if (XMLLINT) expect(spawnSync('xmllint', ['--noout', '-'], { input: out }).status).toBe(0);
    const rewritten = lconvert(out);
    const written = targets(await parseAll(qtTsFilter, out, { targetLanguage: 'de' }));
    expect(targets(await parseAll(qtTsFilter, rewritten, { targetLanguage: 'de' }))).toEqual(written);
    expect(written['1:2']).toEqual(['"{1}" aus {2} öffnen?', false]);
  });

  it.skipIf(!QT_TOOLS)(`translates a file made by lupdate from C++ sources (${NO_QT_TOOLS} otherwise)`, async () => {
    writeFileSync(
      join(dir, 'main.cpp'),
      '#include <QObject>\nvoid f(int n) {\n  QObject::tr("Hello %1", "greeting");\n  //: Shown in the status bar\n  QObject::tr("%n item(s)", "", n);\n  QObject::tr("It\'s <b>bold</b> & \\"quoted\\"");\n}\n',
    );
    const made = spawnSync('lupdate', ['-silent', join(dir, 'main.cpp'), '-target-language', 'ru', '-ts', join(dir, 'made.ts')], {
      encoding: 'utf8',
    });
    expect(made.status).toBe(0);
    const original = readFileSync(join(dir, 'made.ts'));
    const units = await parseAll(qtTsFilter, original);
    expect(units.map((unit) => unit.source)).toEqual([
      'Hello {1}',
      '{1} item(s)',
      '{1} item(s)',
      '{1} item(s)',
      'It\'s <b>bold</b> & "quoted"',
    ]);
    expect((await writeAll(qtTsFilter, original, {})).equals(original)).toBe(true);
    const translations = new Map(units.map((unit, i) => [unit.locator, { text: `RU${i} ${unit.source}`, confirmed: i % 2 === 0 }]));
    const out = await writeAll(qtTsFilter, original, translations);
    const back = targets(await parseAll(qtTsFilter, lconvert(out)));
    // A numerus message has one state for all its forms: unfinished when any form is.
    expect(back).toEqual({
      '1:1': ['RU0 Hello {1}', true],
      '1:2:1': ['RU1 {1} item(s)', false],
      '1:2:2': ['RU2 {1} item(s)', false],
      '1:2:3': ['RU3 {1} item(s)', false],
      '1:3': ['RU4 It\'s <b>bold</b> & "quoted"', true],
    });
  });
});

describe('Qt TS: detection and hostile input', () => {
  it('detects a TS root, never TypeScript', () => {
    expect(qtTsFilter.extensions).toEqual(['ts']);
    expect(qtTsFilter.detect!(fixture.subarray(0, 1024))).toBe(true);
    expect(qtTsFilter.detect!(Buffer.from('export const a: number = 1;\n'))).toBe(false);
    expect(qtTsFilter.detect!(Buffer.from('<?xml version="1.0"?><resources/>'))).toBe(false);
  });

  it('refuses TypeScript, malformed XML, internal subsets and deep nesting', async () => {
    await expect(parseAll(qtTsFilter, 'export const a = 1;\n')).rejects.toThrow(FormatError);
    await expect(parseAll(qtTsFilter, '<resources/>')).rejects.toThrow(/not a Qt Linguist file/);
    await expect(parseAll(qtTsFilter, '<!DOCTYPE TS [<!ENTITY a "b">]><TS/>')).rejects.toThrow(/internal subset/);
    await expect(parseAll(qtTsFilter, `<TS><context>${'<x>'.repeat(600)}${'</x>'.repeat(600)}</context></TS>`)).rejects.toThrow(
      /nested deeper/,
    );
    await expect(parseAll(qtTsFilter, '<TS><context><name>C</name><message><source>x</source></TS>')).rejects.toThrow(/malformed XML/);
  });
});
