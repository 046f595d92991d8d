/**
 * Edit distance (Levenshtein: insertions, deletions and substitutions, each costing 1) over UTF-16
 * code units, bit-parallel after Myers (1999) in the block-based form of Hyyrö (2003): the shorter
 * string is the pattern, cut into blocks of 32 rows, each block one 32-bit word of vertical deltas;
 * every character of the longer string advances every block by one column, passing the horizontal
 * delta from block to block. Cost: O(n × ⌈m / 32⌉) for lengths n ≥ m, memory O(m), no allocation
 * per column. `LevenshteinPattern` prepares one string once for distances to many (the TM index
 * measures each query against hundreds of entries): its table of code units is built once.
 *
 * `maxDistance` bounds the work: as soon as the distance must exceed the bound (the lengths differ
 * by more, or a lower bound from the current column, `columnBound`, is above it) the function
 * returns `maxDistance + 1` without finishing. Any result ≤ `maxDistance` is exact.
 */
export function levenshtein(a: string, b: string, maxDistance = Infinity): number {
  // The pattern (rows) is the shorter string.
  const shorter = a.length <= b.length ? a : b;
  const longer = a.length <= b.length ? b : a;
  return new LevenshteinPattern(shorter).distanceToText(longer, maxDistance);
}

/** Code units below this have a row of the match table in a typed array; others in a map. */
const TABLE_CODES = 256;
/** Patterns of more blocks keep every row in the map (the typed table would cost 1 KB a block to clear). */
const TABLE_MAX_BLOCKS = 8;

/**
 * One string prepared as the pattern (the rows) of `levenshtein`, for measuring its distance to
 * many texts: the table of where each code unit occurs (one bit a row, one 32-bit word a block) is
 * built once, typed for code units below 256 (a Latin-1 text never looks up a map), and the work
 * arrays are reused. The pattern may be longer than the text: edit distance is symmetric, only the
 * cost, O(text length × ⌈pattern length / 32⌉), is not.
 */
export class LevenshteinPattern {
  readonly length: number;
  private readonly blocks: number;
  /** Code units below this have their row in `table` (TABLE_CODES, or 0 for long patterns). */
  private readonly tableCodes: number;
  /** Rows of code units below `tableCodes`: `blocks` words each. */
  private readonly table: Int32Array;
  /** Rows of the other code units. */
  private readonly others = new Map<number, Int32Array>();
  private readonly pvs: Int32Array;
  private readonly mvs: Int32Array;
  private readonly bottoms: Int32Array;

  constructor(pattern: string) {
    const m = pattern.length;
    this.length = m;
    const blocks = Math.max(1, (m + 31) >>> 5);
    this.blocks = blocks;
    this.tableCodes = blocks <= TABLE_MAX_BLOCKS ? TABLE_CODES : 0;
    this.table = new Int32Array(this.tableCodes * blocks);
    for (let i = 0; i < m; i++) {
      const c = pattern.charCodeAt(i);
      if (c < this.tableCodes) this.table[c * blocks + (i >>> 5)]! |= 1 << (i & 31);
      else {
        let row = this.others.get(c);
        if (row === undefined) {
          row = new Int32Array(blocks);
          this.others.set(c, row);
        }
        row[i >>> 5]! |= 1 << (i & 31);
      }
    }
    this.pvs = new Int32Array(blocks);
    this.mvs = new Int32Array(blocks);
    this.bottoms = new Int32Array(blocks);
  }

  /** `distance` to a string. */
  distanceToText(text: string, maxDistance = Infinity): number {
    const units = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
    return this.distance(units, 0, units.length, maxDistance);
  }

  /**
   * The distance between the pattern and the code units `text[start, end)` (a byte a code unit in
   * a Uint8Array, as the TM index keeps Latin-1 texts, or a Uint16Array), or `maxDistance + 1` as
   * soon as it must exceed `maxDistance` (any result ≤ `maxDistance` is exact).
   */
  distance(text: Uint8Array | Uint16Array, start: number, end: number, maxDistance = Infinity): number {
    const m = this.length;
    const n = end - start;
    const bound = maxDistance < 0 ? -1 : Math.floor(maxDistance);
    if (Math.abs(n - m) > bound) return bound + 1;
    if (m === 0) return n;
    if (n === 0) return m;
    return this.blocks === 1 ? this.singleWord(text, start, end, bound) : this.multiWord(text, start, end, bound);
  }

  /** Pattern of at most 32 code units: one word. */
  private singleWord(text: Uint8Array | Uint16Array, start: number, end: number, bound: number): number {
    const m = this.length;
    const table = this.table;
    const tableCodes = this.tableCodes;
    const others = this.others;
    const last = 1 << (m - 1);
    let pv = -1;
    let mv = 0;
    let score = m;
    for (let j = start; j < end; j++) {
      const c = text[j]!;
      const eq = c < tableCodes ? table[c]! : (others.get(c)?.[0] ?? 0);
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
      // The rest of the columns can lower the last row by at most one each.
      if (score - (end - j - 1) > bound) return bound + 1;
    }
    return score;
  }

  /**
   * Any pattern: blocks of 32 rows, the horizontal delta passed down from block to block (Hyyrö).
   * `bottoms` holds the value at the last row of each block, for the bound (`columnBound`).
   */
  private multiWord(text: Uint8Array | Uint16Array, start: number, end: number, bound: number): number {
    const m = this.length;
    const n = end - start;
    const blocks = this.blocks;
    const table = this.table;
    const tableCodes = this.tableCodes;
    const others = this.others;
    const pvs = this.pvs.fill(-1);
    const mvs = this.mvs.fill(0);
    const bottoms = this.bottoms;
    const lastBlock = blocks - 1;
    const lastBit = 1 << ((m - 1) & 31);
    for (let k = 0; k < blocks; k++) bottoms[k] = Math.min(32 * (k + 1), m);
    const bounded = bound < m + n;
    let score = m;
    for (let j = start; j < end; j++) {
      const c = text[j]!;
      const row = c < tableCodes ? c * blocks : -1;
      const otherRow = row < 0 ? others.get(c) : undefined;
      // Horizontal delta entering the top of the block: +1 for the first (D[0][j] = j).
      let hin = 1;
      for (let k = 0; k < blocks; k++) {
        let eq = row >= 0 ? table[row + k]! : otherRow === undefined ? 0 : otherRow[k]!;
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
      if (bounded && columnBound(bottoms, m, n, j - start + 1) > bound) return bound + 1;
    }
    return score;
  }
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
