import { errors } from '../errors/index.js';
import type { ApiError } from '../errors/index.js';

/**
 * What real clients send (docs/api-conventions.md, "What clients may send"), read the way the
 * published service reads it. Everything here is precomputed once per schema and then costs one
 * pass over the request's values: linear in the size of the request, and iterative, so a deeply
 * nested body cannot exhaust the stack.
 */

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const typesOf = (schema: Schema): string[] | undefined =>
  typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
const variantsOf = (schema: Schema): Schema[] | undefined => {
  const variants = schema.anyOf ?? schema.oneOf;
  return Array.isArray(variants) ? variants.filter(isSchema) : undefined;
};

// ---------------------------------------------------------------------------------------------
// null means "absent"
// ---------------------------------------------------------------------------------------------

const acceptsNullCache = new WeakMap<Schema, boolean>();

/**
 * Whether `schema` lets a value be null: its type lists `null`, a variant of a union does, or it
 * does not constrain the value at all. A `$ref` counts as accepting null (nothing is dropped
 * where the shape is not known here).
 */
export function acceptsNull(schema: unknown): boolean {
  if (!isSchema(schema)) return schema !== false;
  const cached = acceptsNullCache.get(schema);
  if (cached !== undefined) return cached;
  let accepts = true;
  if (typeof schema.$ref === 'string') accepts = true;
  else {
    const types = typesOf(schema);
    if (types) accepts &&= types.includes('null') || schema.nullable === true;
    if ('const' in schema) accepts &&= schema.const === null;
    if (Array.isArray(schema.enum)) accepts &&= schema.enum.includes(null);
    const variants = variantsOf(schema);
    if (variants) accepts &&= variants.some(acceptsNull);
    if (Array.isArray(schema.allOf)) accepts &&= schema.allOf.every(acceptsNull);
  }
  acceptsNullCache.set(schema, accepts);
  return accepts;
}

/** What happens to one value: dropped when it is null and `dropNull`, else walked with `node` (null: left alone). */
interface Slot {
  readonly dropNull: boolean;
  readonly node: NullNode | null;
}

interface ObjectPart {
  readonly properties: ReadonlyMap<string, Slot>;
  readonly patterns: ReadonlyArray<readonly [RegExp, Slot]>;
  /** Keys neither declared nor matched by a pattern. */
  readonly additional: Slot;
}

/** How to walk an object or array value; a part left undefined means the schema takes no value of that kind. */
interface NullNode {
  readonly object?: ObjectPart;
  /** Items of an array value; null: left alone. */
  readonly items?: NullNode | null;
}

const KEEP: Slot = { dropNull: false, node: null };
const DROP: Slot = { dropNull: true, node: null };

const slotOf = (schema: unknown): Slot => {
  if (!isSchema(schema)) return schema === false ? DROP : KEEP;
  return { dropNull: !acceptsNull(schema), node: nodeOf(schema) };
};

function slotFor(part: ObjectPart, key: string): Slot {
  const declared = part.properties.get(key);
  if (declared) return declared;
  for (const [pattern, slot] of part.patterns) if (pattern.test(key)) return slot;
  return part.additional;
}

/** Whether a value that matches `schema` may be an object or an array. */
function mayBeStructured(schema: Schema): boolean {
  if ('const' in schema || Array.isArray(schema.enum)) return false;
  const types = typesOf(schema);
  if (types) return types.includes('object') || types.includes('array');
  const variants = variantsOf(schema);
  return variants ? variants.some(mayBeStructured) : true;
}

function mergeSlots(a: Slot, b: Slot): Slot {
  return { dropNull: a.dropNull && b.dropNull, node: a.node && b.node ? mergeNodes(a.node, b.node) : null };
}

function mergeObjects(a: ObjectPart, b: ObjectPart): ObjectPart {
  if (a.patterns.length > 0 || b.patterns.length > 0) return { properties: new Map(), patterns: [], additional: KEEP };
  const properties = new Map<string, Slot>();
  for (const key of new Set([...a.properties.keys(), ...b.properties.keys()])) {
    properties.set(key, mergeSlots(slotFor(a, key), slotFor(b, key)));
  }
  return { properties, patterns: [], additional: mergeSlots(a.additional, b.additional) };
}

