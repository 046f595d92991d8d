import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE_SET, rulesForLanguage } from './rules.js';
import type { RuleSet } from './rules.js';
import { compileRules, joinSegments, segmentGaps, segmentText, SegmentationRuleError } from './segmenter.js';
import { javaRuleToJs } from './java-regex.js';

/** Segments must be exact slices, gaps whitespace only, and gaps + segments the input. */
function expectLossless(text: string, language: string, rules?: RuleSet): string[] {
  const segments = segmentText(text, language, rules);
  for (const segment of segments) {
    expect(text.slice(segment.start, segment.end)).toBe(segment.text);
    expect(segment.text).toBe(segment.text.trim());
    expect(segment.text.length).toBeGreaterThan(0);
  }
  const gaps = segmentGaps(text, segments);
  for (const gap of gaps) expect(gap).toMatch(/^\s*$/);
  expect(
    joinSegments(
      gaps,
      segments.map((segment) => segment.text),
    ),
  ).toBe(text);
  return segments.map((segment) => segment.text);
}

// [language, input, expected segments]
const cases: [string, string, string[]][] = [
  // Plain sentence ends.
  ['en', 'One sentence. Another one! A third? Yes.', ['One sentence.', 'Another one!', 'A third?', 'Yes.']],
  ['en', 'No final period', ['No final period']],
  ['en', 'He said "Stop." Then he left.', ['He said "Stop."', 'Then he left.']],
  ['en', 'It ended. "Really?" she asked.', ['It ended.', '"Really?" she asked.']],
  ['en', 'It ended (finally). (Then more.) Done.', ['It ended (finally).', '(Then more.)', 'Done.']],
  ['en', 'What? no way.', ['What? no way.']],
  ['en', 'Wait!!! Really?! Yes.', ['Wait!!!', 'Really?!', 'Yes.']],
  ['es', '¿Qué pasa? ¡Nada! Bien.', ['¿Qué pasa?', '¡Nada!', 'Bien.']],
  ['en', 'Line one.\nLine two.', ['Line one.', 'Line two.']],
  ['en', 'a soft\nwrapped line stays', ['a soft\nwrapped line stays']],
  ['en', 'First paragraph\n\nsecond paragraph', ['First paragraph', 'second paragraph']],
  ['en', '  Leading and trailing.  Spaces.  ', ['Leading and trailing.', 'Spaces.']],
  ['en', '', []],
  ['en', ' \n\t ', []],
  // English abbreviations.
  ['en', 'Dr. Smith met Mr. Jones and Mrs. Brown and Ms. White.', ['Dr. Smith met Mr. Jones and Mrs. Brown and Ms. White.']],
  ['en', 'Prof. Green spoke. Then Dr. Who.', ['Prof. Green spoke.', 'Then Dr. Who.']],
  ['en', 'Bring fruit, e.g. Apples, i.e. Red ones.', ['Bring fruit, e.g. Apples, i.e. Red ones.']],
  ['en', 'Bring fruit, e.g. apples etc. and more.', ['Bring fruit, e.g. apples etc. and more.']],
  ['en', 'Bring fruit, bread etc. Then leave.', ['Bring fruit, bread etc.', 'Then leave.']],
  ['en', 'Lakers vs. Celtics tonight.', ['Lakers vs. Celtics tonight.']],
  ['en', 'See No. 5 and no. 7 first.', ['See No. 5 and no. 7 first.']],
  ['en', 'No. I will not.', ['No.', 'I will not.']],
  ['en', 'We meet at 5 p.m. Tomorrow we rest.', ['We meet at 5 p.m. Tomorrow we rest.']],
  ['en', 'We met at 9 a.m. and left.', ['We met at 9 a.m. and left.']],
  ['en', 'Apple Inc. Designs phones. Acme Ltd. Makes anvils.', ['Apple Inc. Designs phones.', 'Acme Ltd. Makes anvils.']],
  ['en', 'The U.S. Army is large. It is.', ['The U.S. Army is large.', 'It is.']],
  ['en', 'J. R. R. Tolkien wrote it. C. S. Lewis too.', ['J. R. R. Tolkien wrote it.', 'C. S. Lewis too.']],
  // Numbers, lists, URLs, e-mails, ellipses.
  ['en', 'Pi is 3.14 roughly. It is 2.5 Million.', ['Pi is 3.14 roughly.', 'It is 2.5 Million.']],
  ['en', '1. Introduction', ['1. Introduction']],
  ['en', '2.3. Scope of work', ['2.3. Scope of work']],
  ['en', 'Contents:\n1. Introduction\n2. Method', ['Contents:\n1. Introduction\n2. Method']],
  ['en', 'He was born in 1990. Then he grew up.', ['He was born in 1990.', 'Then he grew up.']],
  ['en', 'See https://example.com/a.b?x=1&y=2. Then go.', ['See https://example.com/a.b?x=1&y=2.', 'Then go.']],
  ['en', 'Visit www.example.co.uk/Index.html today.', ['Visit www.example.co.uk/Index.html today.']],
  ['en', 'Mail j.doe@example.com. We answer.', ['Mail j.doe@example.com.', 'We answer.']],
  ['en', 'I was thinking... maybe not. Or… perhaps.', ['I was thinking... maybe not.', 'Or… perhaps.']],
  ['en', 'Wait... What happened?', ['Wait...', 'What happened?']],
  ['en', 'He wrote (...) The rest is lost.', ['He wrote (...) The rest is lost.']],
  // German.
  ['de', 'Das gilt z. B. Für alle. Auch d. h. Für dich.', ['Das gilt z. B. Für alle.', 'Auch d. h. Für dich.']],
  ['de', 'Das gilt z.B. Für alle.', ['Das gilt z.B. Für alle.']],
  ['de', 'Er kam am 1. Januar. Sie kam am 3. Oktober.', ['Er kam am 1. Januar.', 'Sie kam am 3. Oktober.']],
  ['de', 'Im 19. Jahrhundert war es so. Heute nicht.', ['Im 19. Jahrhundert war es so.', 'Heute nicht.']],
  ['de', 'Siehe Nr. 5 bzw. Abschnitt 2. Dr. Müller sagt ca. Drei.', ['Siehe Nr. 5 bzw. Abschnitt 2.', 'Dr. Müller sagt ca. Drei.']],
  ['de', 'Äpfel, Birnen usw. sind Obst. Usw. Ende.', ['Äpfel, Birnen usw. sind Obst.', 'Usw.', 'Ende.']],
  ['de', 'Es ist kalt. Öfter als sonst.', ['Es ist kalt.', 'Öfter als sonst.']],
  // French.
  ['fr', 'M. Dupont et Mme Durand arrivent. Mlle. Roux aussi.', ['M. Dupont et Mme Durand arrivent.', 'Mlle. Roux aussi.']],
  ['fr', 'Des fruits, p. ex. Pommes, etc. Voilà.', ['Des fruits, p. ex. Pommes, etc.', 'Voilà.']],
  ['fr', 'Quoi ? Oui ! « Bien. » Fin.', ['Quoi ?', 'Oui !', '« Bien. »', 'Fin.']],
  // Czech.
  ['cs', 'Např. Praha je velká. Tzv. Město roste, tj. Roste.', ['Např. Praha je velká.', 'Tzv. Město roste, tj. Roste.']],
  [
    'cs',
    'Koupil jablka, hrušky atd. a odešel. Hotovo atd. Další věta.',
    ['Koupil jablka, hrušky atd. a odešel.', 'Hotovo atd.', 'Další věta.'],
  ],
  ['cs', 'Ing. Novák a MUDr. Svoboda přišli. Šli domů.', ['Ing. Novák a MUDr. Svoboda přišli.', 'Šli domů.']],
  // A language with no rules of its own gets the defaults (and universal titles).
  ['nl', 'Dr. Jansen komt. Hij is laat.', ['Dr. Jansen komt.', 'Hij is laat.']],
  ['ru', 'Привет. Как дела? Хорошо.', ['Привет.', 'Как дела?', 'Хорошо.']],
  ['ar', 'مرحبا. كيف حالك؟ بخير.', ['مرحبا.', 'كيف حالك؟', 'بخير.']],
  ['hi', 'नमस्ते। आप कैसे हैं?', ['नमस्ते।', 'आप कैसे हैं?']],
  // Chinese and Japanese: no space needed; closing quotes stay.
  ['zh', '你好。我是学生！你呢？', ['你好。', '我是学生！', '你呢？']],
  ['zh_cn', '他说：“你好。”然后走了。', ['他说：“你好。”', '然后走了。']],
  ['ja', '今日は晴れです。明日は雨でしょう。', ['今日は晴れです。', '明日は雨でしょう。']],
  ['ja', '「はい。」と言った。', ['「はい。」', 'と言った。']],
  ['ja', '本当？！ はい。', ['本当？！', 'はい。']],
  ['ja', 'バージョン3.14です。Windows 10. Next.', ['バージョン3.14です。', 'Windows 10.', 'Next.']],
  // Thai: only line breaks split.
  ['th', 'สวัสดีครับ ผมชื่อสมชาย วันนี้อากาศดี', ['สวัสดีครับ ผมชื่อสมชาย วันนี้อากาศดี']],
  ['th', 'สวัสดีครับ\nวันนี้อากาศดี', ['สวัสดีครับ', 'วันนี้อากาศดี']],
  ['th_TH', 'บรรทัดแรก\r\nบรรทัดสอง', ['บรรทัดแรก', 'บรรทัดสอง']],
];

