import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_PROPERTIES_ENTRY_CHARS, escapePropertiesValue, javaPropertiesFilter } from './java-properties.js';
import { parseAll, writeAll } from './testing.js';
import type { UnitTranslation } from './types.js';
import { FormatError } from './types.js';

const SAMPLE = [
  '# Application messages',
  '! generated',
  '',
  '# The window title',
  'app.title = My Application',
  'app.greeting:Hello, {0}!',
  'app.farewell    Goodbye',
  '   indented.key=  value with leading spaces kept out',
  'multi.line = first part \\',
  '    second part \\',
  '\tthird part',
  'escaped\\ key\\=x = tab\\there, newline\\nthere, backslash \\\\ and \\u00e9\\u4e2d',
  'empty.value =',
  'blank.value =    ',
  'only.key',
  'even.backslashes = ends with a backslash \\\\',
  'next = after',
  '',
].join('\n');

const translations = (entries: Record<string, string | UnitTranslation>): Map<string, UnitTranslation> =>
  new Map(Object.entries(entries).map(([locator, t]) => [locator, typeof t === 'string' ? { text: t } : t]));

describe('properties parse', () => {
  it('reads keys, separators, continuations, escapes and comments', async () => {
    const units = await parseAll(javaPropertiesFilter, SAMPLE);
    expect(units.map((u) => [u.locator, u.key, u.source, u.note])).toEqual([
      ['5', 'app.title', 'My Application', 'The window title'],
      ['6', 'app.greeting', 'Hello, {0}!', null],
      ['7', 'app.farewell', 'Goodbye', null],
      ['8', 'indented.key', 'value with leading spaces kept out', null],
      ['9', 'multi.line', 'first part second part third part', null],
      ['12', 'escaped key=x', 'tab\there, newline\nthere, backslash \\ and é中', null],
      ['16', 'even.backslashes', 'ends with a backslash \\', null],
      ['17', 'next', 'after', null],
    ]);
    units.forEach((u, i) => expect(u).toMatchObject({ index: i, tags: [], target: null, translatable: true }));
  });

  it('takes only the comment lines right above a key as its note', async () => {
    const units = await parseAll(javaPropertiesFilter, '# file comment\n\n# about a\n#   indented\na=1\n# about b\nb=2\nc=3\n');
    expect(units.map((u) => u.note)).toEqual(['about a\n  indented', 'about b', null]);
  });

  it('gives the same units whatever the chunk size, CRLF and CR too', async () => {
    const whole = await parseAll(javaPropertiesFilter, SAMPLE);
    for (const text of [SAMPLE, SAMPLE.replace(/\n/g, '\r\n'), SAMPLE.replace(/\n/g, '\r')]) {
      for (const size of [1, 5, 1000]) {
        expect((await parseAll(javaPropertiesFilter, text, {}, size)).map((u) => [u.key, u.source])).toEqual(
          whole.map((u) => [u.key, u.source]),
        );
      }
    }
  });

  it('makes tags only by tagRegexp (MessageFormat placeholders)', async () => {
    const [unit] = await parseAll(javaPropertiesFilter, 'a = {0} of {1,number} files\n', {
      formatSettings: { tagRegexp: '\\{\\d+(,[^}]*)?\\}' },
    });
    expect(unit!.source).toBe('{1} of {2} files');
    expect(unit!.tags.map((t) => t.original)).toEqual(['{0}', '{1,number}']);
  });

  it('reads ISO-8859-1, UTF-8 and a UTF-8 BOM', async () => {
    const latin = await parseAll(javaPropertiesFilter, Buffer.from('a = Straße\n', 'latin1'));
    expect(latin[0]!.source).toBe('Straße');
    const utf8 = await parseAll(javaPropertiesFilter, Buffer.from('a = Straße ☺\n', 'utf8'));
    expect(utf8[0]!.source).toBe('Straße ☺');
    const bom = await parseAll(javaPropertiesFilter, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a = x\n')]));
    expect(bom.map((u) => [u.key, u.source])).toEqual([['a', 'x']]);
  });

  it.each([
    ['a malformed \\u escape', 'a = bad \\u12G4\n', /malformed \\uxxxx escape \(line 1\)/],
    ['a short \\u escape at the end', 'a = \\u12', /malformed/],
    ['UTF-16', Buffer.from([0xff, 0xfe, 0x61, 0x00]), /UTF-16/],
    ['a BOM with invalid UTF-8', Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x3d, 0xff]), /not valid UTF-8/],
  ])('refuses %s', async (_name, text, message) => {
    await expect(parseAll(javaPropertiesFilter, text)).rejects.toBeInstanceOf(FormatError);
    await expect(parseAll(javaPropertiesFilter, text)).rejects.toThrow(message);
  });

  it('refuses an entry longer than the limit, also across continuation lines', async () => {
    const line = 'x'.repeat(1_000_000);
    const text = `a = ${Array.from({ length: MAX_PROPERTIES_ENTRY_CHARS / 1_000_000 + 1 }, () => line).join('\\\n')}\n`;
    await expect(parseAll(javaPropertiesFilter, text)).rejects.toThrow(/an entry is longer than 10000000 characters \(line 1\)/);
  });

  it('is linear on long runs of backslashes and many lines', async () => {
    const started = Date.now();
    const backslashes = `a = ${'\\'.repeat(2_000_000)}\n`;
    expect((await parseAll(javaPropertiesFilter, backslashes))[0]!.source).toBe('\\'.repeat(1_000_000));
    const many = Array.from({ length: 200_000 }, (_, i) => `key.${i} = Value number ${i}`).join('\n');
    expect((await parseAll(javaPropertiesFilter, many)).length).toBe(200_000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('properties write', () => {
  it('copies the file byte for byte with no translations, and with every source as its translation', async () => {
    for (const text of [SAMPLE, SAMPLE.replace(/\n/g, '\r\n'), SAMPLE.trimEnd(), `\ufeff${SAMPLE}`]) {
      const bytes = Buffer.from(text);
      expect((await writeAll(javaPropertiesFilter, bytes, new Map(), {}, 3)).equals(bytes)).toBe(true);
      const units = await parseAll(javaPropertiesFilter, bytes);
      const same = new Map(units.map((u) => [u.locator, { text: u.source }]));
      expect((await writeAll(javaPropertiesFilter, bytes, same)).equals(bytes)).toBe(true);
    }
    const latin = Buffer.from('# Grüße\na = Straße\n', 'latin1');
    expect((await writeAll(javaPropertiesFilter, latin, translations({ '2': 'Straße' }))).equals(latin)).toBe(true);
  });

  it('replaces only the values of translated entries', async () => {
    const out = (
      await writeAll(
        javaPropertiesFilter,
        SAMPLE,
        translations({
          '5': 'Meine Anwendung',
          '6': 'Hallo, {0}!',
          '7': ' führendes Leerzeichen',
          '9': 'erster Teil\nzweiter Teil',
          '12': 'Tab\tund \\ und 中',
          '999': 'ignored',
        }),
      )
    ).toString('latin1');
    expect(out).toBe(
      SAMPLE.replace('= My Application', '= Meine Anwendung')
        .replace('app.greeting:Hello, {0}!', 'app.greeting:Hallo, {0}!')
        .replace('app.farewell    Goodbye', 'app.farewell    \\ f\\u00FChrendes Leerzeichen')
        .replace('multi.line = first part \\\n    second part \\\n\tthird part', 'multi.line = erster Teil\\nzweiter Teil')
        .replace(/(escaped\\ key\\=x = ).*/, '$1Tab\\tund \\\\ und \\u4E2D'),
    );
  });

  it('writes characters by the file charset: raw in UTF-8 and Latin-1 (\\uXXXX beyond), \\uXXXX in ASCII files', async () => {
    expect(escapePropertiesValue('é中😀\u0001', 'ascii')).toBe('\\u00E9\\u4E2D\\uD83D\\uDE00\\u0001');
    expect(escapePropertiesValue('é中', 'latin1')).toBe('é\\u4E2D');
    expect(escapePropertiesValue('é中', 'utf-8')).toBe('é中');
    const latin = await writeAll(javaPropertiesFilter, Buffer.from('a = Straße\nb = x\n', 'latin1'), translations({ '2': 'é中' }));
    expect(latin.equals(Buffer.from('a = Straße\nb = é\\u4E2D\n', 'latin1'))).toBe(true);
    const utf8 = await writeAll(javaPropertiesFilter, Buffer.from('a = ☺\nb = x\n'), translations({ '2': 'é中' }));
    expect(utf8.toString('utf8')).toBe('a = ☺\nb = é中\n');
  });

  it('restores tagRegexp tags', async () => {
    const options = { formatSettings: { tagRegexp: '\\{\\d+\\}' } };
    const out = await writeAll(javaPropertiesFilter, 'a = {0} of {1}\n', translations({ '1': '{2} von {1} {7}' }), options);
    expect(out.toString()).toBe('a = {1} von {0} {7}\n');
  });

  it('translated output reads back with the translated values (own parser)', async () => {
    const units = await parseAll(javaPropertiesFilter, SAMPLE);
    const pseudo = (u: { source: string }) => ` ${u.source.replace(/[aeo]/g, (c) => ({ a: 'ą', e: 'ę', o: 'ó' })[c]!)}\\ \n#!`;
    const out = await writeAll(javaPropertiesFilter, SAMPLE, new Map(units.map((u) => [u.locator, { text: pseudo(u) }])));
    const again = await parseAll(javaPropertiesFilter, out);
    expect(again.map((u) => [u.key, u.source])).toEqual(units.map((u) => [u.key, pseudo(u)]));
  });
});

const hasJava = spawnSync('java', ['-version']).status === 0;
const tmp = mkdtempSync(join(tmpdir(), 'properties-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe(`java.util.Properties reads the output${hasJava ? '' : ' — skipped: java is missing (apt-get install default-jdk-headless)'}`, () => {
  it.skipIf(!hasJava)(
    'loads the translated files (ISO-8859-1 by Properties.load(InputStream), UTF-8 by a UTF-8 Reader) with the same keys and values',
    async () => {
      const program = `import java.io.*; import java.nio.charset.StandardCharsets; import java.util.*;
public class Dump { public static void main(String[] a) throws Exception {
  Properties p = new Properties();
  try (InputStream in = new FileInputStream(a[0])) { if (a[1].equals("utf-8")) p.load(new InputStreamReader(in, StandardCharsets.UTF_8)); else p.load(in); }
  StringBuilder sb = new StringBuilder();
  for (String k : new TreeSet<>(p.stringPropertyNames())) { sb.append(k).append('\\u0000').append(p.getProperty(k)).append('\\u0000'); }
  System.out.write(sb.toString().getBytes(StandardCharsets.UTF_8)); System.out.flush(); } }`;
      writeFileSync(join(tmp, 'Dump.java'), program);
      const units = await parseAll(javaPropertiesFilter, SAMPLE);
      const pseudo = (s: string) => ` ${s.replace(/[aeo]/g, (c) => ({ a: 'ą', e: 'ę', o: 'ó' })[c]!)} 中\\ \n\t#!=:`;
      for (const [charset, original] of [
        ['latin1', Buffer.from(SAMPLE + 'latin = Straße\n', 'latin1')],
        ['utf-8', Buffer.from(SAMPLE + 'utf = ☺\n', 'utf8')],
      ] as const) {
        const all = await parseAll(javaPropertiesFilter, original);
        const out = await writeAll(javaPropertiesFilter, original, new Map(all.map((u) => [u.locator, { text: pseudo(u.source) }])));
        const file = join(tmp, `out-${charset}.properties`);
        writeFileSync(file, out);
        const run = spawnSync('java', [join(tmp, 'Dump.java'), file, charset], { encoding: 'utf8' });
        expect(run.stderr).toBe('');
        const fields = run.stdout.split('\u0000').slice(0, -1);
        const loaded = new Map<string, string>();
        for (let i = 0; i < fields.length; i += 2) loaded.set(fields[i]!, fields[i + 1]!);
        for (const unit of all) expect(loaded.get(unit.key!), unit.key!).toBe(pseudo(unit.source));
        expect(loaded.get('empty.value')).toBe('');
        expect(loaded.get('only.key')).toBe('');
        expect(units.length).toBe(all.length - 1);
      }
    },
    60_000,
  );
});
