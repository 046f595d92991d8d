import { describe, expect, it } from 'vitest';
import { TermMatcher } from './term-recognition.js';

interface Term {
  text: string;
  caseSensitive: boolean;
  exactMatch: boolean;
  forbidden?: boolean;
}

const term = (text: string, flags: Partial<Term> = {}): Term => ({ text, caseSensitive: false, exactMatch: false, ...flags });

/** The matches as `text@begin` (`~` marks a part of a compound), in order. */
function found(terms: Term[], language: string, text: string, ignore?: string): string[] {
  return new TermMatcher(terms, language)
    .find(text, ignore === undefined ? {} : { ignore })
    .map((m) => `${text.slice(m.begin, m.end)}@${m.begin}${m.subTerm ? '~' : ''}`);
}

describe('term recognition', () => {
  it.each<[string, Term[], string, string, string[]]>([
    // Latin: case, inflection, word boundaries.
    ['case-insensitive', [term('file system')], 'en', 'Mount the File System now', ['File System@10']],
    ['inflection (Snowball stems)', [term('translation memory')], 'en', 'Two translation memories.', ['translation memories@4']],
    ['a verb form', [term('run')], 'en', 'It is running', ['running@6']],
    ['not inside another word', [term('cat')], 'en', 'concatenate the category', []],
    ['hyphen and space both join', [term('e-mail')], 'en', 'Send an e-mail or an e mail', ['e-mail@8', 'e mail@21']],
    ['sentence punctuation breaks a match', [term('open file')], 'en', 'Please open. File it later', []],
    ['exact: no inflection', [term('API', { exactMatch: true })], 'en', 'The API and the APIs', ['API@4']],
    ['exact is still case-insensitive', [term('Log in', { exactMatch: true })], 'en', 'log in here', ['log in@0']],
    ['case-sensitive', [term('Apple', { caseSensitive: true })], 'en', 'apple pie, Apple computers, Apples', ['Apple@11', 'Apples@28']],
    ['case-sensitive and exact', [term('GNU', { caseSensitive: true, exactMatch: true })], 'en', 'gnu GNU Gnu', ['GNU@4']],
    ['no stemmer for the language: lower-case forms', [term('가다')], 'ko', '가다', ['가다@0']],
    // Overlaps: the longest.
    [
      'the longest of overlapping terms',
      [term('file'), term('file system'), term('system')],
      'en',
      'The file system is full',
      ['file system@4'],
    ],
    ['same span, two terms: both', [term('disk'), term('disks')], 'en', 'two disks', ['disks@4', 'disks@4']],
    // Tags and zero-length separators inside a term.
    ['a tag inside a term', [term('file system')], 'en', 'the file \uE000system\uE800 here', ['file \uE000system@4']],
    ['a zero-length separator', [term('Dateisystem')], 'de', 'Das Datei|system', ['Datei|system@4']],
    // German: inflection and compounds.
    ['German inflection', [term('Datei')], 'de', 'Zwei Dateien', ['Dateien@5']],
    ['German umlaut plural', [term('Haus')], 'de', 'Die Häuser', ['Häuser@4']],
    ['the last part of a compound', [term('Datei')], 'de', 'Die Systemdateien', ['dateien@10~']],
    ['the first part of a compound', [term('Datei')], 'de', 'Das Dateisystem', ['Datei@4~']],
    // The stem of "Arbeits" is "arbeit": the part found keeps its linking element.
    ['a linking element', [term('Arbeit')], 'de', 'Der Arbeitsspeicher', ['Arbeits@4~']],
    ['a whole word wins over its parts', [term('Datei'), term('Dateisystem')], 'de', 'Das Dateisystem', ['Dateisystem@4']],
    ['short terms are not looked for in compounds', [term('Rat')], 'de', 'Die Beratung und der Rat', ['Rat@21']],
    ['no compounds in English', [term('file')], 'en', 'filesystem', []],
    ['words longer than 64 letters are not split', [term('Datei')], 'de', `Datei${'x'.repeat(60)}`, []],
    ['a 64-letter word still is', [term('Datei')], 'de', `Datei${'x'.repeat(59)}`, ['Datei@0~']],
    // CJK and Thai: characters.
    ['Chinese without spaces', [term('文件系统')], 'zh', '打开文件系统设置', ['文件系统@2']],
    ['Japanese inside a sentence', [term('ファイル')], 'ja', 'このファイルを開く', ['ファイル@2']],
    ['Thai', [term('ภาษา')], 'th', 'เลือกภาษาไทย', ['ภาษา@5']],
    ['mixed scripts', [term('Git'), term('仓库')], 'zh', '克隆Git仓库', ['Git@2', '仓库@5']],
    ['CJK: the longest', [term('文件'), term('文件系统')], 'zh', '文件系统', ['文件系统@0']],
  ])('%s', (_name, terms, language, text, expected) => {
    expect(found(terms, language, text, text.includes('|') ? '|' : undefined)).toEqual(expected);
  });

  it('returns each term with its flags, forbidden ones too, and every occurrence', () => {
    const forbidden = term('click here', { forbidden: true });
    const matches = new TermMatcher([forbidden, term('link')], 'en').find('Click here for the link, or click here again.');
    expect(matches.map((m) => [m.term.text, m.begin, m.term.forbidden === true])).toEqual([
      ['click here', 0, true],
      ['link', 19, false],
      ['click here', 28, true],
    ]);
  });

  it('reads a very long word and a text full of separators in one pass', () => {
    const matcher = new TermMatcher([term('Datei'), term('Datei system')], 'de');
    expect(matcher.find(`Datei ${'y'.repeat(200_000)} Datei`).map((m) => m.begin)).toEqual([0, 200_007]);
    const separated = Array.from({ length: 50_000 }, () => 'Datei').join('|');
    expect(matcher.find(separated, { ignore: '|' })).toEqual([]);
    expect(matcher.find(separated.replaceAll('|', ' ')).length).toBe(50_000);
  });

  it('is linear: a long text with many terms', () => {
    const terms = Array.from({ length: 2000 }, (_, i) => term(`word${i} thing`));
    const text = Array.from({ length: 5000 }, (_, i) => `word${i % 3000} thing`).join(' ');
    const began = performance.now();
    const matches = new TermMatcher(terms, 'en').find(text);
    expect(matches.length).toBe(5000 - Math.floor(5000 / 3000) * 1000 - Math.max(0, (5000 % 3000) - 2000));
    expect(performance.now() - began).toBeLessThan(5000);
  });

  it('finds the same with terms added after construction as with terms given to it', () => {
    const terms = [term('file system'), term('Datei'), term('open')];
    const text = 'Open the file systems and the Dateien';
    const later = new TermMatcher<Term>([], 'en');
    later.addTerms(terms.slice(0, 1));
    later.addTerms(terms.slice(1));
    expect(later.find(text)).toEqual(new TermMatcher(terms, 'en').find(text));
  });
});
