import { describe, expect, it } from 'vitest';
import { QaText } from '../text.js';
import type { QaWarning } from '../types.js';
import { checkBrackets, checkCapitalization, checkPlaceholders, checkQuotes, checkUrlsAndEmails } from './custom.js';

type Check = (s: QaText, t: QaText, out: QaWarning[], ignorable: boolean) => void;
function run(check: Check, source: string, target: string, targetLang = 'de', sourceLang = 'en'): QaWarning[] {
  const out: QaWarning[] = [];
  check(new QaText(source, sourceLang), new QaText(target, targetLang), out, true);
  for (const w of out) {
    expect(w.type).toBe('CustomQA');
    expect(typeof w.details.message).toBe('string');
  }
  return out;
}

describe('unbalancedBrackets', () => {
  it.each([
    ['a (b) c', 'a (b) c', []],
    ['a (b) c', 'a (b c', ['()']],
    ['a (b) c', 'a b) c', ['()']],
    ['a [b]', 'a [b', ['[]']],
    ['1) first', '1) erstens', []],
    ['a {1>b<1} {2}', 'a {1>b<1} {2}', []],
    ['a {name}', 'a {name', ['{}']],
    ['a (b)', 'a （b）', []],
    ['a', 'a (b c) ]', ['[]']],
    ['%s (%d)', '%s (%d', ['()']],
  ])('%j -> %j', (source, target, keys) => {
    expect(run(checkBrackets, source, target).map((w) => w.details.subType + ':' + w.key)).toEqual(
      keys.map((k) => `unbalancedBrackets:unbalancedBrackets:${k}`),
    );
  });

  it('points at the unmatched bracket', () => {
    expect(run(checkBrackets, '(a)', 'a) b')[0]!.details.tgtPosition).toEqual({ beginIndex: 1, endIndex: 2 });
    expect(run(checkBrackets, '(a)', '((a)')[0]!.details.tgtPosition).toEqual({ beginIndex: 0, endIndex: 1 });
  });
});

describe('unbalancedQuotes', () => {
  it.each([
    ['Say "yes"', 'Sag „ja“', 'de', 0],
    ['Say "yes"', 'Sag „ja', 'de', 1],
    ['Say "yes"', 'Sag »ja«', 'de', 0],
    ['Say "yes"', 'Sag "ja', 'de', 1],
    ['Say "yes"', 'Dis « oui »', 'fr', 0],
    ['Say "yes"', 'Dis « oui', 'fr', 1],
    ['Say "yes"', 'Di «sí»', 'es', 0],
    ['Say "yes"', 'Sag «ja»', 'de-CH', 0],
    ['Say "yes"', '「はい」と言う', 'ja', 0],
    ['Say "yes"', '「はい と言う', 'ja', 1],
    ['Say "yes"', 'Powiedz „tak”', 'pl', 0],
    ['Say "yes"', 'Säg ”ja”', 'sv', 0],
    ['Say "yes', 'Sag „ja', 'de', 0],
    ["don't", 'nicht', 'de', 0],
    ["l'homme", "l'homme", 'fr', 0],
    ['‘Adan', '‘Adan', 'de', 0],
    ['‘Adan', 'Adan‘', 'de', 0],
    ['Adan', '‘Adan', 'de', 1],
  ])('%j -> %j (%s)', (source, target, lang, count) => {
    expect(run(checkQuotes, source, target, lang)).toHaveLength(count);
  });
});

describe('capitalization', () => {
  it.each([
    ['Open the file', 'Öffnen Sie die Datei', 'de', []],
    ['Open the file', 'öffnen Sie die Datei', 'de', ['lower']],
    ['open the file', 'Datei öffnen', 'de', []],
    ['open the file', 'Ouvrir le fichier', 'fr', ['upper']],
    ['Open the file', 'ouvrir le fichier', 'fr', ['lower']],
    ['{1>Open<1} it', '{1>ouvrir<1}', 'fr', ['lower']],
    ['Open %s', '%s öffnen', 'de', []],
    ['"%s" not found', '»%s« nicht gefunden', 'de', []],
    ['Open the file', 'ファイルを開く', 'ja', []],
    ['3 files', '3 Dateien', 'de', []],
    ['Ärger', 'ärger', 'de', ['lower']],
  ])('%j -> %j (%s)', (source, target, lang, keys) => {
    expect(run(checkCapitalization, source, target, lang).map((w) => w.key)).toEqual(keys.map((k) => `capitalization:${k}`));
  });
});

describe('urlsAndEmails', () => {
  it.each([
    ['See https://example.com/docs.', 'Siehe https://example.com/docs.', []],
    ['See https://example.com/docs.', 'Siehe https://example.com/de/docs.', ['https://example.com/docs']],
    ['Mail help@example.com today', 'Schreiben Sie an help@example.com', []],
    ['Mail help@example.com today', 'Schreiben Sie an hilfe@example.com', ['help@example.com']],
    ['Visit www.example.org', 'Besuchen Sie www.example.de', ['www.example.org']],
    ['No address here', 'Keine Adresse', []],
  ])('%j -> %j', (source, target, keys) => {
    const out = run(checkUrlsAndEmails, source, target);
    expect(out.map((w) => w.key)).toEqual(keys.map((k) => `urlsAndEmails:${k}`));
    if (keys[0])
      expect(out[0]!.details.srcPosition).toEqual({
        beginIndex: source.indexOf(keys[0]),
        endIndex: source.indexOf(keys[0]) + keys[0].length,
      });
  });
});

describe('placeholders', () => {
  it.each([
    ['%s of %d', '%s von %d', []],
    ['%s of %s', '%2$s von %1$s', []],
    ['%s of %s', '%1$s von %2$s', []],
    ['%s of %d', '%d von %s', ['-%1$s', '-%2$d', '+%1$d', '+%2$s']],
    ['Hello %(name)s', 'Hallo %(name)s', []],
    ['Hello %(name)s', 'Hallo %(nom)s', ['-%(name)s', '+%(nom)s']],
    ['Hi {name}, {{count}} new', 'Hallo {name}, {{count}} neu', []],
    ['Hi {name}', 'Hallo {Name}', ['-{name}', '+{Name}']],
    ['Hi ${user}', 'Hallo', ['-${user}']],
    ['{0,number} files', '{0,number} Dateien', []],
    ['Show %s', 'Anzeigen', ['-%1$s']],
    ['100% sure', '100 % sicher', []],
    ['{1} tag', 'Tag', []],
    ['%-5.2f%%', '%-5.2f %%', []],
  ])('%j -> %j', (source, target, keys) => {
    expect(run(checkPlaceholders, source, target).map((w) => w.key)).toEqual(keys.map((k) => `placeholders:${k}`));
  });
});
