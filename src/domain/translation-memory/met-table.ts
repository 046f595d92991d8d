/**
 * The entries one search of the candidate index meets, with their accumulators (candidate-index.ts,
 * step 2 "Merge"). Pure; no I/O.
 *
 * Why a table and not one accumulator per entry: a merge reads tens of thousands of postings of a
 * million-entry index, and an array indexed by entry id (4 MB, plus a bit per entry for "met") is
 * touched at random, so nearly every posting was a cache miss (measured: about 30 ns a posting, and
 * the gathering after the merge as much again). The table is sized to what one search can meet (at
 * most the postings it reads): a few hundred KB that stay in the processor's own cache.
 *
 * Open addressing with linear probing, at load ≤ ½: per slot two integers, the entry id + 1 (0 is
 * an empty slot) and its accumulator. `order` keeps the slots in the order their entries were first
 * met, which the candidate index's ranking keeps for ties (so the answers do not depend on the
 * table). The merge's loops are standalone functions over the arrays, small and monomorphic; each
 * writes its probe out (one shared probe function measured 4–6 % slower for the whole search).
 */

/**
 * An entry's shape: its compared length in the low 16 bits (two's complement: −1 for a free or
 * removed id; lengths are at most 4000) and its distinct trigram count in the high 16.
 */
export const shapeOf = (length: number, grams: number) => (grams << 16) | (length & 0xffff);
export const lengthOf = (shape: number) => (shape << 16) >> 16;
export const gramsOf = (shape: number) => shape >>> 16;
export const REMOVED_SHAPE = shapeOf(-1, 0);

/** Slots of a fresh table (a power of two). */
const MIN_SLOTS = 1024;
/** Fibonacci hashing: ids that are neighbours land far apart. */
const HASH_MULTIPLIER = 0x9e3779b1;

export class MetTable {
  /** Two integers a slot: entry id + 1 (0: empty), accumulator. */
  slots = new Int32Array(2 * MIN_SLOTS);
  /** Per slot, the entry's shape, read when it is first met. */
  shapes = new Int32Array(MIN_SLOTS);
  /** The slots in the order met. */
  order = new Int32Array(MIN_SLOTS >>> 1);
  /** 32 − log2(slots): the hash's shift. */
  shift = 32 - Math.log2(MIN_SLOTS);
  /** Entries met so far in this search. */
  met = 0;

  /** Bytes of the table's arrays. */
  get byteLength(): number {
    return this.slots.byteLength + this.shapes.byteLength + this.order.byteLength;
  }

  /** Entries the table holds before it must grow (load ½). */
  get room(): number {
    return this.order.length;
  }

  /** Forgets the entries met (only left over when a search ended before `gather`). */
  clear(): void {
    for (let t = 0; t < this.met; t++) this.slots[this.order[t]! << 1] = 0;
    this.met = 0;
  }

  /** Doubles the table: the entries met are moved into it, in the order met. */
  grow(): void {
    const capacity = this.shapes.length * 2;
    const oldSlots = this.slots;
    const oldShapes = this.shapes;
    const slots = new Int32Array(2 * capacity);
    const shapes = new Int32Array(capacity);
    const order = new Int32Array(capacity >>> 1);
    const shift = 32 - Math.log2(capacity);
    const mask = capacity - 1;
    for (let t = 0; t < this.met; t++) {
      const from = this.order[t]!;
      const key = oldSlots[2 * from]!;
      let slot = Math.imul(key - 1, HASH_MULTIPLIER) >>> shift;
      while (slots[2 * slot] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = key;
      slots[2 * slot + 1] = oldSlots[2 * from + 1]!;
      shapes[slot] = oldShapes[from]!;
      order[t] = slot;
    }
    this.slots = slots;
    this.shapes = shapes;
    this.order = order;
    this.shift = shift;
  }

  /**
   * Ends the search's merge: the ids of the entries met, in the order met, into `ids`; their
   * lengths, accumulators and trigram counts into the dense arrays; the table emptied for the next
   * search. Returns the count met.
   */
  gather(ids: Int32Array, metLengths: Int16Array, metPacked: Int32Array, metGrams: Uint16Array): number {
    const met = this.met;
    gatherMet(this.slots, this.shapes, this.order, met, ids, metLengths, metPacked, metGrams);
    this.met = 0;
    return met;
  }
}

/**
 * Adds `add` to the accumulator of the entry of each posting of `postings[start, end)` (with
 * `inRange`, only of those whose length is in [lo, hi]), inserting the entries met for the first
 * time with their shape. Stops early when the table is full (load ½): returns the position
 * reached (`end` when done); the caller grows the table and goes on from there.
 */
export function addAll(
  table: MetTable,
  shapes: Int32Array,
  postings: Int32Array,
  start: number,
  end: number,
  inRange: { lo: number; hi: number } | null,
  add: number,
): number {
  const slots = table.slots;
  const metShapes = table.shapes;
  const order = table.order;
  const room = order.length;
  const shift = table.shift;
  const mask = metShapes.length - 1;
  const checked = inRange !== null;
  const lo = inRange?.lo ?? 0;
  const hi = inRange?.hi ?? 0;
  let met = table.met;
  let p = start;
  for (; p < end; p++) {
    const id = postings[p]!;
    let shape = 0;
    if (checked) {
      shape = shapes[id]!;
      const m = lengthOf(shape);
      if (m < lo || m > hi) continue;
    }
    const key = id + 1;
    let slot = Math.imul(id, HASH_MULTIPLIER) >>> shift;
    for (;;) {
      const at = slot << 1;
      const found = slots[at]!;
      if (found === key) {
        slots[at + 1]! += add;
        break;
      }
      if (found === 0) {
        slots[at] = key;
        slots[at + 1] = add;
        // Read now, while the merge's next postings are fetched: the cache miss overlaps them.
        metShapes[slot] = checked ? shape : shapes[id]!;
        order[met++] = slot;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (met === room) {
      p++;
      break;
    }
  }
  table.met = met;
  return p;
}

/** Adds `add` to the accumulators of the postings' entries already met only. */
export function addToMet(table: MetTable, postings: Int32Array, start: number, end: number, add: number): void {
  const slots = table.slots;
  const shift = table.shift;
  const mask = table.shapes.length - 1;
  for (let p = start; p < end; p++) {
    const id = postings[p]!;
    const key = id + 1;
    let slot = Math.imul(id, HASH_MULTIPLIER) >>> shift;
    for (;;) {
      const at = slot << 1;
      const found = slots[at]!;
      if (found === key) {
        slots[at + 1]! += add;
        break;
      }
      if (found === 0) break;
      slot = (slot + 1) & mask;
    }
  }
}

function gatherMet(
  slots: Int32Array,
  shapes: Int32Array,
  order: Int32Array,
  met: number,
  ids: Int32Array,
  metLengths: Int16Array,
  metPacked: Int32Array,
  metGrams: Uint16Array,
): void {
  for (let t = 0; t < met; t++) {
    const slot = order[t]!;
    const at = slot << 1;
    ids[t] = slots[at]! - 1;
    metPacked[t] = slots[at + 1]!;
    slots[at] = 0;
    const shape = shapes[slot]!;
    metLengths[t] = lengthOf(shape);
    metGrams[t] = gramsOf(shape);
  }
}
