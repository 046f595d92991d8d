/**
 * File-name patterns of custom file types: globs with `*` (any run of characters, none included)
 * and `?` (exactly one character); every other character stands for itself. Matching ignores case
 * (Unicode simple case folding through toLowerCase: `*.JSON` matches `strings.json`, as file
 * types go by extension whatever its case) and applies to the file name without its folders
 * (`docs/en/strings.json` is matched as `strings.json`) unless the pattern names folders itself
 * (has a `/`). docs/import-settings-and-file-types.md, "File-name patterns".
 *
 * The matcher never backtracks more than one segment: the pattern is cut at its `*`s into
 * segments; the first must match at the start, the last at the end, and each one between is taken
 * at its leftmost place after the previous one (leftmost is always right: a later place leaves
 * less room for the rest). Each place is tried against one segment only, so the work is at most
 * (name length × longest segment): linear in the file name for a pattern of bounded length
 * (patterns are at most 255 characters).
 */

export const PATTERN_MAX_LENGTH = 255;

/** Characters of a string as code points, lower-cased. */
function folded(text: string): string[] {
  return Array.from(text.toLowerCase());
}

function segmentMatchesAt(name: readonly string[], at: number, segment: readonly string[]): boolean {
  if (at + segment.length > name.length) return false;
  for (let i = 0; i < segment.length; i++) {
    const p = segment[i]!;
    if (p !== '?' && p !== name[at + i]) return false;
  }
  return true;
}

/** The compiled pattern: `test(name)` says whether a file name matches. */
export interface FilenameMatcher {
  readonly pattern: string;
  /** Characters that are not wildcards: the more, the more specific the pattern. */
  readonly literalCount: number;
  test(filename: string): boolean;
}

export function compileFilenamePattern(pattern: string): FilenameMatcher {
  const chars = folded(pattern.trim());
  const segments: string[][] = [[]];
  for (const c of chars) {
    if (c === '*') segments.push([]);
    else segments[segments.length - 1]!.push(c);
  }
  const starred = segments.length > 1;
  const namesFolders = chars.includes('/');
  const literalCount = chars.filter((c) => c !== '*' && c !== '?').length;

  function test(filename: string): boolean {
    const path = filename.replace(/\\/g, '/');
    const name = folded(namesFolders ? path : path.slice(path.lastIndexOf('/') + 1));
    if (!starred) return name.length === segments[0]!.length && segmentMatchesAt(name, 0, segments[0]!);
    const first = segments[0]!;
    const last = segments[segments.length - 1]!;
    if (first.length + last.length > name.length) return false;
    if (!segmentMatchesAt(name, 0, first)) return false;
    if (!segmentMatchesAt(name, name.length - last.length, last)) return false;
    // Middle segments, leftmost first, between the prefix and the suffix.
    let at = first.length;
    const end = name.length - last.length;
    for (let s = 1; s < segments.length - 1; s++) {
      const segment = segments[s]!;
      let found = -1;
      for (let i = at; i + segment.length <= end; i++) {
        if (segmentMatchesAt(name, i, segment)) {
          found = i;
          break;
        }
      }
      if (found < 0) return false;
      at = found + segment.length;
    }
    return true;
  }

  return { pattern, literalCount, test };
}

/** Whether `filename` matches `pattern` (see the module comment). */
export function matchesFilenamePattern(pattern: string, filename: string): boolean {
  return compileFilenamePattern(pattern).test(filename);
}
