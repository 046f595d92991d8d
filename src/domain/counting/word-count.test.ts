import { describe, expect, it } from 'vitest';
import { baseLanguage, countCharacters, countText, LOGOGRAPHIC_FACTORS, sumCounts, sumWords } from './word-count.js';

// [language, text, words, characters, charactersNoSpaces]
const cases: [string, string, number, number, number][] = [
  // Latin.
  ['en', 'Hello world, this is a test.', 6, 28, 23],
  ['en', '', 0, 0, 0],
  ['en', '   ', 0, 3, 0],
  ['en', '... !!! ?', 0, 9, 7],
  ['en', "Don't stop believing.", 3, 21, 19],
  ['fr', "L'homme qu'on aime.", 3, 19, 17],
  // Hyphenated compounds: one word.
  ['en', 'A state-of-the-art e-mail client', 4, 32, 29],
  ['en', 'A well\u2011known word', 3, 17, 15],
  ['en', 'A dash - between words', 4, 22, 18],
  ['en', 'A dash between -words', 4, 21, 18],
  ['de', 'Das Max-Planck-Institut und die Donaudampfschifffahrtsgesellschaft', 5, 66, 62],
  ['de', 'Straßenbahn-Haltestelle, Öl- und Gaspreise', 4, 42, 39],
  // Czech and other accented text.
  ['cs', 'Příliš žluťoučký kůň úpěl ďábelské ódy.', 6, 39, 34],
  ['cs', 'Např. v Praze, tj. v ČR.', 6, 24, 19],
  // Decomposed accents are one character each.
  ['cs', 'Z\u030Clut\u030Couc\u030Cky\u0301', 1, 9, 9],
  // Numbers are words.
  ['en', 'It costs 3.14 or 1,000 or 42%.', 7, 30, 24],
  // "10:30" is two numbers by UAX #29.
  ['en', 'Call 555-1234 on 2026-11-21 at 10:30.', 7, 37, 32],
  ['en', 'Version 2 of 10', 4, 15, 12],
  // URLs and e-mail addresses: one word.
  ['en', 'Visit https://example.com/a-b/c.html?x=1&y=two.', 2, 47, 46],
  ['en', 'Or www.example.co.uk, or mail j.doe-smith@example.co.uk!', 5, 56, 52],
  ['en', 'See (https://example.com/docs).', 2, 31, 30],
  // A URL or e-mail address written against CJK, Hangul or Thai text without a space ends at the
  // first logographic character (or CJK punctuation): the text around it counts as with spaces.
  ['ja', '詳細はhttp://example.com/を参照してください', 5, 31, 31],
  ['ja', '詳細は http://example.com/ を参照してください', 5, 33, 31],
  ['zh_CN', '請访问https://www.gnu.org/software/获取帮助', 3.5, 36, 36],
  ['ja', '連絡先user@example.comまでメールしてください', 5.67, 30, 30],
  ['ja', '連絡先 user@example.com までメールしてください', 5.67, 32, 30],
  ['zh_CN', '请发送邮件至bug@gnu.org。', 3.14, 18, 18],
  ['zh_CN', '详见https://example.com/docs。', 1.71, 27, 27],
  ['ja', 'メールはuser@example.jpへ', 2.67, 20, 20],
  ['ja', 'サーバーadmin@example.jpへ', 2.67, 21, 21],
  ['th', 'กรุณาเข้าชมhttps://example.com/thเพื่อดูรายละเอียด', 4.67, 44, 44],
  ['th', 'กรุณาเข้าชม https://example.com/th เพื่อดูรายละเอียด', 4.67, 46, 44],
  ['ko', '자세한 내용은https://example.kr/을 참조하세요', 4.64, 33, 31],
  ['ja', 'URL：http://example.com/（参照）', 2.67, 27, 27],
  ['zh', 'www.example.com的网站', 2.07, 18, 18],
  // Chinese: characters / 2.8.
  ['zh', '我是学生。', 1.43, 5, 5],
  ['zh_TW', '我是學生，你呢？', 2.14, 8, 8],
  // Japanese: all logographic characters / 3.0, kanji included.
  ['ja', '東京都に住んでいます。', 3.33, 11, 11],
  ['ja', 'コンピューター', 2.33, 7, 7],
  ['ja', 'Tシャツを買った', 3.33, 8, 8],
  // Korean: / 3.3.
  ['ko', '안녕하세요 세계', 2.12, 8, 7],
  // Thai: grapheme clusters / 6.0 (a vowel or tone mark stays with its consonant).
  ['th', 'สวัสดีครับ ผมชื่อ', 1.83, 12, 11],
  // Mixed: Latin words plus logographic characters at their script's factor.
  ['en', 'Hello 世界 and こんにちは', 4.38, 18, 15],
  ['zh', '我用Windows 10和Word。', 4.07, 18, 17],
  // Inline tag placeholders count nothing and do not split words.
  ['en', 'Click \uE000Save\uE800 now.\uF000', 3, 15, 13],
  ['en', 'Hel\uE000lo\uE800 world', 2, 11, 10],
  ['en', '\uE000\uE800\uF000', 0, 0, 0],
  ['zh', '\uE000我是\uE800学生', 1.43, 4, 4],
];

