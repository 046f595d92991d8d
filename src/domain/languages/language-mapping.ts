import { normalizeLanguage } from './supported-languages.js';

/**
 * Maps the languages of a file to a resource's (a TM's, a term base's). A file's code is read through the supported list
 * (`de-DE` → `de_de`); it goes to the resource language with the same code, and without strict matching
 * also to the resource language that is its bare language (`de_de` → `de`) or, when the resource has exactly
 * one language of that bare language, the other way round (`de` → `de_de`). null: not the resource's.
 */
export function languageMapper(resourceLangs: readonly string[], strict: boolean): (fileLang: string) => string | null {
  const cache = new Map<string, string | null>();
  const langs = new Set(resourceLangs);
  const bare = (code: string) => code.split('_')[0]!;
  return (fileLang) => {
    const cached = cache.get(fileLang);
    if (cached !== undefined) return cached;
    const code = normalizeLanguage(fileLang) ?? normalizeLanguage(bare(fileLang.replace(/-/g, '_')));
    let result: string | null = null;
    if (code !== null) {
      if (langs.has(code)) result = code;
      else if (!strict) {
        if (code.includes('_') && langs.has(bare(code))) result = bare(code);
        else if (!code.includes('_')) {
          const regional = resourceLangs.filter((lang) => bare(lang) === code);
          if (regional.length === 1) result = regional[0]!;
        }
      }
    }
    cache.set(fileLang, result);
    return result;
  };
}
