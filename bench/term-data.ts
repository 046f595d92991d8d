/**
 * The term bases the terminology benches share (bench/terms.bench.ts, bench/term-import.bench.ts),
 * built from the (source, target) pairs of the machine's gettext catalogs (bench/tm-data.ts
 * `catalogPairs`). No top-level work: importing it starts nothing.
 */

/** A catalog source that reads as a term: one to four words of letters and digits, joined by spaces or hyphens. */
export const SHORT_ENTRY = /^[\p{L}\p{N}]+(?:[ -][\p{L}\p{N}]+){0,3}$/u;

/**
 * The catalogs' term base: every distinct source (trimmed, compared without regard to case, the
 * first one kept) of one to four words, with its translation (trimmed; possibly empty).
 */
export function shortCatalogEntries(pairs: readonly (readonly [string, string])[]): Array<[string, string]> {
  const seen = new Set<string>();
  const entries: Array<[string, string]> = [];
  for (const [source, target] of pairs) {
    const text = source.trim();
    if (!SHORT_ENTRY.test(text) || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    entries.push([text, target.trim()]);
  }
  return entries;
}
