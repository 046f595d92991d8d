/**
 * Whitespace checks (docs/quality-assurance.md): leading and trailing whitespace that differs from
 * the source's, and runs of several spaces the source does not have.
 */
import type { QaText } from '../text.js';
import { isHorizontalSpace, isWhitespace, position, warning } from '../text.js';
import type { QaPosition, QaWarning } from '../types.js';

function leadingEnd(text: string): number {
  let i = 0;
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

function trailingStart(text: string): number {
  let i = text.length;
  while (i > 0 && isWhitespace(text.charCodeAt(i - 1))) i--;
  return i;
}

/**
 * leadingAndTrailingSpaces -> LeadingAndTrailingSpaces: the whitespace at the start (key `leading`)
 * or at the end (key `trailing`) of the target is not exactly the source's. A target that is all
 * whitespace is left to EmptyTranslation.
 */
export function checkLeadingAndTrailingSpaces(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const src = source.text;
  const tgt = target.text;
  const srcLead = leadingEnd(src);
  const tgtLead = leadingEnd(tgt);
  if (tgtLead === tgt.length) return;
  if (srcLead === src.length) return;
  if (src.slice(0, srcLead) !== tgt.slice(0, tgtLead)) {
    out.push(
      warning('LeadingAndTrailingSpaces', 'leading', ignorable, {
        srcPosition: position(0, srcLead),
        srcWhitespaces: src.slice(0, srcLead),
        tgtPosition: position(0, tgtLead),
        tgtWhitespaces: tgt.slice(0, tgtLead),
      }),
    );
  }
  const srcTrail = trailingStart(src);
  const tgtTrail = trailingStart(tgt);
  if (src.slice(srcTrail) !== tgt.slice(tgtTrail)) {
    out.push(
      warning('LeadingAndTrailingSpaces', 'trailing', ignorable, {
        srcPosition: position(srcTrail, src.length),
        srcWhitespaces: src.slice(srcTrail),
        tgtPosition: position(tgtTrail, tgt.length),
        tgtWhitespaces: tgt.slice(tgtTrail),
      }),
    );
  }
}

function isLineBreak(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029 || c === 0x85;
}

/**
 * Runs of two or more horizontal spaces inside a line (not at the start or end of the text or of a
 * line: that is indentation or trailing whitespace), as (run, position) in order.
 */
const OTHER_SPACE = /[\u00a0\u202f\u3000\u1680\u2000-\u200a\u205f]/;

function spaceRuns(text: string, visit: (run: string, begin: number, end: number) => void): void {
  let i = text.indexOf('  ');
  if (i < 0) {
    if (!OTHER_SPACE.test(text)) return;
    i = 0;
  } else {
    while (i > 0 && isHorizontalSpace(text.charCodeAt(i - 1))) i--;
  }
  const length = text.length;
  while (i < length) {
    if (!isHorizontalSpace(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < length && isHorizontalSpace(text.charCodeAt(j))) j++;
    if (j - i >= 2 && i > 0 && j < length && !isLineBreak(text.charCodeAt(i - 1)) && !isLineBreak(text.charCodeAt(j))) {
      visit(text.slice(i, j), i, j);
    }
    i = j;
  }
}

/**
 * multipleSpaces -> MultipleSpacesV3: the target has more runs of a given sequence of spaces (two or
 * more of U+0020, NBSP, U+202F, U+3000, U+2000..U+200A, inside a line) than the source. One warning
 * per distinct run (key: the run's characters as code points), with every target position of it.
 */
export function checkMultipleSpaces(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  let found: Map<string, QaPosition[]> | null = null;
  spaceRuns(target.text, (run, begin, end) => {
    found ??= new Map();
    const positions = found.get(run);
    if (positions) positions.push(position(begin, end));
    else found.set(run, [position(begin, end)]);
  });
  if (!found) return;
  const sourceCounts = new Map<string, number>();
  spaceRuns(source.text, (run) => sourceCounts.set(run, (sourceCounts.get(run) ?? 0) + 1));
  for (const [run, positions] of found as Map<string, QaPosition[]>) {
    if (positions.length > (sourceCounts.get(run) ?? 0)) {
      const key = [...run].map((c) => c.codePointAt(0)!.toString(16)).join(' ');
      out.push(warning('MultipleSpacesV3', key, ignorable, { spaces: run, positions }));
    }
  }
}
