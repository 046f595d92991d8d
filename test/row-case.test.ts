import { CamelCasePlugin } from 'kysely';
import type { UnknownRow } from 'kysely';
import { describe, expect, it } from 'vitest';
import { RowCasePlugin } from '../src/db/camel-case.js';

/** Kysely's own mapping, the reference the cheaper one must equal. */
class Reference extends CamelCasePlugin {
  map(row: UnknownRow): UnknownRow {
    return this.mapRow(row);
  }
}

const reference = new Reference();
const mapped = (rows: UnknownRow[]) => new RowCasePlugin().mapRows(rows);

const ROWS: Array<[string, UnknownRow[]]> = [
  ['plain columns', [{ id: '1', project_uid: 'abc', created_at: '2026-01-01', is_active: 1, n: null }]],
  ['no rows', []],
  ['json values mapped, nested and in arrays', [{ settings_json: { inner_key: { deeper_key: 1 } }, list_of: [{ a_b: 1 }, 2, 'x', null] }]],
  ['values that are not plain objects left as they are', [{ at_date: new Date(0), raw_bytes: Buffer.from('x'), big_n: 10n }]],
  ['rows of one result with different keys', [{ a_b: 1 }, { c_d: 2, a_b: 3 }, { a_b: 4 }]],
  [
    'keys in another order',
    [
      { a_b: 1, c_d: 2 },
      { c_d: 3, a_b: 4 },
    ],
  ],
  ['keys that are not identifiers, and quotes', [{ 'with space': 1, 'quote"d': 2, "single'q": 3, 'back\\slash': 4, '1st_col': 5 }]],
  ['two keys with one camelCase name: the last wins', [{ a_b: 1, aB: 2 }]],
];

describe('RowCasePlugin maps rows exactly as Kysely’s CamelCasePlugin', () => {
  it.each(ROWS)('%s', (_name, rows) => {
    expect(mapped(rows)).toEqual(rows.map((row) => reference.map(row)));
  });

  it('a __proto__ column never becomes the prototype', () => {
    const row = JSON.parse('{"__proto__": {"polluted": true}, "a_b": 1}') as UnknownRow;
    const [out] = mapped([row]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out).toEqual(reference.map(row));
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('gives the rows of one key list the same mapper, and the same shape', () => {
    const plugin = new RowCasePlugin();
    const [a, b] = plugin.mapRows([
      { x_y: 1, z_w: 'a' },
      { x_y: 2, z_w: 'b' },
    ]);
    expect(Object.keys(a!)).toEqual(Object.keys(b!));
    expect([a, b]).toEqual([
      { xY: 1, zW: 'a' },
      { xY: 2, zW: 'b' },
    ]);
  });
});
