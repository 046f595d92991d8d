import { effectiveTexts } from '../job-structure/index.js';
import type { SegmentVersions } from '../job-structure/index.js';

/**
 * The rows of the workflow changes report (docs/split-compare-and-workflow-changes.md): for each
 * segment some workflow step changed, the text after each level and what that level changed.
 * Pure, table-tested.
 *
 * A level changed a segment when its job wrote a translation different from the text it
 * received (the previous level's text; before level 1, the target the file already had).
 */

export type DiffPart = { kind: 'same' | 'removed' | 'added'; text: string };

export interface LevelCell {
  level: number;
  text: string | null;
  changed: boolean;
  /** What this level did to the text it received; empty when it did not change it. */
  diff: DiffPart[];
}

export interface ChangeRow {
  index: number;
  source: string;
  cells: LevelCell[];
}

/** Words and the whitespace/punctuation between them, so a diff keeps the text whole. */
function tokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

function pushPart(parts: DiffPart[], kind: DiffPart['kind'], text: string): void {
  const last = parts[parts.length - 1];
  if (last && last.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/** Largest token table a diff builds (a few MB). */
const MAX_DIFF_CELLS = 1_000_000;

/** A word-level diff of `before` → `after` (longest common subsequence of tokens). */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  // The table is a.length × b.length: past this, show the whole text replaced rather than hold it.
  if (a.length * b.length > MAX_DIFF_CELLS)
    return [...(before ? [{ kind: 'removed' as const, text: before }] : []), ...(after ? [{ kind: 'added' as const, text: after }] : [])];
  // lcs[i][j]: length of the common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      pushPart(parts, 'same', a[i]!);
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // Removals before additions, as diffs are usually read.
      pushPart(parts, 'removed', a[i++]!);
    } else {
      pushPart(parts, 'added', b[j++]!);
    }
  }
  return parts;
}

/** The report cells of one segment, one per level. */
export function levelCells(segment: SegmentVersions): LevelCell[] {
  const texts = effectiveTexts(segment);
  return texts.map((text, i) => {
    const received = i === 0 ? segment.imported : texts[i - 1]!;
    const changed = segment.own[i] !== null && segment.own[i] !== received;
    return { level: i + 1, text, changed, diff: changed ? wordDiff(received ?? '', text ?? '') : [] };
  });
}

/** Rows for the segments some level changed, in file order. */
export function workflowChangeRows(segments: readonly SegmentVersions[]): ChangeRow[] {
  return segments
    .map((s) => ({ index: s.index, source: s.source, cells: levelCells(s) }))
    .filter((row) => row.cells.some((c) => c.changed));
}

/** Segments each level changed (`[n - 1]` for level n). */
export function changesPerLevel(rows: readonly ChangeRow[], levels: number): number[] {
  const counts = new Array<number>(levels).fill(0);
  for (const row of rows) for (const cell of row.cells) if (cell.changed) counts[cell.level - 1]!++;
  return counts;
}
