/**
 * SCIM resources as plain objects: normalising what a client sends (known attributes under their
 * canonical names, values of their declared types) and projecting what goes back (`attributes`
 * and `excludedAttributes`, RFC 7644 §3.4.2.5). Pure.
 */
import { scimErrors } from '../../errors/index.js';
import { booleanFrom, parseAttributePath } from './filter.js';
import type { AttributePath } from './filter.js';
import { findAttribute, isCoreUserSchema } from './schema.js';
import type { AttributeDefinition } from './schema.js';

export type ScimObject = Record<string, unknown>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function normalizeSingle(definition: AttributeDefinition, value: unknown, where: string): unknown {
  if (value === undefined || value === null) return undefined;
  switch (definition.type) {
    case 'boolean': {
      const bool = booleanFrom(value);
      if (bool === null) throw scimErrors.invalidValue(`${where} must be true or false.`);
      return bool;
    }
    case 'complex':
      if (!isObject(value)) throw scimErrors.invalidValue(`${where} must be an object.`);
      return normalizeAttributes(value, definition.subAttributes ?? [], where);
    case 'integer':
    case 'decimal':
      if (typeof value !== 'number' || (definition.type === 'integer' && !Number.isInteger(value)))
        throw scimErrors.invalidValue(`${where} must be a number.`);
      return value;
    case 'dateTime':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
        throw scimErrors.invalidValue(`${where} must be a date-time string.`);
      return value;
    default:
      if (typeof value !== 'string') throw scimErrors.invalidValue(`${where} must be a string.`);
      return value;
  }
}

/**
 * `value` as the attribute's type: booleans also from "True"/"False" strings (as Microsoft Entra
 * sends them), a single value of a multi-valued attribute as a list of one. null, and an empty
 * list, are "unassigned" (RFC 7644 §3.5.2): undefined.
 */
export function normalizeValue(definition: AttributeDefinition, value: unknown, where: string = definition.name): unknown {
  if (value === undefined || value === null) return undefined;
  if (!definition.multiValued) return normalizeSingle(definition, value, where);
  const list = Array.isArray(value) ? value : [value];
  const normalized = list.map((item, i) => normalizeSingle(definition, item, `${where}[${i}]`)).filter((item) => item !== undefined);
  return normalized.length > 0 ? normalized : undefined;
}

/**
 * The attributes of `input` that `attributes` defines, under their canonical names. Unknown
 * attributes (extensions, `externalId`, `displayName`, …) and read-only ones (`id`, `meta`,
 * `schemas`) are left out: RFC 7644 §3.3 and §3.5.1 let a service provider ignore them, and
 * identity providers send many by default.
 */
export function normalizeAttributes(input: Record<string, unknown>, attributes: readonly AttributeDefinition[], where = ''): ScimObject {
  const out: ScimObject = {};
  for (const [key, value] of Object.entries(input)) {
    const definition = findAttribute(attributes, key);
    if (!definition || definition.mutability === 'readOnly') continue;
    const normalized = normalizeValue(definition, value, where ? `${where}.${definition.name}` : definition.name);
    if (normalized !== undefined) out[definition.name] = normalized;
  }
  return out;
}

// ---- attributes / excludedAttributes -------------------------------------------------------

/** `userName, name.givenName, urn:…:User:emails.value` as paths; core-schema qualifiers dropped. */
export function parseAttributeList(text: string | undefined): AttributePath[] {
  if (text === undefined) return [];
  const paths: AttributePath[] = [];
  for (const item of text.split(',')) {
    const name = item.trim();
    if (name === '') continue;
    const path = parseAttributePath(name);
    if (!path) throw scimErrors.invalidValue(`"${name}" is not an attribute name.`);
    // An attribute of another schema (an extension OpenTMS does not have) selects nothing.
    if (path.schema && !isCoreUserSchema(path.schema)) continue;
    paths.push({ ...path, schema: null });
  }
  return paths;
}

function keyOf(object: Record<string, unknown>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.keys(object).find((k) => k.toLowerCase() === wanted);
}

/** A copy of `resource` with only the `attributes` asked for, or without the `excludedAttributes`. */
export function projectResource(
  resource: ScimObject,
  projection: { attributes?: readonly AttributePath[]; excludedAttributes?: readonly AttributePath[] },
  alwaysReturned: readonly string[] = ['schemas', 'id'],
): ScimObject {
  const always = new Set(alwaysReturned.map((n) => n.toLowerCase()));
  const wanted = projection.attributes ?? [];
  if (wanted.length > 0) {
    const out: ScimObject = {};
    for (const key of Object.keys(resource)) if (always.has(key.toLowerCase())) out[key] = resource[key];
    for (const path of wanted) {
      const key = keyOf(resource, path.attribute);
      if (key === undefined) continue;
      const value = resource[key];
      if (!path.subAttribute) {
        out[key] = structuredClone(value);
      } else if (Array.isArray(value)) {
        const target = (Array.isArray(out[key]) ? out[key] : value.map(() => ({}))) as Record<string, unknown>[];
        value.forEach((item, i) => {
          const subKey = isObject(item) ? keyOf(item, path.subAttribute!) : undefined;
          if (subKey !== undefined && target[i]) target[i]![subKey] = structuredClone((item as Record<string, unknown>)[subKey]);
        });
        out[key] = target;
      } else if (isObject(value)) {
        const subKey = keyOf(value, path.subAttribute);
        if (subKey === undefined) continue;
        out[key] = { ...(isObject(out[key]) ? out[key] : {}), [subKey]: structuredClone(value[subKey]) };
      }
    }
    return out;
  }
  const out = structuredClone(resource);
  for (const path of projection.excludedAttributes ?? []) {
    const key = keyOf(out, path.attribute);
    if (key === undefined || (!path.subAttribute && always.has(key.toLowerCase()))) continue;
    if (!path.subAttribute) {
      delete out[key];
      continue;
    }
    for (const item of [out[key]].flat()) {
      if (!isObject(item)) continue;
      const subKey = keyOf(item, path.subAttribute);
      if (subKey !== undefined) delete item[subKey];
    }
  }
  return out;
}