function mergeNodes(a: NullNode, b: NullNode): NullNode {
  const object = a.object && b.object ? mergeObjects(a.object, b.object) : (a.object ?? b.object);
  const items =
    a.items === undefined ? b.items : b.items === undefined ? a.items : a.items && b.items ? mergeNodes(a.items, b.items) : null;
  return { ...(object ? { object } : {}), ...(items !== undefined ? { items } : {}) };
}

const nodeCache = new WeakMap<Schema, NullNode | null>();
const building = new WeakSet<Schema>();

/** The walk for values of `schema`, or null when nothing beneath them may be dropped. */
function nodeOf(schema: Schema): NullNode | null {
  const cached = nodeCache.get(schema);
  if (cached !== undefined) return cached;
  if (building.has(schema) || typeof schema.$ref === 'string') return null;
  building.add(schema);
  let node: NullNode | null = null;
  const variants = variantsOf(schema);
  if (variants) {
    const structured = variants.filter(mayBeStructured).map(nodeOf);
    node = structured.length === 0 || structured.includes(null) ? null : structured.reduce((a, b) => mergeNodes(a!, b!));
  } else {
    const types = typesOf(schema);
    const isObject = types ? types.includes('object') : isSchema(schema.properties);
    const isArray = types ? types.includes('array') : schema.items !== undefined;
    if (isObject || isArray) {
      const built: { object?: ObjectPart; items?: NullNode | null } = {};
      if (isObject) {
        const properties = new Map<string, Slot>();
        for (const [key, property] of Object.entries(isSchema(schema.properties) ? schema.properties : {})) {
          properties.set(key, slotOf(property));
        }
        const patterns = Object.entries(isSchema(schema.patternProperties) ? schema.patternProperties : {}).map(
          ([pattern, property]) => [new RegExp(pattern, 'u'), slotOf(property)] as const,
        );
        const additional = schema.additionalProperties === undefined ? KEEP : slotOf(schema.additionalProperties);
        built.object = { properties, patterns, additional };
      }
      if (isArray) built.items = isSchema(schema.items) ? nodeOf(schema.items) : null;
      node = built;
    }
  }
  building.delete(schema);
  nodeCache.set(schema, node);
  return node;
}

/**
 * A function that deletes, in place, every property of a value of `schema` that is null where the
 * schema does not allow null (generated clients send every unset field as null), in nested
 * objects and arrays of objects too; null stays where the schema gives it a meaning. Undefined
 * when nothing in `schema` could be dropped.
 */
export function nullDropperFor(schema: unknown): ((value: unknown) => void) | undefined {
  if (!isSchema(schema)) return undefined;
  const root = nodeOf(schema);
  if (!root) return undefined;
  return (value) => dropNulls(value, root);
}

function dropNulls(value: unknown, root: NullNode): void {
  const stack: Array<[unknown, NullNode]> = [[value, root]];
  while (stack.length > 0) {
    const [current, node] = stack.pop()!;
    if (Array.isArray(current)) {
      const items = node.items;
      if (!items) continue;
      for (const item of current) if (typeof item === 'object' && item !== null) stack.push([item, items]);
    } else if (typeof current === 'object' && current !== null && node.object) {
      const record = current as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const child = record[key];
        const slot = slotFor(node.object, key);
        if (child === null) {
          if (slot.dropNull) delete record[key];
        } else if (typeof child === 'object' && slot.node) stack.push([child, slot.node]);
      }
    }
  }
}

/**
 * The paths (`a.b`, `list.0.c`) of the fields of `schema` where null is accepted, for
 * docs/api-conventions.md; `[]` stands for the items of an array.
 */
