import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_PO_ENTRY_CHARS, gettextPoFilter, nplurals, pluralFormsFor, poStringLines } from './gettext-po.js';
import { parseAll, writeAll } from './testing.js';
import type { FilterOptions, TextUnit, UnitTranslation } from './types.js';
import { FormatError } from './types.js';

const HEADER = `# Test catalog.
msgid ""
msgstr ""
"Project-Id-Version: demo 1.0\\n"
"Language: de\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
`;

const SAMPLE = `${HEADER}
#. Shown on the start page.
#: src/app.c:10 src/app.c:12
msgid "Hello"
msgstr "Hallo"

# A translator's remark.
#, fuzzy, c-format
#| msgid "Old %s"
msgid "Open %s"
msgstr "Öffne %s"

msgctxt "menu"
msgid "File"
msgstr ""

#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d Datei"
msgstr[1] "%d Dateien"

msgid ""
"Line one\\n"
"Line \\"two\\"\\t\\\\"
msgstr ""

#~ msgid "Gone"
#~ msgstr "Weg"
`;

const tmp = mkdtempSync(join(tmpdir(), 'po-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const hasGettext = spawnSync('msgfmt', ['--version']).status === 0;
const missingGettext = hasGettext ? '' : ' — skipped: msgfmt is missing (apt-get install gettext)';

/** `msgfmt --check` on `bytes`; returns its complaint, or '' when it accepts the file. */
function msgfmtCheck(bytes: Buffer | string, name = 'out.po'): string {
  const file = join(tmp, name);
  writeFileSync(file, bytes);
  const result = spawnSync('msgfmt', ['--check', '-o', '/dev/null', file], { encoding: 'utf8' });
  return result.status === 0 ? '' : result.stderr || `exit ${result.status}`;
}

const translations = (entries: Record<string, string | UnitTranslation>): Map<string, UnitTranslation> =>
  new Map(Object.entries(entries).map(([locator, t]) => [locator, typeof t === 'string' ? { text: t } : t]));

/** A pseudo-translation: vowels accented, tags and line breaks kept. */
function pseudo(unit: TextUnit): string {
  return unit.source.replace(/[aeo]/g, (c) => ({ a: 'ą', e: 'ę', o: 'ó' })[c]!);
}

describe('PO parse', () => {
  it('reads entries into units: msgctxt, plurals, comments, fuzzy, multi-line strings', async () => {
    const units = await parseAll(gettextPoFilter, SAMPLE);
    expect(units.map((u) => [u.locator, u.key, u.source, u.target])).toEqual([
      ['13', 'Hello', 'Hello', 'Hallo'],
      ['19', 'Open %s', 'Open {1}', 'Öffne {1}'],
      ['23', 'menu::File', 'File', null],
      ['27', '%d file', '{1} file', '{1} Datei'],
      ['27:plural', '%d files', '{1} files', '{1} Dateien'],
      ['32', 'Line one\nLine "two"\t\\', 'Line one\nLine "two"\t\\', null],
    ]);
    units.forEach((u, i) => expect(u.index).toBe(i));
    expect(units[0]).toMatchObject({
      note: 'Shown on the start page.\nsrc/app.c:10 src/app.c:12',
      targetConfirmed: true,
      translatable: true,
    });
    expect(units[1]).toMatchObject({ note: "A translator's remark.", targetConfirmed: false });
    expect(units[1]!.tags).toEqual([{ id: 1, kind: 'standalone', original: '%s', display: '{1}' }]);
    expect(units[2]).toMatchObject({ context: 'menu', note: null });
    expect(units[2]!.targetConfirmed).toBeUndefined();
    expect(units[0]!.context).toBeUndefined();
  });

  it('gives the same units whatever the chunk size', async () => {
    const whole = await parseAll(gettextPoFilter, SAMPLE);
    for (const size of [1, 3, 17]) expect(await parseAll(gettextPoFilter, SAMPLE, {}, size)).toEqual(whole);
  });

  it('reads a POT (empty msgstr) and CRLF line ends', async () => {
    const pot = SAMPLE.replace(/msgstr(\[\d\])? "[^"\n]+"/g, 'msgstr$1 ""').replace(/\n/g, '\r\n');
    const units = await parseAll(gettextPoFilter, pot);
    expect(units.map((u) => u.target)).toEqual([null, null, null, null, null, null]);
    expect(units[5]!.source).toBe('Line one\nLine "two"\t\\');
  });

  it('keys by the context key setting', async () => {
    const keys = async (type: string) =>
      (await parseAll(gettextPoFilter, SAMPLE, { formatSettings: { contextKeySuffixType: type } })).map((u) => u.key).slice(1, 3);
    expect(await keys('MSGID')).toEqual(['Open %s', 'File']);
    expect(await keys('MSGCTXT')).toEqual(['', 'menu']);
    expect(await keys('MSGCTXT_OR_MSGID')).toEqual(['Open %s', 'menu']);
    expect(await keys('MSGCTXT_AND_MSGID')).toEqual(['Open %s', 'menu::File']);
  });

  it('sets confirmed and locked as importSetSegmentConfirmedWhen / LockedWhen say', async () => {
    const units = await parseAll(gettextPoFilter, SAMPLE, {
      formatSettings: { importSetSegmentConfirmedWhen: 'FUZZY', importSetSegmentLockedWhen: 'NONFUZZY' },
    });
    expect(units.slice(0, 2).map((u) => [u.targetConfirmed, u.locked])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it.each([
    ['c-format', 'Got %s, %1$d and %-5.2f%% of %lu %<PRIu64> %q', 'Got {1}, {2} and {3}{4} of {5} {6} %q'],
    ['c-format', 'at 100%.', 'at 100%.'],
    ['c-format', '100% sure (a space flag: msgfmt reads % s too)', '100{1}ure (a space flag: msgfmt reads {2} too)'],
    ['objc-format', 'Hi %@ %d', 'Hi {1} {2}'],
    ['python-format', 'Hi %(name)s, %(n)d%% of %s %(broken', 'Hi {1}, {2}{3} of {4} %(broken'],
    ['python-brace-format', 'Hi {name}, {0} of {1:>10} {{literal}}', 'Hi {1}, {2} of {3} {{literal}}'],
    ['no-c-format', 'Got %s', 'Got %s'],
    ['java-format', 'File {0} of {1,number}', 'File {1} of {2}'],
  ])('%s placeholders become tags: %s', async (flag, text, source) => {
    const [unit] = await parseAll(gettextPoFilter, `#, ${flag}\nmsgid "${text}"\nmsgstr ""\n`);
    expect(unit!.source).toBe(source);
  });

  it('without a format flag nothing is a tag, tagRegexp makes tags (beside the directives)', async () => {
    const po = 'msgid "Hi %s <b>x</b>"\nmsgstr ""\n\n#, c-format\nmsgid "%s <b>"\nmsgstr "<b> %s"\n';
    expect((await parseAll(gettextPoFilter, po)).map((u) => u.source)).toEqual(['Hi %s <b>x</b>', '{1} <b>']);
    const tagged = await parseAll(gettextPoFilter, po, { formatSettings: { tagRegexp: '<[^>]+>' } });
    expect(tagged.map((u) => [u.source, u.target])).toEqual([
      ['Hi %s {1}x{2}', null],
      ['{1} {2}', '{2} {1}'],
    ]);
    expect(tagged[1]!.tags.map((t) => t.original)).toEqual(['%s', '<b>']);
  });

  it('numbers target-only placeholders after the source tags', async () => {
    const [unit] = await parseAll(gettextPoFilter, '#, c-format\nmsgid "%s and %s"\nmsgstr "%s, %s und %d"\n');
    expect(unit!.target).toBe('{1}, {2} und {3}');
    expect(unit!.tags.map((t) => t.original)).toEqual(['%s', '%s', '%d']);
  });

  it('reads msgstr[0] as the plural target when the language has one form', async () => {
    const units = await parseAll(gettextPoFilter, 'msgid "a day"\nmsgid_plural "%d days"\nmsgstr[0] "%d日"\n');
    expect(units.map((u) => u.target)).toEqual(['%d日', '%d日']);
  });

  it('reads ISO-8859-1 by the header charset', async () => {
    const po = Buffer.from(HEADER.replace('UTF-8', 'ISO-8859-1') + '\nmsgid "Street"\nmsgstr "Straße"\n', 'latin1');
    const units = await parseAll(gettextPoFilter, po);
    expect(units[0]!.target).toBe('Straße');
  });

  it.each([
    ['an unsupported charset', HEADER.replace('UTF-8', 'EUC-JP'), /charset EUC-JP is not supported/],
    ['an unclosed string', 'msgid "abc\nmsgstr ""\n', /string is not closed on its line \(line 1, column 7\)/],
    ['text after a string', 'msgid "abc" x\nmsgstr ""\n', /unexpected text after a string \(line 1, column 13\)/],
    ['an unknown keyword', 'msgid "a"\nmsgstring "b"\n', /unexpected text "msgstring" \(line 2, column 1\)/],
    ['a missing msgstr', 'msgid "a"\n\nmsgid "b"\nmsgstr ""\n', /msgid is out of place \(line 3/],
    ['an entry cut off at the end', 'msgid "a"\n', /ends inside an entry/],
    ['msgstr[n] without msgid_plural', 'msgid "a"\nmsgstr[0] ""\n', /msgstr\[0\] is out of place/],
    ['plural forms out of order', 'msgid "a"\nmsgid_plural "b"\nmsgstr[1] ""\n', /msgstr\[1\] is out of place/],
    ['a stray continuation', '"abc"\n', /a string continues nothing \(line 1, column 1\)/],
    ['a bad escape', 'msgid "a\\q"\nmsgstr ""\n', /unknown escape sequence \\q/],
    ['a comment inside an entry', 'msgid "a"\n# x\nmsgstr ""\n', /a comment inside an entry/],
    ['invalid UTF-8', Buffer.from([0x6d, 0x73, 0x67, 0x69, 0x64, 0x20, 0x22, 0xff, 0x22, 0x0a]), /not valid UTF-8/],
    ['UTF-16', Buffer.from([0xff, 0xfe, 0x6d, 0x00]), /UTF-16 are not supported/],
  ])('refuses %s', async (_name, text, message) => {
    const failure = parseAll(gettextPoFilter, text);
    await expect(failure).rejects.toBeInstanceOf(FormatError);
    await expect(parseAll(gettextPoFilter, text)).rejects.toThrow(message);
  });

  it('refuses an entry longer than the limit, without holding more', async () => {
    const huge = `msgid "${'a'.repeat(MAX_PO_ENTRY_CHARS)}"\nmsgstr ""\n`;
    await expect(parseAll(gettextPoFilter, huge, {}, 1 << 20)).rejects.toThrow(/longer than 10000000 characters/);
  });

  it('is linear on a run of percent signs and flags (no backtracking)', async () => {
    const text = `%${'0'.repeat(200_000)}`.repeat(5) + '%(' + 'x'.repeat(200_000);
    const po = `#, python-format\nmsgid "${text}"\nmsgstr ""\n`;
    const started = Date.now();
    const [unit] = await parseAll(gettextPoFilter, po);
    expect(unit!.tags).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('parses 100,000 small entries quickly', async () => {
    const po = Array.from({ length: 100_000 }, (_, i) => `#, c-format\nmsgid "Item %d number ${i}"\nmsgstr ""\n`).join('\n');
    const started = Date.now();
    let count = 0;
    for await (const batch of gettextPoFilter.parseBatches(Readable.from([Buffer.from(po)]))) count += batch.length;
    expect(count).toBe(100_000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('detects PO content, and nothing else', () => {
    const yes = ['msgid ""\nmsgstr ""\n', '# comment\n#, fuzzy\nmsgid ""\n', '\ufeffmsgctxt "a"\nmsgid "b"', SAMPLE];
    const no = ['{"msgid": ""}', '<xliff version="1.2">', 'Hello msgid "x"\n', 'key = value\n', '# only a comment\n', ''];
    for (const text of yes) expect(gettextPoFilter.detect!(Buffer.from(text))).toBe(true);
    for (const text of no) expect(gettextPoFilter.detect!(Buffer.from(text))).toBe(false);
  });
});

describe('PO write', () => {
  it('copies the file byte for byte with no translations (also CRLF, BOM, Latin-1, no final newline)', async () => {
    const variants: (string | Buffer)[] = [
      SAMPLE,
      SAMPLE.replace(/\n/g, '\r\n'),
      `\ufeff${SAMPLE}`,
      SAMPLE.trimEnd(),
      Buffer.from(HEADER.replace('UTF-8', 'ISO-8859-1') + '\nmsgid "Street"\nmsgstr "Straße"\n', 'latin1'),
    ];
    for (const original of variants) {
      const bytes = Buffer.isBuffer(original) ? original : Buffer.from(original);
      expect((await writeAll(gettextPoFilter, bytes, new Map(), { targetLanguage: 'pl' }, 5)).equals(bytes)).toBe(true);
    }
  });

  it('keeps entries whose translation is what the file holds', async () => {
    const units = await parseAll(gettextPoFilter, SAMPLE);
    const same = new Map(units.filter((u) => u.target !== null).map((u) => [u.locator, { text: u.target!, confirmed: u.targetConfirmed }]));
    const out = (await writeAll(gettextPoFilter, SAMPLE, same)).toString();
    expect(out).toBe(SAMPLE);
  });

  it('writes translations into msgstr, fuzzy as confirmed says, header Language updated', async () => {
    const out = (
      await writeAll(
        gettextPoFilter,
        SAMPLE,
        translations({
          '13': { text: 'Servus', confirmed: false },
          '19': { text: 'Öffnen: {1}', confirmed: true },
          '23': 'Datei',
          '32': 'Zeile eins\nZeile "zwei"\t\\',
        }),
        { targetLanguage: 'de_at' },
      )
    ).toString();
    expect(out).toContain('"Language: de_AT\\n"');
    expect(out).toContain('#. Shown on the start page.\n#: src/app.c:10 src/app.c:12\n#, fuzzy\nmsgid "Hello"\nmsgstr "Servus"\n');
    // Confirmed: fuzzy goes, and the previous msgid with it; the other flags stay.
    expect(out).toContain('# A translator\'s remark.\n#, c-format\nmsgid "Open %s"\nmsgstr "Öffnen: %s"\n');
    expect(out).toContain('msgctxt "menu"\nmsgid "File"\nmsgstr "Datei"\n');
    expect(out).toContain('msgstr ""\n"Zeile eins\\n"\n"Zeile \\"zwei\\"\\t\\\\"\n\n#~ msgid "Gone"\n#~ msgstr "Weg"\n');
    expect(out).toContain('msgstr[0] "%d Datei"\nmsgstr[1] "%d Dateien"\n');
    if (hasGettext) expect(msgfmtCheck(out)).toBe('');
  });

  it('adds fuzzy to an existing flags line for an unconfirmed translation', async () => {
    const po = '#, c-format\nmsgid "%s"\nmsgstr ""\n';
    const out = await writeAll(gettextPoFilter, po, translations({ '2': { text: '{1}!', confirmed: false } }));
    expect(out.toString()).toBe('#, fuzzy, c-format\nmsgid "%s"\nmsgstr "%s!"\n');
  });

  it('follows the export settings for fuzzy', async () => {
    const po = 'msgid "a"\nmsgstr ""\n';
    const write = async (confirmed: boolean, formatSettings: FilterOptions['formatSettings']) =>
      (await writeAll(gettextPoFilter, po, translations({ '1': { text: 'b', confirmed } }), { formatSettings })).toString();
    expect(await write(true, { exportConfirmedNotLocked: 'FUZZY' })).toBe('#, fuzzy\nmsgid "a"\nmsgstr "b"\n');
    expect(await write(false, { exportNotConfirmedNotLocked: 'NONFUZZY' })).toBe('msgid "a"\nmsgstr "b"\n');
  });

  it('writes a POT into Polish with three plural forms, header completed, valid for msgfmt', async () => {
    const pot = `# SOME DESCRIPTIVE TITLE.
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: PACKAGE VERSION\\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
"Language-Team: LANGUAGE <LL@li.org>\\n"
"Language: \\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=CHARSET\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"

#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] ""
msgstr[1] ""

#, c-format
msgid "%d folder"
msgid_plural "%d folders"
msgstr[0] ""
msgstr[1] ""
`;
    const units = await parseAll(gettextPoFilter, pot);
    expect(units.map((u) => u.locator)).toEqual(['16', '16:plural', '22', '22:plural']);
    const out = (
      await writeAll(gettextPoFilter, pot, translations({ '16': '{1} plik', '16:plural': '{1} plików' }), { targetLanguage: 'pl' })
    ).toString();
    expect(out).toContain('"Language: pl\\n"');
    expect(out).toContain('"Content-Type: text/plain; charset=UTF-8\\n"');
    expect(out).toContain('"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 "\n"|| n%100>=20) ? 1 : 2);\\n"');
    expect(out).toContain('msgstr[0] "%d plik"\nmsgstr[1] "%d plików"\nmsgstr[2] "%d plików"\n');
    // The untranslated plural entry gets three (empty) forms too.
    expect(out).toContain('msgid_plural "%d folders"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n');
    expect(out.startsWith('# SOME DESCRIPTIVE TITLE.\n#, fuzzy\nmsgid ""\n')).toBe(true);
    if (hasGettext) expect(msgfmtCheck(out.replace('#, fuzzy\nmsgid ""', 'msgid ""'))).toBe('');
  });

  it('writes one form for a language without plurals', async () => {
    const po = `${HEADER}\nmsgid "%d day"\nmsgid_plural "%d days"\nmsgstr[0] ""\nmsgstr[1] ""\n`;
    const out = (
      await writeAll(gettextPoFilter, po, translations({ '11': '%d 日 (one)', '11:plural': '%d 日' }), { targetLanguage: 'ja' })
    ).toString();
    expect(out).toContain('"Plural-Forms: nplurals=1; plural=0;\\n"');
    expect(out).toContain('msgid_plural "%d days"\nmsgstr[0] "%d 日"\n');
    expect(out.endsWith('msgstr[0] "%d 日"\n')).toBe(true);
    if (hasGettext) expect(msgfmtCheck(out)).toBe('');
  });

  it('restores placeholders and escapes, refuses NUL', async () => {
    const po = '#, python-format\nmsgid "%(n)d items in %(dir)s"\nmsgstr ""\n';
    const out = await writeAll(gettextPoFilter, po, translations({ '2': '{2}: {1} "Elemente"\t\\ {9}' }));
    expect(out.toString()).toBe('#, python-format\nmsgid "%(n)d items in %(dir)s"\nmsgstr "%(dir)s: %(n)d \\"Elemente\\"\\t\\\\ {9}"\n');
    await expect(writeAll(gettextPoFilter, po, translations({ '2': 'a\u0000b' }))).rejects.toThrow(FormatError);
  });

  it('wraps like msgcat by default, one line with exportMultiline false', async () => {
    const po = 'msgid "long"\nmsgstr ""\n';
    const text = 'A rather long translation that certainly does not fit into the seventy-nine columns of a line.\nSecond line';
    const wrapped = (await writeAll(gettextPoFilter, po, translations({ '1': text }))).toString();
    expect(wrapped).toBe(
      'msgid "long"\nmsgstr ""\n"A rather long translation that certainly does not fit into the seventy-nine "\n"columns of a line.\\n"\n"Second line"\n',
    );
    const single = (
      await writeAll(gettextPoFilter, po, translations({ '1': text }), { formatSettings: { exportMultiline: false } })
    ).toString();
    expect(single).toBe(`msgid "long"\nmsgstr "${text.replace('\n', '\\n')}"\n`);
    const crlf = (await writeAll(gettextPoFilter, po.replace(/\n/g, '\r\n'), translations({ '1': 'a\nb' }))).toString();
    expect(crlf).toBe('msgid "long"\r\nmsgstr ""\r\n"a\\n"\r\n"b"\r\n');
  });

  it.skipIf(!hasGettext)(`wraps strings as msgcat does${missingGettext}`, () => {
    const words = 'lorem ipsum dolor sit amet, consectetur adipiscing elit; sed do eiusmod tempor (incididunt) ut labore'.split(' ');
    const entries: string[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 300; n++) {
      const count = 1 + Math.floor(random() * 40);
      let text = Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join(random() < 0.2 ? '  ' : ' ');
      if (random() < 0.3) text = text.replace(' ', '\n');
      if (random() < 0.3) text += '\n';
      entries.push([`msgctxt "${n}"`, ...poStringLines('msgid', 'x', true), ...poStringLines('msgstr', text, true)].join('\n'));
    }
    const po = `${HEADER}\n${entries.join('\n\n')}\n`;
    const file = join(tmp, 'wrap.po');
    writeFileSync(file, po);
    const cat = spawnSync('msgcat', [file], { encoding: 'utf8' });
    expect(cat.stdout).toBe(po);
  });

  it('changes a Latin-1 file to UTF-8 when a translation needs it, and keeps Latin-1 otherwise', async () => {
    const po = Buffer.from(
      HEADER.replace('UTF-8', 'ISO-8859-1') + '\nmsgid "Street"\nmsgstr "Straße"\n\nmsgid "Price"\nmsgstr ""\n',
      'latin1',
    );
    const latin = await writeAll(gettextPoFilter, po, translations({ '14': 'Preis (ä)' }));
    expect(latin.toString('latin1')).toContain('msgstr "Preis (ä)"');
    expect(latin.toString('latin1')).toContain('charset=ISO-8859-1');
    const utf8 = await writeAll(gettextPoFilter, po, translations({ '14': 'Preis (€)' }));
    expect(utf8.toString('utf8')).toContain('charset=UTF-8');
    expect(utf8.toString('utf8')).toContain('msgstr "Straße"\n\nmsgid "Price"\nmsgstr "Preis (€)"\n');
    if (hasGettext) {
      expect(msgfmtCheck(latin)).toBe('');
      expect(msgfmtCheck(utf8)).toBe('');
    }
  });

  it('ignores translations for unknown locators and keeps the header without translations', async () => {
    const out = await writeAll(gettextPoFilter, SAMPLE, translations({ '999': 'x' }), { targetLanguage: 'de' });
    expect(out.toString()).toBe(SAMPLE);
  });

  it('fails on a malformed original', async () => {
    await expect(writeAll(gettextPoFilter, 'msgid "a\n', translations({ '1': 'x' }))).rejects.toThrow(FormatError);
  });
});

describe('plural table', () => {
  it.each([
    ['pl', 3],
    ['ru_RU', 3],
    ['cs-CZ', 3],
    ['de', 2],
    ['fr', 2],
    ['pt_br', 2],
    ['ja', 1],
    ['ar', 6],
    ['sl', 4],
  ])('%s has %i forms', (language, forms) => {
    expect(nplurals(pluralFormsFor(language))).toBe(forms);
  });

  it('knows no rule for an unknown language', () => {
    expect(pluralFormsFor('xx')).toBeNull();
    expect(nplurals('nplurals=INTEGER; plural=EXPRESSION;')).toBeNull();
  });
});

/** Catalogs of this machine, decompiled: [language, domain, path]. */
function machineCatalogs(): [string, string, string][] {
  const found: [string, string, string][] = [];
  for (const [language, domains] of [
    ['pl', ['coreutils', 'tar', 'grep', 'apt']],
    ['ru', ['coreutils', 'bash', 'wget', 'dpkg']],
    ['de', ['coreutils', 'bash', 'apt', 'git']],
  ] as const) {
    for (const domain of domains) {
      const path = `/usr/share/locale/${language}/LC_MESSAGES/${domain}.mo`;
      if (existsSync(path)) {
        found.push([language, domain, path]);
        break;
      }
    }
  }
  return found;
}

const hasMsgunfmt = spawnSync('msgunfmt', ['--version']).status === 0;
const catalogs = hasMsgunfmt ? machineCatalogs() : [];
const noCatalogs = !hasMsgunfmt
  ? ' — skipped: msgunfmt is missing (apt-get install gettext)'
  : catalogs.length === 0
    ? ' — skipped: no catalogs under /usr/share/locale'
    : '';

describe(`real catalogs (msgunfmt /usr/share/locale/…)${noCatalogs}`, () => {
  it.skipIf(catalogs.length === 0)(
    'round trips byte for byte and writes a translated file msgfmt accepts (ru and pl have 3 forms)',
    async () => {
      for (const [language, domain, path] of catalogs) {
        const po = spawnSync('msgunfmt', [path], { maxBuffer: 1 << 28 }).stdout as Buffer;
        const units = await parseAll(gettextPoFilter, po);
        expect(units.length, domain).toBeGreaterThan(10);
        expect((await writeAll(gettextPoFilter, po, new Map())).equals(po), `${language}/${domain} identity`).toBe(true);
        const target = language === 'de' ? 'pl' : language === 'pl' ? 'ru' : 'cs';
        const out = await writeAll(gettextPoFilter, po, new Map(units.map((u) => [u.locator, { text: pseudo(u) }])), {
          targetLanguage: target,
        });
        expect(out.toString()).toMatch(new RegExp(`"Language: ${target}\\\\n"`));
        expect(out.toString()).toMatch(/nplurals=3/);
        expect(msgfmtCheck(out, `${language}-${domain}.po`), `${language}/${domain} → ${target}`).toBe('');
        const again = await parseAll(gettextPoFilter, out);
        expect(again.map((u) => u.target)).toEqual(units.map((u) => pseudo(u)));
      }
    },
  );

  it.skipIf(catalogs.length === 0 || !hasGettext)('the msgfmt check is not vacuous', () => {
    const [, , path] = catalogs[0]!;
    const po = (spawnSync('msgunfmt', [path], { maxBuffer: 1 << 28 }).stdout as Buffer).toString();
    const broken = po.replace(/msgstr\[1\] "[^"\n]*"\n/, '');
    expect(msgfmtCheck(broken)).not.toBe('');
    expect(msgfmtCheck(`${HEADER}\n#, c-format\nmsgid "%s"\nmsgstr "%d"\n`)).toMatch(/format specification/);
  });
});
