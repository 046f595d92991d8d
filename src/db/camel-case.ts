import { CamelCasePlugin } from 'kysely';
import type { PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';

/** Kysely's own test (util/object-utils.js), which decides which nested values it maps. */
function isPlainObject(value: unknown): value is UnknownRow {
  if (typeof value !== 'object' || value === null || Object.prototype.toString.call(value) !== '[object Object]') {
    return false;
  }
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype === null) return true;
  let root: object = value;
  while (Object.getPrototypeOf(root) !== null) root = Object.getPrototypeOf(root) as object;
  return prototype === root;
}

/** Maps one row of a result whose rows all have the same keys. */
type RowMapper = (row: UnknownRow, nested: (value: unknown) => unknown) => UnknownRow;

/** Distinct key lists whose mapper is kept; past it the cache starts again (a bound, not a working size). */
const MAX_MAPPERS = 2_000;

/**
 * Kysely's CamelCasePlugin (snake_case in SQL, camelCase in code) with a cheaper row mapping.
 * The result is the same as `CamelCasePlugin.mapRow` with its default options (keys camelCased,
 * nested plain objects and plain objects in arrays mapped too, as PostgreSQL's json values are),
 * but the rows of one result share their keys, so each list of keys gets a mapper of its own,
 * generated once: one object literal with those keys (docs/performance.md, "Rows"). A literal
 * gives every row the same fast shape, where adding 40 keys one by one leaves V8 a slow
 * dictionary object that costs again at every later copy or spread. Compiled queries
 * (compiled-query.ts) map their rows with it directly.
 */
export class RowCasePlugin extends CamelCasePlugin {
  readonly #mappers = new Map<string, RowMapper>();
  /** The camelCase key of a column name, as `mapRow` names it (one function for the plugin's life). */
  readonly keyOf = (column: string): string => this.camelCase(column);
  readonly #nested = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((item: unknown) => (isPlainObject(item) ? this.mapRow(item) : item));
    return isPlainObject(value) ? this.mapRow(value) : value;
  };

  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    return Array.isArray(rows) ? { ...args.result, rows: this.mapRows(rows) } : args.result;
  }

  protected override mapRow(row: UnknownRow): UnknownRow {
    return this.#mapperFor(row)(row, this.#nested);
  }

  /** The rows as `transformResult` would give them, synchronously. */
  mapRows(rows: readonly UnknownRow[]): UnknownRow[] {
    const mapped = new Array<UnknownRow>(rows.length);
    if (rows.length === 0) return mapped;
    let keys = Object.keys(rows[0]!);
    let mapper = this.#mapperOf(keys);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      // Rows of one statement share their keys; a row that does not (never seen) gets its own mapper.
      if (i > 0 && !sameKeys(row, keys)) {
        keys = Object.keys(row);
        mapper = this.#mapperOf(keys);
      }
      mapped[i] = mapper(row, this.#nested);
    }
    return mapped;
  }

  #mapperFor(row: UnknownRow): RowMapper {
    return this.#mapperOf(Object.keys(row));
  }

  #mapperOf(keys: readonly string[]): RowMapper {
    const signature = keys.join('\u0000');
    let mapper = this.#mappers.get(signature);
    if (!mapper) {
      if (this.#mappers.size >= MAX_MAPPERS) this.#mappers.clear();
      mapper = generateMapper(keys, (key) => this.camelCase(key));
      this.#mappers.set(signature, mapper);
    }
    return mapper;
  }
}

/** Whether `row` has exactly `keys`, in that order (a cheap check when it does). */
function sameKeys(row: UnknownRow, keys: readonly string[]): boolean {
  let count = 0;
  for (const key in row) {
    if (key !== keys[count]) return false;
    count++;
  }
  return count === keys.length;
}

/**
 * `(row, nested) => ({ camelKey: nested(row["snake_key"]), … })`. Keys are written as JSON
 * string literals, so any column name is safe in the source; a `__proto__` key (which a literal
 * would take for the prototype) gets the generic loop instead.
 */
function generateMapper(keys: readonly string[], camelCase: (key: string) => string): RowMapper {
  const names = keys.map(camelCase);
  if (names.includes('__proto__') || new Set(names).size !== names.length) {
    return (row, nested) => {
      const out: UnknownRow = {};
      for (let i = 0; i < keys.length; i++) out[names[i]!] = nested(row[keys[i]!]);
      return out;
    };
  }
  const fields = keys.map((key, i) => `${JSON.stringify(names[i])}: nested(row[${JSON.stringify(key)}])`);
  // Generated from column names, each written as a JSON string literal.
  return new Function('row', 'nested', `return { ${fields.join(', ')} };`) as RowMapper;
}
