import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dictionaryCandidates, dictionaryFor, editDistanceAtMostTwo, loadSpeller, suggest } from './index.js';

const NEEDED = ['en_US', 'de_DE', 'fr_FR', 'es_ES'];
const missing = NEEDED.filter((name) => !existsSync(`/usr/share/hunspell/${name}.dic`));
if (missing.length > 0)
  console.warn(
    `Skipping the Hunspell tests: /usr/share/hunspell lacks ${missing.join(', ')} (apt-get install hunspell-en-us hunspell-de-de hunspell-fr hunspell-es)`,
  );

describe('dictionaryCandidates', () => {
  const cases: [string, string[]][] = [
    ['en', ['en_US', 'en']],
    ['en_gb', ['en_GB', 'en_US', 'en']],
    ['de', ['de_DE', 'de']],
    ['de-AT', ['de_AT', 'de_DE', 'de']],
    ['pt_br', ['pt_BR', 'pt_PT', 'pt']],
    ['es_419', ['es_419', 'es_ES', 'es']],
    ['sr_latn_rs', ['sr_Latn_RS', 'sr_Latn', 'sr_RS', 'sr']],
    ['nb', ['nb_NO', 'nb', 'no_NO', 'no']],
    ['', []],
    ['../etc', []],
  ];
  for (const [code, names] of cases) it(code || '(empty)', () => expect(dictionaryCandidates(code)).toEqual(names));
});

describe('dictionaryFor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of ['de_CH', 'de_LI', 'fr', 'it_IT']) {
    writeFileSync(join(dir, `${name}.aff`), 'SET UTF-8\n');
    writeFileSync(join(dir, `${name}.dic`), '1\nx\n');
  }
  writeFileSync(join(dir, 'nl_NL.dic'), '1\nx\n'); // no .aff: not a dictionary
  symlinkSync(join(dir, 'fr.aff'), join(dir, 'fr_BE.aff'));
  symlinkSync(join(dir, 'fr.dic'), join(dir, 'fr_BE.dic'));
  const cases: [string, string | null][] = [
    ['it', 'it_IT'],
    ['de', 'de_CH'], // no de_DE: the first region of the language
    ['de_li', 'de_LI'],
    ['fr_ca', 'fr'],
    ['fr_be', 'fr_BE'],
    ['nl', null],
    ['xx', null],
  ];
  for (const [code, name] of cases) it(`${code} → ${name}`, () => expect(dictionaryFor(code, [dir])?.name ?? null).toBe(name));
  it('links share one key', () => expect(dictionaryFor('fr_be', [dir])!.key).toBe(dictionaryFor('fr', [dir])!.key));
});

describe('editDistanceAtMostTwo', () => {
  const cases: [string, string, number][] = [
    ['haus', 'haus', 0],
    ['haus', 'hause', 1],
    ['haus', 'huas', 1],
    ['haus', 'maus', 1],
    ['haus', 'hus', 1],
    ['haus', 'hxux', 2],
    ['haus', 'bergwerk', 3],
    ['abcdef', 'badcfe', 3],
  ];
  for (const [a, b, d] of cases) it(`${a} ${b}`, () => expect(editDistanceAtMostTwo(a, b)).toBe(d));
});

describe.skipIf(missing.length > 0)('loadSpeller and suggest on the Debian dictionaries', () => {
  it('finds a German misspelling with its offset and accepts compounds', async () => {
    const speller = (await loadSpeller('de', []))!;
    expect(speller.misspelled('Die Übersetzungsspeicherdatei hat einen Feler.')).toEqual([{ word: 'Feler', offset: 40 }]);
    expect(speller.misspelled('{1>Dateiverwaltungsprogramm<1} unter https://exmple.org, 3 Dateien, z.B. Lese- und Schreibrechte')).toEqual(
      [],
    );
  });

  it('accepts French elisions and English contractions', async () => {
    expect((await loadSpeller('fr_ca', []))!.misspelled("L'homme qu’il voit aujourd'hui")).toEqual([]);
    expect((await loadSpeller('en_gb', []))!.misspelled("Don't recieve it")).toEqual([{ word: 'recieve', offset: 6 }]);
  });

  it('never flags extra words, their words or hyphenated words made of them', async () => {
    const speller = (await loadSpeller('de', ['Quuxwerk', 'Blorf Zentrale']))!;
    expect(speller.misspelled('quuxwerk Blorf Zentrale Blorf-Zentrale Quuxwerk-Datei Zork')).toEqual([{ word: 'Zork', offset: 54 }]);
  });

  it('returns null for a language without a dictionary', async () => {
    expect(await loadSpeller('xx', [])).toBeNull();
    expect(await suggest('xx', 'abc', [])).toBeNull();
  });

  it('ranks the right word first and adds near extra words', async () => {
    expect((await suggest('de', 'Feler', []))![0]).toBe('Fehler');
    expect((await suggest('en', 'recieve', []))![0]).toBe('receive');
    expect(await suggest('de', 'Haus', [])).toEqual([]);
    expect((await suggest('de', 'Quuxwrk', ['Quuxwerk']))![0]).toBe('Quuxwerk');
    const strasse = (await suggest('de', 'Verzeichniss', []))!;
    expect(strasse[0]).toBe('Verzeichnis');
    expect(strasse.some((s) => s.endsWith('-'))).toBe(false);
  });

  it('serves concurrent suggestions', async () => {
    const all = await Promise.all(['Feler', 'Datai', 'Benutzr'].map((w) => suggest('de', w, [])));
    expect(all.map((s) => s![0])).toEqual(['Fehler', 'Datei', 'Benutzer']);
  });
});
