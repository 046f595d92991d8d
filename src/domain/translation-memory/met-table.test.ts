import { describe, expect, it } from 'vitest';
import { addAll, addToMet, gramsOf, lengthOf, MetTable, REMOVED_SHAPE, shapeOf } from './met-table.js';

/** Runs a list through `addAll` as the candidate index does: growing the table whenever it is full. */
function mergeList(table: MetTable, shapes: Int32Array, ids: number[], add: number, inRange: { lo: number; hi: number } | null = null) {
  const postings = Int32Array.from(ids);
  for (let from = 0; from < postings.length;) {
    if (table.met === table.room) table.grow();
    from = addAll(table, shapes, postings, from, postings.length, inRange, add);
  }
}

function gathered(table: MetTable) {
  const size = Math.max(1, table.met);
  const ids = new Int32Array(size);
  const lengths = new Int16Array(size);
  const packed = new Int32Array(size);
  const grams = new Uint16Array(size);
  const met = table.gather(ids, lengths, packed, grams);
  return [...ids.subarray(0, met)].map((id, t) => ({ id, length: lengths[t], acc: packed[t], grams: grams[t] }));
}

describe('entry shapes', () => {
  it.each([
    [0, 0],
    [1, 0],
    [17, 19],
    [4000, 4002],
    [2000, 65535],
  ])('length %i and %i trigrams survive packing', (length, grams) => {
    const shape = shapeOf(length, grams);
    expect(lengthOf(shape)).toBe(length);
    expect(gramsOf(shape)).toBe(grams);
  });

  it('a removed entry has length −1 and no trigrams', () => {
    expect(lengthOf(REMOVED_SHAPE)).toBe(-1);
    expect(gramsOf(REMOVED_SHAPE)).toBe(0);
  });
});

describe('MetTable', () => {
  const shapes = Int32Array.from({ length: 100_000 }, (_, id) => shapeOf(id % 50, id % 7));

  it("accumulates per entry and gathers in the order first met, with each entry's shape", () => {
    const table = new MetTable();
    mergeList(table, shapes, [5, 3, 9], 10);
    mergeList(table, shapes, [9, 7, 5], 1);
    expect(gathered(table)).toEqual([
      { id: 5, length: 5, acc: 11, grams: 5 },
      { id: 3, length: 3, acc: 10, grams: 3 },
      { id: 9, length: 9, acc: 11, grams: 2 },
      { id: 7, length: 7, acc: 1, grams: 0 },
    ]);
  });

  it('forgets what a search left before gathering, when cleared', () => {
    const table = new MetTable();
    mergeList(table, shapes, [4, 8], 1);
    table.clear();
    mergeList(table, shapes, [8], 2);
    expect(gathered(table).map((e) => [e.id, e.acc])).toEqual([[8, 2]]);
  });

  it('adds to entries already met only, through addToMet', () => {
    const table = new MetTable();
    mergeList(table, shapes, [1, 2], 4);
    addToMet(table, Int32Array.from([2, 3, 1, 2]), 0, 4, 100);
    expect(gathered(table).map((e) => [e.id, e.acc])).toEqual([
      [1, 104],
      [2, 204],
    ]);
  });

  it('leaves out postings whose length is outside the range, when asked', () => {
    const table = new MetTable();
    mergeList(table, shapes, [10, 20, 30, 40, 60], 1, { lo: 15, hi: 35 });
    expect(gathered(table).map((e) => e.id)).toEqual([20, 30]);
  });

  it('keeps the order and the sums across many growths, and is empty for the next search', () => {
    const table = new MetTable();
    // 60,000 distinct ids in a scrambled order, each met three times over three lists.
    const ids = Array.from({ length: 60_000 }, (_, i) => (i * 7919) % 100_000);
    mergeList(table, shapes, ids, 1);
    mergeList(table, shapes, [...ids].reverse(), 2);
    addToMet(table, Int32Array.from(ids), 0, ids.length, 4);
    expect(table.room).toBeGreaterThanOrEqual(60_000);
    const met = gathered(table);
    expect(met.map((e) => e.id)).toEqual(ids);
    expect(met.every((e) => e.acc === 7 && e.length === e.id % 50 && e.grams === e.id % 7)).toBe(true);
    expect(table.met).toBe(0);
    mergeList(table, shapes, [42], 3);
    expect(gathered(table)).toEqual([{ id: 42, length: 42, acc: 3, grams: 0 }]);
  });
});
