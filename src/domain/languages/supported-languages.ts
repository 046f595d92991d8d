/**
 * PLACEHOLDER (issue 5, languages helper replaces this file): the supported language list.
 * Contract kept by the real list:
 *  - `normalizeLanguage(code)`: the canonical code (lowercase, `_`-separated, e.g. `en_us`) of a
 *    supported language given in any case, or null when the code is not supported;
 *  - `isSupportedLanguage(code)`: normalizeLanguage(code) !== null.
 */
export interface Language {
  code: string;
  name: string;
  rfc: string;
  android: string;
  androidBcp: string;
}

const LANGUAGES: Language[] = [
  { code: 'en', name: 'English', rfc: 'en', android: 'en', androidBcp: 'en' },
  { code: 'en_us', name: 'English (USA)', rfc: 'en-US', android: 'en-rUS', androidBcp: 'en-US' },
  { code: 'en_gb', name: 'English (United Kingdom)', rfc: 'en-GB', android: 'en-rGB', androidBcp: 'en-GB' },
  { code: 'de', name: 'German', rfc: 'de', android: 'de', androidBcp: 'de' },
  { code: 'de_de', name: 'German (Germany)', rfc: 'de-DE', android: 'de-rDE', androidBcp: 'de-DE' },
  { code: 'fr', name: 'French', rfc: 'fr', android: 'fr', androidBcp: 'fr' },
  { code: 'fr_fr', name: 'French (France)', rfc: 'fr-FR', android: 'fr-rFR', androidBcp: 'fr-FR' },
  { code: 'cs', name: 'Czech', rfc: 'cs', android: 'cs', androidBcp: 'cs' },
  { code: 'cs_cz', name: 'Czech (Czech Republic)', rfc: 'cs-CZ', android: 'cs-rCZ', androidBcp: 'cs-CZ' },
  { code: 'zh_cn', name: 'Chinese (PRC)', rfc: 'zh-CN', android: 'zh-rCN', androidBcp: 'zh-CN' },
];

const BY_CODE = new Map(LANGUAGES.map((l) => [l.code, l]));

export function normalizeLanguage(code: string): string | null {
  const key = code.trim().toLowerCase().replace(/-/g, '_');
  return BY_CODE.has(key) ? key : null;
}

export function isSupportedLanguage(code: string): boolean {
  return normalizeLanguage(code) !== null;
}

export function supportedLanguages(): readonly Language[] {
  return LANGUAGES;
}
