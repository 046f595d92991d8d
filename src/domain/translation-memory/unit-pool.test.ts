import { describe, expect, it } from 'vitest';
import { UnitPool } from './unit-pool.js';

describe('UnitPool', () => {
  it('keeps Latin-1 records a byte a code unit and others two, and reads them back', () => {
    const pool = new UnitPool();
    const latin = pool.add(['key1', 'café ', 'déjà vu\u0001']);
    const wide = pool.add(['k', 'naïve 😀 ', '日本語']);
    const empty = pool.add(['']);
    expect(UnitPool.isWide(latin)).toBe(false);
    expect(UnitPool.isWide(wide)).toBe(true);
    expect(pool.read(latin, 0, 17)).toBe('key1café déjà vu\u0001');
    expect(pool.read(latin, 4, 9)).toBe('café ');
    expect(pool.read(wide, 0, 13)).toBe('knaïve 😀 日本語');
    expect(pool.read(empty, 0, 0)).toBe('');
    expect(pool.equals(wide, 10, '日本語')).toBe(true);
    expect(pool.equals(wide, 10, '日本人')).toBe(false);
    expect(pool.unitsOf(latin)[UnitPool.startOf(latin) + 4]).toBe('c'.charCodeAt(0));
    expect(pool.unitsOf(wide)[UnitPool.startOf(wide) + 11]).toBe('本'.charCodeAt(0));
    // 17 bytes padded to 18, then 13 two-byte units, then nothing.
    expect(pool.usedBytes).toBe(18 + 26);
  });

  it('grows past its first buffer without losing records', () => {
    const pool = new UnitPool();
    const handles: number[] = [];
    const texts: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const text = i % 7 === 0 ? `Ελληνικά ${i}` : `text number ${i}`;
      texts.push(text);
      handles.push(pool.add([text]));
    }
    expect(pool.usedBytes).toBeGreaterThan(1 << 16);
    handles.forEach((handle, i) => expect(pool.read(handle, 0, texts[i]!.length)).toBe(texts[i]));
  });

  it('compacts to the live records, telling their new handles', () => {
    const pool = new UnitPool();
    const texts = ['alpha', 'βήτα', 'gamma!', 'δέλτα', 'e'];
    const handles = texts.map((text) => pool.add([text]));
    pool.remove(handles[0]!, 5);
    pool.remove(handles[3]!, 5);
    expect(pool.removedBytes).toBe(6 + 10);
    const live = [1, 2, 4];
    pool.compact({
      count: live.length,
      handle: (i) => handles[live[i]!]!,
      units: (i) => texts[live[i]!]!.length,
      moved: (i, handle) => (handles[live[i]!] = handle),
    });
    expect(pool.removedBytes).toBe(0);
    expect(pool.usedBytes).toBe(8 + 6 + 2);
    for (const i of live) expect(pool.read(handles[i]!, 0, texts[i]!.length)).toBe(texts[i]);
  });
});
