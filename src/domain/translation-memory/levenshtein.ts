/**
 * Edit distance (Levenshtein: insertions, deletions and substitutions, each costing 1) over UTF-16
 * code units, bit-parallel after Myers (1999) in the block-based form of Hyyrö (2003): the shorter
 * string is the pattern, cut into blocks of 32 rows, each block one 32-bit word of vertical deltas;
 * every character of the longer string advances every block by one column, passing the horizontal
 * delta from block to block. Cost: O(n × ⌈m / 32⌉) for lengths n ≥ m, memory O(m), no allocation
 * per column.
 *
 * `maxDistance` bounds the work: as soon as the distance must exceed the bound (the lengths differ
 * by more, or a lower bound from the current column, `columnBound`, is above it) the function
 * returns `maxDistance + 1` without finishing. Any result ≤ `maxDistance` is exact.
 */
export function levenshtein(a: string, b: string, maxDistance = Infinity): number {
  // The pattern (rows) is the shorter string.
  const pattern = a.length <= b.length ? a : b;
  const text = a.length <= b.length ? b : a;
  const m = pattern.length;
  const n = text.length;
  const bound = maxDistance < 0 ? -1 : Math.floor(maxDistance);
  if (n - m > bound) return bound + 1;
  if (m === 0) return n;
  return m <= 32 ? singleWord(pattern, text, bound) : multiWord(pattern, text, bound);
}

/** Pattern of at most 32 code units: one word. */
function singleWord(pattern: string, text: string, bound: number): number {
  const m = pattern.length;
  const n = text.length;
  const peq = new Map<number, number>();
  for (let i = 0; i < m; i++) {
    const c = pattern.charCodeAt(i);
    peq.set(c, (peq.get(c) ?? 0) | (1 << i));
  }
  const last = 1 << (m - 1);
  let pv = -1;
  let mv = 0;
  let score = m;
  for (let j = 0; j < n; j++) {
    const eq = peq.get(text.charCodeAt(j)) ?? 0;
    const xv = eq | mv;
    const xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & last) score++;
    else if (mh & last) score--;
    // The top row grows by one per column (D[0][j] = j): a +1 enters at bit 0.
    ph = (ph << 1) | 1;
    mh = mh << 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    if (score - (n - j - 1) > bound) return bound + 1;
  }
  return score;
}

/** Pattern longer than 32 code units: ⌈m / 32⌉ words, the horizontal delta carried between them. */
function multiWord(pattern: string, text: string, bound: number): number {
  const m = pattern.length;
  const n = text.length;
  const blocks = (m + 31) >>> 5;
  const peq = new Map<number, Int32Array>();
  for (let i = 0; i < m; i++) {
    const c = pattern.charCodeAt(i);
    let row = peq.get(c);
    if (row === undefined) {
      row = new Int32Array(blocks);
      peq.set(c, row);
    }
    row[i >>> 5]! |= 1 << (i & 31);
  }
  const none = new Int32Array(blocks);
  const pvs = new Int32Array(blocks).fill(-1);
  const mvs = new Int32Array(blocks);
  const lastBlock = blocks - 1;
  const lastBit = 1 << ((m - 1) & 31);
  // The value at the bottom row of each block (D[min(32(k + 1), m)][j]), for the bound.
  const bottoms = new Int32Array(blocks);
  for (let k = 0; k < blocks; k++) bottoms[k] = Math.min(32 * (k + 1), m);
  const bounded = bound < m + n;
  let score = m;
  for (let j = 0; j < n; j++) {
    const eqs = peq.get(text.charCodeAt(j)) ?? none;
    // Horizontal delta entering the top of the block: +1 for the first (D[0][j] = j).
    let hin = 1;
    for (let k = 0; k < blocks; k++) {
      let eq = eqs[k]!;
      const pv = pvs[k]!;
      const mv = mvs[k]!;
      const xv = eq | mv;
      if (hin < 0) eq |= 1;
      const xh = (((eq & pv) + pv) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      const hout = ph < 0 ? 1 : mh < 0 ? -1 : 0;
      if (k === lastBlock) {
        if (ph & lastBit) score++;
        else if (mh & lastBit) score--;
        bottoms[k] = score;
      } else bottoms[k]! += hout;
      ph <<= 1;
      mh <<= 1;
      if (hin < 0) mh |= 1;
      else if (hin > 0) ph |= 1;
      pvs[k] = mh | ~(xv | ph);
      mvs[k] = ph & xv;
      hin = hout;
    }
    if (bounded && columnBound(bottoms, m, n, j + 1) > bound) return bound + 1;
  }
  return score;
}

/**
 * A lower bound of the final distance after `column` columns: every alignment passes some row `i`
 * of this column, the values never decrease along it, and at least |(m − i) − (n − column)| edits
 * remain; within a block a row is at most (rows below it in the block) lower than the bottom.
 * O(blocks), like one column of the distance.
 */
function columnBound(bottoms: Int32Array, m: number, n: number, column: number): number {
  const target = m - (n - column); // the row from which the rest is a diagonal
  let lower = column + Math.abs(target); // row 0: D[0][column] = column
  for (let k = 0; k < bottoms.length; k++) {
    const top = 32 * k + 1;
    const bottom = Math.min(32 * (k + 1), m);
    const gap = target < top ? top - target : target > bottom ? target - bottom : 0;
    const candidate = bottoms[k]! - (bottom - top) + gap;
    if (candidate < lower) lower = candidate;
  }
  return lower;
}

/** The textbook dynamic programme, O(m × n): the reference the tests check `levenshtein` against. */
export function levenshteinReference(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let previous = new Array<number>(n + 1);
  let current = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= m; i++) {
    current[0] = i;
    const c = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const substitution = previous[j - 1]! + (c === b.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[n]!;
}