describe('segmentText with the default rules', () => {
  for (const [language, text, expected] of cases) {
    it(`${language}: ${JSON.stringify(text)}`, () => {
      expect(expectLossless(text, language)).toEqual(expected);
    });
  }

  it('reports offsets into the input', () => {
    const text = '  One. Two.';
    expect(segmentText(text, 'en')).toEqual([
      { text: 'One.', start: 2, end: 6 },
      { text: 'Two.', start: 7, end: 11 },
    ]);
    expect(segmentGaps(text, segmentText(text, 'en'))).toEqual(['  ', ' ', '']);
  });

  it('keeps characters outside the BMP intact', () => {
    expect(expectLossless('𝐇𝐞𝐥𝐥𝐨 😀. 𝐖𝐨𝐫𝐥𝐝. 😀 Done.', 'en')).toEqual(['𝐇𝐞𝐥𝐥𝐨 😀.', '𝐖𝐨𝐫𝐥𝐝. 😀 Done.']);
  });
});

// Tag placeholders (default kinds): U+E000.. opening, U+E800.. closing, U+F000.. standalone.
const OPEN = '\uE000';
const OPEN2 = '\uE001';
const CLOSE = '\uE800';
const CLOSE2 = '\uE801';
const ALONE = '\uF000';

const tagCases: [string, string, string[]][] = [
  ['closing tag stays with its sentence', `One ${OPEN}bold.${CLOSE} Two.`, [`One ${OPEN}bold.${CLOSE}`, 'Two.']],
  ['opening tag goes to its sentence', `One. ${OPEN}Two${CLOSE} three.`, ['One.', `${OPEN}Two${CLOSE} three.`]],
  ['no split right after an opening tag', `One.${OPEN} Two.${CLOSE}`, ['One.', `${OPEN} Two.${CLOSE}`]],
  [
    'closing then opening between sentences',
    `${OPEN}One.${CLOSE}${OPEN2} Two.${CLOSE2}`,
    [`${OPEN}One.${CLOSE}`, `${OPEN2} Two.${CLOSE2}`],
  ],
  ['standalone tag after the period stays', `One.${ALONE} Two.`, [`One.${ALONE}`, 'Two.']],
  ['tags are transparent to abbreviations', `Dr.${CLOSE} Smith came.`, [`Dr.${CLOSE} Smith came.`]],
  ['tags are transparent to sentence starts', `Done. ${OPEN}"Next," he said.${CLOSE}`, ['Done.', `${OPEN}"Next," he said.${CLOSE}`]],
  ['a tag-only piece joins the previous segment', `One. ${ALONE}`, [`One. ${ALONE}`]],
  ['only tags', ` ${ALONE}${ALONE} `, [`${ALONE}${ALONE}`]],
  ['CJK with tags', `你好。${CLOSE}${OPEN}我是学生。`, [`你好。${CLOSE}`, `${OPEN}我是学生。`]],
];