export function nullableFieldsOf(schema: unknown, prefix = '', seen = new Set<unknown>()): string[] {
  if (!isSchema(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const found: string[] = [];
  const visit = (s: Schema) => {
    const variants = variantsOf(s);
    if (variants) for (const variant of variants) visit(variant);
    if (isSchema(s.properties)) {
      for (const [key, property] of Object.entries(s.properties)) {
        const path = prefix ? `${prefix}.${key}` : key;
        if (isSchema(property) && acceptsNull(property) && Object.keys(property).length > 0) found.push(path);
        found.push(...nullableFieldsOf(property, path, seen));
      }
    }
    if (isSchema(s.items)) found.push(...nullableFieldsOf(s.items, `${prefix}[]`, seen));
  };
  visit(schema);
  // `seen` guards against cycles on the way down only: a schema shared by two fields is listed under both.
  seen.delete(schema);
  return [...new Set(found)];
}

// ---------------------------------------------------------------------------------------------
// Booleans in query strings, path parameters and headers, in any case
// ---------------------------------------------------------------------------------------------

const BOOLEAN_TEXT = /^(?:true|false)$/i;

function takesBoolean(schema: unknown): boolean {
  if (!isSchema(schema)) return false;
  if (typesOf(schema)?.includes('boolean')) return true;
  return variantsOf(schema)?.some(takesBoolean) ?? false;
}

function takesBooleanItems(schema: unknown): boolean {
  if (!isSchema(schema)) return false;
  if (typesOf(schema)?.includes('array') && takesBoolean(schema.items)) return true;
  return variantsOf(schema)?.some(takesBooleanItems) ?? false;
}

const lowerBoolean = (value: unknown) => (typeof value === 'string' && BOOLEAN_TEXT.test(value) ? value.toLowerCase() : value);

/**
 * A function that lowercases `True`, `FALSE`, … in the boolean fields of a query string, path or
 * headers object of `schema` (Ajv's coercion only knows `true` and `false`); undefined when the
 * schema has no boolean field.
 */
export function booleanNormalizerFor(schema: unknown): ((value: unknown) => void) | undefined {
  if (!isSchema(schema) || !isSchema(schema.properties)) return undefined;
  const scalars: string[] = [];
  const lists: string[] = [];
  for (const [key, property] of Object.entries(schema.properties)) {
    if (takesBoolean(property)) scalars.push(key);
    if (takesBooleanItems(property)) lists.push(key);
  }
  if (scalars.length === 0 && lists.length === 0) return undefined;
  return (value) => {
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    for (const key of scalars) {
      const current = record[key];
      if (typeof current === 'string') record[key] = lowerBoolean(current);
      else if (Array.isArray(current) && current.length === 1) record[key] = current.map(lowerBoolean);
    }
    for (const key of lists) {
      const current = record[key];
      if (Array.isArray(current)) record[key] = current.map(lowerBoolean);
      else if (typeof current === 'string') record[key] = lowerBoolean(current);
    }
  };
}

// ---------------------------------------------------------------------------------------------
// U+0000: PostgreSQL cannot store it in text, so no request may carry it
// ---------------------------------------------------------------------------------------------

interface Visit {
  readonly value: unknown;
  readonly parent: Visit | null;
  readonly key: string;
}

const pathOf = (visit: Visit | null, key?: string): string => {
  const keys: string[] = key === undefined ? [] : [key];
  for (let at = visit; at && at.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

const printable = (key: string) => key.replace(/\0/g, '\\u0000');

/**
 * The path (`name`, `jobs.0.uid`; '' for the value itself) of the first string or key holding a
 * U+0000 in a parsed value (objects, arrays, strings; a Map's keys and values too), or null.
 * Streams and buffers are not looked into.
 */
export function findNul(value: unknown): string | null {
  const stack: Visit[] = [{ value, parent: null, key: '' }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (current.includes('\0')) return pathOf(visit);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], parent: visit, key: String(i) });
    } else if (current instanceof Map) {
      for (const [key, item] of current as Map<unknown, unknown>) {
        if (typeof key === 'string' && key.includes('\0')) return pathOf(visit, printable(key));
        stack.push({ value: item, parent: visit, key: String(key) });
      }
    } else if (typeof current === 'object' && current !== null) {
      // An upload's body stream, a buffer: not parsed values.
      if (typeof (current as { pipe?: unknown }).pipe === 'function' || ArrayBuffer.isView(current)) continue;
      const record = current as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        if (key.includes('\0')) return pathOf(visit, printable(key));
        stack.push({ value: record[key], parent: visit, key });
      }
    }
  }
  return null;
}

/** The 400 for a U+0000 at `path` of `part` (`body`, `querystring`, `params`, `Memsource`, `json`). */
export function nulRefused(part: string, path: string): ApiError {
  const where = path ? `${part}.${path}` : part;
  return errors.InvalidArguments({
    reason: `${where} contains the character U+0000 (NUL), which cannot be stored.`,
    details: [{ field: path || part, message: 'must not contain the character U+0000 (NUL)', in: part }],
  });
}

/** Throws the 400 of nulRefused when `value` (a request part) holds a U+0000 anywhere. */
export function assertNoNul(value: unknown, part: string): void {
  const path = findNul(value);
  if (path !== null) throw nulRefused(part, path);
}
