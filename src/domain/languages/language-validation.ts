import { normalizeLanguage } from './supported-languages.js';
import { errors } from '../../errors/index.js';

/**
 * Every language parameter of the API goes through here: each code must be on the supported
 * list (GET /api2/v1/languages; any case, `-` or `_`), else 400 `UnsupportedLanguage` naming the
 * field and the code, and nothing is written. Returns the canonical codes (`EN-us` -> `en_us`),
 * without duplicates, in the order given. Legacy codes (active=false on the list) are accepted:
 * older data carries them. See docs/languages.md.
 */
export function assertLanguages(field: string, codes: readonly string[]): string[] {
  const result = new Set<string>();
  for (const code of codes) {
    const canonical = normalizeLanguage(code);
    if (canonical === null) {
      throw errors.UnsupportedLanguage({ field, code });
    }
    result.add(canonical);
  }
  return [...result];
}

export function assertLanguage(field: string, code: string): string {
  return assertLanguages(field, [code])[0]!;
}