describe('segmentText with inline tag placeholders', () => {
  for (const [name, text, expected] of tagCases) {
    it(name, () => {
      const segments = expectLossless(text, 'en');
      expect(segments).toEqual(expected);
      for (const segment of segments)
        expect(segment.charCodeAt(segment.length - 1) >= 0xe000 && segment.charCodeAt(segment.length - 1) <= 0xe7ff).toBe(false);
    });
  }

  it('lets the caller say which placeholder is which', () => {
    const text = 'One.\uF123 Two.';
    expect(segmentText(text, 'en', DEFAULT_RULE_SET, { tagKind: () => 'opening' }).map((s) => s.text)).toEqual(['One.', '\uF123 Two.']);
    expect(segmentText(text, 'en', DEFAULT_RULE_SET, { tagKind: () => 'closing' }).map((s) => s.text)).toEqual(['One.\uF123', 'Two.']);
  });
});

describe('rule sets', () => {
  it('cascades language rules before the defaults', () => {
    const rules = rulesForLanguage(DEFAULT_RULE_SET, 'de_AT');
    expect(rules.slice(0, 2)).toEqual(DEFAULT_RULE_SET.languageRules.find((rule) => rule.name === 'German')!.rules);
    expect(rules.slice(-3).every((rule) => rule.break)).toBe(true);
    expect(rulesForLanguage(DEFAULT_RULE_SET, 'pt-br')).toEqual(
      DEFAULT_RULE_SET.languageRules.find((rule) => rule.name === 'Default')!.rules,
    );
  });

  it('without cascade only the first matching map applies', () => {
    const ruleSet: RuleSet = {
      cascade: false,
      languageRules: [
        { name: 'Semicolon', rules: [{ break: true, before: ';', after: '\\s' }] },
        { name: 'Period', rules: [{ break: true, before: '\\.', after: '\\s' }] },
      ],
      maps: [
        { languagePattern: 'xx.*', languageRuleName: 'Semicolon' },
        { languagePattern: '.*', languageRuleName: 'Period' },
      ],
    };
    expect(expectLossless('a; b. c', 'xx', ruleSet)).toEqual(['a;', 'b. c']);
    expect(expectLossless('a; b. c', 'en', ruleSet)).toEqual(['a; b.', 'c']);
    expect(expectLossless('a; b. c', 'en', { ...ruleSet, cascade: true })).toEqual(['a; b.', 'c']);
    expect(expectLossless('a; b. c', 'xx', { ...ruleSet, cascade: true })).toEqual(['a;', 'b.', 'c']);
  });

  it('the first matching rule decides, whatever follows', () => {
    const breakFirst: RuleSet = {
      cascade: true,
      languageRules: [
        {
          name: 'Rules',
          rules: [
            { break: true, before: 'x\\.', after: '\\s' },
            { break: false, before: '\\.', after: '\\s' },
            { break: true, before: '\\.', after: '\\s' },
          ],
        },
      ],
      maps: [{ languagePattern: '.*', languageRuleName: 'Rules' }],
    };
    expect(expectLossless('ax. b. c', 'en', breakFirst)).toEqual(['ax.', 'b. c']);
  });

  it('runs case-insensitive rules and rules with back-references', () => {
    const ruleSet: RuleSet = {
      cascade: true,
      languageRules: [
        {
          name: 'Rules',
          rules: [
            { break: false, before: '\\bABBR\\.', after: '\\s', ignoreCase: true },
            { break: false, before: '\\.', after: '\\s(["\'])\\w+\\1' },
            { break: true, before: '\\.', after: '\\s' },
          ],
        },
      ],
      maps: [{ languagePattern: '.*', languageRuleName: 'Rules' }],
    };
    expect(expectLossless('see abbr. one. "q" two. "r\' three', 'en', ruleSet)).toEqual(['see abbr. one. "q" two.', '"r\' three']);
    expect(() => compileRules([{ break: false, before: '(a)\\1', after: '' }])).toThrow(/back-references/);
  });

  it('runs translated Java SRX rules', () => {
    const ruleSet: RuleSet = {
      cascade: true,
      languageRules: [
        {
          name: 'Okapi-like',
          rules: [
            javaRuleToJs({ break: false, before: '(?i)\\bapprox\\.', after: '\\s' }),
            javaRuleToJs({ break: true, before: '[\\.\\?!]+\\p{Pe}*', after: '\\s+\\p{Lu}' }),
          ],
        },
      ],
      maps: [{ languagePattern: '.*', languageRuleName: 'Okapi-like' }],
    };
    expect(expectLossless('It is APPROX. Ten. (Yes.) Sure.', 'en', ruleSet)).toEqual(['It is APPROX. Ten. (Yes.)', 'Sure.']);
  });

  it('names the rule that does not compile', () => {
    expect(() =>
      compileRules([
        { break: true, before: '\\.', after: '\\s' },
        { break: false, before: '(unclosed', after: '' },
      ]),
    ).toThrow(SegmentationRuleError);
    try {
      compileRules([
        { break: true, before: '\\.', after: '\\s' },
        { break: false, before: '(unclosed', after: '' },
      ]);
    } catch (error) {
      expect((error as SegmentationRuleError).ruleIndex).toBe(1);
      expect((error as Error).message).toContain('rule 2');
    }
  });

  it('refuses a map naming a missing language rule', () => {
    const ruleSet: RuleSet = { cascade: true, languageRules: [], maps: [{ languagePattern: '.*', languageRuleName: 'Nope' }] };
    expect(() => segmentText('a. B', 'en', ruleSet)).toThrow(/unknown language rule "Nope"/);
  });
});

