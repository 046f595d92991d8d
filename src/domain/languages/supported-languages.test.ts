import { describe, expect, it } from 'vitest';
import { LANGUAGE_TABLE } from './language-table.js';
import { findLanguage, isSupportedLanguage, normalizeLanguage, supportedLanguages } from './supported-languages.js';

/** Tags that are valid BCP 47 but that CLDR canonicalizes to another tag: Dari (`fa-AF`), Tagalog (`fil`). */
const ACTIVE_ALIAS_TAGS = ['prs', 'prs-AF', 'tl'];

const CANONICAL_CODE = /^[a-z]{2,3}(_[a-z]{4})?(_([a-z]{2}|\d{3}))?$/;

function subtags(rfc: string) {
  const [language, ...rest] = rfc.split('-');
  return { language: language!, script: rest.find((s) => s.length === 4), region: rest.find((s) => s.length !== 4) };
}

describe('the language table', () => {
  it('is the full list: several hundred languages, sorted by code, without duplicates', () => {
    expect(LANGUAGE_TABLE.length).toBeGreaterThan(400);
    const codes = LANGUAGE_TABLE.map((l) => l.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(codes);
    const names = LANGUAGE_TABLE.map((l) => l.name);
    expect(new Set(names).size, 'names tell the languages apart').toBe(names.length);
  });

  it.each(LANGUAGE_TABLE.map((l) => [l.code, l] as const))(
    '%s: canonical code, valid rfc tag, Android forms by the rule',
    (_code, language) => {
      expect(language.code).toMatch(CANONICAL_CODE);
      expect(language.code).toBe(language.rfc.toLowerCase().replace(/-/g, '_'));
      expect(language.name.trim()).toBe(language.name);
      expect(language.name.length).toBeGreaterThan(1);

      const [canonical] = Intl.getCanonicalLocales(language.rfc);
      if (language.active && !ACTIVE_ALIAS_TAGS.includes(language.rfc)) expect(canonical).toBe(language.rfc);

      const { language: lang, script, region } = subtags(language.rfc);
      const classicRegion = region && /^[A-Z]{2}$/.test(region) ? region : undefined;
      expect(language.android).toBe(classicRegion ? `${lang}-r${classicRegion}` : lang);
      const classicSaysAll = !script && region === classicRegion;
      expect(language.androidBcp).toBe(classicSaysAll ? language.android : `b+${[lang, script, region].filter(Boolean).join('+')}`);
    },
  );

  it('the active entries that are CLDR aliases are exactly the documented ones', () => {
    const aliases = LANGUAGE_TABLE.filter((l) => l.active && Intl.getCanonicalLocales(l.rfc)[0] !== l.rfc).map((l) => l.rfc);
    expect(aliases).toEqual(ACTIVE_ALIAS_TAGS);
  });

  it('inactive entries are legacy codes that canonicalize to the active code named in replacedBy', () => {
    const inactive = LANGUAGE_TABLE.filter((l) => !l.active);
    expect(inactive.map((l) => l.code)).toEqual([
      'in',
      'in_id',
      'iw',
      'iw_il',
      'ji',
      'mo',
      'mo_md',
      'sh',
      'sr_cs',
      'sr_cyrl_cs',
      'sr_latn_cs',
    ]);
    for (const legacy of inactive) {
      const successor = findLanguage(legacy.replacedBy ?? '');
      expect(successor?.active, legacy.code).toBe(true);
      expect(Intl.getCanonicalLocales(legacy.rfc)[0], legacy.code).toBe(successor?.rfc);
    }
    expect(LANGUAGE_TABLE.filter((l) => l.active && l.replacedBy !== undefined)).toEqual([]);
  });

  it.each([
    ['en', 'English', 'en', 'en', 'en'],
    ['en_us', 'English (USA)', 'en-US', 'en-rUS', 'en-rUS'],
    ['en_gb', 'English (United Kingdom)', 'en-GB', 'en-rGB', 'en-rGB'],
    ['de', 'German', 'de', 'de', 'de'],
    ['de_de', 'German (Germany)', 'de-DE', 'de-rDE', 'de-rDE'],
    ['de_at', 'German (Austria)', 'de-AT', 'de-rAT', 'de-rAT'],
    ['de_ch', 'German (Switzerland)', 'de-CH', 'de-rCH', 'de-rCH'],
    ['fr_ca', 'French (Canada)', 'fr-CA', 'fr-rCA', 'fr-rCA'],
    ['pt_br', 'Portuguese (Brazil)', 'pt-BR', 'pt-rBR', 'pt-rBR'],
    ['es_mx', 'Spanish (Mexico)', 'es-MX', 'es-rMX', 'es-rMX'],
    ['es_419', 'Spanish (Latin America)', 'es-419', 'es', 'b+es+419'],
    ['cs_cz', 'Czech (Czech Republic)', 'cs-CZ', 'cs-rCZ', 'cs-rCZ'],
    ['ja', 'Japanese', 'ja', 'ja', 'ja'],
    ['ko', 'Korean', 'ko', 'ko', 'ko'],
    ['zh_cn', 'Chinese (PRC)', 'zh-CN', 'zh-rCN', 'zh-rCN'],
    ['zh_tw', 'Chinese (Taiwan)', 'zh-TW', 'zh-rTW', 'zh-rTW'],
    ['zh_hk', 'Chinese (Hong Kong)', 'zh-HK', 'zh-rHK', 'zh-rHK'],
    ['sr_latn_rs', 'Serbian (Latin, Serbia)', 'sr-Latn-RS', 'sr-rRS', 'b+sr+Latn+RS'],
    ['sr_cyrl_rs', 'Serbian (Cyrillic, Serbia)', 'sr-Cyrl-RS', 'sr-rRS', 'b+sr+Cyrl+RS'],
    ['az_latn_az', 'Azerbaijani (Latin, Azerbaijan)', 'az-Latn-AZ', 'az-rAZ', 'b+az+Latn+AZ'],
    ['uz_cyrl_uz', 'Uzbek (Cyrillic, Uzbekistan)', 'uz-Cyrl-UZ', 'uz-rUZ', 'b+uz+Cyrl+UZ'],
    ['fil_ph', 'Filipino (Philippines)', 'fil-PH', 'fil-rPH', 'fil-rPH'],
    ['haw', 'Hawaiian', 'haw', 'haw', 'haw'],
  ])('knows %s', (code, name, rfc, android, androidBcp) => {
    expect(findLanguage(code)).toEqual({ code, name, rfc, android, androidBcp, active: true });
  });
});

describe('normalizeLanguage', () => {
  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['en_us', 'en_us'],
    ['en-US', 'en_us'],
    ['EN_us', 'en_us'],
    ['sr-Latn-RS', 'sr_latn_rs'],
    ['SR_LATN_RS', 'sr_latn_rs'],
    ['es-419', 'es_419'],
    [' de_DE ', 'de_de'],
    ['iw', 'iw'],
    ['sr-Latn-CS', 'sr_latn_cs'],
    ['xx', null],
    ['', null],
    ['en_', null],
    ['en us', null],
    ['en__us', null],
    ['en-US-x-private', null],
    ['Klingon!', null],
    ['english', null],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeLanguage(input)).toBe(expected);
    expect(isSupportedLanguage(input)).toBe(expected !== null);
  });
});

describe('supportedLanguages', () => {
  it('filters by active; the two halves make the whole list', () => {
    const all = supportedLanguages();
    const active = supportedLanguages({ active: true });
    const inactive = supportedLanguages({ active: false });
    expect(all).toHaveLength(LANGUAGE_TABLE.length);
    expect(active.every((l) => l.active)).toBe(true);
    expect(inactive.every((l) => !l.active)).toBe(true);
    expect(active.length + inactive.length).toBe(all.length);
    expect(inactive.length).toBeGreaterThan(0);
    expect(supportedLanguages({})).toBe(all);
  });

  it('hands out frozen entries, so no caller can change the shared list', () => {
    const first = supportedLanguages()[0]!;
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(supportedLanguages())).toBe(true);
  });
});
