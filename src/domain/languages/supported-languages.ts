import { LANGUAGE_TABLE } from './language-table.js';
import type { Language } from './language-table.js';

export type { Language } from './language-table.js';

/**
 * The supported language list: the one place that says which language codes the API accepts.
 * Every language parameter goes through `normalizeLanguage` (via assertLanguages in
 * src/domain/languages/language-validation.ts); GET /api2/v1/languages shows the same list.
 *
 * - `normalizeLanguage(code)`: the canonical code (lowercase, `_`-separated, e.g. `en_us`) of a
 *   listed language given in any case and with `-` or `_` (`EN-us`, `sr_Latn_RS`), or null when
 *   the code is not listed. Inactive (legacy) codes are listed, so they normalize too.
 * - `isSupportedLanguage(code)`: normalizeLanguage(code) !== null.
 * - `findLanguage(code)`: the list entry for a code in any of those spellings.
 * - `supportedLanguages({ active })`: the whole list, or only the active / inactive entries.
 *
 * Lookups are one Map access; the filtered lists are computed once, at module load.
 */

const BY_CODE: ReadonlyMap<string, Language> = new Map(LANGUAGE_TABLE.map((language) => [language.code, Object.freeze({ ...language })]));

const ALL: readonly Language[] = Object.freeze([...BY_CODE.values()]);
const ACTIVE: readonly Language[] = Object.freeze(ALL.filter((language) => language.active));
const INACTIVE: readonly Language[] = Object.freeze(ALL.filter((language) => !language.active));

/** The lookup key of a code: trimmed, lowercase, `-` read as `_`. */
function keyOf(code: string): string {
  return code.trim().toLowerCase().replace(/-/g, '_');
}

export function findLanguage(code: string): Language | null {
  return BY_CODE.get(keyOf(code)) ?? null;
}

export function normalizeLanguage(code: string): string | null {
  return findLanguage(code)?.code ?? null;
}

export function isSupportedLanguage(code: string): boolean {
  return normalizeLanguage(code) !== null;
}

/** All listed languages sorted by code; `active: true` / `false` keeps only those entries. */
export function supportedLanguages(filter: { active?: boolean } = {}): readonly Language[] {
  if (filter.active === undefined) return ALL;
  return filter.active ? ACTIVE : INACTIVE;
}

/** Scripts written right to left, by language (the part of the code before `_`). */
const RIGHT_TO_LEFT = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ks', 'ku_iq', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);

/** Whether a language is written right to left (the `rtl` of segments on the wire). */
export function isRightToLeft(code: string): boolean {
  const lower = code.toLowerCase().replace('-', '_');
  return RIGHT_TO_LEFT.has(lower) || RIGHT_TO_LEFT.has(lower.split('_')[0]!);
}