describe('countText', () => {
  for (const [language, text, words, characters, charactersNoSpaces] of cases) {
    it(`${language}: ${JSON.stringify(text)} = ${words} words, ${characters}/${charactersNoSpaces} characters`, () => {
      expect(countText(text, language)).toEqual({ words, characters, charactersNoSpaces });
    });
  }

  it('takes another factor table (Phrase-like: a CJK character is a word)', () => {
    expect(countText('我是学生。', 'zh', { factors: { zh: 1, ja: 1, ko: 1, th: 6 } }).words).toBe(4);
    expect(countText('東京', 'ja', { factors: { ...LOGOGRAPHIC_FACTORS, ja: 2 } }).words).toBe(1);
  });

  it('counts a language the segmenter does not know like the root locale', () => {
    expect(countText('one two three', 'xx_invalid_code_!!')).toEqual(countText('one two three', 'en'));
  });

  it('stays linear on one very long token', () => {
    const began = performance.now();
    expect(countText(`${'a'.repeat(200_000)} b@c.de`, 'en').words).toBe(2);
    expect(performance.now() - began).toBeLessThan(1000);
  });

  it('normalizes language codes', () => {
    expect(baseLanguage('zh_TW')).toBe('zh');
    expect(baseLanguage(' JA-jp ')).toBe('ja');
    expect(baseLanguage('cs')).toBe('cs');
  });
});

describe('sumWords', () => {
  const sums: [number[], number][] = [
    [[], 0],
    [[1, 2, 3], 6],
    [[1.43, 1.43], 3], // 2.86
    [[0.25, 0.25], 1], // 0.5 rounds half up
    [[0.24, 0.25], 0],
    [[0.1, 0.2, 0.3, 0.4], 1], // no floating point drift
    [Array.from({ length: 1000 }, () => 0.01), 10],
    [[3.33, 3.33, 3.34], 10],
  ];
  for (const [words, total] of sums) {
    it(`${JSON.stringify(words.length > 8 ? `${words.length} values` : words)} -> ${total}`, () => {
      expect(sumWords(words)).toBe(total);
      expect(Number.isInteger(sumWords(words))).toBe(true);
    });
  }

  it('adds counted segments of a job', () => {
    const segments = ['我是学生。', '你好。', 'Hello world.'].map((text) => countText(text, 'zh'));
    expect(sumCounts(segments)).toEqual({ words: 4, characters: 20, charactersNoSpaces: 19 });
  });
});

describe('countCharacters', () => {
  /** Grapheme clusters by Intl.Segmenter, the definition the fast path must agree with. */
  function intlCounts(text: string): { characters: number; charactersNoSpaces: number } {
    const segments = [...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);
    return { characters: segments.length, charactersNoSpaces: segments.filter((s) => !/^\s+$/u.test(s)).length };
  }
  const samples = [
    ...cases.map(([, text]) => text.replace(/[\uE000-\uF8FF]/g, '')),
    'Plain ASCII text, with digits 123 and punctuation!?',
    'Ünïcödé Latin, Ελληνικά, Кириллица, עברית, العربية',
    'Decomposed: e\u0301 a\u0308 n\u0303',
    'Windows line\r\nend and \r alone',
    'Emoji 😀 👍🏽 👨‍👩‍👧 🇨🇿 ❤️ 1️⃣',
    'Hangul jamo \u1100\u1161\u11A8 and 한국어',
    'Devanagari क्षत्रिय हिन्दी',
    'Thai ทำ น้ำ กำลัง',
    'Halfwidth ｶﾞｷﾞ and fullwidth ＡＢＣ',
    'Math 𝐇𝐞𝐥𝐥𝐨 and CJK ext 𠀀𠀁',
    'Soft\u00ADhyphen and zero\u200Bwidth space and nbsp\u00A0here',
    'Arabic number sign \u0600\u0661\u0662',
  ];
  for (const text of samples) {
    it(`agrees with Intl.Segmenter on ${JSON.stringify(text)}`, () => {
      expect(countCharacters(text)).toEqual(intlCounts(text));
    });
  }
});

/** A seeded pseudo-random generator (mulberry32), so that a failure can be reproduced. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomText(next: () => number, pool: readonly string[], length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += pool[Math.floor(next() * pool.length)]!;
  return text;
}

/** Words as the counter defines them, straight from Intl.Segmenter over the whole text (no windows, no fast path). */
function intlWords(text: string, language: string): number {
  let words = 0;
  let lastWordEnd = -1;
  let hyphenEnd = -1;
  for (const { segment, index, isWordLike } of new Intl.Segmenter(language, { granularity: 'word' }).segment(text)) {
    if (isWordLike) {
      if (index !== hyphenEnd) words += 1;
      lastWordEnd = index + segment.length;
      hyphenEnd = -1;
    } else if (['-', '\u2010', '\u2011'].includes(segment) && index === lastWordEnd) hyphenEnd = index + segment.length;
    else hyphenEnd = -1;
  }
  return words;
}

