import { describe, expect, it } from 'vitest';
import { spellingTokens } from './tokenize.js';

/** The words found, as `word@offset`. */
function words(text: string): string[] {
  return spellingTokens(text).map((t) => `${t.word}@${t.offset}`);
}

describe('spellingTokens', () => {
  const cases: { name: string; text: string; expected: string[] }[] = [
    { name: 'empty text', text: '', expected: [] },
    { name: 'plain words with offsets', text: 'Das Haus ist rot.', expected: ['Das@0', 'Haus@4', 'ist@9', 'rot@13'] },
    { name: 'Unicode letters', text: 'Größe ändern, señor, ĉu?', expected: ['Größe@0', 'ändern@6', 'señor@14', 'ĉu@21'] },
    { name: 'combining marks stay in the word', text: 'Cafe\u0301 ok', expected: ['Cafe\u0301@0', 'ok@6'] },
    { name: 'paired and standalone tags', text: '{1>Datei<1} öffnen{2}', expected: ['Datei@3', 'öffnen@12'] },
    { name: 'a tag glued to a word', text: 'Klicken{1}Sie', expected: ['Klicken@0', 'Sie@10'] },
    {
      name: 'printf placeholders',
      text: 'Datei %s hat %1$d Zeilen, %(name)s und %@ %.2f %.*s',
      expected: ['Datei@0', 'hat@9', 'Zeilen@18', 'und@35'],
    },
    { name: 'percent sign of a number is not a placeholder', text: '50 % sicher', expected: ['sicher@5'] },
    { name: 'brace placeholders', text: 'Hallo {0}, {name}, ${user} und {{count}} Dateien', expected: ['Hallo@0', 'und@27', 'Dateien@41'] },
    {
      name: 'markup and entities',
      text: 'Fett<br/>und&amp;kursiv <b class="x">Text</b>',
      expected: ['Fett@0', 'und@9', 'kursiv@17', 'Text@37'],
    },
    { name: 'URLs', text: 'Siehe https://example.com/hilfe?q=fehlr und www.beispiel.de/seite.', expected: ['Siehe@0', 'und@40'] },
    { name: 'a URL inside a tag pair', text: '{1>http://exmple.org<1} ok', expected: ['ok@24'] },
    {
      name: 'e-mail addresses',
      text: 'Schreiben Sie an max.mustr@beispiel.de oder Ünïcode@exämple.org',
      expected: ['Schreiben@0', 'Sie@10', 'an@14', 'oder@39'],
    },
    { name: 'numbers and words with digits', text: '1.000,50 Euro, 3D, MP3, 2x, 10.5', expected: ['Euro@9'] },
    { name: 'identifiers', text: 'setValue my_var config.json z.B. Ende', expected: ['Ende@33'] },
    { name: 'acronyms and single letters', text: 'HTML und PDF, a b', expected: ['und@5'] },
    { name: 'a capital word is checked', text: 'Übersetzung', expected: ['Übersetzung@0'] },
    { name: 'French elisions', text: "l'homme qu’il aujourd'hui", expected: ["l'homme@0", 'qu’il@8', "aujourd'hui@14"] },
    { name: 'English contractions', text: "don't it's", expected: ["don't@0", "it's@6"] },
    { name: 'quotes around a word are not part of it', text: "'Haus' ‘Maus’", expected: ['Haus@1', 'Maus@8'] },
    { name: 'hyphenated compound', text: 'E-Mail-Adresse', expected: ['E-Mail-Adresse@0'] },
    {
      name: 'truncated compounds keep their hyphen',
      text: 'Lese- und Schreibrechte, Ein-/Ausgabe',
      expected: ['Lese-@0', 'und@6', 'Schreibrechte@10', 'Ein-@25', 'Ausgabe@30'],
    },
    { name: 'a dash between words is no hyphen', text: 'Haus - Maus', expected: ['Haus@0', 'Maus@7'] },
    { name: 'unbalanced braces do not hide the rest', text: '{ Haus } {Maus', expected: ['Haus@2', 'Maus@10'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(words(c.text)).toEqual(c.expected);
    });
  }

  it('offsets point at the word in the text', () => {
    const text = '{1>Größe<1} %s l’homme https://x.y Ende';
    for (const t of spellingTokens(text)) expect(text.slice(t.offset, t.offset + t.word.length)).toBe(t.word);
  });

  it('reads a long text without a word break in one pass', () => {
    const text = `${'a.'.repeat(50_000)}@ ${'x'.repeat(100_000)} ${'{'.repeat(50_000)} ${'%'.repeat(50_000)}`;
    expect(spellingTokens(text).map((t) => t.word.length)).toEqual([100_000]);
  });
});
