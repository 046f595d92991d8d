/**
 * SCIM PATCH (RFC 7644 §3.5.2): reading a PatchOp message and applying its operations to a
 * resource held as a plain object. Pure: the caller turns the patched resource back into a record
 * and checks it like a replacement.
 *
 * Tolerances, for what identity providers really send:
 * - `op` in any case (`"Replace"`, Microsoft Entra) and booleans as strings (`"value": "False"`);
 * - without a `path`, `value` is an object whose keys may themselves be paths (`"name.givenName"`)
 *   and may include read-only attributes echoed back (`id`, `meta`), which are skipped;
 * - attributes OpenTMS does not keep (extensions, `externalId`, `displayName`, `phoneNumbers`, …)
 *   are ignored, so that a provider's default attribute mapping works.
 * A `path` naming a read-only attribute is refused (`mutability`).
 */
import { scimErrors } from '../../errors/index.js';
import { evaluateFilter, formatAttributePath, getAttribute, booleanFrom, parseAttributePath, parsePatchPath } from './filter.js';
import type { Filter, PatchPath } from './filter.js';
import { isObject, normalizeValue } from './resource.js';
import type { ScimObject } from './resource.js';
import { COMMON_ATTRIBUTES, PATCH_OP_URN, findAttribute, isCoreUserSchema } from './schema.js';
import type { AttributeDefinition } from './schema.js';

export type PatchOp = 'add' | 'remove' | 'replace';

export interface PatchOperation {
  readonly op: PatchOp;
  readonly path: PatchPath | null;
  readonly value: unknown;
}

/** The operations of a PatchOp message; throws `invalidSyntax`, `invalidPath`, `invalidFilter`, `noTarget` or `invalidValue`. */
export function parsePatchRequest(body: unknown): PatchOperation[] {
  if (!isObject(body))
    throw scimErrors.invalidSyntax(`The body must be a PatchOp message: {"schemas": ["${PATCH_OP_URN}"], "Operations": [...]}.`);
  const schemas = getAttribute(body, 'schemas');
  if (
    schemas !== undefined &&
    !(Array.isArray(schemas) && schemas.some((s) => typeof s === 'string' && s.toLowerCase() === PATCH_OP_URN.toLowerCase()))
  ) {
    throw scimErrors.invalidSyntax(`"schemas" must contain "${PATCH_OP_URN}".`);
  }
  const operations = getAttribute(body, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0)
    throw scimErrors.invalidSyntax('"Operations" must be a list of at least one operation.');
  return operations.map((operation: unknown, i): PatchOperation => {
    const where = `Operations[${i}]`;
    if (!isObject(operation)) throw scimErrors.invalidSyntax(`${where} must be an object.`);
    const rawOp = getAttribute(operation, 'op');
    const op = typeof rawOp === 'string' ? rawOp.trim().toLowerCase() : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace')
      throw scimErrors.invalidSyntax(`${where}.op must be "add", "remove" or "replace".`);
    const rawPath = getAttribute(operation, 'path');
    if (rawPath !== undefined && rawPath !== null && typeof rawPath !== 'string')
      throw scimErrors.invalidPath(`${where}.path must be a string.`);
    const path = typeof rawPath === 'string' && rawPath.trim() !== '' ? parsePatchPath(rawPath.trim()) : null;
    const value = getAttribute(operation, 'value');
    if (op === 'remove' && !path) throw scimErrors.noTarget(`${where}: a remove operation needs a "path".`);
    if (op !== 'remove' && value === undefined) throw scimErrors.invalidValue(`${where}: an ${op} operation needs a "value".`);
    return { op, path, value };
  });
}

/** `resource` with `operations` applied in order; the input is not changed. */
export function applyPatch(
  resource: ScimObject,
  operations: readonly PatchOperation[],
  attributes: readonly AttributeDefinition[],
): ScimObject {
  const result = structuredClone(resource);
  for (const operation of operations) {
    if (operation.path) applyAtPath(result, operation.op, operation.path, operation.value, attributes, false);
    else applyValueObject(result, operation.op, operation.value, attributes);
  }
  return result;
}