describe('segmentation of large texts', () => {
  it('segments 1 MB of prose quickly and losslessly', () => {
    const sentences = [
      'Dr. Smith arrived at 5 p.m. on Monday.',
      'The U.S. team, e.g. the one from Boston, won 3.14 points.',
      'Was it worth it?',
      'Visit https://example.com/docs/index.html for details.',
      'He said "Yes!" and left…',
      'Contact j.doe@example.com today.',
    ];
    const parts: string[] = [];
    let length = 0;
    let count = 0;
    while (length < 1_000_000) {
      const sentence = sentences[count % sentences.length]!;
      parts.push(sentence);
      length += sentence.length + 1;
      count++;
    }
    const text = parts.join(' ');
    const began = performance.now();
    const segments = segmentText(text, 'en');
    const elapsed = performance.now() - began;
    expect(segments.length).toBe(count);
    expect(segments.map((segment) => segment.text)).toEqual(parts);
    expect(
      joinSegments(
        segmentGaps(text, segments),
        segments.map((segment) => segment.text),
      ),
    ).toBe(text);
    expect(elapsed).toBeLessThan(1000);
  });

  const pathological: [string, string][] = [
    ['a run of dots', `Start${'.'.repeat(300_000)} End.`],
    ['a run of closing brackets', `Start.${')'.repeat(300_000)} End.`],
    ['a run of spaces after a period', `Start.${' '.repeat(300_000)}End.`],
    ['a run of exclamation marks', `${'!'.repeat(300_000)} End.`],
    ['a run of blank lines', `Start.${'\n \n'.repeat(100_000)}End.`],
    ['a run of CJK full stops', `开始${'。'.repeat(300_000)}结束。`],
    ['a run of initials', `${'A. '.repeat(100_000)}End.`],
  ];
  for (const [name, text] of pathological) {
    it(`stays linear on ${name}`, () => {
      const began = performance.now();
      expectLossless(text, 'en');
      expect(performance.now() - began).toBeLessThan(1000);
    });
  }
});

describe('segmentText on hostile input (linear time)', () => {
  // [name, text, segments]: 2,000,000-character texts of one repeated shape.
  const hostile: [string, string, number][] = [
    ['initials', 'A. '.repeat(666_667), 1],
    ['abbreviations', 'Dr. '.repeat(500_000), 1],
    ['dots', '.'.repeat(2_000_000), 1],
    ['brackets', '('.repeat(2_000_000), 1],
    ['exclamations', 'Go! '.repeat(500_000), 500_000],
    ['blank lines', 'x\n\n'.repeat(666_667), 666_667],
    ['CJK full stops', '。'.repeat(2_000_000), 1],
    ['one letter', 'a'.repeat(2_000_000), 1],
    ['tag placeholders', 'One.\uE800 \uE000Two'.repeat(200_000), 200_001],
  ];
  it.each(hostile)('%s', (_name, text, count) => {
    expect(segmentText(text, 'en')).toHaveLength(count);
  });
});
