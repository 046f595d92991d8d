import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE_SET } from './rules.js';
import type { RuleSet } from './rules.js';
import { segmentText } from './segmenter.js';
import { MAX_SRX_DEPTH, parseSrx, ruleSetForLanguage, SrxError, writeSrx } from './srx.js';
import type { SrxProblem } from './srx.js';

/** An SRX 2.0 file around `languageRules` and `maps` (XML fragments). */
function srx(languageRules: string, maps = '<languagemap languagepattern=".*" languagerulename="Any"/>', header = 'cascade="no"'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<srx xmlns="http://www.lisa.org/srx20" version="2.0">
  <header segmentsubflows="yes" ${header}/>
  <body>
    <languagerules>${languageRules}</languagerules>
    <maprules>${maps}</maprules>
  </body>
</srx>`;
}

const anyRule = (rules: string) => `<languagerule languagerulename="Any">${rules}</languagerule>`;

// [name, SRX text, expected RuleSet]
const reads: [string, string, RuleSet][] = [
  [
    'a break rule and an exception, cascade no',
    srx(
      anyRule(
        '<rule break="no"><beforebreak>\\bDr\\.</beforebreak><afterbreak>\\s</afterbreak></rule>' +
          '<rule break="yes"><beforebreak>[.;]</beforebreak><afterbreak>\\s</afterbreak></rule>',
      ),
    ),
    {
      cascade: false,
      languageRules: [
        {
          name: 'Any',
          rules: [
            { break: false, before: '\\bDr\\.', after: '\\s' },
            { break: true, before: '[.;]', after: '\\s' },
          ],
        },
      ],
      maps: [{ languagePattern: '.*', languageRuleName: 'Any' }],
    },
  ],
  [
    'cascade yes, several maps, break and sides left out, whitespace kept',
    srx(
      '<languagerule languagerulename="English"><rule><beforebreak>\\.</beforebreak></rule></languagerule>' +
        '<languagerule languagerulename="Default"><rule break="yes"><afterbreak> </afterbreak></rule></languagerule>',
      '<languagemap languagepattern="en.*" languagerulename="English"/><languagemap languagepattern=".*" languagerulename="Default"/>',
      'cascade="yes"',
    ),
    {
      cascade: true,
      languageRules: [
        { name: 'English', rules: [{ break: true, before: '\\.', after: '' }] },
        { name: 'Default', rules: [{ break: true, before: '', after: ' ' }] },
      ],
      maps: [
        { languagePattern: 'en.*', languageRuleName: 'English' },
        { languagePattern: '.*', languageRuleName: 'Default' },
      ],
    },
  ],
  [
    'Java syntax translated, (?i) read as ignoreCase, CDATA and entities',
    srx(
      anyRule(
        '<rule break="no"><beforebreak>(?i)\\bvs\\.</beforebreak><afterbreak>\\s\\p{IsLu}</afterbreak></rule>' +
          '<rule break="yes"><beforebreak><![CDATA[[.!?]\\p{Pe}*+]]></beforebreak><afterbreak>\\s&lt;</afterbreak></rule>',
      ),
    ),
    {
      cascade: false,
      languageRules: [
        {
          name: 'Any',
          rules: [
            { break: false, before: '\\bvs\\.', after: '\\s\\p{Lu}', ignoreCase: true },
            { break: true, before: '[.!?]\\p{Pe}*', after: '\\s<' },
          ],
        },
      ],
      maps: [{ languagePattern: '.*', languageRuleName: 'Any' }],
    },
  ],
  [
    'namespace prefixes, SRX 1.0 maprule (the first one counts), unknown elements skipped',
    `<?xml version="1.0"?>
<s:srx xmlns:s="http://www.lisa.org/srx10" xmlns:okp="http://okapi" version="1.0">
  <s:header segmentsubflows="yes"><okp:options oneSegmentIncludesAll="no"/><s:formathandle type="start" include="no"/></s:header>
  <s:body>
    <s:languagerules><s:languagerule languagerulename="Any"><s:rule break="yes"><s:beforebreak>;</s:beforebreak></s:rule></s:languagerule></s:languagerules>
    <s:maprules>
      <s:maprule maprulename="first"><s:languagemap languagepattern="EN.*" languagerulename="Any"/></s:maprule>
      <s:maprule maprulename="second"><s:languagemap languagepattern=".*" languagerulename="Any"/></s:maprule>
    </s:maprules>
  </s:body>
</s:srx>`,
    {
      cascade: false,
      languageRules: [{ name: 'Any', rules: [{ break: true, before: ';', after: '' }] }],
      maps: [{ languagePattern: 'EN.*', languageRuleName: 'Any' }],
    },
  ],
];

describe('parseSrx', () => {
  for (const [name, text, expected] of reads) {
    it(name, () => {
      expect(parseSrx(text)).toEqual(expected);
    });
  }

  it('reads a file with a byte order mark', () => {
    expect(parseSrx(`\uFEFF${reads[0]![1]}`)).toEqual(reads[0]![2]);
  });
});

// [name, SRX text, the problem (partial)]
type Expected = { kind: SrxProblem['kind']; reason?: string | RegExp } & Record<string, unknown>;
const refusals: [string, string, Expected][] = [
  ['not XML', 'this is not XML', { kind: 'file', reason: /malformed XML|no <srx>/ }],
  ['malformed XML', srx(anyRule('<rule><beforebreak>a</afterbreak></rule>')), { kind: 'file', reason: /^malformed XML/ }],
  ['another root element', '<tmx version="1.4"><body/></tmx>', { kind: 'file', reason: 'the root element is <tmx>, not <srx>' }],
  [
    'a DOCTYPE with an internal subset',
    `<!DOCTYPE srx [<!ENTITY a "aaaaaaaaaa">]>${srx(anyRule('<rule><beforebreak>&a;</beforebreak></rule>'))}`,
    { kind: 'file', reason: 'a DOCTYPE with an internal subset (entity declarations) is refused' },
  ],
  ['no body', '<srx version="2.0"><header cascade="no" segmentsubflows="yes"/></srx>', { kind: 'file', reason: 'the file has no <body>' }],
  ['no language rule', srx(''), { kind: 'file', reason: 'the file has no <languagerule>' }],
  ['no language map', srx(anyRule('<rule/>'), ''), { kind: 'file', reason: /no <languagemap>/ }],
  [
    'a map naming an unknown language rule',
    srx(anyRule('<rule/>'), '<languagemap languagepattern=".*" languagerulename="Other"/>'),
    { kind: 'file', reason: /names the language rule "Other"/ },
  ],
  ['a language rule defined twice', srx(anyRule('<rule/>') + anyRule('<rule/>')), { kind: 'file', reason: /"Any" is defined twice/ }],
  ['break that is not yes or no', srx(anyRule('<rule break="maybe"/>')), { kind: 'file', reason: /rule 1 of language rule "Any": break/ }],
  ['bad cascade', srx(anyRule('<rule/>'), undefined, 'cascade="perhaps"'), { kind: 'file', reason: /cascade must be yes or no/ }],
  ['an element inside an expression', srx(anyRule('<rule><beforebreak>a<b/></beforebreak></rule>')), { kind: 'file', reason: /text only/ }],
  ['an unsupported version', srx(anyRule('<rule/>')).replace('version="2.0"', 'version="3.0"'), { kind: 'file', reason: /version "3.0"/ }],
  [
    'nesting beyond the depth limit',
    `<srx>${'<x>'.repeat(MAX_SRX_DEPTH)}${'</x>'.repeat(MAX_SRX_DEPTH)}</srx>`,
    { kind: 'file', reason: /nested deeper/ },
  ],
  [
    'a Java construct the engine cannot translate (Unicode block)',
    srx(anyRule('<rule><beforebreak>\\.</beforebreak></rule><rule break="no"><beforebreak>\\p{InGreek}</beforebreak></rule>')),
    { kind: 'rule', languageRuleName: 'Any', ruleIndex: 2, side: 'beforebreak', expression: '\\p{InGreek}' },
  ],
  [
    'an expression that does not compile',
    srx(anyRule('<rule><beforebreak>\\.</beforebreak><afterbreak>(unclosed</afterbreak></rule>')),
    { kind: 'rule', languageRuleName: 'Any', ruleIndex: 1, side: 'afterbreak', expression: '(unclosed' },
  ],
  [
    'a back-reference in beforebreak',
    srx(anyRule('<rule><beforebreak>(a)\\1</beforebreak><afterbreak>\\s</afterbreak></rule>')),
    { kind: 'rule', languageRuleName: 'Any', ruleIndex: 1, side: 'beforebreak', expression: '(a)\\1', reason: /back-references/ },
  ],
  [
    'a language pattern that does not compile',
    srx(anyRule('<rule/>'), '<languagemap languagepattern="en[" languagerulename="Any"/>'),
    { kind: 'languagePattern', languageRuleName: 'Any', pattern: 'en[' },
  ],
];

describe('parseSrx refuses, naming the problem', () => {
  for (const [name, text, expected] of refusals) {
    it(name, () => {
      let thrown: unknown;
      try {
        parseSrx(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SrxError);
      const problem = (thrown as SrxError).problem as SrxProblem & { reason: string };
      const { reason, ...rest } = expected;
      expect(problem).toMatchObject(rest);
      if (reason instanceof RegExp) expect(problem.reason).toMatch(reason);
      else if (reason !== undefined) expect(problem.reason).toBe(reason);
    });
  }

  it('names the rule in the message', () => {
    expect(() => parseSrx(refusals.find(([name]) => name.includes('Unicode block'))![1])).toThrow(
      /^rule 2 of language rule "Any": <beforebreak>\\p\{InGreek\}<\/beforebreak> cannot be used: /,
    );
  });

  it('refuses a file over the size limit before reading it', () => {
    expect(() => parseSrx(' '.repeat(4 * 1024 * 1024 + 1))).toThrow(/larger than/);
  });
});

describe('writeSrx', () => {
  it('writes the default rules so that they read back to the same rule set', () => {
    expect(parseSrx(writeSrx(DEFAULT_RULE_SET))).toEqual(DEFAULT_RULE_SET);
  });

  // [name, rule set]
  const roundTrips: [string, RuleSet][] = [
    [
      'ignoreCase on either side, characters XML escapes, no cascade',
      {
        cascade: false,
        languageRules: [
          {
            name: 'A & "B" <c>',
            rules: [
              { break: false, before: '(?<![&<>])vs\\.', after: '\\s', ignoreCase: true },
              { break: true, before: '', after: '[<>&"\']', ignoreCase: true },
              { break: true, before: '\\r\\n', after: '' },
            ],
          },
        ],
        maps: [{ languagePattern: '(en|de)(-.*)?', languageRuleName: 'A & "B" <c>' }],
      },
    ],
    ['the German part of the defaults', ruleSetForLanguage(DEFAULT_RULE_SET, 'de_DE')],
  ];
  for (const [name, ruleSet] of roundTrips) {
    it(`round trip: ${name}`, () => {
      expect(parseSrx(writeSrx(ruleSet))).toEqual(ruleSet);
    });
  }

  it('writes SRX 2.0 in its namespace with the header attributes the schema requires', () => {
    const text = writeSrx(DEFAULT_RULE_SET);
    expect(text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<srx xmlns="http:\/\/www\.lisa\.org\/srx20" version="2\.0">/);
    expect(text).toContain('<header segmentsubflows="yes" cascade="yes"/>');
    expect(writeSrx({ ...DEFAULT_RULE_SET, cascade: false }, { segmentSubflows: false })).toContain(
      '<header segmentsubflows="no" cascade="no"/>',
    );
  });
});

describe('ruleSetForLanguage', () => {
  // [language, language rules kept]
  const cases: [string, string[]][] = [
    ['de', ['German', 'Default']],
    ['en_US', ['English', 'Default']],
    ['ja', ['Default']],
    ['th', ['Thai', 'Default']],
  ];
  for (const [language, names] of cases) {
    it(`${language}: ${names.join(', ')}`, () => {
      const part = ruleSetForLanguage(DEFAULT_RULE_SET, language);
      expect(part.languageRules.map((r) => r.name)).toEqual(names);
      const text = 'Dr. Smith kam am 1. Januar. Er ging nach Hause. Vgl. Abb. 3 usw. Dann kam er.';
      expect(segmentText(text, language, part)).toEqual(segmentText(text, language, DEFAULT_RULE_SET));
    });
  }

  it('takes only the first matching map without cascade', () => {
    const ruleSet: RuleSet = { ...DEFAULT_RULE_SET, cascade: false };
    expect(ruleSetForLanguage(ruleSet, 'de').maps).toEqual([{ languagePattern: 'de(-.*)?', languageRuleName: 'German' }]);
  });
});

describe('segmenting with an SRX rule set', () => {
  const semicolons = parseSrx(
    srx(
      anyRule(
        '<rule break="yes"><beforebreak>;</beforebreak><afterbreak>\\s</afterbreak></rule>' +
          '<rule break="yes"><beforebreak>\\.</beforebreak><afterbreak>\\s\\p{Lu}</afterbreak></rule>',
      ),
    ),
  );

  it('breaks where the file says', () => {
    expect(segmentText('One; two; three. Four', 'en', semicolons).map((s) => s.text)).toEqual(['One;', 'two;', 'three.', 'Four']);
    expect(segmentText('One; two; three. Four', 'en').map((s) => s.text)).toEqual(['One; two; three.', 'Four']);
  });

  it('leaves a language no map matches whole', () => {
    const english = parseSrx(
      srx(
        anyRule('<rule><beforebreak>;</beforebreak><afterbreak>\\s</afterbreak></rule>'),
        '<languagemap languagepattern="en.*" languagerulename="Any"/>',
      ),
    );
    expect(segmentText('Eins; zwei.', 'de', english).map((s) => s.text)).toEqual(['Eins; zwei.']);
    expect(segmentText('One; two.', 'en_GB', english).map((s) => s.text)).toEqual(['One;', 'two.']);
  });
});