function applyValueObject(resource: ScimObject, op: PatchOp, value: unknown, attributes: readonly AttributeDefinition[]): void {
  if (!isObject(value))
    throw scimErrors.invalidValue(`Without a "path", the "value" of an ${op} operation must be an object of attributes.`);
  for (const [key, item] of Object.entries(value)) {
    if (key.toLowerCase() === 'schemas') continue;
    const path = parseAttributePath(key);
    if (!path) throw scimErrors.invalidPath(`"${key}" in the value of an ${op} operation is not an attribute name.`);
    applyAtPath(resource, op, { ...path, filter: null }, item, attributes, true);
  }
}

function applyAtPath(
  resource: ScimObject,
  op: PatchOp,
  path: PatchPath,
  value: unknown,
  attributes: readonly AttributeDefinition[],
  skipReadOnly: boolean,
): void {
  // Attributes of extension schemas are not kept.
  if (path.schema && !isCoreUserSchema(path.schema)) return;
  const definition = findAttribute(attributes, path.attribute);
  if (!definition || definition.mutability === 'readOnly') {
    const readOnly =
      definition ?? findAttribute(COMMON_ATTRIBUTES, path.attribute) ?? (path.attribute.toLowerCase() === 'schemas' ? path : undefined);
    if (readOnly && !skipReadOnly) throw scimErrors.mutability(`"${formatAttributePath(path)}" is read-only.`);
    return; // unknown: ignored
  }
  if (path.filter) applyToSelectedValues(resource, op, definition, path.filter, path.subAttribute, value);
  else if (path.subAttribute) applyToSubAttribute(resource, op, definition, path.subAttribute, value);
  else applyToAttribute(resource, op, definition, value);
}

const asList = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? [...value] : [value]);