describe('counting stays exact and linear on hostile text', () => {
  // Characters of the word fast path, and their neighbours that must take the slow one.
  const pool = [
    ...'aZé ß Ωж 09 .,;:\'’‘ -‐‑ _ \t\n!?()"“”«»—–…·\u00AD\u00A0ª²½×中あ한ก'.split(''),
    'word',
    'Ünïcödé',
    'Привет',
    '3.14',
    '1,000',
    "don't",
    'e-mail',
    '  ',
    'ໄປ',
    '👍🏽',
    '🇩🇪',
    'e\u0301',
  ];

  it('the fast paths and the windows agree with Intl.Segmenter on random text (words and characters)', () => {
    const next = random(13);
    for (const language of ['en', 'de', 'fr', 'cs', 'fi', 'sv', 'ru', 'und']) {
      for (let round = 0; round < 60; round++) {
        // Long enough for several windows; logographic characters are counted by their own rule, so leave them out here.
        const text = randomText(next, pool, 20 + Math.floor(next() * 700)).replace(/[中あ한ก]/g, ' ');
        const counted = countText(text, language);
        expect({ language, text, words: counted.words }).toEqual({ language, text, words: intlWords(text, language) });
        expect(countCharacters(text)).toEqual(
          (() => {
            const segments = [...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);
            return { characters: segments.length, charactersNoSpaces: segments.filter((s) => !/^\s+$/u.test(s)).length };
          })(),
        );
      }
    }
  });

  it('Thai and Lao characters agree with Intl.Segmenter (the Thai/Lao fast path)', () => {
    const next = random(7);
    const thaiLao = [...'กขคทนมยรลวสหอะัาำิีึืุูเแโใไ่้๊๋็์ ໄປມາກະັາຳິີ່້ \n\t'.split(''), 'a', '.'];
    for (let round = 0; round < 200; round++) {
      const text = randomText(next, thaiLao, 1 + Math.floor(next() * 60));
      const segments = [...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);
      expect({ text, ...countCharacters(text) }).toEqual({
        text,
        characters: segments.length,
        charactersNoSpaces: segments.filter((s) => !/^\s+$/u.test(s)).length,
      });
    }
  });

  // [name, text, words, characters]: every one of these took superlinear time (minutes, or a stack overflow) before.
  const hostile: [string, () => string, string, number, number][] = [
    ['200,000 words', () => 'word '.repeat(200_000), 'en', 200_000, 1_000_000],
    ['one 1,000,000-letter word', () => 'a'.repeat(1_000_000), 'en', 1, 1_000_000],
    ['1,000,000 dots', () => '.'.repeat(1_000_000), 'en', 0, 1_000_000],
    ['a URL of 60,000 dots', () => `http://${'.'.repeat(60_000)}x`, 'en', 1, 60_008],
    ['a text of 500,000 dots after www.', () => `www.${'.'.repeat(500_000)}`, 'en', 1, 500_004],
    ['500,000 Thai letters without a space', () => 'ก'.repeat(500_000), 'th', 83_333.33, 500_000],
    ['500,000 Han characters in English', () => '中'.repeat(500_000), 'en', 178_571.43, 500_000],
    ['an e-mail-like run of 500,000 Han characters', () => `${'中'.repeat(500_000)}@b`, 'en', 178_572.43, 500_002],
    ['a URL followed by 500,000 Han characters', () => `http://${'中'.repeat(500_000)}`, 'en', 178_572.43, 500_007],
    ['500,000 alternating Latin and Han letters before an @', () => `${'a中'.repeat(250_000)}@b.cd`, 'en', 339_286.71, 500_005],
    ['200,000 Lao syllables', () => 'ໄປ'.repeat(100_000), 'lo', -1, 200_000],
    ['100,000 emoji with skin tones', () => '👍🏽'.repeat(100_000), 'en', 0, 100_000],
    ['100,000 flags', () => '🇩🇪'.repeat(100_000), 'en', 0, 100_000],
    ['300,000 combining accents', () => `e${'\u0301'.repeat(300_000)}`, 'en', 1, 1],
    ['one word and 200,000 tag placeholders', () => `Hello${'\uF000'.repeat(200_000)}`, 'en', 1, 5],
    ['200,000 hyphens', () => 'a-'.repeat(200_000), 'en', 1, 400_000],
    ['Cyrillic prose', () => 'Привет, мир! '.repeat(50_000), 'ru', 100_000, 650_000],
  ];
  it.each(hostile)('%s', (_name, make, language, words, characters) => {
    const text = make();
    const counted = countText(text, language);
    if (words >= 0) expect(counted.words).toBe(words);
    else expect(counted.words).toBeGreaterThan(0);
    expect(counted.characters).toBe(characters);
  });

  it('counts 10 MB of mixed prose (a loose sanity bound; figures: bench/hostile-import.bench.ts)', () => {
    const text = 'Dr. Smith arrived at 5 p.m. — visit https://example.com, or write to j.doe@example.com! Übermaß. '.repeat(100_000);
    const began = performance.now();
    expect(countText(text, 'en').words).toBe(1_300_000);
    expect(performance.now() - began).toBeLessThan(20_000);
  });
});