function store(resource: ScimObject, key: string, value: unknown): void {
  const empty = value === undefined || (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
  if (empty) delete resource[key];
  else resource[key] = value;
}

/** Two values of a multi-valued attribute are the same when their `value`s are (for complex ones). */
function sameValue(a: unknown, b: unknown, definition: AttributeDefinition): boolean {
  if (definition.type !== 'complex')
    return typeof a === 'string' && typeof b === 'string' && !definition.caseExact ? a.toLowerCase() === b.toLowerCase() : a === b;
  if (!isObject(a) || !isObject(b)) return false;
  const sub = findAttribute(definition.subAttributes, 'value');
  if (sub && a[sub.name] !== undefined) return sameValue(a[sub.name], b[sub.name], sub);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** At most one value is primary (RFC 7643 §2.4): the one written last wins. */
function settlePrimary(list: unknown[], written: unknown[], definition: AttributeDefinition): void {
  const primary = findAttribute(definition.subAttributes, 'primary');
  if (!primary) return;
  const newPrimary = written.find((item) => isObject(item) && item[primary.name] === true);
  if (!newPrimary) return;
  for (const item of list) if (item !== newPrimary && isObject(item) && item[primary.name] === true) item[primary.name] = false;
}

function applyToAttribute(resource: ScimObject, op: PatchOp, definition: AttributeDefinition, value: unknown): void {
  const key = definition.name;
  if (op === 'remove') {
    if (definition.multiValued && value !== undefined && value !== null) {
      // `"op": "remove", "path": "emails", "value": [{"value": "a@b"}]` removes just those values.
      const doomed = asList(normalizeValue(definition, value));
      store(
        resource,
        key,
        asList(resource[key]).filter((item) => !doomed.some((d) => sameValue(d, item, definition))),
      );
    } else {
      delete resource[key];
    }
    return;
  }
  const normalized = normalizeValue(definition, value);
  if (normalized === undefined) {
    // null or [] is "unassigned": replacing with it removes, adding it adds nothing.
    if (op === 'replace') delete resource[key];
    return;
  }
  if (definition.multiValued) {
    const added = normalized as unknown[];
    const list = op === 'add' ? [...asList(resource[key]), ...added] : added;
    settlePrimary(list, added, definition);
    store(resource, key, list);
  } else if (definition.type === 'complex') {
    // Sub-attributes not given keep their values, for add and replace alike (§3.5.2.1, §3.5.2.3).
    const current = resource[key];
    store(resource, key, { ...(isObject(current) ? current : {}), ...(normalized as ScimObject) });
  } else {
    resource[key] = normalized;
  }
}

function applyToSubAttribute(
  resource: ScimObject,
  op: PatchOp,
  definition: AttributeDefinition,
  subAttribute: string,
  value: unknown,
): void {
  if (definition.type !== 'complex') throw scimErrors.invalidPath(`"${definition.name}" has no sub-attributes.`);
  const sub = findAttribute(definition.subAttributes, subAttribute);
  if (!sub) return; // name.formatted, name.middleName, …: not kept
  const normalized = op === 'remove' ? undefined : normalizeValue(sub, value, `${definition.name}.${sub.name}`);
  const set = (item: Record<string, unknown>) => {
    if (normalized === undefined) delete item[sub.name];
    else item[sub.name] = normalized;
  };
  if (definition.multiValued) {
    // `emails.value` without a filter: every value.
    const list = asList(resource[definition.name])
      .filter(isObject)
      .map((item) => ({ ...item }));
    if (list.length === 0 && normalized !== undefined) list.push({});
    list.forEach(set);
    store(resource, definition.name, list);
    return;
  }
  const current = resource[definition.name];
  const object = isObject(current) ? { ...current } : {};
  set(object);
  store(resource, definition.name, object);
}

/** `type eq "work" and primary eq true` -> `{type: "work", primary: true}`: what a new value selected by the filter must hold. */
function valuesFromFilter(filter: Filter, subAttributes: readonly AttributeDefinition[]): Record<string, unknown> {
  if (filter.kind === 'and') return { ...valuesFromFilter(filter.left, subAttributes), ...valuesFromFilter(filter.right, subAttributes) };
  if (filter.kind !== 'compare' || filter.operator !== 'eq' || filter.value === null || filter.path.subAttribute) return {};
  const sub = findAttribute(subAttributes, filter.path.attribute);
  if (!sub) return {};
  const value = sub.type === 'boolean' ? booleanFrom(filter.value) : filter.value;
  return value === null ? {} : { [sub.name]: value };
}

function applyToSelectedValues(
  resource: ScimObject,
  op: PatchOp,
  definition: AttributeDefinition,
  filter: Filter,
  subAttribute: string | null,
  value: unknown,
): void {
  if (!definition.multiValued || definition.type !== 'complex') {
    throw scimErrors.invalidPath(`"${definition.name}" is not a multi-valued complex attribute, so a value filter cannot select in it.`);
  }
  const subAttributes = definition.subAttributes ?? [];
  let list = asList(resource[definition.name])
    .filter(isObject)
    .map((item) => ({ ...item }));
  const selected = list.filter((item) => evaluateFilter(filter, item, subAttributes));
  const written: Record<string, unknown>[] = [];
  const noMatch = () => scimErrors.noTarget(`No value of "${definition.name}" matches the filter of the path.`);

  if (subAttribute) {
    const sub = findAttribute(subAttributes, subAttribute);
    if (!sub) return; // a sub-attribute OpenTMS does not keep
    const normalized = op === 'remove' ? undefined : normalizeValue(sub, value, `${definition.name}.${sub.name}`);
    if (selected.length === 0 && op !== 'remove') {
      if (op === 'replace') throw noMatch();
      if (normalized !== undefined) {
        // add to `emails[type eq "work"].value` when there is no work address yet: a new value.
        const item = { ...valuesFromFilter(filter, subAttributes), [sub.name]: normalized };
        list.push(item);
        written.push(item);
      }
    }
    for (const item of selected) {
      if (normalized === undefined) delete item[sub.name];
      else item[sub.name] = normalized;
      written.push(item);
    }
  } else if (op === 'remove') {
    list = list.filter((item) => !selected.includes(item));
  } else {
    const normalized = normalizeValue({ ...definition, multiValued: false }, value, definition.name) as Record<string, unknown> | undefined;
    if (selected.length === 0) {
      if (op === 'replace') throw noMatch();
      if (normalized !== undefined) {
        const item = { ...valuesFromFilter(filter, subAttributes), ...normalized };
        list.push(item);
        written.push(item);
      }
    } else if (normalized === undefined) {
      if (op === 'replace') list = list.filter((item) => !selected.includes(item));
    } else {
      for (const item of selected) {
        if (op === 'replace') for (const k of Object.keys(item)) delete item[k];
        Object.assign(item, normalized);
        written.push(item);
      }
    }
  }
  settlePrimary(list, written, definition);
  store(resource, definition.name, list);
}
